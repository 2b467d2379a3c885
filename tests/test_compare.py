"""Comparison policies, the first divergent turn, and the 'would pass if' hints."""
from harness import compare

EXPECTED = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": "Not a legal move!\nRow? "}, {"in": "3"},
            {"out": "done\n"}]


def run(actual, flags, end=0):
    return compare.compare(EXPECTED, 0, actual, end, compare.policy(*flags))


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
    assert result.hint == "would pass if runs of whitespace were collapsed"


def test_the_first_divergent_turn_and_line_are_named():
    actual = [*EXPECTED[:2], {"out": "Not a legal move\nRow? "}, *EXPECTED[3:]]
    result = run(actual, ["whitespace"])
    assert result.first_divergence == 1
    assert "turn 1 (after typing '4'), line 1" in result.difference
    assert "missing '!'" in result.difference
    assert result.hint is None


def test_case_and_extra_lines_hints():
    upper = [{"out": "BOARD\nRow? "}, *EXPECTED[1:]]
    assert run(upper, ["default"]).hint == "would pass if letter case were ignored"
    chatty = [{"out": "Welcome!\nBoard\nRow? "}, *EXPECTED[1:]]
    assert run(chatty, ["default"]).hint == "would pass if extra lines were ignored"
    assert run(chatty, ["lenient"]).passed


def test_end_state_must_match():
    result = run(EXPECTED, ["default"], end="waiting")
    assert not result.passed
    assert "still waiting for input" in result.problems[0]
    assert run(EXPECTED, ["default", {"ignore_exit": True}], end=1).passed


def test_scoring_only_the_first_or_last_turn():
    wrong_middle = [*EXPECTED[:2], {"out": "nope\nRow? "}, *EXPECTED[3:]]
    assert run(wrong_middle, ["default", {"turns": "first"}]).passed
    assert run(wrong_middle, ["default", {"turns": "last"}]).passed
    assert not run(wrong_middle, ["default"]).passed
    wrong_end = [*EXPECTED[:4], {"out": "Done\n"}]
    assert not run(wrong_end, ["default", {"turns": "last"}]).passed


def test_from_scores_the_last_turn_from_a_marker():
    expected = [{"out": "x"}, {"in": "1"}, {"out": "board\nFinal board:\nB wins\n"}]
    actual = [{"out": "x"}, {"in": "1"}, {"out": "BOARD?\nFinal board:\nB wins\n"}]
    flags = compare.policy("default", {"turns": "last", "from": "Final board:"})
    assert compare.compare(expected, 0, actual, 0, flags).passed
    missing = [{"out": "x"}, {"in": "1"}, {"out": "B wins\n"}]
    assert not compare.compare(expected, 0, missing, 0, flags).passed
