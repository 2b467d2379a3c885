"""The reference-only options every game shares, and their contract with the grader.

`--start STATE` that cannot be used prints `Invalid start: <reason>` as the last line and
exits 3 (the grader turns that into "the program's start breaks the rules"); `--plan JSON`
that cannot be read prints one line on stderr and exits 2.
"""
import json
import sys

from reference import console

INVALID_START = 3
BAD_OPTION = 2


def invalid_start(reason) -> int:
    console.println(f"Invalid start: {reason}")
    sys.stdout.flush()
    return INVALID_START


def bad_option(message: str) -> int:
    print(message, file=sys.stderr)
    return BAD_OPTION


def read_plan(text: str, check):
    """The strategy `--plan` names, checked by the game's `check`; None if it cannot be read."""
    try:
        return check(json.loads(text))
    except ValueError as problem:  # json.JSONDecodeError is a ValueError
        print(f"bad --plan: {problem}", file=sys.stderr)
        return None
