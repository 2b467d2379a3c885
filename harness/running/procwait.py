"""Is the program waiting for input? Ask the kernel, not the prompt text or a clock.

A program waits for its user when one of its tasks sleeps (state S) in a read() on fd 0
and has finished at least one more read since the last line we typed (its `syscr` grew),
so a line is never typed ahead of the read that is meant to take it.
"""
import math
import os
import time
from typing import Callable

from harness.running import proctree

_WALK_EVERY = 0.002  # seconds between looks at every task while the last reader computes
_WALK_FIRST_EVERY = 0.00025  # ... and while no task has read yet (a JVM starts a dozen threads)

# read, pread64, readv on each architecture's syscall table
_READ_SYSCALLS = {
    "x86_64": {0, 17, 19},
    "aarch64": {63, 65, 67},
}.get(os.uname().machine, set())

AVAILABLE = bool(_READ_SYSCALLS) and os.path.exists("/proc/self/task")


class TaskFiles:
    """The /proc files of one task, each opened once: a look again is one pread (a turn of a
    game may look at its reader a hundred times)."""

    def __init__(self, tid: int):
        self.tid = tid
        self._base = f"/proc/{tid}/task/{tid}/"
        self._fds: dict[str, int] = {}

    def read(self, name: str) -> str | None:
        """The file's text now, or None once the task is gone."""
        try:
            fd = self._fds.get(name)
            if fd is None:
                fd = self._fds[name] = os.open(self._base + name, os.O_RDONLY | os.O_CLOEXEC)
            data = os.pread(fd, 4096, 0)
        except OSError:
            return None
        return data.decode("ascii", "replace") if data else None

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()


def _reads_done(task: TaskFiles) -> int | None:
    """How many read() calls the task has finished (its syscr)."""
    io = task.read("io")
    if io is None:
        return None
    for line in io.splitlines():
        if line.startswith("syscr:"):
            return int(line.split()[1])
    return None


def _in_read_of_stdin(task: TaskFiles) -> bool | None:
    """The task is inside a read() on fd 0 (running or not); None once it is gone."""
    syscall = task.read("syscall")
    if syscall is None:
        return None
    if syscall.startswith("running"):
        return False
    fields = syscall.split()
    try:
        return int(fields[0]) in _READ_SYSCALLS and int(fields[1], 16) == 0
    except (ValueError, IndexError):
        return False


def _asleep_in_read(task: TaskFiles) -> int | None:
    """For a task just seen in a read on fd 0: its syscr if it sleeps in that read, else None.

    /proc is read one file at a time while the program runs on another core: a task seen
    asleep in the read that the last typed line wakes may finish that read a moment later,
    and a count taken after that moment would pass it off as a new wait. So the count is
    taken before and after the state, and only a state between two equal counts is trusted.
    """
    before = _reads_done(task)
    if before is None or not _in_read_of_stdin(task):
        return None
    stat = task.read("stat")
    if not stat or stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] != "S":
        return None
    return before if _reads_done(task) == before else None


def _reading_stdin(task: TaskFiles) -> int | None:
    """The task's syscr if it sleeps in a read on fd 0, else None. (A first look at the
    system call passes over the tasks that are not reading at all: one pread each.)"""
    return _asleep_in_read(task) if _in_read_of_stdin(task) else None


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
    """Tracks the reader task of one child process tree. Close it when the run ends.

    `threads()` lists the run's tasks at once where a control group holds them all (one file);
    without it (or when it says None) the process tree is walked."""

    def __init__(self, pid: int, threads: Callable[[], list[int] | None] | None = None):
        self.pid = pid
        self._threads = threads
        self._tasks: dict[int, TaskFiles] = {}  # every task looked at, by tid, its files open
        self._reader: TaskFiles | None = None
        self._fed_at: dict[int, int] = {}  # tid -> syscr while it waited for the last line typed
        self._seen: tuple[int, int] | None = None  # (tid, syscr) of the last wait seen
        self._walked_at = -math.inf  # when every task of the tree was last looked at

    def _all_tasks(self) -> list[int]:
        listed = self._threads() if self._threads is not None else None
        return listed if listed else [tid for _, tid in proctree.tasks(self.pid)]

    def _found(self, task: TaskFiles, syscr: int) -> bool:
        self._reader, self._seen = task, (task.tid, syscr)
        return syscr > self._fed_at.get(task.tid, -1)

    def waiting(self) -> bool:
        """Is a task of the tree asleep in a read of fd 0 it began after the last line typed?
        The task that read last is looked at first; every task only when it is gone, or now
        and then while it computes (another thread may take over the reading)."""
        reader = self._reader
        now = time.monotonic()
        if reader is not None:
            reading = _in_read_of_stdin(reader)
            syscr = _asleep_in_read(reader) if reading else None
            if syscr is not None:
                return self._found(reader, syscr)
            if reading is not None and now - self._walked_at < _WALK_EVERY:
                return False
        elif now - self._walked_at < _WALK_FIRST_EVERY:
            return False
        self._walked_at = now
        listed = self._all_tasks()
        for tid in set(self._tasks) - set(listed):  # ended tasks: their files are let go
            self._tasks.pop(tid).close()
            if reader is not None and reader.tid == tid:
                self._reader = reader = None
        for tid in listed:
            task = self._tasks.get(tid)
            if task is None:
                task = self._tasks[tid] = TaskFiles(tid)
            if task is reader:
                continue
            syscr = _reading_stdin(task)
            if syscr is not None:
                return self._found(task, syscr)
        return False

    def fed(self) -> None:
        """Call when typing a line: the reader must consume it before it counts as waiting again."""
        if self._seen is not None:
            tid, syscr = self._seen
            self._fed_at[tid] = syscr

    def close(self) -> None:
        """Let go of every task's /proc files."""
        for task in self._tasks.values():
            task.close()
        self._tasks.clear()
        self._reader = None
