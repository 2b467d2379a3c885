"""Games that begin from a random position: find the start a program drew, plan inputs for
it, and get the expected transcript from the reference re-run from that start.

A start is usable when the reference accepts it. One it rejects (`Invalid start: …`, exit 3)
breaks the rules; a run that shows no start at all cannot be compared either.
"""
import json
import re
import subprocess
from dataclasses import dataclass

from harness.environment import reference_env

INVALID_START_EXIT = 3  # the references' contract (reference/options.py)


@dataclass
class StartProblem:
    """Why a run cannot be compared: no start in its output, or a start against the rules."""
    breaks_rules: bool
    reason: str


def find_start(pattern: str, output: str) -> str | None:
    """The first match of the spec's capture (its group 1, if it has one)."""
    match = re.search(pattern, output, flags=re.M)
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group(0)


def plan(reference: list[str], option: str, start: str, strategy: dict, home: str) -> list[str] | StartProblem:
    """The lines the strategy types from this start, as the reference plans them."""
    settings = {k: v for k, v in strategy.items() if k != "prefix"}
    done = subprocess.run([*reference, option, start, "--plan", json.dumps(settings)], env=reference_env(home),
                          cwd=home, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        reason = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["no reason given"])[-1]
        return StartProblem(done.returncode == INVALID_START_EXIT,
                            f"the start position {start!r} cannot be played: {reason}")
    return done.stdout.splitlines()


class StrategyInputs:
    """A fixed prefix, then the lines a strategy plays from the start the program printed."""

    def __init__(self, prefix, strategy: dict, reference: list[str], settings: dict, home: str):
        self.lines = [str(x) for x in prefix]
        self.strategy, self.reference, self.settings, self.home = strategy, reference, settings, home
        self.problem: StartProblem | None = None
        self._planned = False
        self._next = 0

    def next_line(self, output_so_far: str) -> str | None:
        if self._next >= len(self.lines) and not self._planned:
            self._planned = True
            start = find_start(self.settings["capture"], output_so_far)
            if start is None:
                return None  # judged after the run: no start in the output
            planned = plan(self.reference, self.settings["option"], start, self.strategy, self.home)
            if isinstance(planned, StartProblem):
                self.problem = planned
                return None
            self.lines += planned
        if self._next >= len(self.lines):
            return None
        self._next += 1
        return self.lines[self._next - 1]


def expected_from_start(settings: dict, expected_events: list[dict], output: str, inputs, rerun):
    """None when the program's start is the case's own; else (events, end, start) from the
    reference re-run from the program's start (`rerun(extra_args, lines)`), or a StartProblem."""
    actual = find_start(settings["capture"], output)
    if actual is None:
        return StartProblem(False, "the start position was not found in the program's output")
    if isinstance(inputs, StrategyInputs):
        if inputs.problem:
            return inputs.problem
    elif actual == find_start(settings["capture"], "".join(e.get("out", "") for e in expected_events)):
        return None
    again = rerun([settings["option"], actual], inputs.lines)
    if again.end == INVALID_START_EXIT:
        reason = (again.output().strip().splitlines() or ["no reason given"])[-1]
        return StartProblem(True, f"the program's start {actual!r} breaks the rules: {reason}")
    return again.events, again.end, actual
