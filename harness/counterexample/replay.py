"""A counterexample's game written as one command-line value, and read back: the item that
judges it, the lines typed and whatever else of its context differs from a plain case (the
milestone, target, arguments, seed, comparison and limits), so `harness check --replay` plays
and judges the very same game, with no case's name in it."""
import json

from harness.counterexample.game import Context
from harness.errors import InputError
from harness.loading.spec import Spec

FIELDS = ("milestone", "target", "args", "seed", "compare", "limits")


def encode(context: Context, inputs: tuple[str, ...]) -> str:
    """The game as one JSON object (fields of a plain case left out)."""
    out: dict = {"item": context.rubric, "lines": list(inputs)}
    plain = {"milestone": None, "args": (), "seed": None, "compare": None, "limits": {}}
    for name in FIELDS:
        value = getattr(context, name)
        if name in ("compare", "limits"):
            value = json.loads(value)
        if name == "target" or value != plain.get(name):
            out[name] = list(value) if name == "args" else value
    return json.dumps(out, separators=(",", ":"))


def decode(text: str, spec: Spec, milestone: str | None) -> tuple[Context, tuple[str, ...]]:
    """The game of a --replay value; a value that is not one: InputError naming the fix."""
    fix = "give --replay the value `harness check --counterexample` printed, as it is"
    try:
        data = json.loads(text)
    except ValueError as problem:
        raise InputError(f"--replay is not JSON ({problem}); {fix}") from None
    if not isinstance(data, dict) or not isinstance(data.get("lines"), list) \
            or not all(isinstance(line, str) for line in data["lines"]):
        raise InputError(f"--replay needs an object with \"lines\": a list of strings; {fix}")
    target = data.get("target", next(iter(spec.targets)))
    if target not in spec.targets:
        raise InputError(f"--replay names target {target!r}, which {spec.game} does not have; {fix}")
    items = {item.id for item in spec.items(data.get("milestone", milestone)) if item.graded}
    if data.get("item") not in items:
        raise InputError(f"--replay names item {data.get('item')!r}, which is not a graded item of {spec.game}; {fix}")
    args, seed = data.get("args", []), data.get("seed")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args) \
            or seed is not None and not isinstance(seed, int):
        raise InputError(f"--replay's args must be a list of strings and its seed a whole number; {fix}")
    return Context("", data.get("milestone", milestone), target, data["item"], tuple(args), seed,
                   json.dumps(data.get("compare"), sort_keys=True),
                   json.dumps(data.get("limits", {}), sort_keys=True)), tuple(data["lines"])
