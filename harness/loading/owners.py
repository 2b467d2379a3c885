"""A spec's turn owners: which rubric item a turn of a case belongs to.

A case is filed under one item, but its turns exercise several behaviours (a board case types
an illegal try; a method's case observes through another method). `owners:` in spec.yaml names
those turns by what is typed before them or what the reference prints in them, so that a
difference there is charged to the item whose behaviour it is (harness/judging/charging.py);
a rule marked `refused` names lines the reference refuses, which a replay may leave out to test
whether they caused a later difference.
"""
from dataclasses import dataclass

from harness.errors import InputError
from harness.loading import policy as policies
from harness.loading import yamlfile


@dataclass(frozen=True)
class OwnerRule:
    """Turns that belong to `item`: the line typed before them matches `typed`, the expected
    output matches `shows`, and the turn is the `first` (before any input) or the `last` one of
    the expected run; what a rule leaves out is not asked."""
    item: str
    what: str  # the turn as a report names it: "the illegal try"
    typed: object = None  # an RE2 pattern, or None
    shows: object = None  # an RE2 pattern, or None
    turn: str | None = None  # "first" | "last" | None
    refused: bool = False  # the reference refuses the line typed before such a turn: a replay may leave it out

    def owns(self, index: int, turns: int, typed: str | None, expected: str | None) -> bool:
        if self.turn == "first" and index != 0 or self.turn == "last" and index != turns - 1:
            return False
        if self.typed is not None and (typed is None or self.typed.search(typed) is None):
            return False
        return self.shows is None or expected is not None and self.shows.search(expected) is not None


def parse(doc: yamlfile.Document, items: list[str]) -> tuple[OwnerRule, ...]:
    """The spec's `owners:` rules, their patterns compiled by RE2 and their items checked."""
    rules = []
    for index, data in enumerate(doc.data.get("owners") or []):
        where = ["owners", index]
        if data["item"] not in items:
            raise InputError(f"owners[{index}].item: no rubric item {data['item']!r}; use one of: {', '.join(items)}",
                             doc.path, doc.line_of([*where, "item"]))
        compiled = {}
        for key in ("typed", "shows"):
            if data.get(key) is None:
                continue
            try:
                compiled[key] = policies.pattern(data[key])
            except policies.PatternError as problem:
                raise InputError(f"owners[{index}].{key} is not a pattern RE2 can run: {problem}; write it in RE2's "
                                 "syntax", doc.path, doc.line_of([*where, key])) from None
        rules.append(OwnerRule(data["item"], data["what"], compiled.get("typed"), compiled.get("shows"), data.get("turn"),
                               bool(data.get("refused", False))))
    return tuple(rules)


def owner(rules: tuple[OwnerRule, ...], index: int, turns: int, typed: str | None,
          expected: str | None) -> OwnerRule | None:
    """The first rule that owns turn `index` of `turns`, or None (the case's own item owns it)."""
    return next((rule for rule in rules if rule.owns(index, turns, typed, expected)), None)
