"""A submission cannot read the case files (their expected transcripts) or reach the network."""
import socket
import threading

import pytest

from harness.building import build as builder
from harness.loading import cases as caseload
from harness.grading import submission as grading
from harness.running import sandbox
from harness.loading import spec as specs
from tests.helpers import ROOT

pytestmark = pytest.mark.skipif(not sandbox.available(), reason="bubblewrap (bwrap) is not installed")

SNOOP = """
import os, socket, sys
case = sys.argv[1]
try:
    open(case).read()
    print("read the case file")
except OSError as problem:
    print("case file hidden:", type(problem).__name__)
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=2)
    print("reached the network")
except OSError as problem:
    print("network closed:", type(problem).__name__)
print("files here:", sorted(os.listdir(".")))
"""


def test_a_submission_sees_neither_cases_nor_network(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    threading.Thread(target=lambda: listener.accept(), daemon=True).start()
    port = listener.getsockname()[1]
    submission = tmp_path / "snoop"
    submission.mkdir()
    (submission / "reversi.py").write_text(SNOOP)
    spec, milestone = specs.parse_game("reversi:ms1", ROOT)
    case = caseload.load_all(spec, milestone, "ms1-prompts")[0]
    case.args = [str(case.path), str(port)]
    built = builder.build(submission, spec, "game")
    assert built.ok and built.sandboxed
    result = grading.run_case(spec, case, built)
    output = "".join(e.get("out", "") for e in result.actual)
    assert "case file hidden" in output and "read the case file" not in output
    assert "network closed" in output and "reached the network" not in output
    assert "files here: []" in output
    builder.cleanup(built)
    listener.close()


def test_a_crash_by_signal_is_still_a_signal_in_the_sandbox(tmp_path):
    submission = tmp_path / "crash"
    submission.mkdir()
    (submission / "reversi.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    spec, milestone = specs.parse_game("reversi:ms1", ROOT)
    case = caseload.load_all(spec, milestone, "ms1-prompts")[0]
    built = builder.build(submission, spec, "game")
    result = grading.run_case(spec, case, built)
    assert str(result.actual_end) == "signal SIGSEGV"
    builder.cleanup(built)


def _inside(script: str, tmp_path) -> str:
    """Run a shell script in the sandbox as a run would be, with a fresh run folder."""
    import subprocess
    home = tmp_path / "run"
    home.mkdir()
    command = sandbox.wrap(["sh", "-c", script], writable=[str(home)], readable=[], hidden=[], cwd=str(home))
    return subprocess.run(command, capture_output=True, text=True, timeout=60).stdout


def test_the_program_is_an_unprivileged_uid_with_no_capabilities(tmp_path):
    seen = _inside("id -u; grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; cat /etc/shadow || echo no-shadow", tmp_path)
    uid = int(seen.split()[0])
    assert uid != 0
    assert seen.count("0000000000000000") == 3
    assert "no-shadow" in seen


def test_only_the_allow_list_is_there(tmp_path):
    seen = _inside(f"ls -a /; echo --; ls -a /root 2>&1; echo --; ls /home /work 2>&1; echo --; ls {ROOT} 2>&1",
                   tmp_path)
    top, root, rest, project = seen.split("--\n")
    assert set(top.split()) <= {".", "..", "bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc",
                                "root", "sbin", "tmp", "usr", "opt"}
    assert "No such file or directory" in project  # this checkout, wherever it is (even under /tmp)
    # /root holds only the path to the interpreter's prefix (here under /root/.pyenv), if anything
    assert set(root.split()) <= {".", "..", ".pyenv"}
    assert "No such file or directory" in rest


def test_the_run_folder_and_tmp_are_private_and_bounded(tmp_path):
    seen = _inside("head -c 100000000 /dev/zero > big 2>/dev/null; wc -c < big; echo x > /tmp/y && echo tmp-ok", tmp_path)
    size = int(seen.split()[0])
    assert size <= sandbox._TMPFS_BYTES
    assert "tmp-ok" in seen
    assert not (tmp_path / "run" / "big").exists()  # nothing reached the disk


def test_mode_and_description_name_what_is_in_force():
    assert sandbox.mode() == "bubblewrap"
    assert "bubblewrap" in sandbox.describe()


def test_a_signal_status_reads_as_the_signal_with_either_kind_of_end():
    from harness.outcome import End
    assert sandbox.exit_status(139) == "signal SIGSEGV"
    assert sandbox.exit_status(End.exited(137)) == End.killed("SIGKILL")
    assert sandbox.exit_status(End.exited(1)) == End.exited(1)
