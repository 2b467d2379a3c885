"""Late work: the arithmetic from the policy's definition (days or part of a day past the
deadline once past the grace period, a percentage of the earned score per day, at most the cap),
the spec's `late:` and the command line's options, bad CSV lines refused at their line, and a
class of the fixture game graded with a deadline: a times CSV, an extensions CSV, a Blackboard
attempt, a Canvas LATE flag and file times, each row's columns in the gradebook."""
import csv
import html
import json
import os
import re
import shutil
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from harness.classes import classroom, lateness
from harness.errors import InputError
from harness.loading import spec as specs
from harness.reporting import exports
from tests.helpers import FIXTURE, SAMPLES

ZONE = timezone(timedelta(hours=-5))
DEADLINE = datetime(2026, 3, 2, 23, 59, tzinfo=ZONE)
HOUR, DAY = timedelta(hours=1), timedelta(days=1)
POLICY = lateness.Policy(DEADLINE, penalty_per_day=10, cap=25, grace_minutes=15)


def at(delta: timedelta) -> lateness.Submitted:
    return lateness.Submitted(DEADLINE + delta, lateness.TIMES_CSV)


# --- the arithmetic, from the policy's definition ----------------------------------------------

@pytest.mark.parametrize("late, grace, days", [
    (timedelta(0), 15, 0),                        # on the dot: on time
    (timedelta(minutes=15), 15, 0),               # the grace period's last second forgives it
    (timedelta(minutes=15, seconds=1), 15, 1),    # past the grace period: a part of a day counts whole
    (timedelta(hours=1, minutes=10), 15, 1),      # the docs' example: 1 h 10 min late, 15 min grace
    (DAY, 15, 1),                                 # exactly a day
    (DAY + timedelta(seconds=1), 15, 2),          # a second into the second day
    (DAY + timedelta(minutes=10), 15, 2),         # the grace period forgives, it does not move the deadline
    (timedelta(minutes=1), 0, 1),                 # no grace: a minute late is a day
])
def test_days_are_counted_per_day_or_part_of_a_day_once_past_the_grace_period(late, grace, days):
    assert lateness.days_counted(late.total_seconds(), grace) == days


def test_the_penalty_is_a_percentage_per_day_up_to_the_cap():
    assert [lateness.penalty(d, POLICY) for d in range(5)] == [0, 10, 20, 25, 25]
    assert lateness.penalty(20, lateness.Policy(DEADLINE, penalty_per_day=10)) == 100  # no cap given: all of it
    assert lateness.final(80.0, 10) == pytest.approx(80.0 * 0.9)  # a percentage of the earned score
    assert lateness.final(80.0, 0) == 80.0


def test_assess_a_submission_against_the_deadline():
    late = lateness.assess(POLICY, at(timedelta(hours=1, minutes=10)))
    assert (late.standing, late.days, late.penalty, late.deadline) == (lateness.LATE, 1, 10, DEADLINE)
    assert late.hours == pytest.approx(70 / 60)
    assert late.final(60.0) == pytest.approx(54.0)
    early = lateness.assess(POLICY, at(-HOUR))
    assert (early.standing, early.late_seconds, early.penalty) == (lateness.ON_TIME, 0, 0)
    grace = lateness.assess(POLICY, at(timedelta(minutes=10)))
    assert (grace.standing, grace.days, grace.penalty) == (lateness.IN_GRACE, 0, 0)
    capped = lateness.assess(POLICY, at(5 * DAY))
    assert (capped.days, capped.penalty) == (5, POLICY.cap)


def test_an_extension_moves_the_deadline_of_one_student():
    by_days = lateness.assess(POLICY, at(2 * DAY + HOUR), lateness.Extension(days=2))
    assert by_days.deadline == DEADLINE + 2 * DAY
    assert (by_days.days, by_days.penalty, by_days.extension) == (1, 10, "extension of 2 days")
    own = DEADLINE + 3 * DAY
    to_date = lateness.assess(POLICY, at(2 * DAY + HOUR), lateness.Extension(deadline=own))
    assert (to_date.deadline, to_date.standing, to_date.penalty) == (own, lateness.ON_TIME, 0)


def test_without_a_time_no_penalty_is_applied_and_the_row_says_why():
    flagged = lateness.assess(POLICY, lateness.Submitted(None, lateness.CANVAS_FLAG, True))
    assert (flagged.standing, flagged.late_seconds, flagged.penalty) == (lateness.FLAGGED, None, 0)
    assert flagged.final(70.0) == 70.0
    unknown = lateness.assess(POLICY, lateness.Submitted(None, lateness.UNKNOWN))
    assert (unknown.standing, unknown.penalty) == (lateness.NOT_KNOWN, 0)


def test_a_blackboard_attempt_is_read_in_the_deadlines_zone():
    assert lateness.blackboard_time("2026-03-02-23-00-00", DEADLINE) == datetime(2026, 3, 2, 23, 0, tzinfo=ZONE)


def test_file_times_are_the_newest_source_file(tmp_path):
    folder = tmp_path / "alice"
    (folder / "src").mkdir(parents=True)
    for name, delta in (("tally.py", -DAY), ("src/helper.py", HOUR), ("notes.txt", 3 * DAY)):
        os.utime(_write(folder / name, "x\n"), ((DEADLINE + delta).timestamp(),) * 2)
    entry = classroom.Entry("alice", str(folder), classroom.FOLDER, path=folder)
    assert lateness.file_time(entry, DEADLINE) == DEADLINE + HOUR  # a source file's, not the notes'


# --- the CSVs and the spec ---------------------------------------------------------------------

def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_csvs_are_read_by_student_letter_case_aside(tmp_path):
    times = lateness.read_times(_write(tmp_path / "t.csv", "student,submitted\nAlice,2026-03-03T01:09:00-05:00\n\n"
                                                         "bob,2026-03-03T06:00:00Z\n"))
    assert times == {"alice": DEADLINE + timedelta(hours=1, minutes=10), "bob": datetime(2026, 3, 3, 6, tzinfo=timezone.utc)}
    extensions = lateness.read_extensions(_write(tmp_path / "e.csv", "student,deadline,days\nalice,,2\n"
                                                                     "bob,2026-03-05T12:00:00-05:00,\n"))
    assert extensions == {"alice": lateness.Extension(days=2),
                          "bob": lateness.Extension(deadline=datetime(2026, 3, 5, 12, tzinfo=ZONE))}


@pytest.mark.parametrize("reader, text, line, says", [
    (lateness.read_times, "student,submitted\nalice,2026-03-03T01:09:00-05:00\nbob,2026-03-03 01:09\n", 3, "no time zone"),
    (lateness.read_times, "student,submitted\nalice,yesterday\n", 2, "not an ISO 8601 time"),
    (lateness.read_times, "name,time\nalice,2026-03-03T01:09:00Z\n", 1, "student,submitted"),
    (lateness.read_times, "student,submitted\nalice,2026-03-03T01:09:00Z\nALICE,2026-03-04T01:09:00Z\n", 3, "twice"),
    (lateness.read_times, "student,submitted\nalice,2026-03-03T01:09:00Z,extra\n", 2, "quote a value"),
    (lateness.read_extensions, "student,days\nalice,two\n", 2, "not a number of days"),
    (lateness.read_extensions, "student,days\nalice,-1\n", 2, "above 0"),
    (lateness.read_extensions, "student,deadline,days\nalice,2026-03-05T12:00:00Z,2\n", 2, "not both"),
    (lateness.read_extensions, "student,deadline\n,2026-03-05T12:00:00Z\n", 2, "no student"),
])
def test_a_bad_csv_line_is_named_with_the_fix(tmp_path, reader, text, line, says):
    path = _write(tmp_path / "in.csv", text)
    with pytest.raises(InputError) as raised:
        reader(path)
    assert (raised.value.path, raised.value.line) == (path, line)
    assert says in str(raised.value)


def _with_late(project: Path, text: str) -> Path:
    spec = project / "specs" / "tally" / "spec.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + text, encoding="utf-8")
    return project


def test_the_spec_sets_the_policy_and_a_milestone_its_own_keys(tally_project):
    _with_late(tally_project, "late: {deadline: 2026-03-02T23:59:00-05:00, penalty_per_day: 10, grace: 15}\n"
                              "milestones:\n  one: {title: One}\n"
                              "  two: {title: Two, late: {deadline: '2026-03-09T23:59:00-05:00', cap: 30}}\n")
    spec = specs.load("tally", tally_project)
    assert spec.late_rule("one") == specs.LateRule(DEADLINE, 10, None, 15)
    assert spec.late_rule("two") == specs.LateRule(DEADLINE + 7 * DAY, 10, 30, 15)
    settings = lateness.settings(spec.late_rule("two"), penalty_per_day=5)  # the command line over the spec
    assert settings.policy == lateness.Policy(DEADLINE + 7 * DAY, 5, 30, 15)
    assert lateness.settings(specs.LateRule()) is None  # no deadline anywhere: nothing changes


@pytest.mark.parametrize("late, says", [
    ("late: {deadline: 2026-03-02}\n", "a date without a time"),
    ("late: {deadline: 2026-03-02 23:59:00}\n", "no time zone"),
    ("late: {deadline: 'soon'}\n", "not an ISO 8601 time"),
    ("late: {deadline: 2026-03-02T23:59:00Z, penalty_per_day: 120}\n", "maximum"),
    ("late: {deadline: 2026-03-02T23:59:00Z, penalty: 10}\n", "penalty"),
])
def test_a_bad_late_setting_stops_grading_at_its_line(tally_project, harness_cli, late, says):
    _with_late(tally_project, late)
    line = len((tally_project / "specs" / "tally" / "spec.yaml").read_text(encoding="utf-8").splitlines())
    done = harness_cli("grade", "tally", SAMPLES / "correct", "-o", tally_project / "out",
                       env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 2, done.stderr
    assert f"spec.yaml:{line}:" in done.stderr and says in done.stderr
    assert "Traceback" not in done.stderr and not (tally_project / "out").exists()


@pytest.mark.parametrize("args, says", [
    (["--deadline", "2026-03-02"], "no time zone"),
    (["--late-penalty", "10"], "needs a deadline"),
    (["--deadline", "2026-03-02T23:59:00Z", "--late-cap", "150"], "not a percentage"),
    (["--deadline", "2026-03-02T23:59:00Z", "--grace", "-5"], "not a number of minutes"),
    (["--deadline", "2026-03-02T23:59:00Z", "--times", "{bad}"], "bad.csv:3: submitted:"),
])
def test_a_bad_late_option_is_one_line_and_exit_2(tmp_path, harness_cli, args, says):
    bad = _write(tmp_path / "bad.csv", "student,submitted\nalice,2026-03-03T01:09:00Z\nbob,later\n")
    done = harness_cli("grade", "tally", SAMPLES / "correct", "-o", tmp_path / "out",
                       *[a.format(bad=bad) for a in args], env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


# --- the gradebook's columns -------------------------------------------------------------------

def test_the_gradebook_adds_the_late_columns_after_notes_only_with_a_deadline(tally, grader, tmp_path):
    spec, cases = tally
    result = grader.grade(spec, None, cases, SAMPLES / "bug-add")
    path = tmp_path / "gradebook.csv"
    exports.gradebook([result], path, ["absent"], rubric=spec.items(None))
    header, plain = _rows(tmp_path)
    assert not set(exports.LATE_COLUMNS) & set(header)  # no deadline: the columns as they always were
    late = {result.name: lateness.assess(POLICY, at(2 * DAY + HOUR)),
            "absent": lateness.assess(POLICY, lateness.Submitted(None, lateness.UNKNOWN))}
    exports.gradebook([result], path, ["absent"], rubric=spec.items(None), late=late)
    header_late, rows = _rows(tmp_path)
    at_notes = header_late.index("notes") + 1
    assert header_late == [*header[:at_notes], *exports.LATE_COLUMNS, *header[at_notes:]]
    row = rows[result.name]
    assert {k: row[k] for k in header} == plain[result.name]  # the raw score and items unchanged
    assert (row["lateness"], row["late_days"], row["penalty_percent"]) == (lateness.LATE, "3", "25")  # capped
    assert float(row["late_hours"]) == pytest.approx(49.0)
    assert float(row["final_percent"]) == pytest.approx(result.percent * 0.75, abs=0.006)
    assert float(row["final_earned"]) == pytest.approx(result.earned * 0.75, abs=0.006)
    absent = rows["absent"]  # not graded: its time and standing, no score
    assert (absent["status"], absent["lateness"], absent["final_percent"]) == ("not-graded", lateness.NOT_KNOWN, "")


# --- a class graded with a deadline -------------------------------------------------------------

PROBE = """<!doctype html><html><body><iframe id="f" style="width:1200px;height:800px" src="{src}"></iframe>
<script>
document.getElementById('f').addEventListener('load', () => {{
  const d = document.getElementById('f').contentWindow.document;
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify(Object.fromEntries([...d.querySelectorAll('table.list tr')].filter(
    tr => tr.querySelector('span.late')).map(tr => [tr.querySelector('a').textContent,
      {{text: tr.querySelector('span.late').textContent, shown: tr.querySelector('span.late').checkVisibility()}}])));
  document.body.appendChild(out);
}});
</script></body></html>"""


def _late_lines_in_chromium(page: Path, tmp_path: Path) -> dict | None:
    """Each row's late line as headless Chromium shows it (None where no Chromium is installed)."""
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if browser is None:
        return None
    probe = tmp_path / "probe.html"
    probe.write_text(PROBE.format(src=page.as_uri()), encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--allow-file-access-from-files",
                          "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    return json.loads(html.unescape(found[1]))


def _rows(folder: Path) -> tuple[list[str], dict[str, dict]]:
    with (folder / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, {row["submission"]: row for row in reader}


@pytest.mark.slow
def test_a_class_with_a_deadline_has_each_rows_time_deadline_and_penalty(tmp_path, harness_cli):
    """Five students, each time from its own source; the numbers follow from the policy below."""
    room = tmp_path / "class"
    shutil.copytree(SAMPLES / "correct", room / "alice")  # time: the times CSV
    shutil.copytree(SAMPLES / "bug-add", room / "bob")  # time: its files; an extension of 2 days
    shutil.copytree(SAMPLES / "correct", room / "erin")  # the times CSV, capped
    source = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
    _write(room / "Tally_carol_attempt_2026-03-02-20-00-00_tally.py", source)  # Blackboard: an early attempt...
    _write(room / "Tally_carol_attempt_2026-03-03-01-09-00_tally.py", source)  # ...and the graded one
    _write(room / "daveb_LATE_111_222_tally.py", source)  # Canvas: late, no time
    os.utime(room / "bob" / "tally.py", ((DEADLINE + 2 * DAY + 3 * HOUR).timestamp(),) * 2)
    times = _write(tmp_path / "times.csv", "student,submitted\n"
                   f"alice,{(DEADLINE + timedelta(hours=1, minutes=10)).isoformat()}\n"
                   f"erin,{(DEADLINE + 4 * DAY).isoformat()}\n"
                   "carol,2026-03-01T00:00:00-05:00\n")  # Blackboard's attempt is trusted over the CSV
    extensions = _write(tmp_path / "extensions.csv", "student,days\nBob,2\n")
    out = tmp_path / "out"
    done = harness_cli("grade", "tally", room, "-o", out, "--deadline", DEADLINE.isoformat(), "--late-penalty", "10",
                       "--late-cap", "25", "--grace", "15", "--times", times, "--extensions", extensions,
                       env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 1, done.stdout + done.stderr  # bob's bug
    header, rows = _rows(out)
    at = header.index("notes") + 1
    assert header[at:at + len(exports.LATE_COLUMNS)] == exports.LATE_COLUMNS

    def final(row, penalty):
        assert float(row["penalty_percent"]) == penalty
        for raw, after in (("percent", "final_percent"), ("earned", "final_earned")):
            assert float(row[after]) == pytest.approx(float(row[raw]) * (1 - penalty / 100), abs=0.006)

    alice = rows["alice"]  # 1 h 10 min late, past the 15 minutes of grace: one day
    assert (alice["submitted_from"], alice["lateness"], alice["late_days"]) == ("times CSV", "late", "1")
    assert float(alice["late_hours"]) == pytest.approx(70 / 60, abs=0.006)
    assert alice["deadline"] == DEADLINE.isoformat() and alice["extension"] == ""
    final(alice, 10)
    bob = rows["bob"]  # 3 h past his deadline, moved 2 days on
    assert (bob["submitted_from"], bob["late_days"]) == ("file times", "1")
    assert datetime.fromisoformat(bob["deadline"]) == DEADLINE + 2 * DAY
    assert datetime.fromisoformat(bob["submitted"]) == DEADLINE + 2 * DAY + 3 * HOUR
    assert float(bob["percent"]) < 100
    final(bob, 10)
    erin = rows["erin"]  # 4 days: 40 %, capped at 25
    assert erin["late_days"] == "4"
    final(erin, 25)
    carol = rows["carol"]  # the graded attempt's time, read in the deadline's zone
    assert (carol["submitted_from"], carol["late_days"]) == ("Blackboard attempt", "1")
    assert datetime.fromisoformat(carol["submitted"]) == datetime(2026, 3, 3, 1, 9, tzinfo=ZONE)
    final(carol, 10)
    dave = rows["daveb_111"]  # late by Canvas's word, no time: no penalty, said so
    assert (dave["submitted_from"], dave["lateness"], dave["submitted"], dave["late_days"]) == (
        "Canvas LATE flag", lateness.FLAGGED, "", "")
    final(dave, 0)
    shown = _late_lines_in_chromium(out / "index.html", tmp_path)
    if shown is not None:  # the class page's rows, on screen
        assert set(shown) == set(rows) and all(line["shown"] for line in shown.values())
        assert shown["alice"]["text"].startswith(f"late 1.2 h, 1 day counted: −10 % → {float(alice['final_percent']):.1f} %")
        assert shown["daveb_111"]["text"].startswith(lateness.FLAGGED)
        assert "extension of 2 days" in shown["bob"]["text"]

    again = harness_cli("grade", "tally", room, "-o", out, "--no-late",  # no deadline: said, not left off
                        env={"HARNESS_ROOT": str(FIXTURE)})
    assert again.returncode == 1, again.stdout + again.stderr
    header, rows = _rows(out)
    assert not set(exports.LATE_COLUMNS) & set(header)
    assert header[:len(exports.GRADEBOOK_COLUMNS)] == exports.GRADEBOOK_COLUMNS
    assert 'class="meta late"' not in (out / "index.html").read_text(encoding="utf-8")
