"""An instructor's own game, end to end: a Java solution and no Python written (issue #22).

`harness new` makes the game from tests/own_game/Climb.java (its random start declared with
--random-start), the spec is finished in YAML as docs/adding-a-game.md says (tests/helpers.py,
own_game), and the game is recorded, regenerated, checked on its samples and graded; the Java
reference is compiled once, and one that does not compile stops every command at its line.
"""
import csv
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from harness.loading import random_start as random_starts
from harness.loading import spec as specs
from harness.starts import law as distribution
from tests.helpers import OWN_ARGS, OWN_GAME, new_own_game




def _cli(harness_cli, root: Path, *args, env=None, input=None):
    return harness_cli(*args, cwd=root, env={"HARNESS_ROOT": str(root), **(env or {})}, input=input)


def _reference_line(root: Path) -> int:
    lines = (root / "specs" / OWN_GAME / "spec.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.startswith("reference:"))


@pytest.mark.slow  # javac, and a JVM per run
def test_new_makes_a_game_whose_samples_pass_at_once(tmp_path, harness_cli):
    root = tmp_path / "project"
    made = new_own_game(root)
    assert made.returncode == 0, made.stderr
    # the inputs finish the game: the recorded case ended with status 0, and no hint to give others
    assert "ended: exit status 0" in made.stdout and "give --inputs" not in made.stdout, made.stdout
    spec = specs.load(OWN_GAME, root)
    assert spec.built_reference and spec.reference.name == "java" and spec.reference.main == "Climb"
    assert spec.targets["game"].languages["java"].files == ["Climb.java"]
    assert spec.random_start.capture == r"^Start: (\d+)"
    assert any("TODO" in item.title for item in spec.rubric)
    case = (root / "cases" / OWN_GAME / "first-game.yaml").read_text(encoding="utf-8")
    assert f"args: {json.dumps(OWN_ARGS)}" in case and "Done in" in case
    assert (root / "examples" / OWN_GAME / "correct" / "Climb.java").read_bytes() == \
        (Path(__file__).parent / "own_game" / "Climb.java").read_bytes()
    assert _cli(harness_cli, root, "regen", "--check", OWN_GAME).returncode == 0
    checked = _cli(harness_cli, root, "samples", OWN_GAME, "--no-sandbox")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 of 1 samples as expected.yaml says" in checked.stdout

    before = sorted(p for p in root.rglob("*"))
    again = new_own_game(root)
    assert again.returncode == 2 and len(again.stderr.strip().splitlines()) == 1 and "exists" in again.stderr
    assert sorted(p for p in root.rglob("*")) == before


@pytest.mark.slow  # javac, and a JVM per run
def test_record_takes_the_programs_arguments_after_the_game(own_game_project, harness_cli):
    root = own_game_project
    typed = "".join(f"{line}\n" for line in ["1"] * 12)
    for name, words in (("after-options", ["11"]), ("after-dashes", ["--", "11"])):
        case_file = root / "cases" / OWN_GAME / f"{name}.yaml"
        done = _cli(harness_cli, root, "record", OWN_GAME, "-o", case_file, "--rubric", "play", *words, input=typed)
        assert done.returncode == 0, done.stderr
        text = case_file.read_text(encoding="utf-8")
        assert 'args: ["11"]' in text and "At 11" in text and "At 12" not in text
    refused = _cli(harness_cli, root, "record", OWN_GAME, "-o", root / "x.yaml", "--fast", input="")
    assert refused.returncode == 2 and "--fast" in refused.stderr and "Traceback" not in refused.stderr
    # a recorded case is what regen makes of it: the reference's seeded start and the same arguments
    assert _cli(harness_cli, root, "regen", "--check", OWN_GAME).returncode == 0


@pytest.mark.slow  # javac, and a JVM per run
def test_grading_scores_as_the_rubric_says(own_game_project, harness_cli):
    root = own_game_project
    checked = _cli(harness_cli, root, "samples", OWN_GAME, "--no-sandbox")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "3 of 3 samples as expected.yaml says" in checked.stdout
    spec = specs.load(OWN_GAME, root)
    graded = {item.id: item.points for item in spec.rubric if item.graded}
    reports = root / "reports"
    done = _cli(harness_cli, root, "grade", OWN_GAME, root / "examples" / OWN_GAME / "bug-wording", "-o", reports,
                "--no-sandbox")
    assert done.returncode == 1, done.stdout + done.stderr
    with open(reports / "gradebook.csv", encoding="utf-8") as handle:
        row = next(csv.DictReader(handle))
    assert float(row["earned"]) == sum(graded.values()) - graded["play"]
    assert float(row["possible"]) == sum(graded.values())


@pytest.mark.slow  # javac, and a JVM per run
def test_the_reference_is_compiled_once(own_game_project, harness_cli, tmp_path):
    """A javac on PATH that notes each call: the reference's compilation (its build folder is
    the reference's own) happens once in a grading, and not again in the next one."""
    root = own_game_project
    tools, calls = tmp_path / "bin", tmp_path / "javac-calls"
    tools.mkdir()
    real = next(Path(folder) / "javac" for folder in os.environ["PATH"].split(os.pathsep)
                if (Path(folder) / "javac").is_file())
    wrapper = tools / "javac"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {calls}\nexec {real} "$@"\n', encoding="utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    env = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}", "HARNESS_SANDBOX": "off",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}

    def reference_compilations() -> int:
        return sum("harness-reference-" in line for line in calls.read_text().splitlines()) if calls.exists() else 0

    correct = root / "examples" / OWN_GAME / "correct"
    for grading in (1, 2):
        done = _cli(harness_cli, root, "grade", OWN_GAME, correct, "-o", tmp_path / f"reports-{grading}",
                    "--no-sandbox", "--force", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert reference_compilations() == 1
    entries = [p for p in (tmp_path / "cache" / "game-harness" / "builds").glob("*/out/Climb.class")]
    assert entries, "the build cache holds the compiled reference"


@pytest.mark.slow  # javac, and a JVM per run
def test_a_reference_that_does_not_compile_is_exit_2_at_its_line(own_game_project, harness_cli):
    root = own_game_project
    source = root / "specs" / OWN_GAME / "Climb.java"
    source.write_text(source.read_text(encoding="utf-8").replace("int goal = 10;", "int goal = 10"), encoding="utf-8")
    line = _reference_line(root)
    for args in (("regen", "--check", OWN_GAME), ("grade", OWN_GAME, root / "examples" / OWN_GAME / "correct",
                                                   "-o", root / "reports", "--no-sandbox")):
        done = _cli(harness_cli, root, *args)
        assert done.returncode == 2, done.stdout + done.stderr
        said = done.stderr.strip().splitlines()
        assert len(said) == 1 and f"spec.yaml:{line}: reference:" in said[0] and "Climb.java" in said[0]
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("values, start, shown", [
    ({"pattern": r"(\d+)"}, "3 5 7", ["3", "5", "7"]),
    ({"pattern": r"(\d)-(\d)"}, "1-2 3-4", ["1", "2", "3", "4"]),
    ({"pattern": r"\d"}, "a1b2", ["1", "2"]),
    (None, "4", ["4"]),
])
def test_a_starts_values_are_read_without_python(values, start, shown):
    declared = {"option": "--start-file", "plan_option": "--plan", "rejected_exit": 3, "unplayable_exit": 4,
                "capture": "x", "distribution": {"uniform": [1, 7], "least": 5, "case": "c", "rubric": "setup",
                                                 **({"values": values} if values else {})}}
    law = random_starts.parse(declared).law
    assert law.probabilities == {str(v): pytest.approx(1 / 7) for v in range(1, 8)}
    assert distribution.sample(law, [start]) == shown


@pytest.mark.slow  # a Dask cluster, javac, and a JVM per run
def test_a_cluster_worker_builds_the_reference_from_its_own_copy(own_game_project, harness_cli, tmp_path):
    """The worker gets the spec folder, not the caller's build: it builds the reference there
    (or finds it in its cache) and grades as this machine does."""
    pytest.importorskip("distributed")
    from tests.helpers import dask_cluster
    root = own_game_project
    room = tmp_path / "class"
    room.mkdir()
    for sample in ("bug-wording", "bug-fixed-start"):  # neither is the reference's copy, so its build is the worker's own
        shutil.copytree(root / "examples" / OWN_GAME / sample, room / sample)
    spec = specs.load(OWN_GAME, root)
    graded = {item.id: item.points for item in spec.rubric if item.graded}
    with dask_cluster(tmp_path, {"one": {"XDG_CACHE_HOME": str(tmp_path / "worker-cache")}}) as (address, _):
        done = _cli(harness_cli, root, "grade", OWN_GAME, room, "-o", tmp_path / "there", "--no-sandbox", "-q",
                    "--cluster", address)
    assert done.returncode == 1, done.stdout + done.stderr  # the bug fails its case
    with open(tmp_path / "there" / "gradebook.csv", encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    column = {item: next(h for h in next(iter(rows.values())) if h.startswith(f"{item}: ")) for item in graded}
    lost = {name: {item for item, points in graded.items() if float(rows[name][column[item]]) < points} for name in rows}
    assert lost == {"bug-wording": {"play"}, "bug-fixed-start": {"setup"}}
    built = list((tmp_path / "worker-cache" / "game-harness" / "builds").glob("*/out/Climb.class"))
    assert len(built) == 2  # the Java bug's build and the reference's, made on the worker
