"""Flip's styler (`harness audit flip --styles N`): nothing of its text is free. Students write
GameState only: the runner and the method driver that print are the course's provided code, and
toString's state string is prescribed exactly, so every line stays as the reference prints it; a
styled program differs only in its timing (a pause inside a turn, output a line at a time), which
`harness.suite.styling` draws for every game."""
import random


class ExactText:
    def render(self, chunk: str) -> str:
        return chunk

    def describe(self) -> list[str]:
        return ["every text exact (the provided runner and driver print it; toString is prescribed)"]


def styler(rng: random.Random) -> ExactText:
    return ExactText()
