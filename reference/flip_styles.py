"""Flip's styler (`harness audit flip --styles N`): almost nothing of its text is free. Students
write GameState only: the runner and the method driver that print are the course's provided code,
so every line they print stays as the reference prints it. toString's state string is prescribed
but for one point the handout contradicts itself on (formats.md, Flip): an empty middle printed
`||` (its unit test) instead of `|+|` (its sample game) is right too, and a style takes either.
Beside it a styled program differs only in its timing (a pause inside a turn, output a line at a
time), which `harness.suite.styling` draws for every game."""
import random
import re

STATE = re.compile(r"(\d*\+\d*)\|\+\|(\d*\+\d*)")  # a state string with an empty middle
STATE_LINE = re.compile(r"(Game state: )?(\d*\+\d*\|\d*\+\d*\|\d*\+\d*)")


class FlipStyle:
    def __init__(self, rng: random.Random):
        self.empty_middle = rng.choice(("|+|", "||"))

    def render(self, chunk: str) -> str:
        if self.empty_middle == "|+|":
            return chunk
        lines = chunk.split("\n")
        for at, line in enumerate(lines):
            found = STATE_LINE.fullmatch(line)
            if found and STATE.fullmatch(found.group(2)):
                lines[at] = (found.group(1) or "") + STATE.sub(r"\1||\2", found.group(2))
        return "\n".join(lines)

    def describe(self) -> list[str]:
        return [f"an empty middle printed {self.empty_middle!r}; every other text exact "
                "(the provided runner and driver print it; toString is prescribed)"]


def styler(rng: random.Random) -> FlipStyle:
    return FlipStyle(rng)
