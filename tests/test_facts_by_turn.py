"""A message is recognised by what the turn expects (harness/judging/facts.py): a reader that asks
for them reads the program's turn with the reference's facts of the same turn, and a line that
fits several readings is read as the one the turn shows, never as a kind it cannot be read as.
A synthetic reader: `said: X` lines are facts, a line `either A or B` can be read as A or as B."""
from harness.judging import facts
from harness.judging.compare import View, compare
from harness.loading.policy import Policy
from harness.outcome import End


def _read(text: str, expected=None) -> list[tuple[str, str]]:
    found = []
    for line in text.split("\n"):
        if line.startswith("either "):
            readings = [(kind, "yes") for kind in line[len("either "):].split(" or ")]
            found.append(facts.choose(readings, lambda reading: reading[0], expected))
        elif ": " in line:
            kind, value = line.split(": ", 1)
            found.append((kind, value))
    return found


_read.expects = True
READER = facts.StateReader(_read)


def test_choose_takes_the_reading_the_turn_expects_else_the_likeliest():
    readings = [("welcome", "shown"), ("result", "alice")]
    assert facts.choose(readings, lambda r: r[0], [("result", "bob")]) == ("result", "alice")
    assert facts.choose(readings, lambda r: r[0], [("board", "x")]) == ("welcome", "shown")
    assert facts.choose(readings, lambda r: r[0], None) == ("welcome", "shown")


def test_the_program_s_turns_are_read_with_the_reference_s_facts_of_the_same_turn():
    expected = ["welcome: shown", "result: yes"]
    actual = ["either welcome or result", "either welcome or result"]
    assert facts.fact_turns(actual, READER, "state", expected) == ["welcome: yes", "result: yes"]
    assert facts.fact_turns(actual, READER, "state") == ["welcome: yes", "welcome: yes"]  # nothing expected


def test_a_line_is_never_read_as_a_kind_it_cannot_be():
    assert facts.fact_turns(["either welcome or prompt"], READER, "state", ["result: yes"]) == ["welcome: yes"]


def test_a_reader_that_does_not_ask_is_called_as_before():
    plain = facts.StateReader(lambda text: [("said", text)])
    assert facts.fact_turns(["a"], plain, "state", ["b"]) == ["said: a"]


def _events(*turns: str) -> list[dict]:
    events = []
    for index, text in enumerate(turns):
        if index:
            events.append({"in": "go"})
        events.append({"out": text})
    return events


def test_the_comparison_reads_the_program_by_the_expected_turn_and_keeps_a_wrong_answer_wrong():
    view = View(Policy().replace({"facts": "state"}), (), READER)
    expected = _events("board: 1\n", "board: 2\nresult: yes\n")
    right = _events("board: 1\n", "board: 2\neither welcome or result\n")
    wrong = _events("board: 1\n", "board: 3\neither welcome or result\n")
    silent = _events("board: 1\n", "board: 2\neither welcome or prompt\n")
    assert compare(expected, End.parse(0), right, End.parse(0), view).passed
    assert not compare(expected, End.parse(0), wrong, End.parse(0), view).passed
    assert not compare(expected, End.parse(0), silent, End.parse(0), view).passed
