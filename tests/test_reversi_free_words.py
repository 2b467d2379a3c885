"""Reversi's handout shows every text only in example sessions ("Here is an example session", "an
example transcript"): the turn header, the prompts, `Not a legal move!`, `No legal moves!` and the
end lines are free in words and required in meaning. A program in its own words and drawing
loses nothing; one that leaves a message out still loses the item whose message it is; a line
that fits two readings is read as the one its turn expects. Real runs of real programs."""
import json

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.suite import styles
from reference import reversi_reading
from tests.helpers import ROOT

SAMPLES = ROOT / "examples" / "reversi"
CORRECT = (SAMPLES / "correct-python" / "reversi.py").read_text(encoding="utf-8")

# The cases that compared the handout's example texts exactly before: the opening, the header and
# prompt cases, the refusal of an uppercase column, the skip's message and block.
ONCE_EXACT = ["ms1-initial-board", "ms1-prompts", "ms1-enter-4e", "ms1-illegal-uppercase", "ms1-final-board",
              "ms2-initial-board", "ms2-alternate-headers", "ms2-illegal-mixed", "ms2-skip-message", "ms2-skip-block"]


def test_a_line_that_fits_two_readings_is_read_as_its_turn_expects():
    """`White has no legal moves!` names a colour and says it cannot move; `No legal move there,
    try again` refuses and says "no move": each is read as what the reference's turn shows."""
    skip = [("turn", "white"), ("skip", "no moves")]
    assert reversi_reading.facts("White has no legal moves!\n", expected=skip) == skip
    refusal = [("refused", "move"), ("prompt", "row")]
    line = "No legal move there, try again.\nYour row: "
    assert reversi_reading.facts(line, expected=refusal) == refusal
    assert reversi_reading.facts(line, expected=[("skip", "no moves")])[0] == ("skip", "no moves")


def test_a_refusal_in_words_no_list_names_counts_only_where_one_is_due():
    line = "You can't put a piece there.\nRow? "
    assert reversi_reading.facts(line, expected=[("refused", "move"), ("prompt", "row")])[0] == ("refused", "move")
    assert ("refused", "move") not in reversi_reading.facts(line, expected=[("turn", "white"), ("prompt", "row")])


@pytest.mark.parametrize("prompt, asked", [("Row? (1-6) ", "row"), ("Enter row: ", "row"), ("Which column? ", "column"),
                                           ("Your move > ", "row"), ("Your move > ", "column")])
def test_a_prompt_in_any_words_is_the_row_or_the_column_its_turn_asks_for(prompt, asked):
    assert reversi_reading.facts(prompt, expected=[("prompt", asked)]) == [("prompt", asked)]


def _grade(harness_cli, tmp_path, program: str, *args) -> dict:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "reversi.py").write_text(program, encoding="utf-8")
    done = harness_cli("grade", "reversi", folder, "-o", tmp_path / "out", *args)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads((tmp_path / "out" / "student" / "result.json").read_text(encoding="utf-8"))


def _lost(result: dict) -> set[str]:
    return {i["id"] for i in result["items"] if i.get("graded", True) and i.get("counted", True) and i["earned"] < i["weight"]}


@pytest.mark.slow
def test_a_program_in_its_own_words_and_drawing_loses_nothing(harness_cli, tmp_path):
    """A framed board of X and O, its own turn lines, prompts, refusal, skip line and end lines,
    no blank lines (examples/reversi/variant-own-words): every case passes."""
    program = (SAMPLES / "variant-own-words" / "reversi.py").read_text(encoding="utf-8")
    assert "Not a legal move!" not in program and "No legal moves!" not in program and "Final count" not in program
    result = _grade(harness_cli, tmp_path, program)
    assert [c["name"] for c in result["cases"] if c["status"] != "passed"] == []
    assert result["percent"] == 100


@pytest.mark.slow
def test_a_missing_refusal_still_costs_the_item_that_checks_moves(harness_cli, tmp_path):
    """Free words, required meaning: asking again in silence is no refusal. Only the cases that
    type a refused move can see it, and it is Milestone 1 features' behaviour wherever it shows."""
    silent = CORRECT.replace('print("Not a legal move!")', 'pass')
    assert silent != CORRECT
    result = _grade(harness_cli, tmp_path, silent, "-k", "ms2-illegal")
    assert _lost(result) == {"ms2-ms1-features"}
    assert {c["status"] for c in result["cases"]} == {"failed"}


@pytest.mark.slow
def test_a_styled_program_passes_the_cases_that_once_read_the_handouts_words():
    """Styled program 0 words every message otherwise (`It is Black's turn.`, `Which row? `,
    `Invalid move.`, `No valid moves available!`) and draws ⚫ ⚪: the cases that compared the
    example session's texts exactly pass it, as every other case does."""
    spec, _ = specs.parse_game("reversi", ROOT)
    cases = [c for c in caseload.load_all(spec) if c.name in ONCE_EXACT]
    assert sorted(c.name for c in cases) == sorted(ONCE_EXACT)
    style = " ".join(styles.describe(styles.styler_file(spec), 0, spec.limits.turn_seconds))
    assert "It is {c}'s turn." in style and "Invalid move." in style
    report = styles.grade(spec, cases, 1, first_seed=0, jobs=1)
    (result,) = report.results
    assert result.failed == () and result.full, result.failed
