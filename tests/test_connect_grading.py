"""Connect is graded on what a person reads in each turn (reference/connect_reading.py `facts`): any
faithful drawing of the board, any wording of the texts the handout only describes; and a
message missing, two winners named or a wrong board beside the right one read as wrong.
Pure functions on text, then one real grading of a program in its own words and drawing."""
import pytest

from reference import connect_reading

EMPTY_ROW = "________"
BOARD = "/".join([EMPTY_ROW] * 6 + ["___O____", "__XXO___"])  # top row first
HEADER = " 1 2 3 4 5 6 7 8"


def rows(cell, left="", right="", between=None, blank=" "):
    """The board BOARD drawn with `cell` around each square's glyph."""
    drawn = []
    for row in BOARD.split("/"):
        drawn.append(left + "".join(cell.format(blank if ch == "_" else ch) for ch in row) + right)
        if between:
            drawn.append(between)
    return drawn


DRAWINGS = [
    [HEADER] + ["|" + "".join(ch + "|" for ch in row) for row in BOARD.split("/")],  # the reference's
    ["1 2 3 4 5 6 7 8"] + [" ".join("." if ch == "_" else ch for ch in row) for row in BOARD.split("/")],
    [" ".join("-" if ch == "_" else ch for ch in row) for row in BOARD.split("/")],  # no column numbers
    [row for row in BOARD.split("/")],  # compact: `___O____`
    ["  1   2   3   4   5   6   7   8", "+---+---+---+---+---+---+---+---+"]
    + rows("| {} ", right="|", between="+---+---+---+---+---+---+---+---+"),
    rows("[{}]"),
    ["┌───┬───┬───┬───┬───┬───┬───┬───┐"] + rows("│ {} ", right="│") + ["└───┴───┴───┴───┴───┴───┴───┴───┘"],
    [f"{8 - n} " + line for n, line in enumerate(rows("|{}", right="|", blank="_"))],  # row numbers
    rows(" {} ", blank="·"),
    "\n".join(rows(" {} ", blank=".")).replace("\n", "\n\n").split("\n"),  # a blank line between rows
]


@pytest.mark.parametrize("drawing", DRAWINGS, ids=range(len(DRAWINGS)))
def test_every_faithful_drawing_reads_as_the_same_board(drawing):
    text = "\n".join(drawing) + "\nAlice, your move (column 1-8): "
    assert connect_reading.facts(text) == [("board", BOARD), ("prompt", "column")]


def test_the_reference_turn_and_one_in_other_words_read_the_same():
    board = "\n".join(DRAWINGS[0])
    reference = f"\n{board}\n\nPlayer Bob (O) has 2 connected pieces.\n" \
                "Enter the column to place your O piece (1 to 8) or q to quit: "
    own = "\n".join(DRAWINGS[4]) + "\nLongest lines: Alice (X) 2 in a row, Bob (O) 2 in a row\n" \
        "Bob, drop your O in which column (1-8, q to quit)? "
    assert connect_reading.facts(reference) == connect_reading.facts(own) == [
        ("board", BOARD), ("counts", "right"), ("prompt", "column")]


def test_a_count_that_is_not_the_boards_reads_as_wrong():
    board = "\n".join(DRAWINGS[0])
    found = dict(connect_reading.facts(board + "\nPlayer Bob (O) has 3 connected pieces.\nColumn: "))
    assert found["counts"] == "wrong: O 3 (the board: 2)"
    assert dict(connect_reading.facts(board + "\nBob has 2 connected pieces.\nColumn: "))["counts"] == "right"
    assert dict(connect_reading.facts(board + "\nBob has 1 connected pieces.\nColumn: "))["counts"].startswith("wrong")


@pytest.mark.parametrize("line", [
    "Invalid column number, please try again.", "Not a number, please try again.",
    " Sorry, that column is full, please try again:", "That column is not valid!",
    "'abc' is not a number. Try again.", "There is no column 9 on this board.", "Column is full! Pick another one.",
    "Error: out of range", "Numbers only, please.", "'hello' is not a number. Try again."])
def test_any_refusal_of_a_column_is_one_fact(line):
    assert connect_reading.facts(f"{line}\nEnter a column: ") == [("refused", "column"), ("prompt", "column")]


def test_asking_again_without_a_message_is_no_refusal():
    assert connect_reading.facts("Enter the column to place your X piece (1 to 8) or q to quit: ") == \
        [("prompt", "column")]
    assert connect_reading.facts("> ") == [("prompt", "column")]


@pytest.mark.parametrize("line, result", [
    ("Alice wins!", "alice"), ("Congratulations, Alice! You won!", "alice"), ("The winner is Alice.", "alice"),
    ("*** Alice (X) connects 4 and wins! ***", "alice"), ("It's a draw!", "draw"),
    ("The board is full: nobody wins, it is a tie.", "draw"), ("Stalemate.", "draw"),
    ("Board full! Nobody won.", "draw"), ("Game over! Bob (O) has won.", "bob")])
def test_the_result_whatever_the_wording(line, result):
    assert connect_reading.facts(line) == [("result", result)]


def test_contradicting_results_and_boards_read_as_all_of_them():
    assert connect_reading.facts("Alice wins!\nBob wins!") == [("result", "alice+bob")]
    assert connect_reading.facts("Alice wins!\nIt's a draw!") == [("result", "alice+draw")]
    wrong = "\n".join(DRAWINGS[0]).replace("|X|X|O|", "|O|X|O|")
    assert connect_reading.facts("\n".join(DRAWINGS[0]) + "\n\n" + wrong) == [
        ("board", BOARD + " | " + BOARD.replace("XXO", "OXO"))]


@pytest.mark.parametrize("table", [
    "              Wins    Losses    Draws\nAlice:          1       0       0\nBob:            0       1       0",
    "Scores so far:\n  Alice: 1 win(s), 0 loss(es), 0 draw(s)\n  Bob: 0 win(s), 1 loss(es), 0 draw(s)",
    "Alice (X) W:1 L:0 D:0\nBob (O) W:0 L:1 D:0",
    "Name  Wins Ties Losses\nBob   0    0    1\nAlice 1    0    0",
    "Alice (player 1): 1 0 0\nBob (player 2): 0 1 0"])
def test_the_stats_in_any_layout(table):
    assert connect_reading.facts(table + "\nWould you like to play again (y/n)? ") == [
        ("stats", "alice 1 0 0; bob 0 1 0"), ("again", "asked")]


def test_a_banner_with_a_number_is_no_count():
    banner = "*****************\n*   CSC 116 Connect Game by Jane Doe    *\n*****************"
    assert connect_reading.facts(banner + "\n" + "\n".join(DRAWINGS[0]) + "\nColumn? ") == \
        [("board", BOARD), ("prompt", "column")]


def test_the_welcome_and_the_play_again_question_in_other_words():
    assert connect_reading.facts("Let's play Connect 4!\nAlice is X.") == [("welcome", "shown")]
    assert connect_reading.facts("Play another game? (yes/no) ") == [("again", "asked")]
    assert connect_reading.facts("I did not understand that. Answer yes or no.\nAgain? ") == [("again", "asked")]


def test_hostile_output_is_read_in_one_pass():
    """Long lines are not read; many rows that are no board, many short lines: read once."""
    assert connect_reading.facts("x" + " " * 1_000_000 + "wins") == []
    assert connect_reading.facts("|_|_|_|_|_|_|_|_|\n" * 20_000) == []
    assert connect_reading.facts(("a" * 290 + " winner\n") * 2_000)[0][0] == "result"
    assert connect_reading.facts("connect" + " " * 290 + "4\n" * 10_000) == []


@pytest.mark.slow
def test_a_program_in_its_own_words_and_drawing_loses_nothing(harness_cli):
    """A correct Connect in Python with a boxed board and its own texts, graded on every case."""
    done = harness_cli("samples", "connect", "--sample=variant-own-drawing")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "connect: 1 of 1 samples as expected.yaml says" in done.stdout


def test_a_prompt_naming_the_wrong_player_reads_as_wrong():
    """After X's drop (more X than O on the board) the prompt may name O, or no symbol at all."""
    board = "\n".join(["|_|_|_|_|_|_|_|_|"] * 7 + ["|_|_|X|_|_|_|_|_|"])
    assert connect_reading.facts(board + "\nEnter the column to place your O piece: ")[-1] == ("prompt", "column")
    assert connect_reading.facts(board + "\nBob, choose a column: ")[-1] == ("prompt", "column")
    assert connect_reading.facts(board + "\nEnter the column to place your X piece: ")[-1] == (
        "prompt", "column for X, but it is O's turn")
