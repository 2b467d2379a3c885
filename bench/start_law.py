"""How often does the check of a random setup raise a false alarm, and how often does it catch a
wrong generator? Runs real programs and prints the rates over many gradings.

Usage: python bench/start_law.py [--gradings N] [--quick]

- The programs: Silver Dollar's correct Python sample (gaps 1-6) and its two seeded bugs,
  gaps 1-5 (examples/silver-dollar/bug-gaps-one-to-five) and 1-7 (bug-gaps-one-to-seven).
- A grading's sample: `least` values of the spec's law (150 gaps), from runs of the law's case
  (setup-12-coins) made exactly as grading makes them (the worker pool, the sandbox, the
  reference re-run from each start); each run is a fresh process, so the runs of N gradings are
  made in one batch and dealt out in order, `least` values to each grading.
- Printed per program: gradings, runs, how many gradings the check failed, and the rate
  (target: 0 of N for the correct program, N of N for the two bugs). The exact false-alarm bound
  of the test is in tests/test_distribution.py.
`--quick`: 20 gradings each (about a minute on an idle 2-core machine); the default, 200.
"""
import argparse
import dataclasses
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.building import build as builder  # noqa: E402
from harness.loading import cases as caseload  # noqa: E402
from harness.starts import law as distribution
from harness.grading import submission as grading
from harness.loading import spec as specs  # noqa: E402

GAME = "silver-dollar"
PROGRAMS = {"correct-python": "gaps 1-6", "bug-gaps-one-to-five": "gaps 1-5", "bug-gaps-one-to-seven": "gaps 1-7"}


def starts_of(grader: grading.Grader, spec, case, build, runs: int) -> list[str]:
    """The starts of `runs` runs of the case, in the order they were submitted."""
    jobs = [grading.Job(spec, case, build)] * runs
    return [start for result in grader.run_cases(jobs) for start in result.starts]


def gradings(rule: distribution.Law, starts: list[str], count: int) -> list[distribution.Verdict]:
    """Deal the starts out, in order, `least` values to each grading."""
    verdicts, batch = [], []
    for start in starts:
        batch.append(start)
        if len(distribution.sample(rule, batch)) >= rule.least:
            verdicts.append(distribution.check(rule, batch))
            batch = []
            if len(verdicts) == count:
                break
    return verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gradings", type=int, help="gradings per program (default 200; --quick: 20)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = args.gradings or (20 if args.quick else 200)
    spec, milestone = specs.parse_game(GAME)
    rule = (spec.random_start.law if spec.random_start else None)
    case = next(c for c in caseload.load_all(spec, milestone) if c.name == rule.case)
    case = dataclasses.replace(case, repeat=1)
    print(f"{spec.title}: {count} gradings per program, {rule.least} values each, runs of {case.name}")
    with grading.Grader() as grader:
        for name, what in PROGRAMS.items():
            build = builder.build(ROOT / "examples" / GAME / name, spec, case.target)
            started = time.perf_counter()
            try:
                per_run = len(distribution.sample(rule, starts_of(grader, spec, case, build, 4))) / 4 or 1
                runs = math.ceil(count * rule.least / per_run * 1.05) + 4
                verdicts = gradings(rule, starts_of(grader, spec, case, build, runs), count)
            finally:
                builder.cleanup(build)
            failed = sum(1 for v in verdicts if v.passed is False)
            print(f"  {name:24} ({what}): {len(verdicts)} gradings from {runs} runs, check failed "
                  f"{failed} of {len(verdicts)} ({failed / max(1, len(verdicts)):.1%}), "
                  f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
