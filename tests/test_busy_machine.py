"""A correct program gets the same grade on a machine kept busy as on an idle one.

The five games' correct samples are graded at once, each by a grading of its own (its own pool
of case workers), while a busy loop runs on every core and a process writes and fsyncs a file
over and over: the programs are starved of CPU and their page faults wait behind the disk. A
starved program is silent and uses no CPU without being idle; it must never be typed ahead of
or charged a turn it did not take. Every grading must give 100 %, twice.
"""
import os
import subprocess
import sys
import threading

import pytest

from harness.grading import submission as grading
from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import ROOT

# five gradings at once on a loaded machine, twice; it loads every core on purpose, so beside other
# tests (pytest -n) it would starve theirs: it runs in a pytest of its own (.ci/run, docs/tests.md)
pytestmark = [pytest.mark.slow, pytest.mark.alone,
              pytest.mark.skipif(bool(os.environ.get("PYTEST_XDIST_WORKER")),
                                 reason="loads every core: run it alone, `pytest tests/test_busy_machine.py`")]

SAMPLES = {"connect": "correct-java", "flip": "correct-bags", "reversi": "correct-java",
           "silver-dollar": "correct-java", "strings-and-coins": "correct-cpp"}
CASES_PER_GAME = 6  # spread over each game's cases (in name order), so every part of a game is played
ROUNDS = 2

_BUSY = "while True: pass"
_SYNCING = """
import os, sys
with open(sys.argv[1], "wb") as out:
    while True:
        out.write(os.urandom(1 << 16))
        out.flush()
        os.fsync(out.fileno())
        if out.tell() > 64 << 20:
            out.seek(0)
"""


@pytest.fixture
def busy_machine(tmp_path):
    """A busy loop on every core and a process that syncs to disk all the time; all killed after."""
    started = [subprocess.Popen([sys.executable, "-S", "-c", _BUSY]) for _ in range(os.cpu_count() or 1)]
    started.append(subprocess.Popen([sys.executable, "-S", "-c", _SYNCING, str(tmp_path / "synced")]))
    try:
        yield
    finally:
        for process in started:
            process.kill()
        for process in started:
            process.wait()


def _some_cases(game: str):
    spec, milestone = specs.parse_game(game)
    found = sorted(caseload.load_all(spec, milestone), key=lambda case: case.name)
    step = max(len(found) // CASES_PER_GAME, 1)
    return spec, milestone, found[::step][:CASES_PER_GAME]


def _failures(result) -> list[str]:
    return [f"{case.name}: {case.reason} ({case.detail}; notes: {case.notes})" for case in result.cases
            if case.status.value != "passed"]


def test_correct_programs_get_full_marks_on_a_busy_machine(busy_machine):
    chosen = {game: _some_cases(game) for game in SAMPLES}
    for round_number in range(ROUNDS):
        results, problems = {}, {}

        def grade(game: str) -> None:
            spec, milestone, cases = chosen[game]
            try:
                with grading.Grader() as grader:
                    results[game] = grader.grade(spec, milestone, cases, ROOT / "examples" / game / SAMPLES[game])
            except Exception as problem:  # reported below, with the game's name
                problems[game] = repr(problem)

        threads = [threading.Thread(target=grade, args=(game,)) for game in SAMPLES]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not problems, problems
        scores = {game: result.percent for game, result in results.items()}
        failed = {game: _failures(result) for game, result in results.items() if result.percent != 100.0}
        assert scores == {game: 100.0 for game in SAMPLES}, (round_number, failed)
