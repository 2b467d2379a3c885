"""A correct program may take up to its turn limit on every turn: neither the whole run's limit
nor the submission's time budget cuts it short in a long game (harness/loading/run_limits.py,
Limits.whole_run; harness/running/budget.py, for_cases). Real programs that pause most of a
turn after every line they read; what is asserted is how the runs ended and the score."""
import sys

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.results import PASSED
from harness.running import runner
from harness.running.environment import Workdir, child_env
from tests.helpers import FIXTURE, SAMPLES, copy_project

TURN, RUN = 2.0, 4.0  # the turn limit, and a whole-run limit shorter than two paused turns
PAUSE = 0.75 * TURN  # what the program takes after each line: within the turn limit

SLOW_ECHO = f"""
import time
while True:
    try:
        line = input("? ")
    except EOFError:
        break
    time.sleep({PAUSE})
    print("got", line)
"""


def test_a_run_that_pauses_in_every_turn_is_not_cut_by_the_whole_run_limit():
    """Six lines, each answered after PAUSE: together past RUN, each turn within TURN."""
    lines = [str(n) for n in range(6)]
    assert PAUSE < TURN and PAUSE * len(lines) > RUN  # the old whole-run limit cut this run
    with Workdir() as home:
        run = runner.run([sys.executable, "-S", "-c", SLOW_ECHO], env=child_env(home), cwd=home,
                         inputs=runner.FixedInputs(lines), limits=runner.Limits(turn_seconds=TURN, run_seconds=RUN))
    assert run.end.kind == "waiting", run.detail  # it asked for a seventh line: no timeout
    assert [e["in"] for e in run.events if "in" in e] == lines
    assert run.output().count("got ") == len(lines)


SLOW_TALLY = f"""
import builtins, time

def _slow_input(prompt=""):
    line = _input(prompt)
    time.sleep({PAUSE})  # the program thinks for most of the turn after every line it reads
    return line

_input, builtins.input = builtins.input, _slow_input
"""


def test_a_slow_correct_program_scores_full_marks_within_the_run_limit_and_the_budget(tmp_path, grader):
    """The fixture game with a turn limit of TURN, a whole-run limit of RUN and a submission
    budget of RUN: the correct sample that pauses PAUSE after each line it reads passes every
    case of a list (add-three-then-one) and of a strategy played to the goal (end-ones), as a
    careful grader would have it."""
    root = copy_project(FIXTURE, tmp_path / "project", parts=("specs", "cases"))
    spec_file = root / "specs" / "tally" / "spec.yaml"
    text = spec_file.read_text()
    old = "limits: {turn_seconds: 5, run_seconds: 20, output_bytes: 20000}"
    assert old in text
    spec_file.write_text(text.replace(old, f"limits: {{turn_seconds: {TURN}, run_seconds: {RUN}, "
                                           f"output_bytes: 20000, submission_seconds: {RUN}}}"))
    program = tmp_path / "slow"
    program.mkdir()
    correct = (SAMPLES / "correct" / "tally.py").read_text()
    (program / "tally.py").write_text(SLOW_TALLY + correct)

    spec, milestone = specs.parse_game("tally", root)
    cases = [c for c in caseload.load_all(spec, milestone) if c.name in ("add-three-then-one", "end-ones")]
    assert len(cases) == 2
    typed_at_least = len(cases[0].inputs) + sum(1 for e in cases[1].expected_events if "in" in e)
    assert PAUSE * typed_at_least > RUN  # the old budget (RUN) was spent before the cases ended

    result = grader.grade(spec, milestone, cases, program)
    for case in result.cases:
        assert case.status == PASSED, (case.name, case.reason)
        assert case.actual_end == case.expected_end, (case.name, case.detail)  # waiting, or exit 0: no timeout
    assert result.percent == 100.0
