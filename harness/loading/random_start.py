"""A spec's `random_start:` read once into typed settings: how a start is found in a program's
output, how the reference is asked about it, what it is charged to, and the law of its values.

Everything a random start does (reading, planning, drawing again, settling, the law's check)
lives in `harness.starts`; this module only says what the spec declared, checked at load with
the file and line of anything wrong.
"""
from dataclasses import dataclass
from typing import Callable

from harness.errors import InputError
from harness.loading import yamlfile

# The longest start read unless the spec says `max_chars`: a start is a position a person reads
# at a glance, a few hundred characters; a longer "start" is not one a person would read as a game's.
START_CHARS = 4096


@dataclass(frozen=True)
class Law:
    """What the spec says a program's starts must look like (`random_start.distribution`)."""
    probabilities: dict[str, float]  # every value a start may show, and its probability
    values: str | None  # "module:function": a start -> the values it shows (default: the start itself)
    least: int  # values to collect before judging
    case: str  # the case run again when the grading's own runs drew too few
    distinct: bool  # count each distinct start once (a clock-seeded program repeats its starts)
    points: float
    rubric: str | None
    pattern: str | None = None  # or: every match of this RE2 pattern in the start is a value (each group, if any)
    fact: str | None = None  # or: every fact of this kind the state reader reads in the start is a value
    state_read: str | None = None  # the spec's state reader ("module:function"), for `fact`


@dataclass(frozen=True)
class RandomStart:
    """How a game that begins from a random position is graded (see harness.starts)."""
    option: str  # the reference's option taking a start in a file (`--start-file`)
    plan_option: str  # with `option`: the reference prints the lines a strategy types
    rejected_exit: int  # the reference's exit for a start against the rules
    unplayable_exit: int  # ... for a start within the rules that shows no game
    capture: str | None = None  # RE2 pattern finding the start (group 1, or the match)
    fact: str | None = None  # or: the first fact of this kind the spec's state reader reads
    max_chars: int = START_CHARS
    rubric: str | None = None  # the setup item a start against the rules is charged to
    targets: tuple[str, ...] | None = None  # the targets whose programs draw a start (None: all)
    seed: int | None = None  # the reference's own draw for a case that gives no seed
    law: Law | None = None

    def applies_to(self, target: str) -> bool:
        return self.targets is None or target in self.targets


def parse(data: dict | None, state_read: str | None = None) -> RandomStart | None:
    """The schema-valid `random_start:` mapping as settings (None: the game starts the same way every
    time); `state_read` is the spec's state reader, which `values: {fact: KIND}` reads with."""
    if not data:
        return None
    return RandomStart(
        data["option"], data["plan_option"], int(data["rejected_exit"]), int(data["unplayable_exit"]),
        data.get("capture"), data.get("fact"), int(data.get("max_chars", START_CHARS)), data.get("rubric"),
        tuple(data["targets"]) if "targets" in data else None, data.get("seed"),
        _law(data.get("distribution"), data.get("rubric"), state_read))


def _weights(declared: dict) -> dict[str, float]:
    """The law's values and their weights: an `expect:` table, or `uniform: [lo, hi]` (whole numbers)."""
    if "uniform" in declared:
        low, high = (int(v) for v in declared["uniform"])
        return {str(value): 1.0 for value in range(low, high + 1)}
    return {str(value): float(weight) for value, weight in declared["expect"].items()}


def _law(declared: dict | None, rubric: str | None, state_read: str | None = None) -> Law | None:
    if not declared:
        return None
    weights = _weights(declared)
    total = sum(weights.values()) or 1.0
    values = declared.get("values")
    shown = values if isinstance(values, dict) else {}
    return Law({value: weight / total for value, weight in weights.items()}, values if isinstance(values, str) else None,
               int(declared["least"]), declared["case"], bool(declared.get("distinct", False)),
               float(declared.get("points", 1)), declared.get("rubric", rubric), shown.get("pattern"),
               shown.get("fact"), state_read)


@dataclass(frozen=True)
class Context:
    """What the checks need to know of the rest of the spec."""
    game: str
    rubric_ids: list[str]
    targets: list[str]
    has_state_reader: bool
    case_exists: Callable[[str], bool]  # a case name -> is there such a case file
    check_pattern: Callable[[list, str], None]  # (keys, pattern): raises at its line unless RE2 runs it
    check_function: Callable[[list, str], None]  # (keys, "module:function"): raises unless importable
    check_re2: Callable[[list, str], None] | None = None  # (keys, pattern): raises at its line unless RE2 runs it


def check(doc: yamlfile.Document, start: RandomStart, context: Context) -> None:
    """Every name the settings use exists, and the start can be read; else an InputError at its line."""
    keys = ["random_start"]
    if start.capture is not None:
        context.check_pattern([*keys, "capture"], start.capture)
    if start.fact and not context.has_state_reader:
        raise InputError("random_start.fact reads the start through the spec's state reader; add "
                         "`state: {read: module:function}` or give random_start.capture instead",
                         doc.path, doc.line_of([*keys, "fact"]))
    for index, target in enumerate(start.targets or ()):
        if target not in context.targets:
            raise InputError(f"random_start.targets names {target!r}, which is not a target",
                             doc.path, doc.line_of([*keys, "targets", index]))
    declared = doc.data.get("random_start", {})
    if declared.get("rubric") and declared["rubric"] not in context.rubric_ids:
        raise InputError(f"random_start.rubric names {declared['rubric']!r}, which is not a rubric id",
                         doc.path, doc.line_of([*keys, "rubric"]))
    if start.law is not None:
        _check_law(doc, start.law, context)


def _check_law(doc: yamlfile.Document, law: Law, context: Context) -> None:
    """The law of a start's values: a reader that exists, a case that exists, a setup item to charge."""
    keys = ["random_start", "distribution"]
    if law.values:
        context.check_function([*keys, "values"], law.values)
    if law.pattern is not None:
        (context.check_re2 or context.check_pattern)([*keys, "values", "pattern"], law.pattern)
    if law.fact is not None and not context.has_state_reader:
        raise InputError("random_start.distribution.values.fact reads values through the spec's state reader; add "
                         "`state: {read: module:function}` or give values: {pattern: ...} instead",
                         doc.path, doc.line_of([*keys, "values", "fact"]))
    declared = doc.data["random_start"]["distribution"]
    if "uniform" in declared:
        low, high = declared["uniform"]
        if not low < high or high - low >= 10_000:
            raise InputError(f"random_start.distribution.uniform: [{low}, {high}] must be a range of 2 to 10,000 "
                             "whole numbers, the lower first", doc.path, doc.line_of([*keys, "uniform"]))
    if law.rubric is None:
        raise InputError("random_start.distribution needs a rubric (its own or random_start.rubric): the item its "
                         "check counts in", doc.path, doc.line_of(keys))
    if law.rubric not in context.rubric_ids:
        raise InputError(f"random_start.distribution.rubric names {law.rubric!r}, which is not a rubric id",
                         doc.path, doc.line_of([*keys, "rubric"]))
    if not context.case_exists(law.case):
        raise InputError(f"random_start.distribution.case names {law.case!r}, which is not a case of {context.game} "
                         f"(no cases/{context.game}/{law.case}.yaml); name the case whose runs draw starts",
                         doc.path, doc.line_of([*keys, "case"]))
