"""Turn-by-turn comparison of two transcripts under a comparison policy.

A turn is the output between two typed lines (turn 0 comes before the first input). The
policy says what a case looks at, so that an item judges only its subject:
- a *view*: which lines count (`keep_lines` / `drop_lines`, RE2 patterns) and whether
  the spec's message classes apply (`messages`: the handout's example wording and any line a
  class accepts both read as the class's canonical text);
- normalisations (CRLF, spaces at line ends, blank lines, letter case, runs of whitespace);
- which turns are scored (`turns`, `from`) and whether the exit status counts.
Presets name the usual normalisations. When a case fails, a ladder of looser policies tells
the student the smallest change that would pass it.

A program's output is hostile data: everything here runs in time linear in it (plain string
code and RE2 patterns, which never backtrack; difflib only on a bounded part of a turn), and
`compare_within` fails a case whose comparison still overruns a CPU budget.
"""
from dataclasses import dataclass, field

from harness.judging import facts
from harness.judging.cpu_budget import COMPARE_SECONDS, OverBudget, cpu_budget, spend
from harness.judging.differences import describe_difference, printed_difference
from harness.judging.views import View, canonical_messages, comparison_memo, normalise, split_turns, turns_equal
from harness.outcome import End
from harness.results import Turn

# Each step loosens the policy a little more; the first step that passes is the hint.
LADDER = [
    ("line endings (CRLF) were normalised", {"crlf": True}),
    ("spaces at the ends of lines were ignored", {"trailing_space": True, "trailing_blank_lines": True}),
    ("blank lines were ignored", {"ignore_blank_lines": True}),
    ("letter case was ignored", {"ignore_case": True}),
    ("runs of spaces were collapsed", {"collapse_whitespace": True}),
    ("extra lines were ignored", {"ignore_extra_lines": True}),
]



@dataclass
class Comparison:
    """The turn-by-turn comparison of a run with its expectation, and where they first part."""
    passed: bool
    turns: list[Turn]
    first_divergence: int | None  # index of the first unequal turn that is scored
    end_ok: bool
    policy: dict
    hint: str | None = None  # "would pass if spaces at the ends of lines were ignored"
    difference: str | None = None  # the first differing line, for a person
    problems: list[str] = field(default_factory=list)


def _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, view: View) -> list[Turn]:
    turns = []
    for i in range(max(len(exp_turns), len(act_turns))):
        spend()
        expected = exp_turns[i] if i < len(exp_turns) else None
        actual = act_turns[i] if i < len(act_turns) else None
        typed_list = exp_inputs if 0 < i <= len(exp_inputs) else act_inputs
        typed = typed_list[i - 1] if i > 0 and i - 1 < len(typed_list) else None
        last = i == len(exp_turns) - 1 or i == len(act_turns) - 1
        if expected is None or actual is None:
            equal = expected is not None and normalise(expected, view, True) == ""
        else:
            equal = turns_equal(expected, actual, view, last)
        turns.append(Turn(i, typed, expected, actual, equal))
    return turns


def _judged(turns: list[Turn], exp_turns, act_turns, view: View) -> list[Turn]:
    """The turns a case is scored on; for `last`, the last turn of each side, paired."""
    which = view.flags.turns
    if which == "first":
        return turns[:1]
    if which == "last":
        exp, act = exp_turns[-1], act_turns[-1]
        if view.flags.from_:
            if view.flags.messages and view.messages:  # the marker may be example wording
                exp, act = canonical_messages(exp, view.messages), canonical_messages(act, view.messages)
            exp, act = _from(exp, view.flags.from_), _from(act, view.flags.from_)
        return [Turn(len(exp_turns) - 1, None, exp, act, turns_equal(exp, act, view, True))]
    return turns


def _from(text: str, marker: str) -> str:
    at = text.find(marker)
    return "" if at < 0 else text[text.rfind("\n", 0, at) + 1:]


def compare(expected_events, expected_end: End, actual_events, actual_end: End, view: View) -> Comparison:
    with comparison_memo():
        return _compare(expected_events, expected_end, actual_events, actual_end, view)


def _compare(expected_events, expected_end: End, actual_events, actual_end: End, view: View) -> Comparison:
    flags = view.flags
    exp_turns, exp_inputs = split_turns(expected_events)
    act_turns, act_inputs = split_turns(actual_events)
    printed = (exp_turns, act_turns)
    if view.reads_facts:  # compare what a person reads in each turn, not its text
        exp_turns = facts.fact_turns(exp_turns, view.reader, flags.facts)
        act_turns = facts.required_only(exp_turns, facts.fact_turns(act_turns, view.reader, flags.facts, printed[0]),
                                        view.reader)
    shown = _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, view)
    judged = _judged(shown, exp_turns, act_turns, view)
    scored_indexes = {j.index for j in judged}
    first_anywhere = next((t.index for t in shown if not t.equal), None)
    for turn in shown:  # a turn that is not scored is not marked as a difference
        turn.equal = turn.equal or turn.index not in scored_indexes
    if flags.turns == "last" and not judged[0].equal:
        shown[min(len(shown) - 1, judged[0].index)].equal = False
    end_ok = bool(flags.ignore_exit and not actual_end.stopped or expected_end == actual_end)
    first = next((t.index for t in shown if not t.equal), None)
    passed = all(t.equal for t in judged) and end_ok
    result = Comparison(passed, shown, first, end_ok, flags)
    if not end_ok:
        result.problems.append(actual_end.differs_from(expected_end, subject="your program"))
    if first is not None:
        turn = judged[0] if flags.turns == "last" else shown[first]
        result.difference = describe_difference(turn, view)
        if flags.turns == "last" and first_anywhere is not None and first_anywhere < turn.index:
            earlier = next(t for t in _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, view)
                           if t.index == first_anywhere)
            result.difference += (f"; your program's output first differs from the expected "
                                  f"{describe_difference(earlier, view)}")
        if end_ok and not view.reads_facts:
            result.hint = _hint(exp_turns, exp_inputs, act_turns, act_inputs, view)
        if view.reads_facts:  # the facts say what differs; the program's own lines say where
            index = turn.index if turn.index < len(printed[1]) else len(printed[1]) - 1
            ended = len(printed[1]) - 1 if len(printed[1]) < len(printed[0]) and actual_end == End.exited(0) else None
            result.difference += printed_difference(printed[0][turn.index] if turn.index < len(printed[0]) else None,
                                                    printed[1][index] if index >= 0 else None, turn.index, ended)
    if view.reads_facts:
        _show_printed(shown, *printed)
    return result


def compare_within(expected_events, expected_end: End, actual_events, actual_end: End, view: View,
                   seconds: float = COMPARE_SECONDS) -> Comparison:
    """`compare`, but a comparison that uses more than `seconds` of CPU stops and fails the case:
    only a program's output (a flood, a pathological line) can make it that costly, so the
    program is charged, never the harness."""
    try:
        with cpu_budget(seconds):
            return compare(expected_events, expected_end, actual_events, actual_end, view)
    except OverBudget as over:
        return _over_budget(expected_events, expected_end, actual_events, actual_end, view, over)


def _over_budget(expected_events, expected_end: End, actual_events, actual_end: End, view: View,
                 over: OverBudget) -> Comparison:
    """A failed comparison that says why: the turns shown as printed, with no reading of them."""
    exp_turns, exp_inputs = split_turns(expected_events)
    act_turns, act_inputs = split_turns(actual_events)
    turns = [Turn(i, (exp_inputs if i - 1 < len(exp_inputs) else act_inputs)[i - 1] if i else None,
                  exp_turns[i] if i < len(exp_turns) else None, act_turns[i] if i < len(act_turns) else None,
                  i < len(exp_turns) and i < len(act_turns) and exp_turns[i] == act_turns[i])
             for i in range(max(len(exp_turns), len(act_turns)))]
    first = next((t.index for t in turns if not t.equal), None)
    size = sum(len(t) for t in act_turns)
    reason = (f"{over}: your program's output ({size:,} characters in {len(act_turns)} turn(s)) is too large or "
              "too unusual to compare; a correct program's output compares in well under a second")
    return Comparison(False, turns, first, expected_end == actual_end, view.flags, problems=[reason])


def _show_printed(turns: list[Turn], exp_turns: list[str], act_turns: list[str]) -> None:
    """Turns compared on their facts show the text as printed, with the facts read beside it."""
    for turn in turns:
        if turn.expected or turn.actual:  # a turn with no facts on either side reads as nothing to show
            turn.expected_read, turn.read = turn.expected, turn.actual
        turn.expected = exp_turns[turn.index] if turn.index < len(exp_turns) else None
        turn.actual = act_turns[turn.index] if turn.index < len(act_turns) else None


def _hint(exp_turns, exp_inputs, act_turns, act_inputs, view: View) -> str | None:
    """The first rung of the ladder that passes; at most len(LADDER) more linear comparisons."""
    looser = view
    for label, change in LADDER:
        if all(getattr(looser.flags, k) for k in change):
            continue
        looser = looser.looser(change)
        shown = _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, looser)
        if all(t.equal for t in _judged(shown, exp_turns, act_turns, looser)):
            return f"would pass if {label}"
    return None

