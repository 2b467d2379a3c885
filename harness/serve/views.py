"""What a student and the instructor are shown of a result: the student's view has the public
cases only, scored on their own as `harness check` scores them, and a count of the hidden ones;
the instructor's is the whole result, the class page and the gradebook.

The student's view (`Shown`) is made once, from the results `Grader.grade` hands over when the
public cases are done and before any hidden one runs, and kept as it is: nothing a hidden run
does can change it."""
from dataclasses import dataclass
import io
from pathlib import Path

from markupsafe import escape

from harness.reporting import exports, hidden, html, summary, terminal
from harness.reporting.student import hidden_count, public  # shared with a report's student copy
from harness.results import SubmissionResult
from harness.safe_text import writable

NOT_THE_GRADE = "This self-check runs the public cases only: its score is not your grade."


def hidden_note(count: int) -> str:
    if not count:
        return ""
    return (f"{count} hidden case{'s are' if count != 1 else ' is'} not shown; "
            f"{'they run' if count != 1 else 'it runs'} after these and count{'' if count != 1 else 's'} in the grade.")


@dataclass
class Shown:
    """What a student is shown of a submission: its public cases (scored alone) and how many
    hidden cases it has (counted, never named)."""
    result: SubmissionResult
    hidden: int

    def to_json(self) -> dict:
        return {"hidden_cases": self.hidden, "result": self.result.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> "Shown":
        return cls(SubmissionResult.from_json(data["result"]), int(data["hidden_cases"]))


def shown(result: SubmissionResult, spec) -> Shown:
    """The student's view of `result` (a whole one, or the public one with hidden placeholders)."""
    return Shown(public(result, spec), hidden_count(result))


def student_text(view: Shown, staged: "hidden.HiddenView | None" = None) -> str:
    """What a local `harness check` prints, for the public cases, then the hidden count (or what
    the spec's stage shows of the hidden cases) and the note."""
    out = io.StringIO()
    terminal.render(view.result, out, colour=False)
    terminal.explain_failures(view.result, out)
    note = hidden_note(view.hidden)
    if note:
        out.write(f"  {note}\n")
    if staged is not None:
        out.write(hidden.text(staged))
    out.write(f"  {NOT_THE_GRADE}\n")
    return out.getvalue()


def student_summary(view: Shown, staged: "hidden.HiddenView | None" = None) -> dict:
    shown = view.result
    return {"hidden": staged.to_json() if staged is not None else None, "status": str(shown.status), "passed": shown.passed, "total": shown.total,
            "all_passed": shown.all_passed, "percent": shown.percent, "published": shown.published,
            "hidden_cases": view.hidden, "hidden_note": hidden_note(view.hidden),
            "note": NOT_THE_GRADE,
            "cases": [{"name": c.name, "description": c.description, "rubric": c.rubric, "status": str(c.status),
                       "reason": c.reason} for c in shown.cases]}


def student_html(view: Shown, staged: "hidden.HiddenView | None" = None) -> str:
    """The local report's page for the public cases, with the hidden count (or what the spec's
    stage shows of the hidden cases) and the note on top."""
    page = html.render(view.result)
    banner = (f'<p class="selfcheck-note" id="selfcheck-note"><strong>{escape(NOT_THE_GRADE)}</strong> '
              f'{escape(hidden_note(view.hidden))}</p>' + (hidden.html_section(staged) if staged is not None else ""))
    return writable(page.replace("<body>", "<body>\n" + banner, 1))


def class_page(results: list[tuple[int, SubmissionResult]], title: str, milestone: str | None, link) -> str:
    """The summary `harness grade` writes as index.html, over each student's latest self-check."""
    reports = [summary.Report(result, link(ident)) for ident, result in results]
    return writable(summary.render(summary.summarise(reports, [], title, milestone)))


def with_own_games(page: str, counts: dict, policy) -> str:
    """The class page with the students' own games counted on top (a course measures with it
    whether a shown game helps: how many next submissions no longer differ on it)."""
    note = (f'<p id="own-games">Games of their own (at most {policy.per_day} a student a day, {policy.turns} of the '
            f'handout\'s turns): {counts["shown"]} shown, {counts["turns_shown"]} turns of the handout shown; '
            f'{counts["next_played"]} played to the student\'s next submission, {counts["next_no_longer_differs"]} '
            f'of those no longer differ; {counts["none_found"]} searches found none, '
            f'{counts["limit_reached"]} were past the limit.</p>')
    return page.replace("<body>", "<body>\n" + note, 1)


def gradebook(results: list[SubmissionResult], path: Path) -> Path:
    exports.gradebook(results, path)
    return path
