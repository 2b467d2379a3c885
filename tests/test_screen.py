"""A run's output read as a person at the terminal reads it (harness/running/screen.py)."""
import textwrap

from hypothesis import given, strategies as st

from harness.running import runner
from harness.running.environment import child_env
from harness.running.launcher import ROWS
from harness.running.screen import ScreenReading, plain
from harness import transcript
from harness.loading.run_limits import Limits
from harness.outcome import End


def read(turns: list[str], typed: list[str] | None = None) -> list[str]:
    """Each turn's text; `typed[i]` is typed after turn i."""
    typed = typed or ["x"] * (len(turns) - 1)
    reading, shown = ScreenReading(ROWS), []
    for index, text in enumerate(turns):
        reading.feed(text)
        shown.append(reading.take_turn())
        if index < len(typed):
            reading.typed(typed[index])
    return shown


_PRINTABLE = st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\x9b\x9d"), max_size=60)


@given(st.lists(st.lists(_PRINTABLE, max_size=5).map("\n".join), min_size=1, max_size=4))
def test_plain_output_is_read_as_printed(turns):
    assert read(turns) == turns


def test_crlf_line_ends_are_line_ends():
    assert read(["a\r\nb\r\n"]) == ["a\nb\n"]
    assert plain("a\r\nb") and not plain("a\rb")


def test_a_clear_before_each_board_leaves_each_board():
    clear = "\x1b[H\x1b[2J"
    assert read([clear + "_ 0 1\nPlayer 1: ", clear + "0 _ 1\nPlayer 2: "]) == ["_ 0 1\nPlayer 1: ", "0 _ 1\nPlayer 2: "]
    assert read(["\x1bc" + "board\n"]) == ["board\n"]  # a full reset
    assert read(["\x1b[2J\x1b[1;1H" + "board\n"]) == ["board\n"]


def test_colours_are_not_text():
    assert read(["|\x1b[1;31mX\x1b[0m|\x1b[38;5;226mO\x1b[m|\n"]) == ["|X|O|\n"]


def test_a_carriage_return_redraws_the_line():
    assert read(["Thinking...\r\x1b[KRow? "]) == ["Row? "]
    assert read(["Thinking...\rRow? "]) == ["Row? ing..."]  # what the terminal shows: no erase
    assert read(["abc\b\bX\n"]) == ["aXc\n"]


def test_what_a_turn_wrote_before_a_clear_stays_in_its_text():
    """A message the program printed and then cleared was on the screen: it is not hidden."""
    assert read(["Illegal move!\n\x1b[2J\x1b[Hboard\nPlayer 1: "]) == ["Illegal move!\nboard\nPlayer 1: "]


def test_a_board_redrawn_in_place_is_the_turns_text():
    first = "row1\nrow2\nRow? "
    again = "\x1b[3A\x1b[1G" + "new1\x1b[K\nnew2\x1b[K\nRow? \x1b[K"
    assert read([first, again], ["5"]) == [first, "new1\nnew2\nRow? "]
    # without erasing, what was typed on the prompt's row still shows, as on a terminal
    assert read([first, "\x1b[3A\x1b[1G" + "new1\nnew2\nRow? "], ["5"])[1] == "new1\nnew2\nRow? 5"


def test_rows_of_earlier_turns_are_not_repeated():
    assert read(["board\nRow? ", "\x1b[32mColumn? \x1b[0m"], ["3"]) == ["board\nRow? ", "Column? "]


def test_control_characters_a_terminal_hides_are_not_text():
    assert read(["a\x07b\x00c\x7fd\x01\n"]) == ["abcd\n"]


def test_hostile_sequences_stay_bounded():
    """Huge parameters, endless cursor moves and an unterminated title cost linear time and
    no more memory than the text; the terminal shows what it would."""
    huge = "\x1b[" + "9" * 100_000 + "B"
    reading = ScreenReading(ROWS)
    reading.feed("start\n" + huge + "\x1b[9999B" * 10_000 + "\x1b[9999C" * 10_000 + "end\n")
    text = reading.take_turn()
    assert text.startswith("start\n") and text.endswith("end\n")
    assert len(reading.page.rows) <= ROWS + 2
    assert len(text) < 10_000
    reading = ScreenReading(ROWS)
    reading.feed("shown\n\x1b]0;" + "title " * 1000)  # an OSC never ended swallows the rest, as in a terminal
    assert reading.take_turn() == "shown\n"


def test_a_run_is_read_as_the_terminal_shows_it_and_keeps_the_bytes(tmp_path):
    script = tmp_path / "p.py"
    script.write_text(textwrap.dedent("""\
        import sys
        sys.stdout.write("\\x1b[H\\x1b[2J|\\x1b[31mX\\x1b[0m|_|\\nMove? ")
        sys.stdout.flush()
        line = input()
        sys.stdout.write("\\x1b[H\\x1b[2J|X|\\x1b[33mO\\x1b[0m|\\nbye\\n")
        """))
    result = runner.run([runner_python(), str(script)], env=child_env(str(tmp_path)), cwd=str(tmp_path),
                        inputs=runner.FixedInputs(["2"]), limits=Limits(turn_seconds=10, run_seconds=20))
    assert result.end == End.exited(0)
    assert result.events == [{"out": "|X|_|\nMove? "}, {"in": "2"}, {"out": "|X|O|\nbye\n"}]
    assert transcript.output(result.raw).startswith("\x1b[H\x1b[2J|\x1b[31mX")


def runner_python() -> str:
    import sys
    return sys.executable
