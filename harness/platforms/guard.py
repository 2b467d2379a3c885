"""Every platform's front door leaves a result file, whatever stops its grading.

A platform reads one file when the grading ends (Gradescope's and PrairieLearn's results.json,
Classroom's step output); with none, the student sees a bare autograder failure, or nothing.
`always_reported` runs a grading and, on any exception (a bad spec, a harness bug, Ctrl-C), has
the platform write its "not graded" result with the reason before the exception goes on: the
student learns nothing was scored and why, the instructor gets the one line (or, for a bug of
the harness, the traceback on stderr as well).
"""
import sys
import traceback
from typing import Callable

from harness.errors import InputError


def reason(problem: BaseException) -> str:
    """What a student is told of an exception: an input error's message (it names the file and
    the fix, for the instructor), else only its kind (a harness bug's details are the
    instructor's, on stderr)."""
    if isinstance(problem, InputError):
        return str(problem)
    if isinstance(problem, KeyboardInterrupt):
        return "the grading was stopped before it finished."
    return f"the harness itself failed ({type(problem).__name__})."


def always_reported(grade: Callable[[], int], not_graded: Callable[[str], None]) -> int:
    """`grade()`'s exit status; on an exception, `not_graded(reason)` first. An InputError and
    Ctrl-C go on as they are (the command line says them); any other exception is a harness bug:
    its traceback goes to stderr and it goes on as an InputError of the words the student read, so
    the command ends with one line and exit status 2, as any grading that could not be done."""
    try:
        return grade()
    except (InputError, KeyboardInterrupt) as problem:
        _report(not_graded, reason(problem))
        raise
    except Exception as problem:
        _report(not_graded, reason(problem))
        traceback.print_exc(file=sys.stderr)
        # the same words the result says: a front door that writes its result again on an input
        # error (the command line's) writes the same one
        raise InputError(reason(problem)) from None


def _report(not_graded: Callable[[str], None], said: str) -> None:
    """The platform's "not graded" result; a failure to write it must not hide the first one."""
    try:
        not_graded(said)
    except Exception:  # the one line on stderr is then all that is left
        traceback.print_exc(file=sys.stderr)
