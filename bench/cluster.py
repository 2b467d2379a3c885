"""What does grading on a Dask cluster cost? Grades one made-up class with the real
`harness grade`, first on this machine (the local pool), then on a two-worker Dask cluster
started here, and prints submissions per second for each and their ratio.

Usage: python bench/cluster.py [--quick] [--submissions N] [--keep]

- The class: N Python submissions of the fixture game (tests/fixture; default 20, `--quick` 6),
  copies of its samples that end within their limits (correct, bug-add, bug-illegal, bug-end,
  bug-crash, variant-banner, variant-wording), each with a comment of its own; every one of
  the fixture's 8 cases.
- local: `harness grade tally CLASS -q --force`; cluster: the same with `--cluster ADDRESS`, on
  a `distributed.LocalCluster` of two worker processes (nanny-started, not daemonic, one
  thread per core each), started before the clock and ended after.
- Both gradebooks must be the same (the grades do not depend on where they were made).

On one machine the cluster cannot be faster: its two workers share the same cores as the
local pool, and add what a cluster costs (each submission packed, sent and unpacked, a
pool of case workers per worker process, the scheduler's round trips). The figure this
gives is that overhead; the gain comes from workers on other machines. On a machine busy with
other work the cluster may even come out ahead, which says only that its two pools of case
workers (one per core plus one, each) claim a larger share of the shared cores than one pool.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixture"
SAMPLES = ["correct", "bug-add", "bug-illegal", "bug-end", "bug-crash", "variant-banner", "variant-wording"]
HARNESS = [sys.executable, "-m", "harness.cli"]


def make_class(folder: Path, count: int) -> None:
    """`count` submissions, each a fixture sample with a comment naming it and this run."""
    run = uuid.uuid4().hex[:8]
    for n in range(count):
        sample = SAMPLES[n % len(SAMPLES)]
        student = folder / f"student{n:03d}"
        student.mkdir(parents=True)
        source = (FIXTURE / "examples" / "tally" / sample / "tally.py").read_text(encoding="utf-8")
        (student / "tally.py").write_text(f"# {sample}, student {n}, run {run}\n{source}", encoding="utf-8")


def grade(room: Path, out: Path, *extra: str) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["HARNESS_ROOT"] = str(FIXTURE)
    started = time.monotonic()
    done = subprocess.run([*HARNESS, "grade", "tally", str(room), "-o", str(out), "-q", "--force", *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.monotonic() - started
    if done.returncode not in (0, 1):
        sys.exit(f"harness grade {' '.join(extra)} failed ({done.returncode}):\n{done.stderr}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 submissions")
    parser.add_argument("--submissions", type=int)
    parser.add_argument("--keep", action="store_true", help="keep the class and its reports (the folder is printed)")
    args = parser.parse_args()
    count = args.submissions or (6 if args.quick else 20)

    try:
        import dask
        from distributed import LocalCluster
    except ImportError:
        print("bench/cluster.py needs the cluster extra: pip install 'game-harness[cluster]'", file=sys.stderr)
        return 2

    work = Path(tempfile.mkdtemp(prefix="harness-bench-cluster-"))
    try:
        make_class(work / "class", count)
        local = grade(work / "class", work / "local")
        cores = os.cpu_count() or 1
        with dask.config.set({"distributed.worker.daemon": False}), \
                LocalCluster(n_workers=2, threads_per_worker=cores, processes=True, dashboard_address=":0",
                             local_directory=str(work / "dask")) as cluster:
            remote = grade(work / "class", work / "cluster", "--cluster", cluster.scheduler_address)
        same = (work / "local" / "gradebook.csv").read_bytes() == (work / "cluster" / "gradebook.csv").read_bytes()
        print(f"class: {count} submissions x 8 cases (fixture game), {cores} cores, load {os.getloadavg()[0]:.1f}")
        print(f"local pool:          {local:6.1f} s  {count / local:5.2f} submissions/s")
        print(f"two-worker cluster:  {remote:6.1f} s  {count / remote:5.2f} submissions/s")
        print(f"cluster / local:     {local / remote:5.2f} of the local rate")
        print(f"same gradebook: {'yes' if same else 'NO'}")
        if args.keep:
            print(f"kept: {work}")
        return 0 if same else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
