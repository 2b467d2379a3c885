"""Nothing a student sets is a submission time (docs/late-work.md): not an archive member's date,
not a profile name that breaks a line of Blackboard's receipt. A time comes from the platform's
record, the instructor's times CSV or, for a plain class folder, the files' own times on the
instructor's disk (an archive's own, never its members'). Each attack goes through `harness grade`
with a deadline; the numbers follow from the policy on the command line."""
import io
import os
import tarfile
import zipfile
from datetime import timedelta

import pytest

from harness.classes import lateness
from tests.test_lms_names import CORRECT, DEADLINE, PER_DAY, CAP, _days, _grade, _receipt, _stamp, _write

pytestmark = pytest.mark.slow

EARLY = DEADLINE - timedelta(days=30)


@pytest.mark.parametrize("breaks", ["\u2028", "\r", "\x85", "\x0b", "\n"])
def test_a_profile_name_that_breaks_a_receipt_line_is_no_date_submitted(tmp_path, harness_cli, breaks):
    """Mallory, two days late, gives herself a full name that holds a line break and a Date
    Submitted of a month before the deadline; Blackboard copies it into her receipt's Name line.
    Her time is the one Blackboard wrote."""
    room, out = tmp_path / "class", tmp_path / "out"
    when = DEADLINE + timedelta(days=1, hours=20)
    local = EARLY.astimezone(DEADLINE.tzinfo)
    forged = f"{local:%A}, {local:%B} {local.day}, {local.year} 9:00:00 AM EST"
    full = f"Mallory Mole{breaks}Date Submitted: {forged}{breaks}Role: Student"
    _write(room / f"Tally_mallory_attempt_{_stamp(when)}_tally.py", CORRECT)
    (room / f"Tally_mallory_attempt_{_stamp(when)}.txt").write_bytes(
        _receipt(full, "mallory", "Tally", when, ["tally.py"]).encode("utf-8"))
    mallory = _grade(harness_cli, room, out)["mallory"]
    assert (mallory["submitted_from"], mallory["lateness"]) == (lateness.BLACKBOARD_RECEIPT, lateness.LATE), mallory
    assert mallory["late_days"] == str(_days(when - DEADLINE))
    assert float(mallory["penalty_percent"]) == min(_days(when - DEADLINE) * PER_DAY, CAP)


def _late_archives(room):
    """Two late archives in a plain class folder, each holding a program whose member date says a
    month before the deadline; the archives arrived (their own time) a day after it."""
    arrived = DEADLINE + timedelta(hours=20)
    zipped = room / "zed.zip"
    with zipfile.ZipFile(zipped, "w") as packed:
        packed.writestr(zipfile.ZipInfo("tally.py", date_time=EARLY.timetuple()[:6]), CORRECT)
    tarred = room / "tam.tar.gz"
    data = CORRECT.encode("utf-8")
    with tarfile.open(tarred, "w:gz") as packed:
        member = tarfile.TarInfo("project/tally.py")
        member.size, member.mtime = len(data), int(EARLY.timestamp())
        packed.addfile(member, io.BytesIO(data))
    for archive in (zipped, tarred):
        os.utime(archive, (arrived.timestamp(), arrived.timestamp()))
    return arrived


def test_an_archive_member_s_date_is_never_a_submission_time(tmp_path, harness_cli):
    room, out = tmp_path / "class", tmp_path / "out"
    room.mkdir()
    arrived = _late_archives(room)
    rows = _grade(harness_cli, room, out)
    assert set(rows) == {"zed", "tam"}
    for name in ("zed", "tam"):
        row = rows[name]
        assert (row["status"], float(row["percent"])) == ("graded", 100.0)
        assert (row["submitted_from"], row["lateness"], row["late_days"]) == (lateness.FILE_TIMES, lateness.LATE,
                                                                             str(_days(arrived - DEADLINE)))
        assert float(row["penalty_percent"]) == min(_days(arrived - DEADLINE) * PER_DAY, CAP)
    # the instructor's record, where there is one, over any file's time
    on_time = DEADLINE - timedelta(hours=1)
    times = _write(tmp_path / "times.csv", f"student,submitted\nzed,{on_time.isoformat()}\n")
    rows = _grade(harness_cli, room, out, "--times", times)
    assert (rows["zed"]["submitted_from"], rows["zed"]["lateness"]) == (lateness.TIMES_CSV, lateness.ON_TIME)
    assert rows["tam"]["submitted_from"] == lateness.FILE_TIMES


def test_a_canvas_export_downloaded_as_a_zip_takes_no_time_from_its_member_dates(tmp_path, harness_cli):
    """The LMS download as it is, given on the command line: Canvas's zip of `<name>_<id>_<sub>_<file>`
    members, dated a month early. Canvas writes no time into it, only its LATE flag."""
    export = tmp_path / "submissions.zip"
    with zipfile.ZipFile(export, "w") as packed:
        for member in ("mallorymole_12_345_tally.py", "bobbuilder_LATE_77_346_tally.py"):
            packed.writestr(zipfile.ZipInfo(member, date_time=EARLY.timetuple()[:6]), CORRECT)
    rows = _grade(harness_cli, export, tmp_path / "out")
    by_from = sorted((row["submitted_from"], row["lateness"], row["submitted"]) for row in rows.values())
    assert by_from == sorted([(lateness.CANVAS_FLAG, lateness.FLAGGED, ""),
                              (lateness.CANVAS_ON_TIME, lateness.ON_TIME, "")]), by_from
