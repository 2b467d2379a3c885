"""Writing a submission's report files: result.json, report.html and the student's copy of it
(report-student.html: the public cases only, see reporting/student.py), Gradescope and JUnit.
Each is UTF-8 whatever names the submission holds (see harness.safe_text.writable)."""
from pathlib import Path

from harness.reporting import exports, html, student
from harness.results import SubmissionResult
from harness.safe_text import writable


def write(result: SubmissionResult, folder: Path, notes: list[str] = ()) -> dict[str, Path]:
    """`notes` go at the top of report.html and of the student's copy (a self-check's: the
    hidden cases, not the grade)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"json": folder / "result.json", "html": folder / "report.html", "student": folder / student.STUDENT_COPY}
    paths.update(exports.write_all(result, folder))
    paths["json"].write_text(exports.json_text(result.to_json()), encoding="utf-8")
    paths["html"].write_text(writable(html.render(result, notes, student_copy=student.STUDENT_COPY)), encoding="utf-8")
    paths["student"].write_text(writable(student.page(result, notes)), encoding="utf-8")
    return paths
