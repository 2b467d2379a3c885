"""Command-line argument types and parser: a misuse is one line and exit 2, never a traceback.

argparse calls these types while parsing, so a missing submission, a report folder that is
a file, or a seed Java cannot hold is refused before anything is built or run.
"""
import argparse
import math
import sys
from pathlib import Path

from harness.errors import MAX_MESSAGE, InputError
from harness.safe_text import one_line

MAX_POINTS = 1_000_000
JAVA_LONG = (-(1 << 63), (1 << 63) - 1)  # seeds reach Java programs as a long


class Parser(argparse.ArgumentParser):
    """argparse, with its errors said on one line (usage stays behind --help)."""

    def error(self, message):
        command = self.prog.partition(" ")[2]
        print(one_line(f"harness: {command + ': ' if command else ''}{message}; see `{self.prog} --help`", MAX_MESSAGE),
              file=sys.stderr)
        sys.exit(2)


class Help(argparse.HelpFormatter):
    """argparse's help, with each command's summary beside its name: argparse measures the
    commands at the list's indentation, not theirs, so a long name (`gradescope`) would put
    its summary on the next line."""

    def add_argument(self, action):
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction) and action.help is not argparse.SUPPRESS:
            longest = max(map(len, action.choices), default=0)
            self._action_max_length = max(self._action_max_length,
                                          longest + self._current_indent + self._indent_increment)


def epilog(root: Path | None = None, unusable: InputError | None = None) -> str:
    """The help text's list of games in the settings' `root` (HARNESS_ROOT); settings that
    cannot be used (`unusable`, a broken HARNESS_ROOT) show in it rather than crashing --help."""
    from harness.loading import spec as specs
    try:
        if unusable is not None:
            raise unusable
        games = ", ".join(specs.games(root)) or "(no specs found)"
    except InputError as problem:
        games = f"(none: {problem})"
    return f"GAME is one of: {games}; GAME:MILESTONE grades one milestone of a game that has several."


def _path(text: str) -> Path:
    if not text or "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not a path")
    return Path(text)


def path(text: str) -> Path:
    """A path that may not exist (yet): a class's missing submission becomes its row."""
    return _path(text)


def existing_path(text: str) -> Path:
    """A submission: a folder, a file or an archive that is there."""
    path = _path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"no such file or folder: {text}")
    return path


def report_folder(text: str) -> Path:
    """Where reports go: a folder, made if missing; never an existing file."""
    path = _path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder; give a folder for the reports")
    return path


def case_file(text: str) -> Path:
    """A case to write: a .yaml file name (an existing one needs --force)."""
    path = _path(text)
    if path.suffix not in (".yaml", ".yml"):
        raise argparse.ArgumentTypeError(f"{text} does not end in .yaml; cases are cases/GAME/NAME.yaml")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; give a file name such as cases/GAME/NAME.yaml")
    return path


def points(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_POINTS):
        raise argparse.ArgumentTypeError(f"{text!r} is not a weight; give a number above 0 and at most {MAX_POINTS}")
    return value


def turn(text: str) -> int:
    """A turn of a transcript: 0 (before anything is typed) or later."""
    if not text.isdigit() or len(text) > 6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a turn; give 0 (before anything is typed) or a later turn's number")
    return int(text)


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not JAVA_LONG[0] <= value <= JAVA_LONG[1]:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed; give a whole number that fits in a Java long")
    return value


def deadline(text: str):
    """An ISO 8601 time with its time zone (a deadline)."""
    from datetime import datetime
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 time; write e.g. 2026-03-02T23:59:00-05:00") from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no time zone; add it, e.g. 2026-03-02T23:59:00-05:00 (or Z for UTC)")
    return when


def percent(text: str) -> float:
    """A percentage from 0 to 100."""
    try:
        value = float(text.strip().removesuffix("%"))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 100):
        raise argparse.ArgumentTypeError(f"{text!r} is not a percentage; give a number from 0 to 100")
    return value


def minutes(text: str) -> float:
    """A grace period in minutes: 0 to a week."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 7 * 24 * 60):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes; give a number from 0 to 10080 (a week)")
    return value
