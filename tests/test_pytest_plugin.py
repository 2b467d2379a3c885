"""The pytest plugin (harness/plugin/pytest_plugin.py), run as a user runs it: a real pytest in a
subprocess, on the fixture game, against the fixture's samples.

What each run must show comes from the cases (their files, rubric items, visibility) and from
the harness grading the same sample in this process: the plugin must agree with the harness,
case by case.
"""
import io
import re
import shutil
import subprocess

import pytest

from harness.building import build as builder
from harness.loading import cases as caseload
from harness.reporting import terminal
from harness.results import PASSED
from tests.helpers import FIXTURE, SAMPLES, outcomes, run_pytest, unplannable_case

pytestmark = pytest.mark.slow  # real pytest runs of the fixture game's cases

def node_id(case) -> str:
    return f"cases/{case.path.parent.name}/{case.path.name}::{case.name}"


def failure_sections(done: subprocess.CompletedProcess) -> str:
    """The report's failure sections alone: the short summary after them repeats each message,
    whole where pytest thinks it runs on CI (`CI` set), cut to the terminal's width elsewhere."""
    return done.stdout.split("short test summary info", 1)[0]


def collected(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stdout.splitlines() if "::" in line]


@pytest.fixture(scope="module")
def bug_add(tally, grader):
    """The harness's own grading of a buggy sample: the verdicts the plugin must reproduce."""
    spec, cases = tally
    result = grader.grade(spec, None, cases, SAMPLES / "bug-add")
    failing = {c.name for c in result.cases if c.status != PASSED}
    assert failing and len(failing) < len(cases)  # the sample fails some cases, not all
    return result


@pytest.fixture(scope="module")
def bug_add_run(tmp_path_factory):
    """One serial pytest run over the buggy sample, its cache kept for --lf."""
    tmp = tmp_path_factory.mktemp("bug-add")
    return tmp, run_pytest(tmp, "--game", "tally", "--submission", SAMPLES / "bug-add", "-rA")


def test_without_game_the_plugin_changes_nothing(tmp_path):
    (tmp_path / "test_plain.py").write_text(
        "import sys\n"
        "def test_plain():\n"
        "    assert 'harness.plugin.pytest_plugin' in sys.modules  # the plugin is loaded\n"
        "    assert not [m for m in sys.modules if m.startswith('harness.') and m not in ('harness.plugin', 'harness.plugin.pytest_plugin')]  # its package: a docstring\n",
        encoding="utf-8")
    shutil.copy(next(FIXTURE.glob("cases/tally/*.yaml")), tmp_path / "case.yaml")  # a case file is no test
    done = run_pytest(tmp_path, tmp_path, "-rA")
    assert done.returncode == 0, done.stdout + done.stderr
    assert outcomes(done) == {"test_plain.py::test_plain": "PASSED"}


@pytest.mark.parametrize("args, says", [
    (["--game", "no-such-game", "--submission", SAMPLES / "correct"], "unknown game 'no-such-game'"),
    (["--game", "tally", "--submission", SAMPLES / "no-such-sample"], "--submission: no such file or folder"),
    (["--submission", SAMPLES / "correct"], "--submission needs --game GAME"),
    (["--game", "tally"], "--game tally needs --submission PATH"),
])
def test_a_misuse_is_one_usage_error(tmp_path, args, says):
    done = run_pytest(tmp_path, *args)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1 and says in errors[0], done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_correct_sample_passes_every_case(tmp_path, tally):
    spec, cases = tally
    files = caseload.case_files(spec)
    assert len(cases) == len(files)  # one item per case file
    temporary = tmp_path / "tmp"  # where the build folder is made
    temporary.mkdir()
    done = run_pytest(tmp_path, "--game", "tally", "--submission", SAMPLES / "correct", "-rA", "-v",
                      env={"TMPDIR": str(temporary)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert not list(temporary.glob("harness-build-*"))  # removed when pytest ended
    assert outcomes(done) == {node_id(c): "PASSED" for c in cases}
    for case in cases:  # -v: one line per case, its node id and its verdict
        assert re.search(rf"^{re.escape(node_id(case))} PASSED", done.stdout, re.M), done.stdout


def test_a_buggy_sample_fails_exactly_the_cases_the_harness_fails(tally, bug_add, bug_add_run):
    spec, cases = tally
    _, done = bug_add_run
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    expected = {node_id(c): "PASSED" if r.passed else "FAILED" for c, r in zip(cases, bug_add.cases)}
    assert outcomes(done) == expected


def test_a_failure_shows_the_first_divergent_turn(bug_add, bug_add_run):
    _, done = bug_add_run
    shown = io.StringIO()
    terminal.explain_failures(bug_add, shown, every=True)
    # the turn where each failure first differs (the text around it follows the start drawn)
    firsts = [line.strip() for line in shown.getvalue().splitlines() if ": first difference " in line]
    assert len(firsts) == sum(1 for c in bug_add.cases if c.status == "failed" and c.first_divergence is not None)
    assert firsts
    for line in firsts:
        assert line in done.stdout, done.stdout
    for case in bug_add.cases:
        if not case.passed:
            said = f"FAIL {case.name} [{case.rubric}]: "  # the place as the student counts it, never a turn's number
            assert f"{said}after your " in done.stdout or f"{said}before your first input" in done.stdout, done.stdout
    details = failure_sections(done)
    assert details.count("--- expected:") == details.count("--- got:") == len(firsts)


def test_last_failed_reruns_only_the_failures(tally, bug_add, bug_add_run):
    spec, cases = tally
    tmp, _ = bug_add_run
    done = run_pytest(tmp, "--game", "tally", "--submission", SAMPLES / "bug-add", "-rA", "--lf")
    assert outcomes(done) == {node_id(c): "FAILED" for c, r in zip(cases, bug_add.cases) if not r.passed}
    assert "run-last-failure" in done.stdout


def test_x_stops_at_the_first_failure(tmp_path, tally, bug_add):
    spec, cases = tally
    first = next(i for i, r in enumerate(bug_add.cases) if not r.passed)
    done = run_pytest(tmp_path, "--game", "tally", "--submission", SAMPLES / "bug-add", "-rA", "-x")
    expected = {node_id(c): "PASSED" if r.passed else "FAILED" for c, r in zip(cases[:first + 1], bug_add.cases)}
    assert outcomes(done) == expected
    assert "stopping after 1 failures" in done.stdout


def test_xdist_gives_the_same_outcome(tmp_path, bug_add_run):
    _, serial = bug_add_run
    done = run_pytest(tmp_path, "--game", "tally", "--submission", SAMPLES / "bug-add", "-rA", "-n", "2")
    assert "2 workers" in done.stdout, done.stdout
    assert outcomes(done) == outcomes(serial) and outcomes(serial)


@pytest.fixture
def renamed(tmp_path, tally):
    """A copy of the fixture whose case files are named case-1, case-2, ...: a rubric item or a
    visibility can then select a case only through its keywords, never through its name."""
    spec, cases = tally
    root = tmp_path / "project"
    shutil.copytree(FIXTURE / "specs", root / "specs")
    folder = root / "cases" / "tally"
    folder.mkdir(parents=True)
    names = {}
    for number, case in enumerate(cases, 1):
        shutil.copy(case.path, folder / f"case-{number}.yaml")
        names[f"case-{number}"] = case
    return root, names


def test_minus_k_selects_by_rubric_item_and_visibility(tmp_path, renamed):
    root, names = renamed
    item = "setup"
    assert item not in str(tmp_path)  # the keyword must not be in a folder's name
    for select, chosen in ((item, lambda c: c.rubric == item), ("hidden", lambda c: c.visibility == "hidden")):
        done = run_pytest(tmp_path / select, "--game", "tally", "--submission", SAMPLES / "correct",
                          "--collect-only", "-q", "-k", select, root=root)
        expected = sorted(f"cases/tally/{n}.yaml::{n}" for n, c in names.items() if chosen(c))
        assert expected and len(expected) < len(names)
        assert collected(done) == expected, done.stdout + done.stderr


def test_public_only_collects_the_public_cases(tmp_path, tally):
    spec, cases = tally
    done = run_pytest(tmp_path, "--game", "tally", "--submission", SAMPLES / "correct", "--collect-only", "-q",
                      "--public-only")
    expected = [node_id(c) for c in cases if c.visibility == "public"]
    assert 0 < len(expected) < len(cases)
    assert collected(done) == expected, done.stdout + done.stderr


def test_a_harness_failure_is_an_error_and_the_others_still_run(tmp_path, tally, renamed):
    spec, cases = tally
    root, names = renamed
    odd = unplannable_case(spec, cases, root / "cases" / "tally")
    setup = next(n for n, c in names.items() if c.rubric == "setup")
    done = run_pytest(tmp_path / "run", "--game", "tally", "--submission", SAMPLES / "correct", "-rA",
                      "-k", f"{odd.name} or {setup}", root=root)
    assert outcomes(done) == {f"cases/tally/{odd.path.name}::{odd.name}": "ERROR",
                              f"cases/tally/{setup}.yaml::{setup}": "PASSED"}, done.stdout
    assert "the harness failed on this case" in done.stdout and "zigzag" in done.stdout


def test_a_failed_build_fails_every_case_with_the_compilers_first_error(tmp_path, tally):
    spec, cases = tally
    broken = tmp_path / "broken"
    broken.mkdir()
    source = (SAMPLES / "correct-cpp" / "tally.cpp").read_text(encoding="utf-8")
    (broken / "tally.cpp").write_text(source.replace("int main", "int main missing_semicolon", 1), encoding="utf-8")
    built = builder.build(broken, spec, next(iter(spec.targets)))
    builder.cleanup(built)
    assert not built.ok and built.diagnosis
    done = run_pytest(tmp_path / "run", "--game", "tally", "--submission", broken, "-rA")
    assert outcomes(done) == {node_id(c): "FAILED" for c in cases}
    assert failure_sections(done).count(built.reason) == len(cases)
    assert built.diagnosis.splitlines()[0].strip() in done.stdout
