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
"""
import contextlib
import threading
from enum import Enum
from typing import Iterator


class Kind(Enum):
    PUBLIC = "public"  # runs whose output an untrusted person will see
    HIDDEN = "hidden"  # runs whose output only the instructor sees


def _other(kind: Kind) -> Kind:
    return Kind.HIDDEN if kind is Kind.PUBLIC else Kind.PUBLIC


class Closed(Exception):
    """The gate was closed (the grading stopped) while this phase waited for it."""


class Gate:
    """Shared by every grading on one machine's pool (`executor.Local`)."""

    def __init__(self):
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
            self._changed.notify_all()
