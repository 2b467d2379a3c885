"""How fast is a whole class? Grades a made-up class of Java Reversi submissions with the real
`harness grade` and compares its wall time with the floor the machine allows.

Usage: python bench/class.py [--quick] [--submissions N] [--cases N] [--keep]

- The class: N submissions (default 100), copies of the correct Java sample and of the buggy
  ones (examples/reversi/bug-*, but bug-never-ends, which spends its whole time limit), each
  with a comment naming it and this run, so no two share a build (the build cache is measured
  separately: `--cached-too` grades the class again, every build then reused);
  the first C cases of Reversi (default 20) in a project folder of their own (HARNESS_ROOT).
- wall: `harness grade GAME CLASS -q --force` from start to end.
- floor: what the work costs with no harness at all, spread over the cores: every case's
  program run through a pipe (the sample it was copied from), as many at a time as there are
  cores (each case once per core, the wall time divided by the cores), plus one compile per
  submission by the warm compiler, divided by the cores.
- ratio: wall / floor (target at most 1.3).
- the harness's own peak memory (its VmHWM; case workers and programs are other processes)
  when a quarter of the class is graded and at the end (target: flat).
- the fixed cost of `harness run` on one case above the program's own time (target at most
  0.25 s): the median of a few `harness run -k CASE` calls minus the median of that case's
  program through a pipe.
`--quick`: 6 submissions x 4 cases, under a minute on an idle 2-core machine (1.5 minutes
under a load of 15). The full run takes about 10 minutes on 2 cores (7 of them grading).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.building import build as builder  # noqa: E402
from harness.loading import cases as caseload  # noqa: E402
from harness.loading import spec as specs  # noqa: E402
from harness.running.environment import Workdir, child_env  # noqa: E402
from harness.building.javac_server import WarmJavac  # noqa: E402

GAME = "reversi"
SAMPLES = ["correct-java", "variant-message-wording", "bug-tie", "bug-uppercase", "variant-no-blank-line", "bug-no-diagonals",
           "bug-no-capture-check", "bug-ends-early", "bug-crash-row"]
HARNESS = [sys.executable, "-m", "harness.cli"]


def project(folder: Path, cases: list) -> Path:
    """A project root holding the game's spec and only the chosen cases."""
    shutil.copytree(ROOT / "specs" / GAME, folder / "specs" / GAME)
    (folder / "cases" / GAME).mkdir(parents=True)
    for case in cases:
        shutil.copyfile(case.path, folder / "cases" / GAME / case.path.name)
    return folder


def make_class(folder: Path, count: int) -> list[str]:
    """`count` submissions, each a sample with a comment of its own; the sample of each."""
    run = uuid.uuid4().hex[:8]
    used = []
    for index in range(count):
        sample = SAMPLES[index % len(SAMPLES)]
        student = folder / f"student{index:03d}"
        student.mkdir(parents=True)
        text = (ROOT / "examples" / GAME / sample / "Reversi.java").read_text(encoding="utf-8")
        (student / "Reversi.java").write_text(text + f"\n// student {index}, bench run {run}\n", encoding="utf-8")
        used.append(sample)
    return used


def pipe_seconds(command: list[str], lines: list[str]) -> float:
    with Workdir() as home:
        started = time.perf_counter()
        subprocess.run(command, input="".join(line + "\n" for line in lines).encode(), env=child_env(home), cwd=home,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        return time.perf_counter() - started


def run_costs(spec, cases, samples: set[str], cores: int) -> dict[str, float]:
    """Per sample: the wall time of its program run on every case through a pipe, `cores`
    programs at a time. A JVM uses more than one core while it starts (JIT and GC threads), so
    runs made one after another and divided by the cores would promise a floor no grader can
    reach; at full occupancy the machine shows what a run really costs."""
    costs = {}
    with ThreadPoolExecutor(max_workers=cores) as pool:
        for sample in sorted(samples):
            built = builder.build(ROOT / "examples" / GAME / sample, spec, "game")
            try:
                started = time.perf_counter()
                list(pool.map(lambda case: pipe_seconds(built.command(case.args), case.prefix), cases * cores))
                costs[sample] = (time.perf_counter() - started) / cores
            finally:
                builder.cleanup(built)
    return costs


def compile_costs(spec, repeat: int) -> tuple[float, float]:
    """One plain javac build and one warm build of the correct sample (median of a few)."""
    source = (ROOT / "examples" / GAME / "correct-java" / "Reversi.java").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as work, WarmJavac() as warm:
        def once(compiler, index):
            folder = Path(work) / f"c{index}"
            folder.mkdir()
            (folder / "Reversi.java").write_text(source + f"\n// {uuid.uuid4().hex}\n", encoding="utf-8")
            started = time.perf_counter()
            built = builder.build(folder, spec, "game", compiler)
            took = time.perf_counter() - started
            builder.cleanup(built)
            return took, built
        plain = statistics.median(once(None, i)[0] for i in range(repeat))
        for i in range(repeat, repeat + 2):
            once(warm, i)  # the compiler starts after the first Java build and warms up
        warm.wait_ready()
        answered = warm.answered
        hot = statistics.median(once(warm, i)[0] for i in range(repeat + 2, 2 * repeat + 2))
        assert warm.answered > answered, "the warm compiler answered no build"
    return plain, hot


def peak_memory_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def grade_class(root: Path, klass: Path, out: Path, count: int) -> tuple[float, int | None, int | None, int]:
    """Wall seconds, peak memory (kB) at a quarter of the class and at the end, exit status."""
    env = dict(os.environ, HARNESS_ROOT=str(root))
    started = time.perf_counter()
    process = subprocess.Popen([*HARNESS, "grade", GAME, str(klass), "-q", "--force", "-o", str(out)], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    quarter, last = None, None
    while process.poll() is None:
        now = peak_memory_kb(process.pid)
        last = now or last
        if quarter is None and len(list(out.glob("*/result.json"))) >= max(1, count // 4):
            quarter = now
        time.sleep(0.2)
    wall = time.perf_counter() - started
    if process.returncode not in (0, 1):
        raise SystemExit(f"harness grade failed ({process.returncode}): {process.stderr.read().decode()[-2000:]}")
    return wall, quarter, last, process.returncode


def fixed_cost(root: Path, spec, case, repeat: int) -> tuple[float, float]:
    """`harness run -k CASE` on the correct sample, and that case's program through a pipe (medians)."""
    env = dict(os.environ, HARNESS_ROOT=str(root))
    sample = ROOT / "examples" / GAME / "correct-java"
    command = [*HARNESS, "run", GAME, str(sample), "-k", case.name]
    subprocess.run(command, env=env, cwd=ROOT, capture_output=True)  # the build is cached from here on
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, env=env, cwd=ROOT, capture_output=True)
        walls.append(time.perf_counter() - started)
    built = builder.build(sample, spec, "game")
    try:
        pipes = [pipe_seconds(built.command(case.args), case.prefix) for _ in range(repeat)]
    finally:
        builder.cleanup(built)
    return statistics.median(walls), statistics.median(pipes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 submissions x 4 cases (under a minute on an idle machine)")
    parser.add_argument("--submissions", type=int)
    parser.add_argument("--cases", type=int)
    parser.add_argument("--cached-too", action="store_true", help="grade the class again with every build cached")
    parser.add_argument("--keep", action="store_true", help="keep the class and its reports (the folder is printed)")
    args = parser.parse_args()
    count = args.submissions or (6 if args.quick else 100)
    n_cases = args.cases or (4 if args.quick else 20)
    cores = os.cpu_count() or 1
    spec, milestone = specs.parse_game(GAME)
    cases = sorted(caseload.load_all(spec, milestone), key=lambda c: c.name)[:n_cases]
    work = Path(tempfile.mkdtemp(prefix="harness-bench-class-"))
    try:
        root = project(work / "project", cases)
        used = make_class(work / "class", count)
        print(f"{count} Java submissions x {len(cases)} cases of {spec.title} ({cores} cores)", flush=True)
        costs = run_costs(spec, cases, set(used), cores)
        plain, hot = compile_costs(spec, 2 if args.quick else 5)
        floor = sum(costs[s] for s in used) + count * hot / cores
        wall, quarter, end, _ = grade_class(root, work / "class", work / "reports", count)
        print(f"  wall time (harness grade):       {wall:8.1f} s")
        print(f"  floor:                           {floor:8.1f} s   (runs {sum(costs[s] for s in used):.1f} s, "
              f"{cores} at a time, + {count} compiles x {hot:.3f} s warm / {cores} cores; "
              f"plain javac {plain:.3f} s per build)")
        print(f"  ratio wall / floor:              {wall / floor:8.2f}     (target <= 1.3)")
        print(f"  harness peak memory:             {(quarter or 0) / 1024:8.1f} MB at {max(1, count // 4)} graded, "
              f"{(end or 0) / 1024:.1f} MB at {count} (target: flat)")
        if args.cached_too:
            again, _, _, _ = grade_class(root, work / "class", work / "reports-again", count)
            print(f"  wall time again, builds cached:  {again:8.1f} s")
        run_wall, program = fixed_cost(root, spec, cases[0], 2 if args.quick else 5)
        print(f"  harness run -k {cases[0].name}: {run_wall:.2f} s, the program alone {program:.2f} s: "
              f"fixed cost {run_wall - program:.2f} s (target <= 0.25 s)")
        if args.keep:
            print(f"  kept: {work}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
