"""One mistake, one deduction, by cause, on real runs of the games' seeded-bug samples.

- A report's lines (an owner rule's `lines`): at Silver Dollar's winner turn `end` owns the winner
  line alone, and the board after the last move stays the move's. `bug-strip-shrinks` (boards
  shorter once the last coin has moved) is then charged to `moves` wherever the short board first
  shows, before the end or at it: the same charge on any board drawn, and `end` keeps its points.
- A case charged at a line that changes the game (a method's call) is another game after it: its
  own turns there are not judged, so it keeps its own turns that matched and counts, passed, in
  its own item (Flip's `bug-switch-drops-unflippable`: the play and take cases that switch on
  their way).

Every expected number follows from the spec's weights, the cases' points and the samples'
expected.yaml.
"""
import shutil

import pytest
import yaml

from harness.errors import InputError
from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.results import FAILED, PASSED
from tests.helpers import FIXTURE, ROOT


def _game(name):
    spec, milestone = specs.parse_game(name, ROOT)
    return spec, caseload.load_all(spec, milestone)


def _expected_fails(game, sample):
    data = yaml.safe_load((ROOT / "examples" / game / "expected.yaml").read_text(encoding="utf-8"))
    return set(data["samples"][sample]["fails"])


def _weights(spec):
    return {item.id: item.points for item in spec.rubric if item.graded}


def _verdicts(result):
    return {c.name: (c.status, c.charged_to, c.own_passed) for c in result.cases}


@pytest.mark.parametrize("value, says", [
    ("'(?=x)Illegal'", "owners[0].lines is not a pattern RE2 can run"),
    ("['Illegal']", "owners/0/lines: ['Illegal'] is not of type 'string'"),
])
def test_a_lines_rule_re2_cannot_run_is_refused_at_its_line(tmp_path, value, says):
    """A rule's `lines` is an RE2 pattern like `typed` and `shows`: one that RE2 cannot run, or
    that is no text, stops the spec's loading with the file and the line."""
    shutil.copytree(FIXTURE / "specs", tmp_path / "specs")
    (tmp_path / "cases").mkdir()
    path = tmp_path / "specs" / "tally" / "spec.yaml"
    line = """  - {item: illegal, what: "the refused line", shows: 'Illegal!', refused: true}"""
    text = path.read_text(encoding="utf-8")
    assert line in text
    changed = line.replace("refused: true}", f"refused: true, lines: {value}}}")
    path.write_text(text.replace(line, changed, 1), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        specs.load("tally", tmp_path)
    assert str(refused.value).startswith(f"{path}:{path.read_text(encoding='utf-8').splitlines().index(changed) + 1}")
    assert says in str(refused.value)


@pytest.mark.slow
def test_a_short_board_after_the_last_move_is_charged_to_moves_on_any_board(grader):
    """The end cases that score their whole last turn fail (expected.yaml's list), each charged to
    `moves` whether the short board first shows at a move before the end or only at the winner's
    turn (which depends on the board drawn), and each passes in `end`: the winner is right. So
    `end` keeps its weight, `moves` loses one unit a case, and two gradings agree to the case."""
    spec, cases = _game("silver-dollar")
    chosen = [c for c in cases if c.rubric in ("moves", "end")]
    program = ROOT / "examples" / "silver-dollar" / "bug-strip-shrinks"
    failing = _expected_fails("silver-dollar", "bug-strip-shrinks")
    first = grader.grade(spec, None, chosen, program)

    by_name = {c.name: c for c in first.cases}
    assert {c.name for c in first.cases if c.status != PASSED} == failing, {c.name: c.reason for c in first.cases}
    for name in failing:
        case = by_name[name]
        assert (case.status, case.rubric, case.charged_to, case.own_passed) == (FAILED, "end", "moves", True), case.reason
        assert "charged to `moves`" in case.reason
    weights = _weights(spec)
    items = {i.id: i for i in first.items}
    assert items["end"].earned == pytest.approx(weights["end"])
    own = sum(c.points for c in chosen if c.rubric == "moves")
    assert items["moves"].earned == pytest.approx(weights["moves"] * own / (own + len(failing)), abs=1e-3)

    again = grader.grade(spec, None, chosen, program)
    assert _verdicts(again) == _verdicts(first)
    assert again.earned == first.earned


@pytest.mark.slow
def test_a_case_charged_at_a_call_keeps_its_own_item(grader):
    """switchPlayers drops the unflippable dice: the play and take cases that switch on their way
    fail at the switch, charged to `switch-players`; their own calls after it play another game
    and are not judged, so each also passes where it is filed and every play and take case counts
    there (none is left out of its item for another item's mistake)."""
    spec, cases = _game("flip")
    chosen = [c for c in cases if c.rubric in ("play", "take", "switch-players") and c.target == "api"]
    result = grader.grade(spec, None, chosen, ROOT / "examples" / "flip" / "bug-switch-drops-unflippable")

    charged = [c for c in result.cases if c.status == FAILED and c.rubric in ("play", "take")]
    assert charged, {c.name: c.reason for c in result.cases}
    for case in charged:
        assert (case.charged_to, case.own_passed) == ("switch-players", True), case.reason
    weights = _weights(spec)
    items = {i.id: i for i in result.items}
    for item in ("play", "take"):
        own = [c for c in chosen if c.rubric == item]
        assert (items[item].cases_gradable, items[item].cases_passed) == (len(own), len(own))
        assert items[item].earned == pytest.approx(weights[item])
    switches = [c for c in chosen if c.rubric == "switch-players"]
    lost = [c for c in result.cases if c.rubric == "switch-players" and c.status == FAILED]
    units = sum(c.points for c in switches) + len(charged)
    passed = sum(c.points for c in switches if c.name not in {x.name for x in lost})
    assert items["switch-players"].earned == pytest.approx(weights["switch-players"] * passed / units, abs=1e-3)


def _count_misses_slash(folder):
    """Connect's correct Python sample whose count line (not its win check) leaves out the `/`
    direction: the count a person reads is wrong after a `/` line, every game is right."""
    source = (ROOT / "examples" / "connect" / "correct-python" / "connect.py").read_text(encoding="utf-8")
    shown = ("    def shown_longest(self, piece):\n        longest = 0\n        for r in range(self.size):\n"
             "            for c in range(self.size):\n                for dr, dc in [(0, 1), (1, 0), (1, 1)]:\n"
             "                    longest = max(longest, self.count(r, c, dr, dc, piece))\n        return longest\n\n"
             "    def is_board_full(self):\n")
    assert source.count("    def is_board_full(self):\n") == 1
    assert source.count("board.get_longest_connect(player.piece)))") == 1
    source = source.replace("    def is_board_full(self):\n", shown).replace(
        "board.get_longest_connect(player.piece)))", "board.shown_longest(player.piece)))")
    folder.mkdir()
    (folder / "connect.py").write_text(source, encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_wrong_count_beside_a_right_game_is_the_count_lines_item(grader, tmp_path):
    """The count line is `drop`'s report (spec.yaml's `lines: '^counts:'` rule): a count that
    misses the `/` direction fails the cases that compare counts after a `/` line, a `win` case
    among them (`win-count-slash`), and each is charged to `drop` and passes where it is filed,
    since without the count lines it passes. `win` keeps its weight; `drop` loses one unit for
    each case of another item and its own cases that fail."""
    spec, cases = _game("connect")
    chosen = [c for c in cases if c.rubric in ("drop", "win")]
    result = grader.grade(spec, None, chosen, _count_misses_slash(tmp_path / "count-misses-slash"))

    failed = [c for c in result.cases if c.status == FAILED]
    assert "win-count-slash" in {c.name for c in failed}, {c.name: c.reason for c in result.cases}
    for case in failed:
        if case.rubric != "drop":
            assert (case.charged_to, case.own_passed) == ("drop", True), case.reason
            assert "charged to `drop`: the count line" in case.reason
    weights = _weights(spec)
    items = {i.id: i for i in result.items}
    assert items["win"].earned == pytest.approx(weights["win"])
    own = sum(c.points for c in chosen if c.rubric == "drop")
    own_failed = sum(c.points for c in failed if c.rubric == "drop")
    charged = sum(1 for c in failed if c.rubric != "drop")
    assert items["drop"].earned == pytest.approx(weights["drop"] * (own - own_failed) / (own + charged), abs=1e-3)


def _one_piece_per_direction(folder):
    """Reversi's correct Python sample whose capture turns only the first of the opponent's pieces
    in each direction: every move that should turn two or more in a line leaves a wrong board."""
    source = (ROOT / "examples" / "reversi" / "correct-python" / "reversi.py").read_text(encoding="utf-8")
    flip = "        if mode == CAPTURE:\n            board[y][x] = player"
    assert source.count(flip) == 1
    folder.mkdir()
    (folder / "reversi.py").write_text(source.replace(flip, flip.replace("CAPTURE:", "CAPTURE and count == 0:")),
                                       encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_capture_bug_is_charged_to_capturing_and_the_games_after_it_keep_their_items(grader, tmp_path):
    """The board a move leaves is capturing's where it is the first thing wrong (spec.yaml's `lines:
    '^board: '` rule with `changes`): the skip, end, result and alternation cases whose games a
    one-piece capture derails are charged to `ms2-ms1-features`, and each passes where it is filed,
    its turns before the capture having matched and the game after it being another one. Only
    `ms2-ms1-features` loses points, one unit for each charged case and for its own that fail."""
    spec, milestone = specs.parse_game("reversi", ROOT)
    cases = [c for c in caseload.load_all(spec, milestone) if c.milestone == "ms2"]
    result = grader.grade(spec, "ms2", cases, _one_piece_per_direction(tmp_path / "one-per-direction"))

    failed = [c for c in result.cases if c.status == FAILED]
    others = [c for c in failed if c.rubric != "ms2-ms1-features"]
    assert others, {c.name: c.reason for c in result.cases}
    for case in others:
        assert (case.charged_to, case.own_passed) == ("ms2-ms1-features", True), case.reason
        assert "the board the move left" in case.reason
    weights = {item.id: item.points for item in spec.items("ms2") if item.graded}
    items = {i.id: i for i in result.items}
    for item in weights:
        if item != "ms2-ms1-features":
            assert items[item].earned == pytest.approx(weights[item]), item
    own = [c for c in cases if c.rubric == "ms2-ms1-features"]
    own_failed = sum(c.points for c in failed if c.rubric == "ms2-ms1-features")
    units = sum(c.points for c in own) + len(others)
    assert items["ms2-ms1-features"].earned == pytest.approx(
        weights["ms2-ms1-features"] * (sum(c.points for c in own) - own_failed) / units, abs=1e-3)
