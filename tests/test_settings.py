"""The HARNESS_* settings: read once by a command's front door and passed down.

Each test sets the variables in the environment of a real command (or hands `config.load` an
environment of its own) and shows what the command did with them; none relies on this test
process's own environment."""
import json
import pickle
import re
from pathlib import Path

import pytest

from harness.building import build as builder
from harness.grading import submission as grading
from harness.loading import config
from harness.loading import spec as specs
from harness.running import sandbox
from tests.helpers import FIXTURE, ROOT, SAMPLES, run_pytest

HARNESS = ROOT / "harness"
BAD = {"HARNESS_JOBS": ("abc", "HARNESS_JOBS='abc' is not a number of workers"),
       "HARNESS_SANDBOX": ("maybe", "HARNESS_SANDBOX='maybe' is not a setting; use auto"),
       "HARNESS_NO_CDS": ("perhaps", "HARNESS_NO_CDS='perhaps' is not a yes/no setting"),
       "HARNESS_ROOT": ("/nonexistent-folder", "HARNESS_ROOT='/nonexistent-folder' has no specs/ folder")}


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _first_case(game: str, root: Path) -> str:
    return sorted((root / "cases" / game).glob("*.yaml"))[0].stem


# --- only the front doors read them -----------------------------------------------------------

def test_only_the_front_doors_read_the_settings():
    """`config.load()` is called by the command line's `main` and the pytest plugin's session
    alone (the platforms and `harness serve` are reached through `main`); nothing in the
    pipeline reads the environment for a setting."""
    callers = sorted(path.relative_to(HARNESS).as_posix() for path in HARNESS.rglob("*.py")
                     if re.search(r"(?<!`)\bconfig\.load\(", path.read_text(encoding="utf-8")))
    assert callers == ["cli.py", "plugin/session.py"]


def test_a_grader_takes_its_settings_as_given():
    """Real objects, no environment: the case workers, the builds' sandbox and what a case
    worker gets of it with its job come from the settings handed to them."""
    given = config.load({"HARNESS_JOBS": "3", "HARNESS_SANDBOX": "off"})
    assert grading.workers(None, given) == 3 and grading.workers(5, given) == 5
    with grading.Grader(settings=given) as grader:
        assert grader.jobs == 3 and grader.compiler.sandbox_setting == "off"
    spec, _ = specs.parse_game("tally", FIXTURE)
    built = builder.build(SAMPLES / "correct", spec, "game", settings=given)
    try:
        assert built.ok and not built.sandboxed
        travelled = pickle.loads(pickle.dumps(built))  # as a job reaches a case worker
        assert travelled.sandbox_setting == "off"
    finally:
        builder.cleanup(built)


def test_the_settings_root_finds_the_specs():
    """HARNESS_ROOT as read into the settings decides where specs are found; no setting means
    the checkout."""
    assert specs.games(config.load({"HARNESS_ROOT": str(FIXTURE)}).root) == ["tally"]
    assert "tally" not in specs.games(config.load({}).root)


# --- a command uses the settings of its environment ---------------------------------------------

def test_grade_uses_harness_root_and_harness_sandbox_from_its_environment(harness_cli, tmp_path):
    """The fixture game exists only under tests/fixture: found, the command used HARNESS_ROOT.
    HARNESS_SANDBOX=off: the report says no sandbox; without it, bubblewrap wherever it works."""
    case = _first_case("tally", FIXTURE)
    off = harness_cli("grade", "tally", SAMPLES / "correct", "-o", tmp_path / "off", "-k", case, "-q",
                      env={"HARNESS_ROOT": str(FIXTURE), "HARNESS_SANDBOX": "off"})
    assert off.returncode == 0, off.stderr
    result = json.loads((tmp_path / "off" / "correct" / "result.json").read_text(encoding="utf-8"))
    assert (result["sandbox"], [c["status"] for c in result["cases"]]) == ("none", ["passed"])
    if not sandbox.works():
        return
    auto = harness_cli("grade", "tally", SAMPLES / "correct", "-o", tmp_path / "auto", "-k", case, "-q",
                       env={"HARNESS_ROOT": str(FIXTURE), "HARNESS_SANDBOX": "auto"})
    assert auto.returncode == 0, auto.stderr
    result = json.loads((tmp_path / "auto" / "correct" / "result.json").read_text(encoding="utf-8"))
    assert result["sandbox"] == "bubblewrap"


@pytest.mark.skipif(not Path("/usr/bin/javac").exists() and not Path("/usr/local/bin/javac").exists(),
                    reason="no JDK")
def test_harness_no_cds_reaches_the_java_build(harness_cli, tmp_path):
    """A Java run makes the JDK's class-data archive in the user's cache, unless HARNESS_NO_CDS=1
    is in the command's environment."""
    game, sample = "silver-dollar", ROOT / "examples" / "silver-dollar" / "correct-java"
    case = _first_case(game, ROOT)
    runs = {}
    for name, extra in (("without", {"HARNESS_NO_CDS": "1"}), ("with", {})):
        cache = tmp_path / name
        done = harness_cli("run", game, sample, "-k", case, env={"XDG_CACHE_HOME": str(cache), **extra})
        assert done.returncode == 0, done.stdout + done.stderr
        runs[name] = sorted(p.name for p in (cache / "game-harness").glob("jdk-*.jsa"))
    assert runs["without"] == [] and len(runs["with"]) == 1


# --- a bad value stops the command: one line, exit 2 -----------------------------------------------

@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_setting_stops_run_with_one_line(harness_cli, name):
    value, says = BAD[name]
    done = harness_cli("run", "tally", SAMPLES / "correct", env={"HARNESS_ROOT": str(FIXTURE), name: value})
    assert done.returncode == 2 and done.stdout == ""
    assert _one_line(done.stderr).startswith(f"harness: {says}")


def test_a_bad_setting_stops_a_platform_with_one_line(harness_cli, tmp_path):
    """The platforms get the settings from the command's front door: a bad one is its one line."""
    value, says = BAD["HARNESS_SANDBOX"]
    done = harness_cli("gradescope", "tally", "--submission", SAMPLES / "correct", "--results", tmp_path / "r.json",
                       env={"HARNESS_ROOT": str(FIXTURE), "HARNESS_SANDBOX": value})
    assert done.returncode == 2
    assert _one_line(done.stderr).startswith(f"harness: {says}")


def test_help_still_works_with_a_bad_root_and_says_so(harness_cli):
    value, says = BAD["HARNESS_ROOT"]
    done = harness_cli("--help", env={"HARNESS_ROOT": value})
    assert done.returncode == 0
    assert says in " ".join(done.stdout.split())


def test_the_pytest_plugin_stops_on_a_bad_setting_before_collecting(tmp_path):
    value, says = BAD["HARNESS_JOBS"]
    done = run_pytest(tmp_path, "--game", "tally", "--submission", SAMPLES / "correct", env={"HARNESS_JOBS": value})
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    assert says in done.stderr and "Traceback" not in done.stderr
    assert "collected" not in done.stdout


def test_a_cluster_worker_gets_the_callers_sandbox_but_sizes_its_own_pool():
    """What travels to a cluster's workers: the caller's sandbox and JVM-archive settings, but not
    its number of case workers (set for the caller's cores) nor its project root (a path on its disk)."""
    from harness.classes import cluster

    caller = config.load({"HARNESS_SANDBOX": "off", "HARNESS_NO_CDS": "1", "HARNESS_JOBS": "3"})
    sent = cluster.for_workers(caller)
    assert (sent.sandbox, sent.no_cds) == (caller.sandbox, caller.no_cds) == ("off", True)
    assert sent.jobs is None and sent.root is None
