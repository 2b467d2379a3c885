"""A CPU budget for pure computation on a program's output (the comparison, the spec's readers).

A program's output is hostile data: what reads it runs in time linear in it, and this budget is
the backstop: a block that still overruns it raises OverBudget, and its case fails.
"""
import signal
import threading
import time
from contextlib import contextmanager

COMPARE_SECONDS = 10.0  # CPU for comparing one case; a correct program's output takes well under a second


class OverBudget(Exception):
    """Comparing one case used more CPU than its budget."""
    def __init__(self, seconds: float):
        super().__init__(f"comparing this case took more than {seconds:g} s of CPU")
        self.seconds = seconds


_budget = threading.local()  # .deadline (thread CPU seconds) and .seconds of the innermost budget


def spend() -> None:
    """Between steps: raise OverBudget once this thread's budget is used up (the fallback where
    no timer signal can be had, e.g. outside the main thread)."""
    deadline = getattr(_budget, "deadline", None)
    if deadline is not None and time.thread_time() > deadline:
        raise OverBudget(_budget.seconds)


def _on_timer(signum, frame):
    raise OverBudget(getattr(_budget, "seconds", 0.0))


def _timer_free() -> bool:
    """A SIGPROF timer can be used: main thread, and no one else's handler or timer (a profiler)."""
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None)
            and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0))


@contextmanager
def cpu_budget(seconds: float):
    """Raise OverBudget inside the block once it has used `seconds` of CPU. In the main thread a
    SIGPROF timer interrupts even one long Python loop; elsewhere the comparison's steps check.
    Only for pure computation: never around a run (the signal would cut its waits short)."""
    outer = getattr(_budget, "deadline", None), getattr(_budget, "seconds", None)
    _budget.deadline, _budget.seconds = time.thread_time() + seconds, seconds
    timer = _timer_free()
    if timer:
        signal.signal(signal.SIGPROF, _on_timer)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, signal.SIG_DFL)
        _budget.deadline, _budget.seconds = outer
