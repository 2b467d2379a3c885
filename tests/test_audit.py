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

from harness.suite import audit, audit_explain, audit_reference, audit_report, audit_suggest
from harness import cli
from harness.suite import accepting, audit_search, linetrace, mutants
from harness.suite.audit_results import NOT_EXPLAINED, Finding, MutantStatus, SearchEnd
from harness.outcome import End, Kind
from harness.loading.acceptances import Acceptance
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
    assert audit_reference.resolve(tally).path == TALLY.resolve()  # a script next to the spec: {spec}/tally.py
    reversi = specs.load("reversi", Path(__file__).resolve().parent.parent)
    found = audit_reference.resolve(reversi)  # a module: -m reference.reversi
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
    assert result.status is MutantStatus.KILLED
    assert sorted(result.killed_by) == reaching


def test_refusing_legal_numbers_is_killed_by_every_case_that_types_one(tally_audit):
    spec, found, chosen, report = tally_audit
    result = next(r for r in report.results if r.mutant == chosen[1])
    typing = sorted(c.name for c in found if isinstance(c.inputs, dict) or any(x in ("1", "2", "3") for x in c.inputs))
    assert sorted(result.killed_by) == typing


def test_an_equivalent_mutant_survives_and_items_are_scored(tally_audit):
    spec, found, chosen, report = tally_audit
    result = next(r for r in report.results if r.mutant == chosen[2])
    assert result.status is MutantStatus.SURVIVED and not result.killed_by
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
    assert result.skipped == 1 and result.status is MutantStatus.KILLED
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
    written = audit_report.write(report, tmp_path / "out")
    page = _Page()
    page.feed(written["html"].read_text(encoding="utf-8"))
    assert not page.errors and not page.stack
    assert {"items", "survivors", "mutants", "verdict"} <= page.ids
    assert page.survivors == [chosen[2].id]
    text = written["text"].read_text(encoding="utf-8")
    assert chosen[2].id in text and "audit failed: no case of setup" in text
    # statuses and findings are enums, shown in their words
    html = written["html"].read_text(encoding="utf-8")
    killed, survivor = (next(r for r in report.results if r.mutant == m) for m in (chosen[0], chosen[2]))
    assert killed.status is MutantStatus.KILLED and survivor.search.verdict is Finding.EQUIVALENT
    assert html.count('<tr class="killed">') == 2 and html.count('<tr class="survived">') == 1
    assert "<td>survived (equivalent)</td>" in html and '<p class="search equivalent">' in html
    assert audit_report.progress_line(1, 3, killed) == f"  1/3 killed by {len(killed.killed_by)} case(s): {chosen[0].id}"


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
    reversi = mutants.generate((root / "reversi.py").read_text(encoding="utf-8"), "reversi.py")
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
    spec, _ = specs.parse_game("tally", root)
    found = caseload.load_all(spec)
    goal = _mutant("play", "cmp", "`<` → `<=`")
    swap = _mutant("play", "stmt-swap", f"lines {_line('total += k')} and")
    wording = _mutant("play", "text-case", "'Illegal!'")
    eof = next(m for m in mutants.generate(TALLY.read_text(encoding="utf-8"), TALLY.name)
               if m.function == "play" and m.line == _line("return 1") and m.operator == "int+1")
    report = audit.audit(spec, [None], found, audit.AuditOptions(only=(goal.id, swap.id, wording.id, eof.id), search=150))
    by = {r.mutant.id: r for r in report.results}
    exposed = by[goal.id].search
    assert by[goal.id].status is MutantStatus.SURVIVED and exposed.verdict is Finding.EXPOSED
    assert START + sum(int(x) for x in exposed.inputs if x in ("1", "2", "3")) >= GOAL  # it reaches the goal
    assert "Done in" in exposed.expected and "Done in" not in exposed.actual
    assert set(exposed.items) >= {"add"}  # the add item's policy sees the whole game
    assert by[swap.id].search.verdict is Finding.EQUIVALENT and by[swap.id].search.tried > 0
    assert by[wording.id].search.verdict is Finding.LIBERTY and "illegal!" in by[wording.id].search.actual
    assert by[eof.id].status is MutantStatus.UNREACHABLE
    items = {i.id: i for i in report.items}
    assert items["add"].exposed == 1 and items["add"].score == items["add"].killed / (items["add"].killed + 1)
    out = audit_report.text(report)
    assert "probably equivalent" in out and "Unreachable" in out and str(exposed.inputs) in out

    # --suggest writes the exposing inputs as a case; regen fills it; the mutant is then killed
    written = audit_suggest.suggest(report, spec, found, root / "cases" / "tally")
    assert len(written) == 1
    assert cli.main(["regen", "tally"]) == 0
    again = caseload.load_all(spec)
    after = audit.audit(spec, [None], again, audit.AuditOptions(only=(goal.id,), search=0))
    assert after.results[0].status is MutantStatus.KILLED


def test_the_search_runs_a_program_in_process_as_a_terminal_would():
    """Input runs out: the program waits (its run ends `waiting`), never reads an end of file;
    a program that loops is stopped, and one that prints without end too."""
    source = TALLY.read_text(encoding="utf-8")
    out, end, lines = linetrace.execute(source, str(TALLY), ["--seed", "1"], "3\n", trace=True)
    assert end == ("waiting", None) and out.count("Add? ") == 2 and lines
    loop = "def main(argv):\n    while True:\n        pass\n"
    assert linetrace.execute(loop, "/x.py", [], "", seconds=0.2)[1] == ("timeout", None)
    chatty = "def main(argv):\n    while True:\n        print('x' * 1000)\n"
    assert linetrace.execute(chatty, "/x.py", [], "", max_bytes=10_000)[1] == ("output-limit", None)
    crash = "def main(argv):\n    return 1 // 0\n"
    assert linetrace.execute(crash, "/x.py", [], "")[1] == ("crash", "ZeroDivisionError")


def test_a_search_runs_end_is_typed_and_shown_in_the_reports_words():
    """Each run of the search ends as a `SearchEnd`: an `End` (its kind and exit status), or a
    crash with its exception's name, kept apart from an exit 1; shown, it reads as before."""
    runs = [
        ("def main(argv):\n    return None\n", "", SearchEnd(End.exited(0)), "exit 0"),
        ("import sys\ndef main(argv):\n    sys.exit(3)\n", "", SearchEnd(End.exited(3)), "exit 3"),
        ("def main(argv):\n    return 1 // 0\n", "", SearchEnd(None, "ZeroDivisionError"), "crash ZeroDivisionError"),
        ("def main(argv):\n    input()\n    input()\n", "1\n", SearchEnd(End(Kind.WAITING)), "waiting"),
        ("def main(argv):\n    while True:\n        print('x' * 1000)\n", "", SearchEnd(End(Kind.OUTPUT_LIMIT)),
         "output-limit"),
    ]
    for source, stdin, typed, words in runs:
        out, end, _ = audit_search._execute(source, "/x.py", [], stdin)
        assert end == typed and str(end) == words
    assert audit_search._ended(("timeout", None)) == SearchEnd(End(Kind.TIMEOUT))
    returns_true = "def main(argv):\n    return True\n"
    assert linetrace.execute(returns_true, "/x.py", [], "")[1] == ("exit", 1)  # as a process would exit
    assert SearchEnd(End.exited(1)) != SearchEnd(None, "ValueError")
    assert [e.error_status for e in (SearchEnd(End.exited(2)), SearchEnd(End.exited(0)), SearchEnd(None, "ValueError"),
                                     SearchEnd(End(Kind.WAITING)))] == [True, False, False, False]


def test_an_error_exit_on_undefined_input_is_a_liberty_not_a_gap():
    """Only the exit status differs, where the reference stops with an error: a liberty. Any
    difference in what is printed, at a normal end, or after the reference crashed or waits,
    stays a gap the cases must close."""
    def exits(status):
        return SearchEnd(End.exited(status))
    crash, waiting = SearchEnd(None, "ValueError"), SearchEnd(End(Kind.WAITING))
    only = audit_explain._only_an_error_status
    assert only("Enter: ", "Enter: ", exits(1), exits(2))
    assert only("Enter: ", "Enter: ", exits(1), exits(0))
    assert only("Enter: ", "Enter: ", exits(1), crash)
    assert not only("Enter: ", "Enter: ", exits(0), exits(1))  # a game that ended
    assert not only("Enter: ", "Enter:", exits(1), exits(2))  # printed otherwise
    assert not only("Enter: ", "Enter: ", exits(1), exits(1))
    assert not only("Enter: ", "Enter: ", crash, exits(0))  # the reference crashed: no status of its own
    assert not only("Enter: ", "Enter: ", waiting, exits(1))  # the reference asks for more


# --- a compiled reference: mutants of its source text (no process) -------------------------

JAVA = '''import java.util.*;

/* "a < b" in a comment: x + 1 */
public class Game {
    static final int GOAL = 10;
    private final List<Map<String, Integer>> seen = new ArrayList<>();

    static boolean legal(int k, int total) throws IllegalStateException {
        return k >= 1 && k <= 3 && total + k != GOAL;
    }

    public static void main(String[] args) { // audit: reference-only
        int seed = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        play(new Scanner(System.in));
    }

    static void play(Scanner in) {
        int total = 2, turns = -1;
        String prompt = "Add? (1 < k <= 3) // not a comment";
        char less = '<';
        System.out.println("Start: " + total);
        while (total < GOAL) {
            int k = in.nextInt();
            if (!legal(k, total)) continue;
            total += k * 2 % 5;
            turns++;
            if (total == 4) System.out.println("four");
            helper(total, turns);
        }
    }
}
'''

CPP = '''#include <iostream>
#include <vector>
#define LIMIT(x) ((x) < 3 ? \\
    1 : 2)
using namespace std;

template <typename T>
T twice(const T& v) { return v + v; }

int total(const std::vector<std::vector<int>>& rows, char* name) {
    int sum = 0;
    for (size_t i = 0; i < rows.size(); i++) sum += rows[i][0];
    cout << R"(a < b // raw)" << 'x' << "c >= d" << endl;  // e == f
    /* g != h */
    sum -= 2;
    return sum;
}
'''


def _java(source=JAVA, name="Game.java"):
    from harness.suite import source_mutants
    return source_mutants.generate(source, name)


def _code_lines(source: str) -> dict[int, str]:
    return dict(enumerate(source.splitlines(), 1))


def test_source_operators_change_code_and_never_strings_comments_or_generics():
    from harness.suite import source_mutants
    made = _java()
    lines = _code_lines(JAVA)
    # the tokens give back the source, character for character
    assert "".join(t.text for t in source_mutants.tokens(JAVA, "java")) == JAVA
    found = {(m.line, m.operator, m.description) for m in made}
    legal = next(n for n, line in lines.items() if "return k >= 1" in line)
    assert {(legal, "cmp", "`>=` → `>`"), (legal, "cmp", "`<=` → `<`"), (legal, "cmp", "`!=` → `==`"),
            (legal, "arith", "`+` → `-`"), (legal, "int+1", "`1` → `2`"), (legal, "int-1", "`3` → `2`")} <= found
    update = next(n for n, line in lines.items() if "total += k * 2 % 5" in line)
    assert {(update, "arith", d) for d in ("`+=` → `-=`", "`*` → `/`", "`%` → `*`")} <= found
    # never in a string, a char literal, a comment, a generic's brackets, nor a sign
    untouched = [n for n, line in lines.items() if any(w in line for w in ('"a < b"', "prompt =", "char less",
                                                                          "List<Map", "turns = -1", "println(\"Start"))]
    for n in untouched:
        assert not [m for m in made if m.line == n and m.operator in ("cmp", "arith")], lines[n]
    signed = next(n for n, line in lines.items() if "turns = -1" in line)
    assert {m.description for m in made if m.line == signed and m.operator.startswith("int")} == \
        {"`2` → `3`", "`2` → `1`", "`1` → `2`", "`1` → `0`"}
    # a `+` joining a string is concatenation, not arithmetic
    start = next(n for n, line in lines.items() if '"Start: " + total' in line)
    assert not [m for m in made if m.line == start and m.operator == "arith"]
    # each mutant changes its own line only, and the rest of the text byte for byte
    for m in made:
        changed = {n for n, (a, b) in enumerate(zip(JAVA.splitlines(), m.source.splitlines()), 1) if a != b}
        assert changed <= set(range(m.line, m.end_line + 1)) or m.operator == "stmt-del", m
    assert len({m.id for m in made}) == len(made) and len({m.source for m in made}) == len(made)
    assert made == _java()  # the same order every time
    assert [(m.line, m.column) for m in made] == sorted((m.line, m.column) for m in made)


def test_negated_conditions_and_deleted_statements():
    made = _java()
    lines = _code_lines(JAVA)
    loop = next(n for n, line in lines.items() if "while (total < GOAL)" in line)
    negated = next(m for m in made if m.line == loop and m.operator == "if-negate")
    assert "while (!(total < GOAL)) {" in negated.source and negated.function == "play"
    check = next(n for n, line in lines.items() if "if (!legal(k, total))" in line)
    assert "if (!(!legal(k, total))) continue;" in next(m for m in made if m.line == check
                                                        and m.operator == "if-negate").source
    deleted = {m.line: m for m in made if m.operator == "stmt-del"}
    # expression statements: an assignment, an increment, a call; each removed with its line
    for text in ("total += k * 2 % 5;", "turns++;", "helper(total, turns);", 'System.out.println("Start: " + total);'):
        n = next(n for n, line in lines.items() if line.strip() == text)
        assert n in deleted and text not in deleted[n].source and len(deleted[n].source.splitlines()) == len(lines) - 1
    # never a declaration, a brace, a return, a jump, nor the body of a braceless if
    for n in deleted:
        line = lines[n].strip()
        assert not line.startswith(("int ", "String ", "char ", "return", "static", "private", "}", "if", "while"))
    assert not [m for m in made if m.function == "main"]  # marked: the harness's flags


def test_cpp_operators_skip_templates_includes_pointers_and_raw_strings():
    from harness.suite import source_mutants
    made = source_mutants.generate(CPP, "game.cpp")
    lines = _code_lines(CPP)
    assert "".join(t.text for t in source_mutants.tokens(CPP, "cpp")) == CPP
    by_line: dict[int, set] = {}
    for m in made:
        by_line.setdefault(m.line, set()).add((m.operator, m.description))
    for n, line in lines.items():
        if line.startswith(("#", "    1 :", "template")) or "int total(" in line or "cout <<" in line \
                or "/*" in line:
            assert n not in by_line or not {o for o, _ in by_line[n]} & {"cmp", "arith", "int+1", "int-1"}, line
    loop = next(n for n, line in lines.items() if line.strip().startswith("for (size_t"))
    assert ("cmp", "`<` → `<=`") in by_line[loop] and ("arith", "`+=` → `-=`") in by_line[loop]
    assert not [m for m in made if m.line == loop and m.operator == "stmt-del"]  # a braceless loop's body stays
    twice = next(n for n, line in lines.items() if "return v + v" in line)
    assert by_line[twice] == {("arith", "`+` → `-`")} and next(m for m in made if m.line == twice).function == "twice"
    minus = next(n for n, line in lines.items() if line.strip() == "sum -= 2;")
    assert ("stmt-del", "line %d deleted: `sum -= 2;`" % minus) in by_line[minus]
    printing = next(n for n, line in lines.items() if "cout <<" in line)
    assert {o for o, _ in by_line[printing]} == {"stmt-del"}


# --- a compiled reference: an audit end to end (javac, the Grader, a pty) -----------------

JAVA_ROOT = Path(__file__).resolve().parent / "java_audit"
PILE = 7  # Countdown's pile (tests/java_audit/specs/countdown/Countdown.java)


def _countdown(inputs: list[str], legal) -> tuple[list[str], End]:
    """Countdown's rules as its handout says them, with the legality check given: (what it prints, how it ends)."""
    out, left, turns, typed = [f"Pile: {PILE}"], PILE, 0, list(inputs)
    while left > 0:
        out.append("Take? ")
        if not typed:
            return out, End(Kind.WAITING)
        line = typed.pop(0).strip()
        take = int(line) if line.lstrip("+-").isdigit() else -1
        if not legal(take, left):
            out.append("Illegal!")
            continue
        left, turns = left - take, turns + 1
        out.append(f"Left: {left}")
    return out + [f"Empty after {turns} turns"], End.exited(0)


def _killers(found, legal) -> list[str]:
    """The cases on whose inputs a program with this check prints or ends otherwise than the reference
    (the spec compares every turn exactly)."""
    right = lambda take, left: 1 <= take <= 2 and take <= left  # noqa: E731
    return sorted(c.name for c in found if _countdown(c.inputs, legal) != _countdown(c.inputs, right))


@pytest.mark.slow
def test_a_java_reference_is_audited_with_its_recipe(tmp_path, monkeypatch):
    """Mutants of Countdown.java, each built with javac from the spec's recipe and graded on the
    cases: the killers each one has follow from the rules; a mutant that does not compile is not
    viable and in no score; with no case typing 0, accepting 0 survives, until a case types it."""
    root = tmp_path / "root"
    shutil.copytree(JAVA_ROOT, root)
    monkeypatch.setenv("HARNESS_ROOT", str(root))
    spec, _ = specs.parse_game("countdown", root)
    found = caseload.load_all(spec)
    made = audit_reference.made_from(audit_reference.sources_of(spec))

    lines = _code_lines((root / "specs" / "countdown" / "Countdown.java").read_text(encoding="utf-8"))

    def pick(operator, description, where, token):
        """The mutant of `token` in the first `where` of the source."""
        line = next(n for n, text in lines.items() if where in text)
        column = lines[line].index(where) + where.index(token)
        return next(m for m in made if (m.line, m.column, m.operator, m.description) ==
                    (line, column, operator, description))

    checks = {
        pick("cmp", "`>=` → `>`", "take >= 1", ">="): lambda take, left: 1 < take <= 2 and take <= left,
        pick("cmp", "`<=` → `<`", "take <= 2", "<="): lambda take, left: 1 <= take < 2 and take <= left,
        pick("int+1", "`2` → `3`", "take <= 2", "2"): lambda take, left: 1 <= take <= 3 and take <= left,
        pick("cmp", "`<=` → `<`", "take <= left", "<="): lambda take, left: 1 <= take <= 2 and take < left,
        pick("int-1", "`1` → `0`", "take >= 1", "1"): lambda take, left: 0 <= take <= 2 and take <= left,
    }
    concatenation = pick("arith", "`+` → `-`", "label + left", "+")  # a String minus an int: javac refuses it
    report = audit.audit(spec, [None], found, audit.AuditOptions(only=tuple(m.id for m in [*checks, concatenation]),
                                                                 every_case=True, search=0))
    by = {r.mutant.id: r for r in report.results}
    for mutant, legal in checks.items():
        expected = _killers(found, legal)
        assert sorted(by[mutant.id].killed_by) == expected, mutant.description
        assert by[mutant.id].status is (MutantStatus.KILLED if expected else MutantStatus.SURVIVED)
    accepts_zero = next(m for m in checks if m.operator == "int-1")
    assert not any("0" in c.inputs for c in found) and by[accepts_zero.id].status is MutantStatus.SURVIVED
    assert by[concatenation.id].status is MutantStatus.NOT_VIABLE and "does not compile" in by[concatenation.id].reason
    assert not by[concatenation.id].ran
    # the per-item and overall scores count the viable mutants only
    killed = [m for m, legal in checks.items() if _killers(found, legal)]
    assert report.viable == len(checks) and report.score == len(killed) / len(checks)
    for item in report.items:
        names = {c.name for c in found if c.rubric == item.id}
        assert item.total == len(checks)
        assert item.killed == sum(1 for m, legal in checks.items() if names & set(_killers(found, legal)))
    out = audit_report.text(report)
    assert NOT_EXPLAINED in out and accepts_zero.id in out and "not viable (do not compile) 1" in out
    assert f"mutation score {report.score:.0%} (killed {len(killed)} of {len(checks)} viable)" in out
    page = _Page()
    page.feed(audit_report.write(report, tmp_path / "out")["html"].read_text(encoding="utf-8"))
    assert not page.errors and not page.stack and page.survivors == [accepts_zero.id]

    # a case that types 0 kills it
    (root / "cases" / "countdown" / "illegal-zero.yaml").write_text(
        "description: 0 is refused\nrubric: illegal\npoints: 1\ninputs: ['0', '1']\n", encoding="utf-8")
    assert cli.main(["regen", "countdown"]) == 0
    again = caseload.load_all(spec)
    after = audit.audit(spec, [None], again, audit.AuditOptions(only=(accepts_zero.id,), search=0))
    assert after.results[0].killed_by == ["illegal-zero"] == _killers(again, checks[accepts_zero])


@pytest.mark.slow
def test_a_cpp_reference_is_audited_with_g_plus_plus(tmp_path, monkeypatch):
    """The same game with a C++ reference (tests/java_audit/countdown.cpp, the spec's recipe
    switched to it): its mutants are built with g++; deleting the `left -= take` update is
    killed by every case that takes, and a mutant g++ refuses is not viable."""
    root = tmp_path / "root"
    shutil.copytree(JAVA_ROOT, root)
    game = root / "specs" / "countdown"
    (game / "Countdown.java").unlink()
    shutil.copy(JAVA_ROOT / "countdown.cpp", game / "countdown.cpp")
    text = (game / "spec.yaml").read_text(encoding="utf-8")
    text = text.replace("language: java\n  files: [Countdown.java]\n  main: Countdown\n",
                        "language: cpp\n  files: [countdown.cpp]\n")
    text = text.replace("java: {files: [Countdown.java], main: Countdown}", "cpp: {files: [countdown.cpp]}")
    (game / "spec.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("HARNESS_ROOT", str(root))
    spec, _ = specs.parse_game("countdown", root)
    assert spec.reference.name == "cpp"
    found = caseload.load_all(spec)
    made = audit_reference.made_from(audit_reference.sources_of(spec))
    update = next(m for m in made if m.operator == "stmt-del" and "`left -= take;`" in m.description)
    concatenation = next(m for m in made if m.operator == "arith" and "label - to_string(left)" in m.source)
    report = audit.audit(spec, [None], found, audit.AuditOptions(only=(update.id, concatenation.id), every_case=True,
                                                                 search=0))
    by = {r.mutant.id: r for r in report.results}
    # the pile never shrinks: every case that takes a legal number prints another `Left:`
    assert sorted(by[update.id].killed_by) == sorted(c.name for c in found if any(x in ("1", "2") for x in c.inputs))
    # a string minus a string: g++ refuses it
    assert by[concatenation.id].status is MutantStatus.NOT_VIABLE and "does not compile" in by[concatenation.id].reason
    assert report.viable == 1 and report.score == 1.0


def test_an_accepted_alternative_is_reported_with_the_mutants_it_lets_through(tmp_path, monkeypatch):
    """Accepting 'add?' for the prompt 'Add?' in the prompt item's case lets through the mutant
    that lowers the prompt's letter: caught before, it survives after, and the audit says which
    acceptance let it in."""
    lowered = _mutant("play", "text-case", "'Add? '")
    spec, _ = specs.parse_game("tally", FIXTURE)
    before = audit.audit(spec, [None], caseload.load_all(spec), audit.AuditOptions(only=(lowered.id,), every_case=True))
    (caught,) = before.results
    assert caught.status is MutantStatus.KILLED and not caught.let_through

    root = _weak_root(tmp_path, lambda c: True)
    monkeypatch.setenv("HARNESS_ROOT", str(root))
    spec, _ = specs.parse_game("tally", root)
    killers = [name for name in caught.killed_by]
    for name in killers:  # the acceptance goes into every case that caught it
        case = caseload.load_case(root / "cases" / "tally" / f"{name}.yaml", spec)
        accepting.accept(spec, case, Acceptance("Add?", "add?", None, "the prompt's case is free"))
    after = audit.audit(spec, [None], caseload.load_all(spec), audit.AuditOptions(only=(lowered.id,), every_case=True))
    (let_in,) = after.results
    assert let_in.status is MutantStatus.SURVIVED
    assert sorted(entry.split(",")[0] for entry in let_in.let_through) == sorted(killers)
    said = audit_report.text(after)
    assert "Let through by accepted alternatives (1" in said and "'add?' accepted for 'Add?'" in said
