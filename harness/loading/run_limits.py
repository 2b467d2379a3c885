"""The limits of one run, as the spec's `defaults.limits` declares them (each case may set
its own on top): read once at load, applied by `harness.running.runner`."""
import dataclasses
from dataclasses import dataclass


@dataclass
class Limits:
    """What one run of a program may take: time per turn and in all, output, memory, tasks."""
    turn_seconds: float = 5.0  # from a typed line (or the start) to the next wait or the exit
    run_seconds: float = 30.0
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
