"""`harness play`: the reference played by a person in a terminal, through pexpect's interact().

Each test is that person: a pty of its own (pexpect) runs the real `harness play tally` of the
fixture project, types lines and keys and reads what the terminal shows."""
import io
import os
import signal
import sys

import pexpect

from tests.helpers import FIXTURE, ROOT


def play(*args):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["HARNESS_ROOT"] = str(FIXTURE)
    # as from a shell: Ctrl-C is not ignored, whatever an earlier test in this process did with it
    person = pexpect.spawn(sys.executable, ["-m", "harness", "play", "tally", *args], cwd=str(ROOT), env=env,
                           encoding="utf-8", timeout=30, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    person.logfile_read = io.StringIO()  # all the terminal showed
    return person


def test_a_game_is_played_through_the_harness_terminal_to_its_end():
    # tally (tests/fixture/README.md): from its start it adds 1, 2 or 3 a turn, refuses anything
    # else, and ends at 10 or more
    start, moves = 3, ["2", "5", "3", "2"]
    game = play("--start", str(start))
    game.expect_exact(f"Start: {start}")
    game.expect_exact("Add? ")
    # the keys go to the game's own terminal: the harness's is raw (interact) while it plays
    assert not game.getecho()
    total, turns = start, 0
    for move in moves:
        game.sendline(move)
        game.expect_exact(move)  # the game's terminal echoes what is typed
        if int(move) in (1, 2, 3):
            total, turns = total + int(move), turns + 1
            game.expect_exact(f"Now {total}")
        else:
            game.expect_exact("Illegal!")
    assert total >= 10
    game.expect_exact(f"Done in {turns} turns")  # printed just before the game ended: still shown
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 0
    assert "Traceback" not in game.logfile_read.getvalue()


def test_ctrl_d_ends_the_game_input_and_its_status_is_the_harness_exit():
    game = play("--start", "2")
    game.expect_exact("Add? ")
    game.sendeof()  # at the start of a line: the game reads the end of its input, and exits 1
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 1


def _games_with(marker: str) -> list[int]:
    """The processes running tally.py with `marker` among their arguments."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as listed:
                words = listed.read().decode("utf-8", "replace").split("\0")
        except OSError:
            continue
        if marker in words and any(word.endswith("tally.py") for word in words):
            found.append(int(pid))
    return found


def test_ctrl_c_stops_the_harness_with_one_line_and_the_game_goes_too():
    seed = str(int.from_bytes(os.urandom(4), "big"))  # names this test's game among every process
    game = play("--seed", seed)
    game.expect_exact("Add? ")
    assert len(_games_with(seed)) == 1
    game.sendline("1")
    game.expect_exact("Now ")
    game.expect_exact("Add? ")
    game.sendintr()
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 130
    assert "harness: interrupted" in game.before
    shown = game.logfile_read.getvalue()
    assert shown.count("harness: interrupted") == 1 and "Traceback" not in shown and "KeyboardInterrupt" not in shown
    assert _games_with(seed) == []  # killed and reaped before the harness ended
