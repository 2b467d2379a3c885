import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# The suite's own cache (built programs, validated cases, the JVM's class-data archive), made
# before any harness module or test runs: no test reads or writes the user's ~/.cache, so a
# build cached by an earlier grading on this machine never changes a verdict here. Each pytest
# process (every xdist worker) has its own, removed when it ends; a test that needs a cache of
# its own still sets XDG_CACHE_HOME itself.
_CACHE = tempfile.mkdtemp(prefix="harness-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

from harness.loading import cases as caseload
from harness.grading import submission as grading
from harness.loading import spec as specs

ROOT = Path(__file__).resolve().parent.parent
# The harness's own test game (tests/fixture/README.md), laid out as a project root.
FIXTURE = Path(__file__).resolve().parent / "fixture"
SAMPLES = FIXTURE / "examples" / "tally"


# The fast subset (`pytest -m "not slow" -n auto`, for the edit loop) is the harness tested on the
# fixture game and on its own, in under a minute. It is an allow-list: every other module is
# marked slow (the course games' samples, case suites and references, javac/g++ builds, class
# gradings, hostile programs, fuzzing), so a new module joins the fast subset only when listed
# here, and a long test inside a fast module is named in SLOW_TESTS (or marked itself).
FAST_MODULES = {
    "test_fixture_grading.py", "test_scoring.py", "test_reports.py", "test_regen.py", "test_runner.py",
    "test_compare.py", "test_safe_text.py", "test_yamlfile.py", "test_intake.py", "test_sandbox.py",
    "test_limits.py", "test_bad_input.py", "test_audit.py", "test_distribution.py", "test_samples.py",
    "test_readers.py",
    "test_budget.py",
}
SLOW_TESTS = {
    "test_bad_input.py::test_broken_spec_names_its_line",  # grades a course game's Java sample
    # gradings of the fixture game with its start's law, topped up to 80 starts each
    "test_distribution.py::test_a_correct_program_passes_the_check_on_its_own_starts_and_the_top_ups",
    "test_distribution.py::test_a_one_to_four_program_loses_the_check_and_only_it",
    "test_distribution.py::test_a_program_drawing_outside_the_law_loses_the_check",
    "test_distribution.py::test_a_setup_case_passed_by_luck_is_settled_by_more_runs",
    "test_samples.py::test_ctrl_c_ends_the_check_and_every_process_it_started",  # waits on a hanging sample
}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.name not in FAST_MODULES or f"{item.path.name}::{item.originalname}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


def _env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(extra or {})
    return env


@pytest.fixture
def harness_cli():
    """Run the real `harness` command line; returns the CompletedProcess."""
    def run(*args, cwd=None, input=None, env=None):
        return subprocess.run([sys.executable, "-m", "harness.cli", *map(str, args)], cwd=cwd or ROOT,
                              env=_env(env), input=input, capture_output=True, text=True, timeout=600)
    return run


@pytest.fixture(scope="session")
def tally():
    """The fixture game's spec and its cases, loaded as the harness loads a course game."""
    spec, milestone = specs.parse_game("tally", FIXTURE)
    return spec, caseload.load_all(spec, milestone)


@pytest.fixture(scope="session")
def grader():
    """One pool of case workers for every test that grades (a pool starts in about a second)."""
    with grading.Grader() as shared:
        yield shared


def unplannable_case(spec, cases, folder: Path):
    """A copy of the fixture's first strategy case asking for a strategy the reference does not know."""
    original = next(c for c in cases if c.strategy is not None)
    broken = folder / f"{original.name}-zigzag.yaml"
    broken.write_text(original.path.read_text(encoding="utf-8").replace(
        f"strategy: {original.strategy['strategy']}", "strategy: zigzag", 1), encoding="utf-8")
    odd = caseload.load_case(broken, spec)
    assert odd.strategy["strategy"] == "zigzag"
    return odd


def alive(pid: int) -> bool:
    """The process exists and has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return False
