"""One mistake, one deduction, by cause, on the fixture game (tests/fixture): a difference that
shows at a later turn is charged to the item owning the earlier input it needs (found by
replaying the case without it, program and reference alike), and an exit status belongs to the
turn that ended the program, so a case of another item whose own turns all matched keeps its
points.

Real runs of the fixture's reference and of small Python programs written here. Two copies of
the project are edited: one where the end case is handed its seed (`seed_args`), so that a
replay is the same game as the case (a program that draws its own start is never replayed), and
one with a copy of the end case filed under `add`. Every expected number follows from the fixture's spec (weights) and cases (points).
"""
import dataclasses

import pytest

from harness.judging import charging
from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.outcome import End
from harness.results import FAILED, PASSED
from tests.helpers import FIXTURE, copy_project

# Tally as the fixture's correct sample plays it, with a seed handed on the command line (the
# reference's --seed: random.Random(N).randint(1, 5)) and each seeded bug in one line.
PROGRAM = '''\
import random
import sys

GOAL = 10


def main():
    seed = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--seed" else None
    total = random.Random(seed).randint(1, 5)
    print("Start:", total)
    turns = 0
    while total < GOAL:
        line = input("Add? ")
        try:
            k = int(line.strip())
        except ValueError:
            k = None
        if k is None or k < 1 or k > 3:
            print("Illegal!")
            REFUSED
            continue
        total += k
        turns += 1
        print("Now", total)
    print("Done in", turns, "turns")
    END


main()
'''


def _program(folder, refused="pass", end="pass"):
    folder.mkdir(parents=True)
    (folder / "tally.py").write_text(PROGRAM.replace("REFUSED", refused).replace("END", end), encoding="utf-8")
    return folder


@pytest.fixture
def seeded_end(tmp_path):
    """The fixture with its end-cycle case handed its seed: the program's start is the case's, so a
    replay of the case without its refused lines is the same game."""
    root = copy_project(FIXTURE, tmp_path / "project", games=["tally"])
    spec_file = root / "specs" / "tally" / "spec.yaml"
    text = spec_file.read_text(encoding="utf-8")
    assert "    title: The tally program\n" in text
    spec_file.write_text(text.replace("    title: The tally program\n",
                                      "    title: The tally program\n    seed_args: ['--seed', '{seed}']\n"),
                         encoding="utf-8")
    case_file = root / "cases" / "tally" / "end-cycle.yaml"
    case_file.write_text("seed: 1\n" + case_file.read_text(encoding="utf-8"), encoding="utf-8")
    spec, milestone = specs.parse_game("tally", root)
    return spec, caseload.load_all(spec, milestone)


def _weights(spec):
    return {item.id: item.points for item in spec.rubric if item.graded}


def _points(cases, item):
    return sum(c.points for c in cases if c.rubric == item)


def test_a_refusal_whose_damage_shows_at_the_end_is_charged_to_the_refusal(seeded_end, grader, tmp_path):
    """Counting a refused line as a turn shows only in `Done in N turns`, the end's turn of the one
    end case that types refused lines; replayed without them (the reference refused them anyway)
    the count is right, so the refusal is the cause: `illegal` loses that case, `end` keeps it."""
    spec, cases = seeded_end
    cycle = next(c for c in cases if c.name == "end-cycle")
    assert cycle.rubric == "end" and "x" in [e["in"] for e in cycle.expected_events if "in" in e]
    result = grader.grade(spec, None, cases, _program(tmp_path / "counted", refused="turns += 1"))

    by_name = {c.name: c for c in result.cases}
    failed = {c.name for c in result.cases if c.status != PASSED}
    assert failed == {"end-cycle"}, {c.name: c.reason for c in result.cases}
    charged = by_name["end-cycle"]
    assert (charged.charged_to, charged.own_passed) == ("illegal", True), charged.reason
    assert "charged to `illegal`" in charged.reason and "replayed without" in charged.reason
    weights = _weights(spec)
    items = {i.id: i for i in result.items}
    assert items["end"].earned == pytest.approx(weights["end"])
    own = _points(cases, "illegal")  # illegal's own cases, all passed, and one charged unit
    assert items["illegal"].earned == pytest.approx(weights["illegal"] * own / (own + 1), abs=1e-4)
    assert result.earned == pytest.approx(sum(weights.values()) - weights["illegal"] / (own + 1), abs=1e-3)


def test_a_difference_the_refusals_do_not_cause_stays_where_it_shows(seeded_end, grader, tmp_path):
    """Printing `Done in` with one turn too many whatever was typed: replayed without the refused
    lines it still differs there, so the end case fails in `end`, and `illegal` keeps everything."""
    spec, cases = seeded_end
    program = _program(tmp_path / "off-by-one", end="")
    (program / "tally.py").write_text((program / "tally.py").read_text(encoding="utf-8").replace(
        'print("Done in", turns, "turns")', 'print("Done in", turns + 1, "turns")'), encoding="utf-8")
    result = grader.grade(spec, None, cases, program)

    cycle = next(c for c in result.cases if c.name == "end-cycle")
    assert cycle.status == FAILED and cycle.charged_to is None, cycle.reason
    assert any("still differs" in note for note in cycle.notes), cycle.notes
    items = {i.id: i for i in result.items}
    assert items["illegal"].earned == pytest.approx(_weights(spec)["illegal"])
    assert items["end"].earned == 0


def test_a_wrong_exit_status_costs_the_item_owning_the_last_turn_only(tmp_path, grader):
    """A program that exits with status 1 after `Done in`: every case that plays to the goal fails
    on its end alone, and the exit belongs to the turn that ended the program, the end's: the case
    of `add` that plays to the goal is charged to `end` and still passes in `add`."""
    root = copy_project(FIXTURE, tmp_path / "project", games=["tally"])
    goal = root / "cases" / "tally" / "add-to-goal.yaml"
    source = (root / "cases" / "tally" / "end-ones.yaml").read_text(encoding="utf-8")
    # end-ones types 1 until the goal from the reference's start (2): the same transcript, filed under add
    goal.write_text(source.replace("rubric: end", "rubric: add", 1).replace(
        "description: ", "description: (filed under add) ", 1), encoding="utf-8")
    spec, milestone = specs.parse_game("tally", root)
    cases = caseload.load_all(spec, milestone)
    reaching = {c.name for c in cases if c.expected_end == End.exited(0)}
    assert reaching == {"add-to-goal", "end-cycle", "end-ones"}

    result = grader.grade(spec, None, cases, _program(tmp_path / "exit-1", end="sys.exit(1)"))

    by_name = {c.name: c for c in result.cases}
    assert {c.name for c in result.cases if c.status != PASSED} == reaching, {c.name: c.reason for c in result.cases}
    goal_case = by_name["add-to-goal"]
    assert (goal_case.charged_to, goal_case.own_passed) == ("end", True), goal_case.reason
    weights = _weights(spec)
    items = {i.id: i for i in result.items}
    adds = sum(1 for c in cases if c.rubric == "add")
    assert (items["add"].cases_gradable, items["add"].cases_passed) == (adds, adds)  # the charged one too
    assert items["add"].earned == pytest.approx(weights["add"])
    assert items["end"].earned == 0  # its own cases and the charged one all fail on the exit
    assert result.earned == pytest.approx(sum(weights.values()) - weights["end"], abs=1e-3)


# --- the decision alone, from transcripts ---------------------------------------------------

def test_without_leaves_out_each_dropped_line_and_its_answer():
    events = [{"out": "Start: 2\nAdd? "}, {"in": "1"}, {"out": "Now 3\nAdd? "}, {"in": "x"},
              {"out": "Illegal!\nAdd? "}, {"in": "1"}, {"out": "Now 4\nAdd? "}]
    assert charging.without(events, (1,)) == [{"out": "Start: 2\nAdd? "}, {"in": "1"}, {"out": "Now 3\nAdd? "},
                                              {"in": "1"}, {"out": "Now 4\nAdd? "}]


def test_the_first_legal_replay_that_removes_the_difference_names_the_cause():
    first = charging.Drop("illegal", "the refused line", (1, 3), 6)
    second = charging.Drop("prompt", "the prompt", (4,), 6)
    original = charging.Charge("end", 6, "the end")
    no_evidence = charging.ReplayOutcome(first, legal=False, gone=True, passed=True)
    still = charging.ReplayOutcome(first, legal=True, gone=False, passed=False)
    cause = charging.ReplayOutcome(second, legal=True, gone=True, passed=False)
    assert charging.by_replays(original, "add", [no_evidence]) == original
    assert charging.by_replays(original, "add", [still]) == original
    found = charging.by_replays(original, "add", [still, cause])
    assert (found.item, found.turn, found.own_passed, found.replayed) == ("prompt", 5, False, True)
    # the cause is the case's own item's input: a plain failure where it is filed
    assert charging.by_replays(original, "prompt", [cause]) is None


def _tally_views():
    spec, _ = specs.parse_game("tally", FIXTURE)
    from harness.grading.submission import state_reader
    from harness.judging import compare

    def whole(item):
        return compare.View(spec.policy(item, None).replace({"turns": "all", "from": None}), spec.messages,
                            state_reader(spec))
    return spec, whole, compare


EXPECTED = [{"out": "Start: 2\nAdd? "}, {"in": "1"}, {"out": "Now 3\nAdd? "}, {"in": "x"},
            {"out": "Illegal!\nAdd? "}, {"in": "1"}, {"out": "Now 4\nAdd? "}, {"in": "x"},
            {"out": "Illegal!\nAdd? "}, {"in": "1"}, {"out": "Now 5\nAdd? "}]


@pytest.mark.parametrize("last, own_passed", [("Now 5\nAdd? ", True), ("Now 6\nAdd? ", False)])
def test_a_charged_case_passes_where_it_is_filed_only_if_its_own_turns_matched(last, own_passed):
    """An `add` case whose two refused lines get no message is charged to `illegal` (the first
    refusal's turn); it also passes in `add` when its own turns matched, the second silent refusal
    being `illegal`'s too, but not when an addition of its own differs as well."""
    spec, whole, compare = _tally_views()
    actual = [dict(e) for e in EXPECTED]
    actual[4] = actual[8] = {"out": "Add? "}
    actual[10] = {"out": last}
    waiting = End.parse("waiting")
    view = whole("add")
    comparison = compare.compare(EXPECTED, waiting, actual, waiting, view)
    assert not comparison.passed
    found = charging.charge(spec.owners, "add", comparison, EXPECTED, waiting, lambda v: actual, waiting, whole)
    assert (found.item, found.turn, found.own_passed) == ("illegal", 2, own_passed)


def test_only_refused_lines_are_left_out_of_a_replay():
    """The fixture's `illegal` rule marks its refusals `refused: true`; a move (here `add`'s own, no
    rule) or a rule without the mark never is: a game without a line that changes it is another."""
    spec, _, _ = _tally_views()
    (drop,) = charging.drops(spec.owners, "end", EXPECTED, 5)
    assert (drop.item, drop.inputs, drop.turn) == ("illegal", (1, 3), 2)
    unmarked = tuple(dataclasses.replace(rule, refused=False) for rule in spec.owners)
    assert charging.drops(unmarked, "end", EXPECTED, 5) == []
