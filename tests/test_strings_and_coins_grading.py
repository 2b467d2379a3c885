"""Strings and Coins: the handout's "no arrays, vectors, globals or <cmath>" rule is reported
by the spec's source checks, never deducted.

Grading `rule-uses-array` (correct but for a local array in updateNetwork) must name the
array's line in a build finding and still score 100 %; the correct sample has no finding.
"""
from pathlib import Path

import pytest

from harness.loading import cases as caseload
from harness.grading import submission as grading
from harness.loading import spec as specs
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # Strings and Coins samples graded

SAMPLES = ROOT / "examples" / "strings-and-coins"


def _grade(sample: str):
    spec, milestone = specs.parse_game("strings-and-coins", ROOT)
    found = caseload.load_all(spec, milestone)
    result = grading.grade(spec, milestone, found, SAMPLES / sample)
    return result, result


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if text in line)


def test_array_is_reported_but_not_deducted():
    result, score = _grade("rule-uses-array")
    line = _line_of(SAMPLES / "rule-uses-array" / "stringcoin.cpp", "int tops[6]")
    findings = [f for build in result.builds.values() for f in build.findings]
    assert any(f.startswith(f"stringcoin.cpp:{line}:") and "array" in f for f in findings), findings
    assert all(build.ok for build in result.builds.values())
    assert score.percent == pytest.approx(100.0)


def test_correct_sample_has_no_findings():
    result, score = _grade("correct-cpp")
    assert {build.target for build in result.builds.values()} == {"game", "functions"}
    assert [f for build in result.builds.values() for f in build.findings] == []
    assert score.percent == pytest.approx(100.0)


def test_a_submission_without_the_header_uses_the_provided_one(tmp_path):
    # the sample's helpers are declared in its own header: declare them in the sources instead
    helpers = "long long power10(int e);\nbool coinDisconnected(long long network, int top);\nbool allCut(long long network);\n"
    for name in ("stringcoin.cpp", "stringcoin-game.cpp"):
        source = (SAMPLES / "correct-cpp" / name).read_text()
        at = source.index('#include "stringcoin.h"') + len('#include "stringcoin.h"\n')
        (tmp_path / name).write_text(source[:at] + helpers + source[at:])
    spec, milestone = specs.parse_game("strings-and-coins", ROOT)
    found = caseload.load_all(spec, milestone)
    result = grading.grade(spec, milestone, found, tmp_path)
    assert result.builds["game"].ok, result.builds["game"].reason
    assert result.percent == pytest.approx(100.0)


def test_compiler_errors_and_warnings_reach_the_report(tmp_path):
    from harness.reporting import html
    warned, broken = tmp_path / "warned", tmp_path / "broken"
    for folder in (warned, broken):
        folder.mkdir()
        for name in ("stringcoin.cpp", "stringcoin.h", "stringcoin-game.cpp"):
            (folder / name).write_text((SAMPLES / "correct-cpp" / name).read_text())
    game = (warned / "stringcoin-game.cpp").read_text()
    (warned / "stringcoin-game.cpp").write_text(game.replace("int main()", "int main()\n{ int unused_here = 1; }\nint main2()", 1))
    (broken / "stringcoin.cpp").write_text((broken / "stringcoin.cpp").read_text() + "\nint broken_here( {\n")
    spec, milestone = specs.parse_game("strings-and-coins", ROOT)
    found = [c for c in caseload.load_all(spec, milestone) if c.target == "game"][:2]
    result = grading.grade(spec, milestone, found, warned)
    assert result.builds["game"].ok and "unused_here" in result.builds["game"].log and "warning" in result.builds["game"].log
    page = html.render(result)
    assert "unused_here" in page
    result = grading.grade(spec, milestone, found, broken)
    assert not result.builds["game"].ok and "error" in result.builds["game"].log
    assert all(c.status == "failed" and "build failed" in c.reason for c in result.cases)
