"""A program's own drawing of a grid, learned from a board whose values are known.

Where the handout leaves the drawing open, a list of known layouts always misses the next
student's. So a reader that knows a state (the start, or the board the reference drew for the
same inputs) learns from the program's text of that state where its cells are and which glyph
stands for which value, and reads later boards with that:
- where: which lines are the rows (one every `gap` lines), the column of each cell (evenly
  spaced: one glyph each, `width` apart), and everything else on a row line (a frame, row labels
  on any side, separators) as it must stay, with the lines between rows and up to a few frame
  lines just above and below the rows (the column labels, a border);
- which: one glyph for each value, one value for each glyph (a drawing with two glyphs for one
  value, or one glyph for two, is not learnable), never against a glyph's fixed meaning (the
  handout's pieces), and no glyph but a space outside the cells (cells read on the bars of
  `|_|_|` with an X beside them would read a board with a piece out of place as right).

Several ways of reading the known text as the known board are all kept; a later board they read
differently is ambiguous, and a board drawn in the learned way with a glyph never learned is not
readable: both are reported as such, never as a board. Plain string code, bounded by the caps
below and linear in the lines read; a reader calls it only on text a program printed.
"""
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from harness.judging.cpu_budget import spend

Grid = tuple[tuple[str, ...], ...]  # rows of cell values, top row first

LONGEST_LINE = 200  # a longer line is never a row of a board
MOST_LINES = 400  # lines of a text searched for the known board
WIDEST_CELL = 8  # characters from one cell to the next
GAPS = (1, 2, 3)  # lines from one row to the next (2, 3: separator lines between rows)
FRAME_LINES = 3  # non-blank lines just above or below the rows that belong to the drawing
MOST_WAYS = 8  # ways of reading one known text kept


def no_words(line: str) -> bool:
    """The default frame line: no word of two letters or more (borders, single letters,
    numbers), so a message printed just above a board is never taken for part of it."""
    run = 0
    for ch in line:
        run = run + 1 if ch.isalpha() else 0
        if run >= 2:
            return False
    return True


@dataclass(frozen=True)
class Drawing:
    """One learned way a program draws the grid: where the cells are, and the glyphs."""
    gap: int  # lines from one row to the next
    columns: tuple[int, ...]  # the character offset of each cell in a row line
    rows: tuple[str, ...]  # each row line with its cells blanked (NUL), spaces at its end dropped
    between: tuple[str, ...]  # the lines between two rows, as learned (gap > 1)
    above: tuple[str, ...]  # frame lines just above the first row, nearest last
    below: tuple[str, ...]  # frame lines just below the last row, nearest first
    glyphs: tuple[tuple[str, str], ...]  # (glyph, value), learned
    fixed: tuple[tuple[str, str], ...] = ()  # (glyph, value) by convention, for values not yet seen

    def value(self, glyph: str) -> str | None:
        """The value a glyph stands for: as learned, or by its fixed meaning when its value has no
        learned glyph; None for a glyph this drawing cannot read."""
        for known, value in self.glyphs:
            if known == glyph:
                return value
        seen = {value for _, value in self.glyphs}
        return next((value for known, value in self.fixed if known == glyph and value not in seen), None)


@dataclass(frozen=True)
class Learned:
    """What the known board's text taught: the ways it reads as that board (none: `problem`)."""
    drawings: tuple[Drawing, ...]
    problem: str = ""

    def __bool__(self) -> bool:
        return bool(self.drawings)


@dataclass(frozen=True)
class Board:
    """A board found in a text: lines [start, end) (its frame lines included) and its grid, or
    None with the reason when it is drawn the learned way but cannot be read as one board."""
    start: int
    end: int
    grid: Grid | None
    problem: str = ""


def _blank(line: str, columns: Sequence[int]) -> str:
    cells = list(line.ljust(columns[-1] + 1))
    for at in columns:
        cells[at] = "\0"
    return "".join(cells).rstrip(" ")


def _glyph_map(grid: Grid, lines: Sequence[str], columns: Sequence[int], fixed: Mapping[str, str]) -> dict | None:
    """glyph -> value when the cells at `columns` draw `grid` one glyph per value and one value
    per glyph, never against a fixed meaning; else None."""
    by_glyph: dict[str, str] = {}
    by_value: dict[str, str] = {}
    for values, line in zip(grid, lines):
        for value, at in zip(values, columns):
            glyph = line[at] if at < len(line) else " "
            if by_glyph.setdefault(glyph, value) != value or by_value.setdefault(value, glyph) != glyph:
                return None
            if fixed.get(glyph, value) != value:
                return None
    return by_glyph


def learn(known: Grid, lines: Sequence[str], fixed: Mapping[str, str] | None = None,
          frame: Callable[[str], bool] = no_words) -> Learned:
    """The ways `lines` draw the `known` grid. `fixed`: glyphs whose value is settled (a piece
    the handout names), which the drawing may not give another value; `frame`: whether a line
    next to the rows may be part of the drawing (column labels, a border)."""
    fixed = dict(fixed or {})
    height, width = len(known), len(known[0]) if known else 0
    if not height or not width or any(len(row) != width for row in known):
        return Learned((), "the known board is not a grid")
    lines = [line.rstrip("\r") for line in lines[:MOST_LINES]]
    found: list[Drawing] = []
    for start in range(len(lines)):
        spend()
        for gap in GAPS:
            last = start + (height - 1) * gap
            if last >= len(lines):
                break
            rows = [lines[start + i * gap] for i in range(height)]
            if any(len(row) > LONGEST_LINE or not row.strip() for row in rows):
                continue
            between = tuple(lines[start + 1:start + gap])
            if any(lines[start + i * gap + 1:start + (i + 1) * gap] != list(between) for i in range(height - 1)):
                continue
            longest = max(len(row) for row in rows)
            for step in range(1, WIDEST_CELL + 1):
                for first in range(0, longest - (width - 1) * step):
                    columns = tuple(first + j * step for j in range(width))
                    glyphs = _glyph_map(known, rows, columns, fixed)
                    if glyphs is None:
                        continue
                    drawing = _drawing(lines, start, gap, rows, columns, between, glyphs, fixed, frame)
                    if drawing is not None and drawing not in found:
                        found.append(drawing)
                        if len(found) >= MOST_WAYS:
                            return Learned(tuple(found))
    if not found:
        return Learned((), f"no {height}x{width} grid drawn with one glyph for each value (and one value "
                           "for each glyph) reads as the known board")
    return Learned(tuple(found))


def _drawing(lines, start, gap, rows, columns, between, glyphs, fixed, frame) -> Drawing | None:
    skeletons = tuple(_blank(row, columns) for row in rows)
    pieces = (set(glyphs) | set(fixed)) - {" "}
    if any(ch in pieces for row in skeletons for ch in row):
        return None  # a glyph between the cells: the cells are elsewhere (or a piece is out of place)
    above = []
    at = start - 1
    while at >= 0 and len(above) < FRAME_LINES and lines[at].strip() and frame(lines[at]):
        above.insert(0, lines[at].rstrip(" "))
        at -= 1
    below = []
    at = start + (len(rows) - 1) * gap + 1
    while at < len(lines) and len(below) < FRAME_LINES and lines[at].strip() and frame(lines[at]):
        below.append(lines[at].rstrip(" "))
        at += 1
    return Drawing(gap, columns, skeletons, tuple(line.rstrip(" ") for line in between), tuple(above), tuple(below),
                   tuple(sorted(glyphs.items())), tuple(sorted(fixed.items())))


def _read_at(drawing: Drawing, lines: Sequence[str], start: int) -> tuple[Grid | None, int, str] | None:
    """(grid or None, the line past the rows, why not) when the drawing's rows start at `start`."""
    height, gap = len(drawing.rows), drawing.gap
    if start + (height - 1) * gap >= len(lines):
        return None
    grid, problem = [], ""
    for i, skeleton in enumerate(drawing.rows):
        line = lines[start + i * gap].rstrip("\r")
        if len(line) > LONGEST_LINE or _blank(line, drawing.columns) != skeleton:
            return None
        if not line.strip() and drawing.value(" ") is None:
            return None  # a blank line is a row only of a drawing whose cells may all be blank
        if not i and drawing.above and line.rstrip(" ") == drawing.above[-1]:
            return None  # the frame line learned just above the rows (column labels at the cells) is no row
        if i and tuple(line.rstrip(" ") for line in lines[start + (i - 1) * gap + 1:start + i * gap]) != drawing.between:
            return None
        padded = line.ljust(drawing.columns[-1] + 1)
        row = []
        for at in drawing.columns:
            value = drawing.value(padded[at])
            if value is None:
                problem = problem or f"the glyph {padded[at]!r} stands for no value of the board as it was learned"
            row.append(value)
        grid.append(tuple(row))
    return (None if problem else tuple(grid)), start + (height - 1) * gap + 1, problem


def boards(learned: Learned, lines: Sequence[str]) -> list[Board]:
    """Every board drawn in `lines` in a learned way, in order, with its frame lines. Where the
    ways learned read a board differently, the board is ambiguous (grid None)."""
    out: list[Board] = []
    index = 0
    while index < len(lines):
        if index % 256 == 0:
            spend()
        reads = [(drawing, read) for drawing in learned.drawings
                 if (read := _read_at(drawing, lines, index)) is not None]
        if not reads:
            index += 1
            continue
        grids = {read[0] for _, read in reads}
        end = max(read[1] for _, read in reads)
        drawing = reads[0][0]
        start, floor = index, out[-1].end if out else 0
        for line in reversed(drawing.above):
            if start > floor and lines[start - 1].rstrip(" \r") == line:
                start -= 1
            else:
                break
        for line in drawing.below:
            if end < len(lines) and lines[end].rstrip(" \r") == line:
                end += 1
            else:
                break
        problems = [read[2] for _, read in reads if read[2]]
        if len(grids) > 1:
            out.append(Board(start, end, None, "the ways the drawing was learned read this board differently"))
        elif problems:
            out.append(Board(start, end, None, problems[0]))
        else:
            out.append(Board(start, end, grids.pop()))
        index = end
    return out
