"""Learning a program's own drawing of a grid from a board whose values are known, and reading
later boards with it (harness/judging/drawing.py). Synthetic grids: `e` empty, `p` and `q` two
pieces; each drawing is one a program may print, each expectation what a person reads in it."""
from harness.judging import drawing

KNOWN = (("e", "e", "e", "e"),
         ("e", "q", "p", "e"),
         ("e", "p", "q", "e"),
         ("e", "e", "e", "e"))
LATER = (("e", "e", "e", "e"),
         ("e", "q", "p", "e"),
         ("e", "p", "p", "e"),
         ("e", "e", "p", "e"))


def framed(grid, glyphs=None, number=True) -> list[str]:
    """The grid in a frame, with the column letters above and below and the row number on
    both sides (`1 | . . o x | 1`)."""
    glyphs = glyphs or {"e": ".", "p": "x", "q": "o"}
    lines = ["    a b c d", "  +---------+"]
    for n, row in enumerate(grid, 1):
        label = str(n) if number else " "
        lines.append(f"{label} | " + " ".join(glyphs[value] for value in row) + f" | {label}")
    return lines + ["  +---------+", "    a b c d"]


def test_a_framed_drawing_with_labels_on_both_sides_is_learned_and_reads_later_boards():
    learned = drawing.learn(KNOWN, ["Welcome!"] + framed(KNOWN) + ["", "Your move: "])
    assert learned and not learned.problem
    later = ["", "You played c4."] + framed(LATER) + ["Your move: "]
    found = drawing.boards(learned, later)
    assert [(board.start, board.end, board.grid) for board in found] == [(2, 2 + len(LATER) + 4, LATER)]


def test_the_frame_lines_are_learned_but_a_message_just_above_the_board_is_not():
    learned = drawing.learn(KNOWN, ["Welcome!"] + framed(KNOWN))
    assert all("Welcome!" not in way.above for way in learned.drawings)
    assert [board.start for board in drawing.boards(learned, ["Welcome!"] + framed(LATER))] == [1]


def test_a_wrong_board_in_the_learned_drawing_reads_as_the_wrong_board_it_is():
    learned = drawing.learn(KNOWN, framed(KNOWN))
    wrong = tuple(tuple("q" if value == "p" else value for value in row) for row in LATER)
    [board] = drawing.boards(learned, framed(wrong))
    assert board.grid == wrong != LATER


def test_rows_between_separator_lines_with_wide_cells_are_learned():
    def boxed(grid):
        glyphs = {"e": " ", "p": "X", "q": "O"}
        rule = "+---+---+---+---+"
        return [rule] + [line for row in grid for line in ("| " + " | ".join(glyphs[v] for v in row) + " |", rule)]
    learned = drawing.learn(KNOWN, boxed(KNOWN))
    assert learned
    assert [board.grid for board in drawing.boards(learned, ["Board:"] + boxed(LATER))] == [LATER]


def test_two_glyphs_for_one_value_are_not_learnable():
    lines = framed(KNOWN)
    lines[3] = lines[3].replace("x", "*")  # the p in row 2 drawn `*`, the one in row 3 `x`
    learned = drawing.learn(KNOWN, lines)
    assert not learned and "one glyph for each value" in learned.problem


def test_one_glyph_for_two_values_is_not_learnable():
    learned = drawing.learn(KNOWN, framed(KNOWN, {"e": ".", "p": "x", "q": "x"}))
    assert not learned and learned.problem


def test_a_glyph_against_its_fixed_meaning_is_not_learnable():
    swapped = framed(KNOWN, {"e": ".", "p": "o", "q": "x"})
    assert drawing.learn(KNOWN, swapped)  # nothing says what o and x stand for
    assert not drawing.learn(KNOWN, swapped, fixed={"x": "p", "o": "q"})


def test_a_later_glyph_never_learned_is_reported_not_read():
    learned = drawing.learn(KNOWN, framed(KNOWN))
    [board] = drawing.boards(learned, framed(LATER, {"e": ".", "p": "*", "q": "o"}))
    assert board.grid is None and "'*'" in board.problem


def test_a_value_missing_from_the_known_board_is_read_by_its_fixed_glyph_only():
    empty = tuple(("e",) * 4 for _ in range(4))
    learned = drawing.learn(empty, framed(empty), fixed={"x": "p", "o": "q"})
    assert [board.grid for board in drawing.boards(learned, framed(LATER))] == [LATER]
    [unknown] = drawing.boards(learned, framed(LATER, {"e": ".", "p": "#", "q": "o"}))
    assert unknown.grid is None


def test_cells_are_never_read_on_the_frame_beside_a_piece_out_of_place():
    """An empty board known, a piece drawn where none belongs: read on the bars of `|_|X|_|`
    the cells would all be empty, the right board; the X between them says they are not cells."""
    empty = (("e", "e", "e"),)
    assert drawing.learn(empty, ["|_|_|_|"], fixed={"X": "p"})
    assert not drawing.learn(empty, ["|_|X|_|"], fixed={"X": "p"})


def test_ways_that_read_the_same_board_alike_are_one_board():
    empty = (("e", "e"),)
    learned = drawing.learn(empty, ["[ ] [ ]"], fixed={"X": "p"})  # cells in the brackets or the spaces between
    assert learned
    assert [board.grid for board in drawing.boards(learned, ["[ ] [ ]"])] == [empty]
    assert [board.grid for board in drawing.boards(learned, ["[X] [ ]"])] == [(("p", "e"),)]


def test_a_board_drawn_otherwise_than_learned_is_not_read():
    learned = drawing.learn(KNOWN, framed(KNOWN))
    assert drawing.boards(learned, framed(LATER, number=False)) == []


def test_text_without_the_known_board_teaches_nothing():
    learned = drawing.learn(KNOWN, ["Hello", "Your move: "] + framed(LATER))
    assert not learned and learned.problem
    assert drawing.boards(learned, framed(KNOWN)) == []


def test_hostile_lines_are_bounded():
    flood = ["x" * 100_000] * 10 + framed(KNOWN)
    assert drawing.learn(KNOWN, flood)  # the long lines are skipped, the board found
    assert drawing.learn(KNOWN, ["."] * (drawing.MOST_LINES + 10) + framed(KNOWN)).problem


def test_a_bare_drawing_after_a_blank_line_is_read_from_its_first_row():
    """Rows with no label or frame: the blank line before the board is no row of it (no cell of
    this drawing is ever blank), so the board read is the one printed, not an unreadable one."""
    def bare(grid) -> list[str]:
        return ["".join({"e": ".", "p": "@", "q": "O"}[value] for value in row) for row in grid]

    learned = drawing.learn(KNOWN, bare(KNOWN))
    assert learned and not learned.problem
    found = drawing.boards(learned, ["", "White's turn"] + [""] + bare(LATER) + ["", "Row? "])
    assert [(board.start, board.grid) for board in found] == [(3, LATER)]
