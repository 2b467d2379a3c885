"""GitHub Classroom autograding: `harness classroom` (and the action's grade.sh) run in a folder laid
out as a checked-out student repository (the student's files at its root, the workflow in
.github/workflows/, GITHUB_WORKSPACE and GITHUB_OUTPUT set as the Actions runner sets them), with
the fixture game's correct and seeded-bug samples; the `result` output decoded as the autograding
reporter decodes it, and its points checked against the spec's weights. The action and the
workflow are checked as YAML, with the step ids the reporter reads."""
import base64
import json
import math
import os
import re
import shutil
import subprocess
import sys

from pathlib import Path

import pytest
import yaml

from harness.platforms import classroom
from tests.helpers import FIXTURE, ROOT, RULES, SAMPLES, expected_percent, typed, unplannable_case

ACTION = ROOT / "github-classroom" / "action.yml"
WORKFLOW = ROOT / "github-classroom" / "classroom.yml"
GRADE_SH = ROOT / "github-classroom" / "grade.sh"
# The fields the command grader writes for each test (its src/main.js, generateResult)
TEST_KEYS = {"name", "status", "score", "message", "test_code", "filename", "line_no", "duration"}
REPORTER = "classroom-resources/autograding-grading-reporter@"
HARNESS = Path(sys.executable).with_name("harness")  # the command this checkout installed


def student_repository(tmp_path, sample: str):
    """A student's repository as actions/checkout leaves it: the sample's files at the root,
    the workflow in .github/workflows/, a README of the template."""
    repo = tmp_path / "student-repo"
    shutil.copytree(SAMPLES / sample, repo)
    (repo / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(WORKFLOW, repo / ".github" / "workflows" / "classroom.yml")
    (repo / "README.md").write_text("# Tally\nThe assignment.\n", encoding="utf-8")
    return repo


def actions_env(repo, output) -> dict:
    return {"HARNESS_ROOT": str(FIXTURE), "GITHUB_WORKSPACE": str(repo), "GITHUB_OUTPUT": str(output),
            "GITHUB_ACTIONS": "true"}


def decoded(output) -> dict:
    """The runner's report as the reporter reads it: the `result` output, base64 of its JSON."""
    lines = [line for line in output.read_text(encoding="utf-8").splitlines() if line.startswith("result=")]
    assert len(lines) == 1, lines
    return json.loads(base64.b64decode(lines[0].removeprefix("result=")).decode("utf-8"))


def check_format(report: dict) -> None:
    assert set(report) == {"version", "status", "max_score", "tests"} and report["version"] == 1
    assert report["status"] in ("pass", "fail", "error")
    for test in report["tests"]:
        assert set(test) == TEST_KEYS and test["status"] in ("pass", "fail", "error")
        assert test["line_no"] == 0 and isinstance(test["score"], (int, float)) and test["score"] >= 0


def classroom_points(report: dict) -> float:
    """What the reporter tells Classroom (src/notify-classroom.js): the sum of the tests' scores."""
    return math.fsum(test["score"] for test in report["tests"])


def grade_sample(harness_cli, tmp_path, tally, sample: str, points: float):
    repo = student_repository(tmp_path, sample)
    output = tmp_path / "github_output"
    output.write_text("", encoding="utf-8")
    done = harness_cli("classroom", "tally", "--points", points, cwd=repo, env=actions_env(repo, output))
    report = decoded(output)
    check_format(report)
    return done, report


@pytest.mark.parametrize("sample, points", [("correct", 100), ("bug-add", 100), ("bug-illegal", 30)])
def test_the_points_are_the_spec_weights_scaled_to_the_assignment(harness_cli, tmp_path, tally, sample, points):
    spec, cases = tally
    rule, _ = RULES[sample]
    failing = {case.name for case in cases if rule(spec, case)}
    done, report = grade_sample(harness_cli, tmp_path, tally, sample, points)
    assert done.returncode == (0 if not failing else 1), done.stderr
    assert report["status"] == ("pass" if not failing else "fail")
    assert report["max_score"] == points
    assert classroom_points(report) == pytest.approx(expected_percent(spec, cases, failing) * points / 100, abs=0.01)
    by_name = {test["name"].split(" ")[0]: test for test in report["tests"]}
    public = [case for case in cases if case.visibility == "public"]
    for case in public:  # each public case is a test, failed where the sample's rule says
        test = by_name[case.name]
        assert test["status"] == ("fail" if case.name in failing else "pass")
        lines = test["test_code"].splitlines()  # what the case types, one "> line" each
        assert lines == ["(types nothing)"] if not typed(case) else \
            lines and all(line.startswith("> ") and line[2:] in typed(case) for line in lines)
        if case.name in failing:
            assert test["score"] == 0 and "First difference" in test["message"]
    hidden = [case for case in cases if case.visibility == "hidden"]
    (together,) = [t for t in report["tests"] if t["name"].startswith("hidden cases")]
    assert together["name"] == f"hidden cases ({len(hidden)})" and together["test_code"] == ""
    assert together["status"] == ("fail" if failing & {c.name for c in hidden} else "pass")
    text = json.dumps(report) + done.stdout
    for case in hidden:  # no stage of the spec shows them: neither name nor description, in the report or the log
        assert case.name not in text and case.description not in text


@pytest.mark.parametrize("show", ["names", "transcript"])
def test_a_stage_in_force_shows_each_hidden_case_as_it_says(harness_cli, tmp_path, tally, tally_project, show):
    """The spec's hidden_stages: the stage in force at the run (one that began in the past) shows
    each hidden case as its own test: by name and description from `names` on, with what it
    types only at `transcript`."""
    spec, cases = tally
    (hidden,) = [case for case in cases if case.visibility == "hidden"]
    spec_file = tally_project / "specs" / "tally" / "spec.yaml"
    spec_file.write_text(spec_file.read_text(encoding="utf-8")
                         + f"hidden_stages:\n  - {{from: '2000-01-01T00:00:00+00:00', show: {show}}}\n",
                         encoding="utf-8")
    repo = student_repository(tmp_path, "bug-illegal")  # fails the hidden case
    output = tmp_path / "github_output"
    env = {**actions_env(repo, output), "HARNESS_ROOT": str(tally_project)}
    done = harness_cli("classroom", "tally", cwd=repo, env=env)
    assert done.returncode == 1, done.stderr
    report = decoded(output)
    (test,) = [t for t in report["tests"] if t["name"].startswith(hidden.name)]
    assert test["status"] == "fail" and hidden.description in test["message"]
    assert not any(t["name"].startswith("hidden cases") for t in report["tests"])
    assert (test["test_code"] != "") == (show == "transcript")


def test_the_log_is_framed_so_no_output_is_read_as_a_workflow_command(harness_cli, tmp_path, tally):
    done, report = grade_sample(harness_cli, tmp_path, tally, "bug-add", 100)
    lines = done.stdout.strip().splitlines()
    start = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", lines[0])
    assert start and lines[-1] == f"::{start.group(1)}::"
    assert f"Points {classroom_points(report):.2f}/100" in done.stdout


def test_a_harness_failure_is_an_error_with_no_points(harness_cli, tmp_path):
    repo = student_repository(tmp_path, "correct")
    output = tmp_path / "github_output"
    done = harness_cli("classroom", "nosuchgame", cwd=repo, env=actions_env(repo, output))
    assert done.returncode == 2 and done.stderr.startswith("harness: ") and "Traceback" not in done.stderr
    report = decoded(output)
    check_format(report)
    # status error and max_score 0: the reporter fails the job and sends Classroom no "Points" at all
    assert report["status"] == "error" and report["max_score"] == 0
    (test,) = report["tests"]
    assert test["status"] == "error" and "could not grade" in test["message"] and "nosuchgame" in test["message"]


def test_a_grader_failure_on_a_case_reports_no_points(harness_cli, tmp_path, tally, tally_project):
    """A case the reference cannot plan is the harness's failure, not the student's: status
    error, max_score 0 (no Points for Classroom), the case an error test, and every score 0."""
    spec, cases = tally
    odd = unplannable_case(spec, cases, tally_project / "cases" / "tally")
    repo = student_repository(tmp_path, "correct")
    output = tmp_path / "github_output"
    done = harness_cli("classroom", "tally", "--points", 100, cwd=repo,
                       env={**actions_env(repo, output), "HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 2, done.stderr
    report = decoded(output)
    check_format(report)
    assert report["status"] == "error" and report["max_score"] == 0
    assert [t["status"] for t in report["tests"] if t["name"].startswith(odd.name)] == ["error"]
    assert all(t["score"] == 0 for t in report["tests"])
    assert "No points are reported" in done.stdout


def test_no_submission_folder_is_an_error(harness_cli, tmp_path):
    output = tmp_path / "github_output"
    done = harness_cli("classroom", "tally", "--submission", tmp_path / "missing", cwd=tmp_path,
                       env=actions_env(tmp_path, output))
    assert done.returncode == 2 and "no submission folder" in done.stderr
    assert decoded(output)["status"] == "error"


def test_without_github_output_the_result_is_printed(harness_cli, tmp_path):
    repo = student_repository(tmp_path, "correct")
    done = harness_cli("classroom", "tally", "-k", "add-two", cwd=repo,
                       env={"HARNESS_ROOT": str(FIXTURE), "GITHUB_WORKSPACE": str(repo), "GITHUB_OUTPUT": ""})
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    report = json.loads(base64.b64decode(line.removeprefix("result=")))
    assert report["status"] == "pass" and report["max_score"] > 0
    assert classroom_points(report) == pytest.approx(report["max_score"])


@pytest.mark.parametrize("points", ["0", "-5", "lots"])
def test_bad_points_are_refused(harness_cli, tmp_path, points):
    done = harness_cli("classroom", "tally", "--points", points, cwd=tmp_path, env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2 and "is not a number of points" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("folder", [".", "src"])
def test_the_action_script_grades_and_reports(tmp_path, tally, folder):
    """grade.sh, as the action runs it, with this checkout's harness standing for the one it installs;
    the student's files at the repository's root or in the folder the action's `submission` names."""
    spec, cases = tally
    repo = student_repository(tmp_path, "bug-add")
    if folder != ".":
        (repo / folder).mkdir()
        (repo / "tally.py").rename(repo / folder / "tally.py")
    output = tmp_path / "github_output"
    output.write_text("", encoding="utf-8")
    env = {**os.environ, **actions_env(repo, output), "GAME": "tally", "MAX_SCORE": "100", "SUBMISSION": folder,
           "HARNESS_BIN": str(HARNESS)}
    done = subprocess.run(["bash", str(GRADE_SH)], cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    report = decoded(output)
    rule, _ = RULES["bug-add"]
    failing = {case.name for case in cases if rule(spec, case)}
    assert report["status"] == "fail"
    assert classroom_points(report) == pytest.approx(expected_percent(spec, cases, failing), abs=0.01)


def test_the_action_script_reports_an_error_when_the_harness_is_missing(tmp_path):
    output = tmp_path / "github_output"
    env = {**os.environ, "GAME": "tally", "HARNESS_BIN": str(tmp_path / "no-harness"), "GITHUB_OUTPUT": str(output)}
    done = subprocess.run(["bash", str(GRADE_SH)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0  # the step ends normally: the reporter shows the reason and fails the job
    report = decoded(output)
    check_format(report)
    assert report["status"] == "error" and report["max_score"] == 0
    assert "harness is not installed" in report["tests"][0]["message"]


def test_a_large_report_stays_under_what_an_environment_variable_may_hold():
    tests = [classroom._test(f"case-{i}", "fail", 0, "x" * 3900, "> 1", 0.1) for i in range(200)]
    data = {"version": 1, "status": "fail", "max_score": 100, "tests": tests}
    text = classroom.encoded(data)
    assert len(text) <= classroom.ENCODED_LIMIT
    report = json.loads(base64.b64decode(text))
    assert [t["name"] for t in report["tests"]] == [t["name"] for t in tests]  # every test kept, scores too
    assert all("grading step's log" in t["message"] for t in report["tests"])


def test_scores_add_up_to_the_rounded_total():
    values = [100 / 3, 100 / 3, 100 / 3, 0.0]
    scaled = classroom._scaled(values, 100.0)
    assert sum(round(v * 100) for v in scaled) == 10000 and scaled[-1] == 0
    assert all(abs(a - b) < 0.01 for a, b in zip(scaled, values))


# The reporter's own bundled code (dist/main.js at its v1 tag), when CLASSROOM_REPORTER_JS names a
# copy of it: then the report goes through the real reporter, as in a workflow.
REPORTER_JS = os.environ.get("CLASSROOM_REPORTER_JS", "")


@pytest.mark.skipif(not (REPORTER_JS and shutil.which("node")),
                    reason="set CLASSROOM_REPORTER_JS to the autograding reporter's dist/main.js (and install node)")
@pytest.mark.parametrize("game", ["tally", "nosuchgame"])
def test_the_reporter_itself_tells_classroom_the_harness_points(harness_cli, tmp_path, tally, game):
    spec, cases = tally
    repo = student_repository(tmp_path, "bug-add")
    output = tmp_path / "github_output"
    harness_cli("classroom", game, "--points", 100, cwd=repo, env=actions_env(repo, output))
    encoded_report = output.read_text(encoding="utf-8").strip().removeprefix("result=")
    env = {"PATH": os.environ["PATH"], "INPUT_RUNNERS": classroom.STEP_ID, classroom.env_variable(): encoded_report}
    done = subprocess.run(["node", REPORTER_JS], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1  # some case failed, or nothing was graded: the job fails either way
    notices = re.findall(r"^::notice title=Autograding complete::Points (\S+)/(\S+)$", done.stdout, re.M)
    if game == "nosuchgame":  # not graded: no points at all for Classroom
        assert notices == [] and "::error::Some tests errored." in done.stdout
        return
    rule, _ = RULES["bug-add"]
    failing = {case.name for case in cases if rule(spec, case)}
    ((earned, possible),) = notices
    assert float(possible) == 100
    assert float(earned) == pytest.approx(expected_percent(spec, cases, failing), abs=0.01)


# --- the action and the workflow -------------------------------------------------------------

def workflow_steps(document: dict) -> list[dict]:
    (job,) = document["jobs"].values()
    return job["steps"]


def check_workflow(document: dict) -> None:
    """The grading step and the reporter wired as the reporter reads them (its src/main.js:
    `runners` lists step ids; each id's report is in `<ID upper-cased>_RESULTS`)."""
    assert "push" in document["on"]
    steps = workflow_steps(document)
    assert steps[0]["uses"].startswith("actions/checkout@")
    (grading,) = [s for s in steps if str(s.get("uses", "")).split("@")[0].endswith("/github-classroom")]
    assert grading["id"] == classroom.STEP_ID and grading["with"]["game"]
    (reporter,) = [s for s in steps if str(s.get("uses", "")).startswith(REPORTER)]
    assert reporter["with"]["runners"] == grading["id"]
    assert reporter["env"] == {classroom.env_variable(grading["id"]): "${{ steps.%s.outputs.result }}" % grading["id"]}
    assert steps.index(grading) < steps.index(reporter)


def test_the_action_is_a_composite_that_sets_result():
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite" and action["runs"]["steps"]
    assert action["inputs"]["game"]["required"] is True and "max-score" in action["inputs"]
    grade = [s for s in action["runs"]["steps"] if s.get("id") == "grade"]
    assert len(grade) == 1 and "grade.sh" in grade[0]["run"] and grade[0]["shell"] == "bash"
    assert action["outputs"][classroom.OUTPUT]["value"] == "${{ steps.grade.outputs.result }}"
    for step in action["runs"]["steps"]:  # every step of a composite says how it runs
        assert "uses" in step or ("run" in step and "shell" in step)


def test_the_workflow_example_wires_the_reporter_to_the_grading_step():
    check_workflow(yaml.safe_load(WORKFLOW.read_text(encoding="utf-8")))


def test_the_readme_and_the_docs_show_that_workflow():
    for page in (ROOT / "README.md", ROOT / "docs" / "github-classroom.md"):
        blocks = re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        workflows = [yaml.safe_load(b) for b in blocks if "autograding-grading-reporter" in b]
        assert workflows, page
        for document in workflows:  # the file to copy, as it is
            assert document == yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


# --- a course game, built with javac ---------------------------------------------------------

REVERSI_SELECT = "ms2-illegal"  # one item's illegal-move cases, public and hidden
BROKEN_JAVA = 'public class Reversi {\n    public static void main(String[] args) {\n        System.out.println("x")\n    }\n}\n'


def reversi_repository(tmp_path, files: dict | None = None):
    repo = tmp_path / "reversi-repo"
    if files is None:
        shutil.copytree(ROOT / "examples" / "reversi" / "correct-java", repo)
    else:
        repo.mkdir()
        for name, text in files.items():
            (repo / name).write_text(text, encoding="utf-8")
    (repo / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(WORKFLOW, repo / ".github" / "workflows" / "classroom.yml")
    return repo


@pytest.mark.slow
@pytest.mark.parametrize("files", [None, {"Reversi.java": BROKEN_JAVA}], ids=["correct-java", "does-not-compile"])
def test_reversi_in_a_student_repository(harness_cli, tmp_path, files):
    repo = reversi_repository(tmp_path, files)
    output = tmp_path / "github_output"
    env = {"GITHUB_WORKSPACE": str(repo), "GITHUB_OUTPUT": str(output)}
    done = harness_cli("classroom", "reversi", "-k", REVERSI_SELECT, "--points", 40, cwd=repo, env=env)
    report = decoded(output)
    check_format(report)
    assert report["max_score"] == 40
    if files is None:
        assert done.returncode == 0, done.stderr
        assert report["status"] == "pass" and classroom_points(report) == pytest.approx(40)
    else:
        assert done.returncode == 1 and report["status"] == "fail" and classroom_points(report) == 0
        public = [t for t in report["tests"] if not t["name"].startswith("hidden cases")]
        assert public and all("the build failed" in t["message"] for t in public)
        assert "error: ';' expected" in done.stdout  # the compiler's first error, in the step's log
