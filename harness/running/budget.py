"""A submission's time budget: the wall time its own runs may take, all its cases together.

Without one, a program can make its grading as long as it likes within the per-run limits: a
random-start case is drawn again while it shows no usable start, a setup case is settled with
more runs, the law of the start is topped up with more runs, and each of those runs may take
its whole turn and run limits.

How large: the spec's budget (`submission_seconds`) comes on top of every case's turns at
their limit (`for_cases`), since a correct program may take its whole turn limit on every turn
and must not lose cases to the budget for it; what the budget stops is the extra runs adding up.
A budget given as a whole (`--budget`, a platform's timeout) is a hard total instead.

What counts is only the time the submission's own attempts take in a case worker: the
program's run (reported by the runner while it runs, at least every METER_SECONDS, and stopped
as soon as the budget is spent), then the rest of the attempt (the reference re-run from its
start, the comparison), added when the attempt ends. Time a case waits in the pool's queue
behind other submissions' cases is never counted: nothing is added while no attempt of this
submission runs. An attempt starts only while some of the budget is left, and its program's run
limit is capped by what is left, so the runs of one submission, however many run side by side,
take at most the budget plus, for each worker, one METER_SECONDS tick and one attempt's
reference run and comparison. A class of N submissions therefore keeps its W case workers busy
for at most about N x budget / W of wall time on top of its builds, whatever the programs do.

The counter is a small file (seconds spent, as text) that every worker process of the grading
updates under an exclusive lock (fcntl), so the pool's separate processes share it; a
submission is graded on one machine (a cluster sends a whole submission to one worker), so the
file is always local. The program never sees it (the sandbox hides the grader's /tmp).
"""
import contextlib
import fcntl
import os
import tempfile
from dataclasses import dataclass

from harness.loading import paths
from harness.loading.run_limits import Limits

# How often a running program's time is added to the counter (the most a run of it can
# overshoot the budget by).
METER_SECONDS = 0.2
SPENT = "the submission's time budget is spent"


@dataclass(frozen=True)
class Budget:
    """The shared counter of one submission's grading (it travels to the workers with each job)."""
    path: str
    seconds: float

    def _update(self, add: float) -> float:
        """Add `add` seconds under the lock; the total spent so far."""
        descriptor = os.open(self.path, os.O_RDWR)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            try:
                spent = float(os.pread(descriptor, 64, 0) or b"0") + max(add, 0.0)
            except ValueError:  # never written by anything else; a damaged counter counts as spent
                spent = self.seconds
            if add > 0:
                os.pwrite(descriptor, f"{spent!r:<32}".encode(), 0)
            return spent
        finally:
            os.close(descriptor)  # closing releases the lock

    def spent(self) -> float:
        try:
            return self._update(0.0)
        except OSError:  # the grading ended and removed it: nothing more may run
            return self.seconds

    def left(self) -> float:
        return self.seconds - self.spent()

    def spend(self, seconds: float) -> float:
        """Count `seconds` of this submission's work; the seconds left (0 or less: spent)."""
        try:
            return self.seconds - self._update(seconds)
        except OSError:
            return 0.0

    def describe(self) -> str:
        return (f"{SPENT} ({self.seconds:g} s of its runs' time: its cases' turns at their limit and the spec's "
                "limits.submission_seconds or --budget on top)")

    @classmethod
    def create(cls, seconds: float) -> "Budget":
        """A fresh counter, nothing spent; `remove` it when the grading ends."""
        descriptor, path = tempfile.mkstemp(prefix=paths.temporary("budget"))
        os.close(descriptor)
        return cls(path, float(seconds))

    def remove(self) -> None:
        """The grading is over: a run still going finds nothing left."""
        with contextlib.suppress(OSError):
            os.unlink(self.path)


def for_cases(seconds: float, limits: Limits, cases) -> float:
    """A grading's budget: every case's turns at their limit, each repeat counted, and `seconds`
    (the spec's submission_seconds, or --budget) on top for the rest (a start drawn again,
    settling, the law's extra runs, comparing). A correct program may take its whole turn limit
    on every turn and the budget must not cut it short: it stops the extra runs a program can
    cause from adding up without end."""
    return seconds + sum(max(case.repeat, 1) * limits.merged(case.limits).turns_seconds(typed_lines(case))
                         for case in cases)


def typed_lines(case) -> int:
    """The lines a case types: its list, or for a strategy its prefix and the moves the
    reference played in the case's own game (a program's own start may make the game longer
    or shorter; the budget's seconds on top absorb the difference)."""
    if not isinstance(case.inputs, dict):
        return len(case.inputs)
    played = sum(1 for event in (case.expect or {}).get("transcript", []) if "in" in event)
    return max(played, len(case.prefix))


@contextlib.contextmanager
def counter(seconds: float):
    """A fresh counter for one submission's grading, removed when it ends."""
    budget = Budget.create(seconds)
    try:
        yield budget
    finally:
        budget.remove()


@dataclass
class Meter:
    """One attempt's share of the budget: what its program's run reported while it ran, so the
    rest of the attempt's time is added once, at its end."""
    budget: Budget
    counted: float = 0.0

    def left(self) -> float:
        return self.budget.left()

    def spend(self, seconds: float) -> float:
        self.counted += max(seconds, 0.0)
        return self.budget.spend(seconds)
