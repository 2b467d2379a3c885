"""The Connect 4/5/6 reference: exact bytes of the Connect section of formats.md, and its rules.

The expected transcripts are spelled out from formats.md (prompts without a newline, the empty
line after every board, two spaces in the good-bye line), not produced by the reference.
"""
import os
import subprocess
import sys

import pytest

from reference.connect import Board, Player, parse_connect, stats_table
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a course game's reference, byte for byte

USAGE = "Usage: java -cp bin ConnectGame {4 - 6} player1 player2\n"
GOODBYE = "\n\nThank you for playing today.  Good bye!\n"
HEADERS = {8: " 1 2 3 4 5 6 7 8", 10: " 1 2 3 4 5 6 7 8 910", 12: " 1 2 3 4 5 6 7 8 9101112"}


def run(args, stdin=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "reference.connect", *args], input=stdin.encode(),
                          capture_output=True, cwd=ROOT, env=env, timeout=30)
    return proc.returncode, proc.stdout.decode("utf-8")


def moves(*columns):
    return "\n".join(str(c) for c in columns) + "\n"


def welcome(word="Four", one="Alice", two="Bob"):
    return f"Welcome to Connect {word}\n{one} plays first with symbol X\n{two} plays next with symbol O\n\n"


def display(size, *bottom_rows):
    """A board display: `bottom_rows` are the lowest rows' cells, bottom row first."""
    rows = ["_" * size] * (size - len(bottom_rows)) + list(reversed(bottom_rows))
    return "\n" + HEADERS[size] + "\n" + "".join("|" + "".join(c + "|" for c in r) + "\n" for r in rows) + "\n"


def turn(name, sym, count, size=8):
    return f"Player {name} ({sym}) has {count} connected pieces.\n" + prompt(sym, size)


def prompt(sym, size=8):
    return f"Enter the column to place your {sym} piece (1 to {size}) or q to quit: "


def stats(*rows):
    return "              Wins    Losses    Draws\n" + "".join(rows)


AGAIN = "\nWould you like to play again (y/n)? "


# ---------------------------------------------------------------- whole transcripts

def test_short_game_connect_four_exact():
    code, out = run(["4", "Alice", "Bob"], "3\n3\n4\nq\n")
    assert code == 0
    assert out == (
        "Welcome to Connect Four\n"
        "Alice plays first with symbol X\n"
        "Bob plays next with symbol O\n"
        "\n"
        "\n"
        " 1 2 3 4 5 6 7 8\n" + "|_|_|_|_|_|_|_|_|\n" * 8 + "\n"
        "Player Alice (X) has 0 connected pieces.\n"
        "Enter the column to place your X piece (1 to 8) or q to quit: "
        "\n"
        " 1 2 3 4 5 6 7 8\n" + "|_|_|_|_|_|_|_|_|\n" * 7 + "|_|_|X|_|_|_|_|_|\n" "\n"
        "Player Bob (O) has 0 connected pieces.\n"
        "Enter the column to place your O piece (1 to 8) or q to quit: "
        "\n"
        " 1 2 3 4 5 6 7 8\n" + "|_|_|_|_|_|_|_|_|\n" * 6 + "|_|_|O|_|_|_|_|_|\n" "|_|_|X|_|_|_|_|_|\n" "\n"
        "Player Alice (X) has 1 connected pieces.\n"
        "Enter the column to place your X piece (1 to 8) or q to quit: "
        "\n"
        " 1 2 3 4 5 6 7 8\n" + "|_|_|_|_|_|_|_|_|\n" * 6 + "|_|_|O|_|_|_|_|_|\n" "|_|_|X|X|_|_|_|_|\n" "\n"
        "Player Bob (O) has 1 connected pieces.\n"
        "Enter the column to place your O piece (1 to 8) or q to quit: "
        "\n\nThank you for playing today.  Good bye!\n"
    )


@pytest.mark.parametrize("n, word, size", [(5, "Five", 10), (6, "Six", 12)])
def test_short_game_connect_five_and_six_exact(n, word, size):
    code, out = run([str(n), "Ann", "Ben"], f"{size}\n1\nquit\n")
    assert code == 0
    empty = "_" * size
    assert out == (
        welcome(word, "Ann", "Ben")
        + display(size) + turn("Ann", "X", 0, size)
        + display(size, empty[:-1] + "X") + turn("Ben", "O", 0, size)
        + display(size, "O" + empty[1:-1] + "X") + turn("Ann", "X", 1, size)
        + GOODBYE
    )


def test_headers_of_the_three_sizes():
    for n, size in ((4, 8), (5, 10), (6, 12)):
        out = run([str(n), "A", "B"], "q\n")[1]
        assert "\n\n" + HEADERS[size] + "\n|" + "_|" * size + "\n" in out


@pytest.mark.parametrize("args", [[], ["4"], ["4", "Alice"], ["X", "Alice", "Bob"], ["3", "Alice", "Bob"],
                                  ["7", "Alice", "Bob"], ["4.0", "Alice", "Bob"], ["", "Alice", "Bob"],
                                  ["99999999999", "Alice", "Bob"]])
def test_usage_errors(args):
    assert run(args, "1\n") == (1, USAGE)


def test_further_arguments_ignored_and_sign_accepted():
    code, out = run(["+5", "Ann", "Ben", "Cat", "-x"], "q\n")
    assert (code, out) == (0, welcome("Five", "Ann", "Ben") + display(10) + turn("Ann", "X", 0, 10) + GOODBYE)


# ---------------------------------------------------------------- input errors

def test_column_out_of_range_reprompts_without_player_line():
    code, out = run(["4", "Alice", "Bob"], "0\n9\n-3\nq\n")
    bad = "Invalid column number, please try again.\n"
    assert code == 0
    assert out == welcome() + display(8) + turn("Alice", "X", 0) + (bad + prompt("X")) * 3 + GOODBYE


def test_not_a_number_reprompts():
    code, out = run(["4", "Alice", "Bob"], "abc\n3.5\n2147483648\nq\n")
    bad = "\nNot a number, please try again.\n"
    assert code == 0
    assert out == welcome() + display(8) + turn("Alice", "X", 0) + (bad + prompt("X")) * 3 + GOODBYE


def test_full_column_reprompts_with_player_line():
    code, out = run(["4", "Alice", "Bob"], moves(*[1] * 8) + "1\n2\nq\n")
    assert code == 0
    column = ["X", "O"] * 4  # column 1, bottom to top
    board = display(8, *[column[r] + "_______" for r in range(8)])
    expected_tail = (
        board + turn("Alice", "X", 1)
        + " Sorry, that column is full, please try again:\n" + turn("Alice", "X", 1)
        + display(8, "XX______", *[column[r] + "_______" for r in range(1, 8)]) + turn("Bob", "O", 1)
        + GOODBYE
    )
    assert out.endswith(expected_tail)


def test_tokens_on_one_line_are_read_one_by_one():
    code, out = run(["4", "Alice", "Bob"], "3 word 3\n  \n4 q\n")
    assert code == 0
    assert out == (welcome() + display(8) + turn("Alice", "X", 0)
                   + display(8, "__X_____") + turn("Bob", "O", 0)
                   + "\nNot a number, please try again.\n" + prompt("O")
                   + display(8, "__X_____", "__O_____") + turn("Alice", "X", 1)
                   + display(8, "__XX____", "__O_____") + turn("Bob", "O", 1)
                   + GOODBYE)


@pytest.mark.parametrize("word", ["q", "Q", "quit", "Quit", "qwerty"])
def test_quit_at_first_prompt(word):
    assert run(["4", "Alice", "Bob"], word + "\n") == (0, welcome() + display(8) + turn("Alice", "X", 0) + GOODBYE)


def test_quit_at_later_prompt_and_after_errors():
    code, out = run(["4", "Alice", "Bob"], "1\n2\nzz\nquit\n5\n")
    assert code == 0
    assert out.endswith(display(8, "XO______") + turn("Alice", "X", 1)
                        + "\nNot a number, please try again.\n" + prompt("X") + GOODBYE)


def test_end_of_input_exits_1_after_the_prompt():
    assert run(["4", "Alice", "Bob"], "1\n") == (1, welcome() + display(8) + turn("Alice", "X", 0)
                                                 + display(8, "X_______") + turn("Bob", "O", 0))
    code, out = run(["4", "Alice", "Bob"], moves(1, 2, 1, 2, 1, 2, 1))
    assert code == 1 and out.endswith(AGAIN)


# ---------------------------------------------------------------- wins and draws

WINS = {
    "horizontal": ([1, 1, 2, 2, 3, 3, 4], ("XXXX____", "OOO_____")),
    "vertical": ([1, 2, 1, 2, 1, 2, 1], ("XO______", "XO______", "XO______", "X_______")),
    "forward slash": ([1, 2, 2, 3, 3, 4, 3, 4, 4, 8, 4], ("XOOO___O", "_XXO____", "__XX____", "___X____")),
    "backslash": ([4, 3, 3, 2, 2, 1, 2, 1, 1, 8, 1], ("OOOX___O", "OXX_____", "XX______", "X_______")),
}


@pytest.mark.parametrize("direction", sorted(WINS))
def test_win_in_each_direction(direction):
    cols, final = WINS[direction]
    code, out = run(["4", "Alice", "Bob"], moves(*cols) + "n\n")
    assert code == 0
    assert out.endswith(
        turn("Alice", "X", 3) + display(8, *final) + "\nAlice wins!\n\n"
        + stats("Alice:          1       0       0\n", "Bob:            0       1       0\n")
        + AGAIN + GOODBYE)
    assert out.count("wins!") == 1


def test_run_longer_than_n_wins():
    code, out = run(["4", "Alice", "Bob"], moves(1, 1, 2, 2, 4, 4, 5, 5, 3) + "n\n")
    assert code == 0
    assert out.endswith(turn("Alice", "X", 2) + display(8, "XXXXX___", "OO_OO___") + "\nAlice wins!\n\n"
                        + stats("Alice:          1       0       0\n", "Bob:            0       1       0\n")
                        + AGAIN + GOODBYE)


def test_second_player_wins():
    code, out = run(["4", "Alice", "Bob"], moves(1, 2, 3, 2, 4, 2, 6, 2) + "n\n")
    assert out.endswith(display(8, "XOXX_X__", "_O______", "_O______", "_O______") + "\nBob wins!\n\n"
                        + stats("Alice:          0       1       0\n", "Bob:            1       0       0\n")
                        + AGAIN + GOODBYE)


def draw_pattern(size):
    """A full board without three in a line: rows XXOOXXOO.. and OOXXOOXX.. alternate."""
    return [["X" if (c // 2 + r) % 2 == 0 else "O" for c in range(size)] for r in range(size)]


def draw_moves(size):
    """Fill the pattern two rows at a time from the bottom, X first and then turn about.

    X takes the X cells of the lower row then those of the upper row, O likewise; every upper
    cell stands on a cell of the other symbol, which that player has filled by then.
    """
    pattern = draw_pattern(size)
    columns = []
    for lower in range(size - 1, 0, -2):
        pair = (pattern[lower], pattern[lower - 1])
        xs = [c + 1 for row in pair for c in range(size) if row[c] == "X"]
        os_ = [c + 1 for row in pair for c in range(size) if row[c] == "O"]
        for x, o in zip(xs, os_):
            columns += [x, o]
    return columns


def test_draw_on_full_board():
    code, out = run(["4", "Alice", "Bob"], moves(*draw_moves(8)) + "n\n")
    rows = ["".join(r) for r in reversed(draw_pattern(8))]
    assert code == 0
    assert "wins!" not in out
    assert out.endswith(turn("Bob", "O", 2) + display(8, *rows) + "\nIt's a draw!\n\n"
                        + stats("Alice:          0       0       1\n", "Bob:            0       0       1\n")
                        + AGAIN + GOODBYE)


@pytest.mark.parametrize("n", [5, 6])
def test_draw_on_larger_boards(n):
    code, out = run([str(n), "Alice", "Bob"], moves(*draw_moves(2 * n)) + "n\n")
    assert code == 0 and "\nIt's a draw!\n\n" in out and "wins!" not in out


# The 64th piece (O in column 1) fills the board and completes O's top row OOOO: a win, not a draw.
LAST_MOVE_WINS = [3, 1, 1, 1, 1, 1, 1, 2, 1, 3, 2, 2, 2, 2, 2, 2, 3, 2, 4, 3, 3, 3, 3, 3, 7, 4, 4, 4, 4, 4, 4, 4,
                  8, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 7, 1]
LAST_BOARD = ["OOXXOOXX", "XXOOXXOO", "OOXXOOXX", "XXOOXXOO", "OOXXOOXX", "XXOOXXOO", "XOXXOOXX", "OOOOXXXO"]


def test_win_is_checked_before_draw():
    code, out = run(["4", "Alice", "Bob"], moves(*LAST_MOVE_WINS) + "n\n")
    assert code == 0
    assert "draw" not in out
    assert out.endswith(display(8, *LAST_BOARD) + "\nBob wins!\n\n"
                        + stats("Alice:          0       1       0\n", "Bob:            1       0       0\n")
                        + AGAIN + GOODBYE)


# ---------------------------------------------------------------- after a game

X_WINS_FAST = moves(1, 2, 1, 2, 1, 2, 1)          # the starter wins in column 1
STATS_1_0 = stats("Alice:          1       0       0\n", "Bob:            0       1       0\n")


def test_play_again_unrecognized_then_no():
    code, out = run(["4", "Alice", "Bob"], X_WINS_FAST + "maybe\n7\nno\n")
    assert code == 0
    assert out.endswith(STATS_1_0 + AGAIN + "Unrecognized response maybe, please enter y or n.\n"
                        + AGAIN + "Unrecognized response 7, please enter y or n.\n" + AGAIN + GOODBYE)


@pytest.mark.parametrize("answer", ["n", "N", "no", "nope"])
def test_play_again_no(answer):
    assert run(["4", "Alice", "Bob"], X_WINS_FAST + answer + "\n")[1].endswith(STATS_1_0 + AGAIN + GOODBYE)


@pytest.mark.parametrize("answer", ["y", "Y", "yes", "Yes"])
def test_play_again_yes_starts_new_game_with_second_player(answer):
    code, out = run(["4", "Alice", "Bob"], X_WINS_FAST + answer + "\nq\n")
    assert (code, out.endswith(STATS_1_0 + AGAIN + display(8) + turn("Bob", "O", 0) + GOODBYE)) == (0, True)
    assert out.count("Welcome") == 1


def test_three_games_accumulate_stats_and_alternate_starters():
    game1 = moves(1, 2, 1, 2, 1, 2, 1)             # Alice starts, Alice wins
    game2 = moves(1, 2, 1, 2, 1, 2, 1)             # Bob starts, Bob wins
    game3 = moves(*draw_moves(8))                  # Alice starts, draw
    code, out = run(["4", "Alice", "Bob"], game1 + "y\n" + game2 + "yes\n" + game3 + "n\n")
    assert code == 0
    games = out.split(AGAIN)
    assert len(games) == 4 and games[3] == GOODBYE
    assert games[0].startswith(welcome() + display(8) + turn("Alice", "X", 0))
    assert games[0].endswith("\nAlice wins!\n\n" + STATS_1_0)
    assert games[1].startswith(display(8) + turn("Bob", "O", 0) + display(8, "O_______"))
    assert games[1].endswith("\nBob wins!\n\n" + stats("Alice:          1       1       0\n",
                                                         "Bob:            1       1       0\n"))
    assert games[2].startswith(display(8) + turn("Alice", "X", 0) + display(8, "__X_____"))
    assert games[2].endswith("\nIt's a draw!\n\n" + stats("Alice:          1       1       1\n",
                                                           "Bob:            1       1       1\n"))


def test_stats_names_padded_to_twelve():
    code, out = run(["4", "Maximilianus", "Jo"], X_WINS_FAST + "n\n")
    assert out.endswith(stats("Maximilianus:     1       0       0\n", "Jo:             0       1       0\n")
                        + AGAIN + GOODBYE)


# ---------------------------------------------------------------- rules, without a subprocess

def board_from(rows):
    """A Board from its rows as printed, top row first (`_` empty)."""
    b = Board(len(rows) // 2)
    b.cells = [list(r) for r in rows]
    b.pieces = sum(c != "_" for r in rows for c in r)
    return b


def test_drop_stacks_and_refuses_full_or_missing_columns():
    b = Board(4)
    assert [b.drop(0, s) for s in "XOXOXOXO"] == [True] * 8
    assert b.drop(0, "X") is False and b.pieces == 8
    assert b.drop(-1, "X") is False and b.drop(8, "X") is False
    assert str(b).splitlines()[0] == "|O|_|_|_|_|_|_|_|" and str(b).splitlines()[7] == "|X|_|_|_|_|_|_|_|"
    assert b.column_full(0) and not b.column_full(1)


@pytest.mark.parametrize("rows, x, o", [
    (["________"] * 7 + ["XXX_XXXO"], 3, 1),                                      # a gap breaks a row
    (["________"] * 4 + ["X_______", "X_______", "X___O___", "X_O_____"], 4, 1),  # column
    (["________"] * 4 + ["___X____", "__X_____", "_X______", "X_______"], 4, 0),  # forward slash
    (["________"] * 4 + ["X_______", "_X______", "__X_____", "___X____"], 4, 0),  # backslash
    (["_______X", "X_______"] + ["________"] * 6, 1, 0),                         # no wrap across rows
    (["_______X", "______X_"] + ["________"] * 6, 2, 0),                         # diagonal at the edge
    (["________"] * 7 + ["OXXXXXO_"], 5, 1),                                      # longer than n
    (["________"] * 8, 0, 0),
])
def test_longest_run(rows, x, o):
    b = board_from(rows)
    assert (b.longest_run("X"), b.longest_run("O")) == (x, o)


def test_run_through_counts_both_ways():
    b = board_from(["________"] * 4 + ["___X____", "__X_____", "_X______", "X_______"])
    assert b.run_through(5, 2, 1, -1) == 4        # middle of the '/' line
    assert b.run_through(5, 2, 0, 1) == 1
    assert b.run_from(5, 2, 1, -1) == 3 and b.run_from(5, 2, -1, 1) == 2
    assert b.run_through(0, 0, 0, 1) == 0         # empty cell


@pytest.mark.parametrize("n", [4, 5, 6])
def test_draw_moves_fill_the_pattern_without_a_line_of_three(n):
    b = Board(n)
    for c in draw_moves(2 * n):
        assert not b.is_full()
        assert b.drop(c - 1, "XO"[b.pieces % 2])
    assert b.is_full() and b.cells == draw_pattern(2 * n)
    assert b.longest_run("X") == 2 and b.longest_run("O") == 2


def test_headers():
    assert Board(6).header() == HEADERS[12] and Board(5).header() == HEADERS[10]


def test_connect_size_and_argument_parsing():
    with pytest.raises(ValueError):
        Board(3)
    with pytest.raises(ValueError):
        Board(7)
    assert [parse_connect(t) for t in ("4", "+5", "06", "3", "7", "x", " 4", "4_0", "٤")] == \
        [4, 5, 6, None, None, None, None, None, 4]


def test_stats_table():
    a, b = Player("Alice", "X"), Player("verylongplayername", "O")
    a.wins, b.losses, b.draws = 12, 3, 100
    assert stats_table([a, b]) == ("              Wins    Losses    Draws\n"
                                   "Alice:         12       0       0\n"
                                   "verylongplayername:     0       3     100\n")
