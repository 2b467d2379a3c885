"""Reversi's styler (`harness audit reversi --styles N`): the board and the texts as a correct
program may draw and word them (formats.md, Reversi).

Free: the pieces (the handout: black and white circles a program "can use"; any two glyphs a
person tells apart, in colour too), a clear screen before a board, and the wording of the turn
header, the prompts, the refusal, the no-move line, the final-board line and the result (the
handout shows them in example sessions and prescribes none). Kept: the board's layout (the
column letters above, the row numbers before, `.` for an empty square), the final count line,
the order of the lines and their blank lines, and what each message says.
"""
import random
import re

from harness.suite.styling import CLEAR, COLOURS, sgr

ROW = re.compile(r"([1-6]) ([.●○]{6})")
HEADER = "  abcdef"
PIECES = (("●", "○"), ("B", "W"), ("X", "O"), ("@", "O"), ("■", "□"), ("b", "w"), ("⚫", "⚪"))
TURNS = ("{c}'s turn", "{c} to move", "Turn: {c}", "It is {c}'s turn.")
ROWS = ("Row? (1-6) ", "Row (1-6): ", "Enter row: ", "Which row? ")
COLUMNS = ("Column? (a-f) ", "Column (a-f): ", "Enter column: ", "Which column? ")
REFUSALS = ("Not a legal move!", "Illegal move, try again.", "That move is not allowed!", "Invalid move.")
NO_MOVES = ("No legal moves!", "No legal moves, turn skipped.", "No valid moves available!", "You have no legal move.")
FINALS = ("Final board:", "Final board", "The final board:", "Game over. Final board:")
WINS = ("{c} wins!", "{c} is the winner!", "The winner is {c}!", "{c} won the game.")
TIES = ("It's a tie!", "It is a draw!", "Tie game!")
FIXED = {"Not a legal move!": "refusal", "No legal moves!": "no_moves", "Final board:": "final", "It's a tie!": "tie"}


class ReversiStyle:
    def __init__(self, rng: random.Random):
        self.pieces = rng.choice(PIECES)
        self.colours = rng.choice(((None, None), (None, None), (1, 2), (31, 34), (33, 36), (90, 97),
                                   (rng.choice(COLOURS), rng.choice(COLOURS))))
        if self.colours[0] is not None and self.colours[0] == self.colours[1]:
            self.colours = (self.colours[0], 1)  # a person must still tell the two apart
        self.clear = rng.random() < 0.25
        self.turn = rng.choice(TURNS)
        self.row, self.column = rng.choice(ROWS), rng.choice(COLUMNS)
        self.refusal, self.no_moves = rng.choice(REFUSALS), rng.choice(NO_MOVES)
        self.final, self.win, self.tie = rng.choice(FINALS), rng.choice(WINS), rng.choice(TIES)

    def describe(self) -> list[str]:
        coloured = f" in SGR {self.colours[0]}/{self.colours[1]}" if self.colours[0] is not None else ""
        return [f"pieces {self.pieces[0]} {self.pieces[1]}{coloured}" + (", a clear before a turn's board" if self.clear else ""),
                f"turn {self.turn!r}, prompts {self.row!r} {self.column!r}, refusal {self.refusal!r}",
                f"no moves {self.no_moves!r}, final {self.final!r}, win {self.win!r}, tie {self.tie!r}"]

    def _square(self, glyph: str) -> str:
        if glyph == ".":
            return glyph
        black = glyph == "●"
        return sgr(self.pieces[0 if black else 1], self.colours[0 if black else 1])

    def line(self, text: str) -> str:
        if found := ROW.fullmatch(text):
            return found.group(1) + " " + "".join(self._square(g) for g in found.group(2))
        if text in FIXED:
            return getattr(self, FIXED[text])
        for colour in ("Black", "White"):
            if text == f"{colour}'s turn":
                return self.turn.format(c=colour)
            if text == f"{colour} wins!":
                return self.win.format(c=colour)
        return text

    def render(self, chunk: str) -> str:
        *whole, last = chunk.split("\n")
        text = "".join(self.line(line) + "\n" for line in whole)
        if self.clear and (whole[:1] == [HEADER] or whole[:2] == ["", HEADER]):
            text = CLEAR + text  # a turn that opens with the board (never one whose message comes first)
        return text + {"Row? (1-6) ": self.row, "Column? (a-f) ": self.column}.get(last, last)


def styler(rng: random.Random) -> ReversiStyle:
    return ReversiStyle(rng)
