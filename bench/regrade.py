"""How much does a regrade cost against a full grading? Grades a made-up class of the fixture
game (tests/fixture: correct programs, programs that greet first, two seeded bugs, empty
folders) with the real `harness grade`, accepts the greeting with the command the class page
shows, and grades the same class again.

Usage: python bench/regrade.py [--submissions N]

- first: the first `harness grade` of the class, from start to end.
- floor: the same class graded again with --force (every case of every submission run).
- regrade: the class graded again after the acceptance: only the submissions that failed the
  accepted case run it again.
- ratio: regrade / floor (the smaller the better: the regrade runs what the change can touch),
  and the case runs the regrade took, as the command says.
"""
import argparse
import html
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIX = (("correct", 10), ("variant-banner", 8), ("bug-add", 6), ("bug-illegal", 4))  # per 30, and 2 empty


def _grade(env, folder: Path, out: Path, *extra: str) -> tuple[float, str]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "tally", str(folder), "-o", str(out), "-q",
                           *extra], cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode not in (0, 1):
        sys.exit(done.stdout + done.stderr)
    return time.monotonic() - started, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=30)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-regrade-"))
    try:
        root = work / "project"
        for part in ("specs", "cases", "examples"):
            shutil.copytree(ROOT / "tests" / "fixture" / part, root / part)
        env = {**os.environ, "HARNESS_ROOT": str(root)}
        folder, out = work / "class", work / "reports"
        scale = args.submissions / 30
        for sample, count in MIX:
            for n in range(max(1, round(count * scale))):
                shutil.copytree(root / "examples" / "tally" / sample, folder / f"{sample}-{n:02d}")
        for n in range(max(1, round(2 * scale))):
            (folder / f"empty-{n}").mkdir(parents=True)
        first, _ = _grade(env, folder, out)
        floor, _ = _grade(env, folder, out, "--force")
        page = (out / "index.html").read_text(encoding="utf-8")
        commands = [html.unescape(c) for c in re.findall(r'<code class="accept">([^<]*)</code>', page)]
        if not commands:
            sys.exit("no suspect case on the class page: nothing to accept")
        subprocess.run([sys.executable, "-m", "harness", *shlex.split(commands[0])[1:]], cwd=ROOT, env=env,
                       check=True, capture_output=True)
        regrade, said = _grade(env, folder, out)
        runs = re.search(r"graded again: (\d+) case run", said)
        print(f"class of {len(list(folder.iterdir()))}: first grading {first:.1f} s, "
              f"graded again whole (--force) {floor:.1f} s")
        print(f"accepted: {commands[0]}")
        print(f"regrade {regrade:.1f} s, {runs.group(1) if runs else '?'} case runs; "
              f"ratio to the whole grading {regrade / floor:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
