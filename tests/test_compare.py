"""Comparison policies, views, the first divergent turn, and the 'would pass if' hints; and that
comparing hostile output stays linear and within its CPU budget."""
import shutil
import threading

import pytest

from harness.judging import compare
from harness.loading import policy as policies
from harness.loading import spec as specs
from harness.errors import InputError
from harness.outcome import End
from tests.helpers import ROOT

EXPECTED = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": "Not a legal move!\nRow? "}, {"in": "3"},
            {"out": "done\n"}]
ILLEGAL = policies.MessageClass("illegal", "Not a legal move!", r"(?i)\b(illegal|invalid|not a (legal|valid))\b")
WINNER = policies.MessageClass("winner", r"Player \1 wins!", r"(?i)player\s*([12])\b.*\bwins?\b")


def run(actual, flags, end=End.exited(0), expected=EXPECTED, messages=()):
    return compare.compare(expected, End.exited(0), actual, end, compare.View(policies.policy(*flags), messages))


def test_identical_transcripts_pass_exactly():
    assert run(EXPECTED, ["exact"]).passed


def test_default_ignores_crlf_trailing_spaces_and_final_blank_lines_but_not_prompt_spaces():
    actual = [{"out": "Board  \r\nRow? "}, {"in": "4"}, {"out": "Not a legal move!\r\nRow? "}, {"in": "3"},
              {"out": "done\n\n\n"}]
    assert run(actual, ["default"]).passed
    assert not run(actual, ["exact"]).passed
    no_prompt_space = [{"out": "Board\nRow?"}, *EXPECTED[1:]]
    result = run(no_prompt_space, ["default"])
    assert not result.passed and result.first_divergence == 0
    assert result.hint == "would pass if runs of spaces were collapsed"


def test_the_first_divergent_turn_and_line_are_named():
    actual = [*EXPECTED[:2], {"out": "Not a legal move\nRow? "}, *EXPECTED[3:]]
    result = run(actual, ["whitespace"])
    assert result.first_divergence == 1
    assert "after your 1st input ('4'), line 1" in result.difference
    assert ("expected 'Not a legal move!', your program printed 'Not a legal move' (your line lacks '!' at column 17)"
            in result.difference)
    assert result.hint is None


def test_a_missing_blank_line_is_called_missing():
    expected = [{"out": "Board\n\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    actual = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    result = run(actual, ["default"], expected=expected)
    assert "line 2: the expected output has a blank line here, which your program did not print" in result.difference
    assert result.hint == "would pass if blank lines were ignored"
    extra = [{"out": "Board\n\n\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    assert "line 3: your program printed an extra blank line" in run(extra, ["default"], expected=expected).difference


def test_case_and_extra_lines_hints():
    upper = [{"out": "BOARD\nRow? "}, *EXPECTED[1:]]
    assert run(upper, ["default"]).hint == "would pass if letter case was ignored"
    chatty = [{"out": "Welcome!\nBoard\nRow? "}, *EXPECTED[1:]]
    assert run(chatty, ["default"]).hint == "would pass if extra lines were ignored"
    assert run(chatty, ["lenient"]).passed


def test_end_state_must_match():
    result = run(EXPECTED, ["default"], end=End("waiting"))
    assert not result.passed
    assert "still waiting for input" in result.problems[0]
    assert run(EXPECTED, ["default", {"ignore_exit": True}], end=End.exited(1)).passed
    # a limit the harness had to enforce is never excused
    assert not run(EXPECTED, ["default", {"ignore_exit": True}], end=End("timeout")).passed


def test_scoring_only_the_first_or_last_turn():
    wrong_middle = [*EXPECTED[:2], {"out": "nope\nRow? "}, *EXPECTED[3:]]
    assert run(wrong_middle, ["default", {"turns": "first"}]).passed
    assert run(wrong_middle, ["default", {"turns": "last"}]).passed
    assert not run(wrong_middle, ["default"]).passed
    wrong_end = [*EXPECTED[:4], {"out": "Done\n"}]
    assert not run(wrong_end, ["default", {"turns": "last"}]).passed


def test_a_last_turn_case_also_names_where_the_transcripts_first_differ():
    wrong_both = [*EXPECTED[:2], {"out": "nope\nRow? "}, *EXPECTED[3:4], {"out": "Done\n"}]
    result = run(wrong_both, ["default", {"turns": "last"}])
    assert not result.passed
    assert result.difference.startswith("at the end of the game (after your 2nd input)")
    assert "your program's output first differs from the expected after your 1st input ('4')" in result.difference


def test_from_scores_the_last_turn_from_a_marker():
    expected = [{"out": "x"}, {"in": "1"}, {"out": "board\nFinal board:\nB wins\n"}]
    actual = [{"out": "x"}, {"in": "1"}, {"out": "BOARD?\nFinal board:\nB wins\n"}]
    flags = ["default", {"turns": "last", "from": "Final board:"}]
    assert run(actual, flags, expected=expected).passed
    missing = [{"out": "x"}, {"in": "1"}, {"out": "B wins\n"}]
    assert not run(missing, flags, expected=expected).passed


def test_message_classes_accept_the_handouts_example_wording_only_where_asked():
    actual = [*EXPECTED[:2], {"out": "Sorry! Illegal move.\nRow? "}, *EXPECTED[3:]]
    assert run(actual, ["whitespace", {"messages": True}], messages=(ILLEGAL,)).passed
    assert not run(actual, ["whitespace"], messages=(ILLEGAL,)).passed  # a message item looks at the exact text
    expected = [{"out": "x\n"}, {"in": "1"}, {"out": "Player 2 wins!\n"}]
    other = [{"out": "x\n"}, {"in": "1"}, {"out": "Congratulations! Player 2 wins the game!\n"}]
    assert run(other, ["default", {"messages": True}], expected=expected, messages=(WINNER,)).passed
    # the fact behind the words still counts: the wrong winner fails
    wrong = [{"out": "x\n"}, {"in": "1"}, {"out": "Congratulations! Player 1 wins the game!\n"}]
    assert not run(wrong, ["default", {"messages": True}], expected=expected, messages=(WINNER,)).passed


def test_line_filters_let_an_item_look_only_at_its_lines():
    chatty = [{"out": "Welcome to the game!\nBoard\nRow? "}, *EXPECTED[1:]]
    assert not run(chatty, ["default"]).passed
    assert run(chatty, ["default", {"drop_lines": "^Welcome"}]).passed
    assert run(chatty, ["default", {"keep_lines": "^(Board|Row|Not|done)"}]).passed
    wrong_board = [{"out": "Welcome to the game!\nBoard!\nRow? "}, *EXPECTED[1:]]
    assert not run(wrong_board, ["default", {"drop_lines": "^Welcome"}]).passed


def test_a_later_preset_keeps_the_view_of_the_layer_below():
    flags = policies.policy("default", {"messages": True, "drop_lines": "^x"}, "whitespace")
    assert flags.messages and flags.drop_lines == "^x" and flags.collapse_whitespace


def test_kept_lines_keep_their_line_ends():
    # a space at the end of a kept line is still a space at a line end (ignored by default),
    # while the prompt that ends a turn keeps its significant trailing space
    expected = [{"out": "Board\nBlack's turn\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    spaced = [{"out": "Board\nBlack's turn \nRow? "}, {"in": "4"}, {"out": "done\n"}]
    assert run(spaced, ["default", {"keep_lines": "turn|Row"}], expected=expected).passed
    no_space = [{"out": "Board\nBlack's turn\nRow?"}, {"in": "4"}, {"out": "done\n"}]
    assert not run(no_space, ["default", {"keep_lines": "turn|Row"}], expected=expected).passed


def test_a_class_may_need_several_words_in_any_order_and_rule_some_out():
    """RE2 has no lookarounds: `accept` lists what must all be found, `unless` what must not;
    groups are numbered across the list, and \\1 takes the first pattern's group."""
    count = policies.MessageClass("count", r"Player (\1) has \2\3 connected", [
        r"\b([XO])\b", r"(?i)\b(?:(\d+)\s+connected\b|longest run\b\D{0,40}?(\d+))"])
    assert count.groups == 3
    assert count.read("Player Alice (X) has 2 connected pieces.") == "Player (X) has 2 connected"
    assert count.read("Longest run for X: 4") == "Player (X) has 4 connected"  # the match spans the X
    assert count.read("4 connected") is None
    ask = policies.MessageClass("ask", "y or n", [r"(?i)\by/n\b", r"(?i)\bplease\b"], unless=r"(?i)\bagain\b")
    assert ask.read("Please answer y/n") == "y or n"
    assert ask.read("Play again? Please answer y/n") is None


def test_a_pattern_re2_cannot_run_is_refused_with_the_reason():
    for bad in [r"(?=.*wins)", r"(a)\1", r"x\Z", r"(?<!a)b"]:
        with pytest.raises(policies.PatternError, match="RE2 has no lookarounds"):
            policies.pattern(bad)
    with pytest.raises(policies.PatternError, match="missing"):
        policies.pattern("(unclosed")


@pytest.mark.parametrize("key, line, value", [
    ("accept", "    accept: '(?i)\\b(?:illegal|invalid|not allowed|try again)\\b'",
     "    accept: '(?i)^(?=.*\\billegal\\b)'"),
    ("compare", "     compare: {preset: lenient, turns: first}}",
     "     compare: {preset: lenient, turns: first, keep_lines: '(\\d)\\1'}}"),
])
def test_a_spec_pattern_re2_cannot_run_is_refused_at_its_line(tmp_path, key, line, value):
    shutil.copytree(ROOT / "tests" / "fixture" / "specs", tmp_path / "specs")
    (tmp_path / "cases").mkdir()
    path = tmp_path / "specs" / "tally" / "spec.yaml"
    text = path.read_text()
    assert line in text
    path.write_text(text.replace(line, value, 1))
    with pytest.raises(InputError) as refused:
        specs.load("tally", tmp_path)
    number = path.read_text().splitlines().index(value) + 1
    assert str(refused.value).startswith(f"{path}:{number}: ")
    assert "is not a pattern RE2 can run" in str(refused.value)


# --- hostile output: linear, within the CPU budget ----------------------------------------------

MILLION = 1_000_000
HOSTILE = {
    "a line of a million spaces": " " * MILLION + "\n",
    "x, a million spaces, y": "x" + " " * MILLION + "y\n",
    "a million characters, no newline": "ab" * (MILLION // 2),
    "a hundred thousand newlines": "\n" * (MILLION // 10),
    "a long line unlike the expected one": "Not " + "a legal move " * (MILLION // 13) + "\n",
}
# Every preset, each flag on its own and all of them, and the views (messages, line filters, a
# last turn from a marker): the hint ladder re-runs the comparison under looser policies too.
POLICIES = ([[p] for p in policies.PRESETS] + [["exact", {flag: True}] for flag in policies.FLAGS]
            + [["exact", {flag: True for flag in policies.FLAGS}]]
            + [[p, {"messages": True, "keep_lines": r"(?i)move|row|done|\s$", "drop_lines": r"^\s*$"}]
               for p in policies.PRESETS]
            + [["whitespace", {"turns": "last", "from": "Not", "messages": True}]])


@pytest.mark.slow  # megabytes of hostile output compared under every policy
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_output_compares_within_the_budget_under_every_policy(name):
    """Before: "x" + 120,000 spaces + "y" took 44 s of CPU (a quadratic regex on trailing
    spaces); bench/compare.py prints the seconds. Here each comparison must fit in 1 s: the
    flood against a long expected line (so the difference is described on two long lines)."""
    actual = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": HOSTILE[name]}, {"in": "3"}, {"out": "done\n"}]
    expected = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": "Not " + "a legal move " * 70_000 + "!\n"},
                {"in": "3"}, {"out": "done\n"}]
    for flags in POLICIES:
        view = compare.View(policies.policy(*flags), (ILLEGAL, WINNER))
        result = compare.compare_within(expected, End.exited(0), actual, End.exited(0), view, seconds=1.0)
        assert not any("of CPU" in problem for problem in result.problems), (flags, result.problems)
        assert result.passed or len(result.difference) < 2000  # (a last-turn policy looks past the flood)


def test_a_long_line_unlike_the_expected_one_is_described_by_its_first_differing_column():
    expected = [{"out": "x" + " " * 50_000 + "y\n"}]
    actual = [{"out": "x" + " " * 50_000 + "z" + "w" * 5000 + "\n"}]
    result = compare.compare_within(expected, End.exited(0), actual, End.exited(0),
                                    compare.View(policies.policy("exact")), seconds=1.0)
    assert "before your first input, line 1: expected 'x " in result.difference
    assert "(the lines first differ at column 50002)" in result.difference
    nearly = [{"out": "x" + " " * 50_000 + "z\n"}]
    result = compare.compare_within(expected, End.exited(0), nearly, End.exited(0),
                                    compare.View(policies.policy("exact")), seconds=1.0)
    assert "(at column 50002 your line has 'z' where the expected has 'y')" in result.difference


def test_many_lines_are_aligned_only_near_the_first_difference():
    lines = [f"line {i}" for i in range(20_000)]
    expected = [{"out": "\n".join(lines) + "\n"}]
    changed = [{"out": "\n".join(lines[:15_000] + ["lime 15000"] + lines[15_001:]) + "\n"}]
    for preset in ("default", "lenient"):
        result = compare.compare_within(expected, End.exited(0), changed, End.exited(0),
                                        compare.View(policies.policy(preset)), seconds=1.0)
        assert "line 15001" in result.difference and "'line 15000'" in result.difference
    same_lines = [{"out": "\n" * 20_000 + "x\n"}]
    result = compare.compare_within([{"out": "\n" * 20_000 + "y\n"}], End.exited(0), same_lines, End.exited(0),
                                    compare.View(policies.policy("exact")), seconds=1.0)
    assert result.difference.endswith("line 20001: expected 'y', your program printed 'x'")


def _heavy():
    """A comparison that takes far more than a few milliseconds: every line a message candidate."""
    numbers = "".join(f"{i}\n" for i in range(300_000))
    digits = policies.MessageClass("digits", "", r"^\d+$")
    view = compare.View(policies.policy("lenient", {"messages": True}), (digits,))
    return [{"out": "Board\n"}], [{"out": numbers}, {"in": "1"}, {"out": numbers}], view


def test_a_comparison_over_its_cpu_budget_fails_the_case_and_says_why():
    expected, actual, view = _heavy()
    result = compare.compare_within(expected, End.exited(0), actual, End.exited(0), view, seconds=0.01)
    assert not result.passed
    assert result.problems[0].startswith("comparing this case took more than 0.01 s of CPU: your program's output")
    assert [t.index for t in result.turns] == [0, 1]  # the turns are still shown, as printed
    assert result.difference is None and result.hint is None


def test_the_budget_holds_outside_the_main_thread_too():
    """No timer signal there: the comparison's steps check the thread's CPU time."""
    expected, actual, view = _heavy()
    results = []
    worker = threading.Thread(target=lambda: results.append(
        compare.compare_within(expected, End.exited(0), actual, End.exited(0), view, seconds=0.01)))
    worker.start()
    worker.join()
    assert "comparing this case took more than 0.01 s of CPU" in results[0].problems[0]


def test_the_budget_leaves_no_timer_behind():
    import signal
    compare.compare_within(EXPECTED, End.exited(0), EXPECTED, End.exited(0), compare.View(policies.policy("exact")))
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) == signal.SIG_DFL
