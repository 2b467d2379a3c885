"""A submission's time budget (harness/running/budget.py): one counter shared by the worker processes
that run its cases, a run stopped the moment it is spent, and a setting validated at load.
Real processes, no clock in an assertion: what is asserted is how a run ended and what was counted."""
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from harness.running import runner
from harness.loading import spec as specs
from harness.running.budget import SPENT, Budget, Meter, counter
from harness.loading.cases import load_case
from harness.running.environment import Workdir, child_env, fork_server
from harness.errors import InputError
from tests.helpers import FIXTURE

QUARTER = 0.25  # exact in binary: a lost update would show in the sum


def _spend_many(budget: Budget, times: int) -> None:
    for _ in range(times):
        budget.spend(QUARTER)


def test_the_counter_adds_up_across_worker_processes():
    """Workers of the grading's pool spend at once; no update is lost, and it ends spent."""
    with counter(30) as budget, ProcessPoolExecutor(4, mp_context=fork_server()) as pool:
        for done in [pool.submit(_spend_many, budget, 40) for _ in range(4)]:
            done.result()
        assert budget.spent() == 4 * 40 * QUARTER
        assert budget.left() == 30 - 40.0
        assert budget.spend(0) <= 0


def test_a_removed_counter_leaves_nothing_to_run():
    """A run still going when its grading ended (and removed the counter) finds no time left."""
    with counter(600) as budget:
        assert budget.left() == 600
    assert budget.left() == 0 and budget.spend(1) == 0


SLEEPER = "import threading; print('Start: 3', flush=True); threading.Event().wait(30)"


def test_a_run_is_stopped_when_its_submission_budget_is_spent():
    """The program's own limits would let it sleep 20 s; the budget stops it, says so, and
    counts what it ran. The next run finds nothing left and is stopped at once."""
    limits = dict(turn_seconds=20, run_seconds=20)
    with counter(0.5) as budget, Workdir() as home:
        meter = Meter(budget)
        run = runner.run([sys.executable, "-c", SLEEPER], env=child_env(home), cwd=home,
                         inputs=runner.FixedInputs([]), limits=runner.Limits(**limits, budget=meter))
        assert run.end.kind == "timeout" and run.detail.startswith(SPENT), run.detail
        assert run.events and "Start: 3" in run.output()
        assert meter.counted > 0 and budget.left() <= 0
        again = runner.run([sys.executable, "-c", SLEEPER], env=child_env(home), cwd=home,
                           inputs=runner.FixedInputs([]), limits=runner.Limits(**limits, budget=Meter(budget)))
        assert again.end.kind == "timeout" and again.detail.startswith(SPENT)
        assert "its own limit is 20 s" in again.detail


def test_a_run_without_a_budget_keeps_its_own_limits():
    with Workdir() as home:
        run = runner.run([sys.executable, "-c", "print('done')"], env=child_env(home), cwd=home,
                         inputs=runner.FixedInputs([]), limits=runner.Limits(turn_seconds=20, run_seconds=20))
    assert run.end.kind == "exit" and run.output().strip() == "done"


@pytest.fixture
def tally_copy(tmp_path, monkeypatch):
    """The fixture game copied to break its spec; validation markers in the test's own cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "project"
    shutil.copytree(FIXTURE / "specs", root / "specs")
    shutil.copytree(FIXTURE / "cases", root / "cases")
    return root


def _set_limits(root, text: str) -> None:
    path = root / "specs" / "tally" / "spec.yaml"
    original = "limits: {turn_seconds: 5, run_seconds: 20, output_bytes: 20000}"
    assert original in path.read_text()
    path.write_text(path.read_text().replace(original, f"limits: {{{text}}}"))


def test_the_budget_is_a_spec_default_with_a_default_of_its_own(tally_copy):
    assert specs.load("tally", tally_copy).submission_seconds == specs.SUBMISSION_SECONDS
    _set_limits(tally_copy, "turn_seconds: 5, run_seconds: 20, submission_seconds: 45")
    spec = specs.load("tally", tally_copy)
    assert spec.submission_seconds == 45
    assert not hasattr(spec.limits, "submission_seconds")  # a run's limits never carry it


def test_a_budget_over_the_cap_is_refused_at_its_line(tally_copy):
    _set_limits(tally_copy, "run_seconds: 20, submission_seconds: 90000")
    with pytest.raises(InputError) as refused:
        specs.load("tally", tally_copy)
    assert "spec.yaml:" in str(refused.value) and "submission_seconds" in str(refused.value)
    assert "86400" in str(refused.value)


def test_a_case_cannot_set_the_budget(tally_copy):
    """The budget is the submission's, not a case's: a case's limits do not take it."""
    spec = specs.load("tally", tally_copy)
    case = tally_copy / "cases" / "tally" / "add-two.yaml"
    case.write_text(case.read_text().replace("inputs:", "limits: {submission_seconds: 5}\ninputs:", 1))
    with pytest.raises(InputError) as refused:
        load_case(case, spec)
    assert "submission_seconds" in str(refused.value)


@pytest.mark.parametrize("given", ["0", "-5", "nan", "inf", "90000", "soon"])
def test_a_budget_on_the_command_line_is_checked(harness_cli, given):
    done = harness_cli("run", "tally", FIXTURE / "examples" / "tally" / "correct", "--budget", given,
                       env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2
    assert done.stderr.startswith("harness: run: argument --budget:") and len(done.stderr.splitlines()) == 1
