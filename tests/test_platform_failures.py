"""Every platform writes a well-formed "not graded" result when the harness itself fails
(platforms/guard.py): the failure provoked is real, a spec whose law of the random starts reads
its values with a function that returns a number instead of a list of values, so grading raises
a TypeError in the middle of a grading (where the law is checked, after the cases ran). The
student is told nothing was graded and the failure's kind, never the traceback (the log has it)."""
import base64
import json
from pathlib import Path

import pytest

from tests.helpers import FIXTURE, SAMPLES, copy_project

pytestmark = pytest.mark.slow  # three gradings of the fixture's law case

LAW = """  distribution:
    values: json:loads      # a start -> a number, where a list of values is expected: grading raises
    expect: {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    least: 2
    case: setup-start
"""
PROBLEM = "the harness itself failed (TypeError)."


@pytest.fixture
def broken(tmp_path) -> Path:
    root = copy_project(FIXTURE, tmp_path / "project", parts=("specs", "cases"))
    spec = root / "specs" / "tally" / "spec.yaml"
    lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("  seed: 1"))
    spec.write_text("".join(lines[:at + 1]) + LAW + "".join(lines[at + 1:]), encoding="utf-8")
    return root


def _failed(done) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" in done.stderr and "TypeError" in done.stderr  # for the instructor
    assert done.stderr.rstrip().splitlines()[-1] == f"harness: {PROBLEM}"


def test_gradescope_prairielearn_and_classroom_write_a_not_graded_result_when_grading_raises(broken, tmp_path,
                                                                                               harness_cli):
    env = {"HARNESS_ROOT": str(broken)}
    submission = SAMPLES / "correct"

    autograder = tmp_path / "autograder"
    done = harness_cli("gradescope", "tally", "--autograder-root", autograder, "--submission", submission,
                       "-k", "setup-start", env=env)
    _failed(done)
    shown = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    assert shown["score"] == 0 and shown["tests"] == []
    assert PROBLEM in shown["output"] and "Traceback" not in shown["output"]

    job = tmp_path / "grade"
    (job / "data").mkdir(parents=True)
    (job / "data" / "data.json").write_text("{}", encoding="utf-8")
    done = harness_cli("prairielearn", "tally", "--grade-root", job, "--student", submission, "-k", "setup-start",
                       env=env)
    _failed(done)
    shown = json.loads((job / "results" / "results.json").read_text(encoding="utf-8"))
    assert shown["gradable"] is False and "score" not in shown
    assert PROBLEM in shown["message"] and "Traceback" not in shown["message"]

    output = tmp_path / "github-output"
    done = harness_cli("classroom", "tally", "--submission", submission, "--output", output, "-k", "setup-start",
                       env=env)
    _failed(done)
    lines = [line for line in output.read_text(encoding="utf-8").splitlines() if line.startswith("result=")]
    report = json.loads(base64.b64decode(lines[-1].removeprefix("result=")))
    assert report["status"] == "error" and report["max_score"] == 0
    assert PROBLEM in report["tests"][0]["message"]
