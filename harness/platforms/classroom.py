"""`harness classroom GAME`: the grading step of a GitHub Classroom autograding workflow.

GitHub Classroom grades a student's repository with a workflow of its own: runner steps, each
setting a step output `result` (base64 of a JSON report), and the autograding reporter
(classroom-resources/autograding-grading-reporter) that reads each runner's output from the
environment variable `<STEP ID>_RESULTS`, prints the tests and tells Classroom the points as
`Points <sum of the tests' scores>/<sum of the runners' max_score>`. This module is such a runner:
the checked-out repository (`$GITHUB_WORKSPACE`, or `--submission`) is graded as `harness grade`
grades one submission, and the report is the Gradescope export's tests (`exports.gradescope`:
each case's message and value as `scoring.explain` says them, hidden cases as the spec's
`hidden_stages:` show them) said in the runner's format, the points scaled to the assignment's
(`--points`). It is appended to `$GITHUB_OUTPUT` as `result=...` (printed when that is unset);
the step's log gets the same tests in words, for the student.

Where bubblewrap cannot run, the program runs unconfined (`--no-sandbox`, which grade.sh passes
only as root, each run then an unprivileged user of its own, or when the workflow allows it), and
the report's first test, of no points, says so and what held the program instead (`unconfined`).

When the harness cannot grade (a broken spec, no submission, a grader failure on a case) the
report's status is `error`, its message says why and its `max_score` is 0: the reporter fails
the job and sends Classroom no points at all, rather than a 0 that looks like the student's.
"""
import base64
import json
import math
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.errors import InputError
from harness.loading import config
from harness.platforms import guard
from harness.results import HARNESS_ERROR, PASSED, SubmissionResult, Visibility

VERSION = 1  # the runners' report format (autograding-command-grader writes version 1)
OUTPUT = "result"  # the step output the reporter is given
STEP_ID = "gameharness"  # the workflow's step id: the reporter reads GAMEHARNESS_RESULTS
# The reporter gets the report through an environment variable, and Linux refuses a single
# variable over 128 KiB (MAX_ARG_STRLEN) when it starts the reporter: the encoded report stays
# under this, its messages shortened if need be (the step's log keeps them whole).
ENCODED_LIMIT = 100_000
MESSAGE_STEPS = (4000, 1000, 300, 0)
NOT_GRADED = "The autograder could not grade this submission: {problem}\n" \
             "Nothing you submitted was scored; tell your instructor, who must fix the autograder."


def env_variable(step_id: str = STEP_ID) -> str:
    """The environment variable the reporter reads a runner's report from (its src/main.js)."""
    return f"{step_id.strip().upper()}_RESULTS"


@dataclass(frozen=True)
class Where:
    """Where one run reads and writes."""
    submission: Path
    output: Path | None  # the file `result=...` is appended to (None: printed)


def where(submission: Path | None = None, output: Path | None = None, env=os.environ) -> Where:
    """The submission is the checked-out repository: `--submission`, else $GITHUB_WORKSPACE,
    else the working folder; the output $GITHUB_OUTPUT unless `--output` says otherwise."""
    folder = submission or Path(env.get("GITHUB_WORKSPACE") or ".")
    given = output or (Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None)
    return Where(folder.absolute(), given)


# --- the report -------------------------------------------------------------------

def _scaled(values: list[float], total: float) -> list[float]:
    """`values` rounded to hundredths so that they add up to `total` rounded the same way (the
    largest remainders get the hundredths rounding left over): the Classroom total is the sum."""
    want = round(total * 100)
    exact = [v * 100 for v in values]
    cents = [math.floor(x + 1e-9) for x in exact]
    order = sorted(range(len(values)), key=lambda i: exact[i] - cents[i], reverse=True)
    for i in order[:max(0, want - sum(cents))]:
        cents[i] += 1
    for i in reversed(order[len(order) - max(0, sum(cents) - want):]):  # the rare sum above: take back
        cents[i] -= 1 if cents[i] > 0 else 0
    return [c / 100 for c in cents]


def _test(name: str, status: str, score: float, message: str, code: str, seconds: float) -> dict:
    """One test as the command grader writes it (src/main.js, generateResult): the reporter
    prints `name` (and `line_no` when not 0), `test_code` under it, and `message` for an error."""
    return {"name": name, "status": status, "score": score, "message": message, "test_code": code,
            "filename": "", "line_no": 0, "duration": round(seconds * 1000)}


TYPED_LINES = 20  # of a case's input shown under its name (the reporter prints it for every test)


def _typed(case) -> str:
    """What the case types, one line each: the test's "code" as the reporter shows it."""
    if not case.typed:
        return "(types nothing)"
    shown = [f"> {line}" for line in case.typed[:TYPED_LINES]]
    more = len(case.typed) - TYPED_LINES
    return "\n".join(shown + ([f"… and {more} more lines"] if more > 0 else []))


def report(result: SubmissionResult, level: str, points: float | None = None) -> tuple[dict, str]:
    """(the runner's report, the summary the step's log starts with) for a graded submission;
    `level` is the hidden_stages level that applies now, `points` the assignment's (default:
    the rubric's counted points)."""
    from harness.loading import stages
    from harness.reporting import exports

    if not result.possible:
        raise InputError(f"{result.game} has no automatically graded points (every item is graded by hand), "
                         "so there is nothing to report to Classroom")
    exported = exports.gradescope(result, "hidden", level)  # names, messages and staging: the export's
    total = result.possible if points is None else points
    scale = total / result.possible
    published = result.published
    scores = _scaled([t["score"] * scale for t in exported["tests"]], result.earned * scale if published else 0.0)
    tests, hidden = [], []
    for case, test, score in zip(result.cases, exported["tests"], scores):
        status = "pass" if case.status == PASSED else "error" if case.status == HARNESS_ERROR else "fail"
        message = test["output"]
        if scale != 1 and case.value:
            message = _in_points(message, f"{case.value * scale:.2f} of this assignment's {total:g}")
        shown = case.visibility == Visibility.PUBLIC or level == stages.TRANSCRIPT
        entry = _test(test["name"], status, score, message, _typed(case) if shown else "", case.seconds)
        (hidden if case.visibility == Visibility.HIDDEN and level == stages.COUNT else tests).append(entry)
    if hidden:  # nothing but the count: one test for them all, which tells no more than the total
        tests.append(_test(f"hidden cases ({len(hidden)})", "pass" if all(t["status"] == "pass" for t in hidden)
                           else "fail", round(math.fsum(t["score"] for t in hidden), 2),
                           f"{len(hidden)} hidden cases; their names and results are not shown.", "",
                           sum(t["duration"] for t in hidden) / 1000))
    status = "error" if not published else "pass" if result.all_passed else "fail"
    shown_total = int(total) if float(total).is_integer() else round(total, 2)
    data = {"version": VERSION, "status": status, "max_score": shown_total if published else 0, "tests": tests}
    return data, exported["output"]


def _in_points(message: str, said: str) -> str:
    """The case's worth in the assignment's points, beside its worth in the rubric's."""
    lines = message.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("This case: ") and line.endswith("."):
            lines[index] = f"{line[:-1]} ({said})."
            return "\n".join(lines)
    return f"{message}\nThis case: {said} points."


UNCONFINED = "ran without the sandbox"  # the name of the test that says so, first in the report


def unconfined(settings: config.Settings) -> dict:
    """A test of no points, first in the report, that says the program ran without bubblewrap and
    what held it instead: Classroom's page then shows it, as Gradescope's log shows its line."""
    from harness.running import sandbox

    said = sandbox.describe(settings.sandbox)
    return _test(f"{UNCONFINED} ({said.split(';')[0].removeprefix('no sandbox: ')})", "pass", 0,
                 f"bubblewrap could not run on this runner, so the program ran unconfined: {said}.", "", 0.0)


def not_graded(problem: str) -> dict:
    """The report of a run that graded nothing: status `error`, the reason, and no points possible
    (the reporter then sends Classroom nothing rather than a 0)."""
    return {"version": VERSION, "status": "error", "max_score": 0,
            "tests": [_test("game harness", "error", 0, NOT_GRADED.format(problem=problem), "", 0.0)]}


def encoded(data: dict) -> str:
    """base64 of the report's JSON, its messages shortened until it fits ENCODED_LIMIT."""
    for limit in MESSAGE_STEPS:
        shortened = {**data, "tests": [{**t, "message": _shorter(t["message"], limit)} for t in data["tests"]]}
        text = base64.b64encode(json.dumps(shortened, ensure_ascii=False).encode("utf-8")).decode("ascii")
        if len(text) <= ENCODED_LIMIT:
            return text
    kept = {**data, "tests": data["tests"][:1] if data["tests"] else []}  # one error line at the very least
    for test in kept["tests"]:
        test["message"] = "The report was too large for Classroom; the grading step's log has it all."
    return base64.b64encode(json.dumps(kept).encode("utf-8")).decode("ascii")


def _shorter(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return (text[:limit] + "\n… (the rest is in the grading step's log)") if limit else \
        "(in the grading step's log)"


def write(place: Where, data: dict) -> None:
    """`result=<base64>` appended to the step's output file, or printed when there is none."""
    line = f"{OUTPUT}={encoded(data)}\n"
    if place.output is None:
        sys.stdout.write(line)
        return
    try:
        with open(place.output, "a", encoding="utf-8") as output:
            output.write(line)
    except OSError as problem:
        raise InputError(f"cannot write the step's output to {place.output} ({problem.strerror or problem}); "
                         "is GITHUB_OUTPUT a writable file?") from None


# --- the step's log ---------------------------------------------------------------

def _log(data: dict, summary: str) -> None:
    """The tests in words, in the step's log. A program's output may hold a line that the
    Actions runner would read as a workflow command (`::error::`, `::add-mask::`): inside
    GitHub Actions the log is framed by `::stop-commands::`, so all of it is only text."""
    token = secrets.token_hex(16) if os.environ.get("GITHUB_ACTIONS") == "true" else ""
    out = [f"::stop-commands::{token}"] if token else []
    out += [summary, ""] if summary else []
    mark = {"pass": "PASS", "fail": "FAIL", "error": "ERROR"}
    for test in data["tests"]:
        out.append(f"{mark[test['status']]}  {test['name']}  ({test['score']:g} points)")
        if test["status"] != "pass" and test["message"]:
            out += ["    " + line if line else "" for line in test["message"].splitlines()] + [""]
    earned = math.fsum(t["score"] for t in data["tests"])
    out.append(f"Points {earned:.2f}/{data['max_score']:g}" if data["max_score"] else
               "No points are reported: the submission was not graded.")
    out += [f"::{token}::"] if token else []
    print("\n".join(out), flush=True)


# --- the command ------------------------------------------------------------------

def grade(game: str, place: Where, *, points: float | None, select: str | None, allow_unconfined: bool,
          settings: config.Settings) -> int:
    """Grade the repository at `place`; 0 if every case passed, 1 otherwise, the report written either way.
    `settings`: the command's HARNESS_* settings (`config.load()`, read once by its front door)."""
    from harness.loading import stages
    from harness.platforms.common import grade_folder

    spec, result = grade_folder(game, place.submission, select=select, allow_unconfined=allow_unconfined,
                                settings=settings, name="submission", missing="pass --submission FOLDER (in a workflow, check the "
                                                          "repository out first: actions/checkout)")
    data, summary = report(result, stages.at(spec.hidden_stages).show, points)
    if result.sandbox == "none":
        data["tests"].insert(0, unconfined(settings))
    _log(data, summary)
    write(place, data)
    if not result.published:
        print("harness: the grader failed on a case (not the program's fault), so no points are reported; "
              "fix the case or the harness and grade the submission again", file=sys.stderr)
    return 2 if not result.published else 0 if result.all_passed else 1


def run(game: str, place: Where, **options) -> int:
    """`grade`, and a report with status `error` whatever stops it (guard.always_reported): a
    harness failure never leaves the reporter without a report, nor looks like the student's 0."""
    return guard.always_reported(lambda: grade(game, place, **options), lambda said: _fail(place, said))


def _fail(place: Where, problem: str) -> None:
    data = not_graded(problem)
    _log(data, "")
    try:
        write(place, data)
    except InputError:
        pass  # the one line on stderr is all that is left
