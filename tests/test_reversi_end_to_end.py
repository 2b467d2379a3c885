"""Reversi through the whole pipeline: reference transcripts, grading, reports, regen, record."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # Reversi through the whole pipeline

BOARD = "  abcdef\n1 ......\n2 ......\n3 ..○●..\n4 ..●○..\n5 ......\n6 ......\n"


def reference(*args, stdin=""):
    return subprocess.run([sys.executable, "-S", "-m", "reference.reversi", *args], cwd=ROOT, input=stdin.encode(),
                          capture_output=True, env={"PYTHONPATH": str(ROOT)}, timeout=30)


def test_reference_prints_the_handouts_milestone_1_sessions():
    done = reference("--milestone", "1", stdin="2\nd\n4\nb\n3\nb\n")
    assert done.stdout.decode() == (
        BOARD + "\nBlack's turn\nRow? (1-6) Column? (a-f) Not a legal move!\nRow? (1-6) Column? (a-f) "
        "Not a legal move!\nRow? (1-6) Column? (a-f) \n  abcdef\n1 ......\n2 ......\n3 .●●●..\n4 ..●○..\n"
        "5 ......\n6 ......\n")
    done = reference("--milestone", "1", stdin="4\ne\n")
    assert done.stdout.decode().endswith("\n  abcdef\n1 ......\n2 ......\n3 ..○●..\n4 ..●●●.\n5 ......\n6 ......\n")


# examples/reversi/games.md, "black-wins-wipeout": Black's 9th move (6f) takes White's last piece.
WIPEOUT = "3b 2b 1b 4b 5d 5c 5b 5e 6f".split()
WIPEOUT_BOARD = "  abcdef\n1 .●....\n2 .●....\n3 .●●●..\n4 .●●●..\n5 .●●●●.\n6 .....●\n"


def test_reference_game_ends_at_the_second_skip_with_counts_and_winner():
    done = reference(stdin="".join(f"{m[0]}\n{m[1]}\n" for m in WIPEOUT))
    out = done.stdout.decode()
    assert done.returncode == 0
    assert out.count("No legal moves!") == 2
    # formats.md, Reversi milestone 2: the first skip prints its blank line and board; the second
    # `No legal moves!` is followed directly by `Final board:` (no blank line, no board between)
    closing = ("\n" + WIPEOUT_BOARD
               + "\nWhite's turn\nNo legal moves!\n\n" + WIPEOUT_BOARD
               + "\nBlack's turn\nNo legal moves!\nFinal board:\n\n" + WIPEOUT_BOARD
               + "\nFinal count: black=13, white=0\nBlack wins!\n")
    assert out.endswith("Column? (a-f) " + closing)
    assert out.count(WIPEOUT_BOARD) == 3  # after the last move, after the first skip, final


def test_reference_rules_capture_in_every_direction():
    from reference import reversi
    board = reversi.parse_board("....../.○○○../.○●○../.○○○../....../......")
    board[2][2] = reversi.EMPTY
    board = reversi.parse_board("●.●.●./.○○○../●○.○●./.○○○../●.●.●./......")
    flipped = reversi.captures(board, 2, 2, reversi.BLACK)
    assert sorted(flipped) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)]


def test_grading_the_correct_sample_writes_reports(harness_cli, tmp_path):
    done = harness_cli("grade", "reversi:ms1", ROOT / "examples" / "reversi" / "correct-ms1-java", "-o", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads((tmp_path / "correct-ms1-java" / "result.json").read_text())
    assert result["percent"] == 100.0
    assert result["total"] == len(list((ROOT / "cases" / "reversi").glob("ms1-*.yaml")))
    html = (tmp_path / "correct-ms1-java" / "report.html").read_text()
    assert "Printing the initial board" in html and "graded by a person" in html


def test_grading_a_class_writes_gradescope_junit_and_a_gradebook(harness_cli, tmp_path):
    import csv
    import xml.etree.ElementTree as ET
    samples = ROOT / "examples" / "reversi"
    done = harness_cli("grade", "reversi", samples / "correct-java", samples / "bug-tie", "-o", tmp_path)
    assert done.returncode == 1
    gradescope = json.loads((tmp_path / "bug-tie" / "results.json").read_text())
    result = json.loads((tmp_path / "bug-tie" / "result.json").read_text())
    assert round(sum(t["score"] for t in gradescope["tests"]), 2) == round(gradescope["score"], 2)
    assert round(gradescope["score"], 2) == round(result["earned"], 2)
    assert [t["name"] for t in gradescope["tests"] if t["status"] == "failed"] == ["ms2-result-tie [ms2-result]"]
    assert {t["visibility"] for t in gradescope["tests"]} == {"visible", "after_published"}  # hidden cases: counted, shown once grades are published
    suite = ET.parse(tmp_path / "bug-tie" / "junit.xml").getroot()
    assert suite.get("failures") == "1" and suite.get("tests") == str(result["total"])
    rows = list(csv.DictReader((tmp_path / "gradebook.csv").open()))
    assert [(r["submission"], r["percent"]) for r in rows] == [("correct-java", "100.00"),
                                                              ("bug-tie", f"{result['percent']:.2f}")]
    column = {key.split(":")[0]: key for key in rows[1]}  # a rubric item's column: "ID: Title (N points)"
    assert float(rows[1][column["ms2-result"]]) < 10 and float(rows[1][column["ms2-end"]]) == 20


def test_a_failing_case_report_shows_the_divergent_turn(harness_cli, tmp_path):
    """bug-uppercase plays `5 D` as 5d: where the expected game refuses the move and keeps its
    board, the report says the board differs and shows the refusal the reference printed."""
    done = harness_cli("grade", "reversi", ROOT / "examples" / "reversi" / "bug-uppercase", "-o", tmp_path)
    assert done.returncode == 1
    html = (tmp_path / "bug-uppercase" / "report.html").read_text()
    assert 'class="diverge"' in html and "Not a legal move" in html
    result = json.loads((tmp_path / "bug-uppercase" / "result.json").read_text())
    failing = [c for c in result["cases"] if c["status"] == "failed"]
    assert failing and all("in the expected game the board is" in c["reason"] for c in failing)


def test_a_submission_that_does_not_compile_gets_the_compiler_message(harness_cli, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    source = (ROOT / "examples" / "reversi" / "correct-java" / "Reversi.java").read_text()
    (broken / "Reversi.java").write_text(source.replace("public static void main", "public static void mian(", 1))
    done = harness_cli("grade", "reversi", broken, "-o", tmp_path / "out")
    assert done.returncode == 1
    result = json.loads((tmp_path / "out" / "broken" / "result.json").read_text())
    assert result["percent"] == 0
    assert all(c["reason"].startswith("not run: the build failed") for c in result["cases"])
    assert "error:" in result["builds"]["game"]["log"]
    assert "Reversi.java" in (tmp_path / "out" / "broken" / "report.html").read_text()


def test_a_missing_file_scores_zero_with_the_reason(harness_cli, tmp_path):
    (tmp_path / "empty").mkdir()
    done = harness_cli("grade", "reversi", tmp_path / "empty", "-o", tmp_path / "out")
    assert done.returncode == 1
    assert "the submission is empty; this assignment expects Java: Reversi.java" in done.stdout


def test_regen_check_passes_and_detects_a_stale_case(harness_cli, tmp_path, monkeypatch):
    assert harness_cli("regen", "reversi", "--check").returncode == 0
    project = tmp_path / "p"
    shutil.copytree(ROOT / "specs", project / "specs", ignore=shutil.ignore_patterns("*.class"))
    (project / "cases" / "reversi").mkdir(parents=True)
    case = project / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text((ROOT / "cases" / "reversi" / "ms1-capture-up.yaml").read_text().replace("5 ...●..", "5 ...○.."))
    monkeypatch.setenv("HARNESS_ROOT", str(project))
    done = harness_cli("regen", "reversi", "--check")
    assert done.returncode == 1 and "stale" in done.stdout
    assert harness_cli("regen", "reversi").returncode == 0
    assert harness_cli("regen", "reversi", "--check").returncode == 0
    assert case.read_text() == (ROOT / "cases" / "reversi" / "ms1-capture-up.yaml").read_text()


def test_record_turns_a_session_into_a_valid_case(harness_cli, tmp_path):
    out = tmp_path / "cases" / "rec.yaml"
    done = harness_cli("record", "reversi:ms1", "-o", out, "--rubric", "ms1-capture", input="5\nd\n")
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "inputs: ['5', d]" in text or 'inputs: ["5", "d"]' in text
    import yaml
    data = yaml.safe_load(text)
    assert data["expect"]["exit"] == 0 and data["rubric"] == "ms1-capture"
    assert data["expect"]["transcript"][0]["out"].startswith(BOARD)


def test_play_runs_the_reference_in_the_terminal(harness_cli):
    done = harness_cli("play", "reversi:ms1", input="5\nd\n")
    assert done.returncode == 0
    assert done.stdout.startswith(BOARD) and done.stdout.endswith("5 ...●..\n6 ......\n")


def test_check_explains_the_first_difference_on_public_cases_only(harness_cli, tmp_path):
    done = harness_cli("check", "reversi", ROOT / "examples" / "reversi" / "bug-start-swapped", "-o", tmp_path)
    assert done.returncode == 1
    assert re.search(r"first difference (after your \d+\w\w input|before your first input)", done.stdout)
    hidden = [p.stem for p in (ROOT / "cases" / "reversi").glob("ms2-*.yaml") if "visibility: hidden" in p.read_text()]
    assert hidden and not any(name in done.stdout for name in hidden)
    assert (tmp_path / "check-reversi" / "report.html").exists()


def test_run_accepts_a_ready_executable(harness_cli, tmp_path):
    program = tmp_path / "reversi"
    program.write_text(f"#!/bin/sh\nexec {sys.executable} -S -m reference.reversi --milestone 1\n")
    program.chmod(0o755)
    done = harness_cli("run", "reversi:ms1", program, "-k", "capture")
    # the reference package is not on this program's path: it must fail, and say why
    assert done.returncode == 1 and "No module named" in done.stdout
    program.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -S -m reference.reversi --milestone 1\n")
    done = harness_cli("run", "reversi:ms1", program, "-k", "capture")
    assert done.returncode == 0, done.stdout
    assert "5/5 cases passed" in done.stdout
