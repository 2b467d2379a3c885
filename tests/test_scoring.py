"""Scoring on made-up case results (no processes): the rule of docs/scores.md, and numbers that add up.

The rubric is the fixture game's (tests/fixture/specs/tally/spec.yaml); the expected numbers
are worked out here from its weights by the rule in the manual's docs/scores.md.
"""
import dataclasses
import math

import pytest

from harness.grading import scoring
from harness.reporting import exports
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE, CaseResult, SubmissionResult


def case(name, rubric, status, points=1, charged_to=None, visibility="public", reason=""):
    return CaseResult(name, f"{name} described", rubric, points, visibility, status, reason=reason,
                      charged_to=charged_to)


def scored(spec, cases, status="graded") -> SubmissionResult:
    scores = scoring.score(spec, spec.items(None), cases)
    return SubmissionResult(submission="made-up", name="made-up", game=spec.game, title=spec.title, milestone=None,
                            sandbox="none", status=status, builds={}, cases=scores.cases, items=scores.items,
                            earned=scores.earned, possible=scores.possible)


@pytest.fixture
def weights(tally):
    spec, _ = tally
    return {item.id: item.points for item in spec.rubric}


def graded_total(spec) -> float:
    return math.fsum(item.points for item in spec.rubric if item.graded)


def assert_gradescope_adds_up(result: SubmissionResult) -> dict:
    report = exports.gradescope(result)
    scores = [t["score"] for t in report["tests"]]
    assert round(math.fsum(scores), scoring.DIGITS) == report["score"]
    assert report["score"] == pytest.approx(result.earned, abs=10 ** -scoring.DIGITS)
    assert round(math.fsum(t["max_score"] for t in report["tests"]), scoring.DIGITS) == result.possible
    assert all(0 <= t["score"] <= t["max_score"] for t in report["tests"])
    return report


def test_ungradable_cases_count_against_setup_and_harness_errors_against_nobody(tally, weights):
    spec, _ = tally
    setup = spec.random_start.rubric
    cases = [
        case("setup-start", setup, PASSED),
        case("prompt", "prompt", PASSED),
        case("add-a", "add", UNGRADABLE, charged_to=setup),
        case("add-b", "add", PASSED, points=2),
        case("illegal-a", "illegal", UNGRADABLE, charged_to=setup),
        case("illegal-b", "illegal", FAILED),
        case("end-a", "end", PASSED, points=2),
        case("end-b", "end", HARNESS_ERROR),
    ]
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    items = {i.id: i for i in result.items}
    # setup: its own point passed, two charges failed -> a third of its weight
    assert items[setup].charges == 2
    assert items[setup].earned == pytest.approx(round(weights[setup] / 3, scoring.DIGITS))
    # add: only add-b could be graded, and it passed; illegal: only illegal-b, failed
    assert items["add"].earned == weights["add"] and items["add"].cases_ungradable == 1
    assert items["illegal"].earned == 0 and items["illegal"].counted
    # end: the harness error is left out; end-a passed
    assert items["end"].earned == weights["end"] and items["end"].cases_gradable == 1
    assert "style" in items and not items["style"].graded and not items["style"].counted
    assert result.possible == graded_total(spec)
    expected = weights[setup] / 3 + weights["prompt"] + weights["add"] + weights["end"]
    assert result.earned == pytest.approx(expected, abs=1e-4)
    by_name = {c.name: c for c in cases}
    assert by_name["end-b"].value == 0 and by_name["end-b"].earned == 0
    # a third each, rounded so that the three shares make the weight exactly
    shares = [by_name[n].value for n in ("setup-start", "add-a", "illegal-a")]
    assert math.fsum(shares) == weights[setup] and len(set(shares)) == 2
    report = assert_gradescope_adds_up(result)
    assert report["score"] == round(expected, scoring.DIGITS)


def test_a_failed_build_scores_zero_on_every_counted_item(tally):
    spec, cases = tally
    results = [case(c.name, c.rubric, FAILED, points=c.points, visibility=c.visibility,
                    reason="not run: the build failed") for c in cases]
    result = scored(spec, results, status="build-failed")
    assert result.earned == 0 and result.percent == 0
    assert result.possible == graded_total(spec)
    assert all(i.counted for i in result.items if i.graded)
    report = assert_gradescope_adds_up(result)
    assert report["score"] == 0
    hidden = {c.name for c in cases if c.visibility == "hidden"}
    assert hidden and {t["name"].split(" ")[0] for t in report["tests"] if t["visibility"] != "visible"} == hidden


def test_an_item_with_no_gradable_case_is_left_out_of_the_total(tally, weights):
    spec, cases = tally
    setup = spec.random_start.rubric
    results = [case(c.name, c.rubric, UNGRADABLE if c.rubric == "add" else PASSED, points=c.points,
                    charged_to=setup if c.rubric == "add" else None) for c in cases]
    result = scored(spec, results)
    items = {i.id: i for i in result.items}
    assert not items["add"].counted
    assert result.possible == graded_total(spec) - weights["add"]
    setup_points = sum(c.points for c in cases if c.rubric == setup)
    charges = sum(1 for c in cases if c.rubric == "add")
    assert items[setup].charges == charges
    assert items[setup].earned == pytest.approx(weights[setup] * setup_points / (setup_points + charges), abs=1e-4)
    assert result.earned == pytest.approx(result.possible - weights[setup] + items[setup].earned, abs=1e-4)
    assert_gradescope_adds_up(result)


def test_case_points_weigh_within_an_item(tally, weights):
    spec, _ = tally
    result = scored(spec, [case("end-a", "end", PASSED, points=2), case("end-b", "end", FAILED, points=1)])
    items = {i.id: i for i in result.items}
    assert items["end"].earned == pytest.approx(weights["end"] * 2 / 3, abs=1e-4)
    assert [i.id for i in result.items if i.counted] == ["end"]
    assert result.possible == weights["end"]
    assert_gradescope_adds_up(result)


def test_a_failure_charged_to_another_item_counts_there_once_and_not_where_it_is_filed(tally, weights):
    """One mistake, one deduction (docs/scores.md): a case that failed at a turn another item owns
    leaves its own item's share to the item's other cases and is one failed point of the owner."""
    spec, _ = tally
    cases = [
        case("add-a", "add", PASSED),
        case("add-b", "add", FAILED, charged_to="illegal"),
        case("illegal-a", "illegal", PASSED),
        case("end-a", "end", PASSED, points=2),
        case("prompt", "prompt", PASSED),
        case("setup", "setup", PASSED),
    ]
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    items = {i.id: i for i in result.items}
    assert items["add"].earned == weights["add"] and items["add"].cases_gradable == 1
    assert items["illegal"].earned == pytest.approx(weights["illegal"] / 2) and items["illegal"].charged_failures == 1
    charged = next(c for c in result.cases if c.name == "add-b")
    assert charged.value == pytest.approx(weights["illegal"] / 2) and charged.earned == 0
    assert result.earned == pytest.approx(graded_total(spec) - weights["illegal"] / 2)
    assert_gradescope_adds_up(result)


def test_a_charged_case_whose_other_turns_matched_also_passes_in_its_own_item(tally, weights):
    """A banner before an otherwise right game: the opening's item loses the case's point, and the
    case's own item keeps it, so no item's weight moves onto another's."""
    spec, _ = tally
    cases = [
        case("add-a", "add", FAILED, charged_to="prompt"),
        case("add-b", "add", PASSED),
        case("prompt", "prompt", PASSED),
        case("illegal-a", "illegal", PASSED),
        case("end-a", "end", PASSED),
        case("setup", "setup", PASSED),
    ]
    cases[0].own_passed = True
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    items = {i.id: i for i in result.items}
    assert items["add"].earned == weights["add"] and items["add"].cases_passed == 2
    assert items["prompt"].earned == pytest.approx(weights["prompt"] / 2) and items["prompt"].charged_failures == 1
    both = cases[0]
    assert both.value == pytest.approx(weights["add"] / 2 + weights["prompt"] / 2)
    assert both.earned == pytest.approx(weights["add"] / 2)
    assert result.possible == graded_total(spec)
    assert_gradescope_adds_up(result)


def shown(value: float) -> str:
    """Points as a person reads them: two decimals at most, no trailing zero."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def test_each_case_is_worth_its_item_s_weight_over_the_item_s_cases(tally, weights):
    """An item's weight shared by its five cases, one of which passed: every report says each is
    worth a fifth of it, of the total, and how the item's score was reached."""
    spec, _ = tally
    cases = [case(f"add-{n}", "add", PASSED if n == 0 else FAILED) for n in range(5)]
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    explained = scoring.explain(result)
    each = weights["add"] / 5
    assert result.possible == weights["add"]
    for one in cases:
        assert explained.worth(one).text() == f"worth {shown(each)} of {shown(weights['add'])} points"
        assert explained.worth(one).value == pytest.approx(one.value)
    (item,) = [i for i in result.items if i.id == "add"]
    assert explained.account(item).text() == f"1 of 5 cases passed, each worth {shown(each)}"
    assert item.earned == pytest.approx(each)


def test_a_failure_charged_elsewhere_is_explained_in_both_items(tally, weights):
    spec, _ = tally
    cases = [case("add-a", "add", PASSED), case("add-b", "add", FAILED, charged_to="illegal"),
             case("illegal-a", "illegal", FAILED), case("illegal-b", "illegal", PASSED)]
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    explained = scoring.explain(result)
    total = weights["add"] + weights["illegal"]
    items = {i.id: i for i in result.items}
    share = weights["illegal"] / 3  # two cases of its own and one failure charged to it
    assert explained.account(items["illegal"]).text() == (
        f"1 of 2 cases passed and 1 failure charged here from `add`'s cases, each worth {shown(share)}")
    assert explained.account(items["add"]).text() == (
        f"1 of 1 case passed, worth {shown(weights['add'])}; 1 case counted in `illegal` instead (a failure charged there)")
    assert explained.worth(cases[1]).text() == (
        f"worth {shown(share)} of {shown(total)} points, counted in `illegal` (a failure charged there)")


def test_a_case_counted_in_two_items_gives_each_part(tally, weights):
    """A banner before an otherwise right game: it passes in its own item and is a failed point of
    the opening's; its worth names both."""
    spec, _ = tally
    cases = [case("add-a", "add", FAILED, charged_to="prompt"), case("add-b", "add", PASSED),
             case("prompt", "prompt", PASSED)]
    cases[0].own_passed = True
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    worth = scoring.explain(result).worth(cases[0])
    own, charged = weights["add"] / 2, weights["prompt"] / 2
    assert worth.text() == (f"worth {shown(own + charged)} of {shown(weights['add'] + weights['prompt'])} points: "
                            f"{shown(own)} in `add`, earned and {shown(charged)} in `prompt` (a failure charged there)")
    assert worth.earned == pytest.approx(own) and cases[0].earned == pytest.approx(own)


def test_a_case_that_counts_nowhere_says_why(tally, weights):
    spec, _ = tally
    setup = spec.random_start.rubric
    cases = [case("end-a", "end", PASSED), case("end-b", "end", HARNESS_ERROR),
             case("add-a", "add", UNGRADABLE, charged_to=setup)]
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    explained = scoring.explain(result)
    assert explained.worth(cases[1]).text() == "counts for no points (the harness failed on it)"
    # the start against the rules is one failed point of setup, the only case counted there
    assert explained.worth(cases[2]).text() == (
        f"worth {shown(weights[setup])} of {shown(weights['end'] + weights[setup])} points, counted in `{setup}` "
        "(a start against the rules charged there)")
    items = {i.id: i for i in result.items}
    assert explained.account(items[setup]).text() == f"1 start against the rules charged here, worth {shown(weights[setup])}"
    assert explained.account(items["add"]).text() == "no case could be graded; not counted"


def test_a_case_s_nominal_worth_does_not_depend_on_its_run(tally, weights):
    """What a student's copy says the hidden cases carry: the rubric's split, whatever they did."""
    spec, _ = tally
    runs = [[case("end-a", "end", PASSED, points=2), case("end-b", "end", PASSED, visibility="hidden")],
            [case("end-a", "end", FAILED, points=2), case("end-b", "end", UNGRADABLE, visibility="hidden",
                                                          charged_to=spec.random_start.rubric)]]
    for cases in runs:
        result = scored(spec, cases)
        assert scoring.nominal(result.items, cases) == pytest.approx([weights["end"] * 2 / 3, weights["end"] / 3], abs=1e-4)


def test_an_item_whose_every_case_was_charged_elsewhere_says_so(tally, weights):
    """A derailed game counts only against the item whose turn went wrong: its own item is left out."""
    spec, _ = tally
    cases = [case("end-a", "end", FAILED, charged_to="illegal"), case("illegal-a", "illegal", PASSED)]
    result = scored(spec, cases)
    cases = result.cases  # the scored copies
    explained = scoring.explain(result)
    items = {i.id: i for i in result.items}
    assert not items["end"].counted and result.possible == weights["illegal"]
    assert explained.account(items["end"]).text() == (
        "every case of it failed at another item's turn: 1 case counted in `illegal` instead (a failure charged there); "
        "not counted")
    assert explained.worth(cases[0]).text() == (
        f"worth {shown(weights['illegal'] / 2)} of {shown(weights['illegal'])} points, counted in `illegal` "
        "(a failure charged there)")


def test_scoring_returns_scores_and_leaves_the_results_it_reads_alone(tally):
    """Scoring returns scored copies: the case results handed in keep their own (unscored) value."""
    spec, _ = tally
    cases = [case("add-a", "add", PASSED), case("illegal-a", "illegal", FAILED)]
    before = [dataclasses.asdict(c) for c in cases]
    scores = scoring.score(spec, spec.items(None), cases)
    assert [dataclasses.asdict(c) for c in cases] == before
    weights = {item.id: item.points for item in spec.rubric}
    assert [c.value for c in scores.cases] == [weights["add"], weights["illegal"]]
    assert [c.earned for c in scores.cases] == [weights["add"], 0]
