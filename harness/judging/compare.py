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
import functools
import re
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import re2

from harness.judging import facts
from harness.outcome import End
from harness.results import Turn
from harness.loading.policy import (FLAGS, PRESETS, TURNS, VIEW_KEYS, MessageClass, PatternError,  # noqa: F401 (re-exported)
                                   Policy, pattern, policy)
from harness.transcript import Transcript

# Each step loosens the policy a little more; the first step that passes is the hint.
LADDER = [
    ("line endings (CRLF) were normalised", {"crlf": True}),
    ("spaces at the ends of lines were ignored", {"trailing_space": True, "trailing_blank_lines": True}),
    ("blank lines were ignored", {"ignore_blank_lines": True}),
    ("letter case was ignored", {"ignore_case": True}),
    ("runs of spaces were collapsed", {"collapse_whitespace": True}),
    ("extra lines were ignored", {"ignore_extra_lines": True}),
]


MESSAGE_CHARS = 400  # a line longer than this is never read as a message
COMPARE_SECONDS = 10.0  # CPU for comparing one case; a correct program's output takes well under a second
DIFF_LINES = 200  # lines of each side that difflib aligns (its worst case grows with the cube)
DIFF_CHARS = 2000  # characters of each line that difflib aligns to say what differs in it


# --- the CPU budget ------------------------------------------------------------------------

class OverBudget(Exception):
    """Comparing one case used more CPU than its budget."""
    def __init__(self, seconds: float):
        super().__init__(f"comparing this case took more than {seconds:g} s of CPU")
        self.seconds = seconds


_budget = threading.local()  # .deadline (thread CPU seconds) and .seconds of the innermost budget


def _spend() -> None:
    """Between steps: raise OverBudget once this thread's budget is used up (the fallback where
    no timer signal can be had, e.g. outside the main thread)."""
    deadline = getattr(_budget, "deadline", None)
    if deadline is not None and time.thread_time() > deadline:
        raise OverBudget(_budget.seconds)


def _on_timer(signum, frame):
    raise OverBudget(getattr(_budget, "seconds", 0.0))


def _timer_free() -> bool:
    """A SIGPROF timer can be used: main thread, and no one else's handler or timer (a profiler)."""
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None)
            and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0))


@contextmanager
def cpu_budget(seconds: float):
    """Raise OverBudget inside the block once it has used `seconds` of CPU. In the main thread a
    SIGPROF timer interrupts even one long Python loop; elsewhere the comparison's steps check.
    Only for pure computation: never around a run (the signal would cut its waits short)."""
    outer = getattr(_budget, "deadline", None), getattr(_budget, "seconds", None)
    _budget.deadline, _budget.seconds = time.thread_time() + seconds, seconds
    timer = _timer_free()
    if timer:
        signal.signal(signal.SIGPROF, _on_timer)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, signal.SIG_DFL)
        _budget.deadline, _budget.seconds = outer


FLAG_WORDS = {"crlf": "CRLF read as LF", "trailing_space": "spaces at line ends ignored",
              "trailing_blank_lines": "blank lines at the end ignored", "ignore_blank_lines": "blank lines ignored",
              "ignore_case": "letter case ignored", "collapse_whitespace": "runs of spaces collapsed",
              "ignore_extra_lines": "extra lines ignored", "ignore_exit": "exit status not graded"}


def describe_policy(flags: Policy) -> str:
    """The policy in words: the closest preset, then what it adds."""
    on = {k for k in FLAGS if getattr(flags, k)}
    name = max((n for n, preset in PRESETS.items() if set(preset) <= on), key=lambda n: len(PRESETS[n]))
    parts = [name] + [FLAG_WORDS[k] for k in FLAGS if k in on - set(PRESETS[name])]
    if flags.facts != "off":
        parts.append(facts.describe(flags.facts))
    if flags.messages:
        parts.append("example wording accepted")
    if not flags.rewrite:
        parts.append("the program's output as printed (no rewrite)")
    if flags.keep_lines:
        parts.append(f"only lines matching {flags.keep_lines!r}")
    if flags.drop_lines:
        parts.append(f"lines matching {flags.drop_lines!r} left out")
    if flags.turns != "all":
        parts.append(f"{flags.turns} turn only" + (f" from {flags.from_!r}" if flags.from_ else ""))
    return ", ".join(parts)


def split_turns(events: Transcript) -> tuple[list[str], list[str]]:
    """(outputs per turn, inputs); there is always one more turn than inputs."""
    turns, inputs = [[]], []
    for event in events:
        if "in" in event:
            inputs.append(event["in"])
            turns.append([])
        else:
            turns[-1].append(event["out"])  # joined once: adding to a string is quadratic on many events
    return ["".join(parts) for parts in turns], inputs


@dataclass(frozen=True)
class View:
    """What a case looks at: the policy plus the spec's message classes."""
    flags: Policy
    messages: tuple[MessageClass, ...] = ()
    reader: facts.StateReader | None = None  # the spec's state reader, for `facts:`

    def looser(self, change: dict) -> "View":
        return View(self.flags.replace(change), self.messages, self.reader)

    @property
    def reads_facts(self) -> bool:
        return self.reader is not None and self.flags.facts != "off"


# --- reading lines: each distinct line once, with RE2 -----------------------------------------

_LINE_BOUND = re.compile(r"\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m")  # \A, \z, (?-m): not per line in a whole text


@functools.lru_cache(maxsize=16)
def _any_message(classes: tuple):
    """One RE2 pattern found, in a whole text, in every line some class accepts (each class's
    first pattern, per line: `(?m)`, never across a line end), so that a text costs one pass
    however many classes a spec has, and only the lines it finds are read class by class."""
    firsts = [c.accept[0].pattern for c in classes if c.accept]
    if len(firsts) < len(classes) or any(_LINE_BOUND.search(p) for p in firsts):
        return None
    options = re2.Options()
    options.log_errors, options.never_nl = False, True
    try:
        combined = re2.compile("(?m)" + "|".join(f"(?:{p})" for p in firsts), options)
    except re2.error:  # too large to combine: every line is read class by class
        return None
    return None if combined.search("") else combined  # a class that accepts any line: all are read


def _candidate_lines(text: str, classes: tuple) -> set[int] | None:
    """The indexes of the lines in which some class may find its message, or None for all."""
    prefilter = _any_message(classes)
    if prefilter is None:
        return None
    found, line, at = set(), 0, 0
    for count, match in enumerate(prefilter.finditer(text)):
        if count % 4096 == 0:
            _spend()
        line += text.count("\n", at, match.start())
        at = match.start()
        found.add(line)
    return found


def _read_message(line: str, classes: tuple) -> str:
    """The line as the first class that accepts it reads it, else as printed."""
    if len(line) > MESSAGE_CHARS:
        return line  # no message is that long; a flood of output is not searched line by line
    for message in classes:
        text = message.read(line)
        if text is not None:
            return text
    return line


def _canonical_messages(text: str, classes) -> str:
    """Every line a message class accepts replaced by the class's text (the first class wins)."""
    classes = tuple(classes)  # hashed by identity (MessageClass is equal only to itself): cheap
    return _memoised(("messages", text, classes), lambda: _read_messages(text, classes))


def _read_messages(text: str, classes: tuple) -> str:
    """Each distinct candidate line read once: a flood repeats its lines."""
    candidates = _candidate_lines(text, classes)
    lines = text.split("\n")
    read: dict[str, str] = {}
    for index in range(len(lines)) if candidates is None else sorted(candidates):
        line = lines[index]
        if line not in read:
            if len(read) % 4096 == 0:
                _spend()
            read[line] = _read_message(line, classes)
        lines[index] = read[line]
    return "\n".join(lines)


_scope = threading.local()  # .memo: what this comparison already read, by text


@contextmanager
def _memo():
    """Within one comparison, a text is read through the message classes and the line filters
    once, however often the hint ladder and the description of the difference normalise it again."""
    outer = getattr(_scope, "memo", None)
    _scope.memo = {} if outer is None else outer
    try:
        yield
    finally:
        _scope.memo = outer


def _memoised(key: tuple, compute):
    """compute(), once per key within a comparison (every time outside one)."""
    memo = getattr(_scope, "memo", None)
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def _looked_at(lines: list[str], flags: Policy) -> dict[str, bool] | None:
    """Whether each distinct line (without its end) is one the view looks at; None: all are."""
    keep = pattern(flags.keep_lines) if flags.keep_lines else None
    drop = pattern(flags.drop_lines) if flags.drop_lines else None
    if keep is None and drop is None:
        return None
    decided: dict[str, bool] = {}
    for count, line in enumerate(set(lines)):
        if count % 4096 == 0:
            _spend()
        decided[line] = (keep is None or keep.search(line) is not None) and (drop is None or drop.search(line) is None)
    return decided


def _filter_lines(text: str, flags: Policy) -> str:
    """The lines a view looks at, each with its own line end (so a prompt stays a prompt)."""
    def kept() -> str:
        lines = text.split("\n")
        decided = _looked_at(lines, flags)
        if decided is None:
            return text
        tail = lines[-1] if lines[-1] and decided[lines[-1]] else ""
        return "".join([line + "\n" for line in lines[:-1] if decided[line]]) + tail
    return _memoised(("lines", text, flags.keep_lines, flags.drop_lines), kept)


def _strip_line_ends(text: str, last: bool) -> str:
    """Spaces and tabs before each line end gone (and at the very end of the last turn)."""
    if " \n" not in text and "\t\n" not in text:  # the usual case: no line to touch
        return text.rstrip(" \t") if last else text
    lines = text.split("\n")
    stripped = [line.rstrip(" \t") for line in lines[:-1]]
    return "\n".join(stripped + [lines[-1].rstrip(" \t") if last else lines[-1]])


def _drop_blank_lines(text: str) -> str:
    """Lines of only spaces and tabs removed with the line end before them, as
    re.sub(r"\\n[ \\t]*(?=\\n)", "", text).lstrip("\\n") would, in one pass."""
    lines = text.split("\n")
    kept = [lines[0]] + [line for index, line in enumerate(lines[1:-1], 1) if line.strip(" \t")]
    if len(lines) > 1:
        kept.append(lines[-1])
    return "\n".join(kept).lstrip("\n")


def normalise(text: str, view: View, last: bool) -> str:
    flags = view.flags
    if flags.crlf:
        text = text.replace("\r\n", "\n")
    if flags.messages and view.messages and not view.reads_facts:
        text = _canonical_messages(text, view.messages)
    if flags.keep_lines or flags.drop_lines:
        text = _filter_lines(text, flags)
    if flags.trailing_space:
        text = _strip_line_ends(text, last)
    if flags.ignore_blank_lines:
        text = _drop_blank_lines(text)
    if flags.trailing_blank_lines and last:
        text = text.rstrip("\n")
    if flags.ignore_case:
        text = text.casefold()
    if flags.collapse_whitespace:
        text = " ".join(text.split())
    return text


def _lines_contained(expected: str, actual: str) -> bool:
    """Every expected line appears in the actual output, in order (extra lines allowed)."""
    wanted = [line for line in expected.split("\n") if line.strip()]
    have = iter(actual.split("\n"))
    return all(any(line == got for got in have) for line in wanted)


def turns_equal(expected: str, actual: str, view: View, last: bool) -> bool:
    if view.flags.ignore_extra_lines:
        keep = view.looser({"collapse_whitespace": False})
        exp, act = normalise(expected, keep, last), normalise(actual, keep, last)
        if view.flags.collapse_whitespace:
            exp = "\n".join(" ".join(line.split()) for line in exp.split("\n"))
            act = "\n".join(" ".join(line.split()) for line in act.split("\n"))
        return _lines_contained(exp, act)
    return normalise(expected, view, last) == normalise(actual, view, last)


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
        _spend()
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
                exp, act = _canonical_messages(exp, view.messages), _canonical_messages(act, view.messages)
            exp, act = _from(exp, view.flags.from_), _from(act, view.flags.from_)
        return [Turn(len(exp_turns) - 1, None, exp, act, turns_equal(exp, act, view, True))]
    return turns


def _from(text: str, marker: str) -> str:
    at = text.find(marker)
    return "" if at < 0 else text[text.rfind("\n", 0, at) + 1:]


def compare(expected_events, expected_end: End, actual_events, actual_end: End, view: View) -> Comparison:
    with _memo():
        return _compare(expected_events, expected_end, actual_events, actual_end, view)


def _compare(expected_events, expected_end: End, actual_events, actual_end: End, view: View) -> Comparison:
    flags = view.flags
    exp_turns, exp_inputs = split_turns(expected_events)
    act_turns, act_inputs = split_turns(actual_events)
    printed = (exp_turns, act_turns)
    if view.reads_facts:  # compare what a person reads in each turn, not its text
        exp_turns = facts.fact_turns(exp_turns, view.reader, flags.facts)
        act_turns = facts.required_only(exp_turns, facts.fact_turns(act_turns, view.reader, flags.facts), view.reader)
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
        result.problems.append(actual_end.differs_from(expected_end).replace("but it", "but your program", 1))
    if first is not None:
        turn = judged[0] if flags.turns == "last" else shown[first]
        result.difference = describe_difference(turn, view)
        if flags.turns == "last" and first_anywhere is not None and first_anywhere < turn.index:
            earlier = next(t for t in _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, view)
                           if t.index == first_anywhere)
            result.difference += (f"; your program's output first differs from the expected at "
                                  f"{describe_difference(earlier, view)}")
        if end_ok and not view.reads_facts:
            result.hint = _hint(exp_turns, exp_inputs, act_turns, act_inputs, view)
        if view.reads_facts:  # the facts say what differs; the program's own lines say why
            index = turn.index if turn.index < len(printed[1]) else len(printed[1]) - 1
            if turn.index < len(printed[0]):
                result.difference += f"; the expected output there: {_first_printed(printed[0][turn.index])}"
            result.difference += f"; your program printed there: {_first_printed(printed[1][index])}"
    if view.reads_facts:
        _show_printed(shown, *printed)
    return result


def _first_printed(text: str, lines: int = 3, width: int = 200) -> str:
    shown = [line[:width] for line in text.replace("\r\n", "\n").split("\n") if line.strip()][:lines]
    return repr(" | ".join(shown)) if shown else "nothing"


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


# --- saying what differs --------------------------------------------------------------------

def _viewed_lines(text: str, view: View) -> tuple[list[str], list[str], list[int]]:
    """The lines of a turn that the view looks at: as printed, as the view reads them (the keys
    the difference is found on) and their line numbers, so a reason points at a line that counts."""
    flags = view.flags
    skip_blank = flags.collapse_whitespace or flags.ignore_blank_lines
    printed = text.replace("\r\n", "\n")
    printed_lines = printed.split("\n")
    looked_at = _looked_at(printed_lines, flags)
    # message classes read line by line, so the whole turn is read once (as normalise did)
    messages = flags.messages and view.messages and not view.reads_facts
    read_lines = (_canonical_messages(printed, view.messages) if messages else printed).split("\n")
    one_line = view.looser({"keep_lines": None, "drop_lines": None, "trailing_blank_lines": False, "messages": False})
    keyed: dict[str, str] = {}
    lines, keys, numbers = [], [], []
    for number, (line, read) in enumerate(zip(printed_lines, read_lines), 1):
        if looked_at is not None and not looked_at[line] or skip_blank and not line.strip():
            continue
        if read not in keyed:
            if len(keyed) % 4096 == 0:
                _spend()
            keyed[read] = normalise(read, one_line, True)
        lines.append(line)
        keys.append(keyed[read])
        numbers.append(number)
    return lines, keys, numbers


def _common_start(a, b) -> int:
    """How many items (lines, characters) two sequences share at their start: compared a block
    at a time (in C), then item by item within the first block that differs."""
    end, block, at = min(len(a), len(b)), 4096, 0
    while at < end and a[at:at + block] == b[at:at + block]:
        at += block
    return next((i for i in range(at, min(at + block, end)) if a[i] != b[i]), min(at + block, end))


def _line_opcodes(exp_keys: list[str], act_keys: list[str]):
    """difflib's opcodes on the lines, bounded: beyond DIFF_LINES lines a side, only a window of
    DIFF_LINES lines after the common start is aligned. Also says whether the window was cut."""
    import difflib  # aligning is for a failed comparison only: a passing run does not pay its import

    if len(exp_keys) <= DIFF_LINES and len(act_keys) <= DIFF_LINES:
        return difflib.SequenceMatcher(None, exp_keys, act_keys, autojunk=False).get_opcodes(), False
    start = _common_start(exp_keys, act_keys)
    exp, act = exp_keys[start:start + DIFF_LINES], act_keys[start:start + DIFF_LINES]
    ops = difflib.SequenceMatcher(None, exp, act, autojunk=False).get_opcodes()
    shifted = [(tag, i1 + start, i2 + start, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in ops]
    cut = len(exp_keys) - start > DIFF_LINES or len(act_keys) - start > DIFF_LINES
    return ([("equal", 0, start, 0, start)] if start else []) + shifted, cut


def _first_missing(exp_keys: list[str], act_keys: list[str]) -> int | None:
    """With extra lines allowed: the first expected line not found, in order, in the actual ones."""
    have = iter(act_keys)
    return next((i for i, key in enumerate(exp_keys) if not any(key == got for got in have)), None)


def _quote(line: str) -> str:
    """A line quoted for a reason: a flood of a line is cut (the report shows it all)."""
    return repr(_short(line, 300))


def spacing_aside(line: str) -> str:
    """A line as `first_differing_line` first compares it: runs of spaces as one, letter case aside."""
    return " ".join(line.split()).casefold()


def first_differing_line(expected: str | None, actual: str | None) -> tuple[int, str | None, str | None]:
    """The first line (0-based) where two texts differ in substance (spacing and letter case
    aside), or exactly when they differ in nothing else; a line one side lacks is None."""
    mine = expected.split("\n") if expected is not None else []
    theirs = actual.split("\n") if actual is not None else []
    for same in (lambda a, b: spacing_aside(a) == spacing_aside(b), lambda a, b: a == b):
        for index in range(max(len(mine), len(theirs))):
            a = mine[index] if index < len(mine) else None
            b = theirs[index] if index < len(theirs) else None
            if a is None or b is None or not same(a, b):
                return index, a, b
    return 0, mine[0] if mine else None, theirs[0] if theirs else None


def describe_difference(turn: Turn, view: View) -> str:
    """The first line where a turn differs, said the way a person would fix it: what the
    program printed and what the expected output has there (for a view that compares the game's
    facts, the fact in words: "expected the board after this input to read ...")."""
    where = f"turn {turn.index}" + (f" (after typing {turn.typed!r})" if turn.typed is not None else "")
    found = _judged_difference(turn, view)
    return _said_as_facts(where, turn, view, found) if view.reads_facts else _said_as_text(where, found)


def _judged_difference(turn: Turn, view: View) -> tuple:
    """The first difference of a turn as `view` judges it (its lines aligned), as (what,
    expected line, actual line, line number): what is "ended", "more", "missing", "extra", "replaced", "invisible" or "cut"."""
    if turn.actual is None:
        return "ended", _short(turn.expected), None, None
    if turn.expected is None:
        return "more", None, _short(turn.actual), None
    exp_lines, exp_keys, exp_numbers = _viewed_lines(turn.expected, view)
    act_lines, act_keys, act_numbers = _viewed_lines(turn.actual, view)

    def at(numbers, index):
        return numbers[index] if index < len(numbers) else (numbers[-1] + 1 if numbers else 1)

    extra_ok = view.flags.ignore_extra_lines
    if extra_ok and max(len(exp_keys), len(act_keys)) > DIFF_LINES:  # too long to align: found in order
        missing = _first_missing(exp_keys, act_keys)
        if missing is None:
            return "invisible", None, None, None
        return "missing", exp_lines[missing], None, at(exp_numbers, missing)
    ops, cut = _line_opcodes(exp_keys, act_keys)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" or tag == "insert" and extra_ok:
            continue
        missing, extra = exp_lines[i1:i2], act_lines[j1:j2]
        if tag == "delete" or tag == "replace" and extra_ok:
            closest = extra[0] if extra and missing[0].strip() else None
            return "missing", missing[0], closest, at(exp_numbers, i1)
        if tag == "insert":
            return "extra", None, extra[0], at(act_numbers, j1)
        exp, act = missing[0], extra[0]
        if not exp.strip() and act.strip():
            return "missing", exp, None, at(exp_numbers, i1)
        if exp.strip() and not act.strip():
            return "extra", None, act, at(act_numbers, j1)
        return "replaced", exp, act, at(exp_numbers, i1)
    return ("cut" if cut else "invisible"), None, None, None


def _said_as_text(where: str, found: tuple) -> str:
    what, exp, act, line = found
    here = f"{where}, line {line}" if line is not None else where
    if what == "ended":
        return f"{where}: your program had already ended; the expected output goes on with {exp!r}"
    if what == "more":
        return f"{where}: your program printed {act!r} after the expected output had ended"
    if what == "missing":
        if not exp.strip():
            return f"{here}: the expected output has a blank line here, which your program did not print"
        if act is None:
            return f"{here}: the expected output has the line {_quote(exp)}, which your program did not print"
        return (f"{here}: the expected output has the line {_quote(exp)}; the closest line your program "
                f"printed is {_quote(act)}{_what_differs(exp, act)}")
    if what == "extra":
        if not act.strip():
            return f"{here}: your program printed an extra blank line"
        return f"{here}: your program printed {_quote(act)}, a line the expected output does not have"
    if what == "replaced":
        return f"{here}: expected {_quote(exp)}, your program printed {_quote(act)}{_what_differs(exp, act)}"
    if what == "cut":
        return (f"{where}: the outputs differ after their first {DIFF_LINES} lines (longer outputs are "
                "not compared line by line)")
    return f"{where}: your program's output differs from the expected only in line endings or invisible characters"


# How a kind of fact is named in a sentence ("expected the board after this input to read ...");
# a kind not here is named by itself ("the score").
FACT_WORDS = {"board": "the board", "player": "the player asked to move", "turn": "the player asked to move",
              "result": "the result", "winner": "the winner", "said": "a message", "refused": "a refusal",
              "counts": "the counts", "welcome": "a welcome line", "unread": "the output"}


def _fact(line: str | None) -> tuple[str, str] | None:
    if line is None or not line.strip():
        return None
    kind, _, value = line.partition(": ")
    return kind, value


def _said_as_facts(where: str, turn: Turn, view: View, found: tuple) -> str:
    """A difference between the facts a turn shows, in words about the game (a fact line
    `board: _ 0 1` is the reader's, never something the program printed)."""
    what, exp, act, _line = found
    mode = view.flags.facts
    moment = ("drawn here" if mode == "shown" else "after this input" if turn.typed is not None else "at the start")

    def subject(kind: str) -> str:
        return FACT_WORDS.get(kind, f"the {kind}")

    presence = view.reader.presence if view.reader is not None else ()
    if what in ("ended", "more"):
        first = next(filter(None, map(_fact, (exp if what == "ended" else act).split("\n"))), None)
        if what == "ended":
            return f"{where}: your program had already ended" + (
                f"; expected {subject(first[0])} {moment} to read {first[1]!r}" if first else "")
        return f"{where}: your program went on after the expected game had ended" + (
            f" (its output shows {subject(first[0])} {first[1]!r})" if first else "")
    expected, actual = _fact(exp), _fact(act)
    if expected is not None and expected[0] in presence:
        return f"{where}: expected {subject(expected[0])} here (in any wording); your program printed none"
    if expected is not None and actual is not None and expected[0] == actual[0]:
        return (f"{where}: expected {subject(expected[0])} {moment} to read {expected[1]!r}; "
                f"in your program's output it reads {actual[1]!r}")
    if expected is not None:
        return (f"{where}: expected {subject(expected[0])} {moment} to read {expected[1]!r}; "
                f"your program's output there does not show it")
    if actual is not None:
        return (f"{where}: your program's output shows {subject(actual[0])} {actual[1]!r} here, "
                "where the expected output shows none")
    return f"{where}: your program's output shows the game differently from the expected output"


def _short(text: str | None, limit: int = 200) -> str | None:
    return text if text is None or len(text) <= limit else text[:limit] + "…"


def _char_opcodes(exp: str, act: str):
    """difflib's opcodes on two lines' characters, bounded: long lines are aligned only on what
    lies between their common start and common end, and only if that is short; else None."""
    import difflib  # as in _line_opcodes

    if len(exp) <= DIFF_CHARS and len(act) <= DIFF_CHARS:
        return difflib.SequenceMatcher(None, exp, act).get_opcodes()
    start = _common_start(exp, act)
    end = _common_start(exp[:start - 1:-1] if start else exp[::-1], act[:start - 1:-1] if start else act[::-1])
    middle_exp, middle_act = exp[start:len(exp) - end], act[start:len(act) - end]
    if len(middle_exp) > DIFF_CHARS or len(middle_act) > DIFF_CHARS:
        return None
    ops = difflib.SequenceMatcher(None, middle_exp, middle_act).get_opcodes()
    return [(tag, i1 + start, i2 + start, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in ops]


def _what_differs(exp: str, act: str) -> str:
    """How an expected line and the program's differ, said of the program's line."""
    if exp.rstrip() == act.rstrip():
        return " (only the spaces at the end of the line differ)"
    if exp.lower() == act.lower():
        return " (only letter case differs)"
    if exp.split() == act.split():
        return " (only the spacing differs)"
    ops = _char_opcodes(exp, act)
    if ops is None:
        return f" (the lines first differ at column {_common_start(exp, act) + 1})"
    ops = [op for op in ops if op[0] != "equal"]
    if len(ops) == 1:
        tag, i1, i2, j1, j2 = ops[0]
        if (i1, i2, j1, j2) == (0, len(exp), 0, len(act)):
            return ""  # the whole line: said already
        if tag == "delete":
            return f" (your line lacks {_quote(exp[i1:i2])} at column {i1 + 1})"
        if tag == "insert":
            return f" (your line has an extra {_quote(act[j1:j2])} at column {i1 + 1})"
        return f" (at column {i1 + 1} your line has {_quote(act[j1:j2])} where the expected has {_quote(exp[i1:i2])})"
    return ""
