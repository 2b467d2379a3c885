"""Silver Dollar's styler (`harness audit silver-dollar --styles N`): the strip and the texts as a
correct program may draw and word them (formats.md, Silver Dollar).

Free: the drawing of the strip (the handout asks for a "textual representation" and shows a
nicer boxed one it does not require: separators, cell widths, blanks, brackets, boxes, a label
before it, coins in colour, a clear screen before it, a blank line after it) and the wording of
the move prompt, the illegal-move message and the winner line (all given "for example"; the
move prompt inline or on its own line). Kept: the coin prompt (the handout asks for it in those
words), what the free texts say (the player to move, that the move is refused, who won), the
order of the lines, and no board reprinted after a refusal.
"""
import random
import re

from harness.suite.styling import CLEAR, COLOURS, prompt, sgr

BOARD = re.compile(r"(?:_|\d+)(?: (?:_|\d+))*")
MOVE_PROMPT = re.compile(r"Player ([12]): Enter your move: ")
WINNER = re.compile(r"Player ([12]) wins!")
ILLEGAL = "Illegal move! Try again."

MOVE_PROMPTS = ("Player {n}: Enter your move: ", "Player {n}, your move: ", "Player {n}> ",
                "Player {n}, enter a coin and a distance: ", "It is player {n}'s turn. Move: ")
ILLEGALS = (ILLEGAL, "That move is not allowed. Try again.", "Invalid move, try again.", "Illegal move.",
            "You cannot make that move!")
WINNERS = ("Player {n} wins!", "Player {n} is the winner!", "Congratulations, player {n}, you won!",
           "Game over. Player {n} wins.")


class SilverDollarStyle:
    def __init__(self, rng: random.Random):
        self.drawing = rng.choice(("line", "brackets", "box"))
        self.blank = rng.choice(("_", ".", "-") if self.drawing == "line" else (" ", "_", "."))
        self.width = rng.choice((1, 2, 3)) if self.drawing == "line" else rng.choice((1, 3, 5)) \
            if self.drawing == "brackets" else rng.choice((3, 5))
        self.sep = rng.choice((" ", "  ", " | ")) if self.drawing == "line" else rng.choice(("", " "))
        self.label = rng.choice(("", "", "Board: ", "Strip: "))
        self.colour = rng.choice((None, None) + COLOURS)
        self.clear = rng.random() < 0.25
        self.gap = rng.random() < 0.3  # a blank line after the strip
        self.own_line = rng.random() < 0.3
        self.move = rng.choice(MOVE_PROMPTS)
        self.illegal = rng.choice(ILLEGALS)
        self.winner = rng.choice(WINNERS)

    def describe(self) -> list[str]:
        said = [f"{self.drawing} drawing, blank {self.blank!r}, width {self.width}, separator {self.sep!r}"
                + (f", label {self.label!r}" if self.label else "")
                + (f", coins in SGR {self.colour}" if self.colour else "")
                + (", a blank line after it" if self.gap else "") + (", a clear screen before it" if self.clear else "")]
        return said + [f"move prompt {self.move!r}" + (" on their own line" if self.own_line else ""),
                       f"refusal {self.illegal!r}", f"winner {self.winner!r}"]

    def _cell(self, token: str) -> str:
        shown = self.blank if token == "_" else token
        shown = shown.center(self.width) if self.drawing != "line" else shown.rjust(self.width)
        return shown if token == "_" else sgr(shown, self.colour)

    def strip(self, tokens: list[str]) -> list[str]:
        cells = [self._cell(t) for t in tokens]
        if self.drawing == "line":
            lines = [self.label + self.sep.join(cells)]
        elif self.drawing == "brackets":
            lines = [self.label + self.sep.join(f"[{c}]" for c in cells)]
        else:
            edge = "+" + "+".join("-" * self.width for _ in cells) + "+"
            pad = " " * len(self.label)
            lines = [pad + edge, self.label + "|" + "|".join(cells) + "|", pad + edge]
        return ([CLEAR + lines[0]] + lines[1:] if self.clear else lines) + ([""] if self.gap else [])

    def render(self, chunk: str) -> str:
        *whole, last = chunk.split("\n")
        out = []
        for line in whole:
            if BOARD.fullmatch(line):
                out += self.strip(line.split(" "))
            elif line == ILLEGAL:
                out.append(self.illegal)
            elif found := WINNER.fullmatch(line):
                out.append(self.winner.format(n=found.group(1)))
            else:
                out.append(line)
        text = "".join(line + "\n" for line in out)
        if found := MOVE_PROMPT.fullmatch(last):
            return text + prompt(self.move.format(n=found.group(1)), self.own_line)
        return text + last


def styler(rng: random.Random) -> SilverDollarStyle:
    return SilverDollarStyle(rng)
