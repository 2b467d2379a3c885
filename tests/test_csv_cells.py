"""Every CSV the harness writes neutralises a text cell a spreadsheet would run as a formula (one
starting with =, +, -, @, a tab or a carriage return: OWASP's CSV-injection list) with a single
quote in front, numbers it formats itself stay numbers, and it reads its own CSVs back to the
values it wrote: the gradebook, the delta, the roster `harness serve --make-tokens` makes, and a
times CSV whose names were copied from the gradebook."""
import csv
import io
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from harness import csv_cells
from harness.classes import lateness, regrade
from harness.serve import tokens
from tests.helpers import FIXTURE, SAMPLES

TRIGGERS = ["=", "+", "-", "@", "\t", "\r"]
DEADLINE = datetime(2026, 2, 1, 23, 59, tzinfo=timezone(timedelta(hours=-5)))
CORRECT = (SAMPLES / "correct" / "tally.py").read_text(encoding="utf-8")
HYPERLINK = '=HYPERLINK("evil.example","bob")'


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("first", TRIGGERS)
@pytest.mark.parametrize("rest", ["1+41", "cmd|' /C calc'!A0", "", "SUM(A1:A2)"])
def test_a_text_cell_that_could_be_a_formula_gets_a_quote_and_reads_back(first, rest):
    text = first + rest
    written = csv_cells.neutral(text)
    assert written == "'" + text
    assert csv_cells.restored(written) == text


@pytest.mark.parametrize("text", ["alice", "John Smith", "'quoted", "''", "", "1.5", "a=b", " =1"])
def test_other_text_is_written_as_it_is_and_quotes_in_front_of_a_formula_round_trip(text):
    assert csv_cells.neutral(text) == text and csv_cells.restored(text) == text
    for formula in ("'" + "=1", "''-2"):  # a quote already there is kept: one more goes in front, and comes off
        assert csv_cells.restored(csv_cells.neutral(formula)) == formula


def test_numbers_the_harness_formats_stay_numbers_and_text_that_looks_like_one_is_text():
    out = io.StringIO()
    csv_cells.Writer(out).writerow([csv_cells.Figure(-2.5, "+.2f"), csv_cells.Figure(1.25, "+.2f"), -3, 0.5, "-2.50",
                                    csv_cells.Figure(float("-inf"))])
    # not a finite number a spreadsheet reads (-inf): text, neutralised like any other
    assert _cells(out.getvalue()) == [["-2.50", "+1.25", "-3", "0.5", "'-2.50", "'-inf"]]
    assert float(_cells(out.getvalue())[0][0]) == -2.5  # a delta a spreadsheet can still add up
    assert next(csv_cells.Reader(io.StringIO(out.getvalue()))) == ["-2.50", "+1.25", "-3", "0.5", "-2.50", "-inf"]


def test_the_delta_keeps_its_numbers_and_neutralises_its_text():
    change = regrade.Change("bob", 80.0, 75.0, 8.0, 5.5, 10.0, [("add", 4.0, 1.5)],
                            [regrade.CaseChange("=cmd()", "add", "passed", "failed", "")])
    rows = _cells(regrade.delta_csv([change]))
    assert rows[1][:6] == ["bob", "80.00", "75.00", "8.00", "5.50", "-2.50"]
    assert rows[1][7] == "'=cmd() passed->failed"
    assert float(rows[1][5]) == 5.5 - 8.0  # points after less points before: a number to add up


def test_a_roster_names_its_students_safely_and_is_read_back_to_the_same_names(tmp_path, harness_cli):
    names = ["=1+41", "@SUM(A1)", "-bob", "+eve", "ada"]
    listed = _write(tmp_path / "names.txt", "\n".join(names) + "\n")
    made = harness_cli("serve", "--make-tokens", listed)
    assert made.returncode == 0, made.stderr
    rows = _cells(made.stdout)
    assert [row[0] for row in rows[1:]] == ["'=1+41", "'@SUM(A1)", "'-bob", "'+eve", "ada"]
    roster = tokens.load(_write(tmp_path / "roster.csv", made.stdout))
    assert roster.names == names
    assert [token for _, token in roster.students] == [row[1] for row in rows[1:]]  # tokens as written


def test_a_fresh_token_never_starts_like_a_formula():
    """A token is copied into a mail: it never needs a quote in front (2000 draws: a token
    starting with `-`, one in 64 of token_urlsafe's, would show up)."""
    assert not [token for token in (tokens.new_token() for _ in range(2000)) if token.startswith(tuple(TRIGGERS))]


def test_a_times_csv_copied_from_the_gradebook_names_the_student_it_was_written_for(tmp_path):
    times = _write(tmp_path / "times.csv", f"student,submitted\n'=1+41,{DEADLINE.isoformat()}\n")
    assert lateness.read_times(times) == {"=1+41": DEADLINE}


@pytest.mark.slow
def test_a_hostile_name_ends_as_a_text_cell_in_the_gradebook(tmp_path, harness_cli):
    """A Moodle full name `=1+41` and a Blackboard username that is a formula: the gradebook
    read with Python's csv module holds them quoted; its numbers are plain numbers."""
    room, out = tmp_path / "class", tmp_path / "out"
    _write(room / "=1+41_5_assignsubmission_file_tally.py", CORRECT)
    stamp = (DEADLINE - timedelta(hours=1)).strftime("%Y-%m-%d-%H-%M-%S")
    _write(room / f"Tally_{HYPERLINK}_attempt_{stamp}_tally.py", CORRECT)
    times = _write(tmp_path / "times.csv", f"student,submitted\n'=1+41,{(DEADLINE - timedelta(hours=2)).isoformat()}\n")
    done = harness_cli("grade", "tally", room, "-o", out, "--deadline", DEADLINE.isoformat(), "--times", times,
                       env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 0, done.stdout + done.stderr
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        rows = {row["original"]: row for row in csv.DictReader(f)}
    assert set(rows) == {"'=1+41", "'" + HYPERLINK}
    moodle, blackboard = rows["'=1+41"], rows["'" + HYPERLINK]
    assert (moodle["lms_id"], moodle["percent"], moodle["submitted_from"]) == ("5", "100.00", "times CSV")
    assert (blackboard["lms_id"], blackboard["percent"]) == ("'" + HYPERLINK, "100.00")
    assert not any(cell.startswith(tuple(TRIGGERS)) for row in rows.values() for cell in row.values())
    assert "no submission for" not in done.stdout  # the times CSV's quoted name is the Moodle student's
