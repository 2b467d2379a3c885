"""The pty runner against real programs that misbehave the ways student programs do."""
import json
import os
import signal
import subprocess
import sys
import termios
import textwrap

import pytest

from harness import transcript
from harness.running import proctree, runner
from harness.running.environment import child_env
from harness.outcome import End
from tests.helpers import alive

LIMITS = runner.Limits(turn_seconds=3, run_seconds=10, output_bytes=20_000, quiet_seconds=1)


def run_script(tmp_path, source, inputs=(), limits=LIMITS, env=None, spin=False):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(source))
    return runner.run([sys.executable, "-S", str(script)], env=env or child_env(str(tmp_path)), cwd=str(tmp_path),
                      inputs=runner.FixedInputs(inputs), limits=limits, spin=spin)


# a run with a core to itself looks without sleeping after each turn, one among others sleeps
BOTH_PACES = pytest.mark.parametrize("spin", [False, True], ids=["sleeping", "spinning"])


@BOTH_PACES
def test_inputs_are_typed_only_when_the_program_reads(tmp_path, spin):
    # The program under test "thinks" between printing a prompt and reading (its own sleep; the
    # test itself waits on nothing): a line typed early would be echoed nowhere, but it would be
    # read before the second prompt is complete.
    result = run_script(tmp_path, """
        import time
        name = input("Name? ")
        time.sleep(0.3)
        print("thinking done")
        age = input("Age? ")
        print(f"{name} is {age}")
    """, ["Ada", "36"], spin=spin)
    assert result.end == End.exited(0)
    assert result.events == [{"out": "Name? "}, {"in": "Ada"}, {"out": "thinking done\nAge? "}, {"in": "36"},
                             {"out": "Ada is 36\n"}]
    assert result.notes == []


_WRITES_THEN_READS = r"""
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char line[64], block[1500], prompt[32];
    memset(block, 'x', sizeof block);
    for (int turn = 0; turn < 300; turn++) {
        for (int k = 0; k < 3; k++) write(1, block, sizeof block);  /* a board, several writes */
        int n = snprintf(prompt, sizeof prompt, "\nturn %d> ", turn);
        write(1, prompt, n);  /* the prompt, written just before the read */
        if (!fgets(line, sizeof line, stdin)) return 1;
    }
    return 0;
}
"""


@BOTH_PACES
def test_all_a_turn_printed_before_its_read_is_in_that_turn(tmp_path, spin):
    # A turn's output is written in several system calls, the last one just before the read:
    # each line is typed only once all of it has been taken, so every turn's output is whole
    # and ends with its own prompt, on each of 300 turns.
    source = tmp_path / "turns.c"
    source.write_text(_WRITES_THEN_READS)
    subprocess.run(["gcc", "-O2", "-o", str(tmp_path / "turns"), str(source)], check=True)
    limits = runner.Limits(turn_seconds=3, run_seconds=30, output_bytes=10_000_000, quiet_seconds=1)
    result = runner.run([str(tmp_path / "turns")], env=child_env(str(tmp_path)), cwd=str(tmp_path),
                        inputs=runner.FixedInputs(["go"] * 300), limits=limits, spin=spin)
    assert result.end == End.exited(0)
    outputs = [event["out"] for event in result.events if "out" in event]
    assert [output.count("x") for output in outputs] == [3 * 1500] * 300
    assert [output.rsplit("\n", 1)[-1] for output in outputs] == [f"turn {turn}> " for turn in range(300)]


def test_a_read_that_ends_while_the_probe_looks_is_not_a_new_wait(tmp_path, monkeypatch):
    # /proc is read one file at a time while the program runs on another core. Here the
    # program is made to finish the read the typed line woke exactly between the probe's look
    # at its state (asleep in read) and its look at the read count: that is the old wait,
    # whose line the program has not answered yet, and typing the next line then would put
    # this turn's output in the next one.
    from harness.running import procwait
    master, slave = os.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    program = subprocess.Popen([sys.executable, "-S", "-c", "import os\nwhile os.read(0, 100): os.write(1, b'ok')"],
                               stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    try:
        probe = procwait.WaitProbe(program.pid)
        while not probe.waiting():  # the program starts and blocks in its first read
            assert program.poll() is None
        probe.fed()
        real_read, woken = procwait.TaskFiles.read, []

        def read_then_wake(task, name):
            text = real_read(task, name)
            if name == "stat" and not woken:  # seen asleep: now the line arrives and is read
                woken.append(task.tid)
                count = lambda: int(real_read(task, "io").split("syscr:")[1].split()[0])
                before = count()
                os.write(master, b"line\n")
                while count() == before:
                    pass
            return text

        monkeypatch.setattr(procwait.TaskFiles, "read", read_then_wake)
        assert not probe.waiting()
        assert woken
        monkeypatch.setattr(procwait.TaskFiles, "read", real_read)
        assert os.read(master, 10) == b"ok"  # answered, and only now back in a read of its own
        while not probe.waiting():
            assert program.poll() is None
    finally:
        probe.close()
        program.kill()
        program.wait()
        os.close(master)


def test_inputs_running_out_ends_as_waiting(tmp_path):
    result = run_script(tmp_path, "input('a? ')\ninput('b? ')\n", ["1"])
    assert result.end == End("waiting")
    assert result.events[-1] == {"out": "b? "}


def test_a_program_that_never_reads_nor_ends_times_out(tmp_path):
    result = run_script(tmp_path, "while True: pass\n", limits=runner.Limits(turn_seconds=1, run_seconds=5))
    assert result.end == End("timeout")
    assert "1 s" in result.detail  # the turn's limit ended it, not the run's


def test_a_flood_of_output_stops_at_the_limit(tmp_path):
    result = run_script(tmp_path, "while True: print('spam' * 50)\n")
    assert result.end == End("output-limit")
    assert 20_000 <= len(result.output().encode()) <= 20_000 + 65536


def test_a_crash_by_signal_is_recorded(tmp_path):
    result = run_script(tmp_path, "import os, signal\nprint('bye')\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    assert result.end == End.killed("SIGSEGV")


def test_exit_status_is_recorded(tmp_path):
    assert run_script(tmp_path, "raise SystemExit(3)\n").end == End.exited(3)


def test_escaped_grandchildren_are_killed(tmp_path):
    proctree.adopt_orphans()
    marker = tmp_path / "pid"
    # The grandchild escapes (new session, parent gone) and would live a minute; the program
    # asks for input only once the grandchild has written its pid (the pipe closes then).
    result = run_script(tmp_path, f"""
        import os, time
        ready, tell = os.pipe()
        if os.fork() == 0:
            os.close(ready)
            os.setsid()
            if os.fork() == 0:
                with open({str(marker)!r}, "w") as out:
                    out.write(str(os.getpid()))
                os.close(tell)
                time.sleep(60)
            os._exit(0)
        os.close(tell)
        os.read(ready, 1)
        input("? ")
    """)
    assert result.end == End("waiting")
    pid = int(marker.read_text())
    # `run` kills and reaps everything it started before it returns: nothing to wait for
    assert not alive(pid), f"escaped process {pid} is still alive"


def test_invalid_utf8_is_shown_and_noted(tmp_path):
    result = run_script(tmp_path, "import sys\nsys.stdout.buffer.write(b'caf\\xe9\\n')\n")
    assert result.end == End.exited(0)
    assert result.output() == "caf\ufffd\n"
    assert "not valid UTF-8" in result.notes[0]


def test_output_bytes_are_kept_exactly(tmp_path):
    """What is read is what the terminal shows (a CRLF line end is a line end); the bytes as
    printed are kept beside it for the report."""
    result = run_script(tmp_path, "import sys\nsys.stdout.write('a \\r\\nb\\t○●  ')\n")
    assert result.output() == "a \nb\t○●  "
    assert transcript.output(result.raw) == "a \r\nb\t○●  "


def test_plain_output_has_no_second_copy(tmp_path):
    result = run_script(tmp_path, "print('a b')\nprint('○●')\n")
    assert result.output() == "a b\n○●\n"
    assert result.raw is None


def test_the_child_environment_is_built_not_inherited(tmp_path, monkeypatch):
    """The program sees the variables the harness sets and, of this process's, PATH and
    JAVA_HOME alone: nothing that changes how a program behaves or prints comes along."""
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Xmx1m")
    monkeypatch.setenv("HARNESS_TEST_ONLY_HERE", "inherited")
    monkeypatch.setenv("LANG", "fr_FR.ISO-8859-1")
    result = run_script(tmp_path, """
        import json, os
        print(json.dumps({"env": dict(os.environ), "cwd": os.getcwd()}))
    """)
    assert result.end == End.exited(0)
    seen = json.loads(result.output())
    env = seen["env"]
    kept = {name: os.environ[name] for name in ("PATH", "JAVA_HOME") if name in os.environ}
    assert env == {**kept, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": str(tmp_path), "TMPDIR": str(tmp_path),
                   "TERM": "dumb", "COLUMNS": "1000", "LINES": "500"}
    assert seen["cwd"] == env["HOME"]  # the run's own folder is its home


# A line typed before the program waits would already be there when it looks: each program
# under test checks, just before it waits, that nothing is waiting for it yet.
_NOTHING_TYPED_AHEAD = """
    import os, select, sys, time
    def check():
        if select.select([0], [], [], 0)[0]:
            print("typed ahead!", flush=True)
"""
WAIT_LIMITS = runner.Limits(turn_seconds=5, run_seconds=20, quiet_seconds=1)


@BOTH_PACES
def test_a_program_that_pauses_before_it_reads_is_not_typed_ahead_of(tmp_path, spin):
    # silent, idle (asleep, no CPU) for 3 s before its read: far longer than quiet_seconds,
    # within the turn limit; the line is typed only once the read is seen
    result = run_script(tmp_path, _NOTHING_TYPED_AHEAD + """
    print("Move? ", end="", flush=True)
    time.sleep(3)
    check()
    move = input()
    print("got", move)
    """, ["d3"], limits=WAIT_LIMITS, spin=spin)
    assert result.end == End.exited(0), result.detail
    assert result.events == [{"out": "Move? "}, {"in": "d3"}, {"out": "got d3\n"}]
    assert result.notes == []


WAITS = {
    "select": "select.select([sys.stdin], [], [])",
    "select-with-timeouts": "while not select.select([0], [], [], 0.05)[0]: pass",
    "poll": "p = select.poll(); p.register(0, select.POLLIN); p.poll()",
    "epoll": "e = select.epoll(); e.register(0, select.EPOLLIN); e.poll()",
    # a second descriptor of the terminal, among others that never become readable
    "select-on-a-dup": "r, w = os.pipe(); t = os.dup(0); select.select([r, t], [], []); os.close(0); os.dup2(t, 0)",
    "poll-on-a-dup": ("r, w = os.pipe(); t = os.dup(0); p = select.poll(); p.register(r, select.POLLIN); "
                      "p.register(t, select.POLLIN); p.poll(); os.close(0); os.dup2(t, 0)"),
}


@pytest.mark.parametrize("wait", WAITS.values(), ids=WAITS.keys())
def test_a_program_that_waits_in_select_or_poll_is_typed_to_once_it_waits(tmp_path, wait):
    # each waits for its terminal before it reads (after a pause of its own, as a slow
    # program does), every turn: seen as a wait for input, no fallback, nothing typed ahead
    result = run_script(tmp_path, _NOTHING_TYPED_AHEAD + f"""
    for turn in range(3):
        print(f"turn {{turn}}? ", end="", flush=True)
        time.sleep(0.5 if turn == 1 else 0)
        check()
        {wait}
        print("got", os.read(0, 100).decode().strip())
    """, ["a", "b", "c"], limits=WAIT_LIMITS)
    assert result.end == End.exited(0), result.detail
    assert result.output() == "turn 0? got a\nturn 1? got b\nturn 2? got c\n"
    assert result.notes == []


_SILENT = {
    "sleeps": "time.sleep(60)",
    "select-on-nothing": "select.select([], [], [], 60)",
    "reads-a-pipe": "r, w = os.pipe(); os.read(r, 1)",
    "select-on-a-pipe": "r, w = os.pipe(); select.select([r], [], [])",
}


@pytest.mark.parametrize("silent", _SILENT.values(), ids=_SILENT.keys())
def test_a_silent_program_that_never_reads_fails_at_the_turn_limit(tmp_path, silent):
    # asleep, idle and silent, but not in a wait for its terminal: nothing is typed, and the
    # turn limit ends the run with its reason
    result = run_script(tmp_path, _NOTHING_TYPED_AHEAD + f"""
    print("Move? ", end="", flush=True)
    {silent}
    """, ["d3"], limits=runner.Limits(turn_seconds=1, run_seconds=10, quiet_seconds=0.5))
    assert result.end == End("timeout")
    assert result.detail == "your program did not ask for input or end within 1 s before the first input"
    assert result.events == [{"out": "Move? "}]


def _unreadable_memory(monkeypatch):
    """The program's memory cannot be read (as where the harness may not look into it): a
    select()'s set is unknown to the probe."""
    from harness.running import procwait
    monkeypatch.setattr(procwait.TaskFiles, "memory", lambda task, address, size: None)


def test_a_wait_on_a_set_the_probe_cannot_read_is_typed_to_at_the_turn_limit(tmp_path, monkeypatch):
    _unreadable_memory(monkeypatch)
    result = run_script(tmp_path, _NOTHING_TYPED_AHEAD + """
    print("Move? ", end="", flush=True)
    check()
    select.select([0], [], [])
    print("got", os.read(0, 100).decode().strip())
    """, ["d3"], limits=runner.Limits(turn_seconds=1, run_seconds=10, quiet_seconds=0.5))
    assert result.end == End.exited(0), result.detail
    assert result.output() == "Move? got d3\n"
    [note] = result.notes
    assert note.startswith("input 1 was typed after 1 s: your program had printed nothing and used no time for 0.5 s")
    assert "select" in note.split("()")[0] and note.endswith("where the grader cannot see what it waits for)")


def test_no_line_is_typed_at_the_turn_limit_while_a_task_computes(tmp_path, monkeypatch):
    # the same unknown wait, while another thread of the program computes: the turn is over
    _unreadable_memory(monkeypatch)
    result = run_script(tmp_path, _NOTHING_TYPED_AHEAD + """
    import threading
    threading.Thread(target=lambda: [0 for _ in iter(int, 1)], daemon=True).start()
    print("Move? ", end="", flush=True)
    select.select([0], [], [])
    print("got", os.read(0, 100).decode().strip())
    """, ["d3"], limits=runner.Limits(turn_seconds=1, run_seconds=10, quiet_seconds=0.5))
    assert result.end == End("timeout")
    assert result.detail == "your program did not ask for input or end within 1 s before the first input"


def test_a_child_that_keeps_printing_after_its_parent_exits_is_stopped(tmp_path):
    """The child outlives its parent and would print for ever (it ignores the hang-up and a
    terminal that no longer takes its output): the run ends at the output limit or with the
    parent's exit, and either way the child is gone when run returns."""
    proctree.adopt_orphans()
    marker = tmp_path / "pid"
    result = run_script(tmp_path, f"""
        import os, signal, time
        ready, tell = os.pipe()
        child = os.fork()
        if child == 0:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.close(tell)
            os.read(ready, 1)  # prints once its pid is written down (the run may end at once then)
            while True:
                try:
                    os.write(1, b"x" * 1000 + b"\\n")
                except OSError:
                    time.sleep(0.01)
        with open({str(marker)!r}, "w") as out:
            out.write(str(child))
        os.close(tell)
        print("parent done")
    """, limits=runner.Limits(turn_seconds=3, run_seconds=5, output_bytes=50_000))
    assert result.end in (End("output-limit"), End.exited(0))
    assert len(result.output().encode()) <= 50_000 + 65536
    child = int(marker.read_text())
    left = alive(child)
    if left:
        os.kill(child, signal.SIGKILL)  # not left printing when the test fails
    assert not left, f"the child {child} still runs after its run ended"
