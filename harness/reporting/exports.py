"""Other graders' formats: Gradescope results.json, JUnit XML, and a CSV gradebook for a class.

They show the numbers scoring computed (each case's `value` and `earned`), so the per-test
scores add up to the total exactly, and say them as scoring explains them (`scoring.explain`:
"worth 0.5 of 10 points"); nothing here scores anything again.
"""
import json
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from harness import atomic, csv_cells
from harness.csv_cells import Figure
from harness.grading import scoring
from harness.judging.differences import moment
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE, CaseResult, SubmissionResult, Verdict, \
    Visibility
from harness.safe_text import cap, visible, writable

MESSAGE_CHARS = 4000  # what a student reads in one test's output
TURN_CHARS = 1500  # of the expected and of the actual output shown at the first difference
# Gradescope's visibility settings; a case marked hidden is shown after the grades are
# published unless the instructor says otherwise (`harness gradescope --hidden`)
GRADESCOPE_VISIBILITY = ("visible", "hidden", "after_due_date", "after_published")
HIDDEN_CASES = "after_published"
REGRADE = "The grader itself failed on some case (not your program's fault): this submission must be regraded."


def build_notes(result: SubmissionResult) -> list[str]:
    """What a student must know about the build: why it failed, the first compiler error, findings."""
    notes = []
    for target, build in result.builds.items():
        if not build.ok:
            notes.append(f"{target}: {build.reason}")
            if build.further:
                notes.append(build.further)
            if output := compiler_output(build.log):
                notes.append(f"The compiler's output:\n{output}")
        notes += [f"{target}: {build.off_language}"] if build.off_language else []
        notes += [f"{target}: {line}" for line in build.intake]
        notes += [f"{target}: source check: {finding}" for finding in build.findings]
    return [visible(note) for note in notes]


def first_differing_turn(case: CaseResult) -> str:
    """The first turn where the output differs, expected above actual ("·" marks a space that
    ends a line, which is otherwise invisible), for a student reading plain text."""
    if case.first_divergence is None or not 0 <= case.first_divergence < len(case.turns):
        return ""
    turn = case.turns[case.first_divergence]
    shown = [f"First difference {moment(turn.index, turn.typed)}:"]
    for label, text in (("expected", turn.expected), ("your program printed", turn.actual)):
        body = cap(text, TURN_CHARS) if text is not None else "(nothing)"
        shown.append(f"--- {label}:\n" + "\n".join(line + "·" if line.endswith(" ") else line
                                                     for line in body.split("\n")))
    return "\n".join(shown)


def compiler_output(log: str, limit: int = 1500) -> str:
    """What the compiler printed, from the start (where its first error is), without the
    command lines (they name the grader's temporary folders)."""
    text = "\n".join(line for line in log.splitlines() if not line.startswith("$ ")).strip()
    return text if len(text) <= limit else text[:limit] + "\n…"


def case_message(case: CaseResult, worth: str = "", nothing_built: bool = False) -> str:
    """What a student reads of one case; `worth` is its value as scoring explains it;
    `nothing_built`: the upload had no source to build (the submission's MISSING_FILES)."""
    lines = [case.description + (f"\nThis case: {worth}." if worth else "")]
    if case.unbuilt:
        lines.append(f"Not run: {'nothing was built' if nothing_built else 'the build failed'} "
                     "(see the top of this page).")
    elif case.reason:
        lines.append(case.reason)
    if case.hint:
        lines.append(f"Hint: this case {case.hint}.")
    if case.status == FAILED and (difference := first_differing_turn(case)):
        lines.append(difference)
    return cap(visible("\n\n".join(lines)), MESSAGE_CHARS)


def _staged_test(test: dict, case: CaseResult, index: int, level: str) -> dict:
    """A hidden case's test as the spec's `hidden_stages:` level shows it (Gradescope shows a test
    at one moment only: the harness writes it at the level of the spec's last stage)."""
    if level == "transcript":
        return test
    name = f"{case.name} [{case.rubric}]" if level != "count" else f"hidden case {index}"
    output = "" if level == "count" else case.description
    if level == "turn" and case.status != PASSED and case.first_divergence is not None and case.turns:
        output += f"\n\nYour program's output first differs " \
                  f"{moment(case.turns[min(case.first_divergence, len(case.turns) - 1)].index)}."
    return {**test, "name": name, "output": visible(output), "tags": [] if level == "count" else test["tags"]}


def gradescope(result: SubmissionResult, hidden: str = HIDDEN_CASES, level: str | None = None) -> dict:
    """Gradescope's autograder results format (text output). Every case is a test with its
    share of the score; a hidden case gets the visibility `hidden` (counted in the score
    either way); the build's reason and the compiler's first error are the top-level output,
    which students see, with how each item's score was reached when no case is hidden (an item's
    account counts its hidden cases' passes); the harness's own stdout is for the instructor only."""
    explained = scoring.explain(result)
    tests = [{
        "name": f"{case.name} [{case.rubric}]",
        "score": case.earned,
        "max_score": case.value,
        "status": "passed" if case.passed else "failed",
        "output": case_message(case, explained.worth(case).text(), result.status == Verdict.MISSING_FILES),
        "tags": [case.rubric],
        "visibility": "visible" if case.visibility == Visibility.PUBLIC else hidden,
    } for case in result.cases]
    if level is not None:  # the spec stages what a student sees of a hidden case
        hidden_cases = [i for i, case in enumerate(result.cases) if case.visibility == Visibility.HIDDEN]
        for number, i in enumerate(hidden_cases, 1):
            tests[i] = _staged_test(tests[i], result.cases[i], number, level)
    notes = build_notes(result)
    summary = f"{result.title}: {result.passed} of {result.total} cases passed"
    if result.published and not any(case.visibility == Visibility.HIDDEN for case in result.cases):
        summary += "".join(f"\n{item.id} {scoring.points(item.earned)}/{scoring.points(item.weight)}: "
                           f"{explained.account(item).text()}"
                           for item in result.items if item.graded and item.counted)
    if not result.published:  # the grader failed on a case: no total, never a higher one
        for test in tests:
            test["score"] = 0.0
        summary += (f"\n{REGRADE} No score is given for this submission until then; "
                    "your instructor has been told.")
    return {"score": round(math.fsum(t["score"] for t in tests), 4),
            "output": "\n".join([summary, *notes]), "output_format": "text", "test_output_format": "text",
            "stdout_visibility": "hidden", "execution_time": round(math.fsum(c.seconds for c in result.cases)
                                                                    + sum(b.seconds for b in result.builds.values())),
            "tests": tests}


def junit(result: SubmissionResult) -> str:
    failed = sum(c.status == FAILED for c in result.cases)
    errors = sum(c.status == HARNESS_ERROR for c in result.cases)
    suite = ET.Element("testsuite", name=f"{result.game}{':' + result.milestone if result.milestone else ''}",
                       tests=str(result.total), failures=str(failed), errors=str(errors),
                       skipped=str(sum(c.status == UNGRADABLE for c in result.cases)),
                       time=f"{sum(c.seconds for c in result.cases):.3f}")
    notes = build_notes(result)
    if notes:
        ET.SubElement(suite, "system-out").text = "\n".join(notes)
    explained = scoring.explain(result)
    for case in result.cases:
        element = ET.SubElement(suite, "testcase", classname=f"{result.game}.{case.rubric}", name=case.name,
                                time=f"{case.seconds:.3f}")
        short = visible(case.reason)[:500]
        worth = explained.worth(case).text()
        if case.status == FAILED:
            ET.SubElement(element, "failure", message=short).text = case_message(
                case, worth, result.status == Verdict.MISSING_FILES)
        elif case.status == HARNESS_ERROR:
            ET.SubElement(element, "error", message=short).text = case_message(case, worth)
        elif case.status == UNGRADABLE:
            ET.SubElement(element, "skipped", message=f"{short} ({worth})"[:600])
        else:
            ET.SubElement(element, "system-out").text = worth
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)


GRADEBOOK_COLUMNS = ["submission", "original", "lms_id", "status", "percent", "earned", "possible", "rubric_points",
                     "cases_passed", "cases_total", "notes"]


@dataclass(frozen=True)
class Column:
    """A rubric item's column: its id and title in the header, and whether a person grades it
    (its cells are left for the instructor)."""
    id: str
    title: str
    weight: float
    graded: bool

    @property
    def header(self) -> str:
        by_hand = ", graded by hand" if not self.graded else ""
        return f"{self.id}: {self.title} ({self.weight:g} points{by_hand})"


@dataclass(frozen=True)
class Source:
    """What the class folder said of a submission: its name there, and the LMS's id of the student."""
    original: str = ""
    lms_id: str = ""


def columns(results: list[SubmissionResult], rubric=None) -> list[Column]:
    """The rubric's columns, graded items first, then those a person grades. `rubric` (the
    spec's items) when given, else the items of the first result that has any."""
    if rubric is not None:
        found = [Column(i.id, i.title, i.points, i.graded) for i in rubric]
    else:
        found = next(([Column(i.id, i.title, i.weight, i.graded) for i in result.items]
                      for result in results if result.items), [])
    return [c for c in found if c.graded] + [c for c in found if not c.graded]


def gradebook(results: list[SubmissionResult], path: Path, not_graded: list[str] = (),
              sources: dict[str, Source] | None = None, rubric=None, late: dict | None = None, order: list[str] | None = None) -> None:
    """One row per submission: its name in the class folder (and the LMS id) to join it to a
    roster, its status, the percentage of the points the harness grades, the rubric's total,
    then every graded rubric item and an empty column per item a person grades.
    `not_graded` names submissions a stopped run did not reach: rows with that status and no numbers.
    `late` (when a deadline is set: each submission's `classes.lateness.Lateness` by name) adds the
    late-work columns after `notes`; without it the columns are as they always were.
    `order` (the submissions' names in class order) puts every row, not-graded ones included, in that order."""
    cols = columns(results, rubric)
    graded = [c for c in cols if c.graded]
    hand = [c for c in cols if not c.graded]
    total = Figure(math.fsum(c.weight for c in cols), "g") if cols else ""
    sources = sources or {}

    def head(name: str) -> list[str]:
        source = sources.get(name, Source())
        return [writable(name), writable(source.original), writable(source.lms_id)]

    rows = []
    for result in results:
        earned = {item.id: item for item in result.items}
        if not result.published:  # must be regraded: no number that leaves a case out
            rows.append((result.name, [*head(result.name), result.status, "", "", Figure(result.possible, "g"), total,
                                       result.passed, result.total, writable("; ".join(result.off_language)),
                                       *[""] * len(cols)]))
            continue
        rows.append((result.name, [*head(result.name), result.status, Figure(result.percent, ".2f"),
                                   Figure(result.earned, ".2f"), Figure(result.possible, "g"), total, result.passed,
                                   result.total,
                                   writable("; ".join(result.off_language)),
                                   *[Figure(earned[c.id].earned, ".2f") if c.id in earned and earned[c.id].counted
                                     else "" for c in graded], *[""] * len(hand)]))
    for name in not_graded:
        rows.append((name, [*head(name), Verdict.NOT_GRADED, *[""] * (len(GRADEBOOK_COLUMNS) - 4 + len(cols))]))
    if order is not None:
        place = {name: index for index, name in enumerate(order)}
        rows.sort(key=lambda row: place.get(row[0], len(place)))
    if late is not None:  # a deadline is set: the late-work cells after notes
        by_name = {result.name: result for result in results}
        for name, row in rows:
            result = by_name.get(name)
            row[len(GRADEBOOK_COLUMNS):len(GRADEBOOK_COLUMNS)] = late_cells(
                late.get(name), result if result is not None and result.published else None)
    with atomic.replacing(path, newline="") as f:  # a reader never sees half a gradebook
        writer = csv_cells.Writer(f)  # a student's name or file name is never a formula
        writer.writerow([*GRADEBOOK_COLUMNS, *(LATE_COLUMNS if late is not None else []), *[c.header for c in cols]])
        writer.writerows(row for _, row in rows)


# The late-work columns (docs/late-work.md): when it was handed in and where that was read, the
# deadline that applied (an extension included), how late, the days counted, the penalty (percent
# of the earned score) and the score after it.
LATE_COLUMNS = ["submitted", "submitted_from", "deadline", "extension", "lateness", "late_hours", "late_days",
                "penalty_percent", "final_percent", "final_earned"]


def late_cells(late, result: SubmissionResult | None) -> list[str]:
    """A row's late-work cells; the final score only where a raw one is published (`result`)."""
    if late is None:
        return [""] * len(LATE_COLUMNS)
    when = late.submitted.time.isoformat(timespec="seconds") if late.submitted.time else ""
    known = late.late_seconds is not None
    cells = [when, late.submitted.source, late.deadline.isoformat(timespec="seconds"), writable(late.extension),
             late.standing, Figure(late.late_seconds / 3600, ".2f") if known else "", late.days if known else "",
             Figure(late.penalty, "g")]
    if result is None:
        return [*cells, "", ""]
    return [*cells, Figure(late.final(result.percent), ".2f"), Figure(late.final(result.earned), ".2f")]


def gradebook_names(path: Path) -> set[str]:
    """The submissions a gradebook lists, read back to the names it was written with (OSError when there is none)."""
    with path.open(newline="", encoding="utf-8", errors="replace") as f:
        return {row["submission"] for row in csv_cells.DictReader(f) if row.get("submission")}


def json_text(data) -> str:
    """JSON for a UTF-8 file: a name that is not UTF-8 (a lone surrogate in a string) is shown
    as ⟨0xE9⟩ instead of making the write fail."""
    return writable(json.dumps(data, indent=1, ensure_ascii=False))


def write_all(result: SubmissionResult, folder: Path) -> dict[str, Path]:
    paths = {"gradescope": folder / "results.json", "junit": folder / "junit.xml"}
    paths["gradescope"].write_text(json_text(gradescope(result)), encoding="utf-8")
    paths["junit"].write_text(writable(junit(result)), encoding="utf-8")
    return paths

