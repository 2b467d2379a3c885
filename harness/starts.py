"""Games that begin from a random position: find the start a program drew, plan inputs for
it, and get the expected transcript from the reference re-run from that start.

The reference judges a start (its contract is declared in the spec's `random_start:`):
- usable: the game can be played from it;
- against the rules (`rejected_exit`): setup could not have drawn it; charged to the setup item;
- unplayable (`unplayable_exit`): within the handout's rules but shows no game (an already
  final strip); drawn again and never charged, since only a Decision says to re-roll.
A run whose output shows no start at all cannot be compared and fails its case.
"""
import json
import re
import subprocess
from dataclasses import dataclass

from harness.environment import reference_env

MISSING, RULES, UNPLAYABLE = "missing", "rules", "unplayable"
PLAN_SECONDS = 30


@dataclass
class StartProblem:
    """Why a run cannot be compared: no start in its output, one against the rules, or one that shows no game."""
    kind: str  # MISSING | RULES | UNPLAYABLE
    reason: str


@dataclass
class Rerun:
    """The reference's expected transcript from the program's own start."""
    events: list[dict]
    end: object  # outcome.End
    start: str


def find_start(pattern: str, output: str) -> str | None:
    """The first match of the spec's capture (its group 1, if it has one)."""
    match = re.search(pattern, output, flags=re.M)
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group(0)


def _judged(settings: dict, status: int, last_line: str, start: str) -> StartProblem | None:
    if status == settings["rejected_exit"]:
        return StartProblem(RULES, f"the program's start {start!r} breaks the rules: {last_line}")
    if status == settings["unplayable_exit"]:
        return StartProblem(UNPLAYABLE, f"the program's start {start!r} shows no game: {last_line}")
    return None


def plan(reference: list[str], settings: dict, start: str, strategy: dict, home: str) -> list[str] | StartProblem:
    """The lines the strategy types from this start, as the reference plans them."""
    options = {k: v for k, v in strategy.items() if k != "prefix"}
    done = subprocess.run([*reference, settings["option"], start, settings["plan_option"], json.dumps(options)],
                          env=reference_env(home), cwd=home, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=PLAN_SECONDS)
    if done.returncode != 0:
        last = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["no reason given"])[-1]
        problem = _judged(settings, done.returncode, last, start)
        if problem is None:
            raise RuntimeError(f"the reference could not plan from {start!r} (exit {done.returncode}): {last}")
        return problem
    return done.stdout.splitlines()


class StrategyInputs:
    """A fixed prefix, then the lines a strategy plays from the start the program printed."""

    def __init__(self, prefix, strategy: dict, reference: list[str], settings: dict, home: str, rewrite=None):
        self.lines = [str(x) for x in prefix]
        self.strategy, self.reference, self.settings, self.home = strategy, reference, settings, home
        self.rewrite = rewrite or (lambda text: text)
        self.problem: StartProblem | None = None
        self._planned = False
        self._next = 0

    def next_line(self, output_so_far: str) -> str | None:
        if self._next >= len(self.lines) and not self._planned:
            self._planned = True
            start = find_start(self.settings["capture"], self.rewrite(output_so_far))
            if start is None:
                return None  # judged after the run: no start in the output
            planned = plan(self.reference, self.settings, start, self.strategy, self.home)
            if isinstance(planned, StartProblem):
                self.problem = planned
                return None
            self.lines += planned
        if self._next >= len(self.lines):
            return None
        self._next += 1
        return self.lines[self._next - 1]


def _first_lines(output: str, count: int = 5) -> str:
    lines = [line for line in output.splitlines() if line.strip()][:count]
    return " | ".join(line[:120] for line in lines) or "(nothing)"


def expected_from_start(settings: dict, expected_events: list[dict], own_end, output: str, inputs, rerun):
    """None when the program's start is the case's own; else a Rerun from the reference re-run
    from the program's start (`rerun(extra_args, lines)`), or a StartProblem. A reference that
    fails from a start in a way the case's own game (`own_end`) never ends raises RuntimeError."""
    actual = find_start(settings["capture"], output)
    if actual is None:
        return StartProblem(MISSING, "the start position was not found in the program's output: looked for a line "
                                     f"matching {settings['capture']!r}; the program printed: {_first_lines(output)}")
    if isinstance(inputs, StrategyInputs):
        if inputs.problem:
            return inputs.problem
    elif actual == find_start(settings["capture"], "".join(e.get("out", "") for e in expected_events)):
        return None
    again = rerun([settings["option"], actual], inputs.lines)
    if again.end.kind == "exit" and again.end.status != 0 or again.end.kind == "signal" or again.end.stopped:
        last = (again.output().strip().splitlines() or ["no reason given"])[-1]
        problem = _judged(settings, again.end.status, last, actual) if again.end.kind == "exit" else None
        if problem is not None:
            return problem
        if again.end != own_end:
            # the reference failed from this start in a way its own game never ends: that is
            # the harness's (or the reference's) failure, never the program's
            raise RuntimeError(f"the reference {again.end.describe()} from the start {actual!r}: {last}")
    return Rerun(again.events, again.end, actual)
