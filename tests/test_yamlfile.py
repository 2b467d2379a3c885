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


SPEC_LIKE = """title: T
targets:
  game:
    languages:
      java: {files: [A.java], main: A}
rubric:
  - {id: one, title: "One", points: 5}
  - id: two
    title: Two
    points: 7
limits: {turn_seconds: 3}
"""


def _every_line(document: yamlfile.Document) -> dict:
    asked = [[], ["title"], ["targets"], ["targets", "game"], ["targets", "game", "languages", "java", "main"],
             ["rubric"], ["rubric", 0], ["rubric", 1], ["rubric", 1, "points"], ["rubric", 5], ["limits", "x"],
             ["nothing"], ["rubric", "id"], ["title", "deeper"]]
    return {tuple(keys): document.line_of(keys) for keys in asked}


def test_a_file_read_again_comes_from_the_cache_with_the_same_data_and_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC_LIKE, encoding="utf-8")
    parsed = yamlfile.load(path)
    kept = list((tmp_path / "cache" / "game-harness" / "yaml").iterdir())
    assert len(kept) == 1
    again = yamlfile.load(path)
    assert again.data == parsed.data == yaml.safe_load(SPEC_LIKE)
    lines = SPEC_LIKE.splitlines()
    expected = {(): 1, ("title",): 1, ("targets",): 2, ("targets", "game"): 3,
                ("targets", "game", "languages", "java", "main"): 5,
                ("rubric",): 6, ("rubric", 0): 7, ("rubric", 1): 8, ("rubric", 1, "points"): 10,
                ("rubric", 5): 7, ("limits", "x"): 11, ("nothing",): 1, ("rubric", "id"): 7, ("title", "deeper"): 1}
    assert lines[9].strip() == "points: 7" and lines[10].startswith("limits")
    assert _every_line(parsed) == _every_line(again) == expected
    path.write_text(SPEC_LIKE.replace("T\n", "U\n", 1), encoding="utf-8")  # an edit is parsed again
    assert yamlfile.load(path).data["title"] == "U"
    assert len(list((tmp_path / "cache" / "game-harness" / "yaml").iterdir())) == 2


def test_a_broken_file_is_refused_at_its_line_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "case.yaml"
    path.write_text("description: d\ninputs: [\"4\"]\ninputs: [\"5\"]\n", encoding="utf-8")
    for _ in range(2):
        try:
            yamlfile.load(path)
        except yamlfile.InputError as problem:
            assert str(problem).startswith(f"{path}:3: key 'inputs' appears twice (first on line 2)")
        else:
            raise AssertionError("a duplicate key was accepted")
    assert not (tmp_path / "cache" / "game-harness" / "yaml").exists() or \
        not list((tmp_path / "cache" / "game-harness" / "yaml").iterdir())
