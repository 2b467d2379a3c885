"""The games' readers: every drawing a person reads as the board is read as the reference draws
it, and what a person reads in a turn (the facts) whatever the wording. Pure functions on text:
each drawing below is one a program may print, each expectation what a person reads in it."""
import pytest

from reference import reversi_reading, silver_dollar_reading

STRIP = "_ 0 _ _ 1 2"
DRAWINGS = [
    "_ 0 _ _ 1 2",
    ". 0 . . 1 2",
    "-  0  -  -  1  2",
    "_\t0\t_\t_\t1\t2",
    "[ ][0][ ][ ][1][2]",
    "[_] [0] [_] [_] [1] [2]",
    "(_) (0) (_) (_) (1) (2)",
    "| |0| | |1|2|",
    "_|0|_|_|1|2|",
    "_ | 0 | _ | _ | 1 | 2",
    "_0__12",
    "C0".join(["_ ", " _ _ C1 C2"]),
    "+---+---+---+---+---+---+\n|   | 0 |   |   | 1 | 2 |\n+---+---+---+---+---+---+",
    "+ - - - + - - - + - - - + - - - + - - - + - - - +\n\n|       |   0   |       |       |   1   |   2   |\n\n"
    "+ - - - + - - - + - - - + - - - + - - - + - - - +",
    "+-----+-----+-----+-----+-----+-----+\n|     |     |     |     |     |     |\n|     |  0  |     |     |  1  |  2  |\n"
    "|     |     |     |     |     |     |\n+-----+-----+-----+-----+-----+-----+",
    "┌───┬───┬───┬───┬───┬───┐\n│   │ 0 │   │   │ 1 │ 2 │\n└───┴───┴───┴───┴───┴───┘",
    "╔═══╦═══╦═══╦═══╦═══╦═══╗\n║   ║ 0 ║   ║   ║ 1 ║ 2 ║\n╚═══╩═══╩═══╩═══╩═══╩═══╝",
    "0 1 2 3 4 5\n_ 0 _ _ 1 2",
    "  0   1   2   3   4   5\n|   | 0 |   |   | 1 | 2 |",
]


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_every_drawing_of_the_strip_reads_as_the_plain_line(drawing):
    assert silver_dollar_reading.read_boards(drawing) == STRIP
    assert silver_dollar_reading.facts(drawing + "\nPlayer 2: Enter your move: ") == [("board", STRIP), ("player", "2")]


def test_a_board_after_words_keeps_the_words_on_their_own_line():
    assert silver_dollar_reading.read_boards("Board: _ 0 _ 1\nPlayer 1: Enter your move: ") == \
        "Board:\n_ 0 _ 1\nPlayer 1: Enter your move: "


@pytest.mark.parametrize("line, player", [
    ("Player 1: Enter your move: ", "1"), ("Your turn, player 2 > ", "2"), ("P1 move: ", "1"),
    ("Player #2, coin and distance? ", "2"), ("Player one, go", "1"), ("First player, your move: ", "1"),
    ("2nd player> ", "2"),
])
def test_the_player_a_line_asks_whatever_the_wording(line, player):
    assert silver_dollar_reading.facts(line) == [("player", player)]


@pytest.mark.parametrize("line, player", [
    ("Congratulations, player 2!", "2"), ("Game over: player 1 won, player 2 lost.", "1"),
    ("Player 2 wins! Player 1 loses.", "2"), ("The second player wins!", "2"),
])
def test_the_winner_a_line_declares_whatever_the_wording(line, player):
    assert silver_dollar_reading.facts(line) == [("winner", player)]


@pytest.mark.parametrize("text", ["Player 1 wins! Player 2 wins!", "Player 1 wins!\nPlayer 2 wins!",
                                  "Player 1 wins! (or Player 2 wins!)"])
def test_two_winners_are_two_answers(text):
    """Free words, required meaning: a turn that names both players the winner says nothing."""
    assert sorted(silver_dollar_reading.facts(text)) == [("winner", "1"), ("winner", "2")]


@pytest.mark.parametrize("line", ["Illegal move! Try again.", "Coin 9 is blocked or does not exist; again.",
                                  "Enter the number of coins: ", "players 12", "Player 1 and player 2, welcome"])
def test_lines_about_no_one_player_are_messages_in_free_words(line):
    assert silver_dollar_reading.facts(line) == [("said", "yes")]


def test_a_refusal_that_names_the_player_is_a_message_and_asks_again():
    assert silver_dollar_reading.facts("Player 1, that move is illegal. Try again: ") == \
        [("said", "yes"), ("player", "1")]


@pytest.mark.parametrize("text", ["1 2 3 4 5 6", "_ _ _ _", "the 3 coins 2", "0 " * 70000, "12", "Time: 10:30"])
def test_what_is_not_a_strip_is_left_as_it_is(text):
    assert silver_dollar_reading.read_boards(text) == text
    assert not [kind for kind, _ in silver_dollar_reading.facts(text) if kind == "board"]


def test_a_strip_already_final_is_a_board_and_square_numbers_beside_a_strip_are_labels():
    """`0 1` alone is a start the rules allow but that shows no game (drawn again, never
    charged); the same numbers beside a strip with an empty square are its labels, and said so."""
    assert silver_dollar_reading.facts("0 1\nPlayer 1: Enter your move: ") == [("board", "0 1"), ("player", "1")]
    read = silver_dollar_reading.read_boards("0 1 2 3\n_ 0 _ 1")
    assert read == "_ 0 _ 1" and any("labels" in note for note in read.notes)


def test_a_wrong_board_is_read_as_drawn_for_the_rules_to_judge():
    """Coins missing or out of order are the reference's to refuse (`Invalid start`), not the reader's."""
    assert silver_dollar_reading.facts("_ 0 _ 3 1") == [("board", "_ 0 _ 3 1")]


@pytest.mark.slow  # megabytes of hostile output read
def test_hostile_output_is_read_in_one_pass():
    """A million spaces, a line of 100,000 tokens and 100,000 short lines: read, not hung on."""
    assert silver_dollar_reading.read_boards("x" + " " * 1_000_000 + "y") == "x" + " " * 1_000_000 + "y"
    assert silver_dollar_reading.facts("_ 0 " * 50_000) == []
    many = "_ 0\n" * 100_000  # rows that cannot be one box (a coin on every row): each its own strip
    assert silver_dollar_reading.facts(many) == [("board", "_ 0")] * 100_000


GRID = "  abcdef\n1 ......\n2 ......\n3 ..○●..\n4 ..●○..\n5 ......\n6 ......"
GRIDS = [
    GRID,
    "  a b c d e f\n1 . . . . . .\n2 . . . . . .\n3 . . ○ ● . .\n4 . . ● ○ . .\n5 . . . . . .\n6 . . . . . .",
    "  ABCDEF\n1 ------\n2 ------\n3 --OX--\n4 --XO--\n5 ------\n6 ------",
    "......\n......\n..WB..\n..BW..\n......\n......",
    "   a b c d e f\n  +-+-+-+-+-+-+\n1 | | | | | | |\n2 | | | | | | |\n3 | | |O|X| | |\n4 | | |X|O| | |\n"
    "5 | | | | | | |\n6 | | | | | | |\n  +-+-+-+-+-+-+",
    "    a   b   c   d   e   f\n  ┌───┬───┬───┬───┬───┬───┐\n1 │   │   │   │   │   │   │ 1\n2 │   │   │   │   │   │   │ 2\n"
    "3 │   │   │ ○ │ ● │   │   │ 3\n4 │   │   │ ● │ ○ │   │   │ 4\n5 │   │   │   │   │   │   │ 5\n"
    "6 │   │   │   │   │   │   │ 6\n  └───┴───┴───┴───┴───┴───┘",
    "  a b c d e f\n0 . . . . . .\n1 . . . . . .\n2 . . o x . .\n3 . . x o . .\n4 . . . . . .\n5 . . . . . .",
]


@pytest.mark.parametrize("drawing", GRIDS)
def test_every_drawing_of_the_grid_reads_as_the_handouts(drawing):
    assert reversi_reading.read_boards(drawing + "\n\nBlack's turn") == GRID + "\n\nBlack's turn"


@pytest.mark.parametrize("text, found", [
    ("Black's turn\nRow? (1-6) ", [("turn", "black"), ("prompt", "row")]),
    ("Nope, try again.\nRow? (1-6) ", [("refused", "move"), ("prompt", "row")]),
    ("Final count: black=20, white=16\nBLACK WON!", [("count", "black=20, white=16"), ("result", "black")]),
    ("It's a draw!", [("result", "tie")]),
    ("White has no legal moves!\n", [("turn", "white"), ("skip", "no moves")]),
    ("Turn: ●\nRow? ", [("turn", "black"), ("prompt", "row")]),
    ("Player 2, your move", [("turn", "white")]),
    ("Player 1 wins!", [("result", "black")]),
])
def test_what_a_reversi_turn_says_whatever_the_wording(text, found):
    assert reversi_reading.facts(text) == found

