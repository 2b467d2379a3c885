"""Styled programs (`harness audit GAME --styles N`): the reference redrawn by its game's styler,
run as a real program. A styled program keeps every text its handout prescribes, the same seed is
the same program, and a correct program in a style the handout allows scores 100 % when graded by
the real harness (the fixture game here; the course games' numbers are measured by the command).
"""
import random
import re
import subprocess
from pathlib import Path

import pytest

from harness import cli
from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.suite import styles, styling
from harness.suite.audit_reference import seeded
from tests.helpers import FIXTURE, ROOT

CSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # the clears and colours: controls a person does not read as text

# What each handout prescribes exactly (shared/formats.md), as the reference prints it; a styler
# keeps each such text, in its order. Strings and Coins and Flip prescribe all of their output.
PRESCRIBED = {
    "tally": [r"Start: \d+\n", r"Add\? ", r"Now \d+\n", r"Done in \d+ turns\n"],
    "silver-dollar": [r"Enter the number of coins: "],
    "reversi": [r"  abcdef\n", r"Final count: black=\d+, white=\d+\n"],
    "connect": [re.escape("Usage: java -cp bin ConnectGame {4 - 6} player1 player2") + r"\n"],
    "strings-and-coins": None,  # everything
    "flip": None,
}


# What a game that prescribes every text still leaves free, undone (formats.md): Strings and Coins'
# spaces at line ends and line ends after the last line, Flip's empty middle printed `||`.
SAME_TEXT = {"strings-and-coins": lambda text: re.sub(r" +(?=\n|$)", "", text).rstrip("\n"),
             "flip": lambda text: text.replace("||", "|+|")}


def _spec(game: str):
    spec, _ = specs.parse_game(game, FIXTURE if game == "tally" else ROOT)
    return seeded(spec, caseload.load_all(spec))


def _still_seeds(turn_seconds: float, count: int) -> list[int]:
    """Seeds whose styled program never pauses: what the text tests run (the timing is graded below)."""
    return [s for s in range(200) if not styling.timing(s, turn_seconds).pause][:count]


def _words(spec, case) -> list[str]:
    extra = list(case.args)
    if case.seed is not None and spec.seed_option:
        extra += [spec.seed_option, str(case.seed)]
    return extra


def _run(command: list[str], inputs: list[str]) -> str:
    done = subprocess.run(command, input="".join(line + "\n" for line in inputs), capture_output=True,
                          text=True, encoding="utf-8", timeout=60, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return done.stdout


def _check_game(game: str, every: int) -> int:
    spec, cases = _spec(game)
    styler = styles.styler_file(spec)
    seeds = _still_seeds(spec.limits.turn_seconds, 3)
    checked = 0
    for number, case in enumerate(c for c in cases if isinstance(c.inputs, list)):
        if number % every:
            continue
        plain_command = spec.reference_command(case.milestone, case.target, []) + _words(spec, case)
        plain = _run(["env", f"PYTHONPATH={ROOT}", *plain_command], case.inputs)
        seed = seeds[number % len(seeds)]
        styled = _run(styles.command(spec, case.milestone, case.target, styler, seed) + _words(spec, case), case.inputs)
        if PRESCRIBED[game] is None:
            same = SAME_TEXT.get(game, str)
            assert same(styled) == same(plain), (case.name, seed)
        else:
            seen, at = CSI.sub("", styled), 0
            texts = sorted((m.start(), m.group()) for p in PRESCRIBED[game] for m in re.finditer(p, plain))
            for _, text in texts:
                found = seen.find(text, at)
                assert found >= 0, (case.name, seed, text, seen[at:at + 300])
                at = found + len(text)
        checked += 1
    return checked


def test_the_fixture_styler_keeps_every_prescribed_text():
    assert _check_game("tally", 1) >= 6


@pytest.mark.slow
@pytest.mark.parametrize("game", ["silver-dollar", "reversi", "connect", "strings-and-coins", "flip"])
def test_a_course_game_styler_keeps_every_prescribed_text(game):
    assert _check_game(game, 3) >= 10


def test_the_same_seed_is_the_same_program_and_seeds_differ():
    spec, cases = _spec("connect")
    styler = styles.styler_file(spec)
    case = next(c for c in cases if c.rubric == "win" and isinstance(c.inputs, list))
    seeds = _still_seeds(spec.limits.turn_seconds, 6)
    runs = {s: _run(styles.command(spec, case.milestone, case.target, styler, s) + _words(spec, case), case.inputs)
            for s in seeds}
    again = _run(styles.command(spec, case.milestone, case.target, styler, seeds[0]) + _words(spec, case), case.inputs)
    assert again == runs[seeds[0]]
    said = {s: styles.describe(styler, s, spec.limits.turn_seconds) for s in seeds}
    assert said[seeds[0]] == styles.describe(styler, seeds[0], spec.limits.turn_seconds)
    for a in seeds:
        for b in seeds:
            if said[a] != said[b]:  # two styles drawn differently draw a game differently
                assert runs[a] != runs[b], (a, b)
    assert len(set(said.values())) > 1


def _refusing_seeds(count: int, pausing: bool) -> list[int]:
    """Seeds of the fixture's styler that word the refusal in their own way, with or without a pause."""
    module = styling.load_styler(FIXTURE / "specs" / "tally" / "tally_styles.py")
    found = [s for s in range(500) if module.styler(random.Random(s)).refusal != "Illegal!"
             and bool(styling.timing(s, 5.0).pause) == pausing]
    return found[:count]


@pytest.mark.slow
def test_a_styled_fixture_program_scores_full_marks(grader):
    spec, cases = _spec("tally")
    chosen = _refusing_seeds(2, False) + _refusing_seeds(1, True)
    for seed in chosen:
        report = styles.grade(spec, cases, 1, seed)
        assert [r.full for r in report.results] == [True], styles.text(report, "tally")
        assert report.results[0].percent == 100.0 and not report.results[0].failed


# One styled program of each course game, graded by the real harness on its whole case suite: the
# check that CI keeps (the populations, `harness audit GAME --styles N`, are bench/games.sh's).
# Seed 6 draws a pause inside a turn and output a line at a time in every game (Reversi too, now
# that its handout's example texts are free).
COURSE_GAMES = ["silver-dollar", "reversi", "connect", "strings-and-coins", "flip"]


@pytest.mark.slow
@pytest.mark.parametrize("game", COURSE_GAMES)
def test_a_styled_course_program_scores_full_marks(game):
    spec, cases = _spec(game)
    report = styles.grade(spec, cases, 1, 6)
    assert [r.full for r in report.results] == [True], styles.text(report, game)


@pytest.mark.slow
def test_the_command_prints_k_of_n_and_exits_0_when_every_style_scores_full(monkeypatch, capsys, tmp_path):
    seed = _refusing_seeds(1, False)[0]
    monkeypatch.setenv("HARNESS_ROOT", str(FIXTURE))
    assert cli.main(["audit", "tally", "--styles", "1", "--seed", str(seed), "-q", "-o", str(tmp_path)]) == 0
    assert "styles: 1 of 1 at 100 %" in capsys.readouterr().out.splitlines()


BROKEN = '''
import random


class Miscounting:
    """Says one turn more than it took: a prescribed text changed, which no style may do."""

    def render(self, chunk):
        return "\\n".join(self.line(line) for line in chunk.split("\\n"))

    def line(self, line):
        if line.startswith("Done in "):
            return f"Done in {int(line.split()[2]) + 1} turns"
        return line

    def describe(self):
        return ["the count of turns plus one"]


def styler(rng):
    return Miscounting()
'''


@pytest.mark.slow
def test_a_style_below_full_marks_is_shown_with_its_seed_items_and_how_to_see_it_again(
        tally_project, monkeypatch, capsys, tmp_path):
    (tally_project / "specs" / "tally" / "tally_styles.py").write_text(BROKEN, encoding="utf-8")
    monkeypatch.setenv("HARNESS_ROOT", str(tally_project))
    seed = _still_seeds(5.0, 1)[0]
    code = cli.main(["audit", "tally", "--styles", "1", "--seed", str(seed), "-q", "-o", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 1
    assert "styles: 0 of 1 at 100 %" in out.splitlines()
    # only the end item's cases reach the goal (tests/fixture/README.md): the count costs the end item alone
    assert f"lost end: 1 style(s), seeds {seed}" in out.splitlines()
    assert f"    again: harness audit tally --styles 1 --seed {seed}" in out.splitlines()
    shown = next(line for line in out.splitlines() if line.startswith("    transcripts: "))
    report = Path(shown.removeprefix("    transcripts: "))
    assert report.is_file() and report.is_relative_to(tmp_path / "out" / "styles")
    assert "Done in" in report.read_text(encoding="utf-8")
    play = next(line for line in out.splitlines() if line.startswith("    play it: "))
    assert "harness.suite.styling" in play and f"--seed {seed}" in play


def test_a_game_without_a_styler_is_one_line_and_exit_2(tally_project, monkeypatch, capsys):
    monkeypatch.setenv("HARNESS_ROOT", str(tally_project))
    (tally_project / "specs" / "tally" / "tally_styles.py").unlink()
    assert cli.main(["audit", "tally", "--styles", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("harness:") and "tally_styles.py" in err and err.count("\n") == 1
