"""The Flip reference (reference/flip.py): FlipRunner's bytes, the rules, the method driver,
the plan strategy, and the course's Java files against it."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from reference.flip import Driver, GameState, InvalidStart, Move, PreconditionError, parse_move, plan_inputs
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a course game's reference, byte for byte

ENV = dict(os.environ, PYTHONPATH=str(ROOT))
INTRO = (
    "Enter moves in the format\n"
    "taken dice, followed by f (flip) or p (play) and the value of the die to flip or play\n"
    "Examples: f2 or p4 or 12f2\n"
    "\n"
)
HANDOUT_MOVES = ["p4", "f1", "p2", "p4", "2p6", "4p4", "p4"]
HANDOUT_GAME = INTRO + (
    "Game state: 244+|+|124+\n"
    "Enter move for player 1: Game state: 12+|+4|244+\n"
    "Enter move for player 2: Game state: 244+|4+|2+6\n"
    "Enter move for player 1: Game state: +6|4+2|244+\n"
    "Enter move for player 2: Game state: 24+|24+4|6+\n"
    "Enter move for player 1: Game state: +|44+6|224+\n"
    "Enter move for player 2: Game state: 22+|46+4|4+\n"
    "Enter move for player 1: Congratulations! You won.\n"
)
SEED_OF_HANDOUT_START = 1199  # JavaRandom(1199) draws 2 4 4 / 1 2 4 in some order


def run(args, lines=(), stdin=None):
    text = stdin if stdin is not None else "".join(line + "\n" for line in lines)
    proc = subprocess.run([sys.executable, "-m", "reference.flip", *args], input=text.encode(),
                          capture_output=True, cwd=ROOT, env=ENV, timeout=30)
    return proc.returncode, proc.stdout.decode()


def turns(*pairs):
    """Expected text of turns: (state, player) pairs -> `Game state: ...` + prompt."""
    return "".join(f"Game state: {state}\nEnter move for player {player}: " for state, player in pairs)


# ---------------------------------------------------------------- FlipRunner bytes

def test_handout_sample_game_is_byte_exact():
    assert run(["--start", "244+|+|124+"], HANDOUT_MOVES) == (0, HANDOUT_GAME)


def test_seed_draws_like_java_random_player_one_first():
    assert run(["--seed", str(SEED_OF_HANDOUT_START)], HANDOUT_MOVES) == (0, HANDOUT_GAME)
    # start lines printed by FlipRunner with `new Random(seed)` under Java 17
    for seed, state in [(0, "125+|+|666+"), (1, "245+|+|345+"), (42, "134+|+|123+"),
                        (-7, "455+|+|146+"), (123456789012, "114+|+|126+")]:
        code, out = run(["--seed", str(seed)])
        assert code == 1
        assert out == INTRO + turns((state, 1))


def test_takes_legal_too_large_equal_missing_and_empty():
    start = "24+|24+4|6+"  # middle 2 and 4, the just-played die is a 4
    code, out = run(["--start", start], ["24p6", "4p6", "3p6", "1p6", "22p6", "2p6"])
    again = "Illegal move.\n" + turns((start, 1))
    assert (code, out) == (1, INTRO + turns((start, 1)) + again * 5 + turns(("+|44+6|224+", 2)))


def test_empty_take_is_legal_and_take_without_just_played_is_not():
    code, out = run(["--start", "244+|4+|2+6"], ["4p2", "p2"])
    assert (code, out) == (1, INTRO + turns(("244+|4+|2+6", 1)) + "Illegal move.\n"
                           + turns(("244+|4+|2+6", 1), ("+6|4+2|244+", 2)))


def test_flipping_a_flipped_die_is_illegal():
    code, out = run(["--start", "244+|+|124+"], ["f2", "p4", "f5"])
    assert (code, out) == (1, INTRO + turns(("244+|+|124+", 1), ("124+|+|44+5", 2), ("4+5|+4|124+", 1))
                           + "Illegal move.\n" + turns(("4+5|+4|124+", 1)))


def test_a_taken_die_can_be_flipped_at_once():
    code, out = run(["--start", "+6|14+5|2+"], ["1f1"])
    assert (code, out) == (1, INTRO + turns(("+6|14+5|2+", 1), ("2+|45+|+66", 2)))


def test_play_takes_a_flippable_die_before_an_unflippable_one():
    code, out = run(["--start", "1+|+|6+6"], ["p6"])
    assert (code, out) == (1, INTRO + turns(("1+|+|6+6", 1), ("+6|+6|1+", 2)))


def test_play_makes_all_of_the_movers_dice_flippable():
    code, out = run(["--start", "2+5|+|13+"], ["p1"])
    assert (code, out) == (1, INTRO + turns(("2+5|+|13+", 1), ("3+|+1|25+", 2)))


def test_win_when_the_opponent_has_no_dice():
    assert run(["--start", "1+|+|6+"], ["p6"]) == (
        0, INTRO + turns(("1+|+|6+", 1)) + "Congratulations! You won.\n")
    # after a flip nothing is just played, so nothing can be taken
    assert run(["--start", "2+|3+4|+"], ["f2"]) == (
        0, INTRO + turns(("2+|3+4|+", 1)) + "Congratulations! You won.\n")


def test_no_win_while_the_opponent_can_take():
    code, out = run(["--start", "1+|2+|4+"], ["p4", "2f2"])
    assert (code, out) == (1, INTRO + turns(("1+|2+|4+", 1), ("+|2+4|1+", 2), ("1+|4+|+5", 1)))


def test_illegal_and_unreadable_moves_repeat_the_turn():
    bad = ["", "   ", "P4", "p 4", "4", "f7", "p0", "p4p4", "12f2", "p3", "f1", "x"]
    code, out = run(["--start", "244+|+|124+"], bad + ["\t p4  "])
    again = "Illegal move.\n" + turns(("244+|+|124+", 1))
    assert (code, out) == (1, INTRO + turns(("244+|+|124+", 1)) + again * len(bad)
                           + turns(("12+|+4|244+", 2)))


def test_player_without_a_legal_move_loses():
    code, out = run(["--start", "+6|+1|+"])
    assert (code, out) == (0, INTRO + "Game state: +6|+1|+\nPlayer 1 has no legal move.\nPlayer 2 wins!\n")


def test_end_of_input_exits_1_silently():
    assert run(["--start", "244+|+|124+"], ["p4"]) == (1, INTRO + turns(("244+|+|124+", 1), ("12+|+4|244+", 2)))


@pytest.mark.parametrize("state, reason", [
    ("246+||124+", "exactly one +"),
    ("244+|+", "3 parts"),
    ("247+|+|124+", "digits 1 to 6"),
    ("424+|+|124+", "sorted"),
    ("1+|+24|3+", "at most one die"),
    ("1+|2+4|3+5", "player 2 has just played"),
    ("+|+|124+", "the game is over"),
    ("+|4+2|124+", "the game is over"),
])
def test_invalid_start_exits_3(state, reason):
    code, out = run(["--start", state])
    assert code == 3
    assert out.startswith("Invalid start: ") and out.count("\n") == 1 and reason in out


# ---------------------------------------------------------------- rules (importable)

def test_rules_follow_the_handout_sample():
    state = GameState([2, 4, 4], [1, 2, 4])
    assert str(state) == "244+|+|124+"
    for move, after in zip(HANDOUT_MOVES, ["12+|+4|244+", "244+|4+|2+6", "+6|4+2|244+", "24+|24+4|6+",
                                           "+|44+6|224+", "22+|46+4|4+"]):
        assert state.is_legal(parse_move(move))
        state.apply(parse_move(move))
        assert not state.is_winning()
        state.switch_players()
        assert state.to_string() == after
    state.apply(parse_move("p4"))
    assert state.is_winning()


def test_check_take_with_multiplicity_and_sum():
    state = GameState.from_string("+|114+6|2+")
    assert state.check_take([]) and state.check_take([1, 1]) and state.check_take([1, 4])
    assert not state.check_take([1, 1, 1])      # only two 1s
    assert not state.check_take([1, 1, 4])      # sum 6 is not below 6
    assert not state.check_take([6])            # the just-played die itself
    assert state.check_flip([1], 1) and not state.check_flip([], 1)
    assert state.check_play([1, 1], 2) and not state.check_play([1, 1, 4], 2)
    assert not GameState.from_string("4+|2+|1+5").check_take([2])  # nothing just played


def test_flip_play_take_switch_and_preconditions():
    state = GameState([2, 6], [1, 3])
    state.flip(2)
    assert str(state) == "6+5|+|13+"
    state.play(3)
    assert str(state) == "56+|+3|1+"
    state.switch_players()
    assert str(state) == "1+|+3|56+"
    state.play(5)
    state.flip(1)
    assert str(state) == "+6|35+|6+"
    with pytest.raises(PreconditionError):
        state.flip(6)  # unflippable
    state2 = GameState.from_string("+|3+5|1+")
    state2.take([3])
    assert str(state2) == "3+|+5|1+"
    with pytest.raises(PreconditionError):
        state2.take([5])  # the just-played die is not an ordinary middle die
    with pytest.raises(PreconditionError):
        state2.play(4)


def test_legal_moves_and_parse_move():
    state = GameState.from_string("24+|24+4|6+")
    assert [str(m) for m in state.legal_moves()] == ["f2", "f4", "p6", "2f2", "2f4", "2p6"]
    assert parse_move(" 12f2\t") == Move((1, 2), "f", 2)
    for text in ["12 f2", "F2", "f", "7p1", "f2\n1"]:
        assert parse_move(text) is None
    with pytest.raises(InvalidStart):
        GameState.from_string("")


def test_random_state_from_a_java_random():
    class Fixed:
        def __init__(self):
            self.values = iter([5, 0, 2, 1, 3, 3])

        def next_int(self, bound):
            assert bound == 6
            return next(self.values)

    assert str(GameState.random(6, Fixed())) == "136+|+|244+"


# ---------------------------------------------------------------- plan

def test_plan_is_a_playable_game_with_illegal_attempts():
    plan = {"strategy": "random-legal", "seed": 3, "illegal_every": 2, "max_moves": 60}
    code, out = run(["--seed", "5", "--plan", json.dumps(plan)])
    assert code == 0
    lines = out.splitlines()
    start = GameState.random(6, __import__("reference.jrandom", fromlist=["JavaRandom"]).JavaRandom(5))
    assert lines == plan_inputs(start, plan)
    code, game = run(["--seed", "5"], lines)
    moves = len(lines) - game.count("Illegal move.")
    assert game.count("Illegal move.") == moves // 2 > 0
    assert code == 0 and game.endswith("Congratulations! You won.\n")


def test_plan_is_deterministic_and_stops_at_max_moves():
    plan = json.dumps({"strategy": "random-legal", "seed": 1, "max_moves": 4})
    first = run(["--start", "244+|+|124+", "--plan", plan])
    assert first == run(["--start", "244+|+|124+", "--plan", plan])
    assert first[0] == 0 and len(first[1].splitlines()) == 4
    assert all(parse_move(line) for line in first[1].splitlines())


@pytest.mark.parametrize("plan", ['{"strategy": "greedy"}', "[1]", "{nope", '{"strategy": "random-legal", "x": 1}',
                                  '{"strategy": "random-legal", "max_moves": -1}'])
def test_bad_plan_exits_2(plan):
    code, out = run(["--start", "244+|+|124+", "--plan", plan])
    assert (code, out) == (2, "")


# ---------------------------------------------------------------- the method driver

DRIVER_SCRIPT = """\
show
new 244 / 1 2 4
show
checkTake
checkFlip / 2
checkFlip / 3
checkPlay / 1
play 4
switch
show

flip 1
take 1
switch
show
play 2
switch
show
play 4
switch
show
checkTake 4
checkTake 2
checkFlip 2/2
checkPlay 2 / 6
checkPlay 24 / 6
take 2
play 6
isWinning
switch
show
random 6
random 7
bogus
flip 8
checkFlip 1 2
take 1 / 2
show now
new 1
quit
show
"""
DRIVER_REPLY = """\
error no state
ok
244+|+|124+
244+|+|124+
true
true
false
true
ok
244+|+4|12+
ok
12+|+4|244+
12+|+4|244+
ok
2+6|4+|244+
undefined take 1: not all of these are ordinary middle dice
ok
244+|4+|2+6
244+|4+|2+6
ok
244+|4+2|+6
ok
+6|4+2|244+
+6|4+2|244+
ok
6+|24+4|24+
ok
24+|24+4|6+
24+|24+4|6+
false
true
true
true
false
ok
224+|4+4|6+
ok
224+|44+6|+
false
ok
+|44+6|224+
+|44+6|224+
dice 3 3 allFlippable true inRange true middleEmpty true
dice 3 3 allFlippable true inRange true middleEmpty true
error unknown command
error bad arguments
error bad arguments
error bad arguments
error bad arguments
error bad arguments
"""


def test_driver_protocol():
    assert run(["--driver"], stdin=DRIVER_SCRIPT) == (0, DRIVER_REPLY)
    assert run(["--driver"], stdin="new 1 / 2\nshow") == (0, "ok\n1+|+|2+\n1+|+|2+\n")  # end of input is the end


def test_driver_answers_in_process():
    driver = Driver()
    assert driver.execute("   ") is None
    assert driver.execute("isWinning") == "error no state"
    assert driver.execute("new / 3") == "ok\n+|+|3+"  # a change answers with the state it left
    assert driver.execute("isWinning") == "false"
    assert driver.execute("switch") == "ok\n3+|+|+"
    assert driver.execute("isWinning") == "true"
    assert driver.execute("random 100").startswith("dice 50 50 ")
    assert driver.execute("quit") is Driver.QUIT


# ---------------------------------------------------------------- the Java course files

@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK")
def test_java_runner_and_driver_match_the_reference(tmp_path):
    support = sorted((ROOT / "specs" / "flip" / "support").glob("*.java"))
    assert {p.name for p in support} >= {"Die.java", "Dice.java", "FlipRunner.java", "GameStateDriver.java"}
    subprocess.run(["javac", "-encoding", "UTF-8", "-d", str(tmp_path), *map(str, support),
                    str(ROOT / "examples" / "flip" / "correct-sets" / "GameState.java")], check=True, timeout=120)

    def java(main, args, text):
        proc = subprocess.run(["java", "-cp", str(tmp_path), main, *args], input=text.encode(),
                              capture_output=True, timeout=60)
        return proc.returncode, proc.stdout.decode()

    moves = "p4\nf1\n P2\np2\np4\n4p6\n2p6\n\n4p4\np4\n"
    seed = str(SEED_OF_HANDOUT_START)
    assert java("FlipRunner", [seed], moves) == run(["--seed", seed], stdin=moves)
    assert java("FlipRunner", ["42"], "p1\nf3\n") == run(["--seed", "42"], stdin="p1\nf3\n")
    assert java("GameStateDriver", [], DRIVER_SCRIPT.replace("take 1\n", "")) == (
        0, DRIVER_REPLY.replace("undefined take 1: not all of these are ordinary middle dice\n", ""))
