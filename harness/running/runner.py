"""Drive one program through a pty with pexpect, typing each input line when it waits for one.

The transcript is a list of events, `{"out": text}` and `{"in": line}`, in the order they
happened. A run ends with an exit status, a signal, `waiting` (inputs ran out while the
program reads), `timeout` (a turn or the whole run over its limit) or `output-limit`.
Whatever happens, everything the run started is killed before `run` returns.

A line is typed only when the kernel shows the program waiting for its terminal (procwait):
never on silence, which a program that pauses or is starved of CPU shows as well. The one
exception is at the turn limit, where the run would otherwise fail: a program idle in a
select/poll/epoll whose set the harness cannot read may be waiting for input, and is typed to.

The program is a `pexpect.spawn` (`Program`) over the process the launcher made ahead: its
output is read with pexpect's read (`Program.read_ready`), its lines typed with `send`, its end
and exit status seen with `isalive`, and it is closed with `close`. The wait between looks is
a select() of the spawn's `child_fd`: pexpect's timed read would check the program's status
twice a look.
"""
import math
import os
import select
import signal
import time
from dataclasses import dataclass, field
from typing import Protocol

import pexpect
import ptyprocess
from pexpect.spawnbase import SpawnBase

from harness.running import cgroups
from harness.loading.run_limits import Limits
from harness.running import launcher as launch
from harness.running import proctree, procwait, screen
from harness.running.budget import METER_SECONDS, SPENT as BUDGET_SPENT
from harness.outcome import End
from harness import transcript
from harness.transcript import Transcript

# A program answers a typed line within a fraction of a millisecond, in several writes, and
# the harness cannot be told when it starts to wait: it looks. Each sleep between looks costs
# the harness about 25 us of CPU on a virtual machine (a timer and a wake-up), more than the
# look itself. So after a look it sleeps 0.1 ms, doubling to 8 ms while the program computes;
# output wakes it at once. A run that has a core of its own (`spin`: `harness run` of one case)
# also looks without sleeping for 0.5 ms after output or a typed line, every 20 us: a 64-turn
# Java game's run about 10 ms shorter. Where every core is busy with other runs (a class), the
# CPU that spinning and short sleeps take is the other runs' time (240 runs of a Java game on
# 2 cores: 13.1 s with a spin and a backoff of 1.25, 12.2 s without a spin and doubling).
# A wait seen is confirmed by one poll of the pty without a timeout: the kernel's tty poll
# pushes what the program wrote before its read() through to us first (n_tty_poll flushes the
# pty's buffer work), so output still in flight is read before the next line is typed. Turns
# are a fraction of a millisecond apart, so the timer slack of the harness (50 us by default)
# is cut to 1 us while it drives a run.
_SPIN = 0.0005
_SPIN_LOOK = 0.00002
_FIRST_SLEEP = 0.0001
_LONGEST_LOOK = 0.008
_BACKOFF = 2.0
_TIMER_SLACK_NS = 1
# Late in a turn (its last quiet_seconds), a program silent this long has its CPU time looked
# at: the turn limit may type to a program idle in a wait the probe cannot read, never to a busy one.
_IDLE_AFTER = 0.1
_DEFAULT_TIMER_SLACK_NS = 50_000  # what a program gets, as it would outside the harness
_READ_SIZE = 65536  # the most one read takes: the output cap is checked after each


class Meter(Protocol):
    """What a run reports its time to when its submission has a time budget (budget.Meter)."""
    def left(self) -> float: ...

    def spend(self, seconds: float) -> float: ...  # the seconds left after these


@dataclass
class RunResult:
    """One run: the transcript of what was printed and typed, and how and why it ended."""
    events: Transcript
    end: End
    detail: str = ""  # why the run ended, for a person
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    budget_spent: bool = False  # stopped because the submission's time budget ran out
    raw: Transcript | None = None  # the bytes as printed, where the terminal's reading (events) differs


    def output(self) -> str:
        return transcript.output(self.events)


class Program(pexpect.spawn):
    """pexpect's spawn of a process the launcher already started: `_spawn` adopts its pty (a
    `ptyprocess.PtyProcess` over its pid and the pty's side the harness keeps) instead of
    forking one, so the process keeps its control group, limits and seccomp filter, made ahead.
    No delay anywhere: pexpect's 50 ms before each send and 0.1 s after a close or a signal
    are for programs that race their own terminal settings, which the launcher set before."""

    def __init__(self, command: list[str], started: launch.Started):
        self._started = started
        super().__init__(command[0], list(command[1:]), timeout=None, maxread=_READ_SIZE, echo=False)
        self.delaybeforesend = None
        self.delayafterclose = self.delayafterterminate = 0
        self.delayafterread = None
        self.ptyproc.delayafterclose = self.ptyproc.delayafterterminate = 0

    def _spawn(self, command, args=[], preexec_fn=None, dimensions=None):  # noqa: B006 - pexpect's signature
        self.command, self.args = command, [command, *args]
        self.name = "<" + " ".join(self.args) + ">"
        self.ptyproc = ptyprocess.PtyProcess(self._started.pid, self._started.fd)
        self.pid, self.child_fd = self._started.pid, self._started.fd
        self.terminated = self.closed = False

    def isalive(self) -> bool:
        """spawn.isalive, its status kept when the program has ended, without the context
        manager it wraps ptyprocess's errors in (0.4 us a call: a spinning turn looks 25 times)."""
        try:
            alive = self.ptyproc.isalive()
        except ptyprocess.PtyProcessError as problem:
            raise pexpect.ExceptionPexpect(*problem.args) from None
        if not alive:
            self.status, self.exitstatus, self.signalstatus = (self.ptyproc.status, self.ptyproc.exitstatus,
                                                               self.ptyproc.signalstatus)
            self.terminated = True
        return alive

    def read_ready(self, size: int) -> bytes:
        """Output a poll of `child_fd` has just seen waiting: pexpect's read of it (EOF raised at
        the pty's end), without the two polls `spawn.read_nonblocking` makes first, which would
        cost 4-6 us a read, a fifth of the harness's own time on a turn of a short game."""
        return SpawnBase.read_nonblocking(self, size)


class FixedInputs:
    """The plain case: a list of lines, typed in order."""
    def __init__(self, lines):
        self.lines = [str(line) for line in lines]
        self._next = 0

    def next_line(self, output_so_far: str) -> str | None:
        if self._next >= len(self.lines):
            return None
        self._next += 1
        return self.lines[self._next - 1]


def _kill_everything(child, before: set[int], spares: set[int]) -> cgroups.Usage | None:
    """Kill all the run started: its control group at once (however its processes forked or
    hid), then whatever a tree walk, the process group and our orphans still show. Returns
    what the group ran into."""
    usage = cgroups.finish(cgroups.name_for(child.pid))
    for pid in procwait.proctree.tree(child.pid) + [child.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    for pid in proctree.children("self") - before - spares - {child.pid}:  # escaped descendants, re-parented to us
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
    return usage


def _decode(data: bytes, notes: list[str], turn: int) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        notes.append(f"turn {turn}: your program's output is not valid UTF-8 (byte {problem.start}); shown as \ufffd")
        return data.decode("utf-8", errors="replace")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def run(command: list[str], *, env: dict, cwd: str, inputs, limits: Limits, echo=None, spin: bool = False) -> RunResult:
    """Run `command` to its end; `inputs.next_line(output_so_far)` supplies each typed line.
    `spin`: the run has a core to itself, so the harness may look without sleeping after each turn."""
    launcher = launch.for_this_process()
    before = proctree.children("self")
    started = time.monotonic()
    confinement = launch.Confinement(cgroups.TreeLimits(limits.memory_bytes, limits.tasks),
                                     limits.cpu_seconds, _DEFAULT_TIMER_SLACK_NS)
    try:
        process = launcher.start(command, env, cwd, confinement)
    except OSError as problem:
        return RunResult([], End.exited(127), f"could not start {command[0]}: {problem}", 0.0)
    child = Program(command, process)
    result = None
    session = _Session(child, inputs, limits, started, echo, _SPIN if spin else 0.0)
    slack = launch.timer_slack(_TIMER_SLACK_NS)
    try:
        result = session.drive()
        return result
    finally:
        if slack is not None and slack > 0:
            launch.timer_slack(slack)
        if session.probe is not None:
            session.probe.close()
        usage = _kill_everything(child, before, launcher.spare_pids())
        said = usage.describe(cgroups.TreeLimits(limits.memory_bytes, limits.tasks)) if usage else ""
        if result is not None and said:
            result.notes.append(said)
        try:
            child.wait()  # reap the killed program now, so close() has nothing to wait for
        except Exception:  # already reaped
            pass
        try:
            child.close(force=True)
        except Exception:  # already reaped or gone: nothing left to free but the fd
            pass


class _Readable:
    """Wait up to `ms` milliseconds for output. select() keeps sub-millisecond timeouts, which
    the per-turn loop relies on; poll() (which rounds up to whole milliseconds) serves fds
    above select()'s limit."""

    def __init__(self, fd: int):
        self.fd = fd
        if fd >= 1024:
            self._poll = select.poll()
            self._poll.register(fd, select.POLLIN)

    def poll(self, ms: float) -> bool:
        if self.fd >= 1024:
            return bool(self._poll.poll(math.ceil(ms)))
        return bool(select.select([self.fd], [], [], ms / 1000)[0])


class _Session:
    """The state of one run between spawn and end."""
    def __init__(self, child, inputs, limits: Limits, started: float, echo, spin_seconds: float):
        self.child, self.inputs, self.limits, self.started, self.echo = child, inputs, limits, started, echo
        self.spin_seconds = spin_seconds
        self.poller = _Readable(child.child_fd)
        group = cgroups.name_for(child.pid)
        self.probe = procwait.WaitProbe(child.pid, lambda: cgroups.threads(group)) if procwait.AVAILABLE else None
        self.events: Transcript = []  # as a person at the terminal reads it (screen)
        self.raw: Transcript = []  # as printed
        self.screen = screen.ScreenReading(launch.ROWS)
        self.notes: list[str] = []
        self.pending = bytearray()
        self.so_far: list[str] = []
        self.total = 0
        self.typed = 0
        self.metered = started  # the run's time is reported to its budget up to here
        self.budget_left = max(limits.budget.left(), 0.0) if limits.budget is not None else math.inf

    @property
    def run_limit(self) -> float:
        """The whole run's limit now: its own, which grows with the lines typed (Limits.whole_run),
        capped by what was left of the budget when it started."""
        return min(self.limits.whole_run(self.typed), self.budget_left)

    @property
    def by_budget(self) -> bool:
        return self.budget_left < self.limits.whole_run(self.typed)

    def _over_time(self) -> str:
        """Why the whole run is over its time: its own limit, or what was left of its budget."""
        own = self.limits.whole_run(self.typed)
        if self.by_budget:
            return f"{BUDGET_SPENT}: this run was stopped after {self.run_limit:.1f} s (its own limit is {own:g} s)"
        return f"your program's whole run took longer than {own:g} s (after {self.typed} typed lines)"

    def _report(self, now: float) -> bool:
        """The time since the last report counted against the budget; False once it is spent."""
        if self.limits.budget is None:
            return True
        spent, self.metered = now - self.metered, now
        return self.limits.budget.spend(spent) > 0

    def _flush_turn(self) -> None:
        """The turn's output, as printed and as the terminal shows it (what everything reads)."""
        text = _decode(bytes(self.pending), self.notes, self.typed)
        self.pending.clear()
        if text:
            self.raw.append({"out": text})
            self.screen.feed(text)
        shown = self.screen.take_turn()
        if shown:
            self.events.append({"out": shown})
            self.so_far.append(shown)

    def _finish(self, end: End, detail: str = "", budget_spent: bool = False) -> RunResult:
        self._flush_turn()
        self._report(time.monotonic())
        raw = self.raw if transcript.output(self.raw) != transcript.output(self.events) else None
        return RunResult(self.events, end, detail, time.monotonic() - self.started, self.notes, budget_spent, raw)

    def _read(self) -> bool:
        """Take what the program printed; False at end of output."""
        try:
            data = self.child.read_ready(_READ_SIZE)
        except (pexpect.EOF, OSError):
            return False
        if not data:
            return False
        self.pending += data
        self.total += len(data)
        if self.echo is not None:
            self.echo(data)
        return True

    def _type(self, line: str) -> None:
        self._flush_turn()
        self.events.append({"in": line})
        self.raw.append({"in": line})
        self.screen.typed(line)
        self.typed += 1
        if self.probe is not None:
            self.probe.fed()
        self.child.send((line + "\n").encode("utf-8"))

    def drive(self) -> RunResult:
        limits = self.limits
        turn_started = last_activity = self.started
        interval, looked_at = 0.0, -math.inf
        ticks, idle_from = None, self.started  # the tree's CPU ticks late in a turn, and since when they stand still
        watch_after = max(limits.turn_seconds - limits.quiet_seconds, 0.0)
        while True:
            now = time.monotonic()
            if now - self.started > self.run_limit:
                return self._finish(End("timeout"), self._over_time(), self.by_budget)
            if now - self.metered >= METER_SECONDS and not self._report(now):
                return self._finish(End("timeout"), f"{BUDGET_SPENT}: this run was stopped after {now - self.started:.1f} s",
                                    budget_spent=True)
            unseen = None
            over = now - turn_started - limits.turn_seconds
            if over > 0:
                unseen = self._unseen_wait(over)
                if unseen is None:
                    where = f"after input {self.typed}" if self.typed else "before the first input"
                    silent = "printed nothing and " if not self.pending else ""
                    return self._finish(End("timeout"), f"your program {silent}did not ask for input or end "
                                                        f"within {limits.turn_seconds:g} s {where}")
                if ticks is None or now - max(idle_from, last_activity) < limits.quiet_seconds or self.poller.poll(0):
                    unseen = None  # not idle for long enough yet, or output to take: look again (at most quiet_seconds more)
            if unseen is None:
                if self.poller.poll(interval * 1000):
                    if not self._read():
                        return self._ended()
                    if self.total > limits.output_bytes:
                        return self._finish(End("output-limit"), f"printed more than {limits.output_bytes:,} bytes")
                    interval, last_activity = 0.0, time.monotonic()
                    continue
                if interval == 0.0 and now - looked_at < _SPIN_LOOK:
                    continue  # spinning: the pty is watched all the time, the program every 20 us
                looked_at = now
                if not self.child.isalive():
                    return self._ended()
                waiting = self.probe is not None and self.probe.waiting()
                if waiting and self.poller.poll(0):
                    continue  # output still in flight: drain it, then look again
                if not waiting:
                    if now - turn_started >= watch_after and now - last_activity >= _IDLE_AFTER:  # near the turn limit: idle?
                        current = procwait.cpu_ticks(self.child.pid)
                        if current != ticks:
                            ticks, idle_from = current, now
                    spinning = now - last_activity < self.spin_seconds
                    interval = 0.0 if spinning else min(max(interval * _BACKOFF, _FIRST_SLEEP), _LONGEST_LOOK)
                    continue
            else:
                self.notes.append(f"input {self.typed + 1} was typed after {limits.turn_seconds:g} s: your program had "
                                  f"printed nothing and used no time for {limits.quiet_seconds:g} s, so it is taken to "
                                  f"be waiting for input (in {unseen + '()' if unseen.isidentifier() else unseen}, "
                                  "where the grader cannot see what it waits for)")
            self._flush_turn()
            line = self.inputs.next_line("".join(self.so_far))
            if line is None:
                given = f"the {self.typed} line{'s' if self.typed != 1 else ''} this case types" if self.typed else "the start"
                return self._finish(End("waiting"), f"your program asked for more input after {given}")
            self._type(line)
            turn_started = last_activity = time.monotonic()
            ticks, interval = None, 0.0

    def _unseen_wait(self, over: float) -> str | None:
        """At the turn limit, with no wait seen: the call in which the program may still wait
        for input unseen (procwait.WaitProbe.unseen_wait), for at most quiet_seconds past the
        limit while its idleness is confirmed; None: the turn is over its limit."""
        if self.probe is None or over > self.limits.quiet_seconds:
            return None
        return self.probe.unseen_wait()

    def _ended(self) -> RunResult:
        """The output closed or the program exited: drain, then collect its status within the run limit."""
        while self.poller.poll(0) and self._read():  # what is left in the pty, within the limits
            if self.total > self.limits.output_bytes:
                return self._finish(End("output-limit"), f"printed more than {self.limits.output_bytes:,} bytes")
            if time.monotonic() - self.started > self.run_limit:
                return self._finish(End("timeout"), self._over_time(), self.by_budget)
        if self.child.isalive():
            remaining = self.run_limit - (time.monotonic() - self.started)
            try:
                pidfd = os.pidfd_open(self.child.pid)
                exited = select.poll()
                exited.register(pidfd, select.POLLIN)
                exited.poll(max(remaining, 0) * 1000)
                os.close(pidfd)
            except OSError:
                pass
            if self.child.isalive():
                return self._finish(End("timeout"), self._over_time() if self.by_budget else
                                    "your program closed its output but did not end")
        if self.child.signalstatus is not None:
            name = _signal_name(self.child.signalstatus)
            return self._finish(End.killed(name), f"killed by {name}")
        return self._finish(End.exited(self.child.exitstatus))
