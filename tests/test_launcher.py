"""Each run's process is made ahead, in its own control group: the program it becomes gets
its limits and nothing of the harness, and a process never used leaves nothing behind."""
import os
import select
import signal
import subprocess
import sys
import textwrap
import time

import pexpect
import pytest

from harness.outcome import End
from harness.running import cgroups, launcher, runner
from harness.running.environment import child_env

LIMITS = runner.Limits(turn_seconds=3, run_seconds=10, output_bytes=20_000, quiet_seconds=1)
GROUPS = pytest.mark.skipif(cgroups.mechanism() == "rlimits", reason="no control groups can be made here")


def run_command(tmp_path, command, inputs=()):
    return runner.run(command, env=child_env(str(tmp_path)), cwd=str(tmp_path), inputs=runner.FixedInputs(inputs),
                      limits=LIMITS)


def group_folders(pid: int) -> list[str]:
    return [p.group(cgroups.name_for(pid)) for p in cgroups.places() if os.path.isdir(p.group(cgroups.name_for(pid)))]


def wait_for_exit(pid: int) -> None:
    """Block until process `pid` (not necessarily ours) has ended."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        select.select([handle], [], [], 10)
    finally:
        os.close(handle)


def test_the_program_runs_in_the_process_made_for_it_and_the_next_one_is_made(tmp_path):
    spare = launcher.for_this_process()
    spare.prepare()
    (made,) = spare.spare_pids()
    result = run_command(tmp_path, [sys.executable, "-S", "-c", "import os; print(os.getpid())"])
    assert result.end == End.exited(0)
    assert int(result.output()) == made
    (following,) = spare.spare_pids()
    assert following != made and os.path.exists(f"/proc/{following}")


def asleep_in_read(pid: int) -> None:
    """Look until process `pid` is blocked in a read (of its command, for a process made ahead)."""
    deadline = time.monotonic() + 10
    while open(f"/proc/{pid}/syscall").read().split()[0] != "0":
        assert time.monotonic() < deadline, "the process made ahead never waited for its command"


@GROUPS
def test_the_next_process_waits_in_its_own_group(tmp_path):
    run_command(tmp_path, ["true"])
    (waiting,) = launcher.for_this_process().spare_pids()
    asleep_in_read(waiting)
    folders = group_folders(waiting)
    assert len(folders) == len(cgroups.places())
    for folder in folders:
        assert open(os.path.join(folder, "cgroup.procs")).read().split() == [str(waiting)]


def test_the_program_inherits_no_descriptor_and_no_ignored_signal(tmp_path):
    # The process was forked from the harness long before: of the harness's files only the
    # terminal is left, and the signals it ignored are the program's again (SIGHUP while it
    # waited, SIGPIPE as Python does).
    script = textwrap.dedent("""
        import os
        print(sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
    """)
    listed = run_command(tmp_path, [sys.executable, "-S", "-c", script])
    assert listed.end == End.exited(0)
    fds = eval(listed.output())
    assert fds[:3] == [0, 1, 2] and len(fds) == 4  # the fourth is the listing's own
    ignored = run_command(tmp_path, ["sh", "-c", "grep SigIgn /proc/self/status"])
    mask = int(ignored.output().split()[1], 16)
    assert not mask & (1 << signal.SIGHUP - 1 | 1 << signal.SIGPIPE - 1)


def test_a_process_that_died_while_waiting_is_replaced(tmp_path):
    spare = launcher.for_this_process()
    spare.prepare()
    (made,) = spare.spare_pids()
    os.kill(made, signal.SIGKILL)
    result = run_command(tmp_path, [sys.executable, "-S", "-c", "print(input('? ') * 2)"], ["ab"])
    assert result.end == End.exited(0)
    assert result.events == [{"out": "? "}, {"in": "ab"}, {"out": "abab\n"}]
    assert not group_folders(made)


def test_a_command_that_cannot_start_says_why(tmp_path):
    missing = run_command(tmp_path, [str(tmp_path / "no-such-program")])
    assert missing.end == End.exited(127)
    assert "could not start" in missing.detail and "no-such-program" in missing.detail
    (tmp_path / "not-executable").write_text("#!/bin/sh\n")
    refused = run_command(tmp_path, [str(tmp_path / "not-executable")])
    assert refused.end == End.exited(127) and "could not start" in refused.detail


def test_closing_kills_the_waiting_process_and_removes_its_group():
    spare = launcher.Launcher()
    spare.prepare()
    (made,) = spare.spare_pids()
    spare.close()
    assert spare.spare_pids() == set()
    assert not os.path.exists(f"/proc/{made}")  # killed and reaped
    assert not group_folders(made)


def test_a_process_whose_owner_died_removes_its_group_and_ends(tmp_path):
    owner = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import os
        from harness.running import launcher
        spare = launcher.Launcher()
        spare.prepare()
        print(*spare.spare_pids(), flush=True)
        os._exit(0)  # no exit handler: the process made ahead is on its own
    """)], capture_output=True, text=True, check=True)
    made = int(owner.stdout)
    wait_for_exit(made)
    try:
        os.waitpid(made, os.WNOHANG)  # re-parented to this process if it adopts orphans
    except ChildProcessError:
        pass
    assert not group_folders(made)


def test_the_process_made_ahead_is_driven_as_a_pexpect_spawn(tmp_path):
    # the runner's Program adopts the launched process's pty instead of forking one: pexpect's
    # whole interface then drives the program the launcher made, confined as it made it
    spare = launcher.for_this_process()
    spare.prepare()
    (made,) = spare.spare_pids()
    command = [sys.executable, "-S", "-c", "print(input('? ') * 2); raise SystemExit(3)"]
    confinement = launcher.Confinement(cgroups.TreeLimits(LIMITS.memory_bytes, LIMITS.tasks), 10, 50_000)
    program = runner.Program(command, spare.start(command, child_env(str(tmp_path)), str(tmp_path), confinement))
    try:
        assert isinstance(program, pexpect.spawn) and program.pid == made
        program.timeout = 30
        program.expect_exact(b"? ")
        program.sendline(b"ab")
        program.expect(pexpect.EOF)
        assert program.before == b"abab\n"  # the launcher's terminal: no echo, no \n -> \r\n
        program.wait()
        assert program.exitstatus == 3 and program.signalstatus is None
    finally:
        cgroups.finish(cgroups.name_for(made))  # whatever is left of it killed, then reaped
        program.close(force=True)
    assert not os.path.exists(f"/proc/{made}")
