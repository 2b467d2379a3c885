"""Late work that shows (docs/late-work.md), through the real command line on a class of the
fixture game: the class page (read in a headless browser) shows the final, late-adjusted score
where the score is (the list, the mean, the histogram) with the raw one beside it, and a times
CSV that leaves a submission to its files' times says so once on the terminal, with the fix."""
import shutil
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from tests.helpers import FIXTURE, SAMPLES

pytestmark = pytest.mark.slow  # a class graded

DEADLINE = datetime(2099, 3, 2, 23, 59, tzinfo=timezone(timedelta(hours=-5)))  # after any file's time
PER_DAY, CAP = 20, 50
CASE = "add-two"


def _dom(page, profile) -> str:
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    assert browser, "chromium is needed to read the class page as a browser shows it"
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout


def test_the_class_page_shows_the_final_score_and_the_raw_one_and_a_missing_time_row_is_said(tmp_path, harness_cli):
    folder = tmp_path / "class"
    for name in ("ann", "bob", "cy"):
        (folder / name).mkdir(parents=True)
        shutil.copyfile(SAMPLES / "correct" / "tally.py", folder / name / "tally.py")
    bob_late = timedelta(days=1, hours=1)  # two days counted (every day or part of one)
    times = tmp_path / "times.csv"
    times.write_text(f"student,submitted\nann,{(DEADLINE - timedelta(hours=1)).isoformat()}\n"
                     f"bob,{(DEADLINE + bob_late).isoformat()}\n", encoding="utf-8")
    out = tmp_path / "out"
    done = harness_cli("grade", "tally", folder, "-o", out, "-k", CASE, "--deadline", DEADLINE.isoformat(),
                       "--late-penalty", str(PER_DAY), "--late-cap", str(CAP), "--times", times,
                       env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 0, done.stdout + done.stderr
    said = [line for line in done.stdout.splitlines() if "no row for" in line]
    assert said == [f"{times}: no row for 1 submission (cy): its time is the newest modification time of the files; "
                    "add a row (student,submitted) for each to give the time handed in"], done.stdout

    bob = 100.0 * (1 - min(2 * PER_DAY, CAP) / 100)  # a correct program, two days late
    mean = (100.0 + bob + 100.0) / 3
    dom = _dom(out / "index.html", tmp_path / "profile")
    row = dom.split('href="bob/report.html"')[1].split("</tr>")[0]
    assert f"{bob:.1f} %" in row and "raw 100.0 %" in row
    ann = dom.split('href="ann/report.html"')[1].split("</tr>")[0]
    assert "100.0 %" in ann and "raw" not in ann  # no penalty: one score
    assert f"Mean {mean:.1f} %" in dom and "after late penalties (raw 100.0 %)" in dom
    low = int(bob // 10 * 10)
    assert f"<title>1 built and ran, {low}–{low + 10} %</title>" in dom
    assert "<title>2 built and ran, 90–100 %</title>" in dom


def _gradebook(out) -> tuple[list[str], dict[str, dict]]:
    import csv
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        rows = {row["submission"]: row for row in reader}
        return list(reader.fieldnames or []), rows


def test_grading_again_without_the_late_options_keeps_the_policy_and_says_so(tmp_path, harness_cli):
    """The policy is kept with the reports: a second grading without the late options applies it
    (the same late columns, the same penalty) and says where it came from; --no-late drops it."""
    from harness.reporting.exports import LATE_COLUMNS

    folder = tmp_path / "class"
    for name in ("ann", "bob"):
        (folder / name).mkdir(parents=True)
        shutil.copyfile(SAMPLES / "correct" / "tally.py", folder / name / "tally.py")
    times = tmp_path / "times.csv"
    times.write_text(f"student,submitted\nann,{(DEADLINE - timedelta(hours=1)).isoformat()}\n"
                     f"bob,{(DEADLINE + timedelta(hours=3)).isoformat()}\n", encoding="utf-8")
    out, env = tmp_path / "out", {"HARNESS_ROOT": str(FIXTURE)}
    first = harness_cli("grade", "tally", folder, "-o", out, "-k", CASE, "--deadline", DEADLINE.isoformat(),
                        "--late-penalty", str(PER_DAY), "--times", times, env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    columns, rows = _gradebook(out)
    assert all(column in columns for column in LATE_COLUMNS)
    assert float(rows["bob"]["penalty_percent"]) == PER_DAY  # one day or part of one
    assert float(rows["bob"]["final_percent"]) == 100.0 - PER_DAY

    again = harness_cli("grade", "tally", folder, "-o", out, "-k", CASE, env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    kept = [line for line in again.stdout.splitlines() if line.startswith("late policy kept from")]
    assert len(kept) == 1 and f"−{PER_DAY:g} % a day" in kept[0] and str(times.resolve()) in kept[0], again.stdout
    assert _gradebook(out) == (columns, rows)  # the same columns and cells: nothing dropped silently

    dropped = harness_cli("grade", "tally", folder, "-o", out, "-k", CASE, "--no-late", env=env)
    assert dropped.returncode == 0, dropped.stdout + dropped.stderr
    assert "late policy: none (--no-late)" in dropped.stdout
    columns, rows = _gradebook(out)
    assert not any(column in columns for column in LATE_COLUMNS)
    assert not any(line.startswith("late policy") for line in
                   harness_cli("grade", "tally", folder, "-o", out, "-k", CASE, env=env).stdout.splitlines())
