"""Silver Dollar's styler (`harness audit silver-dollar --styles N`): the strip and the texts as a
correct program may draw and word them (formats.md, Silver Dollar).

Free: the drawing of the strip (the handout asks for a "textual representation" and shows a
nicer boxed one it does not require: separators, cell widths, blanks, brackets, boxes, no
separator at all, a label before it or on a line of its own, a row of square numbers above or
below it, coins and blanks in colour, a clear screen before it, blank lines around it, spaces at
line ends) and the wording of the move prompt, the illegal-move message and the winner line (all
given "for example", in any letter case; the move prompt inline or on its own line, the refusal
on its own line or just before the prompt again, a blank line after it). Kept: the coin prompt
(the handout asks for it in those words), what the free texts say (the player to move, that the
move is refused, who won), the order of the lines, and no board reprinted after a refusal.
"""
import random
import re

from harness.suite.styling import CLEAR, COLOURS, prompt, sgr

BOARD = re.compile(r"(?:_|\d+)(?: (?:_|\d+))*")
MOVE_PROMPT = re.compile(r"Player ([12]): Enter your move: ")
WINNER = re.compile(r"Player ([12]) wins!")
ILLEGAL = "Illegal move! Try again."

MOVE_PROMPTS = ("Player {n}: Enter your move: ", "Player {n}, your move: ", "Player {n}> ",
                "Player {n}, enter a coin and a distance: ", "It is player {n}'s turn. Move: ",
                "Player #{n}, enter coin and squares: ", "P{n} move: ", "Your turn, player {n} > ",
                "Player {n} - which coin, how far? ")
ILLEGALS = (ILLEGAL, "That move is not allowed. Try again.", "Invalid move, try again.", "Illegal move.",
            "You cannot make that move!", "Sorry, that is not a legal move.", "Error: invalid move!",
            "Wrong move, try again.", "That move is impossible.")
WINNERS = ("Player {n} wins!", "Player {n} is the winner!", "Congratulations, player {n}, you won!",
           "Game over. Player {n} wins.", "The winner is player {n}!", "Player {n} won the game.",
           "*** Player {n} wins ***")
CASES = ("as written", "as written", "as written", "upper", "lower")  # the free texts' letter case
BLANKS_LINE = ("_", ".", "-", "·", "_", "o")
BLANKS_CELL = (" ", "_", ".", "-", "·")


def cased(text: str, case: str) -> str:
    return text.upper() if case == "upper" else text.lower() if case == "lower" else text


class SilverDollarStyle:
    def __init__(self, rng: random.Random):
        self.drawing = rng.choice(("line", "line", "brackets", "box", "bars", "compact"))
        self.blank = rng.choice(BLANKS_LINE if self.drawing in ("line", "compact") else BLANKS_CELL)
        self.width = {"line": rng.choice((1, 2, 3)), "brackets": rng.choice((1, 3, 5)), "box": rng.choice((3, 5)),
                      "bars": rng.choice((1, 3)), "compact": 1}[self.drawing]
        self.sep = {"line": rng.choice((" ", "  ", " | ")), "brackets": rng.choice(("", " ")),
                    "box": "", "bars": "", "compact": ""}[self.drawing]
        self.label = rng.choice(("", "", "", "Board: ", "Strip: ", "Coins: "))
        self.heading = rng.choice((None, None, None, "Current board:", "The strip:", "Board"))
        self.numbers = rng.choice((None, None, None, "above", "below")) if self.drawing != "compact" else None
        self.colour = rng.choice((None, None) + COLOURS)
        self.blank_colour = rng.choice((None, None, None, 90, 2))
        self.clear = rng.random() < 0.25
        self.gap_before = rng.random() < 0.25  # a blank line before the strip
        self.gap = rng.random() < 0.3  # a blank line after the strip
        self.trailing = rng.choice(("", "", "", " ", "  "))  # spaces at every line's end
        self.own_line = rng.random() < 0.3
        self.case = rng.choice(CASES)
        self.move = rng.choice(MOVE_PROMPTS)
        self.illegal = rng.choice(ILLEGALS)
        self.illegal_inline = rng.random() < 0.2  # the refusal, then the prompt again, on one line
        self.gap_after_illegal = rng.random() < 0.2
        self.winner = rng.choice(WINNERS)

    def describe(self) -> list[str]:
        said = [f"{self.drawing} drawing, blank {self.blank!r}, width {self.width}, separator {self.sep!r}"
                + (f", label {self.label!r}" if self.label else "")
                + (f", heading {self.heading!r}" if self.heading else "")
                + (f", square numbers {self.numbers}" if self.numbers else "")
                + (f", coins in SGR {self.colour}" if self.colour else "")
                + (f", blanks in SGR {self.blank_colour}" if self.blank_colour else "")
                + (", a blank line before it" if self.gap_before else "")
                + (", a blank line after it" if self.gap else "") + (", a clear screen before it" if self.clear else "")]
        return said + [f"move prompt {self.move!r}" + (" on their own line" if self.own_line else "")
,
                       f"refusal {self.illegal!r}" + (" before the prompt on its line" if self.illegal_inline else "")
                       + (", a blank line after it" if self.gap_after_illegal else ""),
                       f"winner {self.winner!r}, free texts {self.case}"
                       + (f", {len(self.trailing)} space(s) at line ends" if self.trailing else "")]

    def _cell(self, token: str, width: int) -> str:
        shown = self.blank if token == "_" else token
        shown = shown.center(width) if self.drawing not in ("line", "compact") else shown.rjust(width)
        return sgr(shown, self.blank_colour if token == "_" else self.colour)

    def strip(self, tokens: list[str]) -> list[str]:
        width = max(self.width, 2 if len(tokens) > 10 and self.drawing in ("box", "brackets", "bars") else 1)
        cells = [self._cell(t, width) for t in tokens]
        if self.drawing == "line":
            lines = [self.sep.join(cells)]
            step, lead = width + len(self.sep), 0
        elif self.drawing == "compact":
            lines = ["".join(cells)]
            step, lead = None, 0
        elif self.drawing == "brackets":
            lines = [self.sep.join(f"[{c}]" for c in cells)]
            step, lead = width + 2 + len(self.sep), 1
        elif self.drawing == "bars":
            lines = ["|" + "|".join(cells) + "|"]
            step, lead = width + 1, 1
        else:
            edge = "+" + "+".join("-" * width for _ in cells) + "+"
            lines = [edge, "|" + "|".join(cells) + "|", edge]
            step, lead = width + 1, 1
        pad = " " * len(self.label)
        row = 1 if self.drawing == "box" else 0
        lines = [(self.label if at == row else pad) + line for at, line in enumerate(lines)]
        if self.numbers and self.drawing == "line":
            numbered = pad + self.sep.join(str(at).rjust(max(width, len(t))) for at, t in enumerate(tokens))
            lines = [numbered] + lines if self.numbers == "above" else lines + [numbered]
        elif self.numbers and step:
            numbered = ""
            for square in range(len(tokens)):
                numbered = numbered.ljust(len(self.label) + lead + square * step) + str(square).center(width)
            lines = [numbered] + lines if self.numbers == "above" else lines + [numbered]
        lines = ([self.heading] if self.heading else []) + lines
        lines = ([""] if self.gap_before else []) + lines
        return ([CLEAR + lines[0]] + lines[1:] if self.clear else lines) + ([""] if self.gap else [])

    def render(self, chunk: str) -> str:
        *whole, last = chunk.split("\n")
        out: list[str] = []
        refusal = None
        for line in whole:
            if BOARD.fullmatch(line):
                out += self.strip(line.split(" "))
            elif line == ILLEGAL:
                refusal = cased(self.illegal, self.case)
                if not self.illegal_inline:
                    out.append(refusal)
                    out += [""] if self.gap_after_illegal else []
            elif found := WINNER.fullmatch(line):
                out.append(cased(self.winner.format(n=found.group(1)), self.case))
            else:
                out.append(line)
        text = "".join(line + (self.trailing if line else "") + "\n" for line in out)
        if found := MOVE_PROMPT.fullmatch(last):
            asked = cased(self.move.format(n=found.group(1)), self.case)
            if refusal is not None and self.illegal_inline:
                asked = refusal + " " + asked
            return text + prompt(asked, self.own_line)
        if refusal is not None and self.illegal_inline:
            text += refusal + "\n"
        return text + last


def styler(rng: random.Random) -> SilverDollarStyle:
    return SilverDollarStyle(rng)
