"""A submission cannot read the case files (their expected transcripts) or reach the network."""
import socket
import threading

import pytest

from harness import build as builder
from harness import cases as caseload
from harness import grading, sandbox
from harness import spec as specs
from tests.conftest import ROOT

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
