"""Is the program waiting for input? Ask the kernel, not the prompt text or a clock.

A program waits for its user when one of its tasks sleeps (state S) in a system call that
waits for its terminal, and has finished at least one more read since the last line we typed
(its `syscr` grew), so a line is never typed ahead of the read that is meant to take it. The
calls seen as waiting for the terminal: read, readv and pread64 on it (fd 0, or another
descriptor of the same terminal), and select, pselect6, poll, ppoll, epoll_wait, epoll_pwait
and epoll_pwait2 whose set holds it for reading (the set is read from the task's memory, or
the epoll instance's fdinfo). A wait of the second kind whose set cannot be read is only a
*possible* wait for input: the runner types to it at the turn limit at the earliest.
"""
import math
import os
import struct
import time
from typing import Callable

from harness.running import proctree

_WALK_EVERY = 0.002  # seconds between looks at every task while the last reader computes
_WALK_FIRST_EVERY = 0.00025  # ... and while no task has read yet (a JVM starts a dozen threads)

# What a look at a task's system call finds.
NO, YES, MAYBE, GONE = "no", "yes", "maybe", "gone"

_READ, _SELECT, _POLL, _EPOLL = "read", "select", "poll", "epoll"
# each architecture's system call numbers: kind and name
_CALLS = {
    "x86_64": {0: (_READ, "read"), 17: (_READ, "pread64"), 19: (_READ, "readv"),
               23: (_SELECT, "select"), 270: (_SELECT, "pselect6"), 7: (_POLL, "poll"), 271: (_POLL, "ppoll"),
               232: (_EPOLL, "epoll_wait"), 281: (_EPOLL, "epoll_pwait"), 441: (_EPOLL, "epoll_pwait2")},
    "aarch64": {63: (_READ, "read"), 67: (_READ, "pread64"), 65: (_READ, "readv"),
                72: (_SELECT, "pselect6"), 73: (_POLL, "ppoll"),
                22: (_EPOLL, "epoll_pwait"), 441: (_EPOLL, "epoll_pwait2")},
}.get(os.uname().machine, {})
_READ_NUMBERS = frozenset(number for number, (kind, _) in _CALLS.items() if kind == _READ)
_MOST_FDS = 1024  # the fds of a select set, the entries of a poll array, looked at
_POLL_READ = 0x1 | 0x2 | 0x40 | 0x80  # POLLIN, POLLPRI, POLLRDNORM, POLLRDBAND (EPOLL* alike)

AVAILABLE = bool(_CALLS) and os.path.exists("/proc/self/task")


class TaskFiles:
    """The /proc files of one task, each opened once: a look again is one pread (a turn of a
    game may look at its reader a hundred times)."""

    def __init__(self, tid: int):
        self.tid = tid
        self._base = f"/proc/{tid}/task/{tid}/"
        self._fds: dict[str, int] = {}

    def _pread(self, name: str, size: int, offset: int) -> bytes | None:
        fd = self._fds.get(name)
        if fd is None:
            fd = self._fds[name] = os.open(self._base + name, os.O_RDONLY | os.O_CLOEXEC)
        return os.pread(fd, size, offset)

    def read(self, name: str) -> str | None:
        """The file's text now, or None once the task is gone."""
        try:
            data = self._pread(name, 4096, 0)
        except OSError:
            return None
        return data.decode("ascii", "replace") if data else None

    def memory(self, address: int, size: int) -> bytes | None:
        """`size` bytes of the task's memory at `address`, or None where they cannot be read."""
        try:
            data = self._pread("mem", size, address)
        except (OSError, OverflowError):
            return None
        return data if len(data) == size else None

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()


class Terminal:
    """The run's terminal, as the file its fd 0 opened when the probe was made: a task's
    other descriptors are compared with it (a program may read a dup of fd 0, or /dev/tty)."""

    def __init__(self, pid: int):
        try:
            seen = os.stat(f"/proc/{pid}/fd/0")
            self._file = (seen.st_dev, seen.st_ino)
        except OSError:
            self._file = None

    def holds(self, tid: int, fd: int) -> bool:
        """Is the task's descriptor `fd` this terminal? (fd 0 always counts as it.)"""
        if fd == 0:
            return True
        if self._file is None or fd < 0:
            return False
        try:
            seen = os.stat(f"/proc/{tid}/fd/{fd}")
        except OSError:
            return False
        return (seen.st_dev, seen.st_ino) == self._file


def _select_fds(task: TaskFiles, nfds: int, readfds: int) -> list[int] | None:
    """The fds of a select() read set, or None where the set cannot be read."""
    if readfds == 0:
        return []
    size = (min(nfds, _MOST_FDS) + 63) // 64 * 8
    data = task.memory(readfds, size) if size else b""
    if data is None:
        return None
    bits = int.from_bytes(data, "little")
    return [fd for fd in range(min(nfds, _MOST_FDS)) if bits >> fd & 1]


def _poll_fds(task: TaskFiles, array: int, count: int) -> list[int] | None:
    """The fds a poll() array waits to read, or None where it cannot be read."""
    count = min(count, _MOST_FDS)
    data = task.memory(array, 8 * count) if count else b""
    if data is None:
        return None
    return [fd for fd, events, _ in struct.iter_unpack("ihh", data) if fd >= 0 and events & _POLL_READ]


def _epoll_fds(task: TaskFiles, epfd: int) -> list[int] | None:
    """The fds an epoll instance waits to read (its fdinfo's `tfd` lines), or None."""
    text = proctree.read(f"/proc/{task.tid}/fdinfo/{epfd}")
    if text is None:
        return None
    found = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[0] == "tfd:" and fields[2] == "events:":
            try:
                if int(fields[3], 16) & _POLL_READ:
                    found.append(int(fields[1]))
            except ValueError:
                return None
    return found


def input_wait(task: TaskFiles, terminal: Terminal) -> tuple[str, str]:
    """What the task's system call says about input, running or not: (YES, its name) when it
    waits for the terminal, (MAYBE, name) for a wait on a set the probe cannot read, (NO, "")
    otherwise, (GONE, "") once the task is gone."""
    syscall = task.read("syscall")
    if syscall is None:
        return GONE, ""
    if syscall.startswith("running"):
        return NO, ""
    fields = syscall.split()
    try:
        number = int(fields[0])
        found = _CALLS.get(number)
        if found is None:
            return NO, ""
        kind, name = found
        first = int(fields[1], 16)
        if kind == _READ:
            return (YES, name) if first == 0 or terminal.holds(task.tid, first) else (NO, "")
        second = int(fields[2], 16)
    except (ValueError, IndexError):
        return NO, ""
    if kind == _SELECT:
        fds = _select_fds(task, first, second)
    elif kind == _POLL:
        fds = _poll_fds(task, first, second)
    else:
        fds = _epoll_fds(task, first)
    if fds is None:
        return MAYBE, name
    return (YES, name) if any(terminal.holds(task.tid, fd) for fd in fds) else (NO, "")


def _reads_done(task: TaskFiles) -> int | None:
    """How many read() calls the task has finished (its syscr)."""
    io = task.read("io")
    if io is None:
        return None
    for line in io.splitlines():
        if line.startswith("syscr:"):
            return int(line.split()[1])
    return None


def _state(task: TaskFiles) -> str:
    """The task's state letter (R running or runnable, S asleep, D in uninterruptible I/O...); "" once gone."""
    stat = task.read("stat")
    if not stat:
        return ""
    return stat[stat.rfind(")") + 2 : stat.rfind(")") + 3]


def _asleep_waiting(task: TaskFiles, terminal: Terminal, wanted: str) -> int | None:
    """For a task just seen in a wait of kind `wanted` (YES or MAYBE): its syscr if it sleeps in it, else None.

    /proc is read one file at a time while the program runs on another core: a task seen
    asleep in the read that the last typed line wakes may finish that read a moment later,
    and a count taken after that moment would pass it off as a new wait. So the count is
    taken before and after the state, and only a state between two equal counts is trusted.
    """
    before = _reads_done(task)
    if before is None or input_wait(task, terminal)[0] != wanted:
        return None
    if _state(task) != "S":
        return None
    return before if _reads_done(task) == before else None


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
        self._terminal = Terminal(pid)
        self._tasks: dict[int, TaskFiles] = {}  # every task looked at, by tid, its files open
        self._reader: TaskFiles | None = None
        self._fed_at: dict[int, int] = {}  # tid -> syscr while it waited for the last line typed
        self._seen: tuple[int, int] | None = None  # (tid, syscr) of the last wait seen
        self._walked_at = -math.inf  # when every task of the tree was last looked at

    def _all_tasks(self) -> list[TaskFiles]:
        """Every task of the run now, its files kept open (those of ended tasks are let go)."""
        listed = self._threads() if self._threads is not None else None
        listed = listed if listed else [tid for _, tid in proctree.tasks(self.pid)]
        for tid in set(self._tasks) - set(listed):
            self._tasks.pop(tid).close()
            if self._reader is not None and self._reader.tid == tid:
                self._reader = None
        tasks = []
        for tid in listed:
            task = self._tasks.get(tid)
            if task is None:
                task = self._tasks[tid] = TaskFiles(tid)
            tasks.append(task)
        return tasks

    def _found(self, task: TaskFiles, syscr: int) -> bool:
        self._reader, self._seen = task, (task.tid, syscr)
        return syscr > self._fed_at.get(task.tid, -1)

    def waiting(self) -> bool:
        """Is a task of the tree asleep in a wait for the terminal it began after the last line typed?
        The task that read last is looked at first; every task only when it is gone, or now
        and then while it computes (another thread may take over the reading)."""
        reader = self._reader
        now = time.monotonic()
        if reader is not None:
            seen, _ = input_wait(reader, self._terminal)
            syscr = _asleep_waiting(reader, self._terminal, YES) if seen == YES else None
            if syscr is not None:
                return self._found(reader, syscr)
            if seen != GONE and now - self._walked_at < _WALK_EVERY:
                return False
        elif now - self._walked_at < _WALK_FIRST_EVERY:
            return False
        self._walked_at = now
        for task in self._all_tasks():
            if task is self._reader:
                continue
            if input_wait(task, self._terminal)[0] == YES:
                syscr = _asleep_waiting(task, self._terminal, YES)
                if syscr is not None:
                    return self._found(task, syscr)
        return False

    def unseen_wait(self) -> str | None:
        """The name of the system call in which the program may wait for input without the
        probe seeing it (a select, poll or epoll whose set cannot be read), when every task
        of the run is asleep (none runnable, none in uninterruptible I/O) and that task has
        read since the last line typed; else None. For the turn limit, when no wait is seen."""
        found = None
        for task in self._all_tasks():
            if _state(task) in ("R", "D"):
                return None
            if found is None and input_wait(task, self._terminal)[0] == MAYBE:
                syscr = _asleep_waiting(task, self._terminal, MAYBE)
                if syscr is not None and syscr > self._fed_at.get(task.tid, -1):
                    found = (task.tid, syscr, input_wait(task, self._terminal)[1])
        if found is None:
            return None
        tid, syscr, name = found
        self._seen = (tid, syscr)
        return name or "a wait"

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
