"""The readers on texts a correct program in a style of its own prints (`harness audit GAME
--styles`): each text is a layout or a wording a handout allows, found by the styled programs, and
each expectation is what a person reads in it, derived from the board or the turn it shows. No
process runs: the readers are plain functions of a turn's text."""
from harness.judging import drawing
from harness.running.screen import ScreenReading
from reference import connect_reading, silver_dollar_reading

# ---------------------------------------------------------------- a grid's learned drawing

KNOWN = (("e", "e", "e"),
         ("e", "e", "e"),
         ("p", "e", "e"))
LATER = (("e", "e", "e"),
         ("e", "e", "e"),
         ("p", "q", "e"))
GLYPHS = {"e": "_", "p": "X", "q": "O"}


def spaced(grid) -> list[str]:
    """Wide cells separated by spaces, the column numbers right above the cells: the numbers
    stand where a row's glyphs stand, and only the rows are the board."""
    return [" 1   2   3"] + [" " + "   ".join(GLYPHS[value] for value in row) + " " for row in grid]


def test_column_numbers_at_the_cells_just_above_the_rows_are_the_frame_not_a_row():
    lines = ["", ""] + spaced(KNOWN) + ["", "Your move? "]
    learned = drawing.learn(KNOWN, lines, {"X": "p", "O": "q"})
    assert learned
    found = drawing.boards(learned, lines)
    assert [(board.start, board.end, board.grid) for board in found] == [(2, 2 + 1 + len(KNOWN), KNOWN)]
    later = ["Bob played 2.", ""] + spaced(LATER)
    assert [board.grid for board in drawing.boards(learned, later)] == [LATER]


# ---------------------------------------------------------------- Silver Dollar's strip

def test_square_numbers_above_a_labelled_strip_are_labels_not_a_final_strip():
    # The strip `_ _ 0 _ 1 _`: coin 0 on square 2, coin 1 on square 4; the squares numbered 0-5 above.
    turn = "      0 1 2 3 4 5\nBoard: _ _ 0 _ 1 _\nPlayer 1: Enter your move: "
    assert [fact for fact in silver_dollar_reading.facts(turn) if fact[0] != "said"] == \
        [("board", "_ _ 0 _ 1 _"), ("player", "1")]


def test_square_numbers_right_after_the_coin_prompt_are_labels_not_the_start():
    # The whole output as a start is read from it: the prompt, then the numbers row on its line.
    output = "Enter the number of coins:    0  1  2  3\nBoard: [ ][0][ ][1]\nYour turn, player 1 > "
    assert [fact for fact in silver_dollar_reading.facts(output) if fact[0] == "board"] == [("board", "_ 0 _ 1")]


def test_square_numbers_below_a_labelled_boxed_strip_are_labels_too():
    turn = ("       +---+---+---+---+\n"
            "Strip: |   | 0 |   | 1 |\n"
            "       +---+---+---+---+\n"
            "         0   1   2   3\n"
            "Player 2, your move: ")
    assert [fact for fact in silver_dollar_reading.facts(turn) if fact[0] != "said"] == \
        [("board", "_ 0 _ 1"), ("player", "2")]


# ---------------------------------------------------------------- Connect's refusals

PROMPT = "Drop your X in which column? "


def test_a_line_asking_for_a_number_again_is_a_refusal_where_one_is_expected_and_only_there():
    turn = "\nPlease enter a number.\n" + PROMPT
    expected = [("refused", "column"), ("prompt", "column")]
    assert connect_reading.facts(turn, expected=expected) == expected
    assert connect_reading.facts(turn, expected=[("prompt", "column")]) == [("prompt", "column")]
    # A program that refuses silently and asks again on a line of its own has printed no refusal.
    silent = "\nYou must choose a column (1-8):\n"
    assert connect_reading.facts(silent, expected=expected) == [("prompt", "column")]


def test_a_coloured_board_under_a_clear_with_column_numbers_at_its_cells_is_read():
    # A spaced 8x8 board, wide cells, pieces in colour, the screen cleared first: X in column 1.
    empty = " " + "   ".join("_" * 8) + " "
    rows = [empty] * 7 + [" \x1b[91m●\x1b[0m   " + "   ".join("_" * 7) + " "]
    screen = ScreenReading(200)
    screen.feed("\x1b[H\x1b[2J\n 1   2   3   4   5   6   7   8\n" + "\n".join(rows) + "\n\nConnected pieces for Bob (○): 0\n○ to play? ")
    board = "/".join(["_" * 8] * 7 + ["X" + "_" * 7])
    expected = [("board", board), ("counts", "right"), ("prompt", "column")]
    assert connect_reading.facts(screen.take_turn(), expected=expected) == expected
