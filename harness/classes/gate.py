"""The gate between the runs a person sees and the hidden ones, on one machine.

A run can read what the whole machine shares (memory taken, processes, CPU time, the page
cache, the kernel's counts) and a hidden run can move it in proportion to its inputs. So on a
machine no hidden run goes on while a run whose output someone untrusted will see does (a
public case of this student or of any other: students can work together). Runs of one kind
go on together; the two kinds never mix: like readers and writers, with two kinds of reader.

Neither kind waits forever: when both wait, they take turns. The kind that gets the gate lets
in every one of its own that waited for it; a newcomer of that kind joins them only while no
one of the other kind waits. When its last run ends, the gate passes to the other kind if it
waits. So a phase waits at most for the phases of the other kind under way when it came, and
one turn of them.

A machine runs more than one harness process (a self-check service and an instructor's
`harness grade`, two services, a service and a Gradescope run), so the gate is the machine's,
not the process's: beside the turns of the threads of one process (`Gate`), each phase holds
the machine's lock of its kind (`MachineLock`), three files in a folder only the harness's user
may write (`HARNESS_GATE_DIR`, by default the harness's folder in the user's cache, which no
sandboxed run sees). The lock is `flock`'s, which the kernel drops when the process holding it
dies, however it dies: a dead holder never blocks the machine.
"""
import contextlib
import errno
import fcntl
import os
import stat
import threading
from enum import Enum
from pathlib import Path
from typing import Iterator

from harness.errors import InputError
from harness.loading import config, paths


class Kind(Enum):
    PUBLIC = "public"  # runs whose output an untrusted person will see
    HIDDEN = "hidden"  # runs whose output only the instructor sees


def _other(kind: Kind) -> Kind:
    return Kind.HIDDEN if kind is Kind.PUBLIC else Kind.PUBLIC


class Closed(Exception):
    """The gate was closed (the grading stopped) while this phase waited for it."""


class Gate:
    """Shared by every grading on one machine's pool (`executor.Local`)."""

    def __init__(self, machine: "MachineLock | None" = None):
        self._machine = machine  # None: this process's threads only (a cluster's gate, held by the service)
        self._stopped = threading.Event()
        self._changed = threading.Condition()
        self._holder: Kind | None = None  # the kind whose runs go on (or may go on) now
        self._running = 0  # phases of the holder's kind under way
        self._passes = 0  # of the holder's kind that waited for this turn, those not in yet
        self._waiting = {Kind.PUBLIC: 0, Kind.HIDDEN: 0}
        self._closed = False

    @contextlib.contextmanager
    def held(self, kind: Kind) -> Iterator[None]:
        """For the length of the block, runs of `kind` only on this machine (waits its turn)."""
        with self._changed:
            self._waiting[kind] += 1
            try:
                while not self._may_enter(kind):
                    if self._closed:
                        raise Closed("the grading stopped")
                    self._changed.wait()
            except BaseException:
                self._waiting[kind] -= 1
                if self._holder is kind:
                    self._passes = min(self._passes, self._waiting[kind])
                self._settle()
                self._changed.notify_all()
                raise
            self._waiting[kind] -= 1
            if self._holder is kind and self._passes:
                self._passes -= 1
            self._holder = kind
            self._running += 1
        try:
            if self._machine is None:
                yield
            else:
                with self._machine.held(kind, self._stopped):
                    yield
        finally:
            with self._changed:
                self._running -= 1
                self._settle()
                self._changed.notify_all()

    def _may_enter(self, kind: Kind) -> bool:
        if self._holder is None:
            return True
        return self._holder is kind and (self._passes > 0 or not self._waiting[_other(kind)])

    def _settle(self) -> None:
        """With nothing under way, the gate goes to whoever waits, the other kind first, and
        all its waiters are let in together (those let in already and not yet in keep their turn)."""
        if self._running or self._passes:
            return
        order = [_other(self._holder), self._holder] if self._holder else [Kind.PUBLIC, Kind.HIDDEN]
        for kind in order:
            if self._waiting[kind]:
                self._holder, self._passes = kind, self._waiting[kind]
                return
        self._holder, self._passes = None, 0

    def close(self) -> None:
        """Every phase still waiting gives up (`Closed`); those under way finish."""
        with self._changed:
            self._closed = True
            self._stopped.set()
            self._changed.notify_all()


# --- the machine's side ----------------------------------------------------------------------

POLL_SECONDS = 0.05  # how often a phase waiting for the machine's lock tries again
_ENTRY = "entry.lock"  # held by the one phase deciding whether its kind may go on
_FILES = {Kind.PUBLIC: "public.lock", Kind.HIDDEN: "hidden.lock"}  # shared by the phases of a kind under way


def folder_of(settings: config.Settings) -> Path:
    """Where the machine's lock lives: HARNESS_GATE_DIR as the front door read it, else the
    harness's folder in the user's cache (every harness process of the user shares it)."""
    return settings.gate_dir if settings.gate_dir is not None else paths.cache_root() / "gate"


class MachineLock:
    """Readers and writers across processes, with two kinds of reader: a phase of a kind holds
    a shared `flock` on its kind's file while it runs. To come in, a phase takes the entry file
    alone, waits until it can take the other kind's file alone (no phase of the other kind is
    under way on the machine), lets it go, takes its own kind's file shared and lets the entry
    go. Whoever waits at the entry waits behind the one phase there, so a kind that waits gets
    its turn once the phases of the other kind under way end, whatever keeps coming.

    `flock` locks belong to an open file, not a process: each phase opens the files itself, so
    the threads of one process are as separate as two processes; the files are opened
    close-on-exec, so no program the harness starts holds them."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._mode = _prepared(self.folder)

    @contextlib.contextmanager
    def held(self, kind: Kind, stopped: threading.Event) -> Iterator[None]:
        """For the length of the block, no phase of the other kind under way on this machine;
        `Closed` when `stopped` is set while this phase waits."""
        own = self._open(_FILES[kind])
        try:
            entry = self._open(_ENTRY)
            try:
                _take(entry, fcntl.LOCK_EX, stopped)
                other = self._open(_FILES[_other(kind)])
                try:
                    _take(other, fcntl.LOCK_EX, stopped)  # the other kind's phases have ended
                finally:
                    os.close(other)  # and its lock with it
                _take(own, fcntl.LOCK_SH, stopped)  # at once: only the entry's holder takes a kind alone
            finally:
                os.close(entry)
            yield
        finally:
            os.close(own)

    def _open(self, name: str) -> int:
        return os.open(self.folder / name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, self._mode)


def _take(descriptor: int, how: int, stopped: threading.Event) -> None:
    """`flock(how)`, tried again every POLL_SECONDS until it is had; `Closed` once `stopped` is set."""
    while True:
        try:
            fcntl.flock(descriptor, how | fcntl.LOCK_NB)
            return
        except OSError as problem:
            if problem.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EINTR):
                raise
        if stopped.wait(POLL_SECONDS):
            raise Closed("the grading stopped")


def _prepared(folder: Path) -> int:
    """Make `folder` (0700) when it is missing and check that no one else may write it: a lock
    file someone else could replace or hold is a gate anyone could open or close. Returns the
    mode of the lock files: 0600, or 0660 in a folder its group may write (a gate several users
    of one group share)."""
    setting = f"the gate's folder {folder} (HARNESS_GATE_DIR)"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError as problem:
        raise InputError(f"{setting} cannot be made ({problem.strerror or problem}); set HARNESS_GATE_DIR to a "
                         "folder the harness's user may write") from None
    if not stat.S_ISDIR(info.st_mode):
        raise InputError(f"{setting} is not a folder (a link or a file); set HARNESS_GATE_DIR to a folder of "
                         "the harness's user")
    if info.st_uid not in (os.geteuid(), 0) or info.st_mode & stat.S_IWOTH:
        raise InputError(f"{setting} may be written by {'anyone' if info.st_mode & stat.S_IWOTH else 'another user'}; "
                         "set HARNESS_GATE_DIR to a folder only the harness's user (or its group) may write, "
                         "such as a fresh one it makes itself")
    return 0o660 if info.st_mode & stat.S_IWGRP else 0o600


def machine_lock(settings: config.Settings) -> MachineLock:
    """The machine's lock in the settings' folder (see `folder_of`)."""
    return MachineLock(folder_of(settings))
