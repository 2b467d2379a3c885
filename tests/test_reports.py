"""The report files of a real grading of the fixture game: result.json, HTML, Gradescope, JUnit, CSV.

Each file must show what grading found, in numbers that add up: result.json validates against
its schema and loads back to the same result; the HTML report marks the first divergent turn;
Gradescope's per-test scores sum to its total; JUnit counts each status once.
"""
import csv
import json
import math
import re
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest

from harness.reporting import exports, files
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE, SubmissionResult
from tests.helpers import SAMPLES, unplannable_case


@pytest.fixture(scope="module")
def bug_add(tally, grader):
    """bug-add adds 1 whatever legal number is typed: it fails the cases that type 2 or 3."""
    spec, cases = tally
    return grader.grade(spec, None, cases, SAMPLES / "bug-add")


@pytest.fixture(scope="module")
def charged(tally, grader):
    """Always starts at 7: setup-start fails, add-two never gets a start within the rules (charged to setup)."""
    spec, cases = tally
    return grader.grade(spec, None, [c for c in cases if c.name in ("setup-start", "add-two")],
                        SAMPLES / "bug-start-seven")


@pytest.fixture(scope="module")
def errored(tally, grader, tmp_path_factory):
    """The correct sample, with one more case whose strategy the reference cannot plan (a harness error)."""
    spec, cases = tally
    chosen = [c for c in cases if c.name in ("add-two", "end-ones")]
    return grader.grade(spec, None, [*chosen, unplannable_case(spec, cases, tmp_path_factory.mktemp("cases"))],
                        SAMPLES / "correct")


RESULTS = ["bug_add", "charged", "errored"]


def _schema() -> dict:
    return json.loads(resources.files("harness.loading.schemas").joinpath("result.schema.json").read_text("utf-8"))


@pytest.mark.parametrize("which", RESULTS)
def test_result_json_validates_and_round_trips(which, request, tmp_path):
    result = request.getfixturevalue(which)
    written = files.write(result, tmp_path)
    data = json.loads(written["json"].read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(_schema()).validate(data)
    again = SubmissionResult.from_json(data)
    assert again == result
    assert again.to_json() == data
    assert data["percent"] == result.percent and data["total"] == len(result.cases)


def test_html_marks_the_first_divergent_turn(bug_add, tmp_path):
    case = next(c for c in bug_add.cases if c.name == "add-two")
    assert case.status == FAILED
    # the first typed line is "2", which bug-add adds as 1: turn 1 (after typing it) is the first to differ
    assert case.first_divergence == 1
    turn = case.turns[1]
    start = int(re.match(r"Start: (\d+)", case.actual[0]["out"])[1])
    assert turn.typed == "2"
    assert f"Now {start + 2}" in turn.expected and f"Now {start + 1}" in turn.actual
    html = files.write(bug_add, tmp_path)["html"].read_text(encoding="utf-8")
    row = re.search(r'<tr class="diverge" id="add-two-diverge">(.*?)</tr>', html, re.S)
    assert row, "no divergent row for add-two"
    assert f"Now {start + 2}" in row[1] and f"Now {start + 1}" in row[1]
    assert 'href="#add-two-diverge"' in html
    passing = next(c for c in bug_add.cases if c.passed)
    assert f'id="{passing.name}-diverge"' not in html


@pytest.mark.parametrize("which", RESULTS)
def test_gradescope_scores_add_up(which, request):
    result = request.getfixturevalue(which)
    report = exports.gradescope(result)
    assert len(report["tests"]) == len(result.cases)
    assert round(math.fsum(t["score"] for t in report["tests"]), 4) == report["score"]
    # a submission the harness failed on is published with no total until it is regraded
    assert report["score"] == pytest.approx(result.earned if result.published else 0.0, abs=1e-4)
    assert ("must be regraded" in report["output"]) == (not result.published)
    assert round(math.fsum(t["max_score"] for t in report["tests"]), 4) == result.possible
    visible = {t["name"].split(" ")[0]: t["visibility"] for t in report["tests"]}
    assert {n for n, v in visible.items() if v != "visible"} == {c.name for c in result.cases
                                                                   if c.visibility == "hidden"}


@pytest.mark.parametrize("which, shown", [("bug_add", {PASSED, FAILED}), ("charged", {FAILED, UNGRADABLE}),
                                          ("errored", {PASSED, HARNESS_ERROR})])
def test_junit_counts_each_status(which, shown, request):
    result = request.getfixturevalue(which)
    statuses = [c.status for c in result.cases]
    assert set(statuses) == shown
    suite = ET.fromstring(exports.junit(result))
    assert suite.get("tests") == str(len(statuses))
    assert suite.get("failures") == str(statuses.count(FAILED))
    assert suite.get("errors") == str(statuses.count(HARNESS_ERROR))
    assert suite.get("skipped") == str(statuses.count(UNGRADABLE))
    children = {tc.get("name"): [child.tag for child in tc] for tc in suite.iter("testcase")}
    tags = {FAILED: ["failure"], HARNESS_ERROR: ["error"], UNGRADABLE: ["skipped"], PASSED: []}
    assert children == {c.name: tags[c.status] for c in result.cases}


def test_the_gradebook_leaves_uncounted_items_blank(bug_add, charged, tmp_path):
    path = tmp_path / "gradebook.csv"
    exports.gradebook([bug_add, charged], path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [r["submission"] for r in rows] == [bug_add.name, charged.name]
    graded = [i for i in bug_add.items if i.graded]
    assert [k for k in rows[0] if k not in exports.GRADEBOOK_COLUMNS] == [i.id for i in graded]
    for row, result in zip(rows, (bug_add, charged)):
        assert float(row["percent"]) == pytest.approx(result.percent, abs=0.005)
        for item in result.items:
            if item.graded:
                assert row[item.id] == (f"{item.earned:.2f}" if item.counted else "")
    assert rows[1]["add"] == ""  # its only case was charged to setup: left out


def test_a_submission_the_harness_failed_on_has_no_total_anywhere(errored, bug_add, tmp_path):
    """A harness error counts nowhere, so the total leaves a case out: no number is published
    for that submission (the gradebook's numbers are blank), never a higher one."""
    assert not errored.published and bug_add.published
    path = tmp_path / "gradebook.csv"
    exports.gradebook([errored, bug_add], path)
    rows = {row["submission"]: row for row in csv.DictReader(path.open(encoding="utf-8"))}
    assert rows[errored.name]["status"] == "harness-error"
    assert rows[errored.name]["percent"] == "" and rows[errored.name]["earned"] == ""
    assert float(rows[bug_add.name]["percent"]) == bug_add.percent
    html = files.write(errored, tmp_path / "reports")["html"].read_text(encoding="utf-8")
    assert "must be regraded" in html


def test_long_turns_are_marked_line_by_line_not_aligned():
    """difflib's alignment grows faster than the square of the lines: past a few hundred lines
    (a program's flood of newlines) the differing lines are marked by position, in one pass."""
    from harness.reporting import html
    many = html.ALIGNED_LINES * 10
    assert html._differing_lines("\n" * many, "\n" * many) == set()
    assert html._differing_lines("a\n" * many, "a\n" * (many - 1) + "b\n") == {many - 1}
    assert html._differing_lines("x\ny\nz", "y\nz") == {0}  # short turns are still aligned
