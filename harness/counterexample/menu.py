"""The lines a game may type and the contexts it is played in, taken from the public cases.

A game's choices are indexes into a menu: the lines the public cases type (the moves of the
game, and the invalid inputs the handout asks a program to refuse), simplest first. A smaller
index is a simpler choice; the reference plays every line it is typed, refusing the invalid
ones as the handout asks, so every game over the menu is a game the handout describes. No line of a hidden
case is in the menu unless a public case types it too."""
import json
import re

from harness.counterexample.game import Context
from harness.loading.cases import Case
from harness.results import Visibility

MAX_MENU = 24  # lines in a menu at most: the shrinker tries each simpler one
_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")  # a whole number read as one


def context(case: Case) -> Context:
    """The context of a case: everything but its inputs."""
    return Context(case.name, case.milestone, case.target, case.rubric, tuple(case.args), case.seed,
                   json.dumps(case.compare, sort_keys=True), json.dumps(case.limits, sort_keys=True))


def listed(case: Case) -> list[str]:
    """The lines a case types that are written in it: its inputs, or its strategy's prefix and moves."""
    if not case.strategy:
        return case.prefix
    moves = case.strategy.get("moves", [])
    return case.prefix + ([str(m) for m in moves] if isinstance(moves, list) else [])


def simplicity(line: str) -> tuple:
    """Shorter first, a number before a word, a smaller number before a larger one."""
    number = _NUMBER.fullmatch(line.strip())
    return len(line), number is None, abs(int(line)) if number else 0, line


def build(cases: list[Case], target: str) -> tuple[str, ...]:
    """The menu of one target: its public cases' lines, simplest first."""
    public = [case for case in cases if case.visibility == Visibility.PUBLIC and case.target == target]
    lines = sorted({line for case in public for line in listed(case)}, key=simplicity)
    return tuple(lines[:MAX_MENU]) or ("",)
