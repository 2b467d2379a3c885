"""A differing game shrunk to one-minimal over the menu's choices: no single line can be left out,
nor one replaced by a simpler line of the menu, and the game still differ. Games are
prefix-closed (what follows the first differing turn cannot matter), so every game kept is cut
after its first differing turn, then lines are left out (halves first, as delta debugging does,
down to single lines) and each line made simpler, until a whole pass changes nothing. The
program's runs are capped (`budget`, and a wall time); past it, the best game so far comes back
partly shrunk."""
import time
from dataclasses import dataclass
from typing import Callable

from harness.counterexample.game import Trial

BUDGET = 200  # the program's runs a shrink may make


class _Spent(Exception):
    pass


@dataclass
class Shrunk:
    trial: Trial
    complete: bool  # False: the budget ran out before a pass changed nothing (partly shrunk)
    runs: int


def simpler(menu: tuple[str, ...], line: str) -> tuple[str, ...]:
    """The menu's lines simpler than `line` (all of them for a line not in the menu)."""
    return menu[:menu.index(line)] if line in menu else menu


def shrink(found: Trial, run: Callable[[tuple[str, ...]], Trial], runs: Callable[[], int],
           menu: tuple[str, ...], allowed: Callable[[tuple[str, ...]], bool], budget: int = BUDGET,
           seconds: float | None = None) -> Shrunk:
    """`run(inputs)`: the game judged (kept judgements cost no run); `runs()`: the program's runs
    so far; `allowed(inputs)`: a game that may be shown (never a hidden case); `seconds`: a cap
    on the wall time too (a long game of a slow program)."""
    first = runs()
    deadline = None if seconds is None else time.monotonic() + seconds

    def differs(inputs: tuple[str, ...]) -> Trial | None:
        if not allowed(inputs):
            return None
        if runs() - first >= budget or deadline is not None and time.monotonic() > deadline:
            raise _Spent
        judged = run(inputs)
        return judged if judged.differs else None

    def cut(judged: Trial) -> Trial:
        if judged.turn is not None and judged.turn < len(judged.inputs):
            shorter = differs(judged.inputs[:judged.turn])
            if shorter is not None:
                return cut(shorter)
        return judged

    best = found
    try:
        best = cut(found)
        changed = True
        while changed:
            changed = False
            size = max(1, len(best.inputs) // 2)
            while size >= 1:
                at = 0
                while at < len(best.inputs):
                    smaller = differs(best.inputs[:at] + best.inputs[at + size:])
                    if smaller is not None:
                        best, changed = cut(smaller), True
                    else:
                        at += size
                size //= 2
            for at in range(len(best.inputs)):
                if at >= len(best.inputs):
                    break
                for line in simpler(menu, best.inputs[at]):
                    plainer = differs(best.inputs[:at] + (line,) + best.inputs[at + 1:])
                    if plainer is not None:
                        best, changed = cut(plainer), True
                        break
    except _Spent:
        return Shrunk(best, False, runs() - first)
    return Shrunk(best, True, runs() - first)


def witnesses(inputs: tuple[str, ...], menu: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every game one step simpler than `inputs`: one line left out, or one made simpler. A game
    is one-minimal when none of them differs (the verifier's list)."""
    out = [inputs[:at] + inputs[at + 1:] for at in range(len(inputs))]
    out += [inputs[:at] + (line,) + inputs[at + 1:] for at in range(len(inputs)) for line in simpler(menu, inputs[at])]
    return list(dict.fromkeys(out))
