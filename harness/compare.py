"""Turn-by-turn comparison of two transcripts under a comparison policy.

A turn is the output between two typed lines (turn 0 comes before the first input). The
policy says what a case looks at, so that an item judges only its subject:
- a *view*: which lines count (`keep_lines` / `drop_lines`, regular expressions) and whether
  the spec's message classes apply (`messages`: the handout's example wording and any line a
  class accepts both read as the class's canonical text);
- normalisations (CRLF, spaces at line ends, blank lines, letter case, runs of whitespace);
- which turns are scored (`turns`, `from`) and whether the exit status counts.
Presets name the usual normalisations. When a case fails, a ladder of looser policies tells
the student the smallest change that would pass it.
"""
import difflib
import re
from dataclasses import dataclass, field

from harness import facts
from harness.outcome import End
from harness.results import Turn

FLAGS = ("crlf", "trailing_space", "trailing_blank_lines", "ignore_blank_lines", "ignore_case",
         "collapse_whitespace", "ignore_extra_lines", "ignore_exit")
# Keys that say *what* a case looks at, not how strictly: a later preset keeps them.
VIEW_KEYS = {"turns": "all", "from": None, "messages": False, "keep_lines": None, "drop_lines": None, "rewrite": True,
             "facts": "off"}
TURNS = ("all", "first", "last")
_DEFAULT = {"crlf": True, "trailing_space": True, "trailing_blank_lines": True}
PRESETS = {
    "exact": {},
    "default": _DEFAULT,
    "whitespace": {**_DEFAULT, "collapse_whitespace": True},
    "lenient": {**_DEFAULT, "collapse_whitespace": True, "ignore_case": True, "ignore_extra_lines": True},
}
# Each step loosens the policy a little more; the first step that passes is the hint.
LADDER = [
    ("line endings (CRLF) were normalised", {"crlf": True}),
    ("spaces at the ends of lines were ignored", {"trailing_space": True, "trailing_blank_lines": True}),
    ("blank lines were ignored", {"ignore_blank_lines": True}),
    ("letter case were ignored", {"ignore_case": True}),
    ("runs of spaces were collapsed", {"collapse_whitespace": True}),
    ("extra lines were ignored", {"ignore_extra_lines": True}),
]


MESSAGE_CHARS = 400  # a line longer than this is never read as a message


@dataclass(frozen=True)
class MessageClass:
    """Lines that count as the same message: the handout's example text and its variants."""
    id: str
    text: str  # the canonical line; may use the groups of `accept` (\\1)
    accept: re.Pattern


def policy(*layers) -> dict:
    """Merge policy layers (preset names or mappings with an optional `preset`), later ones winning."""
    flags = {name: False for name in FLAGS} | dict(VIEW_KEYS)
    for layer in layers:
        if not layer:
            continue
        if isinstance(layer, str):
            layer = {"preset": layer}
        if "preset" in layer:
            flags = {name: False for name in FLAGS} | {k: flags[k] for k in VIEW_KEYS} | PRESETS[layer["preset"]]
        flags.update({k: v for k, v in layer.items() if k != "preset"})
    return flags


FLAG_WORDS = {"crlf": "CRLF read as LF", "trailing_space": "spaces at line ends ignored",
              "trailing_blank_lines": "blank lines at the end ignored", "ignore_blank_lines": "blank lines ignored",
              "ignore_case": "letter case ignored", "collapse_whitespace": "runs of spaces collapsed",
              "ignore_extra_lines": "extra lines ignored", "ignore_exit": "exit status not graded"}


def describe_policy(flags: dict) -> str:
    """The policy in words: the closest preset, then what it adds."""
    on = {k for k in FLAGS if flags.get(k)}
    name = max((n for n, preset in PRESETS.items() if set(preset) <= on), key=lambda n: len(PRESETS[n]))
    parts = [name] + [FLAG_WORDS[k] for k in FLAGS if k in on - set(PRESETS[name])]
    if flags.get("facts", "off") != "off":
        parts.append(facts.describe(flags["facts"]))
    if flags.get("messages"):
        parts.append("example wording accepted")
    if not flags.get("rewrite", True):
        parts.append("the program's output as printed (no rewrite)")
    if flags.get("keep_lines"):
        parts.append(f"only lines matching {flags['keep_lines']!r}")
    if flags.get("drop_lines"):
        parts.append(f"lines matching {flags['drop_lines']!r} left out")
    if flags.get("turns", "all") != "all":
        parts.append(f"{flags['turns']} turn only" + (f" from {flags['from']!r}" if flags.get("from") else ""))
    return ", ".join(parts)


def split_turns(events: list[dict]) -> tuple[list[str], list[str]]:
    """(outputs per turn, inputs); there is always one more turn than inputs."""
    turns, inputs = [""], []
    for event in events:
        if "in" in event:
            inputs.append(event["in"])
            turns.append("")
        else:
            turns[-1] += event["out"]
    return turns, inputs


@dataclass(frozen=True)
class View:
    """What a case looks at: the policy plus the spec's message classes."""
    flags: dict
    messages: tuple[MessageClass, ...] = ()
    reader: facts.StateReader | None = None  # the spec's state reader, for `facts:`

    def looser(self, change: dict) -> "View":
        return View(self.flags | change, self.messages, self.reader)

    @property
    def reads_facts(self) -> bool:
        return self.reader is not None and self.flags.get("facts", "off") != "off"


def _canonical_messages(text: str, classes) -> str:
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if len(line) > MESSAGE_CHARS:
            continue  # no message is that long; a flood of output is not searched line by line
        for message in classes:
            match = message.accept.search(line)
            if match:
                lines[index] = match.expand(message.text)
                break
    return "\n".join(lines)


def _filter_lines(text: str, flags: dict) -> str:
    """The lines a view looks at, each with its own line end (so a prompt stays a prompt)."""
    keep, drop = flags.get("keep_lines"), flags.get("drop_lines")
    lines = re.split(r"(?<=\n)", text)
    if keep:
        lines = [line for line in lines if re.search(keep, line.rstrip("\n"))]
    if drop:
        lines = [line for line in lines if not re.search(drop, line.rstrip("\n"))]
    return "".join(lines)


def normalise(text: str, view: View, last: bool) -> str:
    flags = view.flags
    if flags.get("crlf"):
        text = text.replace("\r\n", "\n")
    if flags.get("messages") and view.messages and not view.reads_facts:
        text = _canonical_messages(text, view.messages)
    if flags.get("keep_lines") or flags.get("drop_lines"):
        text = _filter_lines(text, flags)
    if flags.get("trailing_space"):
        text = re.sub(r"[ \t]+\n", "\n", text)
        if last:
            text = text.rstrip(" \t")
    if flags.get("ignore_blank_lines"):
        text = re.sub(r"\n[ \t]*(?=\n)", "", text).lstrip("\n")
    if flags.get("trailing_blank_lines") and last:
        text = text.rstrip("\n")
    if flags.get("ignore_case"):
        text = text.casefold()
    if flags.get("collapse_whitespace"):
        text = " ".join(text.split())
    return text


def _lines_contained(expected: str, actual: str) -> bool:
    """Every expected line appears in the actual output, in order (extra lines allowed)."""
    wanted = [line for line in expected.split("\n") if line.strip()]
    have = iter(actual.split("\n"))
    return all(any(line == got for got in have) for line in wanted)


def turns_equal(expected: str, actual: str, view: View, last: bool) -> bool:
    if view.flags.get("ignore_extra_lines"):
        keep = view.looser({"collapse_whitespace": False})
        exp, act = normalise(expected, keep, last), normalise(actual, keep, last)
        if view.flags.get("collapse_whitespace"):
            exp = "\n".join(" ".join(line.split()) for line in exp.split("\n"))
            act = "\n".join(" ".join(line.split()) for line in act.split("\n"))
        return _lines_contained(exp, act)
    return normalise(expected, view, last) == normalise(actual, view, last)


@dataclass
class Comparison:
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
    which = view.flags.get("turns", "all")
    if which == "first":
        return turns[:1]
    if which == "last":
        exp, act = exp_turns[-1], act_turns[-1]
        if view.flags.get("from"):
            if view.flags.get("messages") and view.messages:  # the marker may be example wording
                exp, act = _canonical_messages(exp, view.messages), _canonical_messages(act, view.messages)
            exp, act = _from(exp, view.flags["from"]), _from(act, view.flags["from"])
        return [Turn(len(exp_turns) - 1, None, exp, act, turns_equal(exp, act, view, True))]
    return turns


def _from(text: str, marker: str) -> str:
    at = text.find(marker)
    return "" if at < 0 else text[text.rfind("\n", 0, at) + 1:]


def compare(expected_events, expected_end: End, actual_events, actual_end: End, view: View) -> Comparison:
    flags = view.flags
    exp_turns, exp_inputs = split_turns(expected_events)
    act_turns, act_inputs = split_turns(actual_events)
    printed = (exp_turns, act_turns)
    if view.reads_facts:  # compare what a person reads in each turn, not its text
        exp_turns = facts.fact_turns(exp_turns, view.reader, flags["facts"])
        act_turns = facts.fact_turns(act_turns, view.reader, flags["facts"])
    shown = _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, view)
    judged = _judged(shown, exp_turns, act_turns, view)
    scored_indexes = {j.index for j in judged}
    first_anywhere = next((t.index for t in shown if not t.equal), None)
    for turn in shown:  # a turn that is not scored is not marked as a difference
        turn.equal = turn.equal or turn.index not in scored_indexes
    if flags.get("turns") == "last" and not judged[0].equal:
        shown[min(len(shown) - 1, judged[0].index)].equal = False
    end_ok = bool(flags.get("ignore_exit") and not actual_end.stopped or expected_end == actual_end)
    first = next((t.index for t in shown if not t.equal), None)
    passed = all(t.equal for t in judged) and end_ok
    result = Comparison(passed, shown, first, end_ok, flags)
    if not end_ok:
        result.problems.append(f"expected {expected_end.label()}, but the program {actual_end.describe()}")
    if first is not None:
        turn = judged[0] if flags.get("turns") == "last" else shown[first]
        result.difference = describe_difference(turn, view)
        if flags.get("turns") == "last" and first_anywhere is not None and first_anywhere < turn.index:
            earlier = next(t for t in _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, view)
                           if t.index == first_anywhere)
            result.difference += f"; the transcripts first differ at {describe_difference(earlier, view)}"
        if end_ok and not view.reads_facts:
            result.hint = _hint(exp_turns, exp_inputs, act_turns, act_inputs, view)
    if view.reads_facts:
        _show_printed(shown, *printed)
    return result


def _show_printed(turns: list[Turn], exp_turns: list[str], act_turns: list[str]) -> None:
    """Turns compared on their facts show the text as printed, with the facts read beside it."""
    for turn in turns:
        turn.expected_read, turn.read = turn.expected, turn.actual
        turn.expected = exp_turns[turn.index] if turn.index < len(exp_turns) else None
        turn.actual = act_turns[turn.index] if turn.index < len(act_turns) else None


def _hint(exp_turns, exp_inputs, act_turns, act_inputs, view: View) -> str | None:
    looser = view
    for label, change in LADDER:
        if all(looser.flags.get(k) for k in change):
            continue
        looser = looser.looser(change)
        shown = _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, looser)
        if all(t.equal for t in _judged(shown, exp_turns, act_turns, looser)):
            return f"would pass if {label}"
    return None


def _viewed_lines(text: str, view: View) -> tuple[list[str], list[str], list[int]]:
    """The lines of a turn that the view looks at: as printed, as the view reads them (the keys
    the difference is found on) and their line numbers, so a reason points at a line that counts."""
    flags = view.flags
    keep, drop = flags.get("keep_lines"), flags.get("drop_lines")
    skip_blank = flags.get("collapse_whitespace") or flags.get("ignore_blank_lines")
    one_line = view.looser({"keep_lines": None, "drop_lines": None, "trailing_blank_lines": False})
    lines, keys, numbers = [], [], []
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if keep and not re.search(keep, line) or drop and re.search(drop, line) or skip_blank and not line.strip():
            continue
        lines.append(line)
        keys.append(normalise(line, one_line, True))
        numbers.append(number)
    return lines, keys, numbers


def describe_difference(turn: Turn, view: View) -> str:
    """The first line where a turn differs, said the way a person would fix it."""
    where = f"turn {turn.index}" + (f" (after typing {turn.typed!r})" if turn.typed is not None else "")
    if turn.actual is None:
        return f"{where}: the program ended before this turn; expected {_short(turn.expected)!r}"
    if turn.expected is None:
        return f"{where}: unexpected output {_short(turn.actual)!r}"
    exp_lines, exp_keys, exp_numbers = _viewed_lines(turn.expected, view)
    act_lines, act_keys, act_numbers = _viewed_lines(turn.actual, view)

    def at(numbers, index):
        return numbers[index] if index < len(numbers) else (numbers[-1] + 1 if numbers else 1)

    matcher = difflib.SequenceMatcher(None, exp_keys, act_keys, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or tag == "insert" and view.flags.get("ignore_extra_lines"):
            continue
        missing, extra = exp_lines[i1:i2], act_lines[j1:j2]
        if tag == "delete" or tag == "replace" and view.flags.get("ignore_extra_lines"):
            if not missing[0].strip():
                return f"{where}: a blank line is missing at line {at(exp_numbers, i1)}"
            return f"{where}, line {at(exp_numbers, i1)}: missing {missing[0]!r}" + (
                f" (closest: {extra[0]!r}{_what_differs(missing[0], extra[0])})" if extra else "")
        if tag == "insert":
            if not extra[0].strip():
                return f"{where}: an extra blank line at line {at(act_numbers, j1)}"
            return f"{where}, line {at(act_numbers, j1)}: extra output {extra[0]!r}"
        exp, act = missing[0], extra[0]
        if not exp.strip() and act.strip():
            return f"{where}: a blank line is missing at line {at(exp_numbers, i1)}"
        if exp.strip() and not act.strip():
            return f"{where}: an extra blank line at line {at(act_numbers, j1)}"
        return f"{where}, line {at(exp_numbers, i1)}: expected {exp!r}, got {act!r}{_what_differs(exp, act)}"
    return f"{where}: differs only in line endings or invisible characters"


def _short(text: str | None, limit: int = 200) -> str | None:
    return text if text is None or len(text) <= limit else text[:limit] + "…"


def _what_differs(exp: str, act: str) -> str:
    if exp.rstrip() == act.rstrip():
        return " (differs only in spaces at the end of the line)"
    if exp.lower() == act.lower():
        return " (differs only in letter case)"
    if exp.split() == act.split():
        return " (differs only in spacing)"
    ops = [op for op in difflib.SequenceMatcher(None, exp, act).get_opcodes() if op[0] != "equal"]
    if len(ops) == 1:
        tag, i1, i2, j1, j2 = ops[0]
        if tag == "delete":
            return f" (missing {exp[i1:i2]!r} at column {i1 + 1})"
        if tag == "insert":
            return f" (extra {act[j1:j2]!r} at column {i1 + 1})"
        return f" ({exp[i1:i2]!r} became {act[j1:j2]!r} at column {i1 + 1})"
    return ""
