"""Hostile submissions, graded through the public grading API: each attack gets a clear verdict,
leaves no process behind, reads no byte of any case, writes nothing outside its run, and a
submission graded beside it in the same batch keeps its grade.

The attacks live in tests/adversarial/; each is small and quick. Each one re-runs itself once
with a marker argument (the `_mark` openings), so every process it leaves can be found by its
command line. Attacks that only the sandbox stops skip where bubblewrap cannot run; attacks on
whole-tree limits skip where no control group can be made (the reason is shown).
"""
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from harness.loading import cases as caseload
from harness.running import cgroups
from harness.grading import submission as grading
from harness.running import limits
from harness.running import sandbox
from harness.loading import spec as specs
from harness.safe_text import visible
from harness.starts import drawing
from tests.helpers import ROOT, processes_with

pytestmark = pytest.mark.slow  # hostile programs, built and graded for real

ATTACKS = Path(__file__).parent / "adversarial"
BUILDS = os.path.join(tempfile.gettempdir(), "harness-build-")  # where a build folder is made (builder.build)
SANDBOX = pytest.mark.skipif(not sandbox.available(),
                             reason="bubblewrap is not installed or cannot make namespaces here: sandbox attacks not tried")
GROUPS = pytest.mark.skipif(cgroups.mechanism() == "rlimits",
                            reason="no control group can be made here: whole-tree limits not in force")
# Attacks that would hurt the machine if they ran with the grader's rights run only sandboxed.


@pytest.fixture(scope="module")
def case_file() -> Path:
    """A real case of the project: its expected transcript is what a hostile program wants."""
    spec, milestone = specs.parse_game("silver-dollar")
    return caseload.load_all(spec, milestone)[0].path


@pytest.fixture
def token() -> str:
    return f"hostile-{uuid.uuid4().hex[:12]}"


def _fill(text: str, **values) -> str:
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    return text


def python_attack(folder: Path, attack: str, token: str, **values) -> Path:
    """A Silver Dollar submission: the marker opening, then the attack."""
    folder.mkdir(parents=True)
    source = (ATTACKS / "_mark.py").read_text() + (ATTACKS / attack).read_text()
    (folder / "silver_dollar.py").write_text(_fill(source, TOKEN=token, **values))
    return folder


def cpp_attack(folder: Path, attack: str, token: str) -> Path:
    """A Strings and Coins submission whose game file is the attack."""
    folder.mkdir(parents=True)
    source = (ATTACKS / "_mark.hpp").read_text() + (ATTACKS / attack).read_text()
    (folder / "stringcoin-game.cpp").write_text(_fill(source, TOKEN=token))
    (folder / "stringcoin.cpp").write_text("// nothing here\n")
    return folder


def grade(game: str, submission: Path):
    spec, milestone = specs.parse_game(game)
    found = caseload.load_all(spec, milestone)[:2]
    return grading.grade(spec, milestone, found, submission)


def output(case) -> str:
    return "".join(event.get("out", "") for event in case.actual)


def beside_correct(game: str, submission: Path, sample: str = "correct-python"):
    """Grade `submission` and a correct sample at the same time, as one batch does."""
    other = {}
    thread = threading.Thread(target=lambda: other.update(result=grade(game, ROOT / "examples" / game / sample)))
    thread.start()
    try:
        hostile = grade(game, submission)
    finally:
        thread.join()
    return hostile, other["result"]


def assert_intact(result) -> None:
    problems = {c.name: c.reason for c in result.cases if c.status != "passed"}
    assert not problems, problems


# --- what the sandbox stops ------------------------------------------------------------------

@pytest.fixture
def case_copies(tmp_path, token, case_file):
    """The case copied where a course keeps it: a course checkout and a person's home folder."""
    secret = f"secret-{token}"
    text = case_file.read_text() + f"# {secret}\n"
    checkout = tmp_path / "course-checkout" / "cases" / "silver-dollar" / "board-1-coin.yaml"
    home = Path("/home") / f"ta-{token}"
    in_home = home / "course" / "cases" / "board-1-coin.yaml"
    for path in (checkout, in_home):
        path.parent.mkdir(parents=True)
        path.write_text(text)
    yield secret, [str(case_file), str(checkout), str(in_home), "/etc/shadow"]
    shutil.rmtree(home, ignore_errors=True)


@SANDBOX
def test_cases_anywhere_on_disk_stay_unreadable(tmp_path, token, case_copies):
    secret, paths = case_copies
    for path in paths:
        assert Path(path).read_bytes()  # the grader can read every one of them
    submission = python_attack(tmp_path / "reader", "read_cases.py", token, PATHS=json.dumps(paths), SECRET=secret)
    result = grade("silver-dollar", submission)
    for case in result.cases:
        seen = output(case)
        assert "LEAK" not in seen and secret not in seen
        assert "read 0 bytes" in seen
        for path in paths:
            assert f"hidden {path}: No such file or directory" in seen
        uid = int(seen.split("; uid ")[1].split()[0])
        assert uid != 0 and uid >= sandbox.UID_BASE
        assert case.status in ("passed", "failed")  # a verdict on its game, not a harness failure
    assert processes_with(token) == []


@SANDBOX
def test_a_java_program_finds_no_case_either(tmp_path, token, case_copies):
    secret, paths = case_copies
    submission = tmp_path / "reader-java"
    submission.mkdir()
    source = (ATTACKS / "ReadCases.java").read_text()
    (submission / "PlayGame.java").write_text(source.replace("@JAVA_PATHS@", ", ".join(json.dumps(p) for p in paths)))
    (submission / "CoinStrip.java").write_text("class CoinStrip {\n}\n")
    result = grade("silver-dollar", submission)
    for case in result.cases:
        seen = output(case)
        assert "read 0 bytes" in seen and "LEAK" not in seen
        assert all(f"hidden {path}" in seen for path in paths)


@SANDBOX
def test_links_lead_nowhere(tmp_path, token, case_copies):
    secret, paths = case_copies
    submission = python_attack(tmp_path / "linker", "symlink_out.py", token, PATHS=json.dumps(paths[:3]))
    (submission / "notes.txt").symlink_to(paths[1])
    result = grade("silver-dollar", submission)
    for case in result.cases:
        seen = output(case)
        assert "LEAK" not in seen
        assert "no peek: No such file or directory" in seen


@SANDBOX
def test_writing_outside_its_run_changes_nothing(tmp_path, token, case_file):
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched\n")
    host_tmp = Path("/tmp") / f"{token}.txt"
    targets = [str(case_file), str(victim), str(host_tmp), str(ROOT / "harness" / "grading.py")]
    before = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in targets if Path(path).exists()}
    submission = python_attack(tmp_path / "writer", "write_outside.py", token, PATHS=json.dumps(targets))
    hostile, other = beside_correct("silver-dollar", submission)
    for case in hostile.cases:
        seen = output(case)
        wrote = [line.split(" ", 1)[1] for line in seen.splitlines() if line.startswith("WROTE ")]
        assert wrote == [str(host_tmp)]  # only into its own private /tmp
        assert f"refused {BUILDS}" in seen  # its own build is read-only
    after = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in before}
    assert after == before
    assert not host_tmp.exists()
    assert_intact(other)
    assert processes_with(token) == []


@SANDBOX
def test_killing_its_parent_and_everyone_kills_only_itself(tmp_path, token):
    submission = python_attack(tmp_path / "killer", "kill_parent.py", token)
    hostile, other = beside_correct("silver-dollar", submission)
    for case in hostile.cases:
        seen = output(case)
        # its parent is the sandbox's init, of another uid; kill(-1) finds no one else to signal
        assert seen.count("could not kill 1: Operation not permitted") == 2  # ppid and 1: the sandbox's init
        assert "could not kill -1: No such process" in seen and "killed " not in seen
        assert "still here" in seen
        assert case.status in ("passed", "failed")
    assert_intact(other)
    assert processes_with(token) == []


# --- what the limits stop --------------------------------------------------------------------

@GROUPS
def test_forked_children_share_one_memory_limit(tmp_path, token):
    submission = cpp_attack(tmp_path / "spread", "fork_spread.cpp", token)
    result = grade("strings-and-coins", submission)
    memory = grading.runner.Limits().memory_bytes
    for case in result.cases:
        seen = output(case)
        assert "held " in seen, (case.actual_end, case.reason, seen)
        held, killed = (int(word) for word in seen.split("held ")[1].split()[::2][:2])
        assert held + killed == 8
        assert held * (300 << 20) <= memory  # all of them at once would be 2.4 GB
        assert case.status == "failed"
    assert processes_with(token) == []


@GROUPS
def test_a_memory_hog_is_stopped_at_the_limit(tmp_path, token):
    submission = python_attack(tmp_path / "hog", "memory_hog.py", token)
    result = grade("silver-dollar", submission)
    memory = grading.runner.Limits().memory_bytes
    for case in result.cases:
        seen = output(case)
        most = max(int(line.split()[1]) for line in seen.splitlines() if line.startswith("held "))
        assert most << 20 <= memory
        assert str(case.actual_end) == "signal SIGKILL"
        assert any("the memory limit (1 GiB for all its processes together) was reached" in n for n in case.notes)
        assert case.status == "failed"
    assert processes_with(token) == []


@GROUPS
def test_a_daemon_does_not_outlive_its_run(tmp_path, token):
    submission = cpp_attack(tmp_path / "daemon", "daemon.cpp", token)
    result = grade("strings-and-coins", submission)
    for case in result.cases:
        assert str(case.actual_end) == "0"  # the program itself exits at once
    assert processes_with(token) == []


@GROUPS
def test_a_compile_time_bomb_fails_the_build_within_its_limits(tmp_path, token, monkeypatch):
    # a smaller limit than the default, only to keep the test quick: the mechanism is the same
    monkeypatch.setattr(limits, "BUILD_TREE", cgroups.TreeLimits(512 << 20, limits.BUILD_TREE.tasks))
    submission = tmp_path / "bomb"
    submission.mkdir()
    (submission / "stringcoin.cpp").write_text((ATTACKS / "compile_bomb.cpp").read_text())
    (submission / "stringcoin-game.cpp").write_text("int main() { return 0; }\n")
    result = grade("strings-and-coins", submission)
    for case in result.cases:
        assert case.status == "failed" and "build" in case.reason
    log = "".join(b.log for b in getattr(result, "builds", {}).values())
    assert "the memory limit (512 MiB for all its processes together) was reached" in log
    gone = [pid for pid in _compilers() if not all(Path(p).exists() for p in _build_folders(pid))]
    assert gone == []


def _compilers() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and Path(f"/proc/{entry}/comm").read_text().strip() == "cc1plus":
                found.append(int(entry))
        except OSError:
            pass
    return found


def _build_folders(pid: int) -> list[str]:
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace").split("\0")
    except OSError:
        return []
    return [BUILDS + w[len(BUILDS):].split("/")[0] for w in words if w.startswith(BUILDS)]


# --- what the output limits and safe text stop -------------------------------------------------

def test_an_output_flood_ends_at_the_output_limit(tmp_path, token):
    submission = python_attack(tmp_path / "flood", "flood.py", token)
    spec, _ = specs.parse_game("silver-dollar")
    result = grade("silver-dollar", submission)
    cap = grading.case_limits(spec, caseload.load_all(spec, None)[0]).output_bytes
    for case in result.cases:
        assert str(case.actual_end) == "output-limit"
        assert len(output(case).encode()) <= cap + 65536  # at most one read past the limit
    assert processes_with(token) == []


def test_control_characters_are_kept_but_shown_harmlessly(tmp_path, token):
    submission = python_attack(tmp_path / "control", "control.py", token)
    result = grade("silver-dollar", submission)
    for case in result.cases:
        raw = "".join(event.get("out", "") for event in case.printed or [])
        assert "\x1b[2J" in raw  # the result keeps the program's bytes beside the terminal's reading
        assert "\x1b" not in output(case) and "\x07" not in output(case)  # read as the terminal shows it
        shown = visible(raw)
        assert not any(c in shown for c in "\x1b\x00\x07\x7f\x9b\u202e\u2066\ufeff")
        assert "\u241b[2J" in shown and "\u27e8U+202E\u27e9" in shown
        assert case.status in ("passed", "failed")
    assert processes_with(token) == []


# --- what the harness cannot judge never helps the program ----------------------------------

def _inflated_pair(tmp_path: Path, token: str):
    plain = python_attack(tmp_path / "plain", "inflate.py", token, INFLATE="False")
    inflated = python_attack(tmp_path / "inflated", "inflate.py", token, INFLATE="True")
    return plain, inflated


def test_a_start_too_long_for_the_reference_never_raises_the_grade(tmp_path, token, grader):
    """A program that prints a 140 KB line of zeros before its board on big games, so that no
    expected transcript could be made from that "start" (before: those cases were harness
    errors counting nowhere, and 82 % became 100 %), passes no case its bugs fail without it,
    and none of its cases counts nowhere; a correct program graded beside it keeps 100 %.
    (Its percentage is not compared with the plain program's: the flood is a mistake of its
    own, at the board before the rule bug's turn, and one mistake is charged once, to the item
    owning that turn, so the two lose points in different items.)"""
    spec, milestone = specs.parse_game("silver-dollar")
    found = caseload.load_all(spec, milestone)
    plain, inflated = _inflated_pair(tmp_path, token)
    scores = {}
    for submission in (plain, inflated, ROOT / "examples" / "silver-dollar" / "correct-python"):
        scores[submission.name] = grader.grade(spec, milestone, found, submission)
    assert scores["plain"].percent < 100.0 and scores["inflated"].percent < 100.0
    plain_failed = {c.name for c in scores["plain"].cases if not c.passed}
    inflated_passed = {c.name for c in scores["inflated"].cases if c.passed}
    assert plain_failed and not plain_failed & inflated_passed
    assert scores["inflated"].status == "graded"
    assert not [c.name for c in scores["inflated"].cases if c.status in ("harness-error", "ungradable")]
    assert scores["correct-python"].percent == 100.0
    assert processes_with(token) == []


FIXTURE_ROOT = ROOT / "tests" / "fixture"
TALLY_INFLATED = '''
import random, sys
LINE = {line!r}
print(LINE if random.random() < 2 else "")
start = random.randint(1, 5)
print("Start:", start)
total, turns = start, 0
while total < 10:
    k = int(input("Add? "))
    total += 1
    turns += 1
    print("Now", total)
print("Done in", turns, "turns")
'''


@pytest.mark.parametrize("line", ["Start: " + "9" * 140_000, "Start: --help", "Start: -x"])
def test_a_start_that_is_huge_or_option_like_never_raises_the_grade(tmp_path, line):
    """The fixture game reads its start with a pattern: a 140 KB start is refused at its length,
    an option-like one reaches the reference in a file, never on its command line; either way
    the case is the program's to lose, never a harness error that counts nowhere."""
    spec, milestone = specs.parse_game("tally", FIXTURE_ROOT)
    found = caseload.load_all(spec, milestone)
    folder = tmp_path / "inflated"
    folder.mkdir()
    (folder / "tally.py").write_text(TALLY_INFLATED.format(line=line))
    plain = FIXTURE_ROOT / "examples" / "tally" / "bug-add"
    with grading.Grader() as grader:
        inflated_result = grader.grade(spec, milestone, found, folder)
        plain_result = grader.grade(spec, milestone, found, plain)
    assert not [c.name for c in inflated_result.cases if c.status == "harness-error"]
    assert inflated_result.status == "graded"
    assert inflated_result.percent <= plain_result.percent < 100.0


# --- a submission's time budget ----------------------------------------------------------------

TALLY_STALLER = '''
import os, random, string, sys, threading
TOKEN = "@TOKEN@"
if TOKEN not in sys.argv:
    os.execv(sys.executable, [sys.executable, "-S", os.path.abspath(__file__), TOKEN])
print("Add? ", end="", flush=True)
threading.Event().wait(4)  # the program under test stalls: what the time budget bounds
print("".join(random.choice(string.ascii_letters) for _ in range(40)), flush=True)
'''


def _draws(case: dict) -> int:
    """The runs a case's notes say it was drawn (one when they say nothing more)."""
    counts = [int(n) for note in case["notes"] for n in re.findall(r"(?:no start shown in|drawn) (\d+)", note)]
    return max(counts, default=1 if case["runs"] else 0)


def test_a_stalling_program_is_bounded_by_its_time_budget(tmp_path, token, harness_cli):
    """A program that prints its prompt, sleeps, then prints random text (never a start) was drawn
    20 times per case, and each draw costs its sleep. With a budget on the command line, its
    grading ends with the cases left "not run: the submission's time budget is spent", charged
    to it; it scores 0 (it shows no start); no case is drawn more than MISSES times; nothing
    is left running; and the correct program graded beside it in the same class keeps 100 %."""
    fixture = ROOT / "tests" / "fixture"
    staller = tmp_path / "class" / "staller"
    staller.mkdir(parents=True)
    (staller / "tally.py").write_text(_fill(TALLY_STALLER, TOKEN=token))
    shutil.copytree(fixture / "examples" / "tally" / "correct", tmp_path / "class" / "correct")
    unconfined = [] if sandbox.available() else ["--no-sandbox"]
    done = harness_cli("grade", "tally", tmp_path / "class", "-o", tmp_path / "reports", "--budget", "30", *unconfined,
                       env={"HARNESS_ROOT": str(fixture), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 1, done.stderr
    stalled = json.loads((tmp_path / "reports" / "staller" / "result.json").read_text())
    correct = json.loads((tmp_path / "reports" / "correct" / "result.json").read_text())
    assert correct["percent"] == 100.0 and correct["passed"] == correct["total"]
    assert stalled["status"] == "graded" and stalled["percent"] == 0.0
    cases = stalled["cases"]
    assert all(c["status"] == "failed" and c["charged_to"] is None for c in cases)
    not_run = [c for c in cases if c["reason"].startswith("not run: the submission's time budget is spent")]
    assert not_run and all(c["runs"] == 0 for c in not_run)
    setup = next(c for c in cases if c["rubric"] == "setup")
    assert setup["runs"] == 1 and "start position was not found" in setup["reason"]  # not 12 repeats
    assert all(_draws(c) <= drawing.MISSES for c in cases)
    for case in cases:
        if case not in not_run and case is not setup:
            assert "time budget is spent" in case["reason"] or _draws(case) == drawing.MISSES, case["reason"]
    assert processes_with(token) == []


FLIP_BAGS = ROOT / "examples" / "flip" / "correct-bags" / "GameState.java"


def _flip_game_state(folder: Path, first_state: str | None) -> Path:
    """Flip's correct GameState with isWinning ignoring takes (a rule bug), whose first
    toString() (the start the runner prints) is `first_state` when given."""
    folder.mkdir(parents=True)
    text = FLIP_BAGS.read_text(encoding="utf-8")
    start = text.index("   public boolean isWinning()")
    body_end = text.index("   }", start) + len("   }")
    text = text[:start] + ("   public boolean isWinning()\n   {\n"
                           "      return player2Flippable.isEmpty() && player2Unflippable.isEmpty();\n   }") + text[body_end:]
    if first_state is not None:
        text = text.replace("   public String toString()\n   {\n",
                            "   private static boolean shown;\n\n   public String toString()\n   {\n"
                            f"      if (!shown) {{ shown = true; return {first_state}; }}\n", 1)
    (folder / "GameState.java").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def flip_rule_bug(grader, tmp_path_factory):
    """Flip's cases, and the rule bug's grade without an attack: what each attack is held to."""
    spec, milestone = specs.parse_game("flip")
    found = caseload.load_all(spec, milestone)
    plain = grader.grade(spec, milestone, found, _flip_game_state(tmp_path_factory.mktemp("flip") / "plain", None))
    return spec, milestone, found, plain


@pytest.mark.parametrize("first_state", ['"-x"', '"--help"', '"9".repeat(140000)'])
def test_flips_start_cannot_become_an_option_or_outgrow_the_command_line(tmp_path, grader, flip_rule_bug, first_state):
    """Flip reads its start from `Game state: …`: a state like `-x` or 140 KB long never raises
    the grade of the same rule bug without it (before: `Game state: -x` was an option)."""
    spec, milestone, found, plain = flip_rule_bug
    attacked = grader.grade(spec, milestone, found, _flip_game_state(tmp_path / "attacked", first_state))
    assert plain.status == attacked.status == "graded", [c.reason for c in attacked.cases if c.status == "harness-error"]
    assert attacked.percent <= plain.percent < 100.0


# --- names that are not text ----------------------------------------------------------------

def test_a_class_with_names_that_are_not_utf8_is_graded_whole(tmp_path, harness_cli):
    """A student folder whose name is not UTF-8 and files whose names are not UTF-8, hold a
    newline or look like options: `harness grade` grades the whole class and writes every report
    (each a UTF-8 file, the names shown escaped), and the students graded beside keep their grades;
    `harness gradescope` writes its results.json for such a submission too."""
    import csv
    import xml.etree.ElementTree as ET
    fixture = ROOT / "tests" / "fixture"
    correct = fixture / "examples" / "tally" / "correct"
    cls = tmp_path / "class"
    odd = os.fsdecode(b"caf\xe9")  # how Python names a folder whose name is not UTF-8
    for name in ("alice", odd, "bob"):
        shutil.copytree(correct, cls / name)
    for name in (os.fsdecode(b"helper\xff\n-x.py"), "-Xmx1m.py", "--foo=bar.py", "@args.py"):
        (cls / "bob" / name).write_text("VALUE = 1\n")
    env = {"HARNESS_ROOT": str(fixture), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = harness_cli("grade", "tally", cls, "-o", tmp_path / "reports", "-v", env=env)
    assert done.returncode in (0, 1), done.stderr  # text=True: stdout and stderr decoded as UTF-8
    assert "Traceback" not in done.stderr
    reports = tmp_path / "reports"
    rows = list(csv.DictReader((reports / "gradebook.csv").open(encoding="utf-8")))
    assert [(r["submission"], r["status"]) for r in rows] == [("alice", "graded"), ("bob", "graded"), ("caf", "graded")]
    assert len({r["percent"] for r in rows}) == 1  # the same program: the same grade
    for name in ("alice", "bob", "caf"):
        folder = reports / name
        result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        json.loads((folder / "results.json").read_text(encoding="utf-8"))
        ET.parse(folder / "junit.xml")
        assert "<html" in (folder / "report.html").read_text(encoding="utf-8")
        assert result["status"] == "graded"
    caf = json.loads((reports / "caf" / "result.json").read_text(encoding="utf-8"))
    assert caf["submission"].endswith("caf\u27e80xE9\u27e9")
    bob = json.loads((reports / "bob" / "result.json").read_text(encoding="utf-8"))
    intake_lines = bob["builds"]["game"]["intake"]
    assert any("helper\u27e80xFF\u27e9\u240a-x.py" in line for line in intake_lines), intake_lines
    page = (reports / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{name}/report.html"' in page for name in ("alice", "bob", "caf"))
    assert "caf\u27e80xE9\u27e9" in done.stdout and "helper\u27e80xFF\u27e9\u240a-x.py" in done.stdout

    results = tmp_path / "gradescope" / "results.json"
    done = harness_cli("gradescope", "tally", "--submission", cls / "bob", "--results", results, env=env)
    assert done.returncode in (0, 1), done.stderr
    graded = json.loads(results.read_text(encoding="utf-8"))
    assert graded["tests"] and "helper\u27e80xFF\u27e9\u240a-x.py" in graded["output"]


TALLY_SPACES = '''
print("Start: 2")
print("x" + " " * 120000 + "y")
while True:  # then waits: reads every line typed and answers nothing
    try:
        input()
    except EOFError:
        break
'''


def test_a_line_of_spaces_costs_the_program_not_the_grader(tmp_path):
    """A program that prints "x", 120,000 spaces and "y", then waits: comparing it took 44 s of
    grader CPU per comparison (a quadratic regex on spaces at line ends). Now each of its cases
    is compared in linear time and fails for the program (not a harness error), and its grade
    is not raised; the output limit is raised so that the whole line reaches the comparison."""
    import dataclasses
    spec, milestone = specs.parse_game("tally", ROOT / "tests" / "fixture")
    found = [dataclasses.replace(case, limits={**case.limits, "output_bytes": 1_000_000})
             for case in caseload.load_all(spec, milestone)]
    folder = tmp_path / "spaces"
    folder.mkdir()
    (folder / "tally.py").write_text(TALLY_SPACES)
    with grading.Grader() as grader:
        result = grader.grade(spec, milestone, found, folder)
    assert result.status == "graded"
    assert [c.status for c in result.cases if c.status != "failed"] == []
    assert result.percent == 0.0
    for case in result.cases:
        assert "before your first input" in case.reason  # compared, and the first difference named


def _bz2_bomb(path: Path, body: bytes) -> Path:
    """An 8 KB tar.bz2 whose first ten members, skipped for their absolute paths, hold a GiB of
    zeros each, then the program: concatenated bzip2 streams, so the test compresses nothing big."""
    import bz2
    import tarfile
    mib = bz2.compress(b"\0" * (1 << 20))
    with path.open("wb") as out:
        for index in range(10):
            info = tarfile.TarInfo(f"/abs/zeros{index}")
            info.size = 1 << 30
            out.write(bz2.compress(info.tobuf(format=tarfile.GNU_FORMAT)))
            for _ in range(1 << 10):
                out.write(mib)
        info = tarfile.TarInfo("tally.py")
        info.size = len(body)
        out.write(bz2.compress(info.tobuf(format=tarfile.GNU_FORMAT) + body.ljust(tarfile.BLOCKSIZE, b"\0")
                               + b"\0" * (2 * tarfile.BLOCKSIZE)))
    return path


@SANDBOX
def test_a_tar_bomb_and_option_like_names_in_a_class(tmp_path, harness_cli):
    """A class holding a tar.bz2 whose skipped members inflate to 10 GiB, a Java submission with
    files named as javac and JVM options, and a correct student: the bomb is refused at the cap
    (before: 40 s of decompressing, then graded), the option-like names are left out or passed as
    sources, never as options (before: a shell ran inside the build and its file was cached), and
    the correct student keeps 100 %."""
    import csv
    fixture = ROOT / "tests" / "fixture"
    correct = fixture / "examples" / "tally" / "correct"
    cls = tmp_path / "class"
    shutil.copytree(correct, cls / "alice")
    _bz2_bomb((cls / "bomb.tar.bz2"), (correct / "tally.py").read_bytes())
    sd = cls / "mallory"
    shutil.copytree(ROOT / "examples" / "silver-dollar" / "correct-java", sd)
    # taken as JVM options these would stop the compiler (a 1 MB heap) or print its flags
    for name in ("-J-Xmx1m.java", "-J-XX:+PrintFlagsFinal.java", "--release=8.java"):
        (sd / name).write_text("class X {}\n")
    (sd / "-J-Xlog:gc:file=out").mkdir()
    (sd / "-J-Xlog:gc:file=out" / "Helper.java").write_text("class Helper {}\n")
    (sd / "@args.java").write_text("-d /tmp\n")
    env = {"HARNESS_ROOT": str(fixture), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = harness_cli("grade", "tally", cls, "-o", tmp_path / "reports", env=env)
    assert "Traceback" not in done.stderr, done.stderr
    rows = {r["submission"]: r for r in csv.DictReader((tmp_path / "reports" / "gradebook.csv").open(encoding="utf-8"))}
    assert rows["alice"]["status"] == "graded" and float(rows["alice"]["percent"]) == 100.0
    assert rows["bomb"]["status"] == "build-failed"
    bomb = json.loads((tmp_path / "reports" / "bomb" / "result.json").read_text(encoding="utf-8"))
    assert "unpacks to more than 50 MB" in bomb["builds"]["game"]["reason"]
    assert rows["mallory"]["status"] == "missing-files"  # a Java Silver Dollar is no tally program
    spec, milestone = specs.parse_game("silver-dollar")
    found = caseload.load_all(spec, milestone)[:3]
    result = grading.grade(spec, milestone, found, sd)
    build = result.builds["game"]
    assert build.ok, build.reason
    assert "PrintFlagsFinal" not in build.log and result.percent == 100.0
