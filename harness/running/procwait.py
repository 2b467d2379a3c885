"""Is the program waiting for input? Ask the kernel, not the prompt text or a clock.

A program waits for its user when one of its tasks sleeps (state S) in a read() on fd 0
and has finished at least one more read since the last line we typed (its `syscr` grew),
so a line is never typed ahead of the read that is meant to take it.
"""
import os

from harness.running import proctree

# read, pread64, readv on each architecture's syscall table
_READ_SYSCALLS = {
    "x86_64": {0, 17, 19},
    "aarch64": {63, 65, 67},
}.get(os.uname().machine, set())

AVAILABLE = bool(_READ_SYSCALLS) and os.path.exists("/proc/self/task")


def _reads_done(base: str) -> int | None:
    """How many read() calls the task has finished (its syscr)."""
    io = proctree.read(base + "/io")
    if io is None:
        return None
    for line in io.splitlines():
        if line.startswith("syscr:"):
            return int(line.split()[1])
    return None


def _in_read_of_stdin(base: str) -> bool:
    """The task is inside a read() on fd 0 (running or not)."""
    syscall = proctree.read(base + "/syscall")
    if not syscall or syscall.startswith("running"):
        return False
    fields = syscall.split()
    try:
        return int(fields[0]) in _READ_SYSCALLS and int(fields[1], 16) == 0
    except (ValueError, IndexError):
        return False


def _reading_stdin(pid: int, tid: int) -> int | None:
    """The task's syscr if it sleeps in a read on fd 0, else None.

    /proc is read one file at a time while the program runs on another core: a task seen
    asleep in the read that the last typed line wakes may finish that read a moment later,
    and a count taken after that moment would pass it off as a new wait. So the count is
    taken before and after the state, and only a state between two equal counts is trusted.
    (A first look at the system call passes over the tasks that are not reading at all.)
    """
    base = f"/proc/{pid}/task/{tid}"
    if not _in_read_of_stdin(base):
        return None
    before = _reads_done(base)
    if before is None or not _in_read_of_stdin(base):
        return None
    stat = proctree.read(base + "/stat")
    if not stat or stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] != "S":
        return None
    return before if _reads_done(base) == before else None


def cpu_ticks(root_pid: int) -> int:
    """User+system clock ticks of the whole tree: flat while the program is idle."""
    total = 0
    for pid in proctree.tree(root_pid):
        stat = proctree.read(f"/proc/{pid}/stat")
        if stat:
            fields = stat[stat.rfind(")") + 2 :].split()
            total += int(fields[11]) + int(fields[12])
    return total


class WaitProbe:
    """Tracks the reader task of one child process tree."""
    def __init__(self, pid: int):
        self.pid = pid
        self._reader: tuple[int, int] | None = None
        self._fed_at: dict[int, int] = {}  # tid -> syscr while it waited for the last line typed
        self._seen: tuple[int, int] | None = None  # (tid, syscr) of the last wait seen
        self._polls = 0

    def _candidates(self):
        if self._reader is not None and self._polls % 32:
            yield self._reader
            if os.path.exists(f"/proc/{self._reader[0]}/task/{self._reader[1]}"):
                return
        yield from proctree.tasks(self.pid)

    def waiting(self) -> bool:
        self._polls += 1
        for pid, tid in self._candidates():
            syscr = _reading_stdin(pid, tid)
            if syscr is not None:
                self._reader, self._seen = (pid, tid), (tid, syscr)
                return syscr > self._fed_at.get(tid, -1)
        return False

    def fed(self) -> None:
        """Call when typing a line: the reader must consume it before it counts as waiting again."""
        if self._seen is not None:
            tid, syscr = self._seen
            self._fed_at[tid] = syscr
