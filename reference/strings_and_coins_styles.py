"""Strings and Coins' styler (`harness audit strings-and-coins --styles N`): nothing of its text is
free. The handout asks for output "exactly the same as the sample program (same text, symbols,
letter case, spacings)" and provides printNetwork, so every line stays as the reference prints it;
a styled program differs only in its timing (a pause inside a turn, output a line at a time),
which `harness.suite.styling` draws for every game."""
import random


class ExactText:
    def render(self, chunk: str) -> str:
        return chunk

    def describe(self) -> list[str]:
        return ["every text exact (the handout prescribes the sample program's output)"]


def styler(rng: random.Random) -> ExactText:
    return ExactText()
