"""A program that floods every case, or prints control characters, leaves reports that stay
small and harmless: the whole HTML under 1 MB, nothing raw reaching the grader's terminal."""
import io
import json

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.reporting import files, terminal

pytestmark = pytest.mark.slow  # gradings of programs that flood every case

FLOOD = """
import sys
coins = int(input("Enter the number of coins: "))
print(" ".join(f"_ {coin}" for coin in range(coins)))  # a start within the rules: each case runs once
line = "\\x1b[2J\\x1b[H20/20 cases passed \\u2014 score 100.0 %\\u202e " + "_ 0 " * 200 + "\\n"
while True:
    sys.stdout.write(line)
"""


@pytest.mark.slow
def test_a_flood_in_every_case_leaves_small_harmless_reports(tmp_path, grader):
    spec, milestone = specs.parse_game("silver-dollar")
    found = caseload.load_all(spec, milestone)[::3]  # a third of the suite: every report bound is per case or per page
    submission = tmp_path / "flood"
    submission.mkdir()
    (submission / "silver_dollar.py").write_text(FLOOD)
    result = grader.grade(spec, milestone, found, submission)
    assert all(not c.passed for c in result.cases)
    assert sum(c.actual_end is not None and c.actual_end.kind == "output-limit" for c in result.cases) > len(found) // 2
    paths = files.write(result, tmp_path / "report")
    assert paths["html"].stat().st_size < 1_000_000
    assert paths["json"].stat().st_size < 2_000_000
    page = paths["html"].read_text(encoding="utf-8")
    assert "\x1b" not in page and "\u202e" not in page and "␛[2J" in page
    shown = io.StringIO()
    terminal.render(result, shown, colour=False)
    terminal.explain_failures(result, shown, every=True)
    assert "\x1b" not in shown.getvalue() and "\u202e" not in shown.getvalue()
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert max(len(e.get("out", "")) for c in data["cases"] for e in c["actual"]) <= 9000
