"""The report files of a real grading of the fixture game: result.json, HTML, Gradescope, JUnit, CSV.

Each file must show what grading found, in numbers that add up: result.json validates against
its schema and loads back to the same result; the HTML report marks the first divergent turn;
Gradescope's per-test scores sum to its total; JUnit counts each status once.
"""
import csv
import io
import json
import math
import re
import tempfile
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import markupsafe
import pytest

from harness.grading import shown_paths
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
    tags = {FAILED: ["failure"], HARNESS_ERROR: ["error"], UNGRADABLE: ["skipped"], PASSED: ["system-out"]}  # its worth
    assert children == {c.name: tags[c.status] for c in result.cases}


def _column(item) -> str:
    return exports.Column(item.id, item.title, item.weight, item.graded).header


def test_the_gradebook_leaves_uncounted_items_blank(bug_add, charged, tmp_path):
    path = tmp_path / "gradebook.csv"
    exports.gradebook([bug_add, charged], path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [r["submission"] for r in rows] == [bug_add.name, charged.name]
    graded = [i for i in bug_add.items if i.graded]
    by_hand = [i for i in bug_add.items if not i.graded]
    assert [k for k in rows[0] if k not in exports.GRADEBOOK_COLUMNS] == [_column(i) for i in graded + by_hand]
    for row, result in zip(rows, (bug_add, charged)):
        assert float(row["percent"]) == pytest.approx(result.percent, abs=0.005)
        for item in result.items:
            if item.graded:
                assert row[_column(item)] == (f"{item.earned:.2f}" if item.counted else "")
    add = next(i for i in bug_add.items if i.id == "add")
    assert rows[1][_column(add)] == ""  # its only case was charged to setup: left out


def test_the_gradebook_names_each_item_and_leaves_the_hand_graded_ones_to_the_instructor(tally, bug_add, tmp_path):
    """The fixture's rubric (README: setup 10, prompt 5, add 20, illegal 15, end 10, style 10 by a
    person): each column says the item's id, title and points; style's column is there and empty;
    `possible` is what the harness graded on this run and `rubric_points` the rubric's whole (70)."""
    spec, _ = tally
    path = tmp_path / "gradebook.csv"
    exports.gradebook([bug_add], path, sources={bug_add.name: exports.Source("Bug Add (2).zip", "4711")},
                      rubric=spec.items(None))
    (row,) = csv.DictReader(path.open(encoding="utf-8"))
    style = next(i for i in spec.items(None) if not i.graded)
    header = f"{style.id}: {style.title} ({style.points:g} points, graded by hand)"
    assert row[header] == ""
    assert row["possible"] == f"{bug_add.possible:g}"
    assert row["rubric_points"] == f"{sum(i.points for i in spec.items(None)):g}"
    assert (row["original"], row["lms_id"]) == ("Bug Add (2).zip", "4711")
    for item in spec.items(None):
        assert any(key.startswith(f"{item.id}: {item.title} (") for key in row)


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


@pytest.fixture(scope="module")
def broken_cpp(tally, grader, tmp_path_factory):
    """The C++ sample with a statement that does not compile: the build fails, no case runs."""
    spec, cases = tally
    folder = tmp_path_factory.mktemp("broken") / "broken-cpp"
    folder.mkdir()
    source = (SAMPLES / "correct-cpp" / "tally.cpp").read_text(encoding="utf-8")
    (folder / "tally.cpp").write_text(source.replace("int main(", "int oops = ;\nint main(", 1), encoding="utf-8")
    return grader.grade(spec, None, cases, folder)


def test_a_failed_build_is_told_once(broken_cpp, tmp_path):
    """The compiler's first error is in the build's reason; the terminal, the report, Gradescope's
    tests and the class page do not repeat it for every case or twice in a row."""
    from harness.reporting import summary, terminal
    build = next(iter(broken_cpp.builds.values()))
    assert not build.ok and broken_cpp.status == "build-failed"
    first = build.reason.rpartition(": error: ")[2]
    assert first and all(case.unbuilt for case in broken_cpp.cases)
    shell = io.StringIO()
    terminal.render(broken_cpp, shell, colour=False)
    assert shell.getvalue().count(first) == 1
    assert f"{len(broken_cpp.cases)} cases not run: the build failed (above)" in shell.getvalue()
    report = exports.gradescope(broken_cpp)
    assert all(first not in test["output"] for test in report["tests"])
    assert summary._reason(broken_cpp).count(first) == 1
    page = files.write(broken_cpp, tmp_path)["html"].read_text(encoding="utf-8")
    before_log = page.split("Compiler output")[0]
    assert before_log.count(str(markupsafe.escape(first))) == 1
    assert page.count("not run: the build failed (see Build above)") == len(broken_cpp.cases)


@pytest.mark.parametrize("which", ["bug_add", "broken_cpp"])
def test_no_internal_folder_in_anything_a_person_reads(which, request, tmp_path):
    """The build folder reads <build> and the harness's other temporary folders <tmp>, in
    result.json, Gradescope's results.json, JUnit and the HTML report."""
    result = request.getfixturevalue(which)
    written = files.write(result, tmp_path / "out")
    internal = f"{tempfile.gettempdir()}/harness-"
    for path in written.values():
        assert internal not in path.read_text(encoding="utf-8"), path.name
    words = [word for case in result.cases for word in case.command]
    assert which == "broken_cpp" or any(word.startswith("<build>/") for word in words)


def test_a_student_folder_under_tmp_is_not_taken_for_the_harnesss():
    temps = ["/tmp"]
    assert shown_paths.text("g++ -o /tmp/harness-build-game-x1/out/program /tmp/harness-build-game-x1/a.cpp",
                            temps, "/c") == "g++ -o <build>/out/program <build>/a.cpp"
    assert shown_paths.text("-cp /tmp/harness-javac-a/builds-b/harness-build-game-c/out", temps, "/c") == "-cp <build>/out"
    assert shown_paths.text("cwd /tmp/harness-run-q: -XX:ErrorFile=/tmp/hs_err_%p.log", temps, "/c") == \
        "cwd <tmp>: -XX:ErrorFile=<tmp>/hs_err_%p.log"
    assert shown_paths.text("/tmp/alice/Main.java and /home/x/tmp/harness-y", temps, "/c") == \
        "/tmp/alice/Main.java and /home/x/tmp/harness-y"
    assert shown_paths.text("-XX:SharedArchiveFile=/c/jdk-1.jsa", temps, "/c") == "-XX:SharedArchiveFile=<cache>/jdk-1.jsa"


def test_a_blank_line_reads_blank_line(bug_add):
    from harness.reporting import terminal
    assert terminal.shown_lines("Board\n\nAdd? \n") == ["Board", "(blank line)", "Add? ·"]
    assert terminal.shown_lines("") == ["(nothing printed)"] and terminal.shown_lines(None) == ["(nothing)"]
    case = next(c for c in bug_add.cases if c.status == FAILED and c.first_divergence)
    shell = io.StringIO()
    terminal.explain_failures(bug_add, shell)
    typed = case.typed[:case.turns[case.first_divergence].index]
    assert f"typed up to there: {' '.join(repr(t) for t in typed)}" in shell.getvalue()


@pytest.mark.parametrize("which", RESULTS)
def test_every_report_folder_has_a_student_s_copy_without_the_hidden_cases(which, request, tmp_path):
    """report-student.html beside report.html: the public cases, none of the hidden ones (by name)."""
    result = request.getfixturevalue(which)
    written = files.write(result, tmp_path)
    assert written["student"] == tmp_path / "report-student.html"
    copy = written["student"].read_text(encoding="utf-8")
    shown = set(re.findall(r'<details class="case" id="([^"]+)"', copy))
    assert shown == {c.name for c in result.cases if c.visibility != "hidden"}
    assert not any(c.name in copy for c in result.cases if c.visibility == "hidden")
    assert ("must be regraded" in copy) == (not result.published)
