"""Turn-by-turn comparison of two transcripts under a comparison policy.

A turn is the output between two typed lines (turn 0 comes before the first input).
The policy is a set of normalisations; presets name the usual ones. When a case fails,
the ladder of looser policies tells the student the smallest change that would pass it.
"""
import difflib
import re
from dataclasses import dataclass, field

FLAGS = ("crlf", "trailing_space", "trailing_blank_lines", "ignore_case", "collapse_whitespace",
         "ignore_extra_lines", "ignore_exit")
# `turns` says which turns a case is scored on: all of them, only the first (what the program
# prints before any input) or only the last (how the game ended). Every turn is still shown.
TURNS = ("all", "first", "last")
# `from` (with turns: last) scores the last turn from the first line containing this text on.
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
    ("trailing whitespace were ignored", {"trailing_space": True, "trailing_blank_lines": True}),
    ("letter case were ignored", {"ignore_case": True}),
    ("runs of whitespace were collapsed", {"collapse_whitespace": True}),
    ("extra lines were ignored", {"ignore_extra_lines": True}),
]


def policy(*layers) -> dict:
    """Merge policy layers (preset names or mappings with an optional `preset`), later ones winning."""
    flags = {name: False for name in FLAGS} | {"turns": "all", "from": None}
    for layer in layers:
        if not layer:
            continue
        if isinstance(layer, str):
            layer = {"preset": layer}
        if "preset" in layer:
            flags = {name: False for name in FLAGS} | {"turns": flags["turns"], "from": flags["from"]} | PRESETS[layer["preset"]]
        flags.update({k: v for k, v in layer.items() if k != "preset"})
    return flags


def describe_policy(flags: dict) -> str:
    on = {k for k in FLAGS if flags.get(k)}
    name = next((n for n, preset in PRESETS.items() if on == set(preset)), None)
    text = name or ", ".join(sorted(on)) or "exact"
    if flags.get("turns", "all") != "all":
        text += f", {flags['turns']} turn only"
    return text + (f", from {flags['from']!r}" if flags.get("from") else "")


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


def normalise(text: str, flags: dict, last: bool) -> str:
    if flags.get("crlf"):
        text = text.replace("\r\n", "\n")
    if flags.get("trailing_space"):
        text = re.sub(r"[ \t]+\n", "\n", text)
        if last:
            text = text.rstrip(" \t")
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
    have = iter(line for line in actual.split("\n"))
    return all(any(line == got for got in have) for line in wanted)


def turns_equal(expected: str, actual: str, flags: dict, last: bool) -> bool:
    if flags.get("ignore_extra_lines"):
        keep = {**flags, "collapse_whitespace": False}
        exp, act = normalise(expected, keep, last), normalise(actual, keep, last)
        if flags.get("collapse_whitespace"):
            exp = "\n".join(" ".join(line.split()) for line in exp.split("\n"))
            act = "\n".join(" ".join(line.split()) for line in act.split("\n"))
        return _lines_contained(exp, act)
    return normalise(expected, flags, last) == normalise(actual, flags, last)


@dataclass
class Turn:
    index: int
    typed: str | None  # the line typed before this turn (None for turn 0)
    expected: str | None  # None: the expected run has no such turn
    actual: str | None
    equal: bool


@dataclass
class Comparison:
    passed: bool
    turns: list[Turn]
    first_divergence: int | None  # index of the first unequal turn
    end_expected: int | str
    end_actual: int | str
    end_ok: bool
    policy: dict
    hint: str | None = None  # "would pass if trailing whitespace were ignored"
    difference: str | None = None  # the first differing line, for a person
    problems: list[str] = field(default_factory=list)


def describe_end(end) -> str:
    """How a run ended, as the end of a sentence: "exited with status 1"."""
    if isinstance(end, int):
        return f"exited with status {end}"
    return {"waiting": "was still waiting for input when the inputs ran out", "timeout": "timed out",
            "output-limit": "printed more than the output limit"}.get(end, f"was {end.replace('signal', 'killed by')}")


def _end_text(end) -> str:
    if isinstance(end, int):
        return f"exit status {end}"
    return {"waiting": "still waiting for input", "timeout": "timed out",
            "output-limit": "stopped at the output limit"}.get(end, str(end))


def _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, flags) -> list[Turn]:
    turns = []
    for i in range(max(len(exp_turns), len(act_turns))):
        expected = exp_turns[i] if i < len(exp_turns) else None
        actual = act_turns[i] if i < len(act_turns) else None
        typed_list = exp_inputs if i <= len(exp_inputs) and i > 0 else act_inputs
        typed = typed_list[i - 1] if i > 0 and i - 1 < len(typed_list) else None
        last = i == len(exp_turns) - 1 or i == len(act_turns) - 1
        if expected is None or actual is None:
            equal = normalise(expected or actual or "", flags, True) == "" and expected is not None
        else:
            equal = turns_equal(expected, actual, flags, last)
        turns.append(Turn(i, typed, expected, actual, equal))
    return turns


def _judged(turns: list[Turn], exp_turns, act_turns, flags) -> list[Turn]:
    """The turns a case is scored on; for `last`, the last turn of each side, paired."""
    which = flags.get("turns", "all")
    if which == "first":
        return turns[:1]
    if which == "last":
        exp, act = exp_turns[-1], act_turns[-1]
        if flags.get("from"):
            exp, act = _from(exp, flags["from"]), _from(act, flags["from"])
        return [Turn(len(exp_turns) - 1, None, exp, act, turns_equal(exp, act, flags, True))]
    return turns


def _from(text: str, marker: str) -> str:
    at = text.find(marker)
    return "" if at < 0 else text[text.rfind("\n", 0, at) + 1:]


def compare(expected_events, expected_end, actual_events, actual_end, flags: dict) -> Comparison:
    exp_turns, exp_inputs = split_turns(expected_events)
    act_turns, act_inputs = split_turns(actual_events)
    shown = _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, flags)
    judged = _judged(shown, exp_turns, act_turns, flags)
    for turn in shown:  # a turn that is not judged is not marked as a difference
        turn.equal = turn.equal or all(turn.index != j.index for j in judged)
    if flags.get("turns") == "last" and not judged[0].equal:
        last = min(len(shown) - 1, judged[0].index)
        shown[last].equal = False
    turns = shown
    end_ok = flags.get("ignore_exit") and actual_end not in ("timeout", "output-limit") or expected_end == actual_end
    first = next((t.index for t in turns if not t.equal), None)
    passed = all(t.equal for t in judged) and end_ok
    result = Comparison(passed, turns, first, expected_end, actual_end, bool(end_ok), flags)
    if not end_ok:
        result.problems.append(f"expected {_end_text(expected_end)}, but the program {describe_end(actual_end)}")
    if first is not None:
        turn = judged[0] if flags.get("turns") == "last" else turns[first]
        result.difference = describe_difference(turn, flags)
        if end_ok:
            result.hint = _hint(exp_turns, exp_inputs, act_turns, act_inputs, flags)
    return result


def _hint(exp_turns, exp_inputs, act_turns, act_inputs, flags) -> str | None:
    looser = dict(flags)
    for label, change in LADDER:
        if all(looser.get(k) for k in change):
            continue
        looser.update(change)
        shown = _compare_turns(exp_turns, exp_inputs, act_turns, act_inputs, looser)
        if all(t.equal for t in _judged(shown, exp_turns, act_turns, looser)):
            return f"would pass if {label}"
    return None


def visible(text: str) -> str:
    """Whitespace a person cannot see, made visible."""
    return (text.replace("\r", "␍").replace("\t", "→").replace(" \n", "·\n")
            .replace("\u00a0", "⍽"))


def describe_difference(turn: Turn, flags: dict) -> str:
    """The first line where a turn differs, said the way a person would fix it."""
    where = f"turn {turn.index}" + (f" (after typing {turn.typed!r})" if turn.typed is not None else "")
    if turn.actual is None:
        return f"{where}: the program ended before this turn; expected {turn.expected!r}"
    if turn.expected is None:
        return f"{where}: unexpected output {turn.actual!r}"
    exp_lines = turn.expected.split("\n")
    act_lines = turn.actual.split("\n")
    for number, (exp, act) in enumerate(zip(exp_lines, act_lines), 1):
        if exp != act:
            return f"{where}, line {number}: expected {exp!r}, got {act!r}{_what_differs(exp, act)}"
    if len(act_lines) > len(exp_lines):
        extra = act_lines[len(exp_lines)]
        return f"{where}, line {len(exp_lines) + 1}: extra output {extra!r}" if extra else f"{where}: extra blank line at line {len(exp_lines) + 1}"
    if len(act_lines) == len(exp_lines):
        return f"{where}: differs only in line endings or invisible characters"
    missing = exp_lines[len(act_lines)]
    return f"{where}, line {len(act_lines) + 1}: missing {missing!r}" if missing else f"{where}: a blank line is missing at line {len(act_lines) + 1}"


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
