"""What a student reads says what their program did and what the handout expected, in words
about the program: never the grader's own notation (a fact line such as `board: _ 0 1`, "read
as:", "closest:", an end described as equal to itself), nor what only an instructor needs (the
command line a case ran, "the warm compiler"). Checked on the real `harness check` of the fixture
game's seeded-bug samples (its terminal text and both of its reports), on the self-check service's
student view (tests/test_serve.py), and on a course game whose items compare the game's facts."""
import html
import json
import os
import re
import subprocess
import sys

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.outcome import End
from tests.helpers import FIXTURE, ROOT, SAMPLES

# The grader's words a student cannot act on, each as it used to appear in what a student read.
INTERNAL = (
    "missing '",  # "line 1: missing 'Now 5'", and a fact line: "missing 'board: _ 0 1 _ _ 2'"
    "(closest:",
    ", got '",
    "became '",
    "read as:",
    "Ended:",
    "the warm compiler",
    "no wait for input",
    "no read() seen",
    "sleeps in",
    "the transcripts",
    "waits for more input than the case gives",
)
CHECKED = ("bug-add", "bug-illegal", "bug-end", "bug-hang", "variant-banner", "bug-crash")


def _check(sample, folder, root=FIXTURE, game="tally") -> tuple[subprocess.CompletedProcess, dict]:
    done = subprocess.run([sys.executable, "-m", "harness", "check", game, str(sample), "-o", str(folder)],
                          cwd=ROOT, env={**os.environ, "HARNESS_ROOT": str(root)},
                          capture_output=True, text=True, timeout=600)
    reports = folder / f"check-{game}"
    return done, {"html": (reports / "report.html").read_text(encoding="utf-8"),
                  "student": (reports / "report-student.html").read_text(encoding="utf-8"),
                  "result": json.loads((reports / "result.json").read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """`harness check` of each seeded-bug sample: (its run, its reports)."""
    out = tmp_path_factory.mktemp("checks")
    return {name: _check(SAMPLES / name, out / name) for name in CHECKED}


@pytest.fixture(scope="module")
def cases():
    spec = specs.load("tally", FIXTURE)
    return {case.name: case for case in caseload.load_all(spec, None)}


def _reason(checked, sample, case) -> str:
    _, reports = checked[sample]
    return next(c["reason"] for c in reports["result"]["cases"] if c["name"] == case)


def _said(text: str) -> list[str]:
    """The grader's internal phrases found in a text a student reads."""
    return [phrase for phrase in INTERNAL if phrase in text]


@pytest.mark.parametrize("sample", CHECKED)
def test_no_internal_phrase_reaches_what_a_student_reads(checked, sample):
    done, reports = checked[sample]
    assert done.returncode in (0, 1), done.stderr
    assert _said(done.stdout + done.stderr) == []
    assert _said(html.unescape(reports["student"])) == []
    assert _said(html.unescape(reports["html"])) == []
    # the command line each case ran is in the instructor's report only
    commands = [case["command"] for case in reports["result"]["cases"] if case.get("command")]
    assert commands
    shown = [f"<code>{html.escape(' '.join(c), quote=False)}</code>" for c in commands]
    assert all(code in reports["html"] for code in shown)
    assert not any(code in reports["student"] for code in shown)


def test_a_wrong_line_names_the_expected_line_and_the_program_s(checked, cases):
    """bug-add adds 1 whatever is typed: after typing k it prints k - 1 less than expected."""
    typed = int(cases["add-two"].inputs[0])
    reason = _reason(checked, "bug-add", "add-two")
    found = re.search(r"after your 1st input \('(\d)'\), line 1: the expected output has the line 'Now (\d+)'; "
                      r"the closest line your program printed is 'Now (\d+)'", reason)
    assert found, reason
    assert int(found[1]) == typed and int(found[2]) - int(found[3]) == typed - 1


def test_a_missing_message_names_it_and_what_the_program_printed_instead(checked, cases):
    typed = cases["illegal-out-of-range"].inputs[0]
    reason = _reason(checked, "bug-illegal", "illegal-out-of-range")
    assert re.search(rf"after your 1st input \('{typed}'\), line 1: the expected output has the line 'Illegal!'; "
                     r"the closest line your program printed is 'Now \d+'$", reason), reason


def test_an_extra_line_is_said_as_printed_by_the_program(checked):
    reason = _reason(checked, "variant-banner", "prompt-two-adds")
    assert re.fullmatch(r"before your first input, line 1: your program printed '[^']+', a line the expected output does not have",
                        reason), reason


def test_an_end_is_said_only_where_it_differs_from_the_expected_one(checked, cases):
    """bug-end keeps asking at 10: the end cases expected an exit and saw the program wait; every
    other case expects it to wait and it does, so nothing is said of their end."""
    _, reports = checked["bug-end"]
    ending = {name for name, case in cases.items() if case.visibility != "hidden" and case.expected_end != End("waiting")}
    assert ending
    for name in ending:
        reason = _reason(checked, "bug-end", name)
        assert "expected the program to end normally (exit status 0), but your program was still waiting for input" \
            in reason, reason
        assert re.match(r"your program asked for more input after the \d+ lines this case types; ", reason), reason
    page = html.unescape(reports["student"])
    assert page.count("How it ended: expected the program to end normally (exit status 0), "
                      "but it was still waiting for input") == len(ending)
    assert "still waiting for input, got still waiting for input" not in page and "Ended:" not in page
    for name in ("add-two", "prompt-two-adds"):  # expected to wait, and waits: no word about the end
        section = page.split(f'id="{name}"')[1].split("</details>")[0]
        assert "How it ended" not in section and "still waiting" not in section


def test_a_program_that_hangs_is_told_what_it_did_and_what_was_expected(checked):
    seconds = specs.load("tally", FIXTURE).limits.turn_seconds
    reason = _reason(checked, "bug-hang", "illegal-out-of-range")
    found = re.match(r"your program printed nothing and did not ask for input or end within (\S+) s after input 1; "
                     r"expected the program to ask for more input, but your program ran past its time limit; ", reason)
    assert found and float(found[1]) == seconds, reason


def test_a_crash_says_how_the_program_ended_and_where_its_output_first_differs(checked):
    reason = _reason(checked, "bug-crash", "end-cycle")
    assert "expected the program to end normally (exit status 0), but your program ended with exit status 1" in reason
    assert "your program's output first differs from the expected after your 2nd input ('x')" in reason


def test_an_equal_end_has_nothing_to_say():
    assert End("waiting").differs_from(End("waiting")) == "" and End.exited(0).differs_from(End.exited(0)) == ""
    assert End("timeout").differs_from(End("waiting")) == \
        "expected the program to ask for more input, but it ran past its time limit"


@pytest.mark.slow  # a course game's public cases (45 runs)
def test_a_course_game_s_facts_are_said_as_the_game(tmp_path):
    """Silver Dollar's items compare the game's facts (the board, the player asked, a message in
    any wording). A program that prints no message for an illegal move is told, in words, what
    the expected output has there and what it printed; no fact line (`said: yes`, `board: ...`)
    and no "read as:" reaches the student."""
    sample = ROOT / "examples" / "silver-dollar" / "bug-no-illegal-message"
    done, reports = _check(sample, tmp_path, root=ROOT, game="silver-dollar")
    assert done.returncode == 1, done.stderr
    text = done.stdout + html.unescape(reports["student"])
    assert _said(text) == []
    assert not re.search(r"'(board|said|player|winner): ", text)  # no fact line quoted as if printed
    failed = [c for c in reports["result"]["cases"] if c["status"] == "failed"]
    assert failed
    told = [c["reason"] for c in failed if "the expected game shows a message here (in any wording); your program printed none" in c["reason"]]
    assert told, [c["reason"] for c in failed]
    assert all("the expected output there has '" in r for r in told)
    assert "what the grader reads in your program's output:" in reports["student"].replace("&#39;", "'")


def test_the_student_copy_shows_the_compiler_s_words_not_the_grader_s_command_line(tmp_path):
    """A C++ program that does not compile: the instructor's report has the build's command
    lines (the grader's folders and flags), the student's copy the compiler's name and its error."""
    broken = tmp_path / "broken"
    broken.mkdir()
    source = (SAMPLES / "correct-cpp" / "tally.cpp").read_text(encoding="utf-8")
    (broken / "tally.cpp").write_text(source.replace("int main", "int main(", 1), encoding="utf-8")
    done, reports = _check(broken, tmp_path / "out")
    assert done.returncode == 1, done.stdout + done.stderr
    (build,) = [b for b in reports["result"]["builds"].values() if b["log"]]
    (command,) = [line for line in build["log"].splitlines() if line.startswith("$ ")][:1]
    assert "<build>" in command or "-o" in command  # the grader's command line, in the instructor's report
    assert html.escape(command, quote=False) in reports["html"]
    assert html.escape(command, quote=False) not in reports["student"]
    assert "$ g++ ..." in reports["student"] and "error" in reports["student"]
