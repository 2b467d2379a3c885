"""A regrade keeps the check of the random starts' law: a program whose starts break the law
keeps losing its points when only some cases are run again. The check's result is told from the
cases by its typed origin (results.Origin), and no case file may take its name.

The project is a copy of the fixture game (Tally) whose spec adds the law the handout's die
gives the start (each of 1-5 alike), checked on the runs of setup-start; the program is the
correct sample but for its start, which is always 4: every case passes (each is graded from the
reference re-run from 4), and the law fails.
"""
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.results import LAW_CHECK_NAME
from tests.helpers import FIXTURE, SAMPLES, copy_project, expected_percent

pytestmark = pytest.mark.slow  # a class graded, then regraded twice

LAW = """  distribution:           # the die's law: each start from 1 to 5 alike
    expect: {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    least: 12
    case: setup-start
    points: 3
"""


def project(tmp: Path) -> Path:
    root = copy_project(FIXTURE, tmp / "project", parts=("specs", "cases"))
    spec = root / "specs" / "tally" / "spec.yaml"
    lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("  seed: 1"))
    spec.write_text("".join(lines[:at + 1]) + LAW + "".join(lines[at + 1:]), encoding="utf-8")
    return root


def always_four(folder: Path) -> Path:
    folder.mkdir(parents=True)
    game = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
    assert game.count("random.randint(1, 6)") == 2
    (folder / "tally.py").write_text(game.replace("random.randint(1, 6)", "4"), encoding="utf-8")
    return folder


def grade(root: Path, submissions: Path, reports: Path, *extra) -> subprocess.CompletedProcess:
    env = {**os.environ, "HARNESS_ROOT": str(root)}
    return subprocess.run([sys.executable, "-m", "harness", "grade", "tally", str(submissions / "mallory"), "-o", str(reports),
                           *extra], env=env, capture_output=True, text=True, timeout=900)


def touch(case: Path) -> None:
    """A change to a case file that changes no verdict: its description."""
    text = case.read_text(encoding="utf-8")
    case.write_text(text.replace("description: ", "description: (edited) ", 1), encoding="utf-8")


def test_a_regrade_keeps_or_reruns_the_law_check(tmp_path):
    root = project(tmp_path)
    submissions = tmp_path / "submissions"
    always_four(submissions / "mallory")
    reports = tmp_path / "reports"
    spec, _ = specs.parse_game("tally", root)
    cases = caseload.load_all(spec, None)
    law = spec.random_start.law
    check = types.SimpleNamespace(name=LAW_CHECK_NAME, rubric=law.rubric, points=law.points)
    percent = expected_percent(spec, [*cases, check], {LAW_CHECK_NAME})
    assert percent < 100

    def graded() -> dict:
        result = json.loads((reports / "mallory" / "result.json").read_text(encoding="utf-8"))
        statuses = {c["name"]: c["status"] for c in result["cases"]}
        assert statuses == {**{c.name: "passed" for c in cases}, LAW_CHECK_NAME: "failed"}, \
            [(c["name"], c["reason"]) for c in result["cases"] if c["status"] != "passed"]
        assert [c["origin"] for c in result["cases"] if c["name"] == LAW_CHECK_NAME] == ["law-check"]
        assert result["percent"] == pytest.approx(percent, abs=0.01)
        return result

    done = grade(root, submissions, reports)
    assert done.returncode == 1, done.stderr
    graded()
    # a case the law does not look at changes: only it runs again, the check is kept
    touch(root / "cases" / "tally" / "add-two.yaml")
    done = grade(root, submissions, reports)
    assert done.returncode == 1, done.stderr
    assert "regrad" in done.stdout + done.stderr
    graded()
    # the law's own case changes: the check runs again with it
    touch(root / "cases" / "tally" / f"{law.case}.yaml")
    done = grade(root, submissions, reports)
    assert done.returncode == 1, done.stderr
    graded()


def test_a_case_cannot_take_the_law_checks_name(tmp_path, harness_cli):
    root = copy_project(FIXTURE, tmp_path / "project", parts=("specs", "cases"))
    named = root / "cases" / "tally" / f"{LAW_CHECK_NAME}.yaml"
    named.write_text((root / "cases" / "tally" / "add-two.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    done = harness_cli("grade", "tally", SAMPLES / "correct", "-o", tmp_path / "reports", env={"HARNESS_ROOT": str(root)})
    assert done.returncode == 2
    assert done.stderr.startswith(f"harness: {named}:1: ") and done.stderr.count("\n") == 1, done.stderr
    assert LAW_CHECK_NAME in done.stderr and "rename" in done.stderr
