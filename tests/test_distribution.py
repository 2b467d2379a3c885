"""The check of a random setup: a correct generator fails it with a chance below one in a
million (computed exactly from the test, and seen over many simulated gradings), a 1-5 and a
1-7 generator never pass it; on real runs, a program's starts are collected, topped up with
runs of the law's case, and a broken law costs the setup item and nothing else."""
import functools
import math
import random
import shutil
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from harness.loading import cases as caseload
from harness.building import build as builder
from harness.starts import law as distribution
from harness.grading import drawn
from harness.grading import submission as grading
from harness.starts import drawing
from harness.loading import spec as specs
from harness.errors import InputError
from harness.results import CaseResult
from tests.helpers import FIXTURE, copy_project, outcomes, run_pytest



def _law(game: str) -> distribution.Law:
    spec, _ = specs.parse_game(game)
    return (spec.random_start.law if spec.random_start else None)


# --- the exact test, against an oracle of its own ---------------------------------------------
#
# The two-sided exact binomial test of k in n at p sums the chances C(n, i) p^i (1-p)^(n-i) of
# every count i no more likely than k (as likely within a relative 1e-7: the usual test's tie).
# p is the float the law holds, a binary fraction a/d, so each chance is the integer
# C(n, i) a^i (d-a)^(n-i) over d^n, and the oracle sums them exactly.

@functools.lru_cache(maxsize=None)
def _exact_chances(n: int, p: float) -> tuple[tuple[int, ...], int]:
    """Each count's chance under Binomial(n, p), as integers over one denominator."""
    a, d = Fraction(p).as_integer_ratio()
    return tuple(math.comb(n, i) * a ** i * (d - a) ** (n - i) for i in range(n + 1)), d ** n


def _exact_tail(k: int, n: int, p: float) -> Fraction:
    chances, whole = _exact_chances(n, p)
    return Fraction(sum(c for c in chances if c * 10**7 <= chances[k] * (10**7 + 1)), whole)


# By hand from the formula: n=4, p=1/2 gives the chances 1, 4, 6, 4, 1 over 16, so k=0 (or 4)
# sums 1+1, k=1 (or 3) sums 1+4+4+1, k=2 everything. n=3, p=1/4 gives 27, 27, 9, 1 over 64: k=3
# is 1 alone, k=2 is 9+1, k=0 and k=1 tie at 27 and so take everything. At p=0 only k=0 can come.
BY_HAND = [(0, 4, 0.5, Fraction(2, 16)), (4, 4, 0.5, Fraction(2, 16)), (1, 4, 0.5, Fraction(10, 16)),
           (3, 4, 0.5, Fraction(10, 16)), (2, 4, 0.5, Fraction(1)), (3, 3, 0.25, Fraction(1, 64)),
           (2, 3, 0.25, Fraction(10, 64)), (0, 3, 0.25, Fraction(1)), (1, 3, 0.25, Fraction(1)),
           (0, 5, 0.0, Fraction(1)), (1, 5, 0.0, Fraction(0)), (5, 5, 1.0, Fraction(1)), (4, 5, 1.0, Fraction(0))]


@pytest.mark.parametrize("k, n, p, chance", BY_HAND)
def test_the_tail_by_hand(k, n, p, chance):
    assert distribution._tail(k, n, p) == pytest.approx(float(chance), rel=1e-12, abs=1e-300)
    if 0 < p < 1:
        assert _exact_tail(k, n, p) == chance


@pytest.mark.parametrize("n, p", [(150, 1 / 6), (80, 1 / 5), (37, 0.3), (1000, 1 / 6)])
def test_the_tail_is_the_exact_test_for_every_count(n, p):
    """The harness's tail, summed from logarithms, against the exact sum: every count, from
    the likeliest to chances far below any bar the check uses."""
    for k in range(n + 1) if n <= 200 else range(0, n + 1, 25):
        exact = _exact_tail(k, n, p)
        if exact > Fraction(1, 10**290):  # below that a float has too few digits to compare
            assert distribution._tail(k, n, p) == pytest.approx(float(exact), rel=1e-9), k


def _gradings(rule: distribution.Law, draw, count: int, seed: int) -> list[distribution.LawVerdict]:
    """`count` gradings of a generator `draw(rng)` -> one value, each on `least` values."""
    rng = random.Random(seed)
    return [distribution.judge(rule, [str(draw(rng)) for _ in range(rule.least)], rule.least) for _ in range(count)]


@pytest.mark.parametrize("game", ["silver-dollar"])
def test_a_correct_generator_fails_with_a_chance_below_one_in_a_million(game):
    """Exactly: the chance, under the law, that some value's count is rejected (a union bound
    over the values of the binomial probabilities of every count the harness rejects)."""
    rule = _law(game)
    n, each = rule.least, distribution.FALSE_ALARM / len(rule.probabilities)
    chance = Fraction(0)
    for p in rule.probabilities.values():
        rejected = [k for k in range(n + 1) if distribution._tail(k, n, p) < each]
        chances, whole = _exact_chances(n, p)
        assert 0 in rejected  # the bar can be reached (a tail that never rejects would pass vacuously)
        chance += Fraction(sum(chances[k] for k in rejected), whole)
    assert chance < distribution.FALSE_ALARM


@pytest.mark.parametrize("game", ["silver-dollar"])
def test_a_one_to_five_generator_is_always_caught_and_one_to_seven_too(game):
    rule = _law(game)
    assert set(rule.probabilities) == {"1", "2", "3", "4", "5", "6"}
    # with no 6 among `least` values the count of 6 alone is below the bar: every grading fails
    assert _exact_tail(0, rule.least, rule.probabilities["6"]) < distribution.FALSE_ALARM / 6
    low = _gradings(rule, lambda rng: rng.randint(1, 5), 300, seed=5)
    assert all(v.passed is False for v in low)
    # a 7 fails the check at once; `least` values without a 7 has a chance (6/7)**least
    assert (6 / 7) ** rule.least < 1e-6
    high = _gradings(rule, lambda rng: rng.randint(1, 7), 300, seed=7)
    assert all(v.passed is False and "7" in v.outside for v in high)


def test_a_correct_generator_passes_every_one_of_many_gradings():
    rule = _law("silver-dollar")
    verdicts = _gradings(rule, lambda rng: rng.randint(1, 6), 1000, seed=11)
    assert all(v.passed for v in verdicts), [v.reason for v in verdicts if not v.passed][:3]


def test_too_few_values_are_not_judged_but_a_value_outside_the_law_is():
    rule = _law("silver-dollar")
    few = distribution.judge(rule, ["1", "2"], 1)
    assert few.passed is None and "too few" in few.reason
    bad = distribution.judge(rule, ["1", "0"], 1)
    assert bad.passed is False and bad.outside == {"0": 1}


def test_the_values_of_a_start_are_read_by_the_spec_function():
    rule = _law("silver-dollar")
    # coins on squares 0, 2, 8, 9, 11: gaps 1 (from the edge), 2, 6, 1, 2
    assert distribution.sample(rule, ["0 _ 1 _ _ _ _ _ 2 3 _ 4"]) == ["1", "2", "6", "1", "2"]
    # a strip of fewer coins says nothing (a re-rolled final strip would bias its gaps)
    assert distribution.sample(rule, ["_ 0 _ 1"]) == []
    # each distinct start once: a clock-seeded program repeats its strip
    assert len(distribution.sample(rule, ["0 _ 1 _ _ _ _ _ 2 3 _ 4"] * 3)) == 5


# --- on real runs: the fixture game with a law of its start ----------------------------------

LEAST = 80  # starts a grading collects: a 1-4 generator's lack of a 5 is below the bar (checked below)


@pytest.fixture(scope="module")
def law_project(tmp_path_factory) -> Path:
    """The fixture game, whose start must be uniform over 1-5 (a 6 is re-rolled or drawn again)."""
    root = copy_project(FIXTURE, tmp_path_factory.mktemp("tally-law"), parts=("specs", "cases"))
    spec_file = root / "specs" / "tally" / "spec.yaml"
    text = spec_file.read_text(encoding="utf-8")
    law = textwrap.indent(yaml.safe_dump({"distribution": {
        "expect": {v: 1 for v in range(1, 6)}, "least": LEAST, "case": "setup-start", "points": 2}}), "  ")
    spec_file.write_text(text.replace("  rubric: setup\n", "  rubric: setup\n" + law, 1), encoding="utf-8")
    return root


def _program(tmp_path: Path, roll: str) -> Path:
    """The fixture's correct program with another roll."""
    source = (FIXTURE / "examples" / "tally" / "correct" / "tally.py").read_text(encoding="utf-8")
    changed = source.replace("start = random.randint(1, 6)\n    while start == 6:", f"start = {roll}\n    while start == 6:")
    assert changed != source
    folder = tmp_path / "program"
    folder.mkdir()
    (folder / "tally.py").write_text(changed, encoding="utf-8")
    return folder


def _grade(law_project: Path, submission: Path):
    spec, milestone = specs.parse_game("tally", law_project)
    found = caseload.load_all(spec, milestone)
    result = grading.grade(spec, milestone, found, submission)
    return spec, found, result


def _check(result):
    return next(c for c in result.cases if c.name == distribution.CHECK_NAME)


@pytest.mark.slow  # a grading of the fixture game topped up to 80 starts
def test_a_correct_program_passes_the_check_on_its_own_starts_and_the_top_ups(law_project):
    spec, found, result = _grade(law_project, FIXTURE / "examples" / "tally" / "correct")
    check = _check(result)
    assert check.status == "passed", check.notes
    drawn = sum(len(c.starts) for c in result.cases if c.name != distribution.CHECK_NAME)
    assert check.runs >= LEAST > drawn  # the cases drew too few: runs of setup-start made up the rest
    assert result.percent == pytest.approx(100.0)


@pytest.mark.slow  # a grading of the fixture game topped up to 80 starts
def test_a_one_to_four_program_loses_the_check_and_only_it(law_project, tmp_path):
    """Every start of 1-4 is within the rules: only the law sees that 5 never comes."""
    assert _exact_tail(0, LEAST, 1 / 5) < distribution.FALSE_ALARM / 5
    spec, found, result = _grade(law_project, _program(tmp_path, "random.randint(1, 4)"))
    check = _check(result)
    assert check.status == "failed" and "'5' came 0 times" in check.reason
    assert "value  observed  expected" in check.notes[0]
    assert [c.name for c in result.cases if c.status != "passed"] == [distribution.CHECK_NAME]
    setup = next(i for i in result.items if i.id == "setup")
    cases_of_setup = [c for c in found if c.rubric == "setup"]
    share = 2 / (2 + sum(c.points for c in cases_of_setup))
    assert setup.earned == pytest.approx(setup.weight * (1 - share), abs=1e-3)  # shares are kept to 4 places
    assert [i.id for i in result.items if i.counted and i.earned < i.weight - 1e-9] == ["setup"]


@pytest.mark.slow  # a grading of the fixture game topped up to 80 starts
def test_a_program_drawing_outside_the_law_loses_the_check(law_project, tmp_path):
    """Starts of 1-12: against the rules half the time, and the law sees the values it rules out."""
    spec, found, result = _grade(law_project, FIXTURE / "examples" / "tally" / "bug-start-range")
    check = _check(result)
    assert check.status == "failed" and "rules out" in check.reason


def test_a_law_naming_a_missing_case_is_refused_with_its_line(law_project, tmp_path):
    root = tmp_path / "bad"
    shutil.copytree(law_project, root)
    spec_file = root / "specs" / "tally" / "spec.yaml"
    text = spec_file.read_text(encoding="utf-8").replace("case: setup-start", "case: no-such-case")
    spec_file.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as raised:
        specs.parse_game("tally", root)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "no-such-case" in l)
    assert "no-such-case" in str(raised.value) and f":{line}" in str(raised.value)


@pytest.mark.slow  # a grading of the fixture game topped up to 80 starts
def test_a_setup_case_passed_by_luck_is_settled_by_more_runs(law_project, tmp_path, grader):
    """A program drawing a forbidden start (7) one time in six passes the 12 runs of
    setup-start one time in nine. Once a run elsewhere showed a forbidden start, the passed
    setup case runs again, SETTLE_RUNS more times at most, and fails; a correct program's passes
    stand; without such a start nothing runs again."""
    spec, milestone = specs.parse_game("tally", law_project)
    found = caseload.load_all(spec, milestone)
    setup = next(c for c in found if c.name == "setup-start")
    other = next(c for c in found if c.rubric != "setup")
    batches = -(-drawing.SETTLE_RUNS // setup.repeat)  # the more runs go in batches of the case's repeat
    assert (5 / 6) ** (batches * setup.repeat) < 1e-6  # the 1-7 program passes them all

    def settled(program: Path, evidence: list[str]) -> CaseResult:
        lucky = CaseResult(setup.name, setup.description, setup.rubric, setup.points, setup.visibility,
                           status="passed", runs=setup.repeat, starts=["2"] * setup.repeat)
        elsewhere = CaseResult(other.name, other.description, other.rubric, other.points, other.visibility,
                               status="passed", runs=1, starts=evidence + ["3"], against_rules=evidence)
        build = builder.build(program, spec, setup.target)
        try:
            again = drawn.settle(spec, [setup, other], [lucky, elsewhere], lambda target: build.ok,
                                   lambda more: grader.run_cases([grading.Job(spec, case, build) for case in more]))
        finally:
            builder.cleanup(build)
        assert again[1] is elsewhere
        return lucky if again[0] is lucky else again[0]

    broken = settled(_program(tmp_path, "random.randint(1, 7)"), ["7"])
    assert broken.status == "failed" and setup.repeat < broken.runs <= setup.repeat * (batches + 1)
    assert "7" in broken.against_rules and any("ran" in note and "this run failed" in note for note in broken.notes)

    correct = settled(FIXTURE / "examples" / "tally" / "correct", ["7"])
    assert correct.status == "passed" and correct.runs == setup.repeat * (batches + 1)
    assert any("every run passed" in note for note in correct.notes), correct.notes

    untouched = CaseResult(setup.name, setup.description, setup.rubric, setup.points, setup.visibility, status="passed")
    assert drawn.settle(spec, [setup], [untouched], lambda target: False, grader.run_cases) == [untouched]  # no run


@pytest.mark.slow  # a grading of the fixture game topped up to 80 starts, then the same in pytest
def test_the_pytest_plugin_gives_harness_grades_verdicts_on_a_law_breaking_program(law_project, tmp_path):
    """One owner of random starts: the plugin grades through the same entry point as `harness
    grade`, so the check of the law is an item of its own and fails there too (under xdist, one
    worker grades and the other reads its result)."""
    program = _program(tmp_path, "random.randint(1, 4)")
    spec, found, result = _grade(law_project, program)
    graded = {case.name: "PASSED" if case.passed else "FAILED" for case in result.cases}
    assert graded[distribution.CHECK_NAME] == "FAILED"
    done = run_pytest(tmp_path / "pytest", "--game", "tally", "--submission", program, "-rA", "-n", "2",
                      root=law_project)
    seen = {node.rpartition("::")[2]: status for node, status in outcomes(done).items()}
    assert seen == graded, done.stdout[-3000:]
    assert done.returncode == pytest.ExitCode.TESTS_FAILED
