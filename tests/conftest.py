import atexit
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

# The suite's own cache (built programs, validated cases, the JVM's class-data archive) and its
# own home, made before any harness module or test runs: no test reads or writes the user's
# ~/.cache (a build cached by an earlier grading on this machine never changes a verdict here),
# nor anything else under the user's home (~/.java, ~/.config/dask, a browser's profile). Each
# pytest process (every xdist worker) has its own, removed when it ends; a test that needs a
# cache of its own still sets XDG_CACHE_HOME itself.
_CACHE = tempfile.mkdtemp(prefix="harness-tests-cache-")
_HOME = tempfile.mkdtemp(prefix="harness-tests-home-")
os.environ["XDG_CACHE_HOME"] = _CACHE
os.environ["HOME"] = _HOME
atexit.register(shutil.rmtree, _CACHE, True)
atexit.register(shutil.rmtree, _HOME, True)

from harness.loading import cases as caseload  # noqa: E402 (after the cache and home are set)
from harness.grading import submission as grading  # noqa: E402
from harness.loading import spec as specs  # noqa: E402
from tests.helpers import FIXTURE, ROOT, copy_project, own_game  # noqa: E402

# The fast subset (`pytest -m "not slow" -n auto`, for the edit loop) is the harness tested on the
# fixture game and on its own, in under a minute: every module that takes longer (the course
# games' samples, case suites and references, javac/g++ builds, class gradings, hostile
# programs, fuzzing) says `pytestmark = pytest.mark.slow` at its top, and a long test in a fast
# module is marked `@pytest.mark.slow` itself. Markers are strict (pyproject.toml): a misspelt
# one fails the run.

# The unit subset (`pytest -m unit`, a minute on 2 cores): the tests of these modules, which run
# no program, read no course game's cases through a process and are not marked slow.
UNIT_MODULES = {"test_compare", "test_drawing", "test_facts_by_turn", "test_import_graph", "test_learned_readings",
                "test_owners", "test_readers", "test_safe_text", "test_scoring", "test_suspects", "test_yamlfile",
                "test_csv_cells", "test_languages"}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.module.__name__.rsplit(".", 1)[-1] in UNIT_MODULES and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.unit)


def _env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(extra or {})
    return env


@pytest.fixture
def harness_cli():
    """Run the real `harness` command line; returns the CompletedProcess."""
    def run(*args, cwd=None, input=None, env=None):
        return subprocess.run([sys.executable, "-m", "harness", *map(str, args)], cwd=cwd or ROOT,
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


@pytest.fixture
def tally_project(tmp_path):
    """A copy of the fixture project (its specs, cases and samples) for a test to edit."""
    return copy_project(FIXTURE, tmp_path / "project")


@pytest.fixture
def own_game_project(tmp_path):
    """A project root holding only the instructor's game of tests/own_game/ (a Java reference,
    no Python written), made with `harness new` and finished in YAML: see helpers.own_game."""
    return own_game(tmp_path / "own-project")
