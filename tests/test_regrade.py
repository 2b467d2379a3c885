"""A class graded again after its cases change: an accepted alternative, a case edited and
regenerated. Only the submissions (and cases) the change can touch run again, counted from the
programs' own log of their runs; the delta says whose grade moved, by how much and why; the
grades before are kept and can be restored; students' files wait for `harness publish`.

The class is the fixture game's samples, each taught to log its runs (one line per start and per
line it reads, tagged with its process id) to a file outside the sandbox: the class is graded
without the sandbox (HARNESS_SANDBOX=off), as the samples are the project's own programs."""
import csv
import os
import subprocess
import sys

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, copy_project

pytestmark = pytest.mark.slow  # a class graded three times

LOGGER = '''import builtins, os
_LOG, _NAME = {log!r}, {name!r}
def _say(text):
    with open(_LOG, "a", encoding="utf-8") as log:
        log.write(f"{{os.getpid()}} {{_NAME}} {{text}}\\n")
_say("start")
_input = builtins.input
def _logged(prompt=""):
    line = _input(prompt)
    _say("in " + line)
    return line
builtins.input = _logged
'''
SAMPLES = {"ann": "correct", "bob": "variant-banner", "dee": "bug-add"}


@pytest.fixture
def project(tmp_path):
    root = copy_project(FIXTURE, tmp_path / "project")
    log = tmp_path / "runs.log"
    for name, sample in SAMPLES.items():
        source = (root / "examples" / "tally" / sample / "tally.py").read_text(encoding="utf-8")
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "tally.py").write_text(LOGGER.format(log=str(log), name=name) + source,
                                                            encoding="utf-8")
    (tmp_path / "class" / "fay").mkdir()  # handed in nothing: nothing of hers ever runs
    return root, tmp_path / "class", tmp_path / "reports", log


def harness(root, *args):
    return subprocess.run([sys.executable, "-m", "harness", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "HARNESS_ROOT": str(root), "HARNESS_SANDBOX": "off"})


def grade(root, folder, out):
    return harness(root, "grade", "tally", folder, "-o", out, "-q", "--no-sandbox")


def runs(log) -> dict[str, tuple[str, list[str]]]:
    """Each run since the log was last cleared: pid -> (submission, the lines it read)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
        pid, name, what = line.split(" ", 2)
        found.setdefault(pid, (name, []))
        if what.startswith("in "):
            found[pid][1].append(what[3:])
    return found


def rows(path) -> dict[str, dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return {row.get("submission") or row["student"]: row for row in csv.DictReader(handle)}


def load(root, name):
    spec, _ = specs.parse_game("tally", root)
    return spec, caseload.load_case(root / "cases" / "tally" / f"{name}.yaml", spec)


def test_an_accepted_alternative_runs_again_only_the_submissions_that_failed_its_case(project):
    root, folder, out, log = project
    first = grade(root, folder, out)
    assert first.returncode == 1, first.stdout + first.stderr  # bob and dee lose points
    assert {name for name, _ in runs(log).values()} == {"ann", "bob", "dee"}
    before = rows(out / "gradebook.csv")
    spec, case = load(root, "prompt-two-adds")
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Suspect cases" not in page  # one submission diverges there: not a pattern yet

    accepted = harness(root, "accept", "tally", case.name, "--turn", "0", "--also", "Welcome to Tally!",
                       "--why", "the handout allows a greeting")
    assert accepted.returncode == 0, accepted.stderr
    assert "accept:" in case.path.read_text(encoding="utf-8")
    log.unlink()
    again = grade(root, folder, out)
    assert again.returncode == 1, again.stdout + again.stderr  # dee still loses points

    ran = runs(log)
    assert ran and {name for name, _ in ran.values()} == {"bob"}  # only the submission that failed the case
    assert all(typed == case.prefix[:len(typed)] for _, typed in ran.values())  # that case, no other
    assert any(typed == case.prefix for _, typed in ran.values())

    items = {item.id: item.points for item in spec.items(None) if item.graded}
    total = sum(items.values())
    after = rows(out / "gradebook.csv")
    assert float(before["bob"]["percent"]) == pytest.approx(100 * (total - items["prompt"]) / total, abs=0.01)
    assert float(after["bob"]["percent"]) == pytest.approx(100.0)
    for name in ("ann", "dee", "fay"):
        assert after[name] == before[name]
    delta = rows(out / "delta.csv")
    assert list(delta) == ["bob"]
    assert float(delta["bob"]["points_change"]) == pytest.approx(items["prompt"])
    assert "prompt-two-adds failed->passed (before the first input)" in delta["bob"]["cases"]
    assert f"prompt 0.00->{items['prompt']:.2f}" in delta["bob"]["items"]


def test_a_case_changed_and_regenerated_runs_again_that_case_only_in_every_submission_that_builds(project):
    root, folder, out, log = project
    assert grade(root, folder, out).returncode == 1
    spec, case = load(root, "add-two")
    text = case.path.read_text(encoding="utf-8")
    assert 'inputs: ["2"]' in text
    case.path.write_text(text.replace('inputs: ["2"]', 'inputs: ["2", "3"]'), encoding="utf-8")
    regen = harness(root, "regen", case.path)
    assert regen.returncode == 0 and "updated" in regen.stdout, regen.stdout + regen.stderr
    log.unlink()
    again = grade(root, folder, out)
    assert again.returncode == 1, again.stdout + again.stderr

    ran = runs(log)
    assert {name for name, _ in ran.values()} == {"ann", "bob", "dee"}  # fay built nothing: not run
    for name, typed in ran.values():
        assert typed == ["2", "3"][:len(typed)], (name, typed)  # the changed case, no other
    assert {name for name, typed in ran.values() if typed == ["2", "3"]} == {"ann", "bob", "dee"}


def test_the_grades_before_a_regrade_come_back_and_students_see_the_new_ones_once_published(project):
    root, folder, out, log = project
    assert grade(root, folder, out).returncode == 1
    gradebook = (out / "gradebook.csv").read_text(encoding="utf-8")
    published = (out / "bob" / "report-student.html").read_text(encoding="utf-8")
    assert harness(root, "accept", "tally", "prompt-two-adds", "--also", "Welcome to Tally!").returncode == 0
    assert grade(root, folder, out).returncode == 1
    regraded = (out / "gradebook.csv").read_text(encoding="utf-8")
    assert regraded != gradebook
    # bob's student copy is the one published until the instructor publishes the new one
    assert (out / "bob" / "report-student.html").read_text(encoding="utf-8") == published
    waiting = (out / "bob" / "pending" / "report-student.html").read_text(encoding="utf-8")
    assert waiting != published and not (out / "ann" / "pending").exists()

    restored = harness(root, "restore", "-o", out)
    assert restored.returncode == 0, restored.stderr
    assert (out / "gradebook.csv").read_text(encoding="utf-8") == gradebook
    assert not (out / "delta.csv").exists()
    undone = harness(root, "restore", "-o", out)  # a restore is undone the same way
    assert undone.returncode == 0, undone.stderr
    assert (out / "gradebook.csv").read_text(encoding="utf-8") == regraded

    done = harness(root, "publish", "-o", out)
    assert done.returncode == 0 and "bob" in done.stdout, done.stdout + done.stderr
    assert (out / "bob" / "report-student.html").read_text(encoding="utf-8") == waiting
    assert not (out / "bob" / "pending").exists()


def test_restore_and_publish_say_what_is_wrong_with_a_folder_that_is_not_a_graded_class(tmp_path):
    for command in ("restore", "publish"):
        done = harness(FIXTURE, command, "-o", tmp_path)
        assert done.returncode == 2 and done.stderr.startswith("harness: "), done.stderr
        assert "Traceback" not in done.stderr


GENERATED = {"correct": 10, "variant-banner": 8, "bug-add": 6, "bug-illegal": 4}  # and 2 that hand in nothing


def _browser():
    import shutil
    return next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)


def test_a_class_of_thirty_its_suspect_case_accepted_from_the_page_and_only_those_students_run_again(tmp_path):
    """A generated class of 30: the suspect case is the one most of a large group that does well
    elsewhere fails the same way (the greeting), not a bug a smaller group shares; the page's own
    command accepts it; the regrade runs that case in that group only; the page says who moved."""
    import html as htmllib
    import re
    import shlex

    from harness.reporting import suspects

    root = copy_project(FIXTURE, tmp_path / "project")
    log = tmp_path / "runs.log"
    folder, out = tmp_path / "class", tmp_path / "reports"
    group = {}
    for sample, count in GENERATED.items():
        for n in range(count):
            name = f"{sample}-{n:02d}"
            group[name] = sample
            source = (root / "examples" / "tally" / sample / "tally.py").read_text(encoding="utf-8")
            (folder / name).mkdir(parents=True)
            (folder / name / "tally.py").write_text(LOGGER.format(log=str(log), name=name) + source, encoding="utf-8")
    for n in range(2):
        (folder / f"empty-{n}").mkdir()
    assert len(list(folder.iterdir())) >= 30
    assert grade(root, folder, out).returncode == 1
    built = sum(GENERATED.values())
    # the thresholds, from the module: the greeting group is over them, the bug-add group is not
    assert GENERATED["variant-banner"] / built >= suspects.MIN_SHARE > GENERATED["bug-add"] / built

    page = (out / "index.html").read_text(encoding="utf-8")
    commands = [htmllib.unescape(c) for c in re.findall(r'<code class="accept">([^<]*)</code>', page)]
    assert len(commands) == 1 and " prompt-two-adds " in commands[0], commands
    if _browser():
        dom = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu",
                              f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", (out / "index.html").as_uri()],
                             capture_output=True, text=True, timeout=120).stdout
        assert 'id="suspects"' in dom and f"{GENERATED['variant-banner']} of the {built} submissions" in dom

    words = shlex.split(commands[0])
    assert words[:2] == ["harness", "accept"]
    assert harness(root, *words[1:]).returncode == 0  # the command as the page shows it
    log.unlink()
    assert grade(root, folder, out).returncode == 1  # the bugs still cost
    ran = runs(log)
    _, case = load(root, "prompt-two-adds")
    assert {name for name, _ in ran.values()} == {n for n, s in group.items() if s == "variant-banner"}
    assert all(typed == case.prefix[:len(typed)] for _, typed in ran.values())
    delta = rows(out / "delta.csv")
    assert set(delta) == {n for n, s in group.items() if s == "variant-banner"}
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Since the last grading" in page and 'id="suspects"' not in page
    if _browser():
        dom = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu",
                              f"--user-data-dir={tmp_path / 'profile2'}", "--dump-dom", (out / "index.html").as_uri()],
                             capture_output=True, text=True, timeout=120).stdout
        assert f"{GENERATED['variant-banner']} grades moved" in dom
