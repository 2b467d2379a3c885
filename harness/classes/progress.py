"""What a person sees while a class is graded: a line per finished submission and, on a
terminal, a live counter with the time left (tqdm), kept below the lines.

Lines go to standard output (a log when redirected); the counter goes to standard error and
only when that is a terminal, so a redirected or piped run carries no control sequences.
Colour follows `--color` (auto: a terminal, and no NO_COLOR in the environment).
"""
import io
import os
import sys
from dataclasses import dataclass


COLOURS = ("auto", "always", "never")
QUIET, NORMAL, VERBOSE = "quiet", "normal", "verbose"


@dataclass(frozen=True)
class Style:
    """How progress is shown: how much, in colour or not, with a live counter or not."""
    detail: str  # quiet | normal | verbose
    colour: bool
    counter: bool  # the live counter is drawn


def style(detail: str, colour_setting: str, out=None, err=None, environ=None) -> Style:
    """How much to say, and whether in colour and with a live counter."""
    out, err = out or sys.stdout, err or sys.stderr
    environ = os.environ if environ is None else environ
    if colour_setting == "always":
        colour = True
    elif colour_setting == "never":
        colour = False
    else:
        colour = _tty(out) and not environ.get("NO_COLOR")
    return Style(detail, colour, detail != QUIET and _tty(err))


def _tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False




class Progress:
    """The counter of one grading (of submissions, or of an audit's mutants); `say` prints a
    line above it. Use as a context manager."""

    def __init__(self, total: int, done: int, look: Style, out=None, err=None, unit: str = "submissions",
                 verb: str = "graded"):
        from tqdm import tqdm  # only a grading draws a counter
        self.look = look
        self.out = out or sys.stdout
        self._bar = tqdm(total=total, initial=done, file=err or sys.stderr, disable=not look.counter,
                         unit=f" {unit}", dynamic_ncols=True, leave=False, smoothing=0.1,
                         bar_format=f"{{n_fmt}}/{{total_fmt}} {verb} |{{bar}}| {{elapsed}} elapsed, about {{remaining}} left")

    def expect(self, total: int) -> None:
        """The total, once it is known (the counter starts again from nothing)."""
        self._bar.reset(total=total)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def say(self, text: str) -> None:
        """A line (or several) above the counter."""
        if self._bar.disable:
            print(text, file=self.out, flush=True)
        else:
            self._bar.write(text.rstrip("\n"), file=self.out)

    def advance(self) -> None:
        self._bar.update(1)

    def close(self) -> None:
        self._bar.close()


def rendered(render, result, colour: bool) -> str:
    """A renderer that prints to a stream, captured so it can be said above the counter."""
    buffer = io.StringIO()
    render(result, buffer, colour=colour)
    return buffer.getvalue()
