"""The class page `index.html`: histogram and item spreads as inline SVG, pass rate per case,
failures grouped by their first differing line with the students in each group, failed builds
and missing files with their reason, a link to every report, and a submission's output shown
harmless. Built from a real `harness grade` of a small class, then opened in headless Chromium."""
import html
import os
import re
import shutil
import subprocess
import sys

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.judging.differences import first_differing_line
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a class graded, its page checked in a browser

CORRECT = (ROOT / "examples" / "reversi" / "correct-python" / "reversi.py").read_text(encoding="utf-8")
LINE = 'print("Not a legal move!")'
HOSTILE_LINE = "<script>alert(1)</script>\x1b[2J"
SELECT = "ms2-illegal-mixed"  # illegal tries of every kind: a refusal due at each
CLASS = {  # name → program
    "ada": CORRECT,
    "ben": CORRECT.replace(LINE, 'print("No legal moves!")'),  # the skip's message where a refusal is due
    "cy": CORRECT.replace(LINE, 'print("No legal moves!")'),
    "dee": CORRECT.replace(LINE, f"print({HOSTILE_LINE!r})"),
}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    spec, milestone = specs.parse_game("reversi")
    (case,) = caseload.load_all(spec, milestone, SELECT)
    assert any("Not a legal move!\n" in e.get("out", "") for e in case.expected_events)
    root = tmp_path_factory.mktemp("page")
    for name, program in CLASS.items():
        (root / "class" / name).mkdir(parents=True)
        (root / "class" / name / "reversi.py").write_text(program, encoding="utf-8")
    (root / "class" / "eve").mkdir()  # handed in nothing
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "reversi", str(root / "class"), "-k", SELECT,
                           "-o", str(root / "out")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    return root / "out" / "index.html", case


def test_failures_are_grouped_by_their_first_differing_line(page):
    path, case = page
    text = path.read_text(encoding="utf-8")
    sections = re.findall(r'<section class="group">(.*?)</section>', text, re.S)
    groups = {}
    for section in sections:
        students = re.findall(r'<a href="([^"]+)">([^<]+)</a>', section)
        got = re.search(r'<td class="meta">got</td><td><code>(.*?)</code>', section, re.S).group(1)
        groups[html.unescape(got)] = students
    visible_hostile = "<script>alert(1)</script>"  # as the terminal shows it: the clear after it is no text
    assert groups == {"No legal moves!": [("ben/report.html", "ben"), ("cy/report.html", "cy")],
                      visible_hostile: [("dee/report.html", "dee")]}
    assert all(f"<code>{case.name}</code>" in section for section in sections)
    assert all("Not a legal move!" in section and 'class="differs"' in section for section in sections)


def test_nothing_a_submission_printed_reaches_the_page_raw(page):
    text = page[0].read_text(encoding="utf-8")
    assert "<script" not in text and "\x1b" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "http://" not in text and "https://" not in text  # nothing loaded from the network


def test_scores_items_cases_problems_and_every_report_are_on_the_page(page):
    path, case = page
    text = path.read_text(encoding="utf-8")
    # histogram: the three that failed the case and the one with no files at 0-10 %, ada at 90-100 %
    assert "<title>3 built and ran, 0–10 %</title>" in text
    assert "<title>1 did not build or had files missing, 0–10 %</title>" in text
    assert "<title>1 built and ran, 90–100 %</title>" in text
    # the case's item: one submission full marks, three none (eve's build never ran: it counts 0)
    spec, milestone = specs.parse_game("reversi")
    item = next(i for i in spec.items(milestone) if i.id == case.rubric)
    assert re.search(rf"{re.escape(item.title)}.*?1 full, 0 part, 4 none", text, re.S)
    # pass rate: eve's program never ran, so 1 of the 4 that ran passed
    assert re.search(rf"<code>{case.name}</code>.*?1 / 4", text, re.S)
    # the missing files with their reason
    problems = text.split("Failed builds and missing files")[1].split("<h2>")[0]
    assert 'href="eve/report.html"' in problems and "missing-files" in problems and "Reversi.java" in problems
    every = text.split("Every submission")[1]
    for name in ("ada", "ben", "cy", "dee", "eve"):
        assert f'href="{name}/report.html"' in every and (path.parent / name / "report.html").is_file()
    assert text.count("<svg") >= 2 and "<script" not in text


def test_the_first_differing_line_looks_past_spacing_then_at_it():
    assert first_differing_line("a\nb c\nd", "a\nb  c\nx") == (2, "d", "x")
    assert first_differing_line("a \nb", "a\nb") == (0, "a ", "a")  # nothing else differs: the spacing does
    assert first_differing_line("a\nb", "a") == (1, "b", None)
    assert first_differing_line(None, "a") == (0, None, "a")


def _browser() -> str | None:
    return next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(name)), None)


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_the_page_renders_in_a_browser_without_errors(page, tmp_path):
    path, _ = page
    common = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
              "--enable-logging=stderr", "--v=0"]
    shot = tmp_path / "index.png"
    taken = subprocess.run([*common, f"--screenshot={shot}", "--window-size=1200,2000", path.as_uri()],
                           capture_output=True, text=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 20_000, taken.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    dom = subprocess.run([*common, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120)
    assert "class summary</h1>" in dom.stdout and dom.stdout.count("<svg") >= 2
    for log in (taken.stderr, dom.stderr):
        errors = [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line]
        assert errors == []
    keep = os.environ.get("HARNESS_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


def test_the_page_opens_with_every_submission_and_shows_every_failure_of_a_small_class_open(page):
    """The per-student table comes first; in a class of five every failure group is shown open,
    the shared one (ben's and cy's) first, dee's alone after it: nothing is folded."""
    text = page[0].read_text(encoding="utf-8")
    assert text.index('<h2 id="submissions">Every submission</h2>') < text.index("<h2>Scores</h2>")
    assert "<details" not in text
    failures = text.split("Failures, grouped by")[1].split("<h2>")[0]
    assert failures.index('href="ben/report.html"') < failures.index('href="dee/report.html"')
    assert 'href="cy/report.html"' in failures


def _class_page(submissions: int, shared: int, alone: int) -> str:
    """The class page of `submissions` rows with one group failed by `shared` students and
    `alone` groups failed by one student each."""
    from harness.reporting import summary
    names = [f"s{i:02}" for i in range(submissions)]
    rows = [summary.Row(n, f"{n}/report.html", "graded", 50.0, 5, 10, 1, 2, "", False) for n in names]
    groups = []
    if shared:
        groups.append(summary.FailureGroup("case-shared", "item", "turn 1, line 1", "a", "b",
                                           [(n, f"{n}/report.html") for n in names[:shared]]))
    for i in range(alone):
        n = names[(shared + i) % submissions]
        groups.append(summary.FailureGroup(f"case-{i}", "item", "turn 1, line 1", "a", f"c{i}", [(n, f"{n}/report.html")]))
    return summary.render(summary.ClassPage("Game", None, rows, [], [], [], [], groups, []))


def test_a_large_class_folds_its_many_failures_of_one_student_each():
    from harness.reporting.summary import MANY_ALONE, SMALL_CLASS
    folded = _class_page(SMALL_CLASS + 5, 2, MANY_ALONE)
    assert folded.count('<section class="group">') == MANY_ALONE + 1
    inside = folded.split('<details class="alone">')[1].split("</details>")[0]
    assert f"{MANY_ALONE} more failures, each seen in one submission" in inside
    assert inside.count('<section class="group">') == MANY_ALONE and "case-shared" not in inside
    # a few failures of one student each, a small class, or no shared failure: all open
    for shown in (_class_page(SMALL_CLASS + 5, 2, MANY_ALONE - 1), _class_page(SMALL_CLASS - 1, 2, MANY_ALONE),
                  _class_page(SMALL_CLASS + 5, 0, SMALL_CLASS)):
        assert "<details" not in shown and shown.count('<section class="group">') >= MANY_ALONE - 1


VISIBLE = """<!doctype html><html><body><iframe id="f" style="width:1200px;height:900px" src="{src}"></iframe>
<script>
document.getElementById('f').addEventListener('load', () => {{
  const d = document.getElementById('f').contentWindow.document;
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify([...d.querySelectorAll('section.group')].map(s => ({{
    case: s.querySelector('h3 code').textContent, height: s.getBoundingClientRect().height,
    shown: s.checkVisibility(), students: [...s.querySelectorAll('.students a')].map(a => a.textContent)}})));
  document.body.appendChild(out);
}});
</script></body></html>"""


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_a_class_of_three_shows_each_failure_open_in_a_browser(tmp_path):
    """Three tally submissions, each failing its own way: every failure group is on screen in
    Chromium (a folded one has no box), one group per failing case of each student."""
    import json
    from tests.helpers import FIXTURE, SAMPLES
    chosen = ("correct", "bug-add", "bug-illegal")
    for name in chosen:
        shutil.copytree(SAMPLES / name, tmp_path / "class" / name)
    env = {**os.environ, "HARNESS_ROOT": str(FIXTURE)}
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "tally", str(tmp_path / "class"), "-o",
                           str(tmp_path / "out")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    results = {n: json.loads((tmp_path / "out" / n / "result.json").read_text(encoding="utf-8")) for n in chosen}
    failed = {n: {c["name"] for c in r["cases"] if c["status"] == "failed"} for n, r in results.items()}
    assert failed["correct"] == set() and failed["bug-add"] and failed["bug-illegal"]
    probe = tmp_path / "probe.html"
    probe.write_text(VISIBLE.format(src=(tmp_path / "out" / "index.html").as_uri()), encoding="utf-8")
    dom = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--allow-file-access-from-files",
                          "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    groups = json.loads(html.unescape(found[1]))
    assert groups and all(g["shown"] and g["height"] > 0 for g in groups)
    seen = {}
    for g in groups:
        (student,) = g["students"]
        seen.setdefault(student, set()).add(g["case"])
    assert seen == {n: cases for n, cases in failed.items() if cases}


def test_a_blank_line_on_the_page_reads_blank_line():
    from harness.reporting import summary
    group = summary.FailureGroup("a-case", "item", "turn 2, line 3", "", "Board:", [("ann", "ann/report.html")],
                                 [summary.DiffLine(3, "", "Board:", True)])
    shown = summary.render(summary.ClassPage("Game", None, [], [], [], [], [], [group], []))
    pair = shown.split('<table class="pair">')[1].split("</table>")[0]
    assert '<td class="meta">expected</td><td><code><span class="absent">(blank line)</span></code>' in pair
    view = shown.split('<table class="view">')[1].split("</table>")[0]
    assert '<td class="text"><span class="absent">(blank line)</span></td>' in view


PROBE = """<!doctype html><html><body><iframe id="f" style="width:1000px;height:700px" src="{src}"></iframe>
<script>
document.getElementById('f').addEventListener('load', () => {{
  const w = document.getElementById('f').contentWindow;
  const row = w.document.getElementById('{anchor}');
  const typed = row.previousElementSibling;
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify({{scrolled: w.scrollY, top: row.getBoundingClientRect().top,
    typedTop: typed.getBoundingClientRect().top, typed: typed.className, height: w.innerHeight}});
  document.body.appendChild(out);
}});
</script></body></html>"""


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_a_link_to_the_first_divergence_opens_on_it(page, tmp_path):
    """report.html#CASE-diverge scrolls to the first differing turn with the typed line above
    it in view. Measured in the page (a probe page frames the report and reads where the row
    is): Chromium's --screenshot of any URL with a #fragment is blank past the first screen,
    whatever the page, so a screenshot cannot tell."""
    import json
    path, case = page
    report = path.parent / "ben" / "report.html"
    anchor = f"{case.name}-diverge"
    assert f'href="#{anchor}"' in report.read_text(encoding="utf-8")
    probe = tmp_path / "probe.html"
    probe.write_text(PROBE.format(src=f"{report.as_uri()}#{anchor}", anchor=anchor), encoding="utf-8")
    dom = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--allow-file-access-from-files",
                          "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    where = json.loads(html.unescape(found[1]))
    assert where["scrolled"] > 0  # the row is below the first screen: the link had to scroll
    assert 0 <= where["typedTop"] < where["top"] < where["height"] / 2
    assert where["typed"] == "typed"
