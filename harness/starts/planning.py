"""The inputs a case's strategy types from the start a program drew: planned by the reference
(`--plan`), from the start handed to it in a file, in a folder of the reference's own (never the
program's: it is still running, and may have written anything in its folder)."""
import json
import subprocess

from harness.loading.random_start import RandomStart
from harness.running.environment import reference_env, trusted_folder
from harness.starts.reading import UNUSABLE, StartProblem, find_start, judged, start_file, too_long

PLAN_SECONDS = 30
# A reference's exit for a `--plan` it cannot read (reference/options.py): the case's strategy is
# wrong, which no program's output can cause now that the start travels in a file.
BAD_PLAN = 2


def plan(reference: list[str], settings: RandomStart, start: str, strategy: dict) -> list[str] | StartProblem:
    """The lines the strategy types from this start, as the reference plans them."""
    problem = too_long(settings, start)
    if problem is not None:
        return problem
    options = {k: v for k, v in strategy.items() if k != "prefix"}
    with trusted_folder() as home, start_file(start) as path:
        done = subprocess.run([*reference, settings.option, path, settings.plan_option, json.dumps(options)],
                              env=reference_env(home), cwd=home, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace", timeout=PLAN_SECONDS)
    if done.returncode != 0:
        last = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["no reason given"])[-1]
        if done.returncode == BAD_PLAN:  # the case's strategy, not the start: the harness's (or the case's) fault
            raise RuntimeError(f"the reference could not plan from {start[:200]!r} (exit {done.returncode}): {last}")
        return judged(settings, done.returncode, last, start) or StartProblem(
            UNUSABLE, f"the reference could not plan a game from the program's start {start[:200]!r} "
                      f"(exit {done.returncode}: {last[:200]}); the case cannot be graded and fails")
    return done.stdout.splitlines()


class StrategyInputs:
    """A fixed prefix, then the lines a strategy plays from the start the program printed."""
    plans_from_start = True  # the expected transcript is always the reference's from the program's start

    def __init__(self, prefix, strategy: dict, reference: list[str], settings: RandomStart, rewrite=None,
                 reader=None):
        self.lines = [str(x) for x in prefix]
        self.strategy, self.reference, self.settings = strategy, reference, settings
        self.rewrite = rewrite or (lambda text: text)
        self.reader = reader
        self.problem: StartProblem | None = None
        self._planned = False
        self._next = 0

    def next_line(self, output_so_far: str) -> str | None:
        if self._next >= len(self.lines) and not self._planned:
            self._planned = True
            start = find_start(self.settings, self.rewrite(output_so_far), self.reader)
            if start is None:
                return None  # judged after the run: no start in the output
            planned = plan(self.reference, self.settings, start, self.strategy)
            if isinstance(planned, StartProblem):
                self.problem = planned
                return None
            self.lines += planned
        if self._next >= len(self.lines):
            return None
        self._next += 1
        return self.lines[self._next - 1]
