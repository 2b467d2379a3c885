"""A class graded on a real Dask cluster (a scheduler and two workers started here, on this
machine) gets exactly the grades the same class gets on this machine, both workers take part,
and a wrong address is one line and exit 2. The class is the fixture game's samples; what
each must lose comes from the fixture game's rules (tests/helpers.py)."""
import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, RULES, SAMPLES, dask_cluster, free_port

pytestmark = pytest.mark.slow  # a class graded on a real Dask cluster

FOLDERS = ("correct", "correct-cpp", "bug-add")
ZIPPED = "bug-illegal"  # an archive travels as the file it is
WORKER_NOTE = "graded on the cluster worker "


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two workers; everything ended afterwards."""
    with dask_cluster(tmp_path_factory.mktemp("dask"), {"one": {}, "two": {}}) as running:
        yield running


@pytest.fixture(scope="module")
def room(tmp_path_factory) -> Path:
    room = tmp_path_factory.mktemp("class") / "class"
    for sample in FOLDERS:
        shutil.copytree(SAMPLES / sample, room / sample)
    with zipfile.ZipFile(room / f"{ZIPPED}.zip", "w") as archive:
        for path in (SAMPLES / ZIPPED).iterdir():
            archive.write(path, path.name)
    return room


def _grade(*args, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUNBUFFERED", "NO_COLOR")}
    env["HARNESS_ROOT"] = str(FIXTURE)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "harness", "grade", "tally", *map(str, args), "-q"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


# How a build was had, not what it gave: whichever grading ran first left it in the cache.
REUSED = "compiled output reused from an identical earlier build"


def _gist(folder: Path) -> dict:
    """What a grade is: status, scores, every item, every case's verdict (its reason quotes the
    start the program drew, which differs between any two runs)."""
    data = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    return {"status": data["status"], "earned": data["earned"], "possible": data["possible"],
            "items": data["items"],
            "cases": [(c["name"], c["status"], c["value"], c["earned"]) for c in data["cases"]],
            "builds": {t: (b["ok"], b["reason"], [n for n in b["intake"] if not n.startswith((WORKER_NOTE, REUSED))])
                       for t, b in data["builds"].items()}}


def test_a_class_on_two_workers_gets_the_grades_it_gets_here(cluster, room, tmp_path):
    address, workers = cluster
    ghost = tmp_path / "ghost"  # a missing path: a row of its own, graded by the caller
    here = _grade(room, ghost, "-o", tmp_path / "here")
    there = _grade(room, ghost, "-o", tmp_path / "there", "--cluster", address)
    assert here.returncode == there.returncode == 1, (here.stderr, there.stderr)  # buggy samples fail cases

    names = [*FOLDERS, ZIPPED, "ghost"]
    book = (tmp_path / "there" / "gradebook.csv").read_text(encoding="utf-8")
    assert book == (tmp_path / "here" / "gradebook.csv").read_text(encoding="utf-8")
    with (tmp_path / "there" / "gradebook.csv").open(encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    assert set(rows) == set(names)
    assert rows["ghost"]["status"] == "missing-files"
    spec, _ = specs.parse_game("tally", FIXTURE)
    weights = {item.id: item.points for item in spec.rubric if item.graded}
    column = {item.id: f"{item.id}: {item.title} ({item.points:g} points)" for item in spec.rubric if item.graded}
    for sample in (*FOLDERS, ZIPPED):
        assert rows[sample]["status"] == "graded"
        lost = {item for item, weight in weights.items() if float(rows[sample][column[item]]) < weight}
        assert lost == RULES[sample][1], sample

    seen = set()
    for name in names:
        mine, theirs = tmp_path / "here" / name, tmp_path / "there" / name
        assert _gist(theirs) == _gist(mine), name
        notes = [n for b in json.loads((theirs / "result.json").read_text())["builds"].values() for n in b["intake"]]
        on = {n[len(WORKER_NOTE):] for n in notes if n.startswith(WORKER_NOTE)}
        assert len(on) == (0 if name == "ghost" else 1), (name, notes)
        seen |= on
        assert (theirs / "report.html").is_file() and (theirs / "junit.xml").is_file()
    assert seen == workers  # both workers graded some of the class


def test_a_wrong_address_is_one_line_and_exit_2(room, tmp_path):
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    done = _grade(room, "-o", tmp_path / "out", "--cluster", address)
    assert done.returncode == 2
    assert done.stderr.startswith(f"harness: --cluster {address}: no Dask scheduler answered")
    assert "dask scheduler" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_without_the_cluster_extra_cluster_is_one_line_and_exit_2(room, tmp_path):
    """Where distributed is not installed (here a stand-in first on the path that cannot be
    imported), --cluster says how to install it; nothing is graded."""
    stand_in = tmp_path / "path" / "distributed"
    stand_in.mkdir(parents=True)
    (stand_in / "__init__.py").write_text("raise ImportError('No module named distributed')\n", encoding="utf-8")
    address = f"tcp://127.0.0.1:{free_port()}"
    done = _grade(room, "-o", tmp_path / "out", "--cluster", address, env_extra={"PYTHONPATH": str(stand_in.parent)})
    assert (done.returncode, done.stderr) == (
        2, "harness: --cluster needs the cluster extra: pip install 'game-harness[cluster]'\n")
    assert not (tmp_path / "out").exists()


def test_a_worker_without_the_sandbox_runs_nothing_unconfined_unless_asked(tmp_path):
    """A worker where bubblewrap cannot run (none on its PATH): without --no-sandbox its
    submissions are harness-error rows that say why; with it, graded unconfined (and the result
    says so). The caller's settings travel with the grading: a worker reads no HARNESS_* of its own."""
    with dask_cluster(tmp_path, {"bare": {"PATH": str(tmp_path / "no-tools"), "HARNESS_SANDBOX": "maybe"}}) \
            as (address, _):
        one = ("-k", "add-two")  # one case is enough to show where it ran
        refused = _grade(SAMPLES / "correct", *one, "-o", tmp_path / "refused", "--cluster", address)
        allowed = _grade(SAMPLES / "correct", *one, "-o", tmp_path / "allowed", "--cluster", address, "--no-sandbox")
    assert refused.returncode == 1, refused.stderr
    result = json.loads((tmp_path / "refused" / "correct" / "result.json").read_text(encoding="utf-8"))
    assert result["status"] == "harness-error" and result["cases"] == []
    reason = result["builds"]["game"]["reason"]
    assert reason.startswith("bubblewrap is not available on the cluster worker tcp://") and "--no-sandbox" in reason
    assert allowed.returncode == 0, allowed.stderr
    result = json.loads((tmp_path / "allowed" / "correct" / "result.json").read_text(encoding="utf-8"))
    assert (result["status"], result["sandbox"], [c["status"] for c in result["cases"]]) == ("graded", "none", ["passed"])
