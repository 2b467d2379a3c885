"""Silver Dollar boards are random: grading must not depend on the board a program draws.

The samples draw with an unseeded generator, so every run starts from a different
board and each case is graded against the reference re-run from that board (the spec's
`random_start`). A correct program scores 100 % whatever it draws; a program whose setup breaks
the rules loses the setup item and nothing else.
"""

import pytest
import yaml

from harness.loading import cases as caseload
from harness.judging import compare
from harness.grading import submission as grading
from harness.loading import spec as specs
from harness.starts.reading import find_start
from reference import silver_dollar as sd
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # Silver Dollar's samples graded

SAMPLES = ROOT / "examples" / "silver-dollar"


def test_a_correct_program_scores_full_marks_on_any_board(grader):
    """Graded three times on the cases of the longest strip, each run on a board of its own
    (the whole suite is graded once per sample by `harness samples`)."""
    spec, milestone = specs.parse_game("silver-dollar")
    longest = [c for c in caseload.load_all(spec, milestone) if _typed(c)[0] == "12"]
    assert any(c.name == "board-12-coins" for c in longest)
    starts = []
    for _ in range(3):
        result = grader.grade(spec, milestone, longest, SAMPLES / "correct-python")
        problems = {c.name: c.reason for c in result.cases if c.status != "passed"}
        assert not problems
        assert result.percent == pytest.approx(100.0)
        by_name = {c.name: c for c in result.cases}
        starts.append(find_start(spec.random_start, "".join(e.get("out", "") for e in by_name["board-12-coins"].actual),
                                 grading.state_reader(spec).read))
    assert all(starts)
    # three 12-coin boards drawn by the program itself: they differ (a repeat has odds below 1e-20)
    assert len(set(starts)) == 3


def _suite():
    spec, milestone = specs.parse_game("silver-dollar")
    return spec, caseload.load_all(spec, milestone)


def _typed(case) -> list[str]:
    """The lines a case types before any strategy: its fixed inputs, or a strategy's prefix."""
    return list(case.inputs["prefix"]) if isinstance(case.inputs, dict) else list(case.inputs)


def _boards(coins: int):
    """Every start setup can draw for `coins` coins (gaps 1-6) that is not already final."""
    starts = [()]
    for _ in range(coins):
        starts = [s + ((s[-1] if s else -1) + gap,) for s in starts for gap in range(1, 7)]
    return [s for s in starts if not sd.is_final(s)]


def test_only_prompt_types_a_single_coin():
    """The handout allows any count above 0; a program refusing 1 shows no board, so a 1-coin
    case of any other item would charge that one deviation a second time."""
    _, found = _suite()
    one_coin = {c.name: c.rubric for c in found if _typed(c)[0] == "1"}
    assert one_coin and set(one_coin.values()) == {"prompt"}, one_coin
    # so the program that refuses a count of 1 must fail exactly these (`harness samples` checks it)
    want = yaml.safe_load((SAMPLES / "expected.yaml").read_text(encoding="utf-8"))["samples"]["variant-strict-coins"]
    assert set(want["fails"]) == set(one_coin)
    accepted = next(c for c in found if c.name == "prompt-1-coin")
    assert accepted.compare["turns"] == "all"  # the board and the move prompt after the count count


def test_cases_add_to_their_items_policy_never_reset_it():
    """A case-level preset would reset the item's normalisations (extra lines, whitespace)."""
    _, found = _suite()
    resets = {c.name: c.compare for c in found
              if isinstance(c.compare, str) or (isinstance(c.compare, dict) and "preset" in c.compare)}
    assert not resets


def test_fixed_lines_mean_the_same_on_every_small_board():
    """Cases of up to 3 coins typing fixed lines: on every board setup can draw, no line ends
    the game, every line of a `board-not-reprinted` case is refused, and the last line of an
    `illegal` case is refused (what the case says it shows, whatever the program drew)."""
    _, found = _suite()
    checked = 0
    for case in found:
        if isinstance(case.inputs, dict) or case.rubric not in ("board", "illegal", "moves") or int(case.inputs[0]) > 3:
            continue
        moves = [tuple(int(x) for x in line.split()) for line in case.inputs[1:]]
        for start in _boards(int(case.inputs[0])):
            board, refused = start, []
            for coin, dist in moves:
                refused.append(not sd.legal(board, coin, dist))
                if not refused[-1]:
                    board = sd.move(board, coin, dist)
                assert not sd.is_final(board), (case.name, start)
            if case.name.startswith("board-not-reprinted"):
                assert all(refused), (case.name, start)
            if case.rubric == "illegal":
                assert refused[-1], (case.name, start)
        checked += 1
    assert checked >= 15


def test_end_judges_who_won_not_the_wording():
    """The winner line is the handout's example ("e.g."): reworded, every end case still passes on
    its stored transcript; naming the other player fails every one."""
    spec, found = _suite()
    ends = [c for c in found if c.rubric == "end"]
    assert len(ends) >= 10
    for case in ends:
        view = compare.View(spec.policy(case.rubric, case.compare), spec.messages, grading.state_reader(spec))
        last = case.expected_events[-1]["out"]
        winner = last.rstrip("\n").split("\n")[-1]
        player = winner.split()[1]
        other = "1" if player == "2" else "2"
        for line, passes in ((f"Congratulations, player {player}, you won the game!", True),
                             (f"Player {other} wins!", False)):
            actual = case.expected_events[:-1] + [{"out": last.replace(winner, line)}]
            got = compare.compare(case.expected_events, case.expected_end, actual, case.expected_end, view)
            assert got.passed is passes, (case.name, line)


def test_a_program_in_another_language_than_the_handouts_is_graded_and_the_instructor_told(tmp_path):
    """The handout asks for Java (the spec's `handout_language`): a Python program is graded on its
    merits, and the terminal, its report, the class page and the gradebook say the handout's
    language was not used; the Java program's rows say nothing."""
    import csv
    import subprocess
    import sys

    out = tmp_path / "reports"
    run = subprocess.run([sys.executable, "-m", "harness.cli", "grade", "silver-dollar", str(SAMPLES / "correct-python"),
                          str(SAMPLES / "correct-java"), "-k", "prompt-2-coins", "-o", str(out), "-v"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    said = "written in Python, though the handout asks for Java: graded on its merits"
    assert said in run.stdout
    with (out / "gradebook.csv").open(encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    assert rows["correct-python"]["percent"] == "100.00" and said in rows["correct-python"]["notes"]
    assert rows["correct-java"]["notes"] == ""
    assert said in (out / "index.html").read_text(encoding="utf-8")
    assert said in (out / "correct-python" / "report.html").read_text(encoding="utf-8")
    assert said not in (out / "correct-java" / "report.html").read_text(encoding="utf-8")
