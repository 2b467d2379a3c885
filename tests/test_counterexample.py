"""A student's own counterexample (harness/counterexample, docs/counterexample.md): real runs of the
fixture game's samples and of a course game's seeded-bug Python sample. Each counterexample is
checked as the issue asks: found, one-minimal (a verifier leaves out each line and makes each
choice simpler, on fresh runs), replays three times of three, never a hidden case; and none is
found for a correct program or one in a style the handout allows."""
import dataclasses
import json
import random

import pytest

from harness.building import build as builder
from harness.building import reference
from harness.counterexample import make, menu, replay, search, secrecy, shrink
from harness.counterexample.trial import Games
from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.results import Visibility
from tests.helpers import FIXTURE, ROOT

SAMPLES = FIXTURE / "examples" / "tally"
SMALL = search.Options(search=10)  # a correct program's search runs to its end: kept short here


def _tally():
    spec, milestone = specs.parse_game("tally", FIXTURE)
    return reference.prepared(spec), caseload.load_all(spec, milestone)


def _found(spec, cases, sample, failing=(), options=search.Options()):
    return make.counterexample(spec, cases, sample, str(sample), failing, options=options)


def _verified(spec, cases, sample, found) -> list[str]:
    """What is wrong with a counterexample, on fresh runs: an empty list when it holds. It must
    differ at its last line's turn on three runs of three, no game one step simpler may differ
    (one line left out, or one replaced by a simpler line of the menu), and it is no hidden case."""
    problems = []
    hidden = secrecy.hidden_games(cases)
    if secrecy.reveals(found.inputs, hidden):
        problems.append("it shows a hidden case")
    lines = menu.build(caseload.load_all(spec, None, public_only=True), found.context.target)  # every milestone's
    made = builder.build(sample, spec, found.context.target)
    try:
        games = Games(spec, made)
        for _ in range(3):
            again = games.trial(found.context, found.inputs, fresh=True)
            if not again.differs or again.turn != found.turn:
                problems.append(f"a replay does not differ at turn {found.turn}: {again}")
        for simpler in shrink.witnesses(found.inputs, lines):
            if not secrecy.reveals(simpler, hidden) and games.trial(found.context, simpler, fresh=True).differs:
                problems.append(f"a simpler game still differs: {simpler}")
    finally:
        builder.cleanup(made)
    return problems


@pytest.fixture(scope="module")
def tally_adds_one():
    """bug-add's counterexample, with the fixture's spec and cases."""
    spec, cases = _tally()
    return spec, cases, _found(spec, cases, SAMPLES / "bug-add", ("add-two", "add-three-then-one"))


def test_a_program_that_adds_one_gets_the_one_line_game_that_adds_two(tally_adds_one):
    """bug-add adds 1 whatever legal number is typed: a game differs only once it types 2 or 3,
    and the one-minimal such game is the single line 2 (1 adds 1 either way; 0 is refused by both).
    The turn after it shows the reference's tally and the program's, from the start it drew."""
    spec, cases, found = tally_adds_one
    assert found is not None
    assert found.inputs == ("2",) and found.turn == 1 and not found.partly_shrunk
    start = int(found.start)
    assert found.expected == f"Now {start + 2}\nAdd? " and found.actual == f"Now {start + 1}\nAdd? "
    assert 0 < found.runs <= search.SEARCH_GAMES + shrink.BUDGET + search.REPLAYS


def test_the_counterexample_is_one_minimal_replays_and_is_no_hidden_case(tally_adds_one):
    spec, cases, found = tally_adds_one
    assert _verified(spec, cases, SAMPLES / "bug-add", found) == []


def test_a_program_that_takes_any_number_is_shown_the_simplest_refused_line():
    """bug-illegal takes any whole number: the simplest line of the menu the handout refuses is 0
    (the menu is the public cases' lines, simplest first), and one line of it is the game."""
    spec, cases = _tally()
    found = _found(spec, cases, SAMPLES / "bug-illegal", ("illegal-word-and-five",))
    assert found is not None and found.inputs == ("0",) and found.turn == 1
    assert found.expected == "Illegal!\nAdd? " and found.actual == f"Now {int(found.start)}\nAdd? "
    assert _verified(spec, cases, SAMPLES / "bug-illegal", found) == []


@pytest.mark.parametrize("sample", ["correct", "variant-wording"])
def test_no_counterexample_for_a_correct_program_nor_a_style_the_handout_allows(sample):
    """`correct` is the game; `variant-wording` refuses in its own words, which the spec's message
    class accepts: judged as grading judges, neither ever differs."""
    spec, cases = _tally()
    assert _found(spec, cases, SAMPLES / sample, options=SMALL) is None


def test_a_game_that_would_show_a_hidden_case_is_never_shown():
    """With add-two (typing 2) hidden, the one-line game 2 is that hidden case: the counterexample
    is another game, still one-minimal among the games that may be shown."""
    spec, cases = _tally()
    cases = [dataclasses.replace(c, visibility=Visibility.HIDDEN) if c.name == "add-two" else c for c in cases]
    found = _found(spec, cases, SAMPLES / "bug-add", ("add-three-then-one",))
    assert found is not None and found.inputs != ("2",)
    assert not secrecy.reveals(found.inputs, [("2",)])
    assert _verified(spec, cases, SAMPLES / "bug-add", found) == []


def test_past_its_budget_the_shrink_shows_the_best_game_so_far_marked_partly_shrunk():
    """With two runs to shrink, the failing public case's game (3 then 1) is cut after its first
    differing turn and the shrink stops there: still a game that differs on every replay."""
    spec, cases = _tally()
    found = _found(spec, cases, SAMPLES / "bug-add", ("add-three-then-one",), search.Options(shrink=2))
    assert found is not None and found.partly_shrunk
    assert found.inputs == ("3",) and found.turn == 1


@pytest.mark.slow
def test_a_small_menu_is_searched_whole_to_three_lines_and_the_shortest_game_found(tally_project):
    """With only add-two (2) and illegal-out-of-range (0 4 1) public, the menu is 0 1 2 4: four
    lines, so every game of three lines is tried first, and bug-add's shortest game, the one line
    2, is found as such."""
    for path in (tally_project / "cases" / "tally").glob("*.yaml"):
        if path.stem not in ("add-two", "illegal-out-of-range", "illegal-word-and-five"):
            path.unlink()
    spec, milestone = specs.parse_game("tally", tally_project)
    spec = reference.prepared(spec)
    cases = caseload.load_all(spec, milestone)
    assert menu.build(cases, "game") == ("0", "1", "2", "4")
    sample = tally_project / "examples" / "tally" / "bug-add"
    found = _found(spec, cases, sample, ("add-two",))
    assert found is not None and found.exhaustive and found.inputs == ("2",) and found.turn == 1


def test_what_shows_a_hidden_case():
    """Equal to one, holding one whole at its start, or a prefix of more than half of its lines."""
    hidden = [("a", "b", "c", "d")]
    assert secrecy.reveals(("a", "b", "c", "d"), hidden)
    assert secrecy.reveals(("a", "b", "c", "d", "e"), hidden)
    assert secrecy.reveals(("a", "b", "c"), hidden)  # 3 of 4 lines
    assert not secrecy.reveals(("a", "b"), hidden)  # half: not more than half
    assert not secrecy.reveals(("b", "c", "d"), hidden)
    assert secrecy.reveals((), [()])


def test_the_search_is_seeded_by_the_sources():
    """The same sources draw the same games; other sources, other games."""
    spec, cases = _tally()
    spaces = search.contexts(cases)
    menus = {"game": menu.build(cases, "game")}

    def games(sample):
        rng = random.Random(search.seed_of(SAMPLES / sample, "tally"))
        return list(search.drawn_games(rng, spaces, cases, menus, 20))

    assert games("bug-add") == games("bug-add")
    assert games("bug-add") != games("bug-illegal")


def test_the_menu_is_the_public_cases_lines_simplest_first():
    """Tally's public cases type 3 1 / 2 / 1 x (a strategy's moves) / 0 4 1 / 1 1: the hidden case's
    `two` is not in it."""
    _, cases = _tally()
    assert menu.build(cases, "game") == ("0", "1", "2", "3", "4", "x")


def test_check_shows_the_game_side_by_side_and_replays_it(harness_cli, tmp_path):
    """`harness check --counterexample` prints the lines typed, the turn side by side and the
    replay command; the command replays it (exit 1: still differs), and on the correct program
    the same game agrees (exit 0); the HTML report's failing case has the panel."""
    env = {"HARNESS_ROOT": str(FIXTURE)}
    done = harness_cli("check", "tally", SAMPLES / "bug-illegal", "--counterexample", "-o", tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert "Your own game" in out and "typed: '0'" in out and "! Illegal!" in out
    command = next(line.split("replay it: ", 1)[1] for line in out.splitlines() if "replay it: " in line)
    value = json.loads(command.split("--replay ", 1)[1].strip("'"))
    assert value["lines"] == ["0"]
    again = harness_cli("check", "tally", SAMPLES / "bug-illegal", "--replay", json.dumps(value), env=env)
    assert again.returncode == 1 and "still part ways" in again.stdout
    fixed = harness_cli("check", "tally", SAMPLES / "correct", "--replay", json.dumps(value), env=env)
    assert fixed.returncode == 0 and "agree" in fixed.stdout
    page = (tmp_path / "check-tally" / "report.html").read_text(encoding="utf-8")
    assert 'id="your-own-game"' in page and "Illegal!" in page


def test_a_replay_value_that_is_not_one_is_refused_with_the_fix(harness_cli):
    done = harness_cli("check", "tally", SAMPLES / "correct", "--replay", "[1, 2", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2 and "--replay" in done.stderr and "Traceback" not in done.stderr


def test_the_replay_value_reads_back_as_the_same_game():
    spec, cases = _tally()
    context = search.contexts(cases)[0]
    read, lines = replay.decode(replay.encode(context, ("2", "x")), spec, None)
    assert lines == ("2", "x")
    assert dataclasses.replace(read, case=context.case) == context


@pytest.mark.slow
def test_a_course_game_python_bug_gets_a_one_minimal_game():
    """Reversi's bug-no-illegal-message (Python) refuses an illegal move without the handout's
    `Not a legal move!`. The game asks a row, then a column, and judges the move once both are
    typed, so no one-line game differs; the simplest line of the menu (every milestone's public
    lines, simplest first) is 0, an illegal row: the game is 0, 0, differing at its second turn."""
    spec, milestone = specs.parse_game("reversi", ROOT)
    spec = reference.prepared(spec)
    cases = caseload.load_all(spec, milestone)
    sample = ROOT / "examples" / "reversi" / "bug-no-illegal-message"
    found = _found(spec, cases, sample, ("ms2-illegal-column-g",))
    assert found is not None and found.inputs == ("0", "0") and found.turn == 2
    assert found.expected.startswith("Not a legal move!") and "Not a legal move" not in found.actual
    assert _verified(spec, cases, sample, found) == []
