"""One mistake, one deduction: a failing case is charged to the item whose behaviour diverged.

A case is filed under one rubric item, but its turns pass through others' behaviour (a board
case types an illegal try; a method's case calls another method on its way). When a case fails,
its first difference is looked at: if the spec's `owners:` give that turn to another item, and
the turn also differs under that item's own comparison, the difference is that item's
behaviour going wrong, so the case is charged to it (one failed unit there, nothing in its own
item). Otherwise the difference is the case's own item's (a board reprinted after a refused
move differs for the board item, not for the refusal), and the case fails where it is filed.

The damage of a mistake often shows later than the mistake (a refused move that still moved
the coin shows on the next board, a move's turn): so an earlier input another item owns is
tested for being the cause by replaying the case without it, program and reference alike
(`drops` says which replays to make, grading makes them, `by_replays` decides). If the
reference refused it anyway and, without it, the program no longer differs where it did, the
earlier input's item is charged.

A charged case whose own turns all matched, before and after the charged one (a turn another
item owns and sees differ is that item's), also passes in its own item: one deduction, and no
item's weight moves onto another's. After a line that changes the game went wrong (a move, a
call), the rest is another game: the case's own turns there are not judged, so it keeps the
ones that matched. A rule's `lines` own only part of a turn (a report: a count, the winner
line), charged only when the case without them would pass. A program's exit status belongs to
the turn that ended it.
"""
from dataclasses import dataclass
from typing import Callable

from harness.judging import compare, views
from harness.judging.differences import moment
from harness.loading import owners as turn_owners
from harness.outcome import End
from harness.transcript import Transcript

# Replays one failing case may take (each a run of the program and one or two of the reference):
# one per other item owning earlier inputs, the earliest first.
MAX_REPLAYS = 3


@dataclass(frozen=True)
class Charge:
    """Where a failing case's difference belongs."""
    item: str
    turn: int
    what: str  # the turn as a person names it: "the illegal try"
    own_passed: bool = False  # every turn its own item scores matched: it passes in its own item too
    replayed: bool = False  # found by a replay without that item's inputs (the difference showed later)

    def describe(self, case: str) -> str:
        said = f"charged to `{self.item}`: {self.what} {moment(self.turn)} in `{case}`"
        if self.replayed:
            said += (" (replayed without it, and the reference likewise, the program no longer differs where it "
                     "did)")
        return said


class _Looks:
    """Each item's comparison of the whole run, as its own view reads it, or only some lines of
    every turn (`keep`) or all but some (`drop`): computed once each within one charge."""

    def __init__(self, expected_events: Transcript, expected_end: End, actual_for, actual_end: End, view_of):
        self._args = (expected_events, expected_end, actual_for, actual_end)
        self._view_of = view_of
        self._seen: dict[tuple, compare.Comparison | None] = {}

    def __call__(self, item: str, keep: str | None = None, drop: str | None = None) -> compare.Comparison | None:
        key = (item, keep, drop)
        if key not in self._seen:
            view = self._view_of(item)
            if view is not None and (keep or drop):
                flags = view.flags
                view = view.looser({"keep_lines": keep} if keep else
                                   {"drop_lines": turn_owners.either([flags.drop_lines, drop])})
            events, end, actual_for, actual_end = self._args
            self._seen[key] = None if view is None else compare.compare_within(
                events, end, actual_for(view), actual_end, view)
        return self._seen[key]

    def of(self, part: turn_owners.Part) -> compare.Comparison | None:
        return self(part.item, part.keep, part.drop)


def _earlier(seen: compare.Comparison | None, turn: int) -> bool:
    """That comparison saw a difference before this turn."""
    return seen is not None and seen.first_divergence is not None and seen.first_divergence < turn


def _differs(seen: compare.Comparison | None, turn: int) -> bool:
    return seen is not None and turn < len(seen.turns) and not seen.turns[turn].equal


def charge(rules: tuple, own_item: str, comparison: compare.Comparison, expected_events: Transcript,
           expected_end: End, actual_for: Callable[[compare.View], Transcript], actual_end: End,
           view_of: Callable[[str], compare.View | None]) -> Charge | None:
    """The other item a failed comparison is charged to, or None (its own item's).
    `view_of(item)` is how that item looks at a whole run (None: the item is not graded here, so
    nothing is charged to it); `actual_for(view)` the program's output as that view reads it
    (through the spec's rewrite or as printed). A report's lines (a rule's `lines`) are charged
    only when the case, without them, would pass: a wrong count beside a right game is the
    count's, a game that goes wrong is not."""
    if not rules or comparison.passed:
        return None
    exp_turns, exp_inputs = views.split_turns(expected_events)
    last, end_only = divergence(comparison, expected_events, expected_end, actual_for, actual_end, view_of(own_item))
    looks = _Looks(expected_events, expected_end, actual_for, actual_end, view_of)
    reports = _reports_alone(rules, own_item, looks)
    # the earliest turn up to there that another item owns and whose owner's own comparison sees a
    # difference in it: an item that looks at little (a stats table) first differs late, after the
    # turn that went wrong (a refused answer that started no new game)
    for turn in range(last + 1):
        parts = _parts(rules, turn, exp_turns, exp_inputs, own_item)
        ending = turn == last and end_only  # only the exit status differs: the turn that ended it owns it
        for part in parts:
            if part.item == own_item or part.report and part.item not in reports and not ending:
                continue
            if ending and part.keep is not None and not (part.report and part.rule.names_turn):
                continue  # a state, or a report on every turn, never owns an exit status
            theirs = looks.of(part)
            if theirs is None:
                continue
            if part.state and _earlier(looks(part.item), turn):
                continue  # its item saw the game go wrong before (who moves): the board is no longer the move's
            if _differs(theirs, turn) or ending and not theirs.end_ok:
                rule = part.rule
                # a wrong state a move left makes the rest of its turn another game's (a skip, the end)
                derails = turn - 1 if part.state else turn if not part.report and not rule.refused else None
                return Charge(part.item, turn, rule.what, own_passed=own_turns_matched(
                    rules, own_item, comparison, expected_events, looks, derails))
    return None


def _reports_alone(rules: tuple, own_item: str, looks: "_Looks") -> set[str]:
    """The items of `lines` rules whose lines alone make the case fail: without them (at every
    turn) the case's own item sees nothing wrong."""
    alone = set()
    for item in dict.fromkeys(rule.item for rule in rules
                              if rule.lines is not None and not rule.changes and rule.item != own_item):
        without_them = looks(own_item, drop=turn_owners.either(
            r.lines for r in rules if r.item == item and r.lines and not r.changes))
        if without_them is not None and without_them.passed:
            alone.add(item)
    return alone


def divergence(comparison: compare.Comparison, expected_events: Transcript, expected_end: End,
               actual_for: Callable[[compare.View], Transcript], actual_end: End,
               mine: compare.View | None) -> tuple[int, bool]:
    """The turn where a failed case went wrong, and whether only the end differs: its first
    difference; for an item scored on some turns only, where its view of every turn first differs
    (a refused move that derails a game scored on its last turn); the last turn when only the end
    differs (the exit status belongs to the turn that ended the program)."""
    exp_turns, _ = views.split_turns(expected_events)
    if mine is not None and mine.flags.turns != comparison.policy.turns:
        comparison = compare.compare_within(expected_events, expected_end, actual_for(mine), actual_end, mine)
    last = comparison.first_divergence
    if last is None:
        return len(exp_turns) - 1, True
    return max(0, min(last, len(exp_turns) - 1)), False


def _owner(rules: tuple, turn: int, exp_turns: list[str], exp_inputs: list[str]):
    typed = exp_inputs[turn - 1] if 0 < turn <= len(exp_inputs) else None
    return turn_owners.owner(rules, turn, len(exp_turns), typed, exp_turns[turn])


def _parts(rules: tuple, turn: int, exp_turns: list[str], exp_inputs: list[str], own_item: str):
    typed = exp_inputs[turn - 1] if 0 < turn <= len(exp_inputs) else None
    return turn_owners.parts(rules, turn, len(exp_turns), typed, exp_turns[turn], own_item)


def own_turns_matched(rules: tuple, own_item: str, scored: compare.Comparison, expected_events: Transcript,
                      looks: Callable[..., compare.Comparison | None], derailed_after: int | None = None) -> bool:
    """Every turn the case's own item scores matched, before and after a charged one, but for
    lines of them other items own whose own comparison (`looks(item, keep, drop)`) differs there
    too: that item's behaviour, not this one's. The same for the end: a program's exit status
    belongs to the turn that ended it, so a wrong status after a quit is the quit's. A case
    charged at a line that changes the game (a move, a call, not a refusal or a report) is
    another game after it (`derailed_after`): its own turns there are not judged, so the case
    keeps the turns of its own that matched and its item is never left out for another's
    mistake; a difference of its own before that does count. When the charge is the state a
    move left (a rule's `lines` with `changes`), the rest of that turn is already the other game."""
    exp_turns, exp_inputs = views.split_turns(expected_events)

    def excused(index: int, end: bool = False) -> bool:
        if index >= len(exp_turns):
            return False
        mine = [p for p in _parts(rules, index, exp_turns, exp_inputs, own_item) if p.item == own_item]
        others = [p for p in _parts(rules, index, exp_turns, exp_inputs, own_item) if p.item != own_item]
        if end:
            return any((seen := looks(p.item, p.keep, p.drop)) is not None and not seen.end_ok for p in others)
        if not any(_differs(looks(p.item, p.keep, p.drop), index) for p in others):
            return False
        return not any(_differs(looks(p.item, p.keep, p.drop), index) for p in mine)

    def judged(index: int) -> bool:
        return derailed_after is None or index <= derailed_after

    return (all(t.equal or not judged(t.index) or excused(t.index) for t in scored.turns)
            and (scored.end_ok or derailed_after is not None and derailed_after < len(exp_turns) - 1
                 or bool(exp_turns) and excused(len(exp_turns) - 1, end=True)))


# --- the cause shown later: replays without an earlier item's inputs --------------------------

@dataclass(frozen=True)
class Drop:
    """A replay to make: the case without the inputs an earlier item owns."""
    item: str
    what: str  # the turn as a report names it: "the illegal try"
    inputs: tuple[int, ...]  # positions among the typed lines, in order
    divergence: int  # the turn where the case first showed the difference

    @property
    def turn(self) -> int:
        """The turn of the first input left out (the turn that answers it)."""
        return self.inputs[0] + 1


def drops(rules: tuple, blamed: str, expected_events: Transcript, divergence_turn: int,
          limit: int = MAX_REPLAYS) -> list[Drop]:
    """The replays worth making for a case that first differed at `divergence_turn`, charged (so
    far) to `blamed`: for each other item owning refused inputs (its rule says `refused`) typed
    before that turn, those inputs left out; the earliest first, at most `limit`. A line that
    changes the game (a move, a method's call) is never left out: the game without it is another
    one, even where the reference's later answers happen to read the same."""
    exp_turns, exp_inputs = views.split_turns(expected_events)
    found: dict[str, list[int]] = {}
    whats: dict[str, str] = {}
    for turn in range(1, min(divergence_turn, len(exp_turns))):
        rule = _owner(rules, turn, exp_turns, exp_inputs)
        if rule is None or rule.item == blamed or not rule.refused:  # only a refusal changes nothing
            continue
        found.setdefault(rule.item, []).append(turn - 1)
        whats.setdefault(rule.item, rule.what)
    return [Drop(item, whats[item], tuple(positions), divergence_turn)
            for item, positions in list(found.items())[:limit]]


def without(events: Transcript, positions: tuple[int, ...]) -> Transcript:
    """The transcript with those typed lines left out, and each one's answer (the turn after it):
    what a reference that refused them anyway prints when they are never typed."""
    leave, out, typed, skipping = set(positions), [], -1, False
    for event in events:
        if "in" in event:
            typed += 1
            skipping = typed in leave
            if skipping:
                continue
        elif skipping:
            continue
        out.append(event)
    return out


@dataclass(frozen=True)
class Replay:
    """What grading ran for one Drop. `with_events`/`with_end`: the reference with every input
    (the case's expected run); `reference_*`: the reference without the dropped inputs;
    `program_for(view)`: the program's run without them, as a view reads it (None: not run, the
    reference's replay being no legal game); `made` is False when no replay could be run (the
    submission's time budget ran out)."""
    drop: Drop
    made: bool
    with_events: Transcript = ()
    with_end: End | None = None
    reference_events: Transcript = ()
    reference_end: End | None = None
    program_for: Callable[[compare.View], Transcript] | None = None
    program_end: End | None = None


@dataclass(frozen=True)
class ReplayOutcome:
    """What one replay showed: whether it is evidence at all (a legal game: the reference refused
    the dropped inputs anyway, and the game has the same turns otherwise), whether the program's
    difference is gone without them, and whether the case then passes where it is filed."""
    drop: Drop
    legal: bool
    gone: bool
    passed: bool


def outcome(rules: tuple, replay: Replay, expected_events: Transcript, divergence_view: compare.View,
            own_view: compare.View) -> ReplayOutcome:
    """Read one replay: pure, from its transcripts."""
    drop = replay.drop
    if not (replay.made and _same_game(rules, expected_events, replay.with_events) and refused_anyway(replay)):
        return ReplayOutcome(drop, False, False, False)
    if replay.program_for is None:
        return ReplayOutcome(drop, True, False, False)
    at = drop.divergence - len(drop.inputs)  # the same turn, the dropped ones before it gone
    seen = compare.compare_within(replay.reference_events, replay.reference_end,
                                  replay.program_for(divergence_view), replay.program_end, divergence_view)
    turns = len(views.split_turns(replay.reference_events)[0])
    gone = all(t.equal for t in seen.turns if t.index <= at) and (at < turns - 1 or seen.end_ok)
    own = compare.compare_within(replay.reference_events, replay.reference_end,
                                 replay.program_for(own_view), replay.program_end, own_view)
    return ReplayOutcome(drop, True, gone, own.passed)


def refused_anyway(replay: Replay) -> bool:
    """The reference without the dropped lines printed what it printed with them, less each one's
    answer: it refused them anyway, so the replay is a legal game of the same case."""
    if not replay.made:
        return False
    refused = without(replay.with_events, replay.drop.inputs)
    return (views.split_turns(refused) == views.split_turns(replay.reference_events)
            and replay.with_end == replay.reference_end)


def _same_game(rules: tuple, expected_events: Transcript, with_events: Transcript) -> bool:
    """The reference's run with every input has the case's turns: the same typed lines, and each
    turn owned by the same rule (a refusal where the case has one)."""
    exp_turns, exp_inputs = views.split_turns(expected_events)
    got_turns, got_inputs = views.split_turns(with_events)
    if exp_inputs != got_inputs or len(exp_turns) != len(got_turns):
        return False
    return all(_owner(rules, i, exp_turns, exp_inputs) == _owner(rules, i, got_turns, got_inputs)
               for i in range(len(exp_turns)))


def by_replays(original: Charge | None, own_item: str, outcomes: list[ReplayOutcome]) -> Charge | None:
    """The charge the replays support: the first legal replay whose program no longer differs names
    the cause, the item owning the inputs it left out (the case's own item: a plain failure where
    it is filed); the case passes in its own item too when, without them, it passes. No such
    replay: the charge stands as it was."""
    cause = next((o for o in outcomes if o.legal and o.gone), None)
    if cause is None:
        return original
    if cause.drop.item == own_item:
        return None
    return Charge(cause.drop.item, cause.drop.turn, cause.drop.what, own_passed=cause.passed, replayed=True)
