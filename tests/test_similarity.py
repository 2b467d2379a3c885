"""Similar submissions across a class (`harness grade --similarity`, docs/similarity.md): a class
of the course games' independent correct programs with three planted copies beside them (one
with its identifiers renamed, one with its functions in another order, one with its comments and
whitespace changed). The planted pairs rank first and are the only ones at or above the
threshold; what the spec provides (support files, the reference) never counts; the page
escapes what it shows and opens in headless Chromium; a class graded without copydetect says
how to add it in one line and grades as ever."""
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.classes import classroom, similarity
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, SAMPLES

EXAMPLES = ROOT / "examples"
pytest.importorskip("copydetect", reason="the similarity extra is not installed: pip install 'game-harness[similarity]'")

# The independent correct programs of the course games' samples (the bug- and variant- samples
# are edits of these; correct-ms1-java is an earlier stage of reversi's correct-java).
INDEPENDENT = ["silver-dollar/correct-java", "silver-dollar/correct-python", "reversi/correct-java",
               "reversi/correct-python", "connect/correct-java", "connect/correct-python", "flip/correct-bags",
               "flip/correct-sets"]
JAVA_NAMES = {"strip": "row", "coin": "piece", "distance": "steps", "done": "finished", "numCoins": "count",
              "coins": "spots", "isLegalMove": "allowed", "isGameOver": "over", "player": "who", "previous": "last",
              "rand": "dice", "target": "dest", "move": "shift"}
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def renamed(text: str, names: dict[str, str]) -> str:
    """Identifiers renamed everywhere but inside string literals (what the program prints stays)."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    parts = STRING.split(text)
    strings = STRING.findall(text)
    out = [pattern.sub(lambda m: names[m[1]], part) for part in parts]
    return "".join(piece for pair in zip(out, strings + [""]) for piece in pair)


def reordered(text: str) -> str:
    """A Python module's top-level functions in reverse order (what comes before the first and
    the lines after the last stay where they are): the same program."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("def ")]
    tail = next(i for i in range(starts[-1] + 1, len(lines)) if lines[i].strip() and not lines[i][0].isspace())
    blocks = [lines[a:b] for a, b in zip(starts, starts[1:] + [tail])]
    return "".join(lines[:starts[0]] + [line for block in reversed(blocks) for line in block] + lines[tail:])


def recommented(text: str) -> str:
    """Java with every comment reworded and its whitespace changed (two-space indents, a blank
    line after each brace that opens a block)."""
    text = re.sub(r"/\*.*?\*/", "/* see the handout */", text, flags=re.S)
    text = re.sub(r"(?m)(^|\s)//.*$", r"\1// as required", text)
    text = re.sub(r"(?m)^((?:    )+)", lambda m: "  " * (len(m[1]) // 4), text)
    return text.replace("{\n", "{\n\n")


def write_class(folder: Path) -> dict[str, str]:
    """The class: the independent programs, and three planted copies; returns each copy's original."""
    for sample in INDEPENDENT:
        shutil.copytree(EXAMPLES / sample, folder / sample.replace("/", "-"))
    planted = {"silver-dollar-java-renamed": "silver-dollar-correct-java",
               "reversi-python-reordered": "reversi-correct-python",
               "connect-java-recommented": "connect-correct-java"}
    copy = folder / "silver-dollar-java-renamed"
    copy.mkdir()
    for source in (EXAMPLES / "silver-dollar/correct-java").iterdir():
        (copy / source.name).write_text(renamed(source.read_text(encoding="utf-8"), JAVA_NAMES), encoding="utf-8")
    # what the page must show harmless: markup and a terminal escape in a comment of the copy
    with (copy / "PlayGame.java").open("a", encoding="utf-8") as end:
        end.write("// </pre><script>alert(1)</script> \x1b[31m\n")
    copy = folder / "reversi-python-reordered"
    copy.mkdir()
    (copy / "reversi.py").write_text(reordered((EXAMPLES / "reversi/correct-python/reversi.py").read_text(encoding="utf-8")),
                                     encoding="utf-8")
    copy = folder / "connect-java-recommented" / "src"
    copy.mkdir(parents=True)
    for source in (EXAMPLES / "connect/correct-java/src").iterdir():
        (copy / source.name).write_text(recommented(source.read_text(encoding="utf-8")), encoding="utf-8")
    return planted


def entries(folder: Path) -> list[classroom.Entry]:
    """Each child of `folder` a submission of its own (whatever files the game asks for)."""
    return [classroom.Entry(child.name, child.name, classroom.FOLDER, child, name=child.name)
            for child in sorted(folder.iterdir())]


def compared(game: str, folder: Path, threshold: float = similarity.DEFAULT_THRESHOLD):
    spec, _ = specs.parse_game(game)
    found = entries(folder)
    return similarity.compare(spec, found, threshold, {e.name: f"{e.name}/report.html" for e in found})


def names(pair) -> frozenset:
    return frozenset((pair.a.name, pair.b.name))


def test_the_transformations_change_the_text_and_keep_the_program(tmp_path):
    """Each planted copy differs from its original as its name says, and no more."""
    java = (EXAMPLES / "silver-dollar/correct-java/CoinStrip.java").read_text(encoding="utf-8")
    assert "spots" in renamed(java, JAVA_NAMES) and "coins" not in STRING.sub("", renamed(java, JAVA_NAMES))
    python = (EXAMPLES / "reversi/correct-python/reversi.py").read_text(encoding="utf-8")
    moved = reordered(python)
    assert moved != python and sorted(moved.splitlines()) == sorted(python.splitlines())
    assert moved.index("def main") < moved.index("def next_word") and moved.rstrip().endswith("main()")
    board = (EXAMPLES / "connect/correct-java/src/Board.java").read_text(encoding="utf-8")
    changed = recommented(board)
    assert changed != board and "as required" in changed or "see the handout" in changed
    strip = lambda text: re.sub(r"\s+|/\*.*?\*/|//[^\n]*", "", text, flags=re.S)  # noqa: E731
    assert strip(changed) == strip(board)


def test_the_planted_pairs_rank_first_and_alone_above_the_threshold(tmp_path):
    planted = write_class(tmp_path / "class")
    result = compared("silver-dollar", tmp_path / "class")
    expected = {frozenset(pair) for pair in planted.items()}
    assert {names(p) for p in result.pairs} == expected
    assert [p.rank for p in result.pairs] == [1, 2, 3]
    assert all(p.score >= similarity.DEFAULT_THRESHOLD for p in result.pairs)
    # every pair of independent programs that share a language is below it, and listed as such
    assert result.below and all(p.score < similarity.DEFAULT_THRESHOLD for p in result.below)
    assert not {names(p) for p in result.below} & expected
    assert result.submissions == len(INDEPENDENT) + len(planted)
    # the copies of the same program match on both sides, far above anything independent
    for pair in result.pairs:
        assert min(pair.a.percent, pair.b.percent) > max(p.score for p in result.below)
        assert pair.opened and pair.fragments >= 1 and pair.a.files and pair.b.files
    # the functions moved about are fragments of their own, numbered alike: in the original's
    # order on its side, in another order on the copy's
    pair = next(p for p in result.pairs if "reversi-python-reordered" in names(p))
    original, copy = (pair.a, pair.b) if pair.a.name == "reversi-correct-python" else (pair.b, pair.a)
    assert pair.fragments >= 2
    assert order(original) == sorted(order(copy)) == list(range(1, pair.fragments + 1)) != order(copy)


def order(side) -> list[int]:
    """The numbers of a side's fragments, in the order they first appear in its files."""
    seen = []
    for f in side.files:
        for line in f.lines:
            seen += [s.fragment for s in line if s.fragment and s.fragment not in seen]
    return seen


def test_the_page_marks_the_matching_fragments_side_by_side_and_shows_the_text_harmless(tmp_path):
    write_class(tmp_path / "class")
    spec, _ = specs.parse_game("silver-dollar")
    found = entries(tmp_path / "class")
    out = tmp_path / "out"
    out.mkdir()
    done = similarity.step(spec, found, out, similarity.DEFAULT_THRESHOLD, {e.name: f"{e.name}/report.html" for e in found})
    assert done.page == out / "similarity.html" and done.pairs == 3
    assert done.line.startswith("similarity: 3 pairs at or above 50 % among 11 submissions")
    text = done.page.read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "http://" not in text and "https://" not in text and "<link" not in text and "<img" not in text
    assert "\x1b" not in text and "␛[31m" in text
    first = text.split('<section class="pair" id="pair-1">')[1].split("</section>")[0]
    sides = first.split('<div class="side">')[1:]
    assert len(sides) == 2 and all("<mark" in side for side in sides)
    for target in re.findall(r'href="#(pair-\d+-[ab]-\d+)"', text):  # each fragment's number leads to its match
        assert f'id="{target}"' in text
    assert 'href="silver-dollar-correct-java/report.html"' in text


def test_the_renamed_copy_is_marked_where_the_code_is_the_same(tmp_path):
    """A mark starts and ends on the same code on both sides: the text of each marked fragment
    of the renamed copy is, renamed back, the text of the fragment of the same number in the original."""
    write_class(tmp_path / "class")
    result = compared("silver-dollar", tmp_path / "class")
    pair = next(p for p in result.pairs if "silver-dollar-java-renamed" in names(p))
    copy, original = (pair.a, pair.b) if pair.a.name == "silver-dollar-java-renamed" else (pair.b, pair.a)
    back = {new: old for old, new in JAVA_NAMES.items()}

    def fragments(side):
        found: dict[int, str] = {}
        for f in side.files:
            for line in f.lines:
                for segment in line:
                    if segment.fragment:
                        found[segment.fragment] = found.get(segment.fragment, "") + segment.text
        return found

    mine, theirs = fragments(copy), fragments(original)
    assert mine and set(mine) <= set(theirs)
    for number, text in mine.items():
        code = lambda t: re.sub(r"\s+|//[^\n]*", "", t)  # noqa: E731
        assert code(renamed(text, back)).replace("\u241b[31m", "") in code(theirs[number]) or \
            code(theirs[number]) in code(renamed(text, back))


def test_what_the_spec_provides_never_counts(tmp_path):
    """Two Flip programs handed in with the provided support files, and two copies of Silver
    Dollar's reference: under their own game nothing of it is a match; under a game that does
    not provide those files the same folders are copies."""
    flip = tmp_path / "flip"
    for sample in ("correct-bags", "correct-sets"):
        shutil.copytree(EXAMPLES / "flip" / sample, flip / sample)
        for provided in (ROOT / "specs/flip/support").iterdir():
            shutil.copy(provided, flip / sample / provided.name)
    own = compared("flip", flip)
    assert own.pairs == [] and own.below and own.below[0].score < similarity.DEFAULT_THRESHOLD
    assert "specs/flip/support/FlipRunner.java" in own.provided and "reference/flip.py" in own.provided
    assert [names(p) for p in compared("silver-dollar", flip).pairs] == [frozenset({"correct-bags", "correct-sets"})]

    leaked = tmp_path / "leaked"
    for student in ("ann", "bob"):
        (leaked / student).mkdir(parents=True)
        shutil.copy(ROOT / "reference/silver_dollar.py", leaked / student / "silver_dollar.py")
    own = compared("silver-dollar", leaked)
    assert own.pairs == [] and all(p.score == 0 for p in own.below)
    assert [p.score for p in compared("reversi", leaked).pairs] == [100.0]


def _browser() -> str | None:
    return next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(name)), None)


def _env(**extra) -> dict:
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, **extra}


PROBE = """<!doctype html><html><body><iframe id="f" style="width:1400px;height:900px" src="{src}"></iframe>
<script>
document.getElementById('f').addEventListener('load', () => {{
  const w = document.getElementById('f').contentWindow, d = w.document;
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify([...d.querySelectorAll('section.pair')].map(s => ({{
    sides: [...s.querySelectorAll('.side')].map(x => ({{left: x.getBoundingClientRect().left,
      top: x.getBoundingClientRect().top, width: x.getBoundingClientRect().width}})),
    marks: [...s.querySelectorAll('mark')].filter(m => m.checkVisibility()).length,
    painted: w.getComputedStyle(s.querySelector('mark')).backgroundColor,
    number: w.getComputedStyle(s.querySelector('.line'), '::before').content}})));
  document.body.appendChild(out);
}});
</script></body></html>"""


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_the_page_in_a_browser_shows_each_pair_side_by_side_with_its_marks(tmp_path):
    """The step's page (no grading) in headless Chromium: each pair's two programs side by side
    (same top, one left of the other, half the width each), its marks painted, the lines
    numbered by CSS alone."""
    write_class(tmp_path / "class")
    spec, _ = specs.parse_game("silver-dollar")
    (tmp_path / "out").mkdir()
    page = similarity.step(spec, entries(tmp_path / "class"), tmp_path / "out", similarity.DEFAULT_THRESHOLD, {}).page
    probe = tmp_path / "probe.html"
    probe.write_text(PROBE.format(src=page.as_uri()), encoding="utf-8")
    dom = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--allow-file-access-from-files",
                          "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    pairs = json.loads(html.unescape(found[1]))
    assert len(pairs) == 3
    for pair in pairs:
        left, right = pair["sides"]
        assert left["top"] == right["top"] and left["left"] + left["width"] <= right["left"]
        assert pair["marks"] >= 2 and pair["painted"] not in ("rgba(0, 0, 0, 0)", "transparent")
        assert pair["number"] == "counter(line)"


@pytest.mark.slow  # builds Java
@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_harness_grade_with_similarity_links_the_page_from_the_class_page(tmp_path):
    """End to end through `harness grade --similarity` (one case each, to keep it short): a
    Silver Dollar class of the Java and the Python sample and a planted copy of each (renamed,
    reordered). Both pairs are on the page, nothing else; the class page links to it; Chromium
    shows the marks on both sides and every fragment link lands on its match."""
    room = tmp_path / "class"
    shutil.copytree(EXAMPLES / "silver-dollar/correct-java", room / "ann")
    shutil.copytree(EXAMPLES / "silver-dollar/correct-python", room / "bob")
    (room / "cat").mkdir()
    for source in (room / "ann").iterdir():
        (room / "cat" / source.name).write_text(renamed(source.read_text(encoding="utf-8"), JAVA_NAMES), encoding="utf-8")
    (room / "dan").mkdir()
    (room / "dan/silver_dollar.py").write_text(reordered((room / "bob/silver_dollar.py").read_text(encoding="utf-8")),
                                               encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "silver-dollar", str(room), "-o", str(out),
                           "-k", "end-random-2-illegal", "--similarity"],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr  # every copy still plays the game right
    assert "similarity: 2 pairs at or above 50 % among 4 submissions (2 pairs compared)" in done.stdout
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="similarity.html">2 pairs at or above 50 %</a>' in index
    page = (out / "similarity.html").read_text(encoding="utf-8")
    ranking = page.split('<h2 id="ranking">')[1].split("</table>")[0]
    assert {frozenset(re.findall(r'href="(\w+)/report.html"', row)) for row in ranking.split("<tr>")[2:]} == \
        {frozenset({"ann", "cat"}), frozenset({"bob", "dan"})}

    common = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
              "--enable-logging=stderr", "--v=0"]
    shot = tmp_path / "similarity.png"
    taken = subprocess.run([*common, f"--screenshot={shot}", "--window-size=1400,1600", (out / "similarity.html").as_uri()],
                           capture_output=True, text=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 20_000, taken.stderr[-2000:]
    dom = subprocess.run([*common, "--dump-dom", (out / "similarity.html").as_uri()], capture_output=True, text=True,
                         timeout=120)
    for log in (taken.stderr, dom.stderr):
        assert [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line] == []
    sections = re.findall(r'<section class="pair" id="pair-(\d)">(.*?)</section>', dom.stdout, re.S)
    assert [number for number, _ in sections] == ["1", "2"]
    for _, body in sections:
        sides = body.split('<div class="side">')[1:]
        assert len(sides) == 2 and all(side.count("<mark") >= 1 for side in sides)
    ids = set(re.findall(r'id="([^"]+)"', dom.stdout))
    assert all(target in ids for target in re.findall(r'href="#([^"]+)"', dom.stdout))
    keep = os.environ.get("HARNESS_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


def test_without_copydetect_a_class_says_how_to_add_it_and_grades_as_ever(tmp_path):
    """copydetect made unimportable (a stand-in package that fails as a missing one does): one
    line with the pip command, the class graded and its page written, no similarity page."""
    shadow = tmp_path / "shadow" / "copydetect"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'copydetect'\", name='copydetect')\n",
                                        encoding="utf-8")
    for name in ("correct", "bug-add"):
        shutil.copytree(SAMPLES / name, tmp_path / "class" / name)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "tally", str(tmp_path / "class"), "-o", str(out),
                           "--similarity", "-q"], cwd=ROOT,
                          env=_env(HARNESS_ROOT=str(FIXTURE), PYTHONPATH=os.pathsep.join([str(tmp_path / "shadow"), str(ROOT)])),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr  # bug-add fails cases: graded as ever
    lines = [line for line in done.stdout.splitlines() if line.startswith("similarity:")]
    assert lines == ["similarity: not checked, copydetect is not installed; add it with "
                     "pip install 'game-harness[similarity]'"]
    assert "Traceback" not in done.stderr
    assert (out / "index.html").is_file() and not (out / "similarity.html").exists()
    assert "similarity.html" not in (out / "index.html").read_text(encoding="utf-8")
    assert {json.loads((out / n / "result.json").read_text(encoding="utf-8"))["name"] for n in ("correct", "bug-add")}


def test_a_threshold_that_is_no_percentage_is_one_line_and_exit_2(harness_cli, tmp_path):
    done = harness_cli("grade", "tally", tmp_path, "--similarity-threshold", "120")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "'120' is not a percentage" in done.stderr


def test_a_lower_threshold_lists_more_pairs_and_a_class_of_one_compares_nothing(tmp_path):
    write_class(tmp_path / "class")
    assert len(compared("silver-dollar", tmp_path / "class", 0).pairs) > 3
    spec, _ = specs.parse_game("silver-dollar")
    done = similarity.step(spec, entries(EXAMPLES / "silver-dollar")[:1], tmp_path, 50, {})
    assert done.page is None and "nothing to compare" in done.line


def test_a_student_folder_named_like_the_page_gets_a_report_folder_of_another_name(tmp_path):
    for name in ("similarity.html", "ann"):
        shutil.copytree(SAMPLES / "correct", tmp_path / "class" / name)
    spec, _ = specs.parse_game("tally", FIXTURE)
    names = [e.name for e in classroom.find([tmp_path / "class"], spec).entries]
    assert sorted(names) == ["ann", "submission-similarity.html"]
