"""What a student reads from `harness check`: places counted as the student counts them (after
their Nth input, before their first one, never "turn 0"), and a difference read from the game's
facts said in the game's terms, with the line of the program's output that differs."""
import re

import pytest
import yaml

from tests.helpers import FIXTURE, ROOT, SAMPLES

pytestmark = pytest.mark.slow

SKIP_ENDS_GAME = ROOT / "examples" / "reversi" / "bug-skip-ends-game"
TURN_NUMBER = re.compile(r"\bturn \d")


def _ordinal(number: int) -> str:
    return f"{number}" + ("th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th"))


def _inputs_before(case_file, marker: str) -> tuple[int, str]:
    """How many lines a case types before the first output holding `marker`, and the last one typed."""
    events = yaml.safe_load(case_file.read_text())["expect"]["transcript"]
    count, last = 0, None
    for event in events:
        if "in" in event:
            count, last = count + 1, event["in"]
        elif marker in event["out"]:
            return count, last
    raise AssertionError(f"{marker!r} not in {case_file}")


def _reason(stdout: str, case: str) -> str:
    lines = stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if re.search(rf"FAIL {re.escape(case)} ", line))
    return lines[at + 1].strip()


def test_a_skip_that_ends_the_game_is_said_in_the_games_terms(harness_cli, tmp_path):
    done = harness_cli("check", "reversi", SKIP_ENDS_GAME, "-o", tmp_path)
    assert done.returncode == 1, done.stderr
    assert not TURN_NUMBER.search(done.stdout), done.stdout
    # the handout's skip: the case's first "No legal moves!" comes after the student's Nth input,
    # where this program ends its game instead of going on with the other player
    count, last = _inputs_before(ROOT / "cases" / "reversi" / "ms2-end-after-skip.yaml", "No legal moves!")
    reason = _reason(done.stdout, "ms2-end-after-skip")
    assert reason.startswith(f"after your {_ordinal(count)} input ({last!r}): "), reason
    assert "the player to move is 'white', in your program's output 'black'" in reason
    assert "your program ended the game here, where the expected game goes on" in reason
    # the excerpt is the line that differs, never the same text twice, never the reader's words
    assert "your program printed 'Final board:'" in reason
    quoted = re.findall(r"'([^']*)'", reason.split("; ", 1)[1])
    assert len(quoted) == len(set(quoted)), reason
    for internal in ("asked to move after this input", "to read", "printed there:", "turn 0"):
        assert internal not in done.stdout
    assert f"ms2-end-after-skip: first difference after your {_ordinal(count)} input ({last!r})" in done.stdout


def test_a_difference_before_any_input_says_so(harness_cli, tmp_path):
    """A banner before the first prompt: "before your first input", never a turn's number."""
    done = harness_cli("check", "tally", SAMPLES / "variant-banner", "-o", tmp_path, env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 1, done.stderr
    assert "first difference before your first input" in done.stdout
    assert "before your first input, line 1: " in _reason(done.stdout, "prompt-two-adds")
    assert not TURN_NUMBER.search(done.stdout), done.stdout


def test_the_fixture_games_differences_count_the_inputs(harness_cli, tmp_path):
    """Every place a failing case names is counted in the student's inputs ("after your 2nd input")."""
    done = harness_cli("check", "tally", SAMPLES / "bug-add", "-o", tmp_path, env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 1, done.stderr
    assert not TURN_NUMBER.search(done.stdout), done.stdout
    places = re.findall(r"first difference (after your (\d+)(st|nd|rd|th) input|before your first input)", done.stdout)
    assert places
    for _whole, number, suffix in places:
        assert not number or f"{number}{suffix}" == _ordinal(int(number))
