"""`harness gradescope` in a simulated /autograder folder (the real command line, real javac and
JVM runs): a submission that does not compile, a correct one and a buggy one, on two Reversi
cases (one public, one hidden), checked against Gradescope's results.json format; the JUnit
export of the same results carries the same messages."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
import yaml

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.reporting import exports
from harness.results import SubmissionResult
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # Reversi built and graded in a simulated autograder

SELECT = "ms2-illegal"  # the illegal-move cases of one item: ms2-illegal-mixed hidden, the others public
BROKEN = 'public class Reversi {\n    public static void main(String[] args) {\n        System.out.println("x")\n    }\n}\n'
TEST_KEYS = {"name", "score", "max_score", "status", "output", "tags", "visibility"}
VISIBILITY = {"visible", "hidden", "after_due_date", "after_published"}


@pytest.fixture(scope="module")
def selected():
    spec, milestone = specs.parse_game("reversi")
    found = caseload.load_all(spec, milestone, SELECT)
    assert {c.visibility for c in found} == {"public", "hidden"}
    return spec, found


def values(spec, found) -> dict[str, float]:
    """Each case's share of the total: its item's weight split by the case points of that item."""
    weight = {item.id: item.points for item in spec.rubric}
    per_item = {}
    for case in found:
        per_item[case.rubric] = per_item.get(case.rubric, 0) + case.points
    return {case.name: weight[case.rubric] * case.points / per_item[case.rubric] for case in found}


def autograde(harness_cli, tmp_path, files: dict, *extra):
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    for name, text in files.items():
        (root / "submission" / name).write_text(text, encoding="utf-8")
    done = harness_cli("gradescope", "reversi", "--autograder-root", root, "-k", SELECT, *extra)
    assert done.returncode in (0, 1), done.stderr
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    full = SubmissionResult.from_json(json.loads((root / "results" / "result.json").read_text(encoding="utf-8")))
    return done, results, full


def check_format(results: dict, expected_values: dict[str, float]) -> dict[str, dict]:
    assert isinstance(results["score"], float) and isinstance(results["output"], str)
    assert results["output_format"] == "text" and results["stdout_visibility"] == "hidden"
    tests = {t["name"].split(" ")[0]: t for t in results["tests"]}
    assert set(tests) == set(expected_values)
    for name, test in tests.items():
        assert set(test) == TEST_KEYS and test["visibility"] in VISIBILITY
        assert test["status"] in ("passed", "failed")
        assert test["max_score"] == pytest.approx(expected_values[name], abs=1e-4)  # Gradescope gets 4 decimals
        assert 0 <= test["score"] <= test["max_score"]
    assert results["score"] == pytest.approx(math.fsum(t["score"] for t in results["tests"]), abs=1e-4)
    return tests


def test_a_submission_that_does_not_compile(harness_cli, tmp_path, selected):
    spec, found = selected
    done, results, full = autograde(harness_cli, tmp_path, {"Reversi.java": BROKEN})
    assert done.returncode == 1
    tests = check_format(results, values(spec, found))
    assert results["score"] == 0.0 and all(t["status"] == "failed" for t in tests.values())
    # the compiler's own message, with the line it points at, where the student reads first
    assert "Reversi.java:3: error: ';' expected" in results["output"]
    assert 'System.out.println("x")\n' in results["output"]
    assert "/tmp/" not in results["output"]  # never the grader's temporary build folder
    for test in tests.values():  # the compiler's error is told once, at the top
        assert "Not run: the build failed (see the top of this page)." in test["output"]
        assert "';' expected" not in test["output"]
    suite = ET.fromstring(exports.junit(full))
    out = suite.find("system-out").text
    assert "Reversi.java:3: error: ';' expected" in out and 'System.out.println("x")' in out


def test_a_correct_submission_earns_every_point(harness_cli, tmp_path, selected):
    spec, found = selected
    sample = ROOT / "examples" / "reversi" / "correct-java"
    done, results, _ = autograde(harness_cli, tmp_path, {p.name: p.read_text() for p in sample.glob("*.java")})
    assert done.returncode == 0, done.stdout + done.stderr
    tests = check_format(results, values(spec, found))
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in tests.values())
    assert results["score"] == pytest.approx(sum(values(spec, found).values()), abs=1e-3)
    # the run commands the instructor's full result shows name the build folder <build>, no temporary path
    written = (tmp_path / "autograder" / "results" / "result.json").read_text(encoding="utf-8")
    assert f"{tempfile.gettempdir()}/harness-" not in written and "<build>/out" in written
    hidden = {c.name for c in found if c.visibility == "hidden"}
    assert {n: t["visibility"] for n, t in tests.items()} == {
        c.name: "after_published" if c.name in hidden else "visible" for c in found}


def test_a_buggy_submission_shows_each_first_difference(harness_cli, tmp_path, selected):
    """bug-uppercase takes "D" for column d where the reference refuses it: the cases it must fail
    are those examples/reversi/expected.yaml lists, the others pass."""
    spec, found = selected
    expected = yaml.safe_load((ROOT / "examples" / "reversi" / "expected.yaml").read_text(encoding="utf-8"))
    fails = set(expected["samples"]["bug-uppercase"]["fails"]) & {c.name for c in found}
    assert fails, "the selection must hold a case bug-uppercase fails"
    sample = ROOT / "examples" / "reversi" / "bug-uppercase"
    done, results, full = autograde(harness_cli, tmp_path, {p.name: p.read_text() for p in sample.glob("*.java")},
                                    "--hidden", "hidden")
    assert done.returncode == 1
    shares = values(spec, found)
    tests = check_format(results, shares)
    assert results["score"] == pytest.approx(sum(v for name, v in shares.items() if name not in fails), abs=1e-3)
    suite = ET.fromstring(exports.junit(full))
    failures = {tc.get("name"): tc.find("failure") for tc in suite.iter("testcase")}
    for case in found:
        test = tests[case.name]
        assert test["visibility"] == ("hidden" if case.visibility == "hidden" else "visible")
        if case.name not in fails:
            assert test["status"] == "passed" and failures[case.name] is None
            continue
        assert test["status"] == "failed" and test["score"] == 0
        assert "First difference after your " in test["output"] or "First difference before your first input" in test["output"]
        before, _, actual = test["output"].partition("--- your program printed:")
        assert "Not a legal move!" in before.partition("--- expected:")[2]
        assert "in the expected game the board is" in before  # the move it played where it should refuse
        assert failures[case.name].text == test["output"]  # the same message in both formats


def test_no_submission_folder_still_writes_results(harness_cli, tmp_path):
    root = tmp_path / "autograder"
    done = harness_cli("gradescope", "reversi", "--autograder-root", root)
    assert done.returncode == 2
    assert done.stderr.startswith("harness: no submission folder") and "Traceback" not in done.stderr
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 0.0 and results["tests"] == []
    assert "no submission folder" in results["output"]


def test_the_zip_unpacked_as_gradescope_does_grades_through_run_autograder(tmp_path):
    """make_zip's archive as /autograder/source, the shipped run_autograder run on a submission."""
    archive = tmp_path / "autograder.zip"
    made = subprocess.run([sys.executable, ROOT / "gradescope" / "make_zip.py", "reversi", "-o", archive],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    root = tmp_path / "autograder"
    with zipfile.ZipFile(archive) as unzip:
        names = unzip.namelist()
        unzip.extractall(root / "source")
        modes = {info.filename: info.external_attr >> 16 for info in unzip.infolist()}
    assert {"setup.sh", "run_autograder", "autograder-game.txt", "pyproject.toml", "harness/cli.py",
            "harness/building/java/WarmJavac.java", "specs/reversi/spec.yaml"} <= set(names)
    assert not any(name.startswith(("specs/flip", "cases/flip", "tests/")) or "__pycache__" in name for name in names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    shutil.copytree(ROOT / "examples" / "reversi" / "correct-java", root / "submission")
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ROOT"}
    env.update(AUTOGRADER_ROOT=str(root), HARNESS_BIN=str(Path(sys.executable).parent / "harness"))
    done = subprocess.run(["bash", root / "source" / "run_autograder", "-k", "ms2-illegal-white"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert [t["status"] for t in results["tests"]] == ["passed"]
    assert results["score"] == results["tests"][0]["max_score"] > 0


def test_each_test_says_what_it_is_worth_of_the_total(harness_cli, tmp_path, selected):
    """A test's output gives its share of the total as a person reads it (two decimals), the
    same number as its max_score; with a hidden case among them, the summary the student reads
    at once says nothing of how an item's cases did."""
    spec, found = selected
    sample = ROOT / "examples" / "reversi" / "correct-java"
    _, results, _ = autograde(harness_cli, tmp_path, {p.name: p.read_text() for p in sample.glob("*.java")})
    shares = values(spec, found)
    total = math.fsum(item.points for item in spec.rubric if any(c.rubric == item.id for c in found))
    tests = check_format(results, shares)

    def shown(value: float) -> str:
        return f"{value:.2f}".rstrip("0").rstrip(".")

    for name, test in tests.items():
        assert f"This case: worth {shown(shares[name])} of {shown(total)} points." in test["output"]
    assert "cases passed," not in results["output"] and "worth" not in results["output"]
