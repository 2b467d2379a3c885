"""Never a hidden case: a game shown to a student may not be a hidden case's inputs, hold one
whole, nor be a prefix of more than half of one (the reference's answers to it would show)."""
from harness.loading.cases import Case
from harness.results import Visibility


def hidden_games(cases: list[Case]) -> list[tuple[str, ...]]:
    """The typed lines of every hidden case (a strategy's: its written prefix, as the rest is
    planned from the start a program draws)."""
    return [tuple(case.prefix) for case in cases if case.visibility == Visibility.HIDDEN]


def reveals(inputs: tuple[str, ...], hidden: list[tuple[str, ...]]) -> bool:
    """True when showing `inputs` would show a hidden case: equal to one, holding one as its
    start, or a prefix of more than half of one's lines."""
    for lines in hidden:
        if inputs == lines or (lines and inputs[:len(lines)] == lines):
            return True
        if 2 * len(inputs) > len(lines) and lines[:len(inputs)] == inputs:
            return True
    return False
