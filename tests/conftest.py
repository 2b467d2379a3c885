import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import cases as caseload
from harness import grading
from harness import spec as specs

ROOT = Path(__file__).resolve().parent.parent
# The harness's own test game (tests/fixture/README.md), laid out as a project root.
FIXTURE = Path(__file__).resolve().parent / "fixture"
SAMPLES = FIXTURE / "samples"


# The fast subset (`pytest -m "not slow"`, the edit loop's) is the harness tested on the fixture
# game and on its own; it leaves out what takes minutes: the course games' samples, case suites
# and references, builds with javac or g++, hostile programs run to their limits, property-based
# fuzzing. Whole modules here, single tests below; a test may also carry @pytest.mark.slow.
SLOW_MODULES = {
    "test_examples.py", "test_case_suites.py", "test_reversi_end_to_end.py", "test_silver_dollar_grading.py",
    "test_strings_and_coins_grading.py", "test_reference_connect.py", "test_reference_flip.py",
    "test_reference_silver_dollar.py", "test_reference_strings_and_coins.py", "test_jrandom.py",
    "test_build.py", "test_adversarial.py", "test_fuzz.py",
}
SLOW_TESTS = {
    "test_bad_input.py::test_broken_spec_names_its_line",  # grades a course game's Java sample
}


def pytest_collection_modifyitems(items):
    for item in items:
        name = f"{item.path.name}::{item.originalname}"
        if item.path.name in SLOW_MODULES or name in SLOW_TESTS:
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
