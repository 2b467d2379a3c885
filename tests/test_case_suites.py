"""Every shipped case suite loads cleanly, covers its rubric, and matches the reference today."""
import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs

pytestmark = pytest.mark.slow  # every course game's case suite against its reference


@pytest.mark.parametrize("game", specs.games())
def test_every_graded_rubric_item_has_cases(game):
    spec = specs.load(game)
    found = caseload.load_all(spec)
    caseload.require_expectations(found)
    covered = {case.rubric for case in found}
    missing = [item.id for item in spec.rubric if item.graded and item.id not in covered]
    assert not missing, f"graded rubric items of {game} without a case: {missing}"


def test_expected_transcripts_are_current(harness_cli):
    done = harness_cli("regen", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
