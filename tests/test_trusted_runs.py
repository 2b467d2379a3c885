"""Nothing trusted reads what a submission wrote: every front door, unconfined and in the sandbox.

A hostile submission of the fixture game (Tally, tests/fixture) is the sample that adds 1 for any
legal number (bug-add), and before it draws its start it plants, everywhere it can write (its
run folder, which is its HOME and TMPDIR, and /tmp), every file something trusted could pick up:
a module named as the reference (`tally.py`, and a `reference` package), a sitecustomize.py and
usercustomize.py, a .pth file in the user's site-packages, a `multiprocessing` package, and a
forged results.json; it also tries each platform's own result file. The planted reference plays
the buggy game, so a harness that ran it would give the program full marks, and every planted
module leaves a mark where only a process with the harness's rights can write. It ships the
same planted files in its own folder, which the Classroom entry and a grading started in the
submission's folder have as their working folder. The front doors: `harness grade` (unconfined
and in bubblewrap), Gradescope's run_autograder, PrairieLearn's run_grader, Classroom's
grade.sh, and the self-check service's grading.

The project is a copy of the fixture whose reference runs as a module (`-m`), as every course
game's does. Unconfined means what a container without user namespaces gives: a `bwrap` that
cannot make its namespaces (a stand-in first on PATH that fails, as bwrap fails there), so the
harness, as root, runs each program as an unprivileged uid of its own.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import urllib.request
import uuid
from pathlib import Path

import pytest
import yaml

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, RULES, SAMPLES, copy_project, expected_percent, free_port, stop_group

pytestmark = pytest.mark.slow  # each test grades the whole fixture suite through a front door

HARNESS = Path(sys.executable).with_name("harness")
# A start other than the cases' own (the reference's seed 1 draws 2): every case's expected
# transcript is the reference re-run from the program's start, the run an attacker goes for.
START = 4
MODULE = "tally_reference"  # the copy's reference, run as a module from the spec's folder


def project(tmp: Path) -> Path:
    """A copy of the fixture whose reference runs as a module, as the course games' do."""
    root = copy_project(FIXTURE, tmp / "project", parts=("specs", "cases"))
    folder = root / "specs" / "tally"
    (folder / "tally.py").rename(folder / f"{MODULE}.py")
    spec = folder / "spec.yaml"
    text = spec.read_text(encoding="utf-8")
    assert '"{python} -S {spec}/tally.py"' in text
    spec.write_text(text.replace('"{python} -S {spec}/tally.py"', f'"env PYTHONPATH={{spec}} {{python}} -S -m {MODULE}"'),
                    encoding="utf-8")
    return root


# The planted reference: the buggy game (every legal number adds 1), with the reference's options.
SHADOW = textwrap.dedent('''\
    import json, os, sys
    {mark}
    options = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    start = int(open(options["--start-file"]).read()) if "--start-file" in options else 2
    if "--plan" in options:
        plan = json.loads(options["--plan"])
        moves = ["1"] if plan["strategy"] == "ones" else [str(m) for m in plan["moves"]]
        total, lines = start, []
        while total < 10:
            lines.append(moves[len(lines) % len(moves)])
            total += lines[-1] in ("1", "2", "3")
        print("\\n".join(lines))
        sys.exit(0)
    print(f"Start: {{start}}")
    total = turns = 0
    total = start
    while total < 10:
        sys.stdout.write("Add? "); sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.exit(1)
        if line.strip() not in ("1", "2", "3"):
            print("Illegal!")
            continue
        total += 1
        turns += 1
        print(f"Now {{total}}")
    print(f"Done in {{turns}} turns")
''')

# What any other planted module runs: a mark, then nothing.
MARK = "import os; open(os.path.join({marks!r}, 'ran-' + str(os.getpid())), 'w').close()"


def planted_files(marks: Path, forged: str) -> dict[str, str]:
    """Every file the submission plants, by its path under a folder it can write."""
    mark = "try:\n    " + MARK.format(marks=str(marks)) + "\nexcept OSError:\n    pass"
    shadow = SHADOW.format(mark=mark)
    site = f".local/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"
    return {f"{MODULE}.py": shadow, "tally.py": shadow, "reference/__init__.py": mark,
            "reference/tally.py": shadow, "sitecustomize.py": mark, "usercustomize.py": mark,
            "multiprocessing/__init__.py": mark, "multiprocessing/forkserver.py": mark,
            f"{site}/sitecustomize.py": mark, f"{site}/usercustomize.py": mark,
            f"{site}/planted.pth": MARK.format(marks=str(marks)), "results.json": forged,
            "results/results.json": forged}


FORGED = {"score": 1000.0, "gradable": True, "output": "planted", "tests": []}


def hostile(folder: Path, marks: Path, reachable: list[Path]) -> Path:
    """The hostile submission in `folder`: bug-add that plants before it draws (and ships the same files)."""
    folder.mkdir(parents=True)
    files = planted_files(marks, json.dumps(FORGED))
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    game = (SAMPLES / "bug-add" / "tally.py").read_text(encoding="utf-8")
    assert "start = random.randint(1, 6)" in game
    game = game.replace("    start = random.randint(1, 6)\n", f"    plant()\n    start = {START}\n", 1)
    planting = textwrap.dedent(f'''\
        import json, os, tempfile

        FILES = {files!r}
        RESULTS = {[str(p) for p in reachable]!r}


        def plant():
            here = os.getcwd()
            places = dict.fromkeys([here, os.environ.get("HOME", here), tempfile.gettempdir(), "/tmp",
                                    os.path.dirname(here)])
            for place in places:
                for name, text in FILES.items():
                    try:
                        os.makedirs(os.path.dirname(os.path.join(place, name)), exist_ok=True)
                        with open(os.path.join(place, name), "w") as file:
                            file.write(text)
                    except OSError:
                        pass
            for path in RESULTS:
                try:
                    with open(path, "w") as file:
                        file.write(FILES["results.json"])
                except OSError:
                    pass


        ''')
    (folder / "tally.py").write_text(planting + game, encoding="utf-8")
    return folder


def honest(root: Path) -> tuple[set[str], float]:
    """The cases bug-add fails and its percentage, from the rule over the copy's cases."""
    spec, _ = specs.parse_game("tally", root)
    cases = caseload.load_all(spec, None)
    rule, _ = RULES["bug-add"]
    failing = {c.name for c in cases if rule(spec, c)}
    assert failing and len(failing) < len(cases)
    return failing, expected_percent(spec, cases, failing)


def unconfined_path(tmp: Path) -> str:
    """PATH with a bwrap first that cannot make its namespaces, as in a container without them."""
    fake = tmp / "no-namespaces"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    (fake / "bwrap").chmod(0o755)
    return f"{fake}{os.pathsep}{os.environ['PATH']}"


def environment(path: str, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "GITHUB_", "PYTEST_"))}
    env.update(PATH=path, **extra)
    return env


def no_marks(marks: Path) -> None:
    assert not list(marks.iterdir()), "a planted file ran with the harness's rights"


@pytest.fixture
def setting(tmp_path):
    """(project root, marks folder) for one test."""
    marks = tmp_path / "marks"
    marks.mkdir()
    return project(tmp_path), marks


def test_harness_grade_gives_the_honest_grade_unconfined_and_in_the_sandbox(setting, tmp_path):
    root, marks = setting
    failing, percent = honest(root)
    for mode, path in (("none", unconfined_path(tmp_path)), ("bubblewrap", os.environ["PATH"])):
        submission = hostile(tmp_path / mode / "mallory", marks, [])
        reports = tmp_path / mode / "reports"
        # started in the submission's own folder, as an instructor may grade one
        done = subprocess.run([str(HARNESS), "grade", "tally", str(submission), "-o", str(reports), "--no-sandbox"],
                              cwd=submission, env=environment(path, HARNESS_ROOT=str(root)),
                              capture_output=True, text=True, timeout=600)
        assert done.returncode in (0, 1), done.stderr
        result = json.loads((reports / "mallory" / "result.json").read_text(encoding="utf-8"))
        assert result["sandbox"] == mode
        assert {c["name"] for c in result["cases"] if c["status"] != "passed"} == failing
        assert result["percent"] == pytest.approx(percent, abs=0.01)
        no_marks(marks)


def possible(root: Path) -> float:
    spec, _ = specs.parse_game("tally", root)
    return sum(item.points for item in spec.rubric if item.graded)


def test_the_gradescope_entry_gives_the_honest_grade_unconfined(setting, tmp_path):
    root, marks = setting
    autograder = tmp_path / "autograder"
    shutil.copytree(root, autograder / "source")
    (autograder / "source" / "autograder-game.txt").write_text("tally\n", encoding="utf-8")
    results = autograder / "results" / "results.json"
    hostile(autograder / "submission", marks, [results, results.with_name("result.json")])
    done = subprocess.run(["bash", str(ROOT / "gradescope" / "run_autograder")], cwd=autograder,
                          env=environment(unconfined_path(tmp_path), AUTOGRADER_ROOT=str(autograder),
                                          HARNESS_BIN=str(HARNESS)),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "grading with --no-sandbox" in done.stdout
    shown = json.loads(results.read_text(encoding="utf-8"))
    full = json.loads(results.with_name("result.json").read_text(encoding="utf-8"))
    failing, percent = honest(root)
    assert full["sandbox"] == "none"
    assert {t["name"].split(" [")[0] for t in shown["tests"] if t["status"] != "passed"} == failing
    assert shown["score"] == pytest.approx(percent / 100 * possible(root), abs=0.01)
    no_marks(marks)


def test_the_prairielearn_entry_gives_the_honest_grade_unconfined(setting, tmp_path):
    root, marks = setting
    course = tmp_path / "serverFilesCourse" / "harness-tally"
    shutil.copytree(root, course)
    for part in ("harness", "reference"):  # the course's copy of the harness, as make_grader.py lays it out
        shutil.copytree(ROOT / part, course / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "prairielearn" / "run_grader", course / "run_grader")
    (course / "grader-game.txt").write_text("tally\n", encoding="utf-8")
    job = tmp_path / "grade"
    (job / "data").mkdir(parents=True)
    (job / "data" / "data.json").write_text(json.dumps({"submitted_answers": {"_files": [{"name": "tally.py"}]}}),
                                            encoding="utf-8")
    results = job / "results" / "results.json"
    hostile(job / "student", marks, [results, results.with_name("result.json")])
    done = subprocess.run(["bash", str(course / "run_grader")], cwd=job,
                          env=environment(unconfined_path(tmp_path), GRADE_ROOT=str(job), HARNESS_PYTHON=sys.executable),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "grading with --no-sandbox" in done.stdout
    shown = json.loads(results.read_text(encoding="utf-8"))
    failing, percent = honest(root)
    assert shown["gradable"] is True
    assert shown["score"] == pytest.approx(percent / 100, abs=0.0001)
    no_marks(marks)


def test_the_classroom_entry_gives_the_honest_grade_unconfined(setting, tmp_path):
    root, marks = setting
    output = tmp_path / "github-output"
    output.write_text("", encoding="utf-8")
    repository = hostile(tmp_path / "workspace", marks, [output])
    # the workflow's step runs in the student's checked-out repository
    done = subprocess.run(["bash", str(ROOT / "github-classroom" / "grade.sh")], cwd=repository,
                          env=environment(unconfined_path(tmp_path), GAME="tally", HARNESS_BIN=str(HARNESS),
                                          HARNESS_ROOT=str(root), GITHUB_OUTPUT=str(output),
                                          GITHUB_WORKSPACE=str(repository)),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "grading with --no-sandbox" in done.stdout
    lines = [line for line in output.read_text(encoding="utf-8").splitlines() if line.startswith("result=")]
    assert len(lines) == 1
    report = json.loads(base64.b64decode(lines[0].removeprefix("result=")))
    failing, percent = honest(root)
    assert report["max_score"] == possible(root)
    assert sum(t["score"] for t in report["tests"]) == pytest.approx(percent / 100 * possible(root), abs=0.02)
    assert {t["name"].split(" [")[0] for t in report["tests"] if t["status"] != "pass"} == failing
    no_marks(marks)


def _form(files: dict[str, bytes], boundary: str) -> bytes:
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="game"\r\n\r\ntally\r\n'.encode()]
    for name, data in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n\r\n'.encode()
                     + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode()


def test_the_self_check_service_gives_the_honest_grade_unconfined(setting, tmp_path):
    root, marks = setting
    token, instructor = uuid.uuid4().hex, uuid.uuid4().hex
    roster = tmp_path / "roster.csv"
    roster.write_text(f"student,token\nmallory,{token}\n", encoding="utf-8")
    upload = hostile(tmp_path / "upload", marks, [])
    port, data = free_port(), tmp_path / "data"
    server = subprocess.Popen([str(HARNESS), "serve", "tally", "--roster", str(roster), "--port", str(port), "--data",
                               str(data), "--instructor-token", instructor, "--no-sandbox"],
                              cwd=tmp_path, env=environment(unconfined_path(tmp_path), HARNESS_ROOT=str(root)),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    listening, said = threading.Event(), []

    def follow():
        for line in server.stdout:
            said.append(line)
            if "Uvicorn running on" in line:
                listening.set()
        listening.set()

    threading.Thread(target=follow, daemon=True).start()
    try:
        assert listening.wait(120) and server.poll() is None, "".join(said)
        boundary = uuid.uuid4().hex
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/submissions", data=_form({"tally.py": (upload / "tally.py").read_bytes()},
                                                                   boundary),
            headers={"Authorization": f"Bearer {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            ident = json.loads(answer.read())["id"]
        state, shown = None, None
        for _ in range(60):  # each request is answered when the state changes (long polls), at most 10 s each
            asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/submissions/{ident}?wait=10",
                                           headers={"Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(asked, timeout=60) as answer:
                state = json.loads(answer.read())
            if state["state"] == "done":
                break
        for _ in range(60):  # the whole result is written after the hidden cases: the instructor's long poll waits for it
            asked = urllib.request.Request(f"http://127.0.0.1:{port}/instructor/submissions/{ident}?wait=10",
                                           headers={"Authorization": f"Bearer {instructor}"})
            with urllib.request.urlopen(asked, timeout=60) as answer:
                if json.loads(answer.read())["graded"]:
                    break
        whole = json.loads((data / "results" / f"{ident}.json").read_text(encoding="utf-8"))
    finally:
        server.terminate()
        stop_group(server)
    failing, percent = honest(root)
    spec, _ = specs.parse_game("tally", root)
    public = {c.name for c in caseload.load_all(spec, None) if c.visibility == "public"}
    assert whole["sandbox"] == "none"
    assert {c["name"] for c in whole["cases"] if c["status"] != "passed"} == failing
    assert whole["percent"] == pytest.approx(percent, abs=0.01)
    assert {c["name"] for c in state["result"]["cases"] if c["status"] != "passed"} == failing & public
    no_marks(marks)


def test_a_silver_dollar_program_cannot_plant_the_reference_unconfined(tmp_path):
    """The attack on a course game: a Python Silver Dollar that names the wrong winner plants a
    `reference` package in its run folder whose silver_dollar.py is the real reference with the
    same bug (the rest of the package is the real one, on its path): a harness that ran
    `python -S -m reference.silver_dollar` in that folder would expect the wrong winner."""
    marks = tmp_path / "marks"
    marks.mkdir()
    wrong = ('print("Player " + str(player) + " wins!")', 'print("Player " + str(3 - player) + " wins!")')
    game = (ROOT / "examples" / "silver-dollar" / "correct-python" / "silver_dollar.py").read_text(encoding="utf-8")
    reference = (ROOT / "reference" / "silver_dollar.py").read_text(encoding="utf-8")
    said = 'console.println(f"Player {player} wins!")'
    assert game.count(wrong[0]) == 1 and reference.count(said) == 1
    mark = "try:\n    " + MARK.format(marks=str(marks)) + "\nexcept OSError:\n    pass\n"
    planted = {"reference/__init__.py": f"__path__.append({str(ROOT / 'reference')!r})\n" + mark,
               "reference/silver_dollar.py": mark + reference.replace(said, 'console.println(f"Player {3 - player} wins!")')}
    planting = textwrap.dedent(f'''\
        import os

        for name, text in {planted!r}.items():
            try:
                os.makedirs(os.path.dirname(name), exist_ok=True)
                with open(name, "w") as file:
                    file.write(text)
            except OSError:
                pass
        ''')
    submission = tmp_path / "mallory"
    submission.mkdir()
    (submission / "silver_dollar.py").write_text(planting + game.replace(*wrong), encoding="utf-8")
    expected = yaml.safe_load((ROOT / "examples" / "silver-dollar" / "expected.yaml").read_text(encoding="utf-8"))
    spec, _ = specs.parse_game("silver-dollar", ROOT)
    chosen = {c.name for c in caseload.load_all(spec, None, "end-")}
    assert chosen and chosen <= set(expected["samples"]["bug-wrong-winner"]["fails"])  # the winner's cases
    reports = tmp_path / "reports"
    done = subprocess.run([str(HARNESS), "grade", "silver-dollar", str(submission), "-k", "end-", "-o", str(reports),
                           "--no-sandbox"], cwd=tmp_path, env=environment(unconfined_path(tmp_path)),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 1, done.stderr
    result = json.loads((reports / "mallory" / "result.json").read_text(encoding="utf-8"))
    assert result["sandbox"] == "none"
    assert {c["name"] for c in result["cases"] if c["status"] == "failed"} == chosen
    no_marks(marks)
