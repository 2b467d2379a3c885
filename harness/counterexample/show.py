"""A counterexample as a student reads it in a terminal: the lines typed up to the first differing
turn, the reference's and the program's output at that turn side by side, and one command that
replays it. Nothing the reference printed after that turn is in it (the game ends there), and
every text a program printed is made harmless (safe_text.visible) and bounded."""
import shlex

from harness.counterexample.game import Counterexample
from harness.safe_text import cap, one_line, visible

COLUMN = 38  # characters of a column of the side-by-side view
TURN_LINES = 30  # lines of a turn shown at most
TURN_CHARS = 3000


def replay_command(game: str, submission: str, encoded: str) -> str:
    """The one command that plays the game to the program and judges it again."""
    return f"harness check {shlex.quote(game)} {shlex.quote(submission)} --replay {shlex.quote(encoded)}"


def _rows(text: str | None) -> list[str]:
    if text is None:
        return ["(no such turn)"]
    lines = visible(cap(text, TURN_CHARS)).split("\n")
    return lines[:TURN_LINES] + ([f"... ({len(lines) - TURN_LINES} more lines)"] if len(lines) > TURN_LINES else [])


def side_by_side(expected: str | None, actual: str | None, width: int = COLUMN) -> list[str]:
    """The two outputs of one turn in two columns, a line that differs marked with `!`."""
    left, right = _rows(expected), _rows(actual)
    out = [f"  {'expected (the handout)':<{width}} | your program"]
    for index in range(max(len(left), len(right))):
        a = left[index] if index < len(left) else ""
        b = right[index] if index < len(right) else ""
        mark = " " if index < len(left) and index < len(right) and a == b else "!"
        shown = a if len(a) <= width else a[:width - 1] + "…"
        out.append(f"{mark} {shown:<{width}} | {b}")
    return out


def lines(found: Counterexample) -> list[str]:
    """The counterexample for a terminal, one line each."""
    typed = ", ".join(repr(one_line(line, 40)) for line in found.inputs) or "nothing"
    out = [f"Your own game: your program and the handout part ways after {len(found.inputs)} typed "
           f"line{'s' if len(found.inputs) != 1 else ''} (judged as item {found.context.rubric!r} judges "
           "its cases):"]
    if found.start is not None:
        out.append(f"  your program drew the start {one_line(found.start, 80)!r}; the handout's game is played from it")
    out.append(f"  typed: {typed}")
    where = "before anything is typed" if found.turn == 0 else f"after typed line {found.turn}"
    out.append(f"  the first differing turn, {where}:")
    out += ["    " + row for row in side_by_side(found.expected, found.actual)]
    if found.expected_end != found.actual_end:
        out.append(f"    the handout's game {found.expected_end}; your program {one_line(found.actual_end, 200)}")
    if found.partly_shrunk:
        out.append("  (partly shrunk: a shorter game may differ too; the shrinking stopped at its limit of runs)")
    out.append(f"  replay it: {found.replay}")
    out.append(f"  (found and shrunk in {found.runs} runs of your program, {found.seconds:.1f} s)")
    return out
