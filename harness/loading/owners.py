"""A spec's turn owners: which rubric item a turn of a case belongs to.

A case is filed under one item, but its turns exercise several behaviours (a board case types
an illegal try; a method's case observes through another method). `owners:` in spec.yaml names
those turns by what is typed before them or what the reference prints in them, so that a
difference there is charged to the item whose behaviour it is (harness/judging/charging.py);
a rule marked `refused` names lines the reference refuses, which a replay may leave out to test
whether they caused a later difference. A rule with `lines` owns only the lines of a turn that
match it (a report the game prints beside its state: a count, the winner line; with `changes`,
the state a move leaves: its board), the rest of the turn staying with the first rule without
`lines` that owns it, or with the case's own item.
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
    lines: str | None = None  # RE2 source: the rule owns only the turn's lines matching it (a report)
    changes: bool = False  # with `lines`: they show the game's state after a line that changes it (a move's board)

    @property
    def names_turn(self) -> bool:
        """The rule says which turns it owns (by what is typed, shown or the turn's place), not every one."""
        return self.typed is not None or self.shows is not None or self.turn is not None

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
        for key in ("typed", "shows", "lines"):
            if data.get(key) is None:
                continue
            try:
                compiled[key] = policies.pattern(data[key])
            except policies.PatternError as problem:
                raise InputError(f"owners[{index}].{key} is not a pattern RE2 can run: {problem}; write it in RE2's "
                                 "syntax", doc.path, doc.line_of([*where, key])) from None
        rules.append(OwnerRule(data["item"], data["what"], compiled.get("typed"), compiled.get("shows"), data.get("turn"),
                               bool(data.get("refused", False)), data.get("lines"), bool(data.get("changes", False))))
    return tuple(rules)


def owner(rules: tuple[OwnerRule, ...], index: int, turns: int, typed: str | None,
          expected: str | None) -> OwnerRule | None:
    """The first rule without `lines` that owns turn `index` of `turns`, or None (the case's own
    item owns the rest of it)."""
    return next((rule for rule in rules if rule.lines is None and rule.owns(index, turns, typed, expected)), None)


@dataclass(frozen=True)
class Part:
    """The lines of one turn that belong to one item: those matching `keep` (a rule's `lines`), or,
    with `keep` None, the turn less the lines matching `drop` (the other items' reports)."""
    item: str
    rule: OwnerRule | None  # None: no rule, the case's own item owns the rest of the turn
    keep: str | None = None
    drop: str | None = None

    @property
    def report(self) -> bool:
        """A report's lines (a rule's `lines` without `changes`): they change nothing in the game."""
        return self.keep is not None and not (self.rule is not None and self.rule.changes)

    @property
    def state(self) -> bool:
        """The lines that show the game's state after a line that changes it (`lines` with `changes`)."""
        return self.keep is not None and self.rule is not None and self.rule.changes


def either(patterns) -> str | None:
    """One RE2 source matching a line any of these match (None: no pattern)."""
    kept = [p for p in patterns if p]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else "|".join(f"(?:{p})" for p in kept)


def parts(rules: tuple[OwnerRule, ...], index: int, turns: int, typed: str | None, expected: str | None,
          own_item: str) -> tuple[Part, ...]:
    """Who owns which lines of turn `index`: each item whose `lines` rules match it (in the rules'
    order; a `changes` rule only where no rule owns the whole turn), then the owner of the rest (the first
    other rule that owns the turn, or `own_item`)."""
    whole = owner(rules, index, turns, typed, expected)
    reports: dict[str, list[OwnerRule]] = {}
    for rule in rules:
        if rule.changes and whole is not None:
            continue  # a turn another rule owns whole (a refusal) shows no state a move left
        if rule.lines is not None and rule.owns(index, turns, typed, expected):
            reports.setdefault(rule.item, []).append(rule)
    rest = whole.item if whole is not None else own_item
    found = [Part(item, found[0], either(r.lines for r in found)) for item, found in reports.items()]
    found.append(Part(rest, whole, None, either(r.lines for item, rs in reports.items() if item != rest for r in rs)))
    return tuple(found)
