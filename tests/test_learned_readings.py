"""The games' readers learn the program's drawing from a known board and read a message by what
the turn expects: Reversi's from its start (every case begins with it), Connect's from the board the
reference drew for the same inputs. Each text below is one a program may print; each expectation
what a person reads in it, derived from the rules (the start, a drop, a capture)."""
import pytest

from reference import connect_reading, reversi_reading
from reference.reversi import BLACK, WHITE, initial_board, render

START = "  abcdef\n1 ......\n2 ......\n3 ..○●..\n4 ..●○..\n5 ......\n6 ......"
# Black plays b3: c3 (white) between b3 and d3 (black) is captured
AFTER_B3 = "  abcdef\n1 ......\n2 ......\n3 .●●●..\n4 ..●○..\n5 ......\n6 ......"


def framed(board: str, black: str = "●", white: str = "○") -> str:
    """A board in a frame with the row number on both sides (`1 | . . ○ ● . . | 1`)."""
    rows = board.split("\n")[1:]
    glyphs = {".": ".", "●": black, "○": white}
    lines = ["    a b c d e f", "  +-------------+"]
    lines += [f"{n} | " + " ".join(glyphs[ch] for ch in row[2:]) + f" | {n}" for n, row in enumerate(rows, 1)]
    return "\n".join(lines + ["  +-------------+", "    a b c d e f"])


def test_the_start_reads_as_the_reference_draws_it():
    assert render(initial_board()).rstrip("\n") == START


def test_a_framed_board_with_row_numbers_on_both_sides_is_learned_from_the_start():
    run = [framed(START) + "\n\nBlack's turn\nRow? (1-6) ", "Column? (a-f) ", "\n" + framed(AFTER_B3) + "\n\nWhite's turn\n"]
    read = reversi_reading.read_run(run)
    assert read[0] == START + "\n\nBlack's turn\nRow? (1-6) "
    assert read[2] == "\n" + AFTER_B3 + "\n\nWhite's turn\n"


def test_a_wrong_board_in_the_learned_drawing_reads_as_wrong():
    wrong = AFTER_B3.replace("3 .●●●..", "3 .●○●..")  # c3 not captured
    read = reversi_reading.read_run([framed(START), framed(wrong)])
    assert read[1] == wrong != AFTER_B3


def test_the_handout_s_pieces_keep_their_meaning():
    """A start drawn with ● for white is a wrong start, not a drawing with ● for white."""
    swapped = framed(START, black="○", white="●")
    assert not reversi_reading.learn([swapped])
    assert reversi_reading.read_run([swapped])[0] != START


def test_a_later_glyph_never_learned_is_not_read_as_a_board():
    later = framed(AFTER_B3).replace("●", "*", 1)  # one black piece drawn otherwise
    read = reversi_reading.read_run([framed(START), later])
    assert AFTER_B3 not in read[1] and "not readable" in read[1]
    assert read[1].notes


@pytest.mark.parametrize("lines, count, result", [
    (["Final count: black=20, white=16", "Black wins!"], "black=20, white=16", "black"),
    (["Black has 16 pieces and White has 20 pieces.", "The winner is White."], "black=16, white=20", "white"),
    (["● 18 ○ 18", "Nobody wins: it's a tie."], "black=18, white=18", "tie"),
])
def test_the_end_lines_are_read_in_any_words(lines, count, result):
    text = "\nWhite's turn\nNo legal moves!\nGame over:\n\n" + START + "\n\n" + "\n".join(lines) + "\n"
    found = reversi_reading.facts(text)
    assert ("count", count) in found and ("result", result) in found
    assert ("final", "/".join(row[2:] for row in START.split("\n")[1:])) in found


def test_no_board_after_the_last_turn_announced_is_no_final_board():
    found = reversi_reading.facts(START + "\n\nWhite's turn\nNo legal moves!\nFinal count: black=2, white=2\nIt's a tie!")
    assert [kind for kind, _ in found if kind == "final"] == []


EMPTY8 = "/".join(["________"] * 8)
ONE_X = "/".join(["________"] * 7 + ["___X____"])
CONNECT_BOARD = "\n 1 2 3 4 5 6 7 8\n" + "|_|_|_|_|_|_|_|_|\n" * 7 + "|_|_|_|X|_|_|_|_|\n"


@pytest.mark.parametrize("line, expected, fact", [
    ("Longest lines -> Alice: 1, Bob: 0 (need 4)", [("board", ONE_X), ("counts", "right")], ("counts", "right")),
    ("Alice got Connect Four and wins!", [("board", ONE_X), ("result", "alice")], ("result", "alice")),
    ("Column 9 is not on the board.", [("board", ONE_X), ("refused", "column")], ("refused", "column")),
])
def test_a_connect_line_is_read_as_the_turn_expects(line, expected, fact):
    text = CONNECT_BOARD + line + "\n"
    assert fact not in connect_reading.facts(text)  # its likeliest reading alone is another
    assert fact in connect_reading.facts(text, expected=expected)


def test_the_turn_never_makes_a_wrong_connect_answer_right():
    text = CONNECT_BOARD + "Bob got Connect Four and wins!\n"
    assert ("result", "bob") in connect_reading.facts(text, expected=[("board", ONE_X), ("result", "alice")])
    chatter = CONNECT_BOARD + "Nice move, Alice.\n"  # no refusal in it, whatever the turn expects
    assert ("refused", "column") not in connect_reading.facts(chatter, expected=[("refused", "column")])


def test_a_connect_board_generous_reading_misses_is_learned_from_the_reference_s():
    framed_x = ("    1   2   3   4   5   6   7   8\n" + "  +" + "---+" * 8 + "\n"
                + "".join(f"{8 - r} |" + "|".join(f" {'X' if (r, c) == (7, 3) else '~'} " for c in range(8)) + "|\n"
                          for r in range(8)) + "  +" + "---+" * 8 + "\nColumn: ")
    assert ("board", ONE_X) not in connect_reading.facts(framed_x)
    assert ("board", ONE_X) in connect_reading.facts(framed_x, expected=[("board", ONE_X)])
    missing = framed_x.replace(" X |", " ~ |")  # the drop not shown: an empty board, read as one
    assert connect_reading.facts(missing, expected=[("board", ONE_X)])[0] != ("board", ONE_X)
    assert ("board", EMPTY8) not in connect_reading.facts(framed_x, expected=[("board", EMPTY8)])
