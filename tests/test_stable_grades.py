"""The same program gets the same grade every time, however its own random starts fall.

Programs that draw their own start (an unseeded generator) are graded five times each on the
cases whose runs draw a start: the correct Python sample, the handout-faithful program that
keeps an already-final strip (an unplayable start: drawn again, never charged), the program
that refuses a 1-coin game, and the program whose gaps run 0-5 (starts against the rules some
of the time, and a crash before any board on others). Every grading must give the same score,
and lose only items its sample's entry in expected.yaml allows.
"""

import pytest
import yaml

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # Silver Dollar samples graded again and again

GRADINGS = 5
# Cases over every item whose runs draw a start on 2 coins, and the 12-coin setup case the law of
# the starts tops up (a 0-5 generator's 12-coin starts break the rules seven times in ten: the
# evidence that settles a 2-coin setup case its luck passed; see drawing.SETTLE_RUNS).
CASES = ["setup-2-coins", "setup-12-coins", "prompt-1-coin", "prompt-2-coins", "board-2-coins",
         "moves-game-2-random", "illegal-player-2", "end-random-2-a", "end-leftmost-2"]
SAMPLES = ["correct-python", "variant-no-reroll", "variant-strict-coins", "bug-gap-zero-to-five"]


def _allowed_losses(sample: str, found) -> set[str]:
    want = yaml.safe_load((ROOT / "examples" / "silver-dollar" / "expected.yaml").read_text())["samples"][sample]
    by_name = {c.name: c.rubric for c in found}
    cases = set(want.get("fails", [])) | set(want.get("may_fail", []))
    return {by_name[c] for c in cases if c in by_name} | set(want.get("also_loses", [])) | set(want.get("loses") or [])


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES)
def test_a_program_drawing_its_own_starts_gets_one_grade(sample, grader):
    spec, milestone = specs.parse_game("silver-dollar")
    found = [c for c in caseload.load_all(spec, milestone) if c.name in CASES]
    assert sorted(c.name for c in found) == sorted(CASES)
    allowed = _allowed_losses(sample, found)
    scores, losses = [], []
    for _ in range(GRADINGS):
        result = grader.grade(spec, milestone, found, ROOT / "examples" / "silver-dollar" / sample)
        scores.append(result.percent)
        losses.append({i.id for i in result.items if i.graded and i.counted and i.earned < i.weight - 1e-9})
    assert len(set(scores)) == 1, (scores, losses)
    assert losses[0] <= allowed, (losses[0], allowed)
