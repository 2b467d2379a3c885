"""One mistake, one deduction: a failing case is charged to the item whose behaviour diverged.

A case is filed under one rubric item, but its turns pass through others' behaviour (a board
case types an illegal try; a method's case calls another method on its way). When a case fails,
its first difference is looked at: if the spec's `owners:` give that turn to another item, and
the turn also differs under that item's own comparison, the difference is that item's
behaviour going wrong, so the case is charged to it (one failed unit there, nothing in its own
item). Otherwise the difference is the case's own item's (a board reprinted after a refused
move differs for the board item, not for the refusal), and the case fails where it is filed.
"""
from dataclasses import dataclass
from typing import Callable

from harness.judging import compare
from harness.loading import owners as turn_owners
from harness.outcome import End


@dataclass(frozen=True)
class Charge:
    """Where a failing case's difference belongs."""
    item: str
    turn: int
    what: str  # the turn as a person names it: "the illegal try"

    def describe(self, case: str) -> str:
        return f"charged to `{self.item}`: {self.what} at turn {self.turn} of `{case}`"


def charge(rules: tuple, own_item: str, comparison: compare.Comparison, expected_events: list[dict],
           expected_end: End, actual_for: Callable[[compare.View], list[dict]], actual_end: End,
           view_of: Callable[[str], compare.View | None]) -> Charge | None:
    """The other item a failed comparison is charged to, or None (its own item's).
    `view_of(item)` is how that item looks at a whole run (None: the item is not graded here, so
    nothing is charged to it); `actual_for(view)` the program's output as that view reads it
    (through the spec's rewrite or as printed)."""
    if not rules or comparison.passed:
        return None
    exp_turns, exp_inputs = compare.split_turns(expected_events)
    mine = view_of(own_item)
    if mine is not None and mine.flags.turns != comparison.policy.turns:  # scored on some turns only:
        # the case went wrong where its item's view of every turn first differs (a refused move
        # that derails a game scored on its last turn)
        comparison = compare.compare_within(expected_events, expected_end, actual_for(mine), actual_end, mine)
    turn = comparison.first_divergence
    if turn is None:  # only the end differs: the last turn's owner answers for it
        turn = len(exp_turns) - 1
    if turn >= len(exp_turns):
        return None  # output after the expected end: the case's own item judges the end
    typed = exp_inputs[turn - 1] if 0 < turn <= len(exp_inputs) else None
    rule = turn_owners.owner(rules, turn, len(exp_turns), typed, exp_turns[turn])
    if rule is None or rule.item == own_item:
        return None
    view = view_of(rule.item)
    if view is None:
        return None
    theirs = compare.compare_within(expected_events, expected_end, actual_for(view), actual_end, view)
    differs = (turn < len(theirs.turns) and not theirs.turns[turn].equal
               or comparison.first_divergence is None and not theirs.end_ok)
    return Charge(rule.item, turn, rule.what) if differs else None
