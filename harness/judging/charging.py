"""One mistake, one deduction: a failing case is charged to the item whose behaviour diverged.

A case is filed under one rubric item, but its turns pass through others' behaviour (a board
case types an illegal try; a method's case calls another method on its way). When a case fails,
its first difference is looked at: if the spec's `owners:` give that turn to another item, and
the turn also differs under that item's own comparison, the difference is that item's
behaviour going wrong, so the case is charged to it (one failed unit there, nothing in its own
item). Otherwise the difference is the case's own item's (a board reprinted after a refused
move differs for the board item, not for the refusal), and the case fails where it is filed.
A charged case whose every other scored turn matched (a banner before an otherwise right game)
also passes in its own item: one deduction, and no item's weight moves onto another's.
"""
from dataclasses import dataclass
from typing import Callable

from harness.judging import compare, views
from harness.loading import owners as turn_owners
from harness.outcome import End
from harness.transcript import Transcript


@dataclass(frozen=True)
class Charge:
    """Where a failing case's difference belongs."""
    item: str
    turn: int
    what: str  # the turn as a person names it: "the illegal try"
    own_passed: bool = False  # every other turn the case scores matched: it passes in its own item too

    def describe(self, case: str) -> str:
        return f"charged to `{self.item}`: {self.what} at turn {self.turn} of `{case}`"


def charge(rules: tuple, own_item: str, comparison: compare.Comparison, expected_events: Transcript,
           expected_end: End, actual_for: Callable[[compare.View], Transcript], actual_end: End,
           view_of: Callable[[str], compare.View | None]) -> Charge | None:
    """The other item a failed comparison is charged to, or None (its own item's).
    `view_of(item)` is how that item looks at a whole run (None: the item is not graded here, so
    nothing is charged to it); `actual_for(view)` the program's output as that view reads it
    (through the spec's rewrite or as printed)."""
    if not rules or comparison.passed:
        return None
    scored = comparison
    exp_turns, exp_inputs = views.split_turns(expected_events)
    mine = view_of(own_item)
    if mine is not None and mine.flags.turns != comparison.policy.turns:  # scored on some turns only:
        # the case went wrong where its item's view of every turn first differs (a refused move
        # that derails a game scored on its last turn)
        comparison = compare.compare_within(expected_events, expected_end, actual_for(mine), actual_end, mine)
    last = comparison.first_divergence
    if last is None:  # only the end differs: the last turn's owner answers for it
        last = len(exp_turns) - 1
    last = min(last, len(exp_turns) - 1)
    # the earliest turn up to there that another item owns and whose owner's own comparison sees a
    # difference in it: an item that looks at little (a stats table) first differs late, after the
    # turn that went wrong (a refused answer that started no new game)
    found, theirs_of = None, {}
    for turn in range(last + 1):
        typed = exp_inputs[turn - 1] if 0 < turn <= len(exp_inputs) else None
        rule = turn_owners.owner(rules, turn, len(exp_turns), typed, exp_turns[turn])
        if rule is None or rule.item == own_item:
            continue
        if rule.item not in theirs_of:
            view = view_of(rule.item)
            theirs_of[rule.item] = None if view is None else compare.compare_within(
                expected_events, expected_end, actual_for(view), actual_end, view)
        theirs = theirs_of[rule.item]
        if theirs is None:
            continue
        if (turn < len(theirs.turns) and not theirs.turns[turn].equal
                or turn == last and comparison.first_divergence is None and not theirs.end_ok):
            found = rule
            break
    if found is None:
        return None
    rule = found
    # the one difference was the owner's (a banner in the opening, a message's words): the case's
    # own item judged every other turn it scores, and they matched, so it passes there too
    rest = scored.end_ok and all(t.equal for t in scored.turns if t.index != turn)
    return Charge(rule.item, turn, rule.what, own_passed=rest)
