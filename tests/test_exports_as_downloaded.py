"""Exports as instructors download them: an LMS's archive given as it is (`harness grade GAME
submissions.zip`) is a class of one submission per student, unpacked within intake's caps; and a
lone source under another name (`judy.java`, Canvas's `Reversi-1.java`) is taken under the
handout's name when its public class (or, for a lone source of another language, its `main`) is
the handout's, with an intake line saying so. Everything goes through the real command line."""
import csv
import json
import zipfile
from pathlib import Path

import pytest

from harness.building import intake
from tests.helpers import FIXTURE, ROOT, SAMPLES

pytestmark = pytest.mark.slow

TALLY = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
ONE_CASE = "add-two"  # one case keeps each grading short; the grouping is what is tested


def _zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


def _rows(out: Path) -> dict[str, dict]:
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


def _intake(out: Path, name: str, target: str = "game") -> list[str]:
    return json.loads((out / name / "result.json").read_text(encoding="utf-8"))["builds"][target]["intake"]


def test_each_platforms_download_graded_as_it_is_is_a_class(tmp_path, harness_cli):
    """Canvas's submissions.zip (a LATE flag, a resubmitted `tally-1.py`), Moodle's download (a
    student's folder) and Blackboard's (a receipt, two attempts), each zip as downloaded; and a
    zip of export names over intake's member cap stays one archive, refused by its own intake."""
    canvas = _zip(tmp_path / "submissions.zip", {
        "doejane_LATE_23456_7890123_tally-1.py": TALLY,
        "smithjohn_12345_6789012_tally.py": TALLY,
    })
    moodle = _zip(tmp_path / "moodle.zip", {
        "Ada Lovelace_501_assignsubmission_file_/tally.py": TALLY,
        "Alan Turing_502_assignsubmission_file_tally.py": TALLY,
    })
    blackboard = _zip(tmp_path / "blackboard.zip", {
        "Tally_grace_attempt_2026-02-01-09-00-00_tally.py": "raise SystemExit(3)\n",
        "Tally_grace_attempt_2026-02-01-10-00-00_tally.py": TALLY,
        "Tally_grace_attempt_2026-02-01-10-00-00.txt": "Name: Grace Hopper (grace)\nAssignment: Tally\n\n",
    })
    flood = _zip(tmp_path / "flood.zip", {f"s{n}_{n}_{n}_tally.py": "" for n in range(intake.MAX_ENTRIES + 1)})
    temp = tmp_path / "tmp"
    temp.mkdir()
    out = tmp_path / "out"
    done = harness_cli("grade", "tally", canvas, moodle, blackboard, flood, "-k", ONE_CASE, "-o", out,
                       env={"HARNESS_ROOT": str(FIXTURE), "TMPDIR": str(temp)})
    assert done.returncode == 1, done.stdout + done.stderr  # the flood is not graded
    assert "Traceback" not in done.stderr
    rows = _rows(out)
    assert set(rows) == {"doejane_23456", "smithjohn_12345", "Ada_Lovelace_501", "Alan_Turing_502", "grace", "flood"}
    for name in ("doejane_23456", "smithjohn_12345", "Ada_Lovelace_501", "Alan_Turing_502", "grace"):
        assert (rows[name]["status"], float(rows[name]["percent"])) == ("graded", 100.0), name
    assert any("tally-1.py is read as tally.py" in line for line in _intake(out, "doejane_23456"))
    assert f"{canvas}: an export of 2 submissions (Canvas export), unpacked and graded as a class folder" in done.stdout
    assert "(Moodle export)" in done.stdout and "(Blackboard export)" in done.stdout
    flooded = json.loads((out / "flood" / "result.json").read_text(encoding="utf-8"))
    assert rows["flood"]["status"] == "build-failed"
    assert f"holds more than {intake.MAX_ENTRIES} members" in flooded["builds"]["game"]["reason"]
    assert list(temp.iterdir()) == []  # every unpacked export removed


def test_a_lone_java_source_named_after_its_student_or_resubmitted_is_the_handouts(tmp_path, harness_cli):
    """judy.java and Canvas's Reversi-1.java hold `public class Reversi`: each is built as
    Reversi.java (javac takes a public class only in a file of its name) and graded;
    notes.java, whose public class is another, is still a submission with the file missing."""
    correct = (ROOT / "examples" / "reversi" / "correct-java" / "Reversi.java").read_text(encoding="utf-8")
    judy = tmp_path / "judy" / "judy.java"
    again = tmp_path / "kim" / "Reversi-1.java"
    other = tmp_path / "lee" / "notes.java"
    for path, text in ((judy, correct), (again, correct), (other, "public class Notes {}\n")):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    done = harness_cli("grade", "reversi", judy, again, other, "-k", "ms2-alternate-headers", "-o", out)
    assert "Traceback" not in done.stderr, done.stderr
    rows = _rows(out)
    for name, file in (("judy", "judy.java"), ("Reversi-1", "Reversi-1.java")):
        assert rows[name]["status"] == "graded", done.stdout  # built: javac took it as Reversi.java
        assert any(line.startswith(f"{file} is used as Reversi.java (its public class is Reversi")
                   for line in _intake(out, name)), _intake(out, name)
    assert rows["notes"]["status"] == "missing-files"


def test_a_lone_python_script_under_another_name_is_the_handouts_and_two_are_not(tmp_path, harness_cli):
    """The fixture game takes tally.py: a submission holding only mytally.py is that script; one
    holding two Python files says which is the program by neither, so it stays missing."""
    lone, two = tmp_path / "lone", tmp_path / "two"
    for folder, names in ((lone, ["mytally.py"]), (two, ["mytally.py", "helper.py"])):
        folder.mkdir()
        for name in names:
            (folder / name).write_text(TALLY, encoding="utf-8")
    out = tmp_path / "out"
    done = harness_cli("grade", "tally", lone, two, "-k", ONE_CASE, "-o", out, env={"HARNESS_ROOT": str(FIXTURE)})
    assert "Traceback" not in done.stderr, done.stderr
    rows = _rows(out)
    assert (rows["lone"]["status"], float(rows["lone"]["percent"])) == ("graded", 100.0), done.stdout
    assert any(line.startswith("mytally.py is used as tally.py (the only python source handed in")
               for line in _intake(out, "lone"))
    assert rows["two"]["status"] == "missing-files"
