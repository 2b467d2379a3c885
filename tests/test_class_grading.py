"""A whole class in one command: class folders and LMS exports, unique names, a missing path,
progress, Ctrl-C that leaves finished reports and no process behind, and a second run that
grades only what changed. Real `harness grade` runs of Python Reversi samples on two cases."""
import csv
import os
import re
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pexpect
import pytest

from harness.loading import cases as caseload
from harness.classes import classroom
from harness.running import proctree
from harness.loading import spec as specs
from tests.helpers import ROOT, process

pytestmark = pytest.mark.slow  # classes of Reversi graded through the command line

CORRECT = (ROOT / "examples" / "reversi" / "correct-python" / "reversi.py").read_text(encoding="utf-8")
# An uppercase column taken for its lowercase letter: a realistic slip in the illegal-move cases'
# item (the handout: only 'a'-'f' are columns), which only the cases that type one can see
NO_BANG = CORRECT.replace("col_char = next_word()[0]", "col_char = next_word()[0].lower()")
NEVER_ENDS = "import threading\nthreading.Event().wait()\n"  # a submission that blocks forever, reading nothing
SELECT = "ms2-illegal"  # the illegal-move cases of one item, "Milestone 1 features"; one types an uppercase column


@pytest.fixture(scope="module")
def illegal_cases():
    """What the selected cases say: each case's item, and that each expects the message with '!'."""
    spec, milestone = specs.parse_game("reversi")
    found = caseload.load_all(spec, milestone, SELECT)
    items = {case.rubric for case in found}
    assert len(found) >= 2 and len(items) == 1
    for case in found:
        assert any("Not a legal move!\n" in event.get("out", "") for event in case.expected_events)
    assert NO_BANG != CORRECT and 0 < SLIP < 100  # the slip costs some of these cases, not all
    return found


def _env(tmp: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUNBUFFERED", "NO_COLOR")}
    env["TMPDIR"] = str(tmp)  # every temporary folder the run makes lands here, to be counted
    env.update(extra)
    return env


def _grade(*args, tmp: Path, **extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness.cli", "grade", "reversi", *map(str, args), "-k", SELECT],
                          cwd=ROOT, env=_env(tmp, **extra), capture_output=True, text=True, timeout=600)


def _rows(folder: Path) -> dict[str, dict]:
    with (folder / "gradebook.csv").open(encoding="utf-8") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _lms_class(root: Path) -> Path:
    """A class folder as an instructor gets it: student folders, an archive, and the files of
    Canvas, Moodle and Blackboard exports side by side, plus things that are not submissions."""
    room = root / "class"
    _write(room / "alice" / "reversi.py", CORRECT)
    with zipfile.ZipFile(room / "bob.zip", "w") as archive:
        archive.writestr("bob/reversi.py", CORRECT)
    _write(room / "smithjohn_12345_6789012_reversi-1.py", NO_BANG)  # Canvas, a resubmitted file
    _write(room / "Jane Doe_67890_assignsubmission_file_" / "reversi.py", CORRECT)  # Moodle, in folders
    _write(room / "Li Wei_24680_assignsubmission_file_reversi.py", NO_BANG)  # Moodle, flat
    _write(room / "Reversi_jsmith_attempt_2024-03-01-10-00-00_reversi.py", NO_BANG)  # Blackboard: 1st attempt
    _write(room / "Reversi_jsmith_attempt_2024-03-02-09-30-00_reversi.py", CORRECT)  # ...the latest
    _write(room / "Reversi_jsmith_attempt_2024-03-02-09-30-00.txt", "Name: J Smith (jsmith)\n")  # its receipt
    _write(room / "empty-one" / "notes.txt", "I ran out of time\n")
    _write(room / "grades.csv", "name,grade\n")
    return room


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory, illegal_cases):
    root = tmp_path_factory.mktemp("class")
    room = _lms_class(root)
    sections = [_write(root / f"sec{n}" / "Reversi" / "reversi.py", CORRECT).parent for n in (1, 2)]
    temp = root / "tmp"
    temp.mkdir()
    paths = [room, *sections, root / "nowhere"]
    done = _grade(*paths, "-o", root / "out", tmp=temp)
    return root, done, paths


def _slip_percent() -> float:
    """The slip costs only the cases that type an uppercase column (a letter the reference refuses)."""
    spec, milestone = specs.parse_game("reversi")
    found = caseload.load_all(spec, milestone, SELECT)
    kept = sum(c.points for c in found if not any(len(typed) == 1 and typed.isupper() for typed in c.inputs))
    return round(100.0 * kept / sum(c.points for c in found), 2)


SLIP = _slip_percent()
EXPECTED = {  # name → (status, percent): the correct program passes both cases, the slip fails the exact one
    "alice": ("graded", 100.0), "bob": ("graded", 100.0), "smithjohn_12345": ("graded", SLIP),
    "Jane_Doe_67890": ("graded", 100.0), "Li_Wei_24680": ("graded", SLIP), "jsmith": ("graded", 100.0),
    "empty-one": ("missing-files", 0.0), "sec1_Reversi": ("graded", 100.0), "sec2_Reversi": ("graded", 100.0),
    "nowhere": ("missing-files", 0.0),
}


def test_a_class_folder_with_lms_exports_is_one_row_per_student(graded_class):
    root, done, _ = graded_class
    assert done.returncode == 1, done.stderr  # some submissions fail
    assert "Traceback" not in done.stderr
    rows = _rows(root / "out")
    assert {name: (row["status"], float(row["percent"])) for name, row in rows.items()} == EXPECTED
    for name in EXPECTED:
        assert (root / "out" / name / "report.html").is_file()
        assert (root / "out" / name / "result.json").is_file()
    # the class order: the class folder's children by name, then the command line's paths
    assert list(rows)[-3:] == ["sec1_Reversi", "sec2_Reversi", "nowhere"]
    # one line per finished submission, each naming its report; no colour or counter off a terminal
    lines = [line for line in done.stdout.splitlines() if "report.html" in line]
    assert len(lines) == len(EXPECTED)
    assert "\x1b[" not in done.stdout + done.stderr and " graded |" not in done.stderr
    assert "10 submissions in" in done.stdout and "gradebook: " in done.stdout and "class page: " in done.stdout
    # nothing the run made is left in its temporary folder
    assert list((root / "tmp").iterdir()) == []


def test_what_the_export_held_is_said_in_each_report(graded_class):
    import json
    root, done, _ = graded_class
    intake = lambda name: json.loads((root / "out" / name / "result.json").read_text())["builds"]["game"]["intake"]  # noqa: E731
    assert any("smithjohn_12345_6789012_reversi-1.py is read as reversi.py" in line for line in intake("smithjohn_12345"))
    assert any("attempt 2024-03-02-09-30-00 graded; 1 file of earlier attempts left out" in line
               for line in intake("jsmith"))
    assert any("Jane Doe_67890_assignsubmission_file_" in line for line in intake("Jane_Doe_67890"))
    assert "not submissions, left out: grades.csv" in done.stdout
    assert "a class folder of 7 submissions (Blackboard, Canvas, Moodle export)" in done.stdout
    missing = json.loads((root / "out" / "nowhere" / "result.json").read_text())
    assert missing["status"] == "missing-files" and "does not exist" in missing["builds"]["game"]["reason"]


def test_the_gradebook_has_a_status_and_a_column_per_graded_item(graded_class, illegal_cases):
    root, _, paths = graded_class
    spec, milestone = specs.parse_game("reversi")
    rubric = spec.items(milestone)
    graded = [f"{i.id}: {i.title} ({i.points:g} points)" for i in rubric if i.graded]
    by_hand = [f"{i.id}: {i.title} ({i.points:g} points, graded by hand)" for i in rubric if not i.graded]
    assert by_hand  # Reversi's coding style is graded by a person
    with (root / "out" / "gradebook.csv").open(encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert header[:4] == ["submission", "original", "lms_id", "status"] and header[-len(graded + by_hand):] == graded + by_hand
    item = next(i for i in rubric if i.id == illegal_cases[0].rubric)
    column = f"{item.id}: {item.title} ({item.points:g} points)"
    rows = _rows(root / "out")
    assert float(rows["alice"][column]) == item.points
    assert float(rows["Li_Wei_24680"][column]) == pytest.approx(item.points * SLIP / 100, abs=0.01)
    assert all(rows["alice"][other] == "" for other in graded if other != column)  # no case run: not counted
    assert all(row[hand] == "" for row in rows.values() for hand in by_hand)  # left for the instructor
    assert {row["rubric_points"] for row in rows.values() if row["status"] != "not-graded"} == \
        {f"{sum(i.points for i in rubric):g}"}


def test_the_gradebook_joins_back_to_the_class_folder_and_the_lms(graded_class):
    """Each row names what the class folder held (the folder, archive or file, or the student's
    part of an export's names) and the LMS's id of the student where the export has one."""
    root, _, _ = graded_class
    rows = _rows(root / "out")
    joined = {name: (row["original"], row["lms_id"]) for name, row in rows.items()}
    assert joined == {
        "alice": ("alice", ""), "bob": ("bob.zip", ""), "smithjohn_12345": ("smithjohn", "12345"),
        "Jane_Doe_67890": ("Jane Doe", "67890"), "Li_Wei_24680": ("Li Wei", "24680"), "jsmith": ("jsmith", "jsmith"),
        "empty-one": ("empty-one", ""), "sec1_Reversi": ("Reversi", ""), "sec2_Reversi": ("Reversi", ""),
        "nowhere": ("nowhere", ""),
    }


def test_ctrl_c_leaves_finished_reports_and_no_process_and_the_rerun_grades_the_rest(tmp_path, illegal_cases):
    room, out, temp = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    temp.mkdir()
    for name in ("fast-a", "fast-b"):
        _write(room / name / "reversi.py", CORRECT)
    _write(room / "slow-c" / "reversi.py", NEVER_ENDS)  # still running when the first report appears
    command = [sys.executable, "-m", "harness.cli", "grade", "reversi", str(room), "-k", SELECT, "-o", str(out)]
    child = subprocess.Popen(command, cwd=ROOT, env=_env(temp), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        seen = [child.stdout.readline()]
        while "report.html" not in seen[-1] and seen[-1]:
            seen.append(child.stdout.readline())
        assert "report.html" in seen[-1], "".join(seen)
        started = {pid: process(pid) for pid in proctree.tree(child.pid) if pid != child.pid}
        assert started, "the grading had started no process"
        child.send_signal(signal.SIGINT)
        rest, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "Traceback" not in err
    finished = [line for line in seen + rest.splitlines() if "report.html" in line]
    assert f"interrupted: {len(finished)} of 3 graded" in err and len(finished) < 3
    rows = _rows(out)
    assert set(rows) == {"fast-a", "fast-b", "slow-c"} and rows["slow-c"]["status"] == "not-graded"
    graded = {name for name, row in rows.items() if row["status"] != "not-graded"}
    assert len(graded) == len(finished) and all((out / name / "report.html").is_file() for name in graded)
    assert (out / "index.html").is_file()
    assert [pid for pid, was in started.items() if was and process(pid) == was] == []
    assert list(temp.iterdir()) == []  # build and run folders removed

    # Running the same command again keeps what is finished and unchanged, grades the rest:
    # slow-c is now a correct program (its sources changed).
    _write(room / "slow-c" / "reversi.py", CORRECT)
    again = _grade(room, "-o", out, tmp=temp)
    assert again.returncode == 0, again.stdout + again.stderr
    kept = {line.split()[5] for line in again.stdout.splitlines() if line.endswith("(unchanged since the last run: kept)")}
    assert kept == graded
    rows = _rows(out)
    assert {name: (row["status"], row["percent"]) for name, row in rows.items()} == {
        name: ("graded", "100.00") for name in ("fast-a", "fast-b", "slow-c")}

    # --force grades all again; -q says only the summary
    forced = _grade(room, "-o", out, "--force", "-q", tmp=temp)
    assert forced.returncode == 0
    assert "kept" not in forced.stdout and "report.html" not in forced.stdout
    assert forced.stdout.splitlines()[0].startswith("3 submissions in") and ": 3 graded" in forced.stdout

    # another set of submissions into the same folder: the class's gradebook is moved aside, not lost
    alone = _grade(room / "fast-a", "-o", out, "-q", tmp=temp)
    assert alone.returncode == 0 and f"kept as {out / 'gradebook-previous-1.csv'}" in alone.stdout
    assert set(_rows(out)) == {"fast-a"}
    with (out / "gradebook-previous-1.csv").open(encoding="utf-8") as f:
        assert {row["submission"] for row in csv.DictReader(f)} == {"fast-a", "fast-b", "slow-c"}


def test_a_stopped_forced_run_keeps_the_rows_whose_reports_are_still_their_grade(tmp_path, illegal_cases):
    """--force grades everything again; stopped after its first report, the submissions it had
    not reached yet keep the row of their finished report (unchanged, so still their grade)
    instead of becoming not-graded. One builder (HARNESS_JOBS=1) grades in class order: a, then
    b (a program that never answers, held to a 5 s budget), then c."""
    room, out, temp = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    temp.mkdir()
    _write(room / "a" / "reversi.py", CORRECT)
    _write(room / "b" / "reversi.py", NEVER_ENDS)
    _write(room / "c" / "reversi.py", CORRECT)
    first = _grade(room, "-o", out, "--budget", "5", "-q", tmp=temp, HARNESS_JOBS="1")
    assert first.returncode == 1, first.stdout + first.stderr  # b fails every case
    before = _rows(out)
    assert {name: row["status"] for name, row in before.items()} == dict.fromkeys("abc", "graded")

    command = [sys.executable, "-m", "harness.cli", "grade", "reversi", str(room), "-k", SELECT, "-o", str(out),
               "--budget", "5", "--force"]
    child = subprocess.Popen(command, cwd=ROOT, env=_env(temp, HARNESS_JOBS="1"), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        while line and "report.html" not in line:
            line = child.stdout.readline()
        assert f"{os.sep}a{os.sep}report.html" in line  # a is done, b is running, c waits
        child.send_signal(signal.SIGINT)
        rest, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    after = _rows(out)
    assert {name: row["status"] for name, row in after.items()} == dict.fromkeys("abc", "graded")
    assert {name: row["percent"] for name, row in after.items()} == {name: row["percent"] for name, row in before.items()}
    assert not list(out.glob("gradebook-previous-*.csv"))
    # what is said is what happened: this run graded a; b and c are the last run's reports, not
    # "unchanged, kept" (--force kept nothing as unchanged)
    assert "interrupted: 1 of 3 graded by this run; 2 not graded again: their rows are the last run's reports" in err
    assert "unchanged" not in rest and "--force grades them again" not in rest, rest
    assert "3 graded; 2 from the last run's reports still on disk" in rest, rest


def _page_order(page: Path) -> list[str]:
    """The submissions of the class page's table, top to bottom."""
    table = page.read_text(encoding="utf-8").split('id="submissions"', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr>\s*<td>(?:<a href=\"[^\"]*\">)?([^<]+)", table)


def test_a_stopped_run_says_what_it_graded_and_keeps_class_order(tmp_path, illegal_cases):
    """A run stopped while it grades: its message counts what this run graded apart from the rows
    kept from the last run, and the gradebook and the class page list the class in its order, the
    not-graded rows in their place. One builder (HARNESS_JOBS=1) grades in class order: b is
    unchanged (kept), a changed (graded), then c (now a program that never answers, held to a
    5 s budget) is running when a's report appears, and d (changed) waits."""
    room, out, temp = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    temp.mkdir()
    for name in "abcd":
        _write(room / name / "reversi.py", CORRECT)
    first = _grade(room, "-o", out, "-q", tmp=temp, HARNESS_JOBS="1")
    assert first.returncode == 0, first.stdout + first.stderr
    _write(room / "a" / "reversi.py", CORRECT + "# tidied\n")
    _write(room / "c" / "reversi.py", NEVER_ENDS)
    _write(room / "d" / "reversi.py", NO_BANG)

    command = [sys.executable, "-m", "harness.cli", "grade", "reversi", str(room), "-k", SELECT, "-o", str(out),
               "--budget", "5"]
    child = subprocess.Popen(command, cwd=ROOT, env=_env(temp, HARNESS_JOBS="1"), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        seen = [child.stdout.readline()]
        while seen[-1] and not ("report.html" in seen[-1] and "kept" not in seen[-1]):
            seen.append(child.stdout.readline())
        assert f"{os.sep}a{os.sep}report.html" in seen[-1], "".join(seen)  # a is done, c is running, d waits
        child.send_signal(signal.SIGINT)
        rest, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    kept = [line for line in seen if line.rstrip().endswith("(unchanged since the last run: kept)")]
    assert len(kept) == 1 and f"{os.sep}b{os.sep}" in kept[0]
    assert ("interrupted: 1 of 4 graded by this run; 1 unchanged since the last run, kept; "
            "2 not-graded: the same command grades them") in err
    assert "4 submissions: 2 graded, 2 not-graded; 1 unchanged since the last run, kept" in rest, rest
    with (out / "gradebook.csv").open(encoding="utf-8") as f:
        rows = [(row["submission"], row["status"]) for row in csv.DictReader(f)]
    assert rows == [("a", "graded"), ("b", "graded"), ("c", "not-graded"), ("d", "not-graded")]
    assert _page_order(out / "index.html") == ["a", "b", "c", "d"]


def test_the_counter_and_colour_show_on_a_terminal_only(graded_class):
    root, _, paths = graded_class
    out = root / "out"

    def on_terminal(*extra, env=None):
        child = pexpect.spawn(sys.executable, ["-m", "harness.cli", "grade", "reversi", *map(str, paths),
                                               "-k", SELECT, "-o", str(out), *extra],
                              cwd=str(ROOT), env=_env(root / "tmp", **(env or {})), encoding="utf-8", timeout=300)
        child.expect(pexpect.EOF)
        child.close()
        return child.before

    shown = on_terminal()  # everything is unchanged: the counter starts full
    assert f"{len(EXPECTED)}/{len(EXPECTED)} graded" in shown and "\x1b[32mgraded" in shown
    assert "\x1b[32m" not in on_terminal(env={"NO_COLOR": "1"})
    assert "\x1b[32m" not in on_terminal("--color", "never")
    piped = _grade(*paths, "-o", out, "--color", "always", tmp=root / "tmp")
    assert "\x1b[32mgraded" in piped.stdout and " graded |" not in piped.stderr


# --- finding the submissions (no program runs) ------------------------------------------------

def test_an_ide_project_is_one_submission_and_a_class_folder_is_many(tmp_path):
    spec, _ = specs.parse_game("reversi")
    project = tmp_path / "Project1"
    _write(project / "src" / "project1" / "Reversi.java", "class Reversi {}")
    _write(project / "old" / "Reversi.java", "class Reversi {}")
    found = classroom.find([project], spec)
    assert [(e.name, e.layout) for e in found.entries] == [("Project1", classroom.FOLDER)]
    room = tmp_path / "room"
    for name in ("b", "a", "gradebook.csv"):
        _write(room / name / "deep" / "Reversi.java", "class Reversi {}")
    found = classroom.find([room, room / "a"], spec)
    assert [e.name for e in found.entries] == ["room_a", "b", "submission-gradebook.csv", "room_a-2"]


def test_duplicate_names_take_their_folder_then_a_number(tmp_path):
    entries = [classroom.Entry("Reversi", "", classroom.FOLDER, parent=parent) for parent in ("s1", "s1", "s2")]
    classroom.unique_names(entries)
    assert [e.name for e in entries] == ["s1_Reversi", "s1_Reversi-2", "s2_Reversi"]
    shouting = [classroom.Entry(label, "", classroom.FOLDER) for label in ("Ann", "ANN", "index.html", "../..", "-=1+1")]
    classroom.unique_names(shouting)  # no name a spreadsheet would read as a formula
    assert [e.name for e in shouting] == ["Ann", "ANN-2", "submission-index.html", "submission", "1_1"]


def test_lms_files_are_staged_under_their_real_names_without_following_links(tmp_path):
    spec, _ = specs.parse_game("reversi")
    room = tmp_path / "export"
    _write(room / "doeja_LATE_111_222_Reversi-2.java", "class Reversi {}")
    _write(room / "doeja_LATE_111_223_Helper.java", "class Helper {}")
    secret = _write(tmp_path / "secret.txt", "not yours")
    (room / "roeri_333_444_Reversi.java").symlink_to(secret)
    found = classroom.find([room], spec)
    assert [e.name for e in found.entries] == ["doeja_111"]
    assert any("roeri_333_444_Reversi.java (not a file or folder: not followed)" in note for note in found.notes)
    with classroom.Staging() as staging:
        staging.stage(found.entries[0])
        staged = found.entries[0].path
        assert sorted(p.name for p in staged.iterdir()) == ["Helper.java", "Reversi.java"]
    assert not staged.exists()


def test_the_report_folder_inside_a_class_folder_is_not_a_submission(tmp_path):
    spec, _ = specs.parse_game("reversi")
    room = tmp_path / "room"
    for name in ("a", "b"):
        _write(room / name / "reversi.py", "print()")
    _write(room / "reports" / "a" / "reversi.py", "print()")  # a copy a report could hold
    found = classroom.find([room], spec, exclude=[room / "reports"])
    assert [e.name for e in found.entries] == ["a", "b"]
    assert f"{room / 'reports'}: the report folder, not a submission" in found.notes


def test_reports_are_never_written_over_what_is_graded(tmp_path):
    room = tmp_path / "room"
    for name in ("a", "b"):
        _write(room / name / "reversi.py", "print()")
    for args, message in [((room, "-o", room), f"-o {room}: that is what is graded"),
                          ((room, "-o", room / "a" / "out"), f"that is inside the submission {room / 'a'}"),
                          ((room / "b", "-o", room / "b" / "reports"), f"that is inside the submission {room / 'b'}")]:
        done = _grade(*args, tmp=tmp_path)
        assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1
    assert sorted(p.name for p in room.rglob("*")) == ["a", "b", "reversi.py", "reversi.py"]
