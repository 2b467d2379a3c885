"""Hidden cases are marked in the instructor's reports, and each report folder holds a student's
copy (report-student.html) with nothing of them but their count and points. Graded with the real
`harness grade` on a copy of the fixture project given a second hidden case whose name,
description, typed word and last expected line no public case has (the public cases that end
the game add 1 at a time: 5 to 9 turns); the copy is also opened in
headless Chromium. Expected numbers come from the spec's weights and the cases, never a run."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.running import sandbox
from tests.helpers import CHARGED, RULES, ROOT, SAMPLES, FIXTURE, copy_project, expected_percent

SECRET = "secret-overshoot-probe"
SECRET_WORD = "xyzzyplugh"  # typed by the new hidden case only
SECRET_DESCRIPTION = "Quietly checks that three 3s overshoot the goal"
SECRET_LINES = ("Done in 2 turns", "Done in 3 turns")  # three 3s from a start of 1-5; a public case adds 1s only
# the reference's transcript from the fixture's default start, 2 (cases without a seed)
SECRET_CASE = f"""description: {SECRET_DESCRIPTION}
rubric: end
visibility: hidden
inputs: ["{SECRET_WORD}", "3", "3", "3"]
expect:
  exit: 0
  transcript:
    - out: |-
        Start: 2
        Add? 
    - in: {SECRET_WORD}
    - out: |-
        Illegal!
        Add? 
    - in: '3'
    - out: |-
        Now 5
        Add? 
    - in: '3'
    - out: |-
        Now 8
        Add? 
    - in: '3'
    - out: |
        Now 11
        {SECRET_LINES[1]}
"""
CLASS = ("correct", "bug-crash")  # bug-crash fails both hidden cases (a word ends it)
HIDDEN_MARK = "hidden: not shown to students"


def shown(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = copy_project(FIXTURE, tmp_path_factory.mktemp("student") / "project")
    (root / "cases" / "tally" / f"{SECRET}.yaml").write_text(SECRET_CASE, encoding="utf-8")
    spec, milestone = specs.parse_game("tally", root)
    cases = caseload.load_all(spec, milestone)
    hidden = [c for c in cases if c.visibility == "hidden"]
    assert {c.name for c in hidden} >= {SECRET} and len(hidden) >= 2
    public = [c for c in cases if c.visibility == "public"]
    assert not any(SECRET_WORD in line for c in public for line in c.prefix)
    return root, spec, cases


def grade(root, out, *submissions) -> subprocess.CompletedProcess:
    unconfined = [] if sandbox.available() else ["--no-sandbox"]
    return subprocess.run([sys.executable, "-m", "harness", "grade", "tally", *map(str, submissions), "-o", str(out),
                           "-v", "--color", "never", *unconfined], cwd=ROOT,
                          env={**os.environ, "HARNESS_ROOT": str(root)}, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def graded(project):
    root, spec, cases = project
    for name in CLASS:
        shutil.copytree(SAMPLES / name, root.parent / "class" / name)
    done = grade(root, root.parent / "out", root.parent / "class")
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout, root.parent / "out"


def secrets(cases) -> list[str]:
    """What no student's copy may hold of a hidden case: its name, description and (for the new
    one, whose words are its own) its typed word and last expected line."""
    found = [SECRET_WORD, *SECRET_LINES]
    for case in cases:
        if case.visibility == "hidden":
            found += [case.name, case.description]
    return found


def test_the_instructor_s_report_marks_each_hidden_case_and_points_to_the_student_s_copy(project, graded):
    _, spec, cases = project
    _, out = graded
    for sample in CLASS:
        text = (out / sample / "report.html").read_text(encoding="utf-8")
        for case in cases:
            summary = re.search(rf'<details class="case" id="{re.escape(case.name)}".*?</summary>', text, re.S)[0]
            assert (f'<span class="badge hidden">{HIDDEN_MARK}</span>' in summary) == (case.visibility == "hidden")
        hidden = sum(c.visibility == "hidden" for c in cases)
        assert f"{hidden} cases are hidden from students (marked below)" in text
        assert '<a href="report-student.html">report-student.html</a>' in text
        # the instructor sees the hidden cases in full
        assert all(secret in text for secret in secrets(cases) if secret not in SECRET_LINES)
        assert any(line in text for line in SECRET_LINES)


def test_the_terminal_marks_each_hidden_case(project, graded):
    _, _, cases = project
    out, _ = graded
    for case in cases:
        lines = [line for line in out.splitlines() if re.match(rf"\s+\S+ {re.escape(case.name)} \[", line)]
        assert len(lines) == len(CLASS)
        assert all((f"({HIDDEN_MARK})" in line) == (case.visibility == "hidden") for line in lines)


@pytest.mark.parametrize("sample", CLASS)
def test_the_student_s_copy_holds_nothing_of_a_hidden_case_but_its_count_and_points(project, graded, sample):
    _, spec, cases = project
    _, out = graded
    text = (out / sample / "report-student.html").read_text(encoding="utf-8")
    for secret in secrets(cases):
        assert secret not in text, secret
    assert HIDDEN_MARK not in text and 'class="badge hidden"' not in text
    public = [c for c in cases if c.visibility == "public"]
    assert set(re.findall(r'<details class="case" id="([^"]+)"', text)) == {c.name for c in public}
    # the hidden cases' points by the rubric: each item's weight times their share of its case points
    weight = {item.id: item.points for item in spec.rubric if item.graded}
    per_item = {}
    for case in cases:
        per_item[case.rubric] = per_item.get(case.rubric, 0) + case.points
    points = sum(weight[c.rubric] * c.points / per_item[c.rubric] for c in cases if c.visibility == "hidden")
    hidden = len(cases) - len(public)
    assert (f"The grade also counts {hidden} hidden cases, worth {shown(points)} of its "
            f"{shown(sum(weight.values()))} points, not shown here.") in text


@pytest.mark.parametrize("sample", CLASS)
def test_the_student_s_copy_is_scored_on_the_public_cases_alone(project, graded, sample):
    """As the self-check service's student view scores them: each item over its public cases."""
    _, spec, cases = project
    _, out = graded
    public = [c for c in cases if c.visibility == "public"]
    fails, _ = RULES[sample]
    failing = {c.name for c in public if fails(spec, c)}
    percent = expected_percent(spec, public, failing, CHARGED.get(sample))
    text = (out / sample / "report-student.html").read_text(encoding="utf-8")
    assert f"= {percent:.1f} % on the public cases</strong> (not the grade" in text  # never shown as the grade
    assert f"{len(public) - len(failing)} of {len(public)} cases passed" in text
    # the instructor's report is scored on every case
    whole = json.loads((out / sample / "result.json").read_text(encoding="utf-8"))
    every_failing = {c.name for c in cases if fails(spec, c)}
    assert whole["percent"] == pytest.approx(expected_percent(spec, cases, every_failing, CHARGED.get(sample)), abs=0.01)


def test_one_submission_graded_alone_gets_its_student_s_copy_too(project, tmp_path):
    root, _, cases = project
    done = grade(root, tmp_path / "out", SAMPLES / "bug-crash")
    assert done.returncode == 1, done.stdout + done.stderr
    copy = tmp_path / "out" / "bug-crash" / "report-student.html"
    text = copy.read_text(encoding="utf-8")
    assert all(secret not in text for secret in secrets(cases))
    assert 'id="hidden-cases"' in text


def _browser() -> str | None:
    return next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(name)), None)


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_the_student_s_copy_renders_in_a_browser_with_the_hidden_count(project, graded, tmp_path):
    _, _, cases = project
    _, out = graded
    page = out / "bug-crash" / "report-student.html"
    common = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
              "--enable-logging=stderr", "--v=0"]
    shot = tmp_path / "student.png"
    taken = subprocess.run([*common, f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
                           capture_output=True, text=True, timeout=120)
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", taken.stderr[-2000:]
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    hidden = sum(c.visibility == "hidden" for c in cases)
    note = re.search(r'<p class="student-copy" id="hidden-cases">(.*?)</p>', dom.stdout, re.S)
    assert note and f"The grade also counts {hidden} hidden cases" in note[1], dom.stdout[:2000]
    public = [c for c in cases if c.visibility == "public"]
    assert len(re.findall(r'<details class="case"', dom.stdout)) == len(public)
    assert all(secret not in dom.stdout for secret in secrets(cases))
    for log in (taken.stderr, dom.stderr):
        assert [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line] == []
