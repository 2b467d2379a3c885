"""The hour after grading (docs/after-grading.md), through the real command line on a class of
the fixture game: the class page's suggested `harness accept` covers every turn where the same
rewording happens, not its first turn alone; once `harness publish` has run, the class page (read
in a headless browser) no longer says the new grades wait; and after a case's points change, the
delta and the terminal's count hold only the grades that moved."""
import csv
import html as htmllib
import os
import re
import shlex
import subprocess
import sys

import shutil

import pytest

from harness.loading.acceptances import expected_turns
from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, copy_project

pytestmark = pytest.mark.slow  # a class graded twice

CASE = "illegal-out-of-range"  # two refused tries: the refusal is printed at two turns
WORDING = "That is not allowed, try again."  # how variant-wording refuses


def harness(root, *args):
    return subprocess.run([sys.executable, "-m", "harness", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "HARNESS_ROOT": str(root)})


def _browser() -> str:
    found = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    assert found, "chromium is needed to read the class page as a browser shows it"
    return found


def dom(page, profile) -> str:
    """The class page as a headless browser builds it."""
    return subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout


def rows(path) -> dict[str, dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return {row.get("submission") or row["student"]: row for row in csv.DictReader(handle)}


def test_an_acceptance_for_every_turn_then_publish_then_a_points_change_that_moves_one_grade(tmp_path):
    """The case compares its messages exactly (the instructor's choice here), so two programs
    that word the refusal their own way fail it at its first refusal, and would at the second:
    the page's one command accepts the wording at any turn, and after it both programs pass. The
    page says their new grades wait until `harness publish`, then that they are out. Then the
    case is made worth more: only dee, who fails the item's other case, has a grade that moves."""
    root = copy_project(FIXTURE, tmp_path / "project")
    path = root / "cases" / "tally" / f"{CASE}.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "compare: {messages: false}\n", encoding="utf-8")
    spec, _ = specs.parse_game("tally", root)
    case = caseload.load_case(path, spec)
    assert sum("Illegal!" in lines for lines in expected_turns(case.expected_events)) == 2
    folder, out = tmp_path / "class", tmp_path / "reports"
    for name, sample in (("ann", "correct"), ("bea", "variant-wording"), ("cal", "variant-wording"),
                         ("dee", "bug-crash")):  # fails illegal-word-and-five only (examples/tally/expected.yaml)
        (folder / name).mkdir(parents=True)
        (folder / name / "tally.py").write_text(
            (root / "examples" / "tally" / sample / "tally.py").read_text(encoding="utf-8"), encoding="utf-8")
    done = harness(root, "grade", "tally", folder, "-o", out, "-q", "-k", "illegal")
    assert done.returncode == 1, done.stdout + done.stderr
    before = rows(out / "gradebook.csv")
    assert float(before["bea"]["percent"]) < 100.0 and float(before["cal"]["percent"]) < 100.0

    page = (out / "index.html").read_text(encoding="utf-8")
    commands = [htmllib.unescape(c) for c in re.findall(r'<code class="accept">([^<]*)</code>', page)]
    assert len(commands) == 1, commands
    words = shlex.split(commands[0])
    assert words[:6] == ["harness", "accept", "tally", CASE, "--line=Illegal!", f"--also={WORDING}"]
    assert [w for w in words[6:] if not w.startswith("--why=")] == []  # and why it was suggested, for the case file
    accepted = harness(root, *words[1:])
    assert accepted.returncode == 0, accepted.stderr
    again = harness(root, "grade", "tally", folder, "-o", out, "-q", "-k", "illegal")
    assert again.returncode == 1, again.stdout + again.stderr  # dee still fails
    after = rows(out / "gradebook.csv")
    assert all(float(after[name]["percent"]) == 100.0 for name in ("ann", "bea", "cal"))
    assert set(rows(out / "delta.csv")) == {"bea", "cal"}

    waiting = dom(out / "index.html", tmp_path / "profile-1")
    assert "Not published to students yet" in waiting and "2 grades moved" in waiting
    published = harness(root, "publish", "-o", out)
    assert published.returncode == 0, published.stderr
    shown = dom(out / "index.html", tmp_path / "profile-2")
    assert "Since the last grading" in shown and "Not published to students yet" not in shown
    assert "Published to students:" in shown and "2 reports" in shown

    # the case worth 3 instead of 1 within its item: a full item stays full, dee's half item moves
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("rubric: illegal\n", "rubric: illegal\npoints: 3\n", 1), encoding="utf-8")
    third = harness(root, "grade", "tally", folder, "-o", out, "-k", "illegal")
    assert third.returncode == 1, third.stdout + third.stderr
    delta = rows(out / "delta.csv")
    assert set(delta) == {"dee"}, delta
    assert float(delta["dee"]["points_change"]) > 0  # the case dee passes now weighs more of the item
    assert "1 grade moved" in third.stdout and "grades moved" not in third.stdout, third.stdout
