"""Each run's process is made before it is needed, already in its own control group.

Moving a process into a control group makes the kernel wait for an RCU grace period unless
another move happened in the last few milliseconds: 5–25 ms of sleep, measured on the path of
every run, more than the harness spends on a whole turn loop of a short game. So the process
of the next run is forked ahead (when a run starts, for the one after it; when a command or a
case worker starts, for its first): on a terminal of its own, it joins its group and sleeps on
a pipe. `start` gives it the command; it then sets the run's limits on its group and on itself
and executes the command, and the next one is forked. Until that moment it runs nothing but
the harness's own code, with every file descriptor but its terminal and its two pipes closed.
Just before it executes the command it loads the seccomp filter of `harness.running.seccomp`
(with no_new_privs): no run can lock, watch or key anything another run could see.

A spare never used is killed and its group removed when its owner closes the launcher (at
exit); if the owner dies first, the spare sees its pipe close, leaves its group, removes it and
exits. Each process has one launcher (`for_this_process`): a forked child never uses its
parent's spare.
"""
import atexit
import ctypes
import fcntl
import functools
import gc
import marshal
import os
import pty
import resource
import shutil
import signal
import struct
import sys
import termios
import threading
from dataclasses import dataclass

from harness.running import cgroups, seccomp
from harness.running.cgroups import TreeLimits
from harness.running.limits import limit_process

ROWS, COLUMNS = 500, 1000  # a terminal wide enough that no program's line is wrapped by it
_PR_SET_TIMERSLACK, _PR_GET_TIMERSLACK = 29, 30
_FILTER = seccomp.program()  # made once, before any spare is forked
_TAKEN = b"\0"  # the first byte on the report pipe: the spare read its command (what follows is why exec failed)


@dataclass(frozen=True)
class Confinement:
    """What the process of one run may use: its whole tree, and its own CPU seconds."""
    tree: TreeLimits
    cpu_seconds: int
    timer_slack_ns: int  # the timer slack the program gets (the harness's own is cut while it drives)


@dataclass(frozen=True)
class Started:
    """A run's process, executing its command: its pid and the pty's side the harness keeps."""
    pid: int
    fd: int


@dataclass
class _Spare:
    pid: int
    fd: int  # the pty's master side
    go: int  # write end of the pipe its command comes through
    failed: int  # read end of the pipe that reports a failure to execute (closed by a good exec)


class Launcher:
    """Starts commands on a terminal of their own, each in its control group, using a process
    made ahead of time. Thread-safe; `close` kills the spare."""

    def __init__(self):
        self._spare: _Spare | None = None
        self._lock = threading.Lock()

    def prepare(self) -> None:
        """Make the spare now (if there is none), so its group is joined by the time it is used."""
        with self._lock:
            if self._spare is None:
                self._spare = _fork()

    def spare_pids(self) -> set[int]:
        """The process waiting for the next run (not a descendant of any run)."""
        spare = self._spare
        return {spare.pid} if spare is not None else set()

    def start(self, command: list[str], env: dict, cwd: str, confinement: Confinement) -> Started:
        """Execute `command` on the spare (or a new process if the spare is gone), then make the
        next spare. Raises OSError if the command cannot be executed."""
        path = _resolve(command[0], env)
        tree = confinement.tree
        message = marshal.dumps((path, command, env, cwd, tree.memory_bytes, tree.tasks, confinement.cpu_seconds,
                                 confinement.timer_slack_ns))
        for _ in range(2):  # the spare, or a new process if the spare died before it took the command
            with self._lock:
                spare, self._spare = self._spare, None
            if spare is None:
                spare = _fork()
            report = _read_all(spare.failed) if _send(spare, message) else b""
            if report.startswith(_TAKEN):
                break
            _discard(spare)
            if report:  # it failed before it could take the command
                raise OSError(report.decode("utf-8", "replace"))
        else:
            raise OSError(f"the process made to run {command[0]} ended before it could")
        os.close(spare.failed)
        if len(report) > len(_TAKEN):  # it took the command, then could not execute it
            os.close(spare.fd)
            os.waitpid(spare.pid, 0)
            cgroups.finish(cgroups.name_for(spare.pid))
            raise OSError(report[len(_TAKEN):].decode("utf-8", "replace"))
        self.prepare()
        return Started(spare.pid, spare.fd)

    def close(self) -> None:
        with self._lock:
            spare, self._spare = self._spare, None
        if spare is not None:
            _discard(spare)


_LAUNCHERS: dict[int, Launcher] = {}  # by process id: a fork's child makes its own


def for_this_process() -> Launcher:
    """This process's launcher, closed when the process exits."""
    me = os.getpid()
    found = _LAUNCHERS.get(me)
    if found is None:
        found = _LAUNCHERS[me] = Launcher()
        atexit.register(found.close)
        pool = sys.modules.get("multiprocessing.util")
        if pool is not None:  # a pool's worker runs its finalizers, not atexit, when it ends
            pool.Finalize(found, found.close, exitpriority=0)
    return found


def _resolve(name: str, env: dict) -> str:
    """The executable `name` stands for, found on the run's PATH as exec would find it."""
    found = shutil.which(name, path=env.get("PATH", os.defpath)) if os.sep not in name else (
        name if os.access(name, os.X_OK) and not os.path.isdir(name) else None)
    if found is None:
        raise OSError(f"the command was not found or is not executable: {name}")
    return found


def _send(spare: _Spare, message: bytes) -> bool:
    """Give the spare its command; False if it is gone."""
    try:
        view = memoryview(message)
        while view:
            view = view[os.write(spare.go, view):]
        return True
    except OSError:
        return False
    finally:
        os.close(spare.go)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _discard(spare: _Spare) -> None:
    """Kill a spare that will not be used and remove its group."""
    for fd in (spare.go, spare.failed, spare.fd):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        os.kill(spare.pid, signal.SIGKILL)
        os.waitpid(spare.pid, 0)
    except OSError:
        pass
    cgroups.finish(cgroups.name_for(spare.pid))


def _fork() -> _Spare:
    cgroups.places()  # found once in this process, not in every spare
    command_read, command_write = os.pipe()
    failed_read, failed_write = os.pipe()
    pid, fd = pty.fork()
    if pid == 0:  # the spare: nothing here may return into the harness's own code
        gc.disable()  # no finalizer of the parent's objects runs here
        code = 0
        try:
            keep = sorted({command_read, failed_write})
            for low, high in zip([2] + keep, keep + [_fd_ceiling()]):
                os.closerange(low + 1, high)
            _wait_and_execute(command_read, failed_write)
        except BaseException as problem:  # noqa: B902 - reported to the parent, never raised there
            try:
                os.write(failed_write, f"{problem}".encode("utf-8", "replace") or type(problem).__name__.encode())
            except OSError:
                pass
            code = 127
        os._exit(code)
    os.close(command_read)
    os.close(failed_write)
    return _Spare(pid, fd, command_write, failed_read)


def _fd_ceiling() -> int:
    return min(1 << 20, resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def _wait_and_execute(command_read: int, failed_write: int) -> None:
    """In the spare: set up its terminal, join its group, wait for the command, limit, execute."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # its owner's end closing must not kill it before it cleans up
    attrs = termios.tcgetattr(0)
    attrs[1] &= ~termios.ONLCR  # keep the program's own bytes: no \n -> \r\n
    attrs[3] &= ~termios.ECHO  # typed lines are recorded by the harness, not echoed by the terminal
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    group = cgroups.name_for(os.getpid())
    try:
        grouped = cgroups.join(group)
    except OSError:
        grouped = False
    message = _read_all(command_read)
    if not message:  # the owner is gone without a run for this process
        if grouped:
            cgroups.leave(group)
        os._exit(0)
    os.write(failed_write, _TAKEN)  # alive with its command: from here on its end is the run's
    path, command, env, cwd, memory_bytes, tasks, cpu_seconds, timer_slack_ns = marshal.loads(message)
    tree = TreeLimits(memory_bytes, tasks)
    if grouped:
        try:
            cgroups.limit(group, tree)
        except OSError:
            grouped = False
    limit_process(grouped, tree, cpu_seconds)
    for number in (signal.SIGPIPE, signal.SIGHUP):  # as a program started from a shell has them
        signal.signal(number, signal.SIG_DFL)
    timer_slack(timer_slack_ns)
    if _FILTER is not None:  # nothing the run does can reach another run (harness.running.seccomp)
        seccomp.install(_FILTER, _libc())
    os.chdir(cwd)
    os.execve(path, command, env)


def timer_slack(nanoseconds: int) -> int | None:
    """Set the calling thread's timer slack; returns the one it had (None where prctl is missing)."""
    try:
        libc = _libc()
        before = libc.prctl(_PR_GET_TIMERSLACK, 0, 0, 0, 0)
        libc.prctl(_PR_SET_TIMERSLACK, ctypes.c_ulong(nanoseconds), 0, 0, 0)
        return before
    except (OSError, AttributeError):
        return None


@functools.cache
def _libc() -> ctypes.CDLL:
    """The C library, loaded once a process (timer_slack is called twice a run)."""
    return ctypes.CDLL(None, use_errno=True)
