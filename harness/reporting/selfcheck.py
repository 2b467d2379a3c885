"""What a local self-check (`harness check`) tells a student besides the cases: where its report
is kept (never inside the submission, where it would be handed in and graded), how many hidden
cases the grading runs that the check does not, and that its score is not the grade."""
import os
from pathlib import Path

from harness.errors import InputError
from harness.loading import paths

NOT_THE_GRADE = "This self-check runs the public cases only: its score is not your grade."


def default_folder() -> Path:
    """The student's own cache: `$XDG_CACHE_HOME/game-harness/check/` (else ~/.cache/...)."""
    return paths.cache_root() / "check"


def report_folder(output: Path | None, submission: Path, game: str) -> Path:
    """The folder of this check's report: under -o when given, else the cache; never inside the
    submission (a report there would become part of it)."""
    base = output if output is not None else default_folder()
    folder = base / f"check-{game}"
    inside = os.path.realpath(submission)
    target = os.path.realpath(folder)
    if submission.is_dir() and (target == inside or target.startswith(inside + os.sep)):
        raise InputError(f"-o {output}: that is inside the submission {submission}, so the report would be handed in "
                         "with it; give a folder outside it, or leave -o out (the report then goes to your cache)")
    return folder


def hidden_note(hidden: int) -> str:
    """Something true about the hidden cases, whether this copy of the project has them or not."""
    if hidden:
        return (f"{hidden} hidden case{'s are' if hidden != 1 else ' is'} not run here; "
                f"{'they count' if hidden != 1 else 'it counts'} in your grade.")
    return "This copy of the project has no hidden cases; the grading may run cases that are not here."


def notes(hidden: int) -> list[str]:
    return [hidden_note(hidden), NOT_THE_GRADE]
