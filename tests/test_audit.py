"""`harness audit`: mutants of the fixture game's reference graded on its case suite.

Real runs throughout: the mutants are graded by the harness's own Grader through a pty. What
each mutant must do is derived from the fixture's rules (tests/fixture/README.md) and its cases.
"""
import difflib
import os
import shutil
import signal
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness.suite import audit
from harness import cli
from harness.suite import linetrace, mutants
from harness.running import proctree
from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import alive

FIXTURE = Path(__file__).resolve().parent / "fixture"
TALLY = FIXTURE / "specs" / "tally" / "tally.py"
GOAL, START = 10, 2  # tally's goal; its start for the spec's random_start seed (fixture README)


def _mutant(function: str, operator: str, description: str) -> mutants.Mutant:
    found = [m for m in mutants.generate(TALLY.read_text(encoding="utf-8"), TALLY.name)
             if m.function == function and m.operator == operator and m.description.startswith(description)]
    assert len(found) == 1, found
    return found[0]


def _line(text: str) -> int:
    return next(n for n, line in enumerate(TALLY.read_text(encoding="utf-8").splitlines(), 1) if line.strip() == text)


# --- making mutants (no process) --------------------------------------------------------

SOURCE = '''"""Docstring: never mutated."""
LIMIT = 3


def judge(a, b):
    """Neither is this."""
    if a < b and not b:
        return "Too small!"
    x = a + 1
    y = b
    return x if a else y


def main(argv):  # audit: reference-only (the harness's flags)
    return judge(1, 2) == 0


def play():
    return judge(2, 1)
'''


def test_each_operator_makes_its_mutant_and_marked_code_is_left_alone():
    made = mutants.generate(SOURCE, "m.py")
    by = {(m.operator, m.description) for m in made}
    assert ("cmp", "`<` → `<=`") in by
    assert ("bool-op", "`and` → `or`") in by
    assert ("not", "`not` dropped") in by
    assert ("arith", "`+` → `-`") in by
    assert ("int+1", "`3` → `4`") in by and ("int-1", "`1` → `0`") in by
    assert ("ifexp-swap", "`A if C else B` → `B if C else A`") in by
    assert ("if-negate", "`if C` → `… not (C)`") in by
    assert ("stmt-swap", "lines 9 and 10 swapped") in by
    assert {m.operator for m in made if "Too small" in m.description} == {
        "text-letter", "text-case", "text-punct", "text-space-", "text-space+", "text-newline+"}
    docstrings = {n for n, line in enumerate(SOURCE.splitlines(), 1) if '"""' in line}
    assert not [m for m in made if m.function == "main" or set(m.lines) & docstrings]
    assert len({m.id for m in made}) == len(made)
    original = SOURCE.splitlines()
    for m in made:
        assert m.id.startswith(f"m.py:{m.line}:{m.column}:{m.operator}")
        blocks = difflib.SequenceMatcher(None, original, m.source.splitlines(), autojunk=False).get_opcodes()
        changed = [n + 1 for tag, i1, i2, _, _ in blocks if tag != "equal" for n in range(i1, max(i2, i1 + 1))]
        assert changed and set(changed) <= set(m.lines)  # only the lines it names
        assert m.diff.startswith("--- a/m.py\n+++ b/m.py\n")
        compile(m.source, "m.py", "exec")  # every mutant is a program


READER = '''
GLYPHS = "_."


def _cell(text):
    return "_" if text in GLYPHS else text


class Reading(str):
    notes = ()


def read_boards(text):
    return Reading(" ".join(_cell(t) for t in text.split()))


def play(board, moves):
    return moves + 1 if board else 0
'''


def test_what_only_the_harness_calls_is_left_alone_with_its_helpers():
    """The spec's reader runs in the harness, never in the program: it, the function, class and
    constant only it uses are not mutated; the game's own code is."""
    made = mutants.generate(READER, "r.py", {"main", "read_boards"})
    assert {m.function for m in made} == {"play"}
    assert {m.function for m in mutants.generate(READER, "r.py")} >= {"_cell", "read_boards", "play"}


def test_a_mutant_keeps_the_rest_of_the_source_byte_for_byte():
    made = [m for m in mutants.generate(SOURCE, "m.py") if m.operator == "cmp"]
    assert made[0].source == SOURCE.replace("a < b", "a <= b")


def test_the_reference_file_is_found_from_the_spec_command():
    tally, _ = specs.parse_game("tally", FIXTURE)
    assert audit.resolve(tally).path == TALLY.resolve()  # a script next to the spec: {spec}/tally.py
    reversi = specs.load("reversi", Path(__file__).resolve().parent.parent)
    found = audit.resolve(reversi)  # a module: -m reference.reversi
    assert (found.module, found.name) == ("reference.reversi", "reference/reversi.py")


# --- running them ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def tally_audit():
    """One audit of three known mutants, shared by the tests below."""
    spec, _ = specs.parse_game("tally", FIXTURE)
    found = caseload.load_all(spec)
    chosen = (
        _mutant("play", "cmp", "`<` → `<=`"),  # keeps asking at exactly the goal
        _mutant("legal", "cmp", "`in` → `not in`"),  # refuses 1-3, takes the rest
        _mutant("play", "stmt-swap", f"lines {_line('total += k')} and"),  # two independent counters: equivalent
    )
    report = audit.audit(spec, [None], found, audit.AuditOptions(only=tuple(m.id for m in chosen), every_case=True))
    return spec, found, chosen, report


def _reaches_goal(case) -> bool:
    """A strategy plays to the goal; listed inputs reach it when the legal ones add up."""
    if isinstance(case.inputs, dict):
        return True
    return START + sum(int(x) for x in case.inputs if x in ("1", "2", "3")) >= GOAL


def test_a_comparison_mutant_is_killed_by_the_cases_that_reach_the_goal(tally_audit):
    spec, found, chosen, report = tally_audit
    result = next(r for r in report.results if r.mutant == chosen[0])
    reaching = sorted(c.name for c in found if _reaches_goal(c))
    assert reaching  # the end item's cases
    assert result.status == audit.KILLED
    assert sorted(result.killed_by) == reaching


def test_refusing_legal_numbers_is_killed_by_every_case_that_types_one(tally_audit):
    spec, found, chosen, report = tally_audit
    result = next(r for r in report.results if r.mutant == chosen[1])
    typing = sorted(c.name for c in found if isinstance(c.inputs, dict) or any(x in ("1", "2", "3") for x in c.inputs))
    assert sorted(result.killed_by) == typing


def test_an_equivalent_mutant_survives_and_items_are_scored(tally_audit):
    spec, found, chosen, report = tally_audit
    result = next(r for r in report.results if r.mutant == chosen[2])
    assert result.status == audit.SURVIVED and not result.killed_by
    # it ran on every case that adds a number (the swapped lines run only then)
    assert sorted(result.ran) == sorted(c.name for c in found if isinstance(c.inputs, dict)
                                        or any(x in ("1", "2", "3") for x in c.inputs))
    items = {i.id: i for i in report.items}
    assert set(items) == {i.id for i in spec.rubric if i.graded}
    for item in report.items:
        cases = {c.name for c in found if c.rubric == item.id}
        assert set(item.cases) == cases and item.total == len(chosen)
        assert item.killed == sum(1 for r in report.results if cases & set(r.killed_by))
    assert items["end"].killed == 2  # both killers reach the goal
    assert items["setup"].killed == 0 and not report.passed  # setup's case types nothing


def test_by_default_one_killer_per_item_is_enough(tally_audit):
    """Without every_case, a mutant stops running an item's cases once one kills it: the
    item verdicts are the same, fewer cases run."""
    spec, found, chosen, full = tally_audit
    fast = audit.audit(spec, [None], found, audit.AuditOptions(only=(chosen[0].id,)))
    result = fast.results[0]
    end_cases = [c.name for c in found if c.rubric == "end"]
    assert len(end_cases) == 2 and len(set(result.killed_by) & set(end_cases)) == 1
    assert result.skipped == 1 and result.status == audit.KILLED
    assert {i.id: i.killed for i in fast.items} == {i.id: int(chosen[0].id in {
        r.mutant.id for r in full.results if set(i.cases) & set(r.killed_by)}) for i in full.items}


class _Page(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "input", "link"}

    def __init__(self):
        super().__init__()
        self.stack, self.ids, self.survivors, self.inside, self.errors = [], set(), [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag not in self.VOID:
            self.stack.append(tag)
            if self.inside or attrs.get("id") == "survivors":
                self.inside += 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(tag)
        else:
            self.stack.pop()
            if self.inside:
                self.inside -= 1

    def handle_data(self, data):
        if self.inside and self.stack and self.stack[-1] == "code":
            self.survivors.append(data)


def test_the_html_page_is_written_well_formed_with_its_survivors(tally_audit, tmp_path):
    spec, found, chosen, report = tally_audit
    written = audit.write(report, tmp_path / "out")
    page = _Page()
    page.feed(written["html"].read_text(encoding="utf-8"))
    assert not page.errors and not page.stack
    assert {"items", "survivors", "mutants", "verdict"} <= page.ids
    assert page.survivors == [chosen[2].id]
    text = written["text"].read_text(encoding="utf-8")
    assert chosen[2].id in text and "audit failed: no case of setup" in text


def test_a_weakened_suite_fails_the_audit_naming_the_item(tmp_path, monkeypatch, capsys):
    root = tmp_path / "weak"
    shutil.copytree(FIXTURE / "specs", root / "specs")
    spec, _ = specs.parse_game("tally", FIXTURE)
    kept = [c for c in caseload.load_all(spec) if c.rubric != "illegal"]
    (root / "cases" / "tally").mkdir(parents=True)
    for case in kept:
        shutil.copy(case.path, root / "cases" / "tally" / case.path.name)
    monkeypatch.setenv("HARNESS_ROOT", str(root))
    code = cli.main(["audit", "tally", "--sample", "4", "-q", "-o", str(tmp_path / "report")])
    out = capsys.readouterr().out
    assert code == 1
    failed = next(line for line in out.splitlines() if line.startswith("audit failed: no case of "))
    assert "illegal" in failed.removeprefix("audit failed: no case of ").removesuffix(" kills a mutant").split(", ")
    row = next(line.split() for line in out.splitlines() if line.split()[:1] == ["illegal"])
    assert row[1] == "0" and row[2] == "0"  # no case, no kill
    assert (tmp_path / "report" / "audit.html").is_file()


@pytest.mark.parametrize("argv, says", [
    (["audit", "no-such-game"], "unknown game 'no-such-game'"),
    (["audit", "tally", "--sample", "0"], "'0' is not a count"),
    (["audit", "tally", "--mutant", "tally.py:1:0:cmp"], "no such mutant"),
])
def test_bad_input_is_one_line_and_exit_2(argv, says, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("HARNESS_ROOT", str(FIXTURE))
    assert cli.main(argv + ["-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.startswith("harness:") and err.count("\n") == 1


def _tree(pid: int) -> list[int]:
    return proctree.tree(pid)


def test_ctrl_c_ends_the_audit_and_every_process_it_started(tmp_path):
    """Interrupted after its first mutant: exit 130 at once, no run left, no scratch folder left."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(HARNESS_ROOT=str(FIXTURE), TMPDIR=str(temp), NO_COLOR="1")
    child = subprocess.Popen([sys.executable, "-m", "harness.cli", "audit", "tally", "-o", str(tmp_path / "out")],
                             cwd=FIXTURE.parent.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = child.stderr.readline()  # one line per mutant done: the audit is well under way
        assert first, child.communicate(timeout=60)
        started = _tree(child.pid)
        assert started, "the audit had started no process"
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "Traceback" not in err
    assert [pid for pid in started if os.path.exists(f"/proc/{pid}") and alive(pid)] == []
    assert list(temp.iterdir()) == []



# --- the operators modelled on students' bugs (no process) --------------------------------

STUDENT = '''SIZE = 6
EMPTY, BLACK, WHITE = ".", "●", "○"
COLUMNS = "abcdef"
DIRECTIONS = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)]
STEPS = ((0, 1), (1, 0), (1, 1))


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


def cell(board, row: int, col: int) -> str:
    return board[row][col]


def judge(board, row: int, col: int, player: str) -> str:
    if row < 0 or col < 0:
        return "Not a legal move!"
    elif cell(board, row, col) != EMPTY:
        return "Taken."
    board[row][col] = player
    player = other(player)
    return player


def column(letter: str) -> int:
    return COLUMNS.find(letter) if letter in COLUMNS else -1


def answer(text: str) -> bool:
    return text[0] in "yY"


def rows(board) -> list:
    return [board[r] for r in range(SIZE)]


def main(argv):  # audit: reference-only
    return judge([], 1, 2, BLACK)


def play(argv):
    # audit: begin reference-only
    seed = argv[1] if argv else None
    # audit: end reference-only
    return judge([], 1, 2, BLACK), seed
'''


def _made(source=STUDENT, skip=()):
    made = mutants.generate(source, "s.py", skip)
    return made, {(m.function, m.operator, m.description) for m in made}


def test_the_operators_make_the_bugs_students_make():
    made, by = _made()
    assert ("judge", "stmt-del", "line 21 deleted: `board[row][col] = player`") in by  # a forgotten placement
    assert ("judge", "stmt-del", "line 22 deleted: `player = other(player)`") in by  # a forgotten switch
    assert ("judge", "stmt-swap", "lines 21 and 22 swapped") in by
    assert ("judge", "index-swap", "`board[row][col]` → `board[col][row]`") in by
    assert ("judge", "arg-swap", "arguments 2 and 3 of `cell` swapped: `row`, `col`") in by
    assert ("judge", "name-swap", "`col` → `row`") in by  # two ints of one function
    assert ("other", "name-swap", "`WHITE` → `EMPTY`") in by  # constants given together
    assert ("judge", "term-drop", "`or` term 2 of 2 dropped: `col < 0`") in by
    assert ("judge", "cond-drop", "`if C` → `if True` (the check left out)") in by
    assert any(f == "judge" and op == "branch-swap" for f, op, _ in by)  # the `elif` checked first
    assert (None, "elem-drop", "the comprehension's last element dropped") in by  # seven of eight directions
    assert (None, "elem-drop", "element 3 of 3 dropped: `(1, 1)`") in by  # a missing diagonal
    assert ("answer", "elem-drop", "'yY' → 'y'") in by and ("answer", "text-case", "'yY' → 'yy'") in by
    assert ("column", "member", "`in COLUMNS` without its last element") in by
    assert ("column", "cond-drop", "`A if C else B` → `A`") in by
    assert ("rows", "range", "`range(SIZE)` → `range(SIZE + 1)`") in by
    assert ("judge", "text-case", "'Not a legal move!' → 'not a legal move!'") in by
    assert ("judge", "text-punct", "'Not a legal move!': '!' dropped") in by
    assert len({m.source for m in made}) == len(made)  # one mutant per program
    for m in made:
        compile(m.source, "s.py", "exec")


def test_only_marked_code_is_left_alone_never_a_name():
    made, _ = _made()
    lines = STUDENT.splitlines()
    marked = {n for n, line in enumerate(lines, 1) if "seed = argv" in line or "return judge([], 1, 2, BLACK)" == line.strip()}
    assert not [m for m in made if m.function == "main"]  # the marked def, whole
    assert not [m for m in made if set(m.lines) & marked]  # the marked block
    assert [m for m in made if m.function == "play"]  # the rest of that function is the program's
    unmarked = STUDENT.replace("def main(argv):  # audit: reference-only", "def main(argv):")
    assert [m for m in mutants.generate(unmarked, "s.py") if m.function == "main"]  # `main` is no exception
    above = STUDENT.replace("def rows(board) -> list:", "# audit: reference-only\ndef rows(board) -> list:")
    assert not [m for m in mutants.generate(above, "s.py") if m.function == "rows"]  # the marker above a def


def test_the_references_mark_only_the_flags_the_harness_passes():
    """Connect's main is the handout's program: mutated; Reversi's --start parser is marked."""
    root = Path(__file__).resolve().parent.parent / "reference"
    connect = mutants.generate((root / "connect.py").read_text(encoding="utf-8"), "connect.py")
    assert {"main", "ask_again", "play_game"} <= {m.function for m in connect}
    reversi = mutants.generate((root / "reversi.py").read_text(encoding="utf-8"), "reversi.py",
                               {"read_boards", "facts"})
    assert "parse_board" not in {m.function for m in reversi}
    assert [m for m in reversi if m.function == "main"]  # what main does for the game is mutated


# --- explaining survivors: the differential search (real runs) ----------------------------

def _weak_root(tmp_path, keep) -> Path:
    root = tmp_path / "weak"
    shutil.copytree(FIXTURE / "specs", root / "specs")
    spec, _ = specs.parse_game("tally", FIXTURE)
    (root / "cases" / "tally").mkdir(parents=True)
    for case in caseload.load_all(spec):
        if keep(case):
            shutil.copy(case.path, root / "cases" / "tally" / case.path.name)
    return root


@pytest.mark.slow
def test_survivors_are_explained_exposed_equivalent_liberty_unreachable(tmp_path, monkeypatch):
    """Without the end item's cases no case reaches the goal: keeping on at exactly 10 survives,
    and the search finds inputs that reach it, which a case of every item would kill; the two
    counters swapped are equivalent; the refusal's wording is a liberty (a message class); what
    only an end of input reaches (a terminal never closes it) is unreachable."""
    root = _weak_root(tmp_path, lambda c: c.rubric != "end")
    monkeypatch.setenv("HARNESS_ROOT", str(root))
    spec, _ = specs.parse_game("tally")
    found = caseload.load_all(spec)
    goal = _mutant("play", "cmp", "`<` → `<=`")
    swap = _mutant("play", "stmt-swap", f"lines {_line('total += k')} and")
    wording = _mutant("play", "text-case", "'Illegal!'")
    eof = next(m for m in mutants.generate(TALLY.read_text(encoding="utf-8"), TALLY.name)
               if m.function == "play" and m.line == _line("return 1") and m.operator == "int+1")
    report = audit.audit(spec, [None], found, audit.AuditOptions(only=(goal.id, swap.id, wording.id, eof.id), search=150))
    by = {r.mutant.id: r for r in report.results}
    exposed = by[goal.id].search
    assert by[goal.id].status == audit.SURVIVED and exposed.verdict == audit.EXPOSED
    assert START + sum(int(x) for x in exposed.inputs if x in ("1", "2", "3")) >= GOAL  # it reaches the goal
    assert "Done in" in exposed.expected and "Done in" not in exposed.actual
    assert set(exposed.items) >= {"add"}  # the add item's policy sees the whole game
    assert by[swap.id].search.verdict == audit.EQUIVALENT and by[swap.id].search.tried > 0
    assert by[wording.id].search.verdict == audit.LIBERTY and "illegal!" in by[wording.id].search.actual
    assert by[eof.id].status == audit.UNREACHABLE
    items = {i.id: i for i in report.items}
    assert items["add"].exposed == 1 and items["add"].score == items["add"].killed / (items["add"].killed + 1)
    out = audit.text(report)
    assert "probably equivalent" in out and "Unreachable" in out and str(exposed.inputs) in out

    # --suggest writes the exposing inputs as a case; regen fills it; the mutant is then killed
    written = audit.suggest(report, spec, found, root / "cases" / "tally")
    assert len(written) == 1
    assert cli.main(["regen", "tally"]) == 0
    again = caseload.load_all(spec)
    after = audit.audit(spec, [None], again, audit.AuditOptions(only=(goal.id,), search=0))
    assert after.results[0].status == audit.KILLED


def test_the_search_runs_a_program_in_process_as_a_terminal_would():
    """Input runs out: the program waits (its run ends `waiting`), never reads an end of file;
    a program that loops is stopped, and one that prints without end too."""
    source = TALLY.read_text(encoding="utf-8")
    out, end, lines = linetrace.execute(source, str(TALLY), ["--seed", "1"], "3\n", trace=True)
    assert end == "waiting" and out.count("Add? ") == 2 and lines
    loop = "def main(argv):\n    while True:\n        pass\n"
    assert linetrace.execute(loop, "/x.py", [], "", seconds=0.2)[1] == "timeout"
    chatty = "def main(argv):\n    while True:\n        print('x' * 1000)\n"
    assert linetrace.execute(chatty, "/x.py", [], "", max_bytes=10_000)[1] == "output-limit"
    crash = "def main(argv):\n    return 1 // 0\n"
    assert linetrace.execute(crash, "/x.py", [], "")[1] == "crash ZeroDivisionError"


def test_an_error_exit_on_undefined_input_is_a_liberty_not_a_gap():
    """Only the exit status differs, where the reference stops with an error: a liberty. Any
    difference in what is printed, or at a normal end, stays a gap the cases must close."""
    from harness.suite import audit as auditing
    assert auditing._only_an_error_status("Enter: ", "Enter: ", "exit 1", "exit 2")
    assert auditing._only_an_error_status("Enter: ", "Enter: ", "exit 1", "exit 0")
    assert not auditing._only_an_error_status("Enter: ", "Enter: ", "exit 0", "exit 1")  # a game that ended
    assert not auditing._only_an_error_status("Enter: ", "Enter:", "exit 1", "exit 2")  # printed otherwise
    assert not auditing._only_an_error_status("Enter: ", "Enter: ", "exit 1", "exit 1")
