"""JSON Schema validation of cases and specs, with errors pointed at their YAML line."""
import json
from functools import cache
from importlib import resources

import jsonschema
from referencing import Registry, Resource

from harness.errors import InputError
from harness.yamlfile import Document

_BASE = "https://game-harness.invalid/schemas/"


@cache
def _registry() -> Registry:
    resources_ = []
    for name in ("case.schema.json", "spec.schema.json"):
        contents = json.loads(resources.files("harness.schemas").joinpath(name).read_text("utf-8"))
        resources_.append((_BASE + name, Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


@cache
def _validator(name: str):
    schema = _registry()[_BASE + name].contents
    return jsonschema.Draft202012Validator(schema, registry=_registry())


def _describe(error) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "top level"
    if error.validator == "additionalProperties":
        return f"{where}: {error.message}; remove it or check its spelling"
    if error.validator == "required":
        return f"{where}: {error.message}"
    if error.validator == "oneOf" and error.context:
        best = min(error.context, key=lambda e: len(list(e.absolute_path)))
        return f"{where}: {best.message}"
    return f"{where}: {error.message}"


def validate(document: Document, name: str) -> None:
    """Raise InputError at the first schema violation (the deepest, most specific one)."""
    if not isinstance(document.data, dict):
        raise InputError("expected a mapping of keys to values at the top level", document.path, 1)
    errors = sorted(_validator(name).iter_errors(document.data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        path = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set(error.schema.get("properties", {}))
            extra = [key for key in error.instance if key not in allowed]
            path += extra[:1]
        line = document.line_of(path)
        raise InputError(_describe(error), document.path, line)
