"""Tests of the Strings and Coins reference (reference/strings_and_coins.py).

The reference runs as a real subprocess and is checked byte for byte against the handout's
sample run and the rules in formats.md; the rule functions are checked against the
handout's updateNetwork table; the --driver protocol is checked on its own and against the
project's C++ driver linked with the correct sample.
"""
import os
import random
import shutil
import subprocess
import sys

import pytest

from reference import strings_and_coins as sc
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a course game's reference, byte for byte

SUPPORT = ROOT / "specs" / "strings-and-coins" / "support"
CORRECT = ROOT / "examples" / "strings-and-coins" / "correct-cpp"

HANDOUT_INPUTS = "1 -1 18 1 16 2 15 4 13 8 5 9 12 11 6 10 3 7 17 14".split()

# The handout's sample run, with the figures restored as formats.md gives them.
SAMPLE_RUN = """*************
*  |  |  |  *
*--$--$--$--*
*  |  |  |  *
*--$--$--$--*
*  |  |  |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 1's move (1-17): *************
*     |  |  *
*--$--$--$--*
*  |  |  |  *
*--$--$--$--*
*  |  |  |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 2's move (1-17): Invalid. Try again!
Player 2's move (1-17): Invalid. Try again!
Player 2's move (1-17): Invalid. Try again!
Player 2's move (1-17): *************
*     |  |  *
*--$--$--$--*
*  |  |  |  *
*--$--$--$--*
*  |     |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 1's move (1-17): *************
*        |  *
*--$--$--$--*
*  |  |  |  *
*--$--$--$--*
*  |     |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 2's move (1-17): *************
*        |  *
*--$--$--$--*
*  |  |  |  *
*--$--$--$--*
*        |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 1's move (1-17): *************
*        |  *
*  $--$--$--*
*  |  |  |  *
*--$--$--$--*
*        |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 2's move (1-17): *************
*        |  *
*  $--$--$--*
*  |  |  |  *
*--$--$  $--*
*        |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 1's move (1-17): *************
*        |  *
*  $--$--$--*
*     |  |  *
*--$--$  $--*
*        |  *
*************
Player 1 score: 0
Player 2 score: 0
Player 2's move (1-17): Player 2 scores! Gets extra turn.
*************
*        |  *
*  $  $--$--*
*     |  |  *
*--$--$  $--*
*        |  *
*************
Player 1 score: 0
Player 2 score: 1
Player 2's move (1-17): *************
*        |  *
*  $  $--$--*
*        |  *
*--$--$  $--*
*        |  *
*************
Player 1 score: 0
Player 2 score: 1
Player 1's move (1-17): Player 1 scores! Gets extra turn.
*************
*        |  *
*  $  $--$--*
*        |  *
*--$  $  $--*
*        |  *
*************
Player 1 score: 1
Player 2 score: 1
Player 1's move (1-17): Player 1 scores! Gets extra turn.
*************
*        |  *
*  $  $--$--*
*        |  *
*  $  $  $--*
*        |  *
*************
Player 1 score: 2
Player 2 score: 1
Player 1's move (1-17): Player 1 scores! Gets extra turn.
*************
*        |  *
*  $  $  $--*
*        |  *
*  $  $  $--*
*        |  *
*************
Player 1 score: 3
Player 2 score: 1
Player 1's move (1-17): *************
*        |  *
*  $  $  $--*
*           *
*  $  $  $--*
*        |  *
*************
Player 1 score: 3
Player 2 score: 1
Player 2's move (1-17): *************
*           *
*  $  $  $--*
*           *
*  $  $  $--*
*        |  *
*************
Player 1 score: 3
Player 2 score: 1
Player 1's move (1-17): Player 1 scores! Gets extra turn.
*************
*           *
*  $  $  $  *
*           *
*  $  $  $--*
*        |  *
*************
Player 1 score: 4
Player 2 score: 1
Player 1's move (1-17): *************
*           *
*  $  $  $  *
*           *
*  $  $  $--*
*           *
*************
Player 1 score: 4
Player 2 score: 1
Player 2's move (1-17): *************
*           *
*  $  $  $  *
*           *
*  $  $  $  *
*           *
*************
Player 1 score: 4
Player 2 score: 2
Player 1 wins!"""

# The handout's updateNetwork table: (network, pos, p, network after the call).
TABLE = [
    (10011011110011010, 10, 2, 10011010110011011),
    (1010101001001101110, 5, 1, 1010001001001101120),
    (1010101001001101110, 5, 2, 1010001001001101111),
    (1001011100110010001, 11, 1, 1001011100010010001),
    (1001011100110010001, 11, 2, 1001011100010010001),
    (1001001001000010002, 15, 1, 1001001001000000012),
    (10000000000031, 6, 2, 33),
]

FULL_BOARD = (
    "*************\n"
    "*  |  |  |  *\n"
    "*--$--$--$--*\n"
    "*  |  |  |  *\n"
    "*--$--$--$--*\n"
    "*  |  |  |  *\n"
    "*************\n"
    "Player 1 score: 0\n"
    "Player 2 score: 0\n"
)
EMPTY_BOARD = (
    "*************\n"
    "*           *\n"
    "*  $  $  $  *\n"
    "*           *\n"
    "*  $  $  $  *\n"
    "*           *\n"
    "*************\n"
)


def run(args=(), stdin=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "reference.strings_and_coins", *args],
        input=stdin.encode("utf-8"),
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=20,
    )
    return proc.stdout.decode("utf-8"), proc.returncode


def lines(tokens):
    return "".join(f"{t}\n" for t in tokens)


# ------------------------------------------------------------------ the game


def test_handout_sample_run_byte_for_byte():
    out, code = run(stdin=lines(HANDOUT_INPUTS))
    assert out == SAMPLE_RUN
    assert code == 0


def test_sample_run_with_all_inputs_on_one_line():
    out, code = run(stdin=" ".join(HANDOUT_INPUTS) + "\n")
    assert (out, code) == (SAMPLE_RUN, 0)


def test_player_2_wins_and_no_newline_after_the_last_line():
    out, code = run(stdin=lines(range(1, 18)))
    assert code == 0
    assert out.startswith(FULL_BOARD + "Player 1's move (1-17): ")
    assert out.endswith(EMPTY_BOARD + "Player 1 score: 0\nPlayer 2 score: 6\nPlayer 2 wins!")


def test_draw_game():
    moves = [4, 7, 13, 16, 1, 2, 11, 9, 12, 17, 15, 8, 5, 14, 6, 10, 3]
    out, code = run(stdin=lines(moves))
    assert code == 0
    assert out.endswith(EMPTY_BOARD + "Player 1 score: 3\nPlayer 2 score: 3\nDraw game!")


def test_player_1_wins():
    moves = [15, 3, 5, 7, 2, 10, 6, 4, 8, 1, 17, 11, 14, 16, 13, 12, 9]
    out, code = run(stdin=lines(moves))
    assert code == 0
    assert out.endswith(EMPTY_BOARD + "Player 1 score: 6\nPlayer 2 score: 0\nPlayer 1 wins!")


def test_final_cut_scores_without_the_extra_turn_line():
    # In the handout's game player 2's last cut (14) frees the bottom-right coin.
    out, _ = run(stdin=lines(HANDOUT_INPUTS))
    last_prompt = out.rindex("Player 2's move (1-17): ")
    after = out[last_prompt + len("Player 2's move (1-17): "):]
    assert after.startswith("*************\n")
    assert "Player 2 score: 2\n" in after
    assert "scores!" not in after


def test_scoring_cut_gives_the_extra_turn_line_and_same_player():
    # 1 4 5 by alternating players, then 8 by player 2 frees the top-left coin.
    out, _ = run(stdin=lines([1, 4, 5, 8]))
    assert "Player 2's move (1-17): Player 2 scores! Gets extra turn.\n*************\n" in out
    assert out.endswith("Player 1 score: 0\nPlayer 2 score: 1\nPlayer 2's move (1-17): ")


def test_invalid_inputs_reprompt_without_the_board():
    out, code = run(stdin=lines([0, 18, -5, 2147483647, 3, 3, 17]))
    prompt1, prompt2 = "Player 1's move (1-17): ", "Player 2's move (1-17): "
    invalid = "Invalid. Try again!\n"
    assert out.startswith(FULL_BOARD + (prompt1 + invalid) * 4 + prompt1 + "*************\n")
    # 3 is already cut for player 2: one warning, then 17 is accepted.
    assert (prompt2 + invalid + prompt2 + "*************\n") in out
    assert out.count("*************\n") == 2 * 3
    assert code == 1  # input ran out while player 1 was prompted


def test_end_of_input_exits_1_after_the_prompt():
    out, code = run(stdin="")
    assert (out, code) == (FULL_BOARD + "Player 1's move (1-17): ", 1)


def test_non_integer_input_exits_1():
    out, code = run(stdin="abc\n5\n")
    assert (out, code) == (FULL_BOARD + "Player 1's move (1-17): ", 1)


# ------------------------------------------------------------------ --start


def test_start_from_the_tables_last_row():
    out, code = run(["--start", "10000000000031"], stdin="7\n6\n")
    assert out == (
        "*************\n"
        "*           *\n"
        "*  $  $--$  *\n"
        "*           *\n"
        "*  $  $  $  *\n"
        "*           *\n"
        "*************\n"
        "Player 1 score: 3\n"
        "Player 2 score: 1\n"
        "Player 1's move (1-17): Invalid. Try again!\n"
        "Player 1's move (1-17): "
        + EMPTY_BOARD
        + "Player 1 score: 5\nPlayer 2 score: 1\nPlayer 1 wins!"
    )
    assert code == 0


def test_start_accepts_leading_zeros():
    a, _ = run(["--start", "0010011011110011010"], stdin="")
    b, _ = run(["--start", "10011011110011010"], stdin="")
    assert a == b
    assert a.startswith("*************\n*        |  *\n*  $  $--$--*\n*     |  |  *\n")


@pytest.mark.parametrize(
    "state, reason",
    [
        ("x12", "not a decimal network"),
        ("-5", "not a decimal network"),
        ("11111111111111111000", "at most 19 digits"),
        ("2111111111111111100", "digit 1 (string 1) must be 0 or 1"),
        ("1111111111111111170", "player 1's score (digit 18) must be 0-6"),
        ("33", "no string is left to cut"),
        ("1111111111111111101", "the scores add up to 1 but 0 coin(s) are disconnected"),
    ],
)
def test_unusable_start_exits_3(state, reason):
    out, code = run(["--start", state], stdin="1\n")
    assert code == 3
    assert out.startswith("Invalid start: ") and out.endswith("\n")
    assert out.count("\n") == 1
    assert reason in out


# ------------------------------------------------------------------ the rules


@pytest.mark.parametrize("network, pos, p, after", TABLE)
def test_update_network_table(network, pos, p, after):
    assert sc.update_network(network, pos, p) == after


def test_string_state_and_player_score():
    fig = 10011011110011010  # Figure 1(b): 0010011011110011010
    uncut = [pos for pos in range(1, 18) if sc.string_state(fig, pos)]
    assert uncut == [3, 6, 7, 9, 10, 11, 12, 15, 16]
    assert (sc.player_score(fig, 1), sc.player_score(fig, 2)) == (1, 0)
    assert (sc.player_score(1001001001000010002, 1), sc.player_score(1001001001000010002, 2)) == (0, 2)
    assert all(sc.string_state(sc.FULL_NETWORK, pos) for pos in range(1, 18))


def test_print_network_full_and_cut():
    assert sc.print_network(sc.FULL_NETWORK) == FULL_BOARD
    assert sc.print_network(66) == EMPTY_BOARD + "Player 1 score: 6\nPlayer 2 score: 6\n"


# ------------------------------------------------------------------ the driver protocol


def test_driver_protocol():
    commands = [
        "state 0010011011110011010 3",
        "state 10011011110011010 1",
        "score 1001001001000010002 2",
        "update 10000000000031 6 2",
        "update 0010011011110011010 10 2",
        "print 1111111111111111100",
        "update 33 6 2",  # string 6 is already cut
        "state 11 18",
        "score 11 3",
        "print 1111111111111111107",
        "state 12x 3",
        "state 11",
        "jump 1",
        "",
    ]
    out, code = run(["--driver"], stdin=lines(commands))
    assert code == 0
    assert out == (
        "true\nfalse\n2\n33\n10011010110011011\n" + FULL_BOARD + "?\n" * 8
    )


def test_driver_answers_the_table_without_leading_zeros():
    out, code = run(["--driver"], stdin=lines(f"update {n:019d} {pos} {p}" for n, pos, p, _ in TABLE))
    assert code == 0
    assert out == "".join(f"{after}\n" for *_, after in TABLE)


def driver_commands(seed, count):
    rng = random.Random(seed)
    networks = [sc.FULL_NETWORK] + [n for n, *_ in TABLE]
    for _ in range(12):
        bits = "".join(rng.choice("01") for _ in range(17))
        networks.append(int(bits + str(rng.randint(0, 6)) + str(rng.randint(0, 6))))
    commands = []
    for n in networks:
        text = f"{n:019d}" if rng.random() < 0.5 else str(n)
        commands.append(f"print {text}")
        commands += [f"score {text} {p}" for p in (1, 2)]
        for pos in range(1, 18):
            commands.append(f"state {text} {pos}")
            commands += [f"update {text} {pos} {p}" for p in (1, 2)]
    commands += ["", "hello", "print 7", "state 1 0", "update 1 1 3", "print 11111111111111111000"]
    rng.shuffle(commands)
    return commands[:count]


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_cpp_driver_with_correct_sample_answers_like_the_reference(tmp_path):
    exe = tmp_path / "driver"
    subprocess.run(
        ["g++", "-std=c++17", "-Wall", "-Wextra", "-O2", "-I", str(SUPPORT), "-o", str(exe),
         str(SUPPORT / "driver.cpp"), str(CORRECT / "stringcoin.cpp")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    commands = driver_commands(seed=11, count=400)
    assert len(commands) == 400
    stdin = lines(commands)
    cpp = subprocess.run([str(exe)], input=stdin.encode(), capture_output=True, timeout=20)
    ref, code = run(["--driver"], stdin=stdin)
    assert (cpp.returncode, code) == (0, 0)
    assert cpp.stdout.decode() == ref
    assert ref.count("true\n") > 0 and ref.count("false\n") > 0 and ref.count("?\n") > 0
