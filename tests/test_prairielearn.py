"""The PrairieLearn external grader: prairielearn/make_grader.py's folders, and its entry point run
as info.json names it in a folder laid out as PrairieLearn's /grade (data/data.json, student/,
serverFilesCourse/ with the builder's harness-tally/, tests/), on the fixture game's samples: a
correct one, a seeded bug that fails a public and a hidden case, uploads with nothing to grade,
and a grader that fails. results.json must match PrairieLearn's format (prairielearn/
results.schema.json), its score the harness's percent / 100 and each test the case's points."""
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from harness.platforms import prairielearn
from harness.loading import stages
from harness.results import SubmissionResult, Verdict
from tests.helpers import FIXTURE, RULES, ROOT, SAMPLES, expected_percent

SCHEMA = json.loads((ROOT / "prairielearn" / "results.schema.json").read_text(encoding="utf-8"))
HIDDEN = "illegal-word-and-five"  # the fixture's one hidden case
OPTIONS_SCHEMA = {  # info.json's externalGradingOptions, as PrairieLearn's docs/externalGrading.md lists them
    "type": "object", "required": ["image"], "additionalProperties": False,
    "properties": {"image": {"type": "string", "minLength": 1},
                   "entrypoint": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                   "serverFilesCourse": {"type": "array", "items": {"type": "string"}},
                   "timeout": {"type": "integer", "minimum": 1, "maximum": 600},
                   "enableNetworking": {"type": "boolean"},
                   "environment": {"type": "object", "additionalProperties": {"type": ["string", "null"]}}}}


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("HARNESS_ROOT", "PYTHONPATH")}
    return {**env, **extra}


def make_grader(output: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "prairielearn" / "make_grader.py"), "tally", "-o", str(output),
                           *args], env=_env(HARNESS_ROOT=str(FIXTURE)), capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The builder's folders for the fixture game (read only: each job copies what it needs)."""
    output = tmp_path_factory.mktemp("built") / "prairielearn-tally"
    done = make_grader(output)
    assert done.returncode == 0, done.stderr
    return output


@pytest.fixture(scope="module")
def spec_and_cases():
    from harness.loading import cases as caseload
    from harness.loading import spec as specs
    spec, milestone = specs.parse_game("tally", FIXTURE)
    return spec, caseload.load_all(spec, milestone)


def job(tmp_path: Path, built: Path, files: dict[str, bytes]) -> Path:
    """A folder laid out as PrairieLearn lays out /grade for one submission of `files`."""
    grade = tmp_path / "grade"
    for folder in ("data", "student", "serverFilesCourse", "tests"):
        (grade / folder).mkdir(parents=True)
    shutil.copytree(built / "serverFilesCourse" / "harness-tally", grade / "serverFilesCourse" / "harness-tally")
    for name, content in files.items():
        (grade / "student" / name).write_bytes(content)
    data = {"params": {}, "correct_answers": {}, "format_errors": {}, "partial_scores": {}, "score": 0,
            "feedback": {}, "variant_seed": 1, "options": {}, "raw_submitted_answers": {}, "gradable": True,
            "submitted_answers": {"_files": [{"name": name, "contents": ""} for name in files]}}
    (grade / "data" / "data.json").write_text(json.dumps(data), encoding="utf-8")
    return grade


def entry_point(grade: Path, built: Path, python: str = sys.executable) -> subprocess.CompletedProcess:
    """The question's entrypoint, as its info.json says, with /grade standing for the job folder."""
    info = json.loads((built / "questions" / "tally" / "info.json").read_text(encoding="utf-8"))
    words = shlex.split(info["externalGradingOptions"]["entrypoint"])
    assert words[0].startswith("/grade/")
    script = grade / Path(words[0]).relative_to("/grade")
    return subprocess.run(["bash", str(script), *words[1:]], env=_env(GRADE_ROOT=str(grade), HARNESS_PYTHON=python),
                          capture_output=True, text=True, timeout=600)


def results_of(grade: Path) -> dict:
    text = (grade / "results" / "results.json").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < prairielearn.RESULTS_BYTES
    results = json.loads(text)
    jsonschema.validate(results, SCHEMA)
    return results


def values(spec, cases) -> dict[str, float]:
    """Each case's share of the total: its item's weight split by the case points of that item."""
    weight = {item.id: item.points for item in spec.rubric if item.graded}
    per_item: dict[str, float] = {}
    for case in cases:
        per_item[case.rubric] = per_item.get(case.rubric, 0) + case.points
    return {case.name: weight[case.rubric] * case.points / per_item[case.rubric] for case in cases}


def graded(tmp_path, built, spec_and_cases, sample: str) -> tuple[dict, SubmissionResult, dict[str, float]]:
    grade = job(tmp_path, built, {"tally.py": (SAMPLES / sample / "tally.py").read_bytes()})
    done = entry_point(grade, built)
    assert done.returncode == 0, done.stderr  # PrairieLearn reads results.json only after an exit 0
    results = results_of(grade)
    full = SubmissionResult.from_json(json.loads((grade / "results" / "result.json").read_text(encoding="utf-8")))
    spec, cases = spec_and_cases
    fails, _ = RULES[sample]
    failing = {case.name for case in cases if fails(spec, case)}
    assert results["gradable"] is True
    assert results["score"] == pytest.approx(expected_percent(spec, cases, failing) / 100, abs=1e-4)
    assert results["score"] == full.percent / 100
    worth = values(spec, cases)
    public = [case for case in cases if case.visibility == "public"]
    tests = {t["name"].split(" ")[0]: t for t in results["tests"]}
    assert set(tests) == {case.name for case in public} | {"hidden"}
    for case in public:
        test = tests[case.name]
        assert test["max_points"] == pytest.approx(worth[case.name], abs=1e-4)
        assert test["points"] == pytest.approx(0 if case.name in failing else worth[case.name], abs=1e-4)
    hidden = tests["hidden"]
    assert hidden["max_points"] == pytest.approx(worth[HIDDEN], abs=1e-4)
    assert hidden["points"] == pytest.approx(0 if HIDDEN in failing else worth[HIDDEN], abs=1e-4)
    assert math.fsum(t["points"] for t in results["tests"]) == pytest.approx(full.earned, abs=1e-3)
    assert math.fsum(t["max_points"] for t in results["tests"]) == pytest.approx(full.possible, abs=1e-3)
    return results, full, tests


def test_a_correct_program_gets_the_whole_score(tmp_path, built, spec_and_cases):
    results, full, tests = graded(tmp_path, built, spec_and_cases, "correct")
    assert results["score"] == 1.0 and full.all_passed
    assert "7 of 7 public cases passed" in results["message"]


def test_a_seeded_bug_loses_its_cases_and_the_hidden_one_is_only_counted(tmp_path, built, spec_and_cases):
    results, full, tests = graded(tmp_path, built, spec_and_cases, "bug-illegal")
    assert results["score"] < 1
    failed = tests["illegal-out-of-range"]
    assert failed["points"] == 0 and "First difference " in failed["output"]
    assert "worth 7.5 of 60 points" in failed["message"]
    # the hidden case failed: its points count, but nothing names it or shows its runs
    text = json.dumps(results)
    assert HIDDEN not in text and "A word and 5" not in text
    assert tests["hidden"]["output"] == "" and "1 hidden case" in tests["hidden"]["description"]
    assert "how many hidden cases there are" in tests["hidden"]["message"]


def test_an_empty_upload_is_not_gradable_and_says_what_to_hand_in(tmp_path, built):
    grade = job(tmp_path, built, {})
    done = entry_point(grade, built)
    assert done.returncode == 0, done.stderr
    results = results_of(grade)
    assert results["gradable"] is False and "score" not in results
    assert "You submitted no files." in results["message"] and "does not count" in results["message"]
    assert any("tally.py" in error for error in results["format_errors"])


def test_another_language_is_not_gradable_and_names_the_languages_taken(tmp_path, built):
    grade = job(tmp_path, built, {"Tally.java": b"public class Tally { public static void main(String[] a) {} }\n"})
    done = entry_point(grade, built)
    assert done.returncode == 0, done.stderr
    results = results_of(grade)
    assert results["gradable"] is False and "score" not in results
    assert "You submitted: Tally.java." in results["message"]
    assert any("Java" in error and "tally.py" in error for error in results["format_errors"])


def test_a_grader_that_cannot_start_still_writes_results(tmp_path, built):
    grade = job(tmp_path, built, {"tally.py": (SAMPLES / "correct" / "tally.py").read_bytes()})
    done = entry_point(grade, built, python=shutil.which("false"))  # the harness dies at once
    assert done.returncode == 0
    results = results_of(grade)
    assert results["gradable"] is False and "score" not in results
    assert "exit status 1" in results["message"] and "not of your program" in results["message"]


def test_no_data_json_or_no_such_game_is_not_gradable(tmp_path, harness_cli):
    grade = tmp_path / "grade"
    (grade / "student").mkdir(parents=True)
    done = harness_cli("prairielearn", "tally", "--grade-root", grade, env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2 and "data.json" in done.stderr and "Traceback" not in done.stderr
    results = results_of(grade)
    assert results["gradable"] is False and "data.json" in results["message"]
    (grade / "data").mkdir()
    (grade / "data" / "data.json").write_text("{}", encoding="utf-8")
    done = harness_cli("prairielearn", "no-such-game", "--grade-root", grade, env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    results = results_of(grade)
    assert results["gradable"] is False and "no-such-game" in results["message"]


def test_a_stage_in_force_shows_the_failed_hidden_case_and_no_more(tmp_path, harness_cli, tally_project):
    spec = tally_project / "specs" / "tally" / "spec.yaml"
    spec.write_text(spec.read_text() + "hidden_stages:\n  - {from: '2000-01-01T00:00:00+00:00', show: names}\n"
                    "  - {from: '2999-01-01T00:00:00+00:00', show: turn}\n")
    grade = tmp_path / "grade"
    for folder in ("data", "student"):
        (grade / folder).mkdir(parents=True)
    (grade / "data" / "data.json").write_text('{"submitted_answers": {}}', encoding="utf-8")
    shutil.copy(SAMPLES / "bug-illegal" / "tally.py", grade / "student")
    done = harness_cli("prairielearn", "tally", "--grade-root", grade, env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 1, done.stderr
    test = next(t for t in results_of(grade)["tests"] if t["name"] == "hidden cases")
    assert "1 of 1 hidden case failed" in test["output"] and f"hidden case {HIDDEN}:" in test["output"]
    assert "first differs after your" not in test["output"]  # the `turn` stage has not begun
    assert "not shown" not in test["description"] and "From 2999-01-01" in test["message"]


@pytest.fixture(scope="module")
def bug_result(grader, spec_and_cases, tmp_path_factory) -> SubmissionResult:
    spec, cases = spec_and_cases
    return grader.grade(spec, None, cases, SAMPLES / "bug-illegal", name="student")


def test_a_harness_error_gives_no_score(bug_result):
    broken = replace(bug_result, status=Verdict.HARNESS_ERROR)
    results = prairielearn.results(broken, stages.at(()), ["tally.py"])
    jsonschema.validate(results, SCHEMA)
    assert results["gradable"] is False and "score" not in results and results["tests"] == []
    assert "not your program's fault" in results["message"]


def test_texts_are_cut_to_stay_under_the_size_limit(bug_result):
    whole = prairielearn.results(bug_result, stages.at(()), ["tally.py"])
    size = len(json.dumps(whole, indent=1, ensure_ascii=False).encode("utf-8"))
    for limit in (size // 2, 2500, 600):
        cut = prairielearn.fitted(whole, limit)
        jsonschema.validate(cut, SCHEMA)
        assert len(json.dumps(cut, indent=1, ensure_ascii=False).encode("utf-8")) <= limit
        assert prairielearn.CUT in cut["message"] and cut["score"] == whole["score"]
    assert prairielearn.fitted(whole, size) == whole


def test_the_builder_lays_out_the_image_the_course_files_and_a_question(built):
    image = built / "image"
    assert (image / "Dockerfile").read_text().startswith("#")
    assert "FROM python:3.11" in (image / "Dockerfile").read_text()
    assert (image / "pyproject.toml").is_file() and (image / "harness" / "platforms" / "prairielearn.py").is_file()
    assert not (image / "reference").exists() and not (image / "cases").exists()  # the image is public
    files = built / "serverFilesCourse" / "harness-tally"
    assert os.access(files / "run_grader", os.X_OK)
    assert (files / "grader-game.txt").read_text() == "tally\n"
    assert (files / "specs" / "tally" / "spec.yaml").is_file() and (files / "reference" / "__init__.py").is_file()
    assert sorted(p.name for p in (files / "cases" / "tally").iterdir()) == \
        sorted(p.name for p in (FIXTURE / "cases" / "tally").iterdir())
    assert not list(files.rglob("__pycache__"))
    info = json.loads((built / "questions" / "tally" / "info.json").read_text(encoding="utf-8"))
    assert info["gradingMethod"] == "External" and {"uuid", "type", "title", "topic"} <= set(info)
    options = info["externalGradingOptions"]
    jsonschema.validate(options, OPTIONS_SCHEMA)
    assert options == json.loads((built / "externalGradingOptions.json").read_text(encoding="utf-8"))
    assert options["serverFilesCourse"] == ["harness-tally/"]
    assert shlex.split(options["entrypoint"])[:2] == ["/grade/serverFilesCourse/harness-tally/run_grader", "tally"]
    budget = float(shlex.split(options["entrypoint"])[3])
    assert 0 < budget < options["timeout"] <= 600
    assert 'file-names="tally.py"' in (built / "questions" / "tally" / "question.html").read_text()


def test_the_builder_refuses_a_full_folder_an_unknown_game_and_a_long_timeout(tmp_path, built):
    done = make_grader(built)
    assert done.returncode != 0 and "not empty" in done.stderr
    done = make_grader(tmp_path / "a", "--timeout", "900")
    assert done.returncode != 0 and "600" in done.stderr
    done = subprocess.run([sys.executable, str(ROOT / "prairielearn" / "make_grader.py"), "no-such-game", "-o",
                           str(tmp_path / "b")], env=_env(HARNESS_ROOT=str(FIXTURE)), capture_output=True, text=True)
    assert done.returncode != 0 and "no-such-game" in done.stderr and "Traceback" not in done.stderr
    done = make_grader(tmp_path / "c", "--timeout", "90", "--image", "course/grader:1")
    assert done.returncode == 0, done.stderr
    options = json.loads((tmp_path / "c" / "externalGradingOptions.json").read_text(encoding="utf-8"))
    assert options["timeout"] == 90 and options["image"] == "course/grader:1"
    assert shlex.split(options["entrypoint"])[2:] == ["--budget", str(prairielearn_budget(90))]


def prairielearn_budget(timeout: int) -> int:
    """What the builder keeps of a timeout for the runs: the timeout less 60 s, at least half of it."""
    return max(timeout - 60, math.ceil(timeout / 2))


FORGER = '''import json, sys
grade = GRADE
def attempt(what, act):
    try:
        act()
        print(f"{what}: done")
    except OSError as problem:
        print(f"{what}: refused ({type(problem).__name__})")
def forge():
    with open(f"{grade}/results/results.json", "w") as f:
        f.write(json.dumps({"gradable": True, "score": 1.0, "message": "forged", "output": "", "tests": []}))
def rewrite():
    with open(f"{grade}/serverFilesCourse/harness-tally/run_grader", "a") as f:
        f.write("echo forged\\n")
attempt("results", forge)
attempt("cases", lambda: open(f"{grade}/serverFilesCourse/harness-tally/cases/tally/HIDDEN.yaml").read())
attempt("data", lambda: open(f"{grade}/data/data.json").read())
attempt("script", rewrite)
'''


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="PrairieLearn runs the entry point as root (and setpriv drops the program)")
def test_without_the_sandbox_a_program_cannot_forge_its_results_or_read_the_cases(tmp_path, built):
    """As in a container that allows no user namespaces: a `bwrap` that fails first on PATH."""
    root = Path(tempfile.mkdtemp(prefix="grade-"))
    root.chmod(0o755)  # as open as a container might leave the job
    try:
        grade = job(root, built, {"tally.py": FORGER.replace("GRADE", repr(str(root / "grade")))
                                  .replace("HIDDEN", HIDDEN).encode()})
        for folder in ("grade", "grade/data", "grade/serverFilesCourse", "grade/student", "grade/tests"):
            (root / folder).chmod(0o755)
        (root / "grade" / "results").mkdir(mode=0o777)
        (root / "grade" / "results").chmod(0o777)
        script = root / "grade" / "serverFilesCourse" / "harness-tally" / "run_grader"
        before = script.read_bytes()
        tools = tmp_path / "tools"
        tools.mkdir()
        (tools / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
        (tools / "bwrap").chmod(0o755)
        info = json.loads((built / "questions" / "tally" / "info.json").read_text(encoding="utf-8"))
        words = shlex.split(info["externalGradingOptions"]["entrypoint"])
        done = subprocess.run(["bash", str(script), *words[1:]], capture_output=True, text=True, timeout=600,
                              env=_env(GRADE_ROOT=str(root / "grade"), HARNESS_PYTHON=sys.executable,
                                       PATH=f"{tools}{os.pathsep}{os.environ['PATH']}"))
        assert done.returncode == 0, done.stdout + done.stderr
        assert "--no-sandbox" in done.stdout  # it did grade without the sandbox
        results = results_of(root / "grade")
        assert "forged" not in json.dumps(results) and results["gradable"] is True
        full = json.loads((root / "grade" / "results" / "result.json").read_text(encoding="utf-8"))
        assert results["score"] == SubmissionResult.from_json(full).percent / 100 < 1
        printed = "".join(e.get("out", "") for case in full["cases"] for e in case["actual"])
        for what in ("results", "cases", "data", "script"):
            assert f"{what}: refused" in printed, printed
        assert script.read_bytes() == before
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow  # javac and a course game's 59 cases, twice
def test_a_course_game_graded_with_the_references_of_the_course_folder(tmp_path):
    """Silver Dollar's reference is the `reference` package: run_grader's PYTHONPATH finds it in
    the course's folder (the image has none). Its Java samples as the handout asks for them."""
    import yaml
    output = tmp_path / "built"
    done = subprocess.run([sys.executable, str(ROOT / "prairielearn" / "make_grader.py"), "silver-dollar", "-o",
                           str(output)], env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    info = json.loads((output / "questions" / "silver-dollar" / "info.json").read_text(encoding="utf-8"))
    words = shlex.split(info["externalGradingOptions"]["entrypoint"])
    samples = ROOT / "examples" / "silver-dollar"
    expected = yaml.safe_load((samples / "expected.yaml").read_text(encoding="utf-8"))["samples"]
    for sample in ("correct-java", "bug-wrong-winner"):
        grade = tmp_path / sample
        for folder in ("data", "student", "serverFilesCourse", "tests"):
            (grade / folder).mkdir(parents=True)
        shutil.copytree(output / "serverFilesCourse" / "harness-silver-dollar",
                        grade / "serverFilesCourse" / "harness-silver-dollar")
        for source in (samples / sample).glob("*.java"):
            shutil.copy(source, grade / "student")
        (grade / "data" / "data.json").write_text('{"submitted_answers": {}}', encoding="utf-8")
        script = grade / Path(words[0]).relative_to("/grade")
        done = subprocess.run(["bash", str(script), *words[1:]], capture_output=True, text=True, timeout=900,
                              env=_env(GRADE_ROOT=str(grade), HARNESS_PYTHON=sys.executable))
        assert done.returncode == 0, done.stdout + done.stderr
        results = results_of(grade)
        full = SubmissionResult.from_json(json.loads((grade / "results" / "result.json").read_text(encoding="utf-8")))
        assert results["gradable"] is True and results["score"] == full.percent / 100
        fails = set((expected[sample] or {}).get("fails", []))
        public_fails = {c.name for c in full.cases if c.visibility == "public" and c.name in fails}
        lost = {t["name"].split(" ")[0] for t in results["tests"] if t["points"] < t["max_points"]}
        hidden_lost = any(c.visibility == "hidden" and c.name in fails for c in full.cases)
        assert lost == public_fails | ({"hidden"} if hidden_lost else set())
        assert (results["score"] == 1.0) == (not fails)
