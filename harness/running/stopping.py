"""Ending everything a grading started when it is interrupted: compilers, the programs under
test and whatever they forked, then the case workers.

The grading process adopts orphans (child subreaper), so every process it started, however it
forked, stays among its descendants. The helpers (the workers' fork server and resource
tracker, started before anything else) and the workers (their children) are left to end by
themselves while every other descendant, which is a run or a build, is killed: a worker whose
program dies finishes that case at once, kills the program's whole tree and control group and
removes its working folder, as after any run. Ended processes are not reaped here (their
owners wait for them; what is left is collected when the grading process exits).
"""
import os
import signal
import time

from harness.running import cgroups, proctree

_POLL_SECONDS = 0.05


class Runs:
    """Tells the runs and builds below this process from the machinery that runs them."""

    def __init__(self):
        self.helpers = frozenset(proctree.descendants())  # taken once the fork server is up, before any run

    def machinery(self) -> set[int]:
        return set(self.helpers).union(*(proctree.children(pid) for pid in self.helpers))

    def end(self) -> None:
        """SIGKILL every run and build now below this process."""
        keep = self.machinery()
        _signal([pid for pid in proctree.alive(proctree.descendants()) if pid not in keep], signal.SIGKILL)

    def end_until(self, done) -> None:
        """Keep ending runs (a worker may start one more) until `done()` says the pool has stopped."""
        while not done():
            self.end()
            time.sleep(_POLL_SECONDS)


def _signal(pids: list[int], number: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, number)
        except OSError:
            pass


def kill_all(rounds: int = 50) -> None:
    """SIGKILL whatever is still below this process, until nothing is (a fork in flight is
    caught by the next round), then remove the control groups of those killed: a worker killed
    here cannot remove the groups of its run or of the process it had made for the next one."""
    killed: set[int] = set()
    for _ in range(rounds):
        left = proctree.alive(proctree.descendants())
        if not left:
            break
        _signal(left, signal.SIGKILL)
        killed.update(left)
        time.sleep(_POLL_SECONDS)
    for pid in killed:
        cgroups.finish(cgroups.name_for(pid))


def reap() -> None:
    """Collect this process's ended children (for the end of an interrupted grading, when no
    one else will wait for them)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
