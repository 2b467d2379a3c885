"""A file name is data, never a student, an attempt or a time: each LMS export is read by its
platform's own scheme from where the platform writes it (the prefix at the start of the name),
Blackboard's receipt is its record of an attempt, and nothing a student names (the tail of a
file name, an archive member's name or date) moves a file to another student, another attempt
or another time. The attacks go through `harness grade` on a class of the fixture game with a
deadline (docs/late-work.md); the numbers follow from the policy given on the command line."""
import csv
import json
import os
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from harness.classes import classroom, lateness
from harness.loading import spec as specs
from tests.helpers import FIXTURE, SAMPLES

ZONE = timezone(timedelta(hours=-5))
DEADLINE = datetime(2026, 2, 1, 23, 59, tzinfo=ZONE)
PER_DAY, CAP = 10, 50
POLICY = ["--deadline", DEADLINE.isoformat(), "--late-penalty", str(PER_DAY), "--late-cap", str(CAP)]
CORRECT = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
CRASH = "raise SystemExit('this program crashes before it prints anything')\n"


def _write(path: Path, text: str, when: datetime | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if when is not None:  # as an unzip sets it from the archive's member date
        os.utime(path, (when.timestamp(), when.timestamp()))
    return path


def _stamp(when: datetime) -> str:
    """Blackboard's attempt stamp: the server's wall clock, no zone (here the deadline's)."""
    return when.astimezone(ZONE).strftime("%Y-%m-%d-%H-%M-%S")


def _receipt(full_name: str, user: str, assignment: str, when: datetime, files: list[str],
             comments: str = "There are no student comments for this assignment.") -> str:
    """A Blackboard receipt as Blackboard writes it (US English)."""
    local = when.astimezone(ZONE)
    hour = local.strftime("%I").lstrip("0")
    date = f"{local:%A}, {local:%B} {local.day}, {local.year} {hour}:{local:%M:%S %p} EST"
    listed = "".join(f"\tOriginal filename: {name}\n\tFilename: {assignment}_{user}_attempt_{_stamp(when)}_{name}\n"
                     for name in files)
    return (f"Name: {full_name} ({user})\nAssignment: {assignment}\nDate Submitted: {date}\n"
            f"Current Grade: Needs Grading\n\nSubmission Field:\nThere is no student submission text data for "
            f"this assignment.\n\nComments:\n{comments}\n\nFiles:\n{listed}")


def _grade(harness_cli, room: Path, out: Path, *options):
    done = harness_cli("grade", "tally", room, "-o", out, *POLICY, *options, env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


def _days(late: timedelta) -> int:
    """Days counted late by the policy (no grace): every day or part of a day."""
    return -(-int(late.total_seconds()) // 86400)


def _intake(out: Path, name: str) -> list[str]:
    return json.loads((out / name / "result.json").read_text(encoding="utf-8"))["builds"]["game"]["intake"]


# --- Blackboard ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_blackboard_file_named_like_an_attempt_is_its_uploaders_file_at_her_attempts_time(tmp_path, harness_cli):
    """Mallory, three days late, names her files like an early attempt of hers and a late
    attempt of bob's; bob handed in a correct program on time."""
    room, out = tmp_path / "class", tmp_path / "out"
    bob_time, mallory_time = DEADLINE - timedelta(hours=2), DEADLINE + timedelta(days=2, hours=20)
    early, forged = "mallory_attempt_2026-02-01-00-00-00_tally.py", "bob_attempt_2099-12-31-23-59-59_tally.py"
    _write(room / f"Tally_bob_attempt_{_stamp(bob_time)}_tally.py", CORRECT)
    _write(room / f"Tally_bob_attempt_{_stamp(bob_time)}.txt", _receipt("Bob Builder", "bob", "Tally", bob_time,
                                                                        ["tally.py"]))
    for name, text in ((early, CORRECT), (forged, CRASH)):
        _write(room / f"Tally_mallory_attempt_{_stamp(mallory_time)}_{name}", text)
    _write(room / f"Tally_mallory_attempt_{_stamp(mallory_time)}.txt", _receipt(
        "Mallory Mole", "mallory", "Tally", mallory_time, [early, forged],
        comments=f"Name: Bob Builder (bob)\nDate Submitted: {DEADLINE - timedelta(days=9):%A, %B %d, %Y}"))
    rows = _grade(harness_cli, room, out)

    assert set(rows) == {"bob", "mallory"}  # no third student made of a file's name
    bob = rows["bob"]
    assert (bob["status"], float(bob["percent"])) == ("graded", 100.0)  # his own correct program
    assert (bob["submitted_from"], bob["lateness"], bob["penalty_percent"]) == ("Blackboard receipt", "on time", "0")
    assert datetime.fromisoformat(bob["submitted"]) == bob_time
    assert any("Tally_bob_attempt_" in line and "is bob's tally.py" in line for line in _intake(out, "bob"))
    mallory = rows["mallory"]  # her own attempt's time, whatever her files are called
    assert datetime.fromisoformat(mallory["submitted"]) == mallory_time
    days = _days(mallory_time - DEADLINE)
    assert (mallory["submitted_from"], mallory["lateness"], mallory["late_days"]) == ("Blackboard receipt", "late",
                                                                                      str(days))
    assert float(mallory["penalty_percent"]) == min(days * PER_DAY, CAP)
    shown = _intake(out, "mallory")
    assert any(f"is mallory's {forged}" in line for line in shown)  # her file, under the name she gave it
    assert any(f"is mallory's {early}" in line for line in shown)


def _names(room: Path) -> dict[str, classroom.Entry]:
    spec, _ = specs.parse_game("tally", FIXTURE)
    return {e.name: e for e in classroom.find([room], spec).entries}


def test_the_latest_blackboard_attempt_counts_its_receipt_and_the_receipt_names_the_user(tmp_path):
    """A username holding `_` (the receipt's Name line settles it), and an attempt of text alone
    after one with files: that later attempt is the one graded, and it holds no file."""
    room = tmp_path / "class"
    first, second = DEADLINE - timedelta(days=1), DEADLINE - timedelta(hours=1)
    _write(room / f"Lab 2_bob_smith_attempt_{_stamp(first)}_tally.py", CORRECT)
    _write(room / f"Lab 2_bob_smith_attempt_{_stamp(first)}.txt", _receipt("Bob Smith", "bob_smith", "Lab 2", first,
                                                                           ["tally.py"]))
    _write(room / f"Lab 2_bob_smith_attempt_{_stamp(second)}.txt", _receipt("Bob Smith", "bob_smith", "Lab 2", second,
                                                                            []))
    _write(room / f"Lab 2_smith_attempt_{_stamp(first)}_tally.py", CORRECT)  # another student, no receipt
    found = _names(room)
    assert set(found) == {"bob_smith", "smith"}
    bob = found["bob_smith"]
    assert (bob.lms_id, bob.attempt, bob.members) == ("bob_smith", _stamp(second), [])
    assert lateness.receipt_time(bob.receipt_time, DEADLINE) == second
    assert found["smith"].members[0].name == "tally.py"
    with classroom.Staging() as staging:
        staging.stage(bob)
        assert bob.path is not None and list(bob.path.iterdir()) == []  # graded as the empty attempt it is


@pytest.mark.parametrize("written, expected", [
    ("Monday, February 2, 2026 9:09:00 PM EST", datetime(2026, 2, 2, 21, 9, tzinfo=timezone(timedelta(hours=-5)))),
    ("Monday, 2 February 2026 21:09:00 o'clock GMT", datetime(2026, 2, 2, 21, 9, tzinfo=timezone.utc)),
    ("Monday, February 2, 2026 9:09:00 AM XYZT", datetime(2026, 2, 2, 9, 9, tzinfo=ZONE)),  # a zone not known: the deadline's
    ("Lundi 2 février 2026 21:09", None),  # no format known: the stamp in the names is used instead
])
def test_a_receipts_date_submitted_is_read_as_blackboard_writes_it(written, expected):
    assert lateness.receipt_time(written, DEADLINE) == expected


# --- Canvas -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_canvas_file_named_like_another_export_is_its_uploaders_file(tmp_path, harness_cli):
    """Canvas flags Mallory's files late; she names one like an early Blackboard attempt of hers
    and one like a file of bob's (a crashing program). Bob, on time, is graded on his own."""
    room, out = tmp_path / "class", tmp_path / "out"
    _write(room / "builderbob_999_111_tally.py", CORRECT)
    _write(room / "molemallory_LATE_123_456_tally.py", CORRECT)
    forged = ["Tally_molemallory_attempt_2026-01-01-00-00-00_tally.py", "builderbob_999_888_tally.py"]
    _write(room / f"molemallory_LATE_123_457_{forged[0]}", CORRECT)
    _write(room / f"molemallory_LATE_123_458_{forged[1]}", CRASH)
    rows = _grade(harness_cli, room, out)

    assert set(rows) == {"builderbob_999", "molemallory_123"}
    bob = rows["builderbob_999"]
    assert (bob["status"], float(bob["percent"]), bob["lms_id"]) == ("graded", 100.0, "999")
    assert (bob["submitted_from"], bob["lateness"]) == ("Canvas (no LATE flag)", "on time")
    mallory = rows["molemallory_123"]
    assert (mallory["submitted_from"], mallory["lateness"], mallory["lms_id"]) == (
        "Canvas LATE flag", lateness.FLAGGED, "123")
    shown = _intake(out, "molemallory_123")
    assert all(any(f"is molemallory_123's {name}" in line for line in shown) for name in forged)


def test_canvas_names_are_read_as_canvas_forms_them():
    """The sortable name in word characters (any script), the LATE flag only where Canvas puts
    it, anonymous grading's ids; and a Blackboard-like tail stays the student's file name."""
    read = lambda name: classroom._lms(name, False)  # noqa: E731
    plain = read("müllerjosé_LATE_5_6_Main-1.java")
    assert (plain.layout, plain.key, plain.late, plain.file) == (classroom.CANVAS, "müllerjosé_5", True, "Main-1.java")
    hidden = read("LATE_anon_x7Kq2_61_tally.py")
    assert (hidden.layout, hidden.lms_id, hidden.late, hidden.file) == (classroom.CANVAS, "x7Kq2", True, "tally.py")
    tail = read("mole_123_456_Tally_bob_attempt_2026-01-01-00-00-00_tally.py")
    assert (tail.layout, tail.key, tail.late, tail.attempt) == (classroom.CANVAS, "mole_123", False, "")
    numeric = read("Lab_1_12345_attempt_2026-01-01-00-00-00_tally.py")  # Blackboard: a numeric username
    assert (numeric.layout, numeric.key, numeric.lms_id) == (classroom.BLACKBOARD, "Lab_1_12345", "12345")


# --- Moodle -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_moodle_file_named_like_another_students_is_its_uploaders_and_its_dates_are_no_time(tmp_path, harness_cli):
    """Mallory names a crashing file like bob's Moodle entry, and hands in a zip whose member
    and file dates (set by her zip, kept by the unzip) say long before the deadline; Moodle's
    export holds no time, so hers is not known until a times CSV gives it."""
    room, out = tmp_path / "class", tmp_path / "out"
    before = DEADLINE - timedelta(days=30)
    _write(room / "Bob Builder_77_assignsubmission_file_tally.py", CORRECT, before)
    _write(room / "Mallory Mole_12_assignsubmission_file_Bob Builder_77_assignsubmission_file_tally.py", CRASH, before)
    archive = room / "Mallory Mole_12_assignsubmission_file_project.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr(zipfile.ZipInfo("project/tally.py", date_time=(2026, 1, 2, 3, 4, 5)), CORRECT)
    os.utime(archive, (before.timestamp(), before.timestamp()))
    times = _write(tmp_path / "times.csv", f"student,submitted\n77,{(DEADLINE - timedelta(hours=3)).isoformat()}\n")
    rows = _grade(harness_cli, room, out, "--times", times)

    assert set(rows) == {"Bob_Builder_77", "Mallory_Mole_12"}
    bob = rows["Bob_Builder_77"]
    assert (bob["status"], float(bob["percent"]), bob["submitted_from"], bob["lateness"]) == (
        "graded", 100.0, "times CSV", "on time")
    mallory = rows["Mallory_Mole_12"]
    assert (mallory["submitted_from"], mallory["lateness"], mallory["submitted"], mallory["penalty_percent"]) == (
        lateness.NO_LMS_TIME, lateness.NOT_KNOWN, "", "0")
    shown = _intake(out, "Mallory_Mole_12")
    assert any("is Mallory Mole_12's Bob Builder_77_assignsubmission_file_tally.py" in line for line in shown)

    late = DEADLINE + timedelta(days=3, hours=1)  # the instructor gives her time, read from Moodle
    times.write_text(f"student,submitted\n12,{late.isoformat()}\n77,{(DEADLINE - timedelta(hours=3)).isoformat()}\n",
                     encoding="utf-8")
    mallory = _grade(harness_cli, room, out, "--times", times)["Mallory_Mole_12"]
    assert (mallory["submitted_from"], mallory["late_days"]) == ("times CSV", str(_days(late - DEADLINE)))


def test_moodle_names_end_the_full_name_at_the_first_underscore():
    """Moodle writes a full name's own underscores as spaces: the first `_<id>_assignsubmission_`
    ends the student part, whatever the file name holds."""
    read = lambda name: classroom._lms(name, False)  # noqa: E731
    own = read("Mallory Mole_12_assignsubmission_file_Bob_77_assignsubmission_file_tally.py")
    assert (own.layout, own.key, own.file) == (classroom.MOODLE, "Mallory Mole_12",
                                               "Bob_77_assignsubmission_file_tally.py")
    assert read("Team A-Jo Ng_5_assignsubmission_file_tally.py").key == "Team A-Jo Ng_5"
    assert read("Jo_Ng_5_assignsubmission_file_tally.py") is None  # not a name Moodle writes
    assert classroom._lms("Participant_8_assignsubmission_file_", True).key == "Participant_8"
