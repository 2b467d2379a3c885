"""The gate is the machine's: two harness processes on one machine never run a hidden case while
a public one runs (docs/self-check-service.md, "The threat model"; classes/gate.py).

Each test starts real processes: two `harness grade` commands, and a process that holds the
machine's lock and is killed. The runs note their own start and end in a log outside (the
sandbox is off: the order of runs does not depend on it)."""
import os
import signal
import subprocess
import sys
import threading

import pytest

from harness.classes import gate
from tests.helpers import FIXTURE, ROOT, copy_project

pytestmark = pytest.mark.slow

LINGER = 4.0  # seconds a run waits for one of the other kind to start after it (its case's turn limit: 20 s)

# Every run notes its start, then waits until a run of the other kind starts after it (at most
# LINGER seconds), then notes its end: two runs of different kinds under way at once always
# overlap in the log, and with the gate each kind waits out the other's LINGER.
TIMED = r'''
import os, sys, time
LOG = {log!r}
kind = sys.argv[1]
other = "hidden" if kind == "public" else "public"

def note(what):
    now = time.monotonic()
    with open(LOG, "a") as log:
        log.write(f"{{kind}} {{os.getpid()}} {{what}} {{now:.6f}}\n")
    return now

def other_since(moment):
    with open(LOG) as log:
        return any(line.startswith(other) and " start " in line and float(line.split()[-1]) > moment for line in log)

started = note("start")
while time.monotonic() < started + {linger} and not other_since(started):
    time.sleep(0.02)
note("end")
print("Start: 2")
'''


def _project(tmp_path, name: str, kind: str):
    """A copy of the fixture's Tally whose cases are two of one kind, each run with the kind as its argument."""
    project = copy_project(FIXTURE, tmp_path / name, games=["tally"])
    cases = project / "cases" / "tally"
    original = (cases / "add-two.yaml").read_text(encoding="utf-8")
    for path in cases.glob("*.yaml"):
        path.unlink()
    for n in (1, 2):
        (cases / f"{kind}-{n}.yaml").write_text(f"visibility: {kind}\nargs: [{kind}]\n"
                                                 "limits: {turn_seconds: 20, run_seconds: 40}\n" + original,
                                                 encoding="utf-8")  # a lingering run is never cut short
    return project


def _submission(tmp_path, name: str, log) -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "tally.py").write_text(TIMED.format(log=str(log), linger=LINGER), encoding="utf-8")
    return str(folder)


def _grade(project, submission, reports, gate_dir) -> subprocess.Popen:
    env = {**os.environ, "HARNESS_ROOT": str(project), "HARNESS_SANDBOX": "off", "HARNESS_JOBS": "2",
           "HARNESS_GATE_DIR": str(gate_dir)}
    return subprocess.Popen([sys.executable, "-m", "harness", "grade", "tally", submission, "-o", str(reports)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _intervals(log) -> dict[str, list[tuple[float, float]]]:
    """Each kind's runs as (start, end), from the runs' own notes."""
    times: dict[tuple[str, str], dict[str, float]] = {}
    for line in log.read_text().splitlines():
        kind, pid, what, when = line.split()
        times.setdefault((kind, pid), {})[what] = float(when)
    spans: dict[str, list[tuple[float, float]]] = {"public": [], "hidden": []}
    for (kind, _), seen in times.items():
        spans[kind].append((seen["start"], seen["end"]))
    return spans


def test_two_harness_processes_never_run_a_hidden_case_beside_a_public_one(tmp_path):
    """An instructor's `harness grade` of hidden cases and another process's grading of public
    ones (a service's student, say) start together on one machine. Whichever kind comes first,
    the other kind's runs start only after its runs have ended: no hidden run overlaps a public
    one in time. (With a gate per process each run would wait out its LINGER beside the other.)"""
    log = tmp_path / "runs.log"
    log.write_text("")
    gate_dir = tmp_path / "gate"
    hidden = _grade(_project(tmp_path, "hidden-project", "hidden"), _submission(tmp_path, "a", log),
                    tmp_path / "reports-a", gate_dir)
    public = _grade(_project(tmp_path, "public-project", "public"), _submission(tmp_path, "b", log),
                    tmp_path / "reports-b", gate_dir)
    for process in (hidden, public):
        out, err = process.communicate(timeout=300)
        assert process.returncode in (0, 1), err
    spans = _intervals(log)
    assert len(spans["public"]) >= 2 and len(spans["hidden"]) >= 2, spans  # every case ran
    for start, end in spans["public"]:
        for hidden_start, hidden_end in spans["hidden"]:
            assert end <= hidden_start or hidden_end <= start, spans
    assert stat_mode(gate_dir) == 0o700  # made by the harness, for its user alone


def stat_mode(path) -> int:
    return os.stat(path).st_mode & 0o777


# A process that takes the machine's lock for hidden runs, says so, and holds it until killed.
HOLDER = r'''
import sys, threading
from pathlib import Path
from harness.classes import gate
lock = gate.MachineLock(Path(sys.argv[1]))
with lock.held(gate.Kind.HIDDEN, threading.Event()):
    print("holding", flush=True)
    sys.stdin.read()
'''


def test_a_holder_that_dies_releases_the_machine(tmp_path):
    """A process holding the hidden turn keeps public phases out while it lives (a phase that
    waits can give up: `Closed`), and the moment it is killed with SIGKILL, which runs no code
    of its own, a public phase gets in."""
    folder = tmp_path / "gate"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        lock = gate.MachineLock(folder)
        stopped = threading.Event()
        waiter = threading.Timer(3 * gate.POLL_SECONDS, stopped.set)  # gives up after a few tries
        waiter.start()
        with pytest.raises(gate.Closed):
            with lock.held(gate.Kind.PUBLIC, stopped):
                pass
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
        entered = threading.Event()

        def public() -> None:
            with lock.held(gate.Kind.PUBLIC, threading.Event()):
                entered.set()

        thread = threading.Thread(target=public, daemon=True)
        thread.start()
        assert entered.wait(30)
        thread.join(30)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(30)
        holder.stdin.close()
        holder.stdout.close()


@pytest.mark.parametrize("make, said", [
    (lambda folder: (folder.mkdir(), folder.chmod(0o777)), "may be written by anyone"),
    (lambda folder: (folder.parent.mkdir(exist_ok=True), folder.symlink_to(folder.parent)), "is not a folder"),
])
def test_a_gate_folder_others_may_write_is_refused(harness_cli, tmp_path, make, said):
    """A lock others could replace or hold is no gate: the command stops with one line, exit 2."""
    folder = tmp_path / "shared" / "gate"
    folder.parent.mkdir()
    make(folder)
    done = harness_cli("grade", "tally", str(FIXTURE / "examples" / "tally" / "correct"), "-o", str(tmp_path / "r"),
                       env={"HARNESS_ROOT": str(FIXTURE), "HARNESS_GATE_DIR": str(folder), "HARNESS_SANDBOX": "off"})
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and said in lines[0] and "HARNESS_GATE_DIR" in lines[0] and "Traceback" not in done.stderr


def test_a_relative_gate_folder_is_refused(harness_cli, tmp_path):
    done = harness_cli("grade", "tally", str(FIXTURE / "examples" / "tally" / "correct"),
                       env={"HARNESS_ROOT": str(FIXTURE), "HARNESS_GATE_DIR": "gate"})
    assert done.returncode == 2 and "HARNESS_GATE_DIR='gate' is not an absolute path" in done.stderr
