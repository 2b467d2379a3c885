"""Strings and Coins' styler (`harness audit strings-and-coins --styles N`): almost nothing of its
text is free. The handout asks for output "exactly the same as the sample program (same text,
symbols, letter case, spacings)" and provides printNetwork, so every line's words and spacing
inside it stay as the reference prints them. What the comparison of exact text leaves (formats.md,
top: exact but for CRLF, spaces at line ends and blank lines at the very end) is what a student's
own `cout` of a message may still differ in: spaces after the invalid-input, extra-turn and result
lines, and a line end (or a blank line) after the last line, which the reference leaves out.
Beside it a styled program differs only in its timing (a pause inside a turn, output a line at a
time), which `harness.suite.styling` draws for every game."""
import random
import re

MESSAGE = re.compile(r"Invalid\. Try again!|Player [12] scores! Gets extra turn\.")
RESULT = re.compile(r"Player [12] wins!|Draw game!")


class StringsAndCoinsStyle:
    def __init__(self, rng: random.Random):
        self.trailing = rng.choice(("", "", " ", "  "))  # after the messages main prints
        self.ending = rng.choice(("", "", "\n", "\n\n"))  # after the result line

    def render(self, chunk: str) -> str:
        lines = chunk.split("\n")
        for at, line in enumerate(lines):
            last = at == len(lines) - 1
            if MESSAGE.fullmatch(line) and not last:
                lines[at] = line + self.trailing
            elif RESULT.fullmatch(line) and last:
                lines[at] = line + self.trailing + self.ending
        return "\n".join(lines)

    def describe(self) -> list[str]:
        said = [f"{len(self.trailing)} space(s) after each message"] if self.trailing else []
        said += [f"{self.ending.count(chr(10))} line end(s) after the result"] if self.ending else []
        return said + ["every other text exact (the handout prescribes the sample program's output)"]


def styler(rng: random.Random) -> StringsAndCoinsStyle:
    return StringsAndCoinsStyle(rng)
