"""Similarity calibrated on the class (docs/similarity.md, "What the class writes alike"): code more
than half of a class's submissions hold is set aside before pairs are scored, so two programs
written apart that share it fall below the listing, and a renamed copy stays on top. Through the
real `harness grade --similarity` of a Reversi class whose three students all typed in the
helpers their handout prints (tests/similarity_programs/handout/Handout.java, not a support file):
ann hands in the course's Java sample, bo a Reversi written apart from it
(tests/similarity_programs/reversi-apart), cy ann's program with its identifiers renamed."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from harness.classes import similarity
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a class graded (one case each) and compared
pytest.importorskip("copydetect", reason="the similarity extra is not installed: pip install 'game-harness[similarity]'")

PROGRAMS = ROOT / "tests" / "similarity_programs"
SAMPLE = ROOT / "examples" / "reversi" / "correct-java" / "Reversi.java"
NAMES = {"board": "grid", "player": "who", "row": "r", "col": "c", "skips": "passes", "keyboard": "input"}
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def _renamed(text: str) -> str:
    """Identifiers renamed everywhere but inside string literals (what the program prints stays)."""
    parts, at = [], 0
    for literal in STRING.finditer(text):
        parts.append(re.sub(r"\b(" + "|".join(NAMES) + r")\b", lambda m: NAMES[m[1]], text[at:literal.start()]))
        parts.append(literal[0])
        at = literal.end()
    parts.append(re.sub(r"\b(" + "|".join(NAMES) + r")\b", lambda m: NAMES[m[1]], text[at:]))
    return "".join(parts)


def test_what_the_whole_class_writes_is_set_aside_and_the_copy_stays_on_top(tmp_path):
    room = tmp_path / "class"
    for name in ("ann", "bo", "cy"):
        (room / name).mkdir(parents=True)
        shutil.copy(PROGRAMS / "handout" / "Handout.java", room / name)
    shutil.copy(SAMPLE, room / "ann")
    shutil.copy(PROGRAMS / "reversi-apart" / "Reversi.java", room / "bo")
    (room / "cy" / "Reversi.java").write_text(_renamed(SAMPLE.read_text(encoding="utf-8")), encoding="utf-8")
    assert (room / "cy" / "Reversi.java").read_text(encoding="utf-8") != SAMPLE.read_text(encoding="utf-8")

    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "reversi", str(room), "-o", str(out),
                           "-k", "ms2-initial-board", "--similarity"],
                          cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr  # all three play the game right
    threshold = f"{similarity.DEFAULT_THRESHOLD:g}"
    # the copy alone is listed: the handout's helpers, in every submission, are no match
    assert f"similarity: 1 pair at or above {threshold} % among 3 submissions (3 pairs compared)" in done.stdout
    page = (out / "similarity.html").read_text(encoding="utf-8")
    ranking = page.split('<h2 id="ranking">')[1].split("</table>")[0]
    assert [frozenset(re.findall(r'href="(\w+)/report.html"', row)) for row in ranking.split("<tr>")[2:]] == \
        [frozenset({"ann", "cy"})]
    assert "Code more than half the class writes alike is not a match either" in page
    scores = [float(x) for x in re.findall(r"([\d.]+) %", ranking)]
    assert scores and max(scores) >= 99.0  # the renamed copy matches all but nothing


def test_a_class_of_two_has_no_code_of_its_own_to_set_aside(tmp_path):
    """Two submissions cannot tell what a class writes alike from what two students shared: their
    shared code counts, as it always did (the class's code needs COMMON_LEAST holders)."""
    from harness.classes import classroom
    from harness.loading import spec as specs

    room = tmp_path / "class"
    for name, source in (("ann", SAMPLE), ("bo", PROGRAMS / "reversi-apart" / "Reversi.java")):
        (room / name).mkdir(parents=True)
        shutil.copy(PROGRAMS / "handout" / "Handout.java", room / name)
        shutil.copy(source, room / name)
    spec, _ = specs.parse_game("reversi")
    entries = [classroom.Entry(p.name, p.name, classroom.FOLDER, p, name=p.name) for p in sorted(room.iterdir())]
    result = similarity.compare(spec, entries, 0.0, {})
    assert similarity.COMMON_LEAST > 2 and result.common == ""
    (pair,) = result.pairs
    assert pair.score > 0  # the helpers both typed in are found in both
