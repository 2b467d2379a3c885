"""Scores, computed once: every case's share of the total, every item's, the submission's.

An item's score is its weight times the share of its case points that passed. A case that
could not be graded (the program's own random start broke the rules) counts for nothing in
its own item and as one failed point of the item it is charged to (the spec's setup item); so
does a case that failed at a turn another item owns (judging/charging.py: one mistake, one
deduction, in the item whose behaviour it is), unless every other turn of it matched
(`own_passed`: a banner before an otherwise right game): then it also passes in its own item,
whose weight must not move onto the other; a harness error counts for nothing anywhere. An item with no case that could be graded is left
out of the total. Items graded by a person are listed but not counted.

Each case carries `value` (its share of the total, in rubric points) and `earned`, so every
renderer (Gradescope's per-test scores, JUnit, the gradebook) shows numbers that add up.
"""
import math

from harness.results import FAILED, PASSED, UNGRADABLE, CaseResult, ItemScore
from harness.loading.spec import RubricItem, Spec

DIGITS = 4  # rubric points are shown and summed at this precision


def score(spec: Spec, items: list[RubricItem], cases: list[CaseResult]) -> tuple[list[ItemScore], float, float]:
    """(item scores, earned, possible); sets each case's value and earned."""
    scored = []
    for case in cases:
        case.value = case.earned = 0.0
    for item in items:
        gradable = [c for c in cases if c.rubric == item.id and c.status in (PASSED, FAILED)
                    and (c.charged_to in (None, item.id) or c.own_passed)]
        charged = [c for c in cases if c.charged_to == item.id
                   and (c.status == UNGRADABLE or c.status == FAILED and c.rubric != item.id)]
        units = math.fsum([c.points for c in gradable] + [1.0] * len(charged))
        counted = item.graded and units > 0
        shares = _shares(item.points, [c.points for c in gradable] + [1.0] * len(charged)) if counted else []
        earned = 0.0
        for index, (case, share) in enumerate(zip(gradable + charged, shares)):
            won = share if index < len(gradable) and _passes_here(case) else 0.0
            case.value = round(case.value + share, DIGITS)  # a case may count in two items (own_passed)
            case.earned = round(case.earned + won, DIGITS)
            earned += won
        scored.append(ItemScore(
            id=item.id, title=item.title, weight=item.points, graded=item.graded, counted=counted,
            earned=round(earned, DIGITS),
            cases_passed=sum(1 for c in gradable if _passes_here(c)), cases_gradable=len(gradable),
            cases_ungradable=sum(1 for c in cases if c.rubric == item.id and c.status == UNGRADABLE),
            charges=sum(1 for c in charged if c.status == UNGRADABLE),
            charged_failures=sum(1 for c in charged if c.status == FAILED)))
    possible = math.fsum(i.weight for i in scored if i.counted)
    earned = round(math.fsum(i.earned for i in scored if i.counted), DIGITS)
    return scored, earned, possible


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
