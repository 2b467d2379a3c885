"""What a case looks at in a turn: the view (which lines count, the message classes, the
normalisations of the policy) and a turn's text read through it. Linear in the text: plain
string code and RE2 patterns, which never backtrack; each distinct line is read once.
"""
import functools
import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass

import re2

from harness.judging import facts
from harness.judging.cpu_budget import spend
from harness.loading.policy import FLAGS, PRESETS, MessageClass, Policy, pattern
from harness.transcript import Transcript

MESSAGE_CHARS = 400  # a line longer than this is never read as a message


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
            spend()
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


def canonical_messages(text: str, classes) -> str:
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
                spend()
            read[line] = _read_message(line, classes)
        lines[index] = read[line]
    return "\n".join(lines)


_scope = threading.local()  # .memo: what this comparison already read, by text


@contextmanager
def comparison_memo():
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


def lines_looked_at(lines: list[str], flags: Policy) -> dict[str, bool] | None:
    """Whether each distinct line (without its end) is one the view looks at; None: all are."""
    keep = pattern(flags.keep_lines) if flags.keep_lines else None
    drop = pattern(flags.drop_lines) if flags.drop_lines else None
    if keep is None and drop is None:
        return None
    decided: dict[str, bool] = {}
    for count, line in enumerate(set(lines)):
        if count % 4096 == 0:
            spend()
        decided[line] = (keep is None or keep.search(line) is not None) and (drop is None or drop.search(line) is None)
    return decided


def _filter_lines(text: str, flags: Policy) -> str:
    """The lines a view looks at, each with its own line end (so a prompt stays a prompt)."""
    def kept() -> str:
        lines = text.split("\n")
        decided = lines_looked_at(lines, flags)
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
        text = canonical_messages(text, view.messages)
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

