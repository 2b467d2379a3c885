"""Grades that read the game, not the glyphs: a family of Silver Dollar programs, each drawing the
strip its own way and wording the handout's example texts its own way, graded by the real harness.

Every style is a drawing a person reads as the strip (the handout invites "a nicer
representation") with wording the handout gives only "for example": a correct program scores
100 % in every one, and a seeded rule bug loses exactly the item it breaks, whatever the style.
"""
import itertools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs

pytestmark = pytest.mark.slow  # a family of Silver Dollar programs graded

STYLED = Path(__file__).parent / "renderings" / "silver_dollar_styled.py"

PROMPTS = ["Player {player}: Enter your move: ", "Your turn, player {player} > ",
           "Player #{player}, coin and distance? ", "P{player} move: "]
REFUSALS = ["Illegal move! Try again.", "Coin {coin} is blocked or does not exist; again.",
            "That move is not allowed.", "Nope, pick another."]
WINS = ["Player {player} wins!", "Congratulations, player {player}!",
        "Game over: player {player} won, player {other} lost.", "Player {player} is the winner!"]
DRAWINGS = [
    {"board": "line", "empty": "_"},
    {"board": "line", "empty": "."},
    {"board": "line", "empty": "-", "sep": "  "},
    {"board": "line", "empty": "_", "width": 3, "sep": ""},
    {"board": "line", "empty": "_", "prefix": "Board: "},
    {"board": "line", "empty": "_", "labels": True},
    {"board": "line", "empty": "*", "sep": " | "},
    {"board": "brackets", "empty": " "},
    {"board": "brackets", "empty": "_", "sep": " ", "width": 3},
    {"board": "compact", "empty": "_"},
    {"board": "box", "empty": " ", "width": 3},
    {"board": "box", "empty": " ", "width": 7, "spaced": True, "gap": True},
    {"board": "box", "empty": " ", "width": 5, "tall": True},
    {"board": "box", "empty": ".", "width": 3, "labels": True},
    {"board": "unicode", "empty": " ", "width": 3},
    {"board": "line", "empty": "_", "sep": "\t"},
]
STYLES = [dict(drawing, prompt=PROMPTS[i % 4], illegal=REFUSALS[(i // 2) % 4], win=WINS[(i + 1) % 4])
          for i, drawing in enumerate(DRAWINGS)]
# A seeded rule bug and the one item it breaks (the spec's rubric ids).
BUGS = {"pass-neighbour": "illegal", "wrong-winner": "end", "reprint-board": "board"}


@pytest.fixture(scope="module")
def silver_dollar():
    spec, milestone = specs.parse_game("silver-dollar")
    return spec, milestone, caseload.load_all(spec, milestone)


def _program(folder: Path, style: dict, bug: str | None) -> Path:
    folder.mkdir(parents=True)
    text = STYLED.read_text(encoding="utf-8")
    text = text.replace("STYLE = {}", f"STYLE = {style!r}", 1).replace("BUG = None", f"BUG = {bug!r}", 1)
    (folder / "silver_dollar.py").write_text(text, encoding="utf-8")
    return folder


def _grade_all(grader, silver_dollar, programs: list[Path]):
    spec, milestone, cases = silver_dollar
    with ThreadPoolExecutor(4) as threads:
        return list(threads.map(lambda p: grader.grade(spec, milestone, cases, p), programs))


def _lost(result) -> set[str]:
    return {item.id for item in result.items if item.graded and item.counted and item.earned < item.weight}


# One style of each kind of drawing (a line, its widths and separators, labels, brackets, a
# compact strip, boxes, box-drawing characters, tabs), in two groups of tests so the test workers
# share them out; the generator's populations (`harness audit silver-dollar --styles N`) go further.
KINDS = [0, 3, 6, 7, 9, 11, 13, 15]
GROUPS = 2


@pytest.mark.parametrize("group", range(GROUPS))
def test_a_correct_program_scores_full_marks_in_every_style(tmp_path, grader, silver_dollar, monkeypatch, group):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    styles = [STYLES[i] for i in KINDS[group::GROUPS]]
    programs = [_program(tmp_path / f"style-{i}", style, None) for i, style in enumerate(styles)]
    results = _grade_all(grader, silver_dollar, programs)
    wrong = {str(style): [f"{c.name}: {c.status}: {c.reason}" for c in result.cases if not c.passed][:3]
             for style, result in zip(styles, results) if result.percent != 100.0 or not result.all_passed}
    assert not wrong


def test_a_drawing_the_harness_read_is_shown_beside_the_programs_lines(tmp_path, grader, silver_dollar, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    spec, milestone, cases = silver_dollar
    boxed = next(s for s in STYLES if s.get("spaced"))
    board_case = next(c for c in cases if c.rubric == "board")
    result = grader.grade(spec, milestone, [board_case], _program(tmp_path / "boxed", boxed, None))
    turn = next(t for t in result.cases[0].turns if t.actual and "+ - - - +" in t.actual)
    assert "board: " in turn.read and "+" not in turn.read
    labelled = next(s for s in STYLES if s.get("labels"))
    result = grader.grade(spec, milestone, [board_case], _program(tmp_path / "labelled", labelled, None))
    assert result.cases[0].passed
    assert any("read as square labels" in note for note in result.cases[0].notes)  # the ambiguity is said


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_seeded_rule_bug_loses_exactly_its_item_in_any_style(tmp_path, grader, silver_dollar, monkeypatch, bug):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    chosen = list(itertools.islice(itertools.cycle(STYLES[sorted(BUGS).index(bug)::3]), 2))
    programs = [_program(tmp_path / f"{bug}-{i}", style, bug) for i, style in enumerate(chosen)]
    for style, result in zip(chosen, _grade_all(grader, silver_dollar, programs)):
        assert _lost(result) == {BUGS[bug]}, (style, [f"{c.name}: {c.reason}" for c in result.cases if not c.passed][:3])


# Reversi: the correct Python sample with its board printer replaced by a styled one. The handout
# says a program "can use" the circles; labels, spacing and boxes are the program's own.
REVERSI = Path(__file__).parent.parent / "examples" / "reversi" / "correct-python" / "reversi.py"
STYLED_PRINTER = '''
STYLE = {style!r}


def print_board(board):
    glyphs = STYLE["glyphs"]
    sep = STYLE.get("sep", "")
    rows = [[glyphs[board[r][c]] for c in range(BOARD_WIDTH)] for r in range(BOARD_HEIGHT)]
    if STYLE.get("unicode"):  # box-drawing characters, row numbers at both ends
        print("    " + "   ".join("abcdef"))
        print("  ┌" + "┬".join("───" for _ in range(BOARD_WIDTH)) + "┐")
        for number, row in enumerate(rows, 1):
            print(str(number) + " │" + "│".join(" " + g + " " for g in row) + "│ " + str(number))
        print("  └" + "┴".join("───" for _ in range(BOARD_WIDTH)) + "┘")
        return
    if STYLE.get("box"):
        border = "  +" + "+".join("-" for _ in range(BOARD_WIDTH)) + "+"
        print("   " + " ".join("abcdef"))
        print(border)
        for number, row in enumerate(rows, 1):
            print(str(number) + " |" + "|".join(row) + "|")
        print(border)
        return
    if STYLE.get("header", True):
        print(("  " if STYLE.get("numbers", True) else "") + sep.join("abcdef" if not STYLE.get("upper") else "ABCDEF"))
    for number, row in enumerate(rows, 1):
        print((str(number) + " " if STYLE.get("numbers", True) else "") + sep.join(row))
'''
REVERSI_STYLES = [
    {"glyphs": {0: ".", 1: "●", 2: "○"}, "sep": " "},
    {"glyphs": {0: "-", 1: "X", 2: "O"}, "sep": " "},
    {"glyphs": {0: "_", 1: "B", 2: "W"}, "upper": True},
    {"glyphs": {0: ".", 1: "@", 2: "O"}, "numbers": False, "header": False},
    {"glyphs": {0: " ", 1: "X", 2: "O"}, "box": True},
    {"glyphs": {0: " ", 1: "●", 2: "○"}, "unicode": True},
]


def _reversi_program(folder: Path, style: dict) -> Path:
    folder.mkdir(parents=True)
    text = REVERSI.read_text(encoding="utf-8")
    start, end = text.index("def print_board(board):"), text.index("def traverse(")
    text = text[:start] + STYLED_PRINTER.format(style=style).lstrip() + "\n\n" + text[end:]
    (folder / "reversi.py").write_text(text, encoding="utf-8")
    return folder


def test_a_correct_reversi_scores_full_marks_with_any_drawing_of_the_grid(tmp_path, grader, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    spec, milestone = specs.parse_game("reversi")
    found = caseload.load_all(spec, milestone)
    programs = [_reversi_program(tmp_path / f"style-{i}", style) for i, style in enumerate(REVERSI_STYLES)]
    with ThreadPoolExecutor(4) as threads:
        results = list(threads.map(lambda p: grader.grade(spec, milestone, found, p), programs))
    wrong = {str(style): [f"{c.name}: {c.reason}" for c in result.cases if not c.passed][:3]
             for style, result in zip(REVERSI_STYLES, results) if result.percent != 100.0}
    assert not wrong
