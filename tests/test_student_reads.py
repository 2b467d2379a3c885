"""What a student reads, through the real command line on the fixture game: the total of the
public cases (the student's copy, read in a headless browser, and `harness check`) is shown as
the public part, never as the grade; and `harness check` on an install without the course's
specs and without `--server` says what the check needs."""
import csv
import shutil
import subprocess

import pytest

from tests.helpers import FIXTURE, SAMPLES

pytestmark = pytest.mark.slow

# Takes 5 as a legal addition: only the hidden illegal-word-and-five types a 5 (the fixture's cases).
ACCEPTS_FIVE = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8").replace("k > 3", "k > 3 and k != 5")


def _dom(page, profile) -> str:
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    assert browser, "chromium is needed to read the student's copy as a browser shows it"
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout


def test_the_students_copy_shows_the_public_part_never_as_the_grade(tmp_path, harness_cli):
    assert ACCEPTS_FIVE != (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
    folder = tmp_path / "five"
    folder.mkdir()
    (folder / "tally.py").write_text(ACCEPTS_FIVE, encoding="utf-8")
    out = tmp_path / "out"
    done = harness_cli("grade", "tally", folder, "-o", out, "-k", "illegal", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 1, done.stdout + done.stderr  # the hidden case fails
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        grade = float(next(csv.DictReader(f))["percent"])
    assert grade < 100.0
    copy = _dom(out / "five" / "report-student.html", tmp_path / "profile")
    assert "The public part: " in copy and "= 100.0 % on the public cases" in copy
    assert "not the grade: the grade also counts the 1 hidden case" in copy
    assert "Score " not in copy and f"{grade:.1f} %" not in copy  # no grade in it, right or wrong
    own = (out / "five" / "report.html").read_text(encoding="utf-8")
    assert f"= {grade:.1f} %</strong>" in own  # the instructor's report keeps the grade


def test_check_shows_its_total_as_the_public_part(tmp_path, harness_cli):
    done = harness_cli("check", "tally", SAMPLES / "correct", "-o", tmp_path / "r", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 0, done.stdout + done.stderr
    last = [line for line in done.stdout.splitlines() if " cases passed — " in line]
    assert len(last) == 1 and "the public part: " in last[0] and "(not your grade: the hidden cases count too)" in last[0]
    assert "score " not in last[0] and "= 100.0 % on the public cases" in last[0]


def test_check_without_specs_or_a_server_says_what_it_needs(tmp_path, harness_cli):
    lean = tmp_path / "lean"
    (lean / "specs").mkdir(parents=True)  # an install with no games' specs
    project = tmp_path / "mine"
    project.mkdir()
    (project / "Reversi.java").write_text("public class Reversi {}\n", encoding="utf-8")
    done = harness_cli("check", "reversi", ".", cwd=project, env={"HARNESS_ROOT": str(lean)})
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "none found" not in done.stderr
    assert done.stderr.startswith("harness: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--server URL --token TOKEN" in done.stderr and "HARNESS_ROOT" in done.stderr
