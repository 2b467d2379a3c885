"""The Silver Dollar reference: exact transcripts (formats.md, the handout), rules, starts, plans."""
import json
import os
import subprocess
import sys

import pytest

from reference import silver_dollar as sd
from reference.jrandom import JavaRandom
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a course game's reference, byte for byte

COINS = "Enter the number of coins: "
HANDOUT_BOARD = "_ _ _ 0 _ _ _ _ _ 1 _ _ _ 2"  # the handout's 14-square strip (coins on 3, 9, 13)


def run(args, inputs=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "reference.silver_dollar", *args],
                          input=inputs.encode(), capture_output=True, cwd=ROOT, env=env, timeout=10)


def prompt(player):
    return f"Player {player}: Enter your move: "


# ---------------------------------------------------------------- transcripts

def test_handout_game_exact_bytes():
    """The handout's board and its illegal "5 3", played to the end (Player 2 moves last)."""
    inputs = "3\n5 3\n2 3\n1 5\n0 3\n2 5\n1 3\n2 3\n"
    expected = (
        COINS + HANDOUT_BOARD + "\n"
        + prompt(1) + "Illegal move! Try again.\n"
        + prompt(1) + "_ _ _ 0 _ _ _ _ _ 1 2 _ _ _\n"
        + prompt(2) + "_ _ _ 0 1 _ _ _ _ _ 2 _ _ _\n"
        + prompt(1) + "0 _ _ _ 1 _ _ _ _ _ 2 _ _ _\n"
        + prompt(2) + "0 _ _ _ 1 2 _ _ _ _ _ _ _ _\n"
        + prompt(1) + "0 1 _ _ _ 2 _ _ _ _ _ _ _ _\n"
        + prompt(2) + "0 1 2 _ _ _ _ _ _ _ _ _ _ _\n"
        + "Player 2 wins!\n"
    )
    done = run(["--start", HANDOUT_BOARD], inputs)
    assert done.stdout.decode() == expected
    assert done.returncode == 0


def test_player_one_wins_when_moving_last():
    done = run(["--start", "_ 0"], "1\n0 1\n")
    assert done.stdout.decode() == COINS + "_ 0\n" + prompt(1) + "0 _\nPlayer 1 wins!\n"
    assert done.returncode == 0


def test_move_tokens_may_span_lines_and_share_them():
    """Moves are read as two Scanner ints: `2` and `3` on separate lines, or two moves on one line."""
    split = run(["--start", HANDOUT_BOARD], "3\n2\n3\n")
    one_line = run(["--start", HANDOUT_BOARD], "3 2 3 1 5\n")
    assert split.stdout.decode() == (COINS + HANDOUT_BOARD + "\n" + prompt(1)
                                     + "_ _ _ 0 _ _ _ _ _ 1 2 _ _ _\n" + prompt(2))
    assert one_line.stdout.decode() == (split.stdout.decode()
                                        + "_ _ _ 0 1 _ _ _ _ _ 2 _ _ _\n" + prompt(1))


# one position (coins on 2, 4, 5: "_ _ 0 _ 1 2") and one move of each illegal kind
ILLEGAL = {
    "no-such-coin": "3 1",
    "negative coin": "-1 1",
    "zero-distance": "1 0",
    "negative-distance": "1 -1",
    "off-left-edge": "0 3",
    "onto-neighbour": "1 2",
    "past-neighbour": "2 4",
    "adjacent coin onto neighbour": "2 1",
}


@pytest.mark.parametrize("kind", sorted(ILLEGAL))
def test_each_illegal_kind_is_illegal(kind):
    coin, dist = map(int, ILLEGAL[kind].split())
    assert not sd.legal((2, 4, 5), coin, dist)


def test_illegal_moves_reprompt_same_player_without_board():
    """Every kind in a row: each prints the message and the same prompt, never the board."""
    board = "_ _ 0 _ 1 2"
    attempts = [ILLEGAL[kind] for kind in sorted(ILLEGAL)]
    done = run(["--start", board], "3\n" + "\n".join(attempts) + "\n0 1\n")
    assert done.stdout.decode() == (COINS + board + "\n" + prompt(1)
                                    + ("Illegal move! Try again.\n" + prompt(1)) * len(attempts)
                                    + "_ 0 _ _ 1 2\n" + prompt(2))
    assert done.returncode == 1  # input ran out while waiting for Player 2


def test_two_digit_coins():
    board = " ".join(["_"] + [str(i) for i in range(10)] + ["_", "10", "_", "_", "11"])
    done = run(["--start", board], "12\n10 1\n11 3\n")
    out = done.stdout.decode()
    assert out == (COINS + board + "\n"
                   + prompt(1) + "_ 0 1 2 3 4 5 6 7 8 9 10 _ _ _ 11\n"
                   + prompt(2) + "_ 0 1 2 3 4 5 6 7 8 9 10 11 _ _ _\n"
                   + prompt(1))


def test_strip_keeps_its_length_when_the_last_coin_moves():
    done = run(["--start", "0 _ _ _ _ _ 1"], "2\n1 5\n")
    assert done.stdout.decode() == COINS + "0 _ _ _ _ _ 1\n" + prompt(1) + "0 1 _ _ _ _ _\nPlayer 1 wins!\n"


def test_end_of_input_exits_1_with_nothing_more():
    assert run(["--start", "_ 0"], "").stdout.decode() == COINS
    done = run(["--start", "_ 0"], "1\n0")
    assert (done.stdout.decode(), done.returncode) == (COINS + "_ 0\n" + prompt(1), 1)


def test_non_integer_input_exits_1():
    done = run(["--start", "_ 0"], "1\nabc\n")
    assert (done.stdout.decode(), done.returncode) == (COINS + "_ 0\n" + prompt(1), 1)
    assert done.stderr


# ---------------------------------------------------------------- --start validation

INVALID_STARTS = [
    ("_ 0 _ 1 _ _ _ _ _ _ 2", "coin 2 stands 7 squares right of coin 1 (at most 6)"),
    ("_ _ _ _ _ _ 0 _ 1", "coin 0 stands 7 squares from the left edge (at most 6)"),
    ("0 _ 1 _", "the strip goes on 1 square past coin 1 (a new strip ends with its last coin)"),
    ("_ 1", "square 1 holds '1' where coin 0 was expected (coins are numbered 0, 1, 2, ... from the left)"),
    ("_ 0 0", "square 2 holds '0' where coin 1 was expected (coins are numbered 0, 1, 2, ... from the left)"),
    ("_ 0 x", "square 2 holds 'x', which is neither _ nor a coin number"),
    ("_ 0 -1", "square 2 holds '-1', which is neither _ nor a coin number"),
    ("_ _ _", "the strip holds no coin"),
    ("", "the strip is empty"),
]


@pytest.mark.parametrize("state, reason", INVALID_STARTS)
def test_invalid_start_reason(state, reason):
    with pytest.raises(sd.InvalidStart) as caught:
        sd.parse_strip(state)
    assert str(caught.value) == reason


@pytest.mark.parametrize("state, reason", [INVALID_STARTS[0], INVALID_STARTS[1]])
def test_invalid_start_exits_3_before_prompting(state, reason):
    done = run(["--start", state], "3\n")
    assert done.stdout.decode() == f"Invalid start: {reason}\n"
    assert done.returncode == 3


def test_a_final_start_is_within_the_rules_but_unplayable():
    # The handout never says to draw again when the strip is already final: such a start is
    # not against the rules (exit 4, "unplayable"), unlike a start setup could not draw (exit 3).
    with pytest.raises(sd.UnplayableStart):
        sd.parse_strip("0 1 2")
    done = run(["--start", "0 1 2"], "3\n")
    assert done.stdout.decode() == "Unplayable start: no move is possible: the 3 coins already fill the leftmost squares\n"
    assert done.returncode == 4


def test_coin_count_must_match_start():
    done = run(["--start", "_ 0 _ 1"], "3\n0 1\n")
    assert done.stdout.decode() == COINS + "Invalid start: 3 coins were entered but the strip holds 2\n"
    assert done.returncode == 3


def test_start_tolerates_extra_whitespace():
    assert sd.parse_strip("  _  0 _   1\n") == ((1, 3), 4)


# ---------------------------------------------------------------- seeded boards

def test_seeded_board_is_drawn_with_java_random():
    """Seed 42, 12 coins: the board java.util.Random(42) draws (checked against Java in test_jrandom)."""
    done = run(["--seed", "42"], "12\n")
    assert done.stdout.decode() == (COINS + "_ _ 0 _ _ _ 1 2 _ _ 3 4 _ 5 _ _ _ _ _ 6 _ _ 7 _ 8 _ _ _ _ _ "
                                    "9 _ _ 10 _ _ 11\n" + prompt(1))


def test_same_seed_same_board_and_unseeded_boards_vary():
    assert run(["--seed", "5"], "8\n").stdout == run(["--seed", "5"], "8\n").stdout
    boards = {run([], "15\n").stdout for _ in range(2)}
    assert len(boards) == 2


def test_coin_count_below_one_is_refused():
    done = run(["--seed", "1"], "0\n")
    assert (done.stdout.decode(), done.returncode) == (COINS, 1)


# ---------------------------------------------------------------- --plan

def play_plan(state, n, strategy):
    planned = run(["--start", state, "--plan", json.dumps(strategy)])
    assert planned.returncode == 0, planned.stderr
    lines = planned.stdout.decode().splitlines()
    done = run(["--start", state], f"{n}\n" + "".join(line + "\n" for line in lines))
    return lines, done


@pytest.mark.parametrize("strategy", [
    {"strategy": "leftmost"},
    {"strategy": "random-legal", "seed": 3},
    {"strategy": "random-legal", "seed": 11, "illegal_every": 2},
])
def test_plan_plays_a_whole_game(strategy):
    lines, done = play_plan(HANDOUT_BOARD, 3, strategy)
    out = done.stdout.decode()
    assert done.returncode == 0
    assert out.endswith(" wins!\n") and "0 1 2 _ _ _ _ _ _ _ _ _ _ _\nPlayer" in out
    illegal = out.count("Illegal move! Try again.\n")
    every = strategy.get("illegal_every", 0)
    moves = len(lines) - illegal
    assert illegal == (moves // every if every else 0)
    assert all(len(line.split()) == 2 for line in lines)


def test_leftmost_plan_is_short_and_fixed():
    done = run(["--start", HANDOUT_BOARD, "--plan", '{"strategy": "leftmost"}'])
    assert done.stdout.decode() == "0 3\n1 8\n2 11\n"


def test_plan_illegal_attempts_cycle_through_the_kinds():
    positions, length = sd.parse_strip(HANDOUT_BOARD)
    lines = sd.plan_inputs(positions, length, {"strategy": "random-legal", "seed": 3, "illegal_every": 1})
    assert lines == ["3 1", "1 1", "2 0", "2 3", "0 -3", "0 3", "0 1", "1 6", "2 8", "2 7",
                     "2 2", "1 1", "3 1", "2 1"]


@pytest.mark.parametrize("args, message", [
    (["--start", "_ 0", "--plan", "{nope"], "bad --plan"),
    (["--start", "_ 0", "--plan", '{"strategy": "greedy"}'], "unknown strategy"),
    (["--plan", '{"strategy": "leftmost"}'], "--plan needs --start"),
])
def test_bad_plan_exits_2_with_one_line(args, message):
    done = run(args)
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("strategy, message", [
    ([], "JSON object"),
    ({"strategy": "leftmost", "every": 2}, "unknown plan key"),
    ({"strategy": "leftmost", "illegal_every": -1}, "illegal_every"),
    ({"strategy": "random-legal", "seed": "7"}, "seed must be an integer"),
    ({"strategy": "random-legal", "illegal_every": True}, "illegal_every must be an integer"),
])
def test_check_strategy_refuses(strategy, message):
    with pytest.raises(ValueError, match=message):
        sd.check_strategy(strategy)


def test_plan_with_invalid_or_unplayable_start_exits_3_or_4():
    done = run(["--start", "_ _ _ _ _ _ 0", "--plan", '{"strategy": "leftmost"}'])
    assert (done.stdout.decode(), done.returncode) == (
        "Invalid start: coin 0 stands 7 squares from the left edge (at most 6)\n", 3)
    done = run(["--start", "0 1", "--plan", '{"strategy": "leftmost"}'])
    assert (done.stdout.decode(), done.returncode) == (
        "Unplayable start: no move is possible: the 2 coins already fill the leftmost squares\n", 4)


# ---------------------------------------------------------------- rules (importable)

def test_legal_and_move():
    pos = (2, 4, 5)
    assert sd.legal(pos, 0, 2) and not sd.legal(pos, 0, 3)
    assert sd.legal(pos, 1, 1) and not sd.legal(pos, 1, 2)
    assert not sd.legal(pos, 2, 1)  # coin 2 touches coin 1
    assert not sd.legal(pos, 3, 1) and not sd.legal(pos, -1, 1) and not sd.legal(pos, 0, 0)
    assert sd.move(pos, 1, 1) == (2, 3, 5)
    with pytest.raises(ValueError):
        sd.move(pos, 2, 1)


def test_is_final_and_render():
    assert sd.is_final((0, 1, 2)) and not sd.is_final((0, 1, 3))
    assert sd.render((0, 1), 5) == "0 1 _ _ _"
    assert sd.render((3, 9, 13), 14) == HANDOUT_BOARD


def test_parse_render_round_trip():
    positions, length = sd.parse_strip(HANDOUT_BOARD)
    assert (positions, length) == ((3, 9, 13), 14)
    assert sd.render(positions, length) == HANDOUT_BOARD


def test_legal_moves_order_and_count():
    assert sd.legal_moves((1, 3)) == [(0, 1), (1, 1)]
    positions = (3, 9, 13)
    assert len(sd.legal_moves(positions)) == 3 + 5 + 3
    assert all(sd.legal(positions, c, d) for c, d in sd.legal_moves(positions))


def test_draw_strip_gaps_and_reroll():
    for seed in range(200):
        positions, length = sd.draw_strip(JavaRandom(seed), 4)
        gaps = [positions[0] + 1] + [b - a for a, b in zip(positions, positions[1:])]
        assert all(1 <= g <= 6 for g in gaps) and length == positions[-1] + 1
        assert not sd.is_final(positions)
    # a seed whose first one-coin strip is final (gap 1) draws again from the same generator
    seed = next(s for s in range(1000) if JavaRandom(s).next_int(6) == 0)
    r = JavaRandom(seed)
    gap = 1
    while gap == 1:
        gap = r.next_int(6) + 1
    assert sd.draw_strip(JavaRandom(seed), 1) == ((gap - 1,), gap)


def test_random_plans_end_the_game_legally():
    for seed in range(30):
        positions, length = sd.draw_strip(JavaRandom(seed), 5)
        pos = positions
        for line in sd.plan_inputs(positions, length, {"strategy": "random-legal", "seed": seed}):
            coin, dist = map(int, line.split())
            pos = sd.move(pos, coin, dist)  # raises if illegal
        assert sd.is_final(pos)
