"""Silver Dollar boards are random: grading must not depend on the board a program draws.

The Java samples draw with an unseeded `new Random()`, so every run starts from a different
board and each case is graded against the reference re-run from that board (the spec's
`random_start`). A correct program scores 100 % whatever it draws; a program whose setup breaks
the rules loses the setup item and nothing else.
"""
from pathlib import Path

import pytest

from harness import cases as caseload
from harness import grading
from harness import spec as specs
from harness.starts import find_start

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "examples" / "silver-dollar"


def _grade(sample: str):
    spec, milestone = specs.parse_game("silver-dollar")
    found = caseload.load_all(spec, milestone)
    result = grading.grade(spec, milestone, found, SAMPLES / sample)
    return spec, result, result


def test_correct_java_scores_full_marks_on_any_board():
    spec, _ = specs.parse_game("silver-dollar")
    starts = []
    for _ in range(3):
        _, result, score = _grade("correct-java")
        problems = {c.name: c.reason for c in result.cases if c.status != "passed"}
        assert not problems
        assert score.percent == pytest.approx(100.0)
        by_name = {c.name: c for c in result.cases}
        starts.append(find_start(spec.random_start["capture"],
                                 "".join(e.get("out", "") for e in by_name["board-12-coins"].actual)))
    assert all(starts)
    # three 12-coin boards drawn by the program itself: they differ (a repeat has odds below 1e-20)
    assert len(set(starts)) == 3


def test_setup_gaps_zero_to_five_loses_setup_only():
    _, result, score = _grade("bug-gap-zero-to-five")
    # a board off the strip crashes before printing: only the setup cases take such a run as it comes
    assert not [c.name for c in result.cases if c.status == "failed" and c.rubric != "setup"], \
        {c.name: c.reason for c in result.cases if c.status == "failed"}
    setup = [c for c in result.cases if c.rubric == "setup"]
    assert any(c.status in ("ungradable", "failed") for c in setup)
    lost = {item.id for item in score.items if item.graded and item.counted and item.earned < item.weight - 1e-9}
    assert lost == {"setup"}
    assert score.percent < 100.0
