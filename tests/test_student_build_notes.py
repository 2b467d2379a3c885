"""No student learns that another submission had the same sources: the build cache's reuse is a
typed part of a build (`BuildSummary.reused`), which the instructor's reports say and nothing a
student reads does (Gradescope's results.json, PrairieLearn's, Classroom's report, the student's
copy of a report, the self-check service's student view, which is made from that copy)."""
import json
import os
import subprocess
import sys

import pytest

from harness.loading import spec as specs
from harness.loading import stages
from harness.platforms import classroom, prairielearn
from harness.reporting import html, student
from harness.results import REUSED_BUILD, SubmissionResult
from tests.helpers import FIXTURE, SAMPLES

pytestmark = pytest.mark.slow  # a C++ program built with g++ and graded twice

HARNESS = [sys.executable, "-m", "harness"]


def _graded(tmp_path, name: str, source: str) -> tuple[str, SubmissionResult]:
    """(results.json as Gradescope shows it, the full result) of one autograder run."""
    root = tmp_path / name
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "tally.cpp").write_text(source, encoding="utf-8")
    env = {**os.environ, "HARNESS_ROOT": str(FIXTURE), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([*HARNESS, "gradescope", "tally", "--autograder-root", str(root)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr  # graded (a busy machine may time a case out)
    shown = (root / "results" / "results.json").read_text(encoding="utf-8")
    full = SubmissionResult.from_json(json.loads((root / "results" / "result.json").read_text(encoding="utf-8")))
    return shown, full


def test_the_second_upload_of_the_same_sources_is_not_told_of_the_first(tmp_path):
    source = (SAMPLES / "correct-cpp" / "tally.cpp").read_text(encoding="utf-8") + f"\n// {tmp_path.name}\n"
    first_shown, first = _graded(tmp_path, "first", source)
    second_shown, second = _graded(tmp_path, "second", source)
    assert [b.reused for b in first.builds.values()] == [False]
    assert [b.reused for b in second.builds.values()] == [True]  # the cache had it: the instructor is told
    assert REUSED_BUILD in html.render(second)
    now = stages.at(specs.parse_game("tally", FIXTURE)[0].hidden_stages)
    said = {  # everything a student of the second upload reads
        "gradescope": second_shown,
        "prairielearn": json.dumps(prairielearn.results(second, now, ["tally.cpp"])),
        "classroom": json.dumps(classroom.report(second, now.show)),
        "student copy": student.page(second),
    }
    for where, text in said.items():
        assert "reused" not in text and "identical" not in text, where
    assert "reused" not in first_shown and "identical" not in first_shown
