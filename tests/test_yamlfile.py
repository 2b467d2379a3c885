"""Case files keep every byte: trailing spaces, missing final newlines, blank lines, ○●."""
import yaml

from harness import yamlfile

TRICKY = ["  abcdef\n1 ......\n", "Row? (1-6) ", "\nBlack's turn\nRow? (1-6) ", "a\n\n", "\n", "", "○●\n",
          " lead\nx", "tab\there  \nend  ", "\x07bell\n", "line\r\nwin\r\n", "\n\nabc\n", "  \n", "a\n \n"]


def test_every_tricky_string_round_trips():
    data = {"description": "d", "inputs": ["4", "e"], "expect": {"exit": 0,
            "transcript": [{"out": s} for s in TRICKY] + [{"in": "4"}]}}
    assert yaml.safe_load(yamlfile.dump(data)) == data


def test_multi_line_output_is_a_readable_block():
    text = yamlfile.dump({"expect": {"transcript": [{"out": "  abcdef\n1 ......\n"}]}})
    assert "|2\n" in text and "        1 ......\n" in text
