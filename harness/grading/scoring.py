"""Scores, computed once: every case's share of the total, every item's, the submission's.

An item's score is its weight times the share of its case points that passed. A case that
could not be graded (the program's own random start broke the rules) counts for nothing in
its own item and as one failed point of the item it is charged to (the spec's setup item); so
does a case that failed at a turn another item owns (judging/charging.py: one mistake, one
deduction, in the item whose behaviour it is), unless every other turn of it matched
(`own_passed`: a banner before an otherwise right game): then it also passes in its own item,
whose weight must not move onto the other; a harness error counts for nothing anywhere. An item with no case that could be graded is left
out of the total. Items graded by a person are listed but not counted.

Each scored case carries `value` (its share of the total, in rubric points) and `earned` (the
scores are returned: `score` makes scored copies and leaves the results it reads alone), so every
renderer (Gradescope's per-test scores, JUnit, the gradebook) shows numbers that add up.
How those numbers were reached (`explain`: a case's value item by item, an item's score as
"1 of 5 cases passed, each worth 0.5") is worked out here too, from a result as it is stored,
by the same split; the renderers only print it.
"""
import dataclasses
import math
from dataclasses import dataclass

from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE, CaseResult, ItemScore, SubmissionResult
from harness.loading.spec import RubricItem, Spec

DIGITS = 4  # rubric points are shown and summed at this precision
SHOWN = 2  # decimals of the points a person reads (0.5, 1.67, 10)


@dataclass(frozen=True)
class Scores:
    """A submission's scores: each item's, the total earned of the possible, and its cases, each
    a copy carrying its share of the total (`value`) and what it earned of it."""
    items: list[ItemScore]
    earned: float
    possible: float
    cases: list[CaseResult]


def score(spec: Spec, items: list[RubricItem], cases: list[CaseResult]) -> Scores:
    """The scores of these case results under these rubric items; the results are left as they are."""
    value = [0.0] * len(cases)
    won = [0.0] * len(cases)
    at = {id(case): index for index, case in enumerate(cases)}
    scored = []
    for item in items:
        split = _split(item.id, item.points, item.graded, cases)
        earned = 0.0
        for case, share, gained, _ in split.shares:
            index = at[id(case)]
            value[index] = round(value[index] + share, DIGITS)  # a case may count in two items (own_passed)
            won[index] = round(won[index] + gained, DIGITS)
            earned += gained
        scored.append(ItemScore(
            id=item.id, title=item.title, weight=item.points, graded=item.graded, counted=split.counted,
            earned=round(earned, DIGITS),
            cases_passed=sum(1 for c in split.gradable if _passes_here(c)), cases_gradable=len(split.gradable),
            cases_ungradable=sum(1 for c in cases if c.rubric == item.id and c.status == UNGRADABLE),
            charges=sum(1 for c in split.charged if c.status == UNGRADABLE),
            charged_failures=sum(1 for c in split.charged if c.status == FAILED)))
    possible = math.fsum(i.weight for i in scored if i.counted)
    earned = round(math.fsum(i.earned for i in scored if i.counted), DIGITS)
    return Scores(scored, earned, possible,
                  [dataclasses.replace(case, value=v, earned=w) for case, v, w in zip(cases, value, won)])


def scored(result: SubmissionResult, scores: Scores) -> SubmissionResult:
    """The result carrying these scores (its cases replaced by the scored copies)."""
    return dataclasses.replace(result, cases=scores.cases, items=scores.items, earned=scores.earned,
                               possible=scores.possible)


@dataclass
class _Split:
    """One item's cases and each one's share of its weight: (case, share, won, charged here)."""
    gradable: list[CaseResult]
    charged: list[CaseResult]
    counted: bool
    shares: list[tuple[CaseResult, float, float, bool]]


def _split(item: str, weight: float, graded: bool, cases: list[CaseResult]) -> _Split:
    """The rule of the module's docstring for one item: which cases count in it, and for what."""
    gradable = [c for c in cases if c.rubric == item and c.status in (PASSED, FAILED)
                and (c.charged_to in (None, item) or c.own_passed)]
    charged = [c for c in cases if c.charged_to == item
               and (c.status == UNGRADABLE or c.status == FAILED and c.rubric != item)]
    units = math.fsum([c.points for c in gradable] + [1.0] * len(charged))
    counted = graded and units > 0
    shares = _shares(weight, [c.points for c in gradable] + [1.0] * len(charged)) if counted else []
    rows = [(case, share, share if index < len(gradable) and _passes_here(case) else 0.0, index >= len(gradable))
            for index, (case, share) in enumerate(zip(gradable + charged, shares))]
    return _Split(gradable, charged, counted, rows)


def _passes_here(case: CaseResult) -> bool:
    """Passed in its own item: it passed, or it failed only at a turn charged to another item."""
    return case.passed or case.own_passed


def _shares(weight: float, points: list[float]) -> list[float]:
    """`weight` split in proportion to `points`, rounded so that the shares add up to it exactly."""
    total = math.fsum(points)
    shares = [round(weight * p / total, DIGITS) for p in points]
    if shares:
        shares[-1] = round(weight - math.fsum(shares[:-1]), DIGITS)
    return shares


def nominal(items: list[ItemScore], cases: list[CaseResult]) -> list[float]:
    """What each case would carry of the total if every case were graded in its own item: its
    item's weight in proportion to its points. Nothing a run did changes it, so it can be told
    of a case whose result is not shown (a hidden case's points in a student's copy)."""
    weights = {item.id: item.weight for item in items if item.graded}
    totals: dict[str, float] = {}
    for case in cases:
        totals[case.rubric] = totals.get(case.rubric, 0.0) + case.points
    return [round(weights[c.rubric] * c.points / totals[c.rubric], DIGITS)
            if c.rubric in weights and totals[c.rubric] > 0 else 0.0 for c in cases]


def points(value: float) -> str:
    """Rubric points as a person reads them: 0.5, 1.67, 10."""
    shown = f"{value:.{SHOWN}f}".rstrip("0").rstrip(".")
    return "0" if shown in ("", "-0") else shown


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Part:
    """A case's share of one item: what it is worth there, what it earned, and, when it counts
    there as a charge (not in the item it is filed under), what was charged."""
    item: str
    value: float
    earned: float
    charged: str = ""  # "a failure" (at a turn of the item's) or "a start against the rules"

    @property
    def where(self) -> str:
        return f"`{self.item}` ({self.charged} charged there)" if self.charged else f"`{self.item}`"


@dataclass(frozen=True)
class Worth:
    """What one case carries of the submission's total, item by item (no part: it counts nowhere)."""
    case: str
    rubric: str
    parts: tuple[Part, ...]
    total: float  # the submission's possible points
    nothing: str = ""  # why it counts for no points

    @property
    def value(self) -> float:
        return round(math.fsum(p.value for p in self.parts), DIGITS)

    @property
    def earned(self) -> float:
        return round(math.fsum(p.earned for p in self.parts), DIGITS)

    def text(self) -> str:
        """"worth 0.5 of 10 points", and where, when not only in its own item."""
        if not self.parts or self.value <= 0:
            return f"counts for no points ({self.nothing})" if self.nothing else "counts for no points"
        said = f"worth {points(self.value)} of {points(self.total)} points"
        if len(self.parts) == 1:
            if self.parts[0].charged:
                said += f", counted in {self.parts[0].where}"
        else:
            said += ": " + " and ".join(f"{points(p.value)} in {p.where}" + (", earned" if p.earned else "")
                                        for p in self.parts)
        if 0 < self.earned < self.value and len(self.parts) == 1:
            said += f", {points(self.earned)} earned"
        return said


@dataclass(frozen=True)
class Account:
    """How an item's score was reached: its own cases counted and passed, the failures and starts
    against the rules charged to it from other items' cases, and what each is worth."""
    item: ItemScore
    own: int  # its own cases counted in it
    passed: int
    charged_from: tuple[tuple[str, int], ...]  # (item, failures of that item's cases charged here)
    starts: int  # starts against the rules charged here
    values: tuple[float, ...]  # what each counted case is worth here
    ungradable: int  # its own cases not gradable (counted, if at all, where they are charged)
    elsewhere: tuple[tuple[str, int], ...]  # (item, its own cases that failed at that item's turn and count only there)

    def text(self) -> str:
        """"1 of 5 cases passed, each worth 0.5", "... and 1 failure charged here from `end`'s cases"."""
        item = self.item
        if not item.graded:
            return f"graded by a person, {points(item.weight)} points"
        if not item.counted:
            if self.elsewhere and not self.own:
                why = f"every case of it failed at another item's turn: {self._elsewhere()}"
            elif not item.cases_gradable + item.cases_ungradable:
                why = "no cases run"
            else:
                why = "no case could be graded"
            return f"{why}; not counted"
        said = []
        if self.own:
            said.append(f"{self.passed} of {_plural(self.own, 'case')} passed")
        for source, count in self.charged_from:
            said.append(f"{_plural(count, 'failure')} charged here from `{source}`'s cases")
        if self.starts:
            said.append(f"{_plural(self.starts, 'start')} against the rules charged here")
        text = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
        shown = sorted({points(v) for v in self.values}, key=float)
        if len(self.values) == 1:
            text += f", worth {shown[0]}"
        elif len(shown) == 1:
            text += f", each worth {shown[0]}"
        else:
            text += f", worth {shown[0]} to {shown[-1]} each (by their points)"
        notes = []
        if self.elsewhere:
            notes.append(self._elsewhere())
        if self.ungradable:
            notes.append(f"{self.ungradable} not gradable")
        return text + (f"; {', '.join(notes)}" if notes else "")

    def _elsewhere(self) -> str:
        return ", ".join(f"{_plural(count, 'case')} counted in `{owner}` instead (a failure charged there)"
                         for owner, count in self.elsewhere)


@dataclass(frozen=True)
class Explanation:
    """How a submission's numbers were reached: each case's worth (in the order of the cases)
    and each item's account (in the order of the items)."""
    cases: tuple[Worth, ...]
    items: tuple[Account, ...]

    def worth(self, case: CaseResult) -> Worth:
        return next(w for w in self.cases if w.case == case.name and w.rubric == case.rubric)

    def account(self, item: ItemScore) -> Account:
        return next(a for a in self.items if a.item.id == item.id)


def _counted_by(names) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return tuple(counts.items())


def explain(result: SubmissionResult) -> Explanation:
    """The explanation of a result as scored (or reloaded from result.json): the same split as
    `score`, over the result's own items, so what is said adds up to the stored numbers."""
    cases = result.cases
    parts: dict[int, list[Part]] = {id(c): [] for c in cases}
    accounts = []
    counted = {item.id: item.counted for item in result.items}
    for item in result.items:
        split = _split(item.id, item.weight, item.graded, cases)
        for case, share, won, charged in split.shares:
            kind = "" if not charged else "a start against the rules" if case.status == UNGRADABLE else "a failure"
            parts[id(case)].append(Part(item.id, share, won, kind))
        accounts.append(Account(
            item=item, own=len(split.gradable), passed=sum(1 for c in split.gradable if _passes_here(c)),
            charged_from=_counted_by(c.rubric for c in split.charged if c.status == FAILED),
            starts=sum(1 for c in split.charged if c.status == UNGRADABLE),
            values=tuple(share for _, share, _, _ in split.shares),
            ungradable=sum(1 for c in cases if c.rubric == item.id and c.status == UNGRADABLE),
            elsewhere=_counted_by(c.charged_to for c in cases if c.rubric == item.id and c.status == FAILED
                                  and c.charged_to not in (None, item.id) and not c.own_passed)))
    worths = []
    for case in cases:
        if case.status == HARNESS_ERROR:
            nothing = "the harness failed on it"
        elif case.status == UNGRADABLE and not parts[id(case)]:
            nothing = "not gradable, and charged to no item"
        elif not counted.get(case.charged_to or case.rubric, False):
            nothing = f"`{case.charged_to or case.rubric}` is not counted on this run"
        else:
            nothing = ""
        own_first = sorted(parts[id(case)], key=lambda part: bool(part.charged))
        worths.append(Worth(case.name, case.rubric, tuple(own_first), result.possible, nothing))
    return Explanation(tuple(worths), tuple(accounts))
