"""What a student is shown of an upload is final before any of its hidden cases runs, and
nothing of it waits on them: against a real service whose hidden case, for the program
uploaded here, sleeps until its turn limit (30 s, set in a copy of the fixture). The student's
result comes, and their next upload is taken, while that run still sleeps; the next upload's
public cases run once it has ended (no hidden run goes on beside a public one: classes/gate.py);
only the instructor's view gets the hidden case."""
import json
import shutil
import time

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, SAMPLES, dask_cluster
from tests.test_serve import DEADLINE, HIDDEN, HIDDEN_SECRETS, INSTRUCTOR, Server

pytestmark = pytest.mark.slow  # the hidden run lasts its 30 s turn limit

HIDDEN_TURN_SECONDS = 30
# the correct program, except that the hidden case's first input ("two", no public case types it) puts it to sleep
SLEEPER = (SAMPLES / "correct" / "tally.py").read_text().replace(
    "def read_number(line):\n", "def read_number(line):\n    if line.strip() == 'two':\n"
                                "        __import__('time').sleep(3600)\n")


@pytest.fixture
def root(tmp_path):
    """The fixture project, its hidden case given a long turn limit (the sleep lasts that long)."""
    copy = tmp_path / "root"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    case = copy / "cases" / "tally" / f"{HIDDEN}.yaml"
    case.write_text(case.read_text() + f"limits: {{turn_seconds: {HIDDEN_TURN_SECONDS}, run_seconds: 60}}\n")
    return copy


def _follow(server, student, ident) -> list[dict]:
    """Every state the student is shown until the submission is done (long polls: no sleep)."""
    seen, end = [], time.monotonic() + DEADLINE
    while time.monotonic() < end:
        status, body = server.call(f"/api/submissions/{ident}?wait=5", server.tokens[student])
        assert status == 200, body
        seen.append(json.loads(body))
        if seen[-1]["state"] == "done":
            return seen
    raise AssertionError(f"submission {ident} not shown in {DEADLINE} s: " + server.logged()[-3000:])


def _whole(server, ident) -> tuple[int, bytes]:
    return server.call(f"/instructor/submissions/{ident}/report", basic=INSTRUCTOR)


def test_the_student_is_shown_the_public_results_without_waiting_for_a_hidden_run(tmp_path, root):
    (tmp_path / "serve").mkdir()
    _scenario(Server(tmp_path / "serve", root=root), root)


def test_on_a_cluster_too_the_public_results_are_shown_before_the_hidden_cases_are_graded(tmp_path, root):
    """On Dask the public and the hidden cases are two gradings; the student is shown the first.
    The test's one worker has one thread, which the hidden grading holds while it sleeps: the
    next upload is accepted at once, but its grading waits for that thread."""
    with dask_cluster(tmp_path, {"one": {}}) as (address, _):
        (tmp_path / "serve").mkdir()
        _scenario(Server(tmp_path / "serve", extra=("--cluster", address), root=root), root, next_graded=False)


def _scenario(server: Server, root, next_graded: bool = True) -> None:
    public = sum(c.visibility != "hidden" for c in caseload.load_all(specs.load("tally", root), None))
    server.start()
    try:
        status, body = server.upload("student0", [("tally.py", SLEEPER.encode())])
        assert status == 202, body
        first = json.loads(body)["id"]
        seen = _follow(server, "student0", first)
        assert _whole(server, first)[0] == 404  # the hidden case still sleeps: the student did not wait for it
        shown = seen[-1]
        assert shown["result"]["all_passed"] and shown["result"]["total"] == public
        assert shown["result"]["hidden_cases"] == 1 and "1 hidden case is not shown" in shown["text"]
        counted = [state for state in seen if "cases_total" in state]
        assert all(state["cases_total"] == public and state["cases_done"] <= public for state in counted), counted
        for secret in HIDDEN_SECRETS + ("not run yet",):
            assert secret not in json.dumps(seen)

        # the next upload is not refused: taken while that run sleeps, its public cases run after it
        status, body = server.upload("student0", [("tally.py", (SAMPLES / "correct" / "tally.py").read_bytes())])
        assert status == 202, body
        second = json.loads(body)["id"]
        if next_graded:
            assert _follow(server, "student0", second)[-1]["result"]["all_passed"]
            assert _whole(server, first)[0] == 200, "the second upload's public runs went on beside the first's hidden run"
        else:
            assert _whole(server, first)[0] == 404
            assert _follow(server, "student0", second)[-1]["result"]["all_passed"]
        status, mine = server.call("/api/submissions", server.tokens["student0"])
        assert status == 200 and [s["state"] for s in json.loads(mine)["submissions"]] == ["done", "done"]
        assert b"cases_total" not in mine

        # what the student was shown stays as it was; the instructor's view gets the hidden case
        again = server.call(f"/api/submissions/{first}", server.tokens["student0"])[1]
        assert server.graded(first)["graded"]  # the instructor's long poll, answered once the hidden run ends
        whole = _whole(server, first)
        assert whole[0] == 200 and HIDDEN in whole[1].decode(), whole
        # the sleep, ended by its turn limit
        assert f"did not ask for input or end within {HIDDEN_TURN_SECONDS} s" in whole[1].decode()
        assert json.loads(server.call(f"/api/submissions/{first}", server.tokens["student0"])[1]) == json.loads(again)
        assert json.loads(again)["result"] == shown["result"]
    finally:
        server.stop()
