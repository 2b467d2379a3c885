"""A student's own game in the self-check service (`harness serve --counterexamples N`,
harness/serve/own.py), against a real service grading the fixture game Tally's samples: a
program with a bug is shown its game, the same sources the same game at no cost, a correct one
"none found", the day's searches and the handout's turns are limits that say so, the next
upload is played the game shown, and the instructor's counts follow. No game shown is a hidden
case, nor names one."""
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from harness.counterexample import secrecy
from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, SAMPLES
from tests.test_serve import DEADLINE, HIDDEN, HIDDEN_SECRETS, INSTRUCTOR, Server

pytestmark = pytest.mark.slow  # three services started, and a correct program's whole search

# bug-add adds 1 whatever legal number is typed: the one-minimal game is the one line 2 (the
# simplest line of the menu on which the two tallies part), differing at turn 1
BUG_ADD_GAME = ["2"]
# the correct program, except that the hidden case's first input ("two": no public case types it,
# so no game of the search does) puts it to sleep until the hidden case's turn limit
SLEEPER = (SAMPLES / "correct" / "tally.py").read_text().replace(
    "def read_number(line):\n", "def read_number(line):\n    if line.strip() == 'two':\n"
                                "        __import__('time').sleep(3600)\n")
HIDDEN_TURN_SECONDS = 60


def _sample(name: str) -> list[tuple[str, bytes]]:
    return [("tally.py", (SAMPLES / name / "tally.py").read_bytes())]


def _settled(server: Server, student: str, ident: int) -> dict:
    """The submission once its student is shown its result and its own game is no longer being
    searched (the service holds each long poll until one of them changes: nothing here sleeps)."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        status, body = server.call(f"/api/submissions/{ident}?wait=10", server.tokens[student])
        assert status == 200, body
        state = json.loads(body)
        if state["state"] == "done" and state["own_game"]["status"] != "searching":
            return state
    raise AssertionError(f"submission {ident}'s own game not settled in {DEADLINE} s: " + server.logged()[-3000:])


def _checked(server: Server, student: str, sample: str) -> dict:
    status, body = server.upload(student, _sample(sample))
    assert status == 202, body
    return _settled(server, student, json.loads(body)["id"])


def _check_with_the_server(server: Server, student: str, sample: str) -> tuple[subprocess.CompletedProcess, dict]:
    """`harness check --server` (it waits for the own game too), and the submission it made."""
    done = subprocess.run([sys.executable, "-m", "harness", "check", "tally", os.fsdecode(SAMPLES / sample),
                           "--server", server.url, "--token", server.tokens[student],
                           "-o", str(server.folder / "reports")],
                          cwd=ROOT, env={**os.environ, "HARNESS_ROOT": str(FIXTURE)}, capture_output=True, text=True,
                          timeout=DEADLINE)
    status, mine = server.call("/api/submissions", server.tokens[student])
    assert status == 200, mine
    ident = json.loads(mine)["submissions"][-1]["id"]
    return done, _settled(server, student, ident)


def _no_hidden_case(state: dict) -> None:
    """The game shown is no hidden case (nor a prefix of more than half of one), and nothing
    shown names one."""
    spec = specs.load("tally", FIXTURE)
    hidden = secrecy.hidden_games(caseload.load_all(spec, None))
    assert hidden, "the fixture has a hidden case"
    game = state["own_game"].get("game")
    if game is not None:
        assert not secrecy.reveals(tuple(game["inputs"]), hidden)
    for secret in HIDDEN_SECRETS:
        assert secret not in json.dumps(state["own_game"])


def _counts(server: Server) -> dict:
    status, body = server.call("/instructor/counterexamples?game=tally", basic=INSTRUCTOR)
    assert status == 200, body
    return json.loads(body)


def _bug_add_game(state: dict) -> None:
    """bug-add's game, as the student reads it: the line typed, both outputs at the differing
    turn from the start the program drew, and the command that replays it."""
    own = state["own_game"]
    assert own["status"] == "found", own
    game = own["game"]
    start = int(game["start"])
    assert game["inputs"] == BUG_ADD_GAME and game["turn"] == 1 and game["rubric"] == "add"
    assert game["expected"] == f"Now {start + 2}\nAdd? " and game["actual"] == f"Now {start + 1}\nAdd? "
    assert "--replay" in game["replay"] and '"lines":["2"]' in game["replay"]
    assert "typed: '2'" in own["text"] and game["replay"] in own["text"]


def test_a_bug_gets_its_game_the_same_sources_the_same_then_the_limit_and_the_fix_is_counted(tmp_path):
    """One search a day: bug-add is shown its game; the same sources again are shown the same
    game without a search; the fixed program is past the day's limit and told so, and is played
    the game shown before it, which it no longer differs on: the instructor's counts say so."""
    server = Server(tmp_path, extra=("--counterexamples", "1")).start()
    try:
        done, first = _check_with_the_server(server, "student0", "bug-add")
        assert done.returncode == 1, done.stderr
        _bug_add_game(first)
        assert "Your own game" in done.stdout and "typed: '2'" in done.stdout
        assert f"replay it: {first['own_game']['game']['replay']}" in done.stdout
        _no_hidden_case(first)

        again = _checked(server, "student0", "bug-add")
        assert again["own_game"]["game"] == first["own_game"]["game"]
        assert "same sources" in again["own_game"]["why"]

        fixed = _checked(server, "student0", "correct")
        assert fixed["own_game"]["status"] == "limit reached for today"
        assert "at most 1 game of your own a day" in fixed["own_game"]["why"]
        assert "game" not in fixed["own_game"]

        counts = _counts(server)
        # shown twice (the second a copy: no turn of the handout shown again); each next upload
        # played the game shown before it: bug-add still differs, the correct program does not
        assert (counts["shown"], counts["next_played"], counts["next_no_longer_differs"]) == (2, 2, 1), counts
        assert counts["turns_shown"] == first["own_game"]["game"]["turn"] + 1  # turns 0 and 1 of one game
        assert (counts["searches"], counts["limit_reached"], counts["none_found"]) == (1, 1, 0), counts
        status, page = server.call("/instructor?game=tally", basic=INSTRUCTOR)
        assert status == 200 and b'id="own-games"' in page and b"1 of those no longer differ" in page
        status, history = server.call("/instructor/students/student0", basic=INSTRUCTOR)
        assert [s["own_game"]["status"] for s in json.loads(history)["submissions"]] == \
            ["found", "found", "limit reached for today"]
    finally:
        server.stop()


def test_a_correct_program_gets_none_found_before_its_hidden_case_ends_and_a_game_past_the_turns_is_not_shown(
        tmp_path):
    """With one of the handout's turns a day, bug-add's game (turns 0 and 1) is kept back and
    the limit said. A correct program whose hidden case sleeps is searched and told none is
    found while that case has not even ended: when the game comes out never depends on a hidden run."""
    root = tmp_path / "root"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    case = root / "cases" / "tally" / f"{HIDDEN}.yaml"
    case.write_text(case.read_text() + f"limits: {{turn_seconds: {HIDDEN_TURN_SECONDS}, run_seconds: 120}}\n")
    (tmp_path / "serve").mkdir()
    server = Server(tmp_path / "serve", root=root,
                    extra=("--counterexamples", "3", "--counterexample-turns", "1")).start()
    try:
        buggy = _checked(server, "student2", "bug-add")
        assert buggy["own_game"]["status"] == "limit reached for today", buggy["own_game"]
        assert "more than 1 of the handout's turns" in buggy["own_game"]["why"] and "game" not in buggy["own_game"]
        status, body = server.upload("student1", [("tally.py", SLEEPER.encode())])
        assert status == 202, body
        ident = json.loads(body)["id"]
        correct = _settled(server, "student1", ident)
        assert correct["own_game"] == {"status": "none found"}
        assert server.call(f"/instructor/submissions/{ident}/report", basic=INSTRUCTOR)[0] == 404  # still asleep
        counts = _counts(server)
        assert (counts["shown"], counts["turns_shown"], counts["searches"], counts["none_found"]) == (0, 0, 2, 1)
    finally:
        server.stop()


def test_off_by_default_no_game_is_searched(tmp_path):
    server = Server(tmp_path).start()
    try:
        state = _checked(server, "student0", "bug-add")
        assert state["own_game"]["status"] == "not computed"
        assert "searches no game" in state["own_game"]["why"]
        assert _counts(server)["searches"] == 0
    finally:
        server.stop()
