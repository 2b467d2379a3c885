"""Scores: case points roll up into rubric items, items into a percentage.

An item's score is its weight times the share of its case points that passed. Cases that
could not be graded (the program's own random start broke the rules, charged to the spec's
setup item) count for neither side of their item. Items graded by a person are listed but
left out of the percentage.
"""
from dataclasses import dataclass

from harness.grading import CaseResult
from harness.spec import RubricItem, Spec


@dataclass
class ItemScore:
    id: str
    title: str
    weight: float
    graded: bool
    earned: float  # points of the item earned
    cases_passed: int
    cases_total: int
    cases_ungradable: int
    gradable: bool  # False: no case of this item could be graded on this run (left out of the total)

    @property
    def complete(self) -> bool:
        return self.cases_total == 0 or self.earned >= self.weight - 1e-9


@dataclass
class Score:
    items: list[ItemScore]
    earned: float
    possible: float

    @property
    def percent(self) -> float:
        return 100.0 * self.earned / self.possible if self.possible else 0.0


def _charged(spec: Spec, result: CaseResult) -> str:
    if result.status == "ungradable" and spec.random_start and spec.random_start.get("rubric"):
        return spec.random_start["rubric"]
    return result.rubric


def score(spec: Spec, items: list[RubricItem], results: list[CaseResult]) -> Score:
    scored = []
    setup_failures = {}
    for result in results:
        if result.status == "ungradable":
            item = _charged(spec, result)
            setup_failures[item] = setup_failures.get(item, 0) + 1
    for item in items:
        mine = [r for r in results if r.rubric == item.id]
        gradable = [r for r in mine if r.status != "ungradable"]
        total = sum(r.points for r in gradable)
        passed = sum(r.points for r in gradable if r.passed)
        if item.id in setup_failures:  # a start that breaks the rules is this item's failure
            total += setup_failures[item.id]
        earned = item.points * passed / total if total else 0.0
        scored.append(ItemScore(item.id, item.title, item.points, item.graded, earned,
                                sum(1 for r in gradable if r.passed), len(mine),
                                len(mine) - len(gradable), bool(total)))
    counted = [s for s in scored if s.graded and s.gradable]
    return Score(scored, sum(s.earned for s in counted), sum(s.weight for s in counted))
