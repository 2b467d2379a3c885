"""The audit's charging precision: each mutant stands for one graded item and, graded as a
submission, should lose that item and only it. Real runs: known mutants of the fixture game's
reference graded by the harness's own Grader; what each loses is derived from the fixture's
rules (tests/fixture/README.md) and its cases and owners."""
from pathlib import Path

import pytest

from harness.suite import audit, audit_report, mutants
from harness.suite.audit_results import MutantResult, MutantStatus
from harness.suite.audit_run import choose, own_item
from harness.loading import cases as caseload
from harness.loading import spec as specs

FIXTURE = Path(__file__).resolve().parent / "fixture"
TALLY = FIXTURE / "specs" / "tally" / "tally.py"


def _mutant(function: str, operator: str, description: str) -> mutants.Mutant:
    found = [m for m in mutants.generate(TALLY.read_text(encoding="utf-8"), TALLY.name)
             if m.function == function and m.operator == operator and m.description.startswith(description)]
    assert len(found) == 1, found
    return found[0]


def test_a_mutant_stands_for_the_item_whose_cases_make_up_its_reach():
    """Read from the reach alone: the item the largest share of whose cases reach it, then the one
    with the largest share of the reaching cases, then the rubric's order."""
    by_item = {"a": ["a1", "a2"], "b": ["b1"], "c": ["c1", "c2", "c3"]}
    reach = {"a1": {1, 2}, "a2": {1, 2}, "b1": {1, 3, 6}, "c1": {1, 4, 6}, "c2": {1, 4, 6}, "c3": {1}}
    made = {n: mutants.Mutant(f"m.py:{n}:1:stmt-del", "m.py", n, 1, n, "stmt-del", f"line {n} deleted", "f", "", "")
            for n in (1, 2, 3, 4, 5, 6)}
    assert own_item(made[2], reach, by_item) == "a"  # only a's cases run line 2
    assert own_item(made[3], reach, by_item) == "b"
    assert own_item(made[4], reach, by_item) == "c"  # c's two of the two reaching cases
    assert own_item(made[1], reach, by_item) == "c"  # shared code: c has the most reaching cases
    assert own_item(made[5], reach, by_item) is None  # no case runs it
    assert own_item(made[6], reach, by_item) == "b"  # all of b's cases, two of c's three


@pytest.fixture(scope="module")
def precision_audit():
    spec, _ = specs.parse_game("tally", FIXTURE)
    found = caseload.load_all(spec)
    # no refusal printed where the handout asks for one: the illegal item's own code (only the cases that
    # type a refused line run it: illegal's two and end-cycle, whose refused line the spec's owners give to illegal)
    silent = _mutant("play", "stmt-del", "line 75 deleted: `print(\"Illegal!\")`")
    # the turn counter never counts: its line runs in every case that adds, the add item's first in the
    # rubric among the items all of whose cases run it; only the end's cases see the count
    uncounted = _mutant("play", "stmt-del", "line 78 deleted: `turns += 1`")
    report = audit.audit(spec, [None], found, audit.AuditOptions(only=(silent.id, uncounted.id), search=0))
    return report, silent, uncounted


@pytest.mark.slow
def test_each_killed_mutant_says_which_items_it_loses(precision_audit):
    report, silent, uncounted = precision_audit
    results = {r.mutant.id: r for r in report.results}
    assert results[silent.id].status is MutantStatus.KILLED
    assert (results[silent.id].drawn_for, results[silent.id].lost, results[silent.id].collateral) == \
        ("illegal", ["illegal"], [])
    assert results[uncounted.id].status is MutantStatus.KILLED
    assert (results[uncounted.id].drawn_for, results[uncounted.id].lost, results[uncounted.id].collateral) == \
        ("add", ["end"], ["end"])


@pytest.mark.slow
def test_recall_and_collateral_per_item_and_for_the_game(precision_audit):
    report, silent, uncounted = precision_audit
    items = {i.id: i for i in report.items}
    assert (items["illegal"].drawn, items["illegal"].drawn_killed, items["illegal"].recall,
            items["illegal"].collateral) == (1, 1, 1.0, 0.0)
    assert (items["add"].drawn, items["add"].drawn_killed, items["add"].recall, items["add"].collateral) == \
        (1, 1, 0.0, 1.0)
    assert items["end"].drawn == 0 and items["end"].recall is None  # nothing drawn for it: no rate
    assert (report.recall, report.collateral) == (0.5, 0.5)
    assert [r.mutant.id for r in report.spilling()] == [uncounted.id]
    assert [r.mutant.id for r in report.missing()] == [uncounted.id]


@pytest.mark.slow
def test_the_terminal_and_the_page_print_the_rates_and_the_worst_mutants_with_their_diff(precision_audit, tmp_path):
    report, silent, uncounted = precision_audit
    text = audit_report.text(report)
    rows = {line.split()[0]: line.split()[1:] for line in audit_report.precision_lines(report)[1:]}
    assert rows["illegal"] == ["1", "1", "100%", "0%"]
    assert rows["add"] == ["1", "1", "0%", "100%"]
    assert rows["total"][:4] == ["2", "2", "50%", "50%"] and "below target" in text
    spill = text.index("lose another item than their own (1")
    assert uncounted.id in text[spill:] and "-        turns += 1" in text[spill:]
    assert "drawn for add; loses end" in text[spill:]
    page = audit_report.write(report, tmp_path)["html"].read_text(encoding="utf-8")
    assert 'id="precision"' in page and 'id="collateral"' in page and uncounted.id in page
    assert "<td>add</td><td>end</td>" in page  # the mutant table: drawn for, items lost


def test_a_sample_draws_each_mutant_with_the_item_it_stands_for():
    made = mutants.generate(TALLY.read_text(encoding="utf-8"), TALLY.name)
    by_item = {"a": ["c1"], "b": ["c2"]}
    reach = {"c1": set(made[0].lines), "c2": set()}
    drawn = choose(made, reach, by_item, 3, 0)
    assert len(drawn) == 3 and drawn == choose(made, reach, by_item, 3, 0)
    for mutant, item in drawn:
        assert item == own_item(mutant, reach, by_item)


def test_collateral_is_counted_within_the_mutants_milestone():
    """Reversi's milestones are two deliverables: a bug in code both run costs each once, which is
    no collateral; another item of the same milestone is."""
    reversi, _ = specs.parse_game("reversi", Path(__file__).resolve().parent.parent)
    made = mutants.Mutant("r.py:1:1:stmt-del", "r.py", 1, 1, 1, "stmt-del", "line 1 deleted", "f", "", "")
    both = MutantResult(made, MutantStatus.KILLED, drawn_for="ms1-validity", lost=["ms1-validity", "ms2-ms1-features"])
    spill = MutantResult(made, MutantStatus.KILLED, drawn_for="ms1-validity", lost=["ms1-validity", "ms1-capture"])
    items = {i.id: i for i in audit._items(reversi, ["ms1", "ms2"], [], [both, spill])}
    assert both.collateral == [] and spill.collateral == ["ms1-capture"]
    assert (items["ms1-validity"].drawn_killed, items["ms1-validity"].recalled, items["ms1-validity"].spilled) == (2, 2, 1)
