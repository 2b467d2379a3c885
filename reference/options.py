"""The reference-only options every game shares, and their contract with the grader.

`--start STATE` (or `--start-file PATH`, the same state written in a file: how the grader
passes a program's start, so that no text a program printed can become an option or outgrow a
command line) that breaks the game's rules prints `Invalid start: <reason>` as the last line
and exits 3 (the grader turns that into "the program's start breaks the rules"); a STATE within
the rules that shows no game (already final) prints `Unplayable start: <reason>` and exits 4
(the grader draws again and charges nothing); `--plan JSON` that cannot be read prints one line
on stderr and exits 2. Each spec declares these numbers under `random_start:`.
"""
import json
import sys

from reference import console

INVALID_START = 3
UNPLAYABLE_START = 4
BAD_OPTION = 2


def invalid_start(reason) -> int:
    console.println(f"Invalid start: {reason}")
    sys.stdout.flush()
    return INVALID_START


def unplayable_start(reason) -> int:
    console.println(f"Unplayable start: {reason}")
    sys.stdout.flush()
    return UNPLAYABLE_START


def bad_option(message: str) -> int:
    print(message, file=sys.stderr)
    return BAD_OPTION


def add_start(parser, example: str) -> None:
    """`--start STATE` for a person, `--start-file PATH` for the grader; at most one of them."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--start", metavar="STATE", help=f"begin from a state as the game prints it, e.g. {example}")
    group.add_argument("--start-file", metavar="PATH", help="begin from the state written in PATH")


def start_text(args) -> str | None:
    """The state `--start` or `--start-file` gives, or None."""
    if getattr(args, "start_file", None) is not None:
        with open(args.start_file, encoding="utf-8", errors="replace", newline="") as file:
            return file.read()
    return args.start


def read_plan(text: str, check):
    """The strategy `--plan` names, checked by the game's `check`; None if it cannot be read."""
    try:
        return check(json.loads(text))
    except ValueError as problem:  # json.JSONDecodeError is a ValueError
        print(f"bad --plan: {problem}", file=sys.stderr)
        return None
