"""Connect's styler (`harness audit connect --styles N`): the board and the texts as a correct
program may draw and word them (formats.md, Connect 4/5/6).

The handout prescribes only the usage line, kept exact. Free: the board's drawing (walls or
spaces between cells, cell widths, a frame, lines between the rows, the column numbers above,
below, both or none, row numbers or letters on either side, the two symbols and the blank in any
glyphs, in colour too, a clear screen before a turn's board, blank lines around it, spaces at line
ends) and the words of every other line, in any letter case (the welcome, whose turn with its
count, the prompts inline or on their own line, naming the symbol or the player, the refusals,
the result, the stats, the play-again question, the good-bye). Kept: what each says (the names,
symbols, counts, who won, that an input was refused), and the order of the lines. A symbol drawn
as another glyph is named by that glyph in the texts too; a name is never recased.
"""
import random
import re

from harness.suite.styling import CLEAR, COLOURS, prompt, sgr

USAGE = "Usage: java -cp bin ConnectGame {4 - 6} player1 player2"
ROW = re.compile(r"\|(?:[_XO]\|)+")
WELCOME = re.compile(r"Welcome to Connect (Four|Five|Six)")
FIRST = re.compile(r"(.+) plays first with symbol ([XO])")
NEXT = re.compile(r"(.+) plays next with symbol ([XO])")
COUNT = re.compile(r"Player (.+) \(([XO])\) has (\d+) connected pieces\.")
PROMPT = re.compile(r"Enter the column to place your ([XO]) piece \(1 to (\d+)\) or q to quit: ")
STATS_HEAD = re.compile(r" +Wins    Losses    Draws")
STATS_ROW = re.compile(r"(.+): +(\d+) +(\d+) +(\d+)")
UNRECOGNIZED = re.compile(r"Unrecognized response (.*), please enter y or n\.")
AGAIN = "Would you like to play again (y/n)? "
NUMBERS = {"Four": 4, "Five": 5, "Six": 6}

GLYPHS = (("X", "O"), ("X", "O"), ("●", "○"), ("R", "Y"), ("x", "o"), ("#", "@"), ("■", "□"), ("*", "+"))
BLANKS = ("_", ".", " ", "-", "·")
WELCOMES = ("Welcome to Connect {word}", "Welcome to Connect {n}!", "Let's play Connect {word}!",
            "=== CONNECT {n} ===", "Welcome to the game of Connect {word}.")
FIRSTS = (("{a} plays first with symbol {s}", "{a} plays next with symbol {s}"),
          ("{a} goes first and plays {s}", "{a} goes second and plays {s}"),
          ("First player: {a} ({s})", "Second player: {a} ({s})"),
          ("{a} is {s} and starts.", "{a} is {s}."))
COUNTS = ("Player {a} ({s}) has {k} connected pieces.", "{a} ({s}) has {k} in a row.",
          "{a} ({s}): longest line {k}", "{a} ({s}) longest connection: {k}", "Connected pieces for {a} ({s}): {k}")
PROMPTS = ("Enter the column to place your {s} piece (1 to {size}) or q to quit: ",
           "Column for your {s} piece (1-{size}, q to quit): ", "{s} to play. Column (1 to {size}) or q to quit? ",
           "{a}, choose a column (1-{size}) or q to quit: ", "{a} ({s}), your move (1-{size}, q quits) > ",
           "Drop your {s} in which column? ")
OUT_OF_RANGE = ("Invalid column number, please try again.", "That column does not exist, try again.",
                "Column out of range. Try again.", "Invalid input.", "There is no such column!")
NOT_NUMBER = ("Not a number, please try again.", "That is not a number. Please enter a number.",
              "That is not a number, try again.", "Invalid input.", "Please enter a number.")
FULL = (" Sorry, that column is full, please try again:", "That column is full, try another.",
        "Column full! Choose another column.", "No room in that column.", "That column cannot fit more pieces.")
WINS = ("{a} wins!", "{a} is the winner!", "Congratulations {a}, you won!", "Game over: {a} wins.",
        "The winner is {a}!")
DRAWS = ("It's a draw!", "Draw game!", "The board is full: it's a draw.", "It is a tie!", "Nobody wins: draw.")
AGAINS = (AGAIN, "Play again (y/n)? ", "Another game? (y/n) ", "Do you want to play again? (yes/no) ")
UNRECOGNIZEDS = ("Unrecognized response {t}, please enter y or n.", "Please answer y or n, not {t}.",
                 "'{t}' is not y or n.", "Please enter y or n.")
GOODBYES = ("Thank you for playing today.  Good bye!", "Goodbye!", "Thanks for playing. Bye!", "Bye.")
CASES = ("as written", "as written", "as written", "upper", "lower")


def cased(template: str, case: str) -> str:
    """A template in a letter case, its fields ({a}, {s}) left as they are: a name is the player's."""
    if case == "as written":
        return template
    change = str.upper if case == "upper" else str.lower
    out, depth = [], 0
    for ch in template:
        depth += ch == "{"
        out.append(ch if depth else change(ch))
        depth -= ch == "}"
    return "".join(out)
STATS = ("table", "sentences", "bars", "letters")


class ConnectStyle:
    def __init__(self, rng: random.Random):
        self.glyphs = rng.choice(GLYPHS)
        self.colours = rng.choice(((None, None), (None, None), (31, 33), (91, 94), (rng.choice(COLOURS), 1)))
        self.blank = rng.choice(BLANKS)
        self.width = rng.choice((1, 1, 2, 3))
        self.walls = rng.random() < 0.6 or self.blank == " "  # a blank drawn as a space needs walls to be seen
        self.frame = rng.random() < 0.3
        self.rules = rng.random() < 0.2 and self.walls  # a line between every two rows
        self.numbers = rng.choice(("above", "above", "below", "both", "none"))
        self.row_labels = rng.choice((None, None, None, "left", "right", "letters"))
        self.clear = rng.random() < 0.25
        self.gap_before = rng.random() < 0.3  # a blank line before the board
        self.gap_after = rng.random() < 0.3  # and after it
        self.trailing = rng.choice(("", "", "", " ", "  "))  # spaces at every line's end
        self.own_line = rng.random() < 0.3
        self.case = rng.choice(CASES)
        pick = lambda pool: pool[rng.randrange(len(pool))]  # noqa: E731 (a seeded choice)
        self.welcome, self.firsts, self.count = pick(WELCOMES), pick(FIRSTS), pick(COUNTS)
        self.prompt, self.range, self.number, self.full = pick(PROMPTS), pick(OUT_OF_RANGE), pick(NOT_NUMBER), pick(FULL)
        self.win, self.draw, self.stats = pick(WINS), pick(DRAWS), pick(STATS)
        self.again, self.unrecognized, self.goodbye = pick(AGAINS), pick(UNRECOGNIZEDS), pick(GOODBYES)
        self.names: list[str] = []
        self.players: dict[str, str] = {}  # symbol -> name

    def describe(self) -> list[str]:
        coloured = f" in SGR {self.colours[0]}/{self.colours[1]}" if self.colours[0] is not None else ""
        return [f"symbols {self.glyphs[0]} {self.glyphs[1]}{coloured}, blank {self.blank!r}, width {self.width}, "
                f"{'walls' if self.walls else 'spaces'}{', framed' if self.frame else ''}"
                f"{', lines between rows' if self.rules else ''}, numbers {self.numbers}"
                + (f", row labels {self.row_labels}" if self.row_labels else "")
                + (", a clear before a turn's board" if self.clear else "")
                + (", a blank line before it" if self.gap_before else "") + (", a blank line after it" if self.gap_after else ""),
                f"welcome {self.welcome!r}, players {self.firsts[0]!r}, count {self.count!r}",
                f"prompt {self.prompt!r}" + (" on its own line" if self.own_line else "")
                + f", refusals {self.range!r} {self.number!r} {self.full!r}",
                f"win {self.win!r}, draw {self.draw!r}, stats as {self.stats}, again {self.again!r}, "
                f"unrecognized {self.unrecognized!r}, good-bye {self.goodbye!r}, texts {self.case}"
                + (f", {len(self.trailing)} space(s) at line ends" if self.trailing else "")]

    def say(self, template: str, **fields) -> str:
        return cased(template, self.case).format(**fields)

    def symbol(self, piece: str) -> str:
        return self.glyphs[0 if piece == "X" else 1]

    def _cell(self, piece: str, width: int) -> str:
        if piece == "_":
            return self.blank.center(width)
        index = 0 if piece == "X" else 1
        return sgr(self.glyphs[index].center(width), self.colours[index])

    def board(self, rows: list[str]) -> list[str]:
        size = len(rows[0]) // 2
        width = max(self.width, len(str(size))) if self.numbers != "none" else self.width
        gap = "|" if self.walls else " "
        label_width = len(str(size)) if self.row_labels in ("left", "right") else 1
        lead_label = self.row_labels in ("left", "letters")
        drawn = []
        for number, row in enumerate(rows):
            cells = [self._cell(piece, width) for piece in row[1::2]]
            line = (gap if self.walls else "") + gap.join(cells) + (gap if self.walls else "")
            label = chr(ord("A") + number) if self.row_labels == "letters" else str(size - number).rjust(label_width)
            if lead_label:
                line = label + " " + line
            elif self.row_labels == "right":
                line = line + " " + label
            drawn.append(line)
        lead = (label_width + 1 if lead_label else 0)
        inner = len("|" + "|".join(" " * width for _ in range(size)) + "|") if self.walls else size * (width + 1) - 1
        rule = " " * lead + ("+" + "+".join("-" * width for _ in range(size)) + "+" if self.walls else "-" * inner)
        if self.rules:
            ruled = [rule]
            for line in drawn:
                ruled += [line, rule]
            drawn = ruled
        numbers = (" " * (lead + (1 if self.walls else 0))
                   + " ".join(str(n).center(width) for n in range(1, size + 1))).rstrip()
        body = ([rule] if self.frame and not self.rules else []) + drawn + ([rule] if self.frame and not self.rules else [])
        return ([numbers] if self.numbers in ("above", "both") else []) + body + \
               ([numbers] if self.numbers in ("below", "both") else [])

    def stats_lines(self, rows: list[tuple[str, str, str, str]]) -> list[str]:
        if self.stats in ("table", "letters"):
            width = max(len(name) for name, *_ in rows) + 2
            head = "  Wins  Losses  Draws" if self.stats == "table" else "     W       L      D"
            return [" " * width + cased(head, self.case)] + \
                [f"{name + ':':<{width}}  {w:>4}  {l:>6}  {d:>5}" for name, w, l, d in rows]
        if self.stats == "sentences":
            return [f"{name}: {w} {cased('wins', self.case)}, {l} {cased('losses', self.case)}, "
                    f"{d} {cased('draws', self.case)}" for name, w, l, d in rows]
        return [cased("Stats (wins / losses / draws):", self.case)] + \
            [f"  {name}: {w} / {l} / {d}" for name, w, l, d in rows]

    def line(self, text: str) -> str:
        if text == USAGE:
            return text
        if found := WELCOME.fullmatch(text):
            return self.say(self.welcome, word=found.group(1), n=NUMBERS[found.group(1)])
        if found := FIRST.fullmatch(text):
            self.names = [found.group(1)]
            self.players[found.group(2)] = found.group(1)
            return self.say(self.firsts[0], a=found.group(1), s=self.symbol(found.group(2)))
        if found := NEXT.fullmatch(text):
            self.names.append(found.group(1))
            self.players[found.group(2)] = found.group(1)
            return self.say(self.firsts[1], a=found.group(1), s=self.symbol(found.group(2)))
        if found := COUNT.fullmatch(text):
            return self.say(self.count, a=found.group(1), s=self.symbol(found.group(2)), k=found.group(3))
        if found := UNRECOGNIZED.fullmatch(text):
            return self.say(self.unrecognized, t=found.group(1))
        fixed = {"Invalid column number, please try again.": self.range, "Not a number, please try again.": self.number,
                 " Sorry, that column is full, please try again:": self.full, "It's a draw!": self.draw,
                 "Thank you for playing today.  Good bye!": self.goodbye}
        if text in fixed:
            return self.say(fixed[text])
        if text.endswith(" wins!") and text[:-len(" wins!")] in self.names:
            return self.say(self.win, a=text[:-len(" wins!")])
        return text

    def render(self, chunk: str) -> str:
        *whole, last = chunk.split("\n")
        out, at = [], 0
        while at < len(whole):
            text = whole[at]
            if STATS_HEAD.fullmatch(text):
                rows = []
                while at + 1 < len(whole) and (found := STATS_ROW.fullmatch(whole[at + 1])):
                    rows.append(found.groups())
                    at += 1
                out += self.stats_lines(rows)
            elif re.fullmatch(r"(?: \d|\d\d)+", text) and at + 1 < len(whole) and ROW.fullmatch(whole[at + 1]):
                rows = []
                while at + 1 < len(whole) and ROW.fullmatch(whole[at + 1]):
                    rows.append(whole[at + 1])
                    at += 1
                drawn = ([""] if self.gap_before else []) + self.board(rows) + ([""] if self.gap_after else [])
                if self.clear and all(line == "" for line in whole[:at - len(rows)]):
                    drawn[0] = CLEAR + drawn[0]  # a turn that opens with the board
                out += drawn
            else:
                out.append(self.line(text))
            at += 1
        text = "".join(line + (self.trailing if line.strip() and line != USAGE else "") + "\n" for line in out)
        if found := PROMPT.fullmatch(last):
            symbol = found.group(1)
            asked = self.say(self.prompt, s=self.symbol(symbol), size=found.group(2), a=self.players.get(symbol, symbol))
            return text + prompt(asked, self.own_line)
        if last == AGAIN:
            return text + prompt(self.say(self.again), self.own_line)
        return text + last


def styler(rng: random.Random) -> ConnectStyle:
    return ConnectStyle(rng)
