"""Case files keep every byte: trailing spaces, missing final newlines, blank lines, ○●."""
import yaml

from harness.loading import yamlfile

TRICKY = ["  abcdef\n1 ......\n", "Row? (1-6) ", "\nBlack's turn\nRow? (1-6) ", "a\n\n", "\n", "", "○●\n",
          " lead\nx", "tab\there  \nend  ", "\x07bell\n", "line\r\nwin\r\n", "\n\nabc\n", "  \n", "a\n \n"]


def test_every_tricky_string_round_trips():
    data = {"description": "d", "inputs": ["4", "e"], "expect": {"exit": 0,
            "transcript": [{"out": s} for s in TRICKY] + [{"in": "4"}]}}
    assert yaml.safe_load(yamlfile.dump(data)) == data


def test_multi_line_output_is_a_readable_block():
    text = yamlfile.dump({"expect": {"transcript": [{"out": "  abcdef\n1 ......\n"}]}})
    assert "|2\n" in text and "        1 ......\n" in text


def test_what_load_refuses_raw_is_written_escaped(tmp_path):
    """NEL, U+2028/U+2029, a lone CR and C1 controls are line breaks to YAML but not to an
    editor (or not printable): written escaped, they load back and keep line numbers true."""
    awkward = ["a\u2028b", "a\x85b\n", "x\rY", "p\u2029", "q\x7f\x9f\n", "\x85\n\u2028x\n", "tab\t\r\n"]
    data = {"description": "d", "inputs": ["4", "a\x85"], "expect": {"exit": 0,
            "transcript": [{"out": s} for s in awkward]}}
    path = tmp_path / "case.yaml"
    path.write_text(yamlfile.dump(data), encoding="utf-8")
    assert yamlfile.load(path).data == data


def test_a_raw_line_separator_is_refused_at_its_line(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text('description: d\ninputs: ["4"]\nnote: "a\u2028b"\n', encoding="utf-8")
    try:
        yamlfile.load(path)
    except yamlfile.InputError as problem:
        assert str(problem).startswith(f"{path}:3: character U+2028 in the file")
    else:
        raise AssertionError("a raw U+2028 was accepted")
