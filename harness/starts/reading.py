"""Games that begin from a random position: find the start a program drew, plan inputs for
it, and get the expected transcript from the reference re-run from that start.

The reference judges a start (its contract is declared in the spec's `random_start:`):
- usable: the game can be played from it;
- against the rules (`rejected_exit`): setup could not have drawn it; charged to the setup item;
- unplayable (`unplayable_exit`): within the handout's rules but shows no game (an already
  final strip); drawn again and never charged, since only a Decision says to re-roll.
A run whose output shows no start at all cannot be compared and fails its case.

What the program printed is hostile: the start is found in linear time (RE2, or the spec's state
reader), capped in length, and handed to the reference in a file (`--start-file`), so no text
becomes an option or outgrows a command line. A start the reference cannot be run from (too
long, or the reference fails on it) is the program's: its case fails with the reason (UNUSABLE),
so what the harness cannot judge never raises a grade.
"""
import contextlib
import os
import tempfile
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

import re2

from harness.loading.random_start import RandomStart
from harness.outcome import Kind as EndKind
from harness import transcript
from harness.transcript import Transcript
from harness.loading import paths



class Kind(StrEnum):
    """Why a run's start cannot be graded."""
    MISSING = "missing"  # no start in the output: the case fails
    RULES = "rules"  # against the rules: charged to the setup item
    UNPLAYABLE = "unplayable"  # within the rules, shows no game: drawn again, never charged
    UNUSABLE = "unusable"  # the reference cannot be run from it: the case fails


MISSING, RULES, UNPLAYABLE, UNUSABLE = Kind.MISSING, Kind.RULES, Kind.UNPLAYABLE, Kind.UNUSABLE


@dataclass
class StartProblem:
    """Why a run cannot be compared: no start in its output, one against the rules, or one that shows no game."""
    kind: Kind
    reason: str


@dataclass
class Rerun:
    """The reference's expected transcript from the program's own start."""
    events: Transcript
    end: object  # outcome.End
    start: str


@cache
def _capture(pattern: str):
    options = re2.Options()
    options.max_mem = 64 << 20
    return re2.compile(f"(?m){pattern}", options)


def find_start(settings: RandomStart, output: str, reader=None) -> str | None:
    """The start a program's output shows: the first fact of the spec's `fact` kind read by its
    state reader, or else the first match of `capture` (its group 1, if it has one); linear in
    the output either way."""
    if settings.fact and reader is not None:
        return next((value for kind, value in reader(output) if kind == settings.fact), None)
    if settings.capture is None:
        return None
    match = _capture(settings.capture).search(output)
    if match is None:
        return None
    return match.group(1) if _capture(settings.capture).groups else match.group(0)


def too_long(settings: RandomStart, start: str) -> StartProblem | None:
    """A start longer than the spec allows is not one the reference is asked to play."""
    limit = settings.max_chars
    if len(start) <= limit:
        return None
    return StartProblem(UNUSABLE, f"the program's start is {len(start):,} characters long ({start[:60]!r}…); "
                                  f"a start of at most {limit:,} is read, so this case cannot be graded and fails")


@contextlib.contextmanager
def start_file(start: str):
    """The start written to a file of the grader's own (never the program's folder), for
    `--start-file`: no command-line limit, and no start can be read as an option."""
    descriptor, path = tempfile.mkstemp(prefix=paths.temporary("start"), suffix=".txt")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", errors="surrogateescape", newline="") as file:
            file.write(start)
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def judged(settings: RandomStart, status: int, last_line: str, start: str) -> StartProblem | None:
    """What the reference's exit status says of a start: against the rules, unplayable, or fine (None)."""
    if status == settings.rejected_exit:
        return StartProblem(RULES, f"the program's start {start!r} breaks the rules: {last_line}")
    if status == settings.unplayable_exit:
        return StartProblem(UNPLAYABLE, f"the program's start {start!r} shows no game: {last_line}")
    return None


def _first_lines(output: str, count: int = 5) -> str:
    lines = [line for line in output.splitlines() if line.strip()][:count]
    return " | ".join(line[:120] for line in lines) or "(nothing)"


def _looked_for(settings: RandomStart) -> str:
    if settings.fact:
        return f"a {settings.fact} as the game's state reader reads one"
    return f"a line matching {settings.capture!r}"


def expected_from_start(settings: RandomStart, expected_events: Transcript, own_end, output: str, inputs, rerun,
                        reader=None):
    """None when the program's start is the case's own; else a Rerun from the reference re-run
    from the program's start (`rerun(extra_args, lines)`), or a StartProblem. A start the
    reference cannot be run from, or fails on in a way the case's own game (`own_end`) never
    ends, is UNUSABLE: the program's, never a harness error that would count nowhere."""
    actual = find_start(settings, output, reader)
    if actual is None:
        return StartProblem(MISSING, f"the start position was not found in the program's output: looked for "
                                     f"{_looked_for(settings)}; the program printed: {_first_lines(output)}")
    problem = too_long(settings, actual)
    if problem is not None:
        return problem
    if getattr(inputs, "plans_from_start", False):  # a strategy's inputs: planned from this very start
        if inputs.problem is not None:
            return inputs.problem
    elif actual == find_start(settings, transcript.output(expected_events), reader):
        return None
    with start_file(actual) as path:
        again = rerun([settings.option, path], inputs.lines)
    if again.end.kind == EndKind.EXIT and again.end.status != 0 or again.end.kind == EndKind.SIGNAL or again.end.stopped:
        last = (again.output().strip().splitlines() or ["no reason given"])[-1]
        problem = judged(settings, again.end.status, last, actual) if again.end.kind == EndKind.EXIT else None
        if problem is not None:
            return problem
        if again.end != own_end:
            return StartProblem(UNUSABLE, f"the reference {again.end.describe()} when re-run from the program's "
                                          f"start {actual[:200]!r} ({last[:200]}), so no expected transcript can be "
                                          "made: the case cannot be graded and fails")
    return Rerun(again.events, again.end, actual)
