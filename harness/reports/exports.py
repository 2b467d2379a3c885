"""Other graders' formats: Gradescope results.json, JUnit XML, and a CSV gradebook for a class.

They show the numbers scoring computed (each case's `value` and `earned`), so the per-test
scores add up to the total exactly; nothing here scores anything again.
"""
import csv
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

from harness.results import FAILED, HARNESS_ERROR, UNGRADABLE, CaseResult, SubmissionResult
from harness.safe_text import cap, visible

MESSAGE_CHARS = 4000  # what a student reads in one test's output


def build_notes(result: SubmissionResult) -> list[str]:
    """What a student must know about the build: why it failed, the first compiler error, findings."""
    notes = []
    for target, build in result.builds.items():
        if not build.ok:
            notes.append(f"{target}: {build.reason}")
            if build.diagnosis:
                notes.append(build.diagnosis)
            elif build.log.strip():
                notes.append(cap(build.log.strip(), 1500))
        notes += [f"{target}: {line}" for line in build.intake]
        notes += [f"{target}: source check: {finding}" for finding in build.findings]
    return [visible(note) for note in notes]


def case_message(case: CaseResult) -> str:
    lines = [case.description]
    if case.reason:
        lines.append(case.reason)
    if case.hint:
        lines.append(f"Hint: this case {case.hint}.")
    return cap(visible("\n\n".join(lines)), MESSAGE_CHARS)


def gradescope(result: SubmissionResult) -> dict:
    """Gradescope's autograder results format; hidden cases are shown after the due date."""
    tests = [{
        "name": f"{case.name} [{case.rubric}]",
        "score": case.earned,
        "max_score": case.value,
        "status": "passed" if case.passed else "failed",
        "output": case_message(case),
        "visibility": "visible" if case.visibility == "public" else "after_due_date",
    } for case in result.cases]
    notes = build_notes(result)
    return {"score": round(math.fsum(t["score"] for t in tests), 4),
            "output": "\n".join(notes) or result.title, "tests": tests}


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
    for case in result.cases:
        element = ET.SubElement(suite, "testcase", classname=f"{result.game}.{case.rubric}", name=case.name,
                                time=f"{case.seconds:.3f}")
        short = visible(case.reason)[:500]
        if case.status == FAILED:
            ET.SubElement(element, "failure", message=short).text = case_message(case)
        elif case.status == HARNESS_ERROR:
            ET.SubElement(element, "error", message=short).text = case_message(case)
        elif case.status == UNGRADABLE:
            ET.SubElement(element, "skipped", message=short)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)


GRADEBOOK_COLUMNS = ["submission", "status", "percent", "earned", "possible", "cases_passed", "cases_total"]


def gradebook(results: list[SubmissionResult], path: Path, not_graded: list[str] = ()) -> None:
    """One row per submission: its status, the percentage, then every graded rubric item.
    `not_graded` names submissions a stopped run did not reach: rows with that status and no numbers."""
    items = [item for item in results[0].items if item.graded] if results else []
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([*GRADEBOOK_COLUMNS, *[item.id for item in items]])
        for result in results:
            earned = {item.id: item for item in result.items}
            writer.writerow([result.name, result.status, f"{result.percent:.2f}", f"{result.earned:.2f}",
                             f"{result.possible:g}", result.passed, result.total,
                             *[f"{earned[item.id].earned:.2f}" if item.id in earned and earned[item.id].counted
                               else "" for item in items]])
        for name in not_graded:
            writer.writerow([name, "not-graded", *[""] * (len(GRADEBOOK_COLUMNS) - 2 + len(items))])
    partial.replace(path)  # a reader never sees half a gradebook


def gradebook_names(path: Path) -> set[str]:
    """The submissions a gradebook lists (OSError when there is none)."""
    with path.open(newline="", encoding="utf-8", errors="replace") as f:
        return {row["submission"] for row in csv.DictReader(f) if row.get("submission")}


def write_all(result: SubmissionResult, folder: Path) -> dict[str, Path]:
    paths = {"gradescope": folder / "results.json", "junit": folder / "junit.xml"}
    paths["gradescope"].write_text(json.dumps(gradescope(result), indent=1, ensure_ascii=False), encoding="utf-8")
    paths["junit"].write_text(junit(result), encoding="utf-8")
    return paths

