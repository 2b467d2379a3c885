"""A styled program: a Python reference run in this process with everything it writes to stdout
passed through a game's styler, so the harness can grade a program that plays the reference's
game but draws and words it in another style the handout allows (`styles.py` grades them).

Run as `python -m harness.suite.styling --styler FILE --seed N --turn-seconds T -- REFERENCE...`
where REFERENCE is the spec's reference command (`python [-S] -m MODULE ARGS` or
`python SCRIPT.py ARGS`). The reference reads the terminal itself (its own reads, unchanged), so
the program waits for input exactly when the reference does: nothing is read ahead and the
harness types each line when the program blocks on it, as it does for any submission.

The styler sees the text the reference wrote since its last flush (a reference flushes before
every read: a turn's output up to its prompt) and returns what the styled program prints
instead. Beside it, this module adds what no game decides: a pause inside one turn (the styled
program computes for a while before it finishes a turn's output, up to half the turn limit) and
output written a line at a time. Standard library only: it starts beside every case run.
"""
import argparse
import io
import random
import runpy
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

CLEAR = "\x1b[H\x1b[2J"  # cursor home, then erase the screen: the clear a program prints between turns
COLOURS = (31, 32, 33, 34, 35, 36, 91, 93, 94, 96)  # SGR foreground colours a style may draw a glyph in
PAUSE_CAP = 2.0  # seconds: the longest pause a style draws, whatever the turn limit (keeps N gradings bounded)


def sgr(text: str, code: int | None) -> str:
    """`text` in an SGR colour (bold for 1), reset after it; unchanged for None."""
    return text if code is None else f"\x1b[{code}m{text}\x1b[0m"


def prompt(text: str, own_line: bool) -> str:
    """A prompt inline (as written) or on its own line (its trailing space dropped, a newline after it)."""
    return text.rstrip() + "\n" if own_line else text


@dataclass(frozen=True)
class Timing:
    """What a style does with time and writes, the same for every game."""
    pause: float  # seconds of one pause inside a turn's output (0: none)
    pause_at: int  # the flush (turn) the pause happens in, counted from 0
    by_line: bool  # each line written and flushed on its own

    def describe(self) -> list[str]:
        said = [f"a pause of {self.pause:.2f} s inside turn {self.pause_at}"] if self.pause else []
        return said + (["output written a line at a time"] if self.by_line else [])


def timing(seed: int, turn_seconds: float) -> Timing:
    """The seed's timing: a pause in half the styles, never as long as half the turn limit."""
    rng = random.Random(f"timing:{seed}")
    longest = min(turn_seconds / 2, PAUSE_CAP)
    pause = round(rng.uniform(0.05, longest), 2) if rng.random() < 0.5 else 0.0
    return Timing(pause, rng.randrange(4), rng.random() < 0.3)


def load_styler(path: Path) -> ModuleType:
    """The game's styler module, run from its file (it lives beside the reference; no bytecode
    is written beside it)."""
    module = ModuleType(f"_styler_{path.stem}")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module  # what a dataclass in it looks up
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


class StyledOutput(io.TextIOBase):
    """stdout as the reference sees it: text kept until a flush, then styled and written."""

    def __init__(self, real, styler, timed: Timing):
        self._real, self._styler, self._timing = real, styler, timed
        self._pending: list[str] = []
        self._flushes = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._pending.append(text)
        return len(text)

    def reconfigure(self, **options) -> None:  # console.setup_stdout: the real stream takes it
        self._real.reconfigure(**options)

    def flush(self) -> None:
        text = "".join(self._pending)
        self._pending.clear()
        if not text:
            self._real.flush()
            return
        styled = self._styler.render(text)
        parts = [styled]
        if self._timing.pause and self._flushes == self._timing.pause_at:
            cut = styled.rfind("\n", 0, len(styled) // 2 + 1) + 1 or len(styled) // 2
            parts = [styled[:cut], styled[cut:]]  # the turn's output in two, a pause between
        for number, part in enumerate(parts):
            if number:
                time.sleep(self._timing.pause)
            for piece in part.splitlines(keepends=True) if self._timing.by_line else [part]:
                self._real.write(piece)
                self._real.flush()
        self._flushes += 1

    def close(self) -> None:
        self.flush()


class FlushingInput(io.TextIOBase):
    """stdin that flushes the styled output before every read, as a terminal program would."""

    def __init__(self, real, out: StyledOutput):
        self._real, self._out = real, out

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        self._out.flush()
        return self._real.readline(size)

    def read(self, size: int = -1) -> str:
        self._out.flush()
        return self._real.read(size)

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def fileno(self) -> int:
        return self._real.fileno()

    def isatty(self) -> bool:
        return self._real.isatty()


def run_reference(words: list[str]) -> None:
    """Run the reference command's Python part here: `[-S ...] -m MODULE ARGS` or `SCRIPT.py ARGS`."""
    at = 0
    while at < len(words) and words[at].startswith("-") and words[at] != "-m":
        at += 1  # interpreter flags (-S): this process is already running
    if at < len(words) and words[at] == "-m":
        sys.argv = [words[at + 1], *words[at + 2:]]
        runpy.run_module(words[at + 1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = words[at:]
        sys.path.insert(0, str(Path(words[at]).resolve().parent))
        runpy.run_path(words[at], run_name="__main__")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.suite.styling")
    parser.add_argument("--styler", type=Path, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--turn-seconds", type=float, default=5.0)
    parser.add_argument("reference", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    words = args.reference[1:] if args.reference[:1] == ["--"] else args.reference
    styler = load_styler(args.styler).styler(random.Random(args.seed))
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    out = StyledOutput(sys.stdout, styler, timing(args.seed, args.turn_seconds))
    real_out = sys.stdout
    sys.stdout, sys.stdin = out, FlushingInput(sys.stdin, out)
    try:
        run_reference(words[1:])  # words[0] is the interpreter
    finally:
        out.flush()
        real_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
