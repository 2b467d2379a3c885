"""What `harness grade --similarity` ranks in a class of 30, and what it adds to the class run.

Usage: python bench/similarity.py [--keep DIR]

- The class: 24 of Silver Dollar's sample submissions (examples/silver-dollar: the Java and the
  Python correct ones and the bug- and variant- samples made from them, the zip left out) and
  three planted pairs: a program of another course game's samples beside a copy of it with its
  identifiers renamed (Flip's correct-bags), one with its functions in another order (Reversi's
  correct-python), one with its comments and whitespace changed (Connect's correct-java).
- The ranking: the top 5 pairs with their scores, the number at or above the default threshold,
  and where each planted pair ranks.
- The time: `harness grade silver-dollar CLASS -k end-random-2-illegal -q --force` without and
  with `--similarity`, in turn, three times each (the same cases, so the difference of the
  medians is the step), and the step's own time as it reports it (most of it is importing
  copydetect, which imports matplotlib).
"""
import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.classes import classroom, similarity  # noqa: E402
from harness.loading import spec as specs  # noqa: E402
from tests.test_similarity import JAVA_NAMES, recommented, renamed, reordered  # noqa: E402

GAME = "silver-dollar"
CASE = "end-random-2-illegal"
ROUNDS = 3
EXAMPLES = ROOT / "examples"
FLIP_NAMES = {"player1Flippable": "mineUp", "player1Unflippable": "mineDown", "player2Flippable": "theirsUp",
              "player2Unflippable": "theirsDown", "middle": "centre", "justPlayed": "last", "dice": "count",
              "values": "faces", **JAVA_NAMES}


def make_class(room: Path) -> dict[str, str]:
    samples = sorted(p for p in (EXAMPLES / GAME).iterdir() if p.is_dir() and p.name != "variant-zip")[:24]
    for sample in samples:
        shutil.copytree(sample, room / sample.name)
    planted = {"flip-bags-renamed": "flip-bags", "reversi-python-reordered": "reversi-python",
               "connect-java-recommented": "connect-java"}
    shutil.copytree(EXAMPLES / "flip/correct-bags", room / "flip-bags")
    (room / "flip-bags-renamed").mkdir()
    text = (EXAMPLES / "flip/correct-bags/GameState.java").read_text(encoding="utf-8")
    (room / "flip-bags-renamed/GameState.java").write_text(renamed(text, FLIP_NAMES), encoding="utf-8")
    shutil.copytree(EXAMPLES / "reversi/correct-python", room / "reversi-python")
    (room / "reversi-python-reordered").mkdir()
    text = (EXAMPLES / "reversi/correct-python/reversi.py").read_text(encoding="utf-8")
    (room / "reversi-python-reordered/reversi.py").write_text(reordered(text), encoding="utf-8")
    shutil.copytree(EXAMPLES / "connect/correct-java", room / "connect-java")
    (room / "connect-java-recommented/src").mkdir(parents=True)
    for source in (EXAMPLES / "connect/correct-java/src").iterdir():
        (room / "connect-java-recommented/src" / source.name).write_text(
            recommented(source.read_text(encoding="utf-8")), encoding="utf-8")
    return planted


def grade(room: Path, out: Path, *extra: str) -> tuple[float, str]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "harness", "grade", GAME, str(room), "-o", str(out), "-k", CASE, "-q",
                           "--force", *extra], cwd=ROOT, capture_output=True, text=True)
    took = time.monotonic() - started
    if done.returncode not in (0, 1):
        sys.exit(done.stdout + done.stderr)
    return took, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="leave the class and its reports in this folder")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-similarity-"))
    room = work / "class"
    planted = make_class(room)
    count = sum(1 for _ in room.iterdir())
    spec, _ = specs.parse_game(GAME)
    entries = [classroom.Entry(p.name, p.name, classroom.FOLDER, p, name=p.name) for p in sorted(room.iterdir())]
    result = similarity.compare(spec, entries, similarity.DEFAULT_THRESHOLD, {})
    print(f"class of {count}: {result.compared} pairs compared (sharing a language), {len(result.pairs)} at or above "
          f"{similarity.DEFAULT_THRESHOLD:g} %")
    for pair in result.pairs[:5]:
        print(f"  #{pair.rank} {pair.score:5.1f} %  {pair.a.name} ({pair.a.percent:.0f} %) ~ {pair.b.name} ({pair.b.percent:.0f} %)")
    for copy, original in planted.items():
        pair = next(p for p in result.pairs if {p.a.name, p.b.name} == {copy, original})
        print(f"  planted: #{pair.rank} {pair.score:5.1f} %  {copy} ~ {original}")
    grade(room, work / "warm")  # the build cache and the warm compiler: both timed runs start alike
    without, with_, steps = [], [], []
    for _ in range(ROUNDS):  # in turn, so a change of the machine's load falls on both alike
        without.append(grade(room, work / "without")[0])
        took, said = grade(room, work / "with", "--similarity")
        with_.append(took)
        steps.append(float(re.search(r"^similarity: .* in ([\d.]+) s", said, re.M)[1]))
    a, b = statistics.median(without), statistics.median(with_)
    print(f"harness grade (-k {CASE}), median of {ROUNDS}: {a:.1f} s without --similarity, {b:.1f} s with it "
          f"(+{b - a:.1f} s); the step reports {statistics.median(steps):.1f} s (of {', '.join(f'{s:.1f}' for s in steps)})")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
