"""Comparison policies, views, the first divergent turn, and the 'would pass if' hints."""
import re

from harness import compare
from harness.outcome import End

EXPECTED = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": "Not a legal move!\nRow? "}, {"in": "3"},
            {"out": "done\n"}]
ILLEGAL = compare.MessageClass("illegal", "Not a legal move!", re.compile(r"(?i)\b(illegal|invalid|not a (legal|valid))\b"))
WINNER = compare.MessageClass("winner", r"Player \1 wins!", re.compile(r"(?i)player\s*([12])\b.*\bwins?\b"))


def run(actual, flags, end=End.exited(0), expected=EXPECTED, messages=()):
    return compare.compare(expected, End.exited(0), actual, end, compare.View(compare.policy(*flags), messages))


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
    assert "turn 1 (after typing '4'), line 1" in result.difference
    assert "missing '!'" in result.difference
    assert result.hint is None


def test_a_missing_blank_line_is_called_missing():
    expected = [{"out": "Board\n\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    actual = [{"out": "Board\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    result = run(actual, ["default"], expected=expected)
    assert "a blank line is missing at line 2" in result.difference
    assert result.hint == "would pass if blank lines were ignored"
    extra = [{"out": "Board\n\n\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    assert "an extra blank line at line 3" in run(extra, ["default"], expected=expected).difference


def test_case_and_extra_lines_hints():
    upper = [{"out": "BOARD\nRow? "}, *EXPECTED[1:]]
    assert run(upper, ["default"]).hint == "would pass if letter case were ignored"
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
    assert result.difference.startswith("turn 2")
    assert "first differ at turn 1 (after typing '4')" in result.difference


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
    flags = compare.policy("default", {"messages": True, "drop_lines": "^x"}, "whitespace")
    assert flags["messages"] and flags["drop_lines"] == "^x" and flags["collapse_whitespace"]


def test_kept_lines_keep_their_line_ends():
    # a space at the end of a kept line is still a space at a line end (ignored by default),
    # while the prompt that ends a turn keeps its significant trailing space
    expected = [{"out": "Board\nBlack's turn\nRow? "}, {"in": "4"}, {"out": "done\n"}]
    spaced = [{"out": "Board\nBlack's turn \nRow? "}, {"in": "4"}, {"out": "done\n"}]
    assert run(spaced, ["default", {"keep_lines": "turn|Row"}], expected=expected).passed
    no_space = [{"out": "Board\nBlack's turn\nRow?"}, {"in": "4"}, {"out": "done\n"}]
    assert not run(no_space, ["default", {"keep_lines": "turn|Row"}], expected=expected).passed
