"""`harness prairielearn GAME`: the grading step of a PrairieLearn external grader.

PrairieLearn mounts one grading job at /grade: the submission's `data` object in
data/data.json, the student's files in student/, the course's serverFilesCourse files and the
question's tests/ beside them; the job's results must be in results/results.json when the entry
point ends (prairielearn/ holds the builder, the image and the entry point that call this). The
submission is graded as `harness grade` grades one, and results.json gets what a student may see,
in PrairieLearn's format (`score` 0..1, `message`, `output`, one test per public case with its
points, the hidden cases as one test that says only what the spec's `hidden_stages:` allow now).
Where the student's upload holds nothing the harness can build (no files, another language), or
where the harness itself failed, results.json says so with `gradable: false`: no score that
looks like the student's, and PrairieLearn does not count the attempt. The whole typed result
goes beside it as result.json, for the instructor.
"""
import json
import math
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from harness import atomic
from harness.errors import InputError
from harness.loading import config
from harness.platforms import guard
from harness.grading import scoring
from harness.loading import stages
from harness.reporting import exports, hidden
from harness.results import SubmissionResult, Verdict, Visibility
from harness.safe_text import cap, visible

ROOT = Path("/grade")
# PrairieLearn rejects a results.json over 1 MB (its grader host reads it whole); the texts are
# cut to keep the file well under that.
RESULTS_BYTES = 512 * 1024
# Each test's output is cut to these lengths in turn until the file fits (0: left out).
OUTPUT_CHARS = (exports.MESSAGE_CHARS, 1000, 200, 0)
CUT = ("Some texts were shortened to keep these results under PrairieLearn's size limit; "
       "your instructor has the full report.")
NOT_COUNTED = "This attempt was not graded and does not count against you."
HIDDEN_TEST = "hidden cases"


@dataclass(frozen=True)
class Layout:
    """Where one grading job reads and writes (PrairieLearn's /grade, or a folder laid out as it)."""
    data: Path  # data.json
    student: Path
    results: Path  # results.json

    @property
    def full_result(self) -> Path:
        return self.results.with_name("result.json")


def layout(root: Path = ROOT, student: Path | None = None, results: Path | None = None) -> Layout:
    return Layout(root / "data" / "data.json", student or root / "student",
                  results or root / "results" / "results.json")


def _write(path: Path, data: dict) -> None:
    """Written whole or not at all: PrairieLearn reads it the moment the entry point ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, exports.json_text(data))


def not_graded(where: Layout, problem: str) -> None:
    """results.json for a job that graded nothing because the grader failed: not gradable (no
    score, the attempt not counted) and the reason, for the student and the instructor (who
    fixes the grader and regrades)."""
    try:
        _write(where.results, {"gradable": False,
                               "message": f"The grader could not grade this submission: {visible(problem)}\n"
                                          f"This is a problem of the grader, not of your program. {NOT_COUNTED} "
                                          "Please tell your instructor.",
                               "format_errors": [visible(problem)], "output": "", "tests": []})
    except OSError:
        pass  # the one line on stderr is all that is left


def read_data(where: Layout) -> dict:
    """The job's data.json (the `data` object PrairieLearn gives a question's grade())."""
    try:
        data = json.loads(where.data.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"no {where.data}: not a PrairieLearn grading job; pass --grade-root FOLDER "
                         "(PrairieLearn mounts the job at /grade)") from None
    except (OSError, UnicodeDecodeError, ValueError) as problem:
        raise InputError(f"cannot read {where.data} ({getattr(problem, 'strerror', None) or problem})") from None
    if not isinstance(data, dict):
        raise InputError(f"{where.data} is not a JSON object; PrairieLearn writes the question's data object there")
    return data


def submitted_names(data: dict) -> list[str] | None:
    """The names of the files the student submitted, as data.json lists them (None: it lists none,
    e.g. files that came from a workspace)."""
    answers = data.get("submitted_answers")
    files = answers.get("_files") if isinstance(answers, dict) else None
    if not isinstance(files, list):
        return None
    return [str(f["name"]) for f in files if isinstance(f, dict) and f.get("name")]


def _points(value: float) -> float:
    return round(value, scoring.DIGITS)


def _test(case, worth, nothing_built: bool = False) -> dict:
    message = "Passed" if case.passed else case.reason or str(case.status).capitalize()
    return {"name": f"{case.name} [{case.rubric}]", "description": visible(case.description),
            "points": _points(case.earned), "max_points": _points(case.value),
            "message": cap(visible(f"{message} — {worth.text()}."), 1000),
            "output": exports.case_message(case, worth.text(), nothing_built)}


def _hidden_test(result: SubmissionResult, now) -> dict:
    """Every hidden case as one test: its points count, and it says what the stage `now` allows of
    the failed ones (at `count`, the stage before any date: how many there are and nothing else)."""
    cases = [case for case in result.cases if case.visibility == Visibility.HIDDEN]
    earned = math.fsum(case.earned for case in cases)
    value = math.fsum(case.value for case in cases)
    view = hidden.view(result, len(cases), now)
    count = f"{len(cases)} hidden case{'s' if len(cases) != 1 else ''}"
    described = f"{count}, together worth {scoring.points(value)} points of the total"
    if view.stage == stages.COUNT:
        described += "; their names and outputs are not shown"
    shown = hidden.text(view).splitlines()[1:]  # the first line is `said`, the test's message
    return {"name": HIDDEN_TEST, "description": described, "points": _points(earned), "max_points": _points(value),
            "message": visible(view.said), "output": textwrap.dedent("\n".join(shown))}


def results(result: SubmissionResult, now, names: list[str] | None = None) -> dict:
    """PrairieLearn's results.json for `result`; `now` is the spec's hidden stage in force
    (loading/stages.py `at`), `names` the files data.json says were submitted."""
    notes = exports.build_notes(result)
    if not result.published:  # the grader failed on a case: no score, never a partial one
        return {"gradable": False, "message": f"{exports.REGRADE} {NOT_COUNTED} Your instructor can regrade it.",
                "format_errors": [exports.REGRADE], "output": "\n".join(notes), "tests": []}
    if result.status == Verdict.MISSING_FILES and not any(build.ok for build in result.builds.values()):
        # nothing the harness could build (a game with several targets, one of them found, is graded)
        sent = ("You submitted: " + ", ".join(visible(name) for name in names) + "." if names
                else "You submitted no files." if names is not None else "")
        reasons = [f"{target}: {build.reason}" for target, build in result.builds.items() if not build.ok]
        return {"gradable": False,
                "message": " ".join(filter(None, ["The files this question grades were not found.", sent,
                                                  NOT_COUNTED])),
                "format_errors": [visible(reason) for reason in reasons] or notes,
                "output": "\n".join(notes), "tests": []}
    explained = scoring.explain(result)
    public = [case for case in result.cases if case.visibility != Visibility.HIDDEN]
    hidden_cases = len(result.cases) - len(public)
    tests = [_test(case, explained.worth(case), result.status == Verdict.MISSING_FILES) for case in public]
    if hidden_cases:
        tests.append(_hidden_test(result, now))
    passed = sum(case.passed for case in public)
    message = (f"{result.title}: {passed} of {len(public)} {'public ' if hidden_cases else ''}"
               f"case{'s' if len(public) != 1 else ''} passed"
               + (f", and {hidden_cases} hidden case{'s' if hidden_cases != 1 else ''} graded" if hidden_cases else "")
               + f"; {scoring.points(result.earned)} of {scoring.points(result.possible)} points.")
    if result.status == Verdict.BUILD_FAILED:
        message += " The program did not build: see the compiler's output below."
    accounts = []
    if not hidden_cases:  # an item's count of passed cases would tell how its hidden cases did
        accounts = [f"{item.id} {scoring.points(item.earned)}/{scoring.points(item.weight)}: "
                    f"{explained.account(item).text()}" for item in result.items if item.graded and item.counted]
    return {"gradable": True, "score": round(result.percent / 100, 4), "message": message,
            "output": "\n".join([*notes, *accounts]), "tests": tests}


def _size(doc: dict) -> int:
    return len(exports.json_text(doc).encode("utf-8", "replace"))


def fitted(doc: dict, limit: int = RESULTS_BYTES) -> dict:
    """`doc` cut until its JSON takes at most `limit` bytes: the tests' outputs shortened in
    turn, then the top-level output, then the last tests left out; the message says so."""
    if _size(doc) <= limit:
        return doc
    cut = {**doc, "message": f"{doc.get('message', '')}\n{CUT}".strip()}
    for chars in OUTPUT_CHARS:
        cut["tests"] = [{**test, "output": cap(test.get("output", ""), chars) if chars else ""}
                        for test in doc.get("tests", [])]
        cut["output"] = cap(doc.get("output", ""), max(chars, 1000))
        if _size(cut) <= limit:
            return cut
    cut["output"] = ""
    while cut["tests"] and _size(cut) > limit:
        cut["tests"] = cut["tests"][:len(cut["tests"]) // 2]
    return cut


def grade(game: str, where: Layout, **options) -> int:
    """Grade the job at `where`; 0 if every case passed, 1 otherwise. results.json is written
    whatever happens: the grade, or why nothing was graded (guard.always_reported)."""
    return guard.always_reported(lambda: _grade(game, where, **options), lambda said: not_graded(where, said))


def _grade(game: str, where: Layout, *, select: str | None, allow_unconfined: bool,
           settings: config.Settings, budget: float | None = None) -> int:
    """The grading itself. `settings`: the command's HARNESS_* settings (`config.load()`, read
    once by its front door)."""
    from harness.platforms.common import grade_folder

    data = read_data(where)
    # budget: the job's timeout, what is left after it fails, instead of the whole job
    spec, result = grade_folder(game, where.student, select=select, allow_unconfined=allow_unconfined,
                                settings=settings, name="student", budget=budget, missing="pass --student FOLDER or --grade-root "
                                                                      "(PrairieLearn puts the files in /grade/student)")
    doc = fitted(results(result, stages.at(spec.hidden_stages), submitted_names(data)))
    try:
        _write(where.results, doc)
        _write(where.full_result, result.to_json())
    except OSError as problem:
        raise InputError(f"cannot write {where.results} ({problem.strerror or problem}); "
                         "give a writable place with --results") from None
    shown = f"score {doc['score']:.4f}" if doc.get("gradable") else "not gradable"
    print(f"{result.title}: {result.status}, {result.passed}/{result.total} cases, "
          f"{result.earned:.2f}/{result.possible:g} points, {shown} -> {where.results}", file=sys.stdout)
    return 0 if result.all_passed else 1
