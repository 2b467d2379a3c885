"""What several test modules share besides fixtures (those are in conftest.py): the project's
paths, copies of a project to break, the processes a test looks for, and the fixture game's
rules (which cases each of its samples fails, and the percentage that follows)."""
import contextlib
import os
import re
import signal
import socket
import shutil
import subprocess
import sys
from pathlib import Path

from harness.loading import cases as caseload
from harness.outcome import End

ROOT = Path(__file__).resolve().parent.parent
# The harness's own test game (tests/fixture/README.md), laid out as a project root.
FIXTURE = ROOT / "tests" / "fixture"
SAMPLES = FIXTURE / "examples" / "tally"


# --- projects --------------------------------------------------------------------------------

def copy_project(source: Path, into: Path, parts=("specs", "cases", "examples"), games=None) -> Path:
    """A copy of a project root's `parts` (of every game, or of `games` only) at `into`."""
    for part in parts:
        if games is None:
            shutil.copytree(source / part, into / part)
        else:
            for game in games:
                shutil.copytree(source / part / game, into / part / game)
    return into


def unplannable_case(spec, cases, folder: Path):
    """A copy of the fixture's first strategy case asking for a strategy the reference does not know."""
    original = next(c for c in cases if c.strategy is not None)
    broken = folder / f"{original.name}-zigzag.yaml"
    broken.write_text(original.path.read_text(encoding="utf-8").replace(
        f"strategy: {original.strategy['strategy']}", "strategy: zigzag", 1), encoding="utf-8")
    odd = caseload.load_case(broken, spec)
    assert odd.strategy["strategy"] == "zigzag"
    return odd


# --- processes -------------------------------------------------------------------------------

def process(pid: int) -> tuple[str, str] | None:
    """(start time, state) of a live process, None once it is gone (a zombie has ended); the
    start time tells a process from a later one given the same pid."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] in ("Z", "X") else (fields[19], fields[0])


def alive(pid: int) -> bool:
    """The process exists and has not ended (a zombie has ended)."""
    return process(pid) is not None


def command_lines() -> list[str]:
    """The command line of every process, its arguments joined by NUL."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    found.append(f.read().rstrip(b"\0").decode(errors="replace"))
            except OSError:
                pass
    return found


def processes_with(marker: str) -> list[int]:
    """The processes whose command line carries `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


# --- the fixture game's rules ----------------------------------------------------------------

LEGAL = ("1", "2", "3")  # the handout's legal additions


def typed(case) -> list[str]:
    """The lines a case types (for a strategy, the moves it repeats)."""
    if case.strategy is None:
        return case.prefix
    return ["1"] if case.strategy["strategy"] == "ones" else [str(m) for m in case.strategy["moves"]]


def is_number(line: str) -> bool:
    return line.strip().lstrip("+-").isdigit()


def expected_percent(spec, cases, failing: set[str], charged_to: str | None = None) -> float:
    """Each graded item's weight times the share of its case points that passed, over the graded
    weights; with `charged_to`, a failing case of another item counts there as one failed point
    instead (docs/scores.md: one mistake, one deduction)."""
    def moved(case) -> bool:
        return charged_to is not None and case.name in failing and case.rubric != charged_to

    earned = possible = 0.0
    for item in spec.rubric:
        mine = [c for c in cases if c.rubric == item.id and not moved(c)]
        charges = sum(1 for c in cases if moved(c)) if item.id == charged_to else 0
        if not item.graded or not mine and not charges:
            continue
        passed = sum(c.points for c in mine if c.name not in failing)
        earned += item.points * passed / (sum(c.points for c in mine) + charges)
        possible += item.points
    return round(100 * earned / possible, 2)


def reaches_goal(case) -> bool:
    return case.expected_end == End.exited(0)


# sample -> (the cases it fails, the rubric items it loses): each rule says why, from the case.
# CHARGED: a sample whose failing cases of other items are charged to one item (the spec's owners).
RULES = {
    "correct": (lambda spec, case: False, set()),
    "correct-cpp": (lambda spec, case: False, set()),
    # every legal number adds 1: the cases that type 2 or 3
    "bug-add": (lambda spec, case: any(line in ("2", "3") for line in typed(case)), {"add"}),
    # any whole number is taken: the cases that type one outside 1-3
    "bug-illegal": (lambda spec, case: any(is_number(x) and x not in LEGAL for x in typed(case)), {"illegal"}),
    # keeps asking at exactly 10: the cases the reference plays to the goal
    "bug-end": (lambda spec, case: reaches_goal(case), {"end"}),
    # a banner is an extra line: the cases whose policy does not ignore extra lines
    "variant-banner": (lambda spec, case: not spec.policy(case.rubric, case.compare).ignore_extra_lines,
                       {"prompt"}),
    # its own refusal wording: the cases that type a refused line and do not read the example wording
    "variant-wording": (lambda spec, case: any(x not in LEGAL for x in typed(case))
                        and not spec.policy(case.rubric, case.compare).messages, set()),
    # starts against the rules half the time: only the cases of the setup item (the one the
    # spec's random_start names) see them; the others draw again
    "bug-start-range": (lambda spec, case: case.rubric == "setup", {"setup"}),
    # sometimes shows a 6 (already at the goal): drawn again, never charged
    "variant-six": (lambda spec, case: False, set()),
    # a word ends it with a traceback: the cases that type one, each charged to illegal (the
    # end case that types a word between its additions fails at that refused line, not at the end)
    "bug-crash": (lambda spec, case: any(not is_number(x) for x in typed(case)), {"illegal"}),
}


# --- pytest run as a user runs it, with the game-harness plugin ---------------------------------

OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR) (\S+)", re.M)


def run_pytest(tmp: Path, *args, root: Path = FIXTURE, env: dict | None = None) -> subprocess.CompletedProcess:
    """pytest on its own: a configuration file, rootdir and cache of its own in `tmp`, nothing
    of this checkout's test suite (its conftest) loaded, the game's cases under `root`."""
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HARNESS_ROOT"))},
           "HARNESS_ROOT": str(root), **(env or {})}
    command = [sys.executable, "-m", "pytest", "-c", str(tmp / "pytest.ini"), "--rootdir", str(tmp),
               "--confcutdir", str(root), "-o", f"cache_dir={tmp / 'cache'}", "-p", "no:hypothesispytest",
               "-p", "no:randomly",  # items in the order a user without pytest-randomly sees them
               *map(str, args)]
    return subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)


def outcomes(done: subprocess.CompletedProcess) -> dict[str, str]:
    """Node id -> PASSED / FAILED / ERROR, from the short summary `-rA` prints."""
    return {node: status for status, node in OUTCOME.findall(done.stdout)}


# --- processes a test starts: free ports, whole process groups, a Dask cluster ---------------------

DASK = Path(sys.executable).with_name("dask")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_group(process: subprocess.Popen) -> None:
    """The process's whole group (a worker's nanny and its worker process), ended for sure."""
    for number, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 20)):
        try:
            os.killpg(process.pid, number)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


@contextlib.contextmanager
def dask_cluster(logs: Path, workers: dict[str, dict]):
    """A scheduler on a free port and one `dask worker` per name (with its own environment
    additions), started as docs/cluster.md says; yields the address and the workers' addresses."""
    from distributed import Client
    address = f"tcp://127.0.0.1:{free_port()}"
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    started = []
    try:
        with open(logs / "scheduler", "w") as log:
            started.append(subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port",
                                             address.rsplit(":", 1)[1], "--no-dashboard"],
                                            stdout=subprocess.DEVNULL, stderr=log, env=env, start_new_session=True))
        for name, extra in workers.items():
            with open(logs / name, "w") as log:
                started.append(subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--no-dashboard",
                                                 "--name", name, "--local-directory", logs / f"{name}-space"],
                                                stdout=subprocess.DEVNULL, stderr=log, env={**env, **extra},
                                                start_new_session=True))
        with Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(len(workers), timeout=60)
            found = set(client.scheduler_info(n_workers=-1)["workers"])
        yield address, found
    finally:
        for process in reversed(started):
            stop_group(process)


# --- an instructor's own game: a Java reference, no Python written ----------------------------

OWN_GAME = "climb"
OWN_SOLUTION = ROOT / "tests" / "own_game" / "Climb.java"
# The first case: from the reference's start (seed 1), steps of 2 with one refused line, to goal 12.
OWN_INPUTS = ["2", "2", "x", "2", "2", "2"]
OWN_ARGS = ["12"]


def new_own_game(root: Path, *extra: str) -> subprocess.CompletedProcess:
    """`harness new climb` from the Java solution (tests/own_game/Climb.java) in the project `root`."""
    (root / "specs").mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "harness.cli", "new", OWN_GAME, "--solution", str(OWN_SOLUTION),
         "--inputs", *OWN_INPUTS, "--args", *OWN_ARGS, "--random-start", r"^Start: (\d+)", *extra],
        cwd=root, env={**os.environ, "HARNESS_ROOT": str(root)}, capture_output=True, text=True, timeout=600)


def own_game(root: Path) -> Path:
    """The instructor's game as `harness new` makes it, then finished as docs/adding-a-game.md says,
    in YAML only: the law of the start declared, Python submissions accepted beside Java, and two
    seeded bugs with what they must lose (one Java, one Python)."""
    made = new_own_game(root)
    assert made.returncode == 0, made.stderr
    spec = root / "specs" / OWN_GAME / "spec.yaml"
    text = spec.read_text(encoding="utf-8")
    text = re.sub(r"  # distribution: .*", "  distribution: {values: {pattern: '(\\\\d+)'}, uniform: [1, 5], "
                                            "least: 30, case: first-game}", text)
    text = text.replace("      java: {files: [Climb.java], main: Climb}",
                        "      java: {files: [Climb.java], main: Climb}\n"
                        "      python: {files: [climb.py], main: climb.py}")
    spec.write_text(text, encoding="utf-8")
    examples = root / "examples" / OWN_GAME
    java = OWN_SOLUTION.read_text(encoding="utf-8")
    (examples / "bug-wording").mkdir()
    (examples / "bug-wording" / "Climb.java").write_text(java.replace('"Illegal!"', '"Illegal move!"'), encoding="utf-8")
    (examples / "bug-fixed-start").mkdir()
    (examples / "bug-fixed-start" / "climb.py").write_text(
        "# Climb with the start the reference draws with seed 1, every time (the die is never rolled).\n"
        "import sys\n"
        f"start = {_seeded_start(root)}\n"
        "goal = int(sys.argv[1]) if len(sys.argv) > 1 else 10\n"
        "print(f'Start: {start}')\n"
        "at, steps = start, 0\n"
        "while at < goal:\n"
        "    print('Step? ', end='', flush=True)\n"
        "    line = sys.stdin.readline()\n"
        "    if not line:\n"
        "        sys.exit(1)\n"
        "    line = line.strip()\n"
        "    if line not in ('1', '2'):\n"
        "        print('Illegal!')\n"
        "        continue\n"
        "    at, steps = at + int(line), steps + 1\n"
        "    print(f'At {at}')\n"
        "print(f'Done in {steps} steps')\n", encoding="utf-8")
    (examples / "expected.yaml").write_text(
        "samples:\n  correct: {}\n  bug-wording: {loses: [play]}\n  bug-fixed-start: {loses: [setup]}\n",
        encoding="utf-8")
    return root


def _seeded_start(root: Path) -> str:
    """The start the first case recorded (the reference's draw with the spec's seed)."""
    case = (root / "cases" / OWN_GAME / "first-game.yaml").read_text(encoding="utf-8")
    return re.search(r"Start: (\d+)", case).group(1)


CHARGED = {"bug-crash": "illegal"}
