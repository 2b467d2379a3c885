"""The limits of one run, as the spec's `defaults.limits` declares them (each case may set
its own on top): read once at load, applied by `harness.running.runner`."""
import dataclasses
import math
from dataclasses import dataclass


@dataclass
class Limits:
    """What one run of a program may take: time per turn and in all, output, memory, tasks."""
    turn_seconds: float = 5.0  # from a typed line (or the start) to the next wait or the exit
    run_seconds: float = 30.0  # the whole run before any line is typed (see whole_run), and each process's CPU
    output_bytes: int = 1_000_000
    quiet_seconds: float = 1.0  # at the turn limit, silence and no CPU use this long before a wait the probe cannot read is typed to
    memory_bytes: int = 1 << 30  # all the program's processes together (per process where no cgroup can be made)
    tasks: int = 256  # processes and threads at once (a JVM alone starts a few dozen threads)
    # the submission's time budget this run counts against (budget.Meter), or None: the run
    # reports its time as it goes, is stopped when the budget is spent, and never runs longer
    # than what was left of it when it started
    budget: object = None  # harness.running.runner.Meter

    def merged(self, override: dict | None) -> "Limits":
        """These limits with a case's own `limits:` on top."""
        return dataclasses.replace(self, **(override or {}))

    @property
    def longest_turn(self) -> float:
        """The most one turn may take: its limit, and the quiet time an unseen wait is given past it."""
        return self.turn_seconds + self.quiet_seconds

    def whole_run(self, typed: int) -> float:
        """The whole run's limit once `typed` lines have been typed: run_seconds for the start
        and its first turn, and each line typed adds one turn at its longest. It grows with the
        turns, so a correct program that uses each turn's time is never cut short in a long game,
        while a run still ends in bounded time: a case types finitely many lines."""
        return self.run_seconds + self.longest_turn * typed

    def turns_seconds(self, lines: int) -> float:
        """What the turns of a run that types `lines` lines may take at their limit (the
        submission's budget gives each case that much on top of its own)."""
        return self.turn_seconds * (lines + 1)

    @property
    def cpu_seconds(self) -> int:
        """The CPU time each of the program's processes may use in one run (RLIMIT_CPU): the
        spec's run_seconds, not scaled with the turns, since a program waiting for its input
        uses none, and a task that spins beside a waiting one is stopped by it."""
        return math.ceil(self.run_seconds) + 1
