"""How fast is grading? Prints ratios against the plain pipe (`java Reversi < inputs`).

Usage: python bench/speed.py [--repeat N]
- one case, whole process: `harness run reversi examples/reversi/correct-java -k CASE` (its
  longest case, 64 inputs) against `java -cp out Reversi < inputs`, the program through a pipe,
  each a process of its own from start to exit, measured in alternating pairs (target: at most
  2.5 times);
- grading the correct Java Reversi on every case vs the same program fed the same inputs
  through a pipe, one process per case, run one after another (the harness runs them in parallel;
  both totals are shown, and the sequential per-case ratio);
- the runner's per-turn overhead on the longest case, for the Java and a C++ program.
"""
import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.building import build as builder  # noqa: E402
from harness.loading import cases as caseload  # noqa: E402
from harness.grading import submission as grading  # noqa: E402
from harness.loading import spec as specs  # noqa: E402
from harness.running import runner  # noqa: E402
from harness.running.environment import Workdir, child_env  # noqa: E402


def pipe_run(command, lines):
    with Workdir() as home:
        started = time.perf_counter()
        subprocess.run(command, input="".join(l + "\n" for l in lines).encode(), env=child_env(home), cwd=home,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - started


def harness_run(command, lines):
    with Workdir() as home:
        started = time.perf_counter()
        runner.run(command, env=child_env(home), cwd=home, inputs=runner.FixedInputs(lines), limits=runner.Limits(),
                   spin=True)  # one run at a time: a core to itself
        return time.perf_counter() - started


def one_case(built, case, repeat: int) -> None:
    """The whole `harness run` of one case against the program alone through a pipe."""
    harness = [str(Path(sys.executable).with_name("harness")), "run", "reversi", str(ROOT / "examples" / "reversi" / "correct-java"),
               "-k", case.name]
    subprocess.run(harness, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # builds cached, files warm
    lines = "".join(line + "\n" for line in case.prefix).encode()

    def timed(command, data=None) -> float:
        started = time.perf_counter()
        subprocess.run(command, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - started

    plain = ["java", "-cp", built.out, "Reversi"]
    pipes, wholes = [], []
    for _ in range(repeat * 10):  # in pairs, so a machine that slows down or speeds up costs both alike
        pipes.append(timed(plain, lines))
        wholes.append(timed(harness))
    pipe, whole = statistics.median(pipes), statistics.median(wholes)
    paired = statistics.median(w / p for w, p in zip(wholes, pipes))
    print(f"one case, whole process ({case.name}, {len(case.prefix)} inputs, {len(pipes)} pairs):")
    print(f"  java -cp out Reversi < inputs:              {pipe:6.3f} s")
    print(f"  harness run reversi ... -k {case.name}: {whole:6.3f} s   ratio {whole / pipe:.2f} "
          f"(median of the pairs' ratios {paired:.2f}; target 2.5)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    spec, milestone = specs.parse_game("reversi")
    found = caseload.load_all(spec, milestone)
    sample = ROOT / "examples" / "reversi" / "correct-java"
    built = builder.build(sample, spec, "game")
    command = built.command([])
    inputs = [c.prefix for c in found]
    one_case(built, max(found, key=lambda c: len(c.prefix)), args.repeat)

    plain = ["java", "-cp", built.out, "Reversi"]  # what an instructor types: default JVM flags
    pipe = min(sum(pipe_run(plain, lines) for lines in inputs) for _ in range(args.repeat))
    fast_pipe = min(sum(pipe_run(command, lines) for lines in inputs) for _ in range(args.repeat))
    pty = min(sum(harness_run(command, lines) for lines in inputs) for _ in range(args.repeat))
    started = time.perf_counter()
    grading.grade(spec, milestone, found, sample)
    whole = time.perf_counter() - started
    print(f"Java Reversi, {len(found)} cases, {sum(map(len, inputs))} inputs")
    print(f"  plain pipe (java -cp out Reversi < in), one case after another: {pipe:6.2f} s")
    print(f"  the same pipe with the harness's JVM flags:  {fast_pipe:6.2f} s   ratio {fast_pipe / pipe:.2f}")
    print(f"  harness runner, one case after another:      {pty:6.2f} s   ratio {pty / pipe:.2f}")
    print(f"  harness grade (build + parallel cases):      {whole:6.2f} s   ratio {whole / pipe:.2f}")

    longest = max(inputs, key=len)
    cpp = Path(tempfile.mkdtemp()) / "echo"
    source = cpp.with_suffix(".cpp")
    source.write_text('#include <iostream>\n#include <string>\nint main(){std::string s;'
                      'while(std::cout << "move? " && std::getline(std::cin, s)) std::cout << "board\\n" << s << "\\n";}\n')
    subprocess.run(["g++", "-O2", "-o", str(cpp), str(source)], check=True)
    for label, cmd in (("Java", command), ("C++", [str(cpp)])):
        short = statistics.median(harness_run(cmd, longest[:1]) for _ in range(args.repeat * 3))
        long = statistics.median(harness_run(cmd, longest) for _ in range(args.repeat * 3))
        piped = statistics.median(pipe_run(cmd, longest) for _ in range(args.repeat * 3))
        # overhead = harness minus pipe, spread over the inputs (start-up counted once)
        per_turn = (long - short) / (len(longest) - 1) * 1000
        print(f"{label}: {len(longest)} inputs: harness {long * 1000:.1f} ms, pipe {piped * 1000:.1f} ms, "
              f"runner overhead {per_turn:.2f} ms per input")
    shutil.rmtree(cpp.parent)
    builder.cleanup(built)


if __name__ == "__main__":
    main()
