"""Saying what differs in a failed turn, for a person: the first line that differs as the
view reads it, or the fact (the board, the player) that differs, with the line as printed.
difflib runs only on a bounded part of a turn (its worst case grows with the cube).
"""
from harness.judging.cpu_budget import spend
from harness.judging.views import View, canonical_messages, lines_looked_at, normalise
from harness.results import Turn
from harness.safe_text import cap, visible

DIFF_LINES = 200  # lines of each side that difflib aligns (its worst case grows with the cube)
DIFF_CHARS = 2000  # characters of each line that difflib aligns to say what differs in it


def _viewed_lines(text: str, view: View) -> tuple[list[str], list[str], list[int]]:
    """The lines of a turn that the view looks at: as printed, as the view reads them (the keys
    the difference is found on) and their line numbers, so a reason points at a line that counts."""
    flags = view.flags
    skip_blank = flags.collapse_whitespace or flags.ignore_blank_lines
    printed = text.replace("\r\n", "\n")
    printed_lines = printed.split("\n")
    looked_at = lines_looked_at(printed_lines, flags)
    # message classes read line by line, so the whole turn is read once (as normalise did)
    messages = flags.messages and view.messages and not view.reads_facts
    read_lines = (canonical_messages(printed, view.messages) if messages else printed).split("\n")
    one_line = view.looser({"keep_lines": None, "drop_lines": None, "trailing_blank_lines": False, "messages": False})
    keyed: dict[str, str] = {}
    lines, keys, numbers = [], [], []
    for number, (line, read) in enumerate(zip(printed_lines, read_lines), 1):
        if looked_at is not None and not looked_at[line] or skip_blank and not line.strip():
            continue
        if read not in keyed:
            if len(keyed) % 4096 == 0:
                spend()
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


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st: how a person counts what they typed."""
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def moment(index: int, typed: str | None = None) -> str:
    """Where a turn is, counted as the student counts it: by the lines they typed (a turn's index
    is how many were typed before its output), never as "turn 0"."""
    if index <= 0:
        return "before your first input"
    return f"after your {ordinal(index)} input" + (f" ({typed!r})" if typed is not None else "")


def place(index: int, typed: str | None = None) -> str:
    """Where a turn is, in the instructor's words for what the student typed (`moment` is the
    student's): "before the first input", "after input 3 ('d')"; never a turn's number."""
    if index <= 0:
        return "before the first input"
    return f"after input {index}" + (f" ({visible(cap(typed, 60))!r})" if typed is not None else "")


def describe_difference(turn: Turn, view: View) -> str:
    """The first line where a turn differs, said the way a person would fix it: what the
    program printed and what the expected output has there (for a view that compares the game's
    facts, the fact in the game's words: "in the expected game the board is ...")."""
    where = moment(turn.index, turn.typed)
    if view.flags.turns == "last" and turn.typed is None:  # the last turn of each side, paired
        where = f"at the end of the game ({where})"
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


# How a kind of fact is named in a sentence ("in the expected game the board is ..."); a kind not
# here is named by itself ("the score"). The kinds are the spec's state readers' (judging/facts.py).
FACT_WORDS = {"board": "the board", "player": "the player to move", "turn": "the player to move",
              "result": "the result", "winner": "the winner", "said": "a message", "refused": "a refusal",
              "count": "the count", "counts": "the counts", "welcome": "a welcome line", "unread": "the output",
              "final": "the final board"}


def _fact(line: str | None) -> tuple[str, str] | None:
    if line is None or not line.strip():
        return None
    kind, _, value = line.partition(": ")
    return kind, value


def _subject(kind: str) -> str:
    return FACT_WORDS.get(kind, f"the {kind}")


def _said_as_facts(where: str, turn: Turn, view: View, found: tuple) -> str:
    """A difference between the facts a turn shows, in words about the game (a fact line
    `board: _ 0 1` is the reader's, never something the program printed)."""
    what, exp, act, _line = found
    presence = view.reader.presence if view.reader is not None else ()
    if what in ("ended", "more"):
        first = next(filter(None, map(_fact, (exp if what == "ended" else act).split("\n"))), None)
        if what == "ended":
            return f"{where}: your program had already ended" + (
                f"; in the expected game {_subject(first[0])} is then {first[1]!r}" if first else "")
        return f"{where}: your program went on after the expected game had ended" + (
            f" (its output shows {_subject(first[0])} as {first[1]!r})" if first else "")
    expected, actual = _fact(exp), _fact(act)
    if expected is not None and expected[0] in presence:
        return f"{where}: the expected game shows {_subject(expected[0])} here (in any wording); your program printed none"
    if expected is not None and actual is not None and expected[0] == actual[0]:
        return (f"{where}: in the expected game {_subject(expected[0])} is {expected[1]!r}, "
                f"in your program's output {actual[1]!r}")
    if expected is not None:
        return (f"{where}: in the expected game {_subject(expected[0])} is {expected[1]!r}; "
                "your program's output there does not show it")
    if actual is not None:
        return (f"{where}: your program's output shows {_subject(actual[0])} as {actual[1]!r} here, "
                "where the expected game shows none")
    return f"{where}: your program's output shows the game differently from the expected output"


def printed_difference(expected: str | None, actual: str | None, index: int, ended: int | None = None) -> str:
    """What the program printed differently where its facts differ, as an aside to a facts
    sentence: the first line of the turn's text that differs (spacing aside, blank lines
    skipped), and where the program's game ended (`ended`: the turn it exited after) if that was
    before the expected game's end. Empty when the printed texts show no
    line that differs (the facts may differ through an earlier turn): never two equal excerpts."""
    def lines(text):
        return [line.strip() for line in (text or "").replace("\r\n", "\n").split("\n") if line.strip()]

    mine, theirs = lines(expected), lines(actual)
    said = []
    if ended is not None:
        when = "here" if ended == index else moment(ended)
        said.append(f"your program ended the game {when}, where the expected game goes on")
    ops, _cut = _line_opcodes([spacing_aside(line) for line in mine], [spacing_aside(line) for line in theirs])
    tag, i1, _i2, j1, _j2 = next((op for op in ops if op[0] != "equal"), ("equal", 0, 0, 0, 0))
    if tag == "replace":
        said.append(f"the expected output there has {_quote(mine[i1])}, where your program printed {_quote(theirs[j1])}")
    elif tag == "insert":
        said.append(f"your program printed {_quote(theirs[j1])}, a line the expected output does not have there")
    elif tag == "delete":
        said.append(f"the expected output there has {_quote(mine[i1])}, which your program did not print")
    return "".join(f"; {part}" for part in said)


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

