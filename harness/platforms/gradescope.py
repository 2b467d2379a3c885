"""`harness gradescope GAME`: the grading step of a Gradescope autograder.

Inside Gradescope's container the student's files are in /autograder/submission and the
results must be in /autograder/results/results.json (gradescope/ holds the setup.sh and
run_autograder that install and call this). The submission is graded as `harness grade`
grades one, and results.json gets what a student must see: the build's reason and the
compiler's first error at the top, each case as a test with its share of the score and, when
it fails, its first difference; hidden cases get the visibility asked for (their score
counts either way). The whole typed result goes beside it as result.json, for the instructor.
When nothing can be graded (a broken spec, no submission folder, a failure of the harness
itself) results.json still says why, so the student never sees a bare autograder failure.
"""
import sys
from dataclasses import dataclass
from pathlib import Path

from harness import atomic
from harness.errors import InputError
from harness.loading import config
from harness.platforms import guard
from harness.reporting import exports

ROOT = Path("/autograder")


@dataclass(frozen=True)
class Layout:
    """Where one autograder run reads and writes."""
    submission: Path
    results: Path  # results.json

    @property
    def full_result(self) -> Path:
        return self.results.with_name("result.json")


def layout(root: Path = ROOT, submission: Path | None = None, results: Path | None = None) -> Layout:
    return Layout(submission or root / "submission", results or root / "results" / "results.json")


def _write(path: Path, data: dict) -> None:
    """Written whole or not at all: Gradescope may read it the moment the script ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, exports.json_text(data))


def not_graded(where: Layout, problem: str) -> None:
    """results.json for a run that graded nothing: a score of 0 and the reason, for the student
    and the instructor (who fixes the autograder and regrades)."""
    try:
        _write(where.results, {"score": 0.0, "output_format": "text", "stdout_visibility": "hidden",
                               "output": f"The autograder could not grade this submission: {problem}\n"
                                         "Your instructor has been told; nothing you submitted was scored.",
                               "tests": []})
    except OSError:
        pass  # the one line on stderr is all that is left


def grade(game: str, where: Layout, **options) -> int:
    """Grade the submission at `where`; 0 if every case passed, 1 otherwise. results.json is
    written whatever happens: the grade, or why nothing was graded (guard.always_reported)."""
    return guard.always_reported(lambda: _grade(game, where, **options), lambda said: not_graded(where, said))


def _grade(game: str, where: Layout, *, select: str | None, hidden: str, allow_unconfined: bool,
           settings: config.Settings) -> int:
    """The grading itself. `settings`: the command's HARNESS_* settings (`config.load()`, read
    once by its front door)."""
    from harness.platforms.common import grade_folder

    spec, result = grade_folder(game, where.submission, select=select, allow_unconfined=allow_unconfined,
                                settings=settings, name="submission", missing="pass --submission FOLDER or --autograder-root "
                                                          "(Gradescope puts it in /autograder/submission)")
    try:
        level = spec.hidden_stages[-1].show if spec.hidden_stages else None  # the most a stage shows
        _write(where.results, exports.gradescope(result, hidden, level))
        _write(where.full_result, result.to_json())
    except OSError as problem:
        raise InputError(f"cannot write {where.results} ({problem.strerror or problem}); "
                         "give a writable place with --results") from None
    print(f"{result.title}: {result.status}, {result.passed}/{result.total} cases, "
          f"{result.earned:.2f}/{result.possible:g} points -> {where.results}", file=sys.stdout)
    return 0 if result.all_passed else 1
