"""The `harness accept` command a suspect case shows is one the command line reads back as it
was meant, whatever the students' line looks like: spaces, quotes, a leading '-'."""
import shlex

import pytest

from harness import cli
from harness.reporting import suspects


@pytest.mark.parametrize("actual", ["Welcome to Tally!", "-x wins", "--help", "it's \"quoted\"", "a;rm -rf x"])
def test_the_shown_command_reads_back_as_the_line_and_the_students_version(actual):
    shown = suspects.command("tally", "prompt-two-adds", 2, "Now 5", actual, extra=False)
    words = shlex.split(shown)
    assert words[:2] == ["harness", "accept"]
    args = cli._parser().parse_args(words[1:])
    assert (args.game, args.case, args.turn, args.line, args.also) == ("tally", "prompt-two-adds", 2, "Now 5", actual)
    extra = cli._parser().parse_args(shlex.split(suspects.command("tally", "x", 0, "Now 5", actual, extra=True))[1:])
    assert extra.line is None and extra.also == actual
