"""JSON Schema validation of cases and specs, with errors pointed at their YAML line.

A document once found valid is remembered by the hash of its content and of the schema (a
marker file in the user's cache), so a later run loads it without importing or running the
validator, which is most of a short `harness` call's start-up; errors are never remembered.
"""
import difflib
import hashlib
import json
import re
from functools import cache
from pathlib import Path

from harness.errors import InputError
from harness.loading import paths
from harness.loading.yamlfile import Document

_BASE = "https://game-harness.invalid/schemas/"


SCHEMAS = Path(__file__).with_name("schemas")  # package data: a folder beside this module


@cache
def _schema_text(name: str) -> str:
    return (SCHEMAS / name).read_text("utf-8")


def _marker(document: Document, name: str) -> Path | None:
    """Where the proof that this content passed this schema is kept (None: not keepable)."""
    try:
        content = json.dumps(document.data, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    digest = hashlib.sha256(f"{_schema_text(name)}\0{content}".encode("utf-8", "surrogateescape")).hexdigest()
    return paths.cache_root() / "valid" / digest[:2] / digest


def _remember(marker: Path | None) -> None:
    if marker is None:
        return
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass


@cache
def _registry():
    from referencing import Registry, Resource
    resources_ = []
    for name in ("case.schema.json", "spec.schema.json", "samples.schema.json"):
        contents = json.loads(_schema_text(name))
        resources_.append((_BASE + name, Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


@cache
def _validator(name: str):
    import jsonschema
    schema = _registry()[_BASE + name].contents
    return jsonschema.Draft202012Validator(schema, registry=_registry())


def _unknown(error) -> list[str]:
    """The keys an additionalProperties error is about: those its mapping may not hold."""
    allowed = set(error.schema.get("properties", {}))
    patterns = list(error.schema.get("patternProperties", {}))
    return [key for key in error.instance
            if key not in allowed and not any(re.search(pattern, str(key)) for pattern in patterns)]


def _describe(error) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "top level"
    if error.validator == "additionalProperties":
        unknown = _unknown(error) if isinstance(error.instance, dict) else []
        near = difflib.get_close_matches(str(unknown[0]), list(error.schema.get("properties", {})), n=1,
                                         cutoff=0.6) if unknown else []
        if near:
            return f"{where}: {error.message}; did you mean `{near[0]}`?"
        return f"{where}: {error.message}; remove it or check its spelling"
    if error.validator == "required":
        return f"{where}: {error.message}"
    choices = error.validator_value if error.validator == "oneOf" else None
    if choices and all(isinstance(c, dict) and set(c) == {"required"} for c in choices):
        keys = " or ".join(name for c in choices for name in c["required"])
        return f"{where}: give one of {keys}" + ("" if error.context else ", not several")
    if error.validator == "oneOf" and error.context:
        best = min(error.context, key=lambda e: len(list(e.absolute_path)))
        return f"{where}: {best.message}"
    return f"{where}: {error.message}"


def validate(document: Document, name: str) -> None:
    """Raise InputError at the first schema violation (the deepest, most specific one)."""
    if not isinstance(document.data, dict):
        raise InputError("expected a mapping of keys to values at the top level", document.path, 1)
    marker = _marker(document, name)
    if marker is not None and marker.exists():
        return
    import jsonschema
    errors = sorted(_validator(name).iter_errors(document.data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        path = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            path += _unknown(error)[:1]
        line = document.line_of(path)
        raise InputError(_describe(error), document.path, line)
    _remember(marker)
