"""Is comparing linear in the program's output? Prints the CPU seconds of one comparison.

Usage: python bench/compare.py [--sizes 100000 1000000]
For each size N and each hostile output (a line "x" + N spaces + "y", N newlines, N short
distinct lines, a line of N characters without a newline, a long line unlike the expected one),
one comparison with the policy that costs most (every flag of the hint ladder, the message
classes of a spec, keep/drop lines) against a short expected transcript, and Flip's rewrite of
the same output; then the ratio of each time to the smallest size's, which grows like the size
(10 for ten times the output), not like its square.
"""
import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.judging import compare  # noqa: E402
from harness.loading import policy as policies  # noqa: E402
from harness.loading import spec as specs  # noqa: E402
from harness.outcome import End  # noqa: E402
from reference.flip import canonical_states  # noqa: E402

EXPECTED = [{"out": "Start: 2\nAdd? "}, {"in": "3"}, {"out": "Now 5\nAdd? "}]


def outputs(size: int) -> dict[str, str]:
    return {
        "x + spaces + y": "x" + " " * size + "y\n",
        "newlines": "\n" * size,
        "distinct short lines": "".join(f"{i}\n" for i in range(size // 7)),
        "one line, no newline": "ab" * (size // 2),
        "long line, other line": "Now " + "5 " * (size // 2) + "\n",
    }


def seconds(work) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    messages = specs.load("connect").messages
    views = {
        "default": compare.View(policies.policy("default")),
        "messages+lines": compare.View(policies.policy("whitespace", {"ignore_extra_lines": True, "messages": True,
                                                                     "drop_lines": r"(?i)\bwelcome\b"}), messages),
    }
    times: dict[tuple, float] = {}
    for size in args.sizes:
        for name, out in outputs(size).items():
            actual = [{"out": "Start: 2\n" + out}, {"in": "3"}, {"out": out}]
            for view_name, view in views.items():
                result = []
                times[name, view_name, size] = seconds(lambda: result.append(
                    compare.compare_within(EXPECTED, End("waiting"), actual, End("waiting"), view, 600)))
                print(f"{size:>9,} {name:<24} {view_name:<15} {times[name, view_name, size]:7.3f} s CPU"
                      f"{'  (over budget)' if result[0].problems else ''}")
            times[name, "flip rewrite", size] = seconds(lambda: canonical_states("Game state: 1|" + out))
            print(f"{size:>9,} {name:<24} {'flip rewrite':<15} {times[name, 'flip rewrite', size]:7.3f} s CPU")
    smallest = args.sizes[0]
    print(f"\nratio to {smallest:,} (linear: the ratio of the sizes)")
    for (name, view_name, size), spent in times.items():
        if size != smallest:
            base = max(times[name, view_name, smallest], 1e-4)
            print(f"{name:<24} {view_name:<15} x{size / smallest:g} size: x{spent / base:.1f} time")


if __name__ == "__main__":
    main()
