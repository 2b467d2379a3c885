"""`harness new` for a game whose solution draws a secret at random: its seed option (found in
its sources, or given with --seed-option) goes in the spec and the first case is recorded with
a seed, so the case replays one game; a solution that draws at random with no seed option and
no random start is refused before anything is written, saying what to give. `harness new --help`
names no course game: a new game's name is free."""
import os
import subprocess
import sys

import yaml

from tests.helpers import ROOT

HIGH = 20  # the secret is drawn from 1..HIGH


def _guess(option: str | None) -> str:
    """A guessing game: the secret drawn at random (from `option N`'s seed when the option is given)."""
    seeded = (f"    if len(sys.argv) > 2 and sys.argv[1] == {option!r}:\n"
              "        random.seed(int(sys.argv[2]))\n") if option else ""
    return ("import random\nimport sys\n\n\ndef main():\n" + seeded
            + f"    secret = random.randint(1, {HIGH})\n"
              "    while True:\n"
              "        line = input('Guess? ')\n"
              "        if line.strip() == str(secret):\n"
              "            print('Right!')\n"
              "            return\n"
              "        print('No.')\n\n\nmain()\n")


def _new(root, solution, *extra):
    (root / "specs").mkdir(parents=True, exist_ok=True)
    return subprocess.run([sys.executable, "-m", "harness.cli", "new", "guess", "--solution", str(solution),
                           "--inputs", *map(str, range(1, HIGH + 1)), *extra],
                          cwd=root, env={**os.environ, "HARNESS_ROOT": str(root)}, capture_output=True, text=True,
                          timeout=600)


def _case(root) -> dict:
    return yaml.safe_load((root / "cases" / "guess" / "first-game.yaml").read_text(encoding="utf-8"))


def test_a_seed_option_in_the_solution_is_found_and_the_first_case_replays(tmp_path):
    solution = tmp_path / "guess.py"
    solution.write_text(_guess("--seed"), encoding="utf-8")
    done = _new(tmp_path / "project", solution)
    assert done.returncode == 0, done.stderr
    assert "seed option: --seed (found in guess.py" in done.stdout
    assert "ended: exit status 0" in done.stdout and "give --inputs" not in done.stdout
    spec = yaml.safe_load((tmp_path / "project" / "specs" / "guess" / "spec.yaml").read_text(encoding="utf-8"))
    assert spec["seed_option"] == "--seed"
    case = _case(tmp_path / "project")
    assert case["seed"] == 1 and case["expect"]["exit"] == 0
    # the case replays: regen runs the reference with the case's seed and finds nothing stale
    check = subprocess.run([sys.executable, "-m", "harness.cli", "regen", "guess", "--check"], cwd=tmp_path / "project",
                           env={**os.environ, "HARNESS_ROOT": str(tmp_path / "project")}, capture_output=True,
                           text=True, timeout=600)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_seed_option_can_be_given(tmp_path):
    solution = tmp_path / "guess.py"
    solution.write_text(_guess("-s"), encoding="utf-8")  # no option naming a seed to find
    done = _new(tmp_path / "project", solution, "--seed-option=-s")
    assert done.returncode == 0, done.stderr
    assert "found in" not in done.stdout
    spec = yaml.safe_load((tmp_path / "project" / "specs" / "guess" / "spec.yaml").read_text(encoding="utf-8"))
    assert spec["seed_option"] == "-s" and _case(tmp_path / "project")["seed"] == 1


def test_a_random_secret_without_a_seed_option_is_asked_for_and_nothing_is_written(tmp_path):
    solution = tmp_path / "guess.py"
    solution.write_text(_guess(None), encoding="utf-8")
    done = _new(tmp_path / "project", solution)
    assert done.returncode == 2, done.stdout + done.stderr
    said = done.stderr.strip()
    assert len(said.splitlines()) == 1 and "Traceback" not in said
    assert "your solution draws at random (" in said and " in guess.py)" in said
    assert "--seed-option OPTION" in said and "--random-start PATTERN" in said
    assert not (tmp_path / "project" / "specs" / "guess").exists()
    assert not (tmp_path / "project" / "cases" / "guess").exists()


def test_new_help_names_no_course_game(harness_cli):
    done = harness_cli("new", "--help")
    assert done.returncode == 0
    assert "GAME is one of" not in done.stdout
    games = [p.name for p in (ROOT / "specs").iterdir() if (p / "spec.yaml").is_file()]
    assert games and not any(game in done.stdout for game in games)
    assert "--seed-option" in done.stdout
