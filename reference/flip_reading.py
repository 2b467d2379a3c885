"""Flip read as a person reads a program's output: the functions the spec names for the
grader to call in-process (`reference.flip_reading:...` in specs/, apart from the game
in `reference/flip.py`, which `python -m reference.flip` runs):

- `canonical_states`: the spec's `rewrite`, every state a line shows read leniently and
  written canonically.

The game never calls them: kept apart, they leave the game's module (the one the mutation
audit mutates) with the game alone.
"""
import re


_STATE_LABEL = "Game state:"


def _lenient_state(text: str) -> str | None:
    """A state string as a GameState.toString() with small formatting slips may print it (spaces,
    unsorted parts, `||` for an empty middle, a missing `+`), in the canonical form; None if
    it does not read as a state at all."""
    parts = re.sub(r"\s+", "", text).split("|")
    if len(parts) != 3:
        return None
    halves = []
    for part in parts:
        pair = part.split("+")
        if len(pair) == 1:
            pair.append("")
        if len(pair) != 2 or not all(re.fullmatch(r"[1-6]*", side) for side in pair):
            return None
        halves.append(["".join(sorted(side)) for side in pair])
    if len(halves[1][1]) > 1:
        return None
    return "|".join("+".join(pair) for pair in halves)


def _canonical_state_line(line: str) -> str:
    """One line (without its end): indentation, an optional `Game state:` label and the spaces
    around it, the text, trailing spaces; the text rewritten if it reads as a state. Plain
    string code, linear in the line: a program's output may be a line of 100,000 spaces."""
    text = line.rstrip(" \t\r")
    head = len(text) - len(text.lstrip(" \t"))
    if text.startswith(_STATE_LABEL, head):
        after = head + len(_STATE_LABEL)
        head = len(text) - len(text[after:].lstrip(" \t"))
    state = _lenient_state(text[head:]) if "|" in text[head:] else None
    return line if state is None else line[:head] + state + line[len(text):]


def canonical_states(text: str) -> str:
    """Every state a line shows (`Game state: ...` in a game, a bare state where the method
    driver prints toString()) read leniently and written canonically.

    The grader applies this to a program's output before comparing, so the items about the
    game and the methods judge the states (the facts) and only the `to-string` item, which
    turns the rewrite off, judges how toString() writes them. A line that does not read as a
    state is left as it is."""
    if "|" not in text:
        return text
    return "\n".join(_canonical_state_line(line) if "|" in line else line for line in text.split("\n"))
