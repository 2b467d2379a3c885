"""GitHub Classroom where bubblewrap cannot run (docs/github-classroom.md, "What the action does").

The action's real grade.sh runs with a `bwrap` first on PATH that fails as one does on a runner
that allows no user namespaces. As on Gradescope and PrairieLearn, a grader that is root runs
each program as an unprivileged user of its own and the report says so; a grader that is not
root (GitHub's runners) refuses unless the workflow allows it (`allow-unconfined`), and then
the report says the program ran as the runner's own user."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from harness.platforms import classroom
from tests.helpers import FIXTURE, ROOT, SAMPLES
from tests.test_github_classroom import GRADE_SH, HARNESS, actions_env, decoded

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                                 reason="these runs start the script as root and as another user (setpriv)")]

NOBODY = 65534


@pytest.fixture
def runner():
    """A runner's folders any user may use: the student's repository (the correct sample), the
    step's output file, a home and tools holding the failing `bwrap`."""
    base = Path(tempfile.mkdtemp(prefix="classroom-runner-"))
    try:
        repo = base / "repo"
        shutil.copytree(SAMPLES / "correct", repo)
        tools = base / "tools"
        tools.mkdir()
        (tools / "bwrap").write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
        (tools / "home").mkdir()
        output = base / "github_output"
        output.write_text("", encoding="utf-8")
        for path in [base, *base.rglob("*")]:
            os.lchown(path, NOBODY, NOBODY)
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() or path.name == "bwrap" else 0o644)
        yield base, repo, tools, output
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _grade_sh(base, repo, tools, output, *, as_nobody: bool, allow: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, **actions_env(repo, output), "GAME": "tally", "MAX_SCORE": "100",
           "HARNESS_BIN": str(HARNESS), "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    if allow is not None:
        env["ALLOW_UNCONFINED"] = allow
    command = ["bash", str(GRADE_SH)]
    if as_nobody:  # GitHub's runner user: not root
        env.update(HOME=str(tools / "home"), XDG_CACHE_HOME=str(tools / "home" / ".cache"), PYTHONPATH=str(ROOT))
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def _others_can_read_the_action() -> bool:
    """grade.sh as another user reads it: not where the checkout sits in a folder only its owner enters."""
    return subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "test", "-r",
                           str(GRADE_SH)], capture_output=True, cwd="/").returncode == 0


@pytest.mark.skipif(not _others_can_read_the_action(), reason="this checkout is not readable by another user")
def test_not_root_without_bubblewrap_refuses_unless_the_workflow_allows_it(runner):
    base, repo, tools, output = runner
    done = _grade_sh(base, repo, tools, output, as_nobody=True, allow=None)
    assert done.returncode == 0, done.stderr  # the step ends normally: the reporter fails the job
    report = decoded(output)
    assert report["status"] == "error" and report["max_score"] == 0
    message = report["tests"][0]["message"]
    assert "bubblewrap cannot make its namespaces" in message and "allow-unconfined: true" in message


def _others_can_run_python() -> bool:
    """The harness started by a shell of another user, as grade.sh starts it."""
    return subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "bash", "-c",
                           '"$0" --version', str(HARNESS)], capture_output=True, cwd="/").returncode == 0


@pytest.mark.skipif(not _others_can_run_python(), reason="this machine's Python is not usable by another user")
def test_allowed_unconfined_as_the_runner_s_user_the_report_says_so(runner):
    base, repo, tools, output = runner
    done = _grade_sh(base, repo, tools, output, as_nobody=True, allow="true")
    assert done.returncode == 0, done.stderr
    assert "as the runner's own user" in done.stdout
    report = decoded(output)
    first = report["tests"][0]
    assert first["name"].startswith(classroom.UNCONFINED) and first["score"] == 0
    assert "with the grader's rights" in first["name"]
    assert report["status"] == "pass" and report["max_score"] == 100  # the correct sample: every case passed


def test_as_root_without_bubblewrap_each_run_is_an_unprivileged_user_and_the_report_says_so(runner):
    base, repo, tools, output = runner
    done = _grade_sh(base, repo, tools, output, as_nobody=False, allow=None)
    assert done.returncode == 0, done.stderr
    assert "each run as an unprivileged user" in done.stdout
    report = decoded(output)
    first = report["tests"][0]
    assert first["name"].startswith(classroom.UNCONFINED) and "unprivileged uid" in first["name"]
    assert report["status"] == "pass"


def test_switched_off_the_report_says_the_program_had_the_grader_s_rights(harness_cli, tmp_path):
    """`harness classroom` itself, the sandbox switched off (as the runner's own user would run it)."""
    output = tmp_path / "github_output"
    output.write_text("", encoding="utf-8")
    done = harness_cli("classroom", "tally", "--submission", str(SAMPLES / "correct"), "--output", str(output),
                       "--no-sandbox", env={"HARNESS_ROOT": str(FIXTURE), "HARNESS_SANDBOX": "off"})
    assert done.returncode == 0, done.stderr
    first = decoded(output)["tests"][0]
    assert first["name"] == f"{classroom.UNCONFINED} (submissions run with the grader's rights)"
    assert first["status"] == "pass" and first["score"] == 0 and "ran unconfined" in first["message"]
    assert f"PASS  {first['name']}" in done.stdout  # the step's log says it too


def test_with_bubblewrap_nothing_is_said(harness_cli, tmp_path):
    """The note is only where the program ran unconfined."""
    output = tmp_path / "github_output"
    output.write_text("", encoding="utf-8")
    done = harness_cli("classroom", "tally", "--submission", str(SAMPLES / "correct"), "--output", str(output),
                       env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 0, done.stderr
    assert not any(test["name"].startswith(classroom.UNCONFINED) for test in decoded(output)["tests"])
