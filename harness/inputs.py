"""Where typed lines come from: a case's list, a strategy played by the reference, or a person."""
import json
import re
import subprocess
import sys

from harness.environment import child_env
from pathlib import Path


class StartNotFound(Exception):
    pass


def find_start(pattern: str, output: str) -> str | None:
    match = re.search(pattern, output, flags=re.M)
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group(0)


def reference_env(home: str) -> dict:
    """The references are the `reference` package that ships beside the harness."""
    import reference
    return child_env(home, {"PYTHONPATH": str(Path(reference.__file__).resolve().parent.parent),
                            "PYTHONDONTWRITEBYTECODE": "1"})


def plan(reference: list[str], option: str, start: str, strategy: dict, home: str) -> list[str]:
    """Ask the reference which lines the strategy types from this start."""
    spec = {k: v for k, v in strategy.items() if k != "prefix"}
    done = subprocess.run([*reference, option, start, "--plan", json.dumps(spec)], env=reference_env(home),
                          cwd=home, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        reason = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["no reason given"])[-1]
        raise StartNotFound(reason)
    return done.stdout.splitlines()


class StrategyInputs:
    """A fixed prefix, then the lines a strategy plays from the start the program printed."""

    def __init__(self, prefix, strategy: dict, reference: list[str], option: str, capture: str, home: str):
        self._lines = [str(x) for x in prefix]
        self._planned = False
        self._next = 0
        self.strategy, self.reference, self.option, self.capture, self.home = strategy, reference, option, capture, home
        self.start: str | None = None
        self.problem: str | None = None

    @property
    def lines(self) -> list[str]:
        return self._lines

    def next_line(self, output_so_far: str) -> str | None:
        if self._next >= len(self._lines) and not self._planned:
            self._planned = True
            self.start = find_start(self.capture, output_so_far)
            if self.start is None:
                self.problem = "the start position was not found in the output"
                return None
            try:
                self._lines += plan(self.reference, self.option, self.start, self.strategy, self.home)
            except StartNotFound as reason:
                self.problem = f"the start position {self.start!r} breaks the rules: {reason}"
                return None
        if self._next >= len(self._lines):
            return None
        self._next += 1
        return self._lines[self._next - 1]


class TerminalInputs:
    """A person types each line (harness record)."""

    def next_line(self, output_so_far: str) -> str | None:
        sys.stdout.flush()
        line = sys.stdin.readline()
        return line.rstrip("\n") if line else None
