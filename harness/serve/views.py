"""What a student and the instructor are shown of a result: the student's view has the public
cases only, scored on their own as `harness check` scores them, and a count of the hidden ones;
the instructor's is the whole result, the class page and the gradebook."""
import dataclasses
import io
from pathlib import Path

from markupsafe import escape

from harness.grading import scoring
from harness.reporting import exports, html, summary, terminal
from harness.results import SubmissionResult
from harness.safe_text import writable

NOT_THE_GRADE = "This self-check runs the public cases only: its score is not your grade."


def hidden_count(result: SubmissionResult) -> int:
    return sum(1 for case in result.cases if case.visibility == "hidden")


def hidden_note(count: int) -> str:
    if not count:
        return ""
    return (f"{count} hidden case{'s are' if count != 1 else ' is'} not shown; "
            f"{'they count' if count != 1 else 'it counts'} in the grade.")


# The build cache's note: it says another student uploaded the same sources first, so a student
# is never shown it (what one sees must not depend on what others uploaded).
SHARED_NOTES = ("compiled output reused from an identical earlier build",)


def _own_notes(build):
    return dataclasses.replace(build, intake=[line for line in build.intake if not line.startswith(SHARED_NOTES)])


def public(result: SubmissionResult, spec) -> SubmissionResult:
    """The result with every hidden case removed and the public ones scored alone (nothing the
    hidden cases did shows in an item's score), and no note that tells of other students' uploads."""
    cases = [dataclasses.replace(case) for case in result.cases if case.visibility != "hidden"]
    result = dataclasses.replace(result, builds={target: _own_notes(build) for target, build in result.builds.items()})
    if not result.published or not result.items:
        return dataclasses.replace(result, cases=cases, items=[], earned=0.0, possible=0.0)
    items, earned, possible = scoring.score(spec, spec.items(result.milestone), cases)
    return dataclasses.replace(result, cases=cases, items=items, earned=earned, possible=possible)


def student_text(result: SubmissionResult, spec) -> str:
    """What a local `harness check` prints, for the public cases, then the hidden count and the note."""
    shown = public(result, spec)
    out = io.StringIO()
    terminal.render(shown, out, colour=False)
    terminal.explain_failures(shown, out)
    note = hidden_note(hidden_count(result))
    if note:
        out.write(f"  {note}\n")
    out.write(f"  {NOT_THE_GRADE}\n")
    return out.getvalue()


def student_summary(result: SubmissionResult, spec) -> dict:
    shown = public(result, spec)
    return {"status": str(shown.status), "passed": shown.passed, "total": shown.total,
            "all_passed": shown.all_passed, "percent": shown.percent, "published": shown.published,
            "hidden_cases": hidden_count(result), "hidden_note": hidden_note(hidden_count(result)),
            "note": NOT_THE_GRADE,
            "cases": [{"name": c.name, "description": c.description, "rubric": c.rubric, "status": str(c.status),
                       "reason": c.reason} for c in shown.cases]}


def student_html(result: SubmissionResult, spec) -> str:
    """The local report's page for the public cases, with the hidden count and the note on top."""
    page = html.render(public(result, spec))
    banner = (f'<p class="selfcheck-note" id="selfcheck-note"><strong>{escape(NOT_THE_GRADE)}</strong> '
              f'{escape(hidden_note(hidden_count(result)))}</p>')
    return writable(page.replace("<body>", "<body>\n" + banner, 1))


def class_page(results: list[tuple[int, SubmissionResult]], title: str, milestone: str | None, link) -> str:
    """The summary `harness grade` writes as index.html, over each student's latest self-check."""
    reports = [summary.Report(result, link(ident)) for ident, result in results]
    return writable(summary.render(summary.summarise(reports, [], title, milestone)))


def gradebook(results: list[SubmissionResult], path: Path) -> Path:
    exports.gradebook(results, path)
    return path
