"""Flip's handout writes an empty middle two ways (its unit test `246+||124+`, its sample game
`244+|+|124+`), so both are right (specs/flip/spec.yaml, the Decision beside `rewrite:`): every
`to-string` case, which compares toString() as printed, accepts the `||` form of each of its
lines with an empty middle, and nothing else. Reads the case files; runs nothing."""
import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.transcript import output
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a course game's case suite

EMPTY_MIDDLE = "|+|"


def test_to_string_accepts_the_bare_form_of_an_empty_middle_and_nothing_else():
    spec, milestone = specs.parse_game("flip", ROOT)
    cases = [case for case in caseload.load_all(spec, milestone) if case.rubric == "to-string"]
    bare = {}
    for case in cases:
        lines = {line for line in output(case.expected_events).split("\n") if EMPTY_MIDDLE in line}
        bare[case.name] = {(line, line.replace(EMPTY_MIDDLE, "||")) for line in lines}
        assert {(entry.line, entry.also) for entry in case.accept} == bare[case.name], case.name
    assert any(bare.values())  # the handout's start, at least, has an empty middle
