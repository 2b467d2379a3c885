"""A malformed case, spec or command line: one message naming file and line, exit 2, nothing graded."""
import shutil

import pytest

from tests.conftest import ROOT


@pytest.fixture
def project(tmp_path):
    """A copy of the Reversi spec and two of its cases, to break."""
    (tmp_path / "specs").mkdir()
    shutil.copytree(ROOT / "specs" / "reversi", tmp_path / "specs" / "reversi")
    (tmp_path / "cases" / "reversi").mkdir(parents=True)
    for name in ("ms1-capture-up.yaml", "ms1-prompts.yaml"):
        shutil.copy(ROOT / "cases" / "reversi" / name, tmp_path / "cases" / "reversi" / name)
    return tmp_path


def grade(harness_cli, project, monkeypatch):
    monkeypatch.setenv("HARNESS_ROOT", str(project))
    return harness_cli("grade", "reversi:ms1", ROOT / "examples" / "reversi" / "correct-ms1-java", "-o", project / "r")


def test_unknown_rubric_item_names_file_and_line(harness_cli, project, monkeypatch):
    case = project / "cases" / "reversi" / "ms1-prompts.yaml"
    case.write_text(case.read_text().replace("rubric: ms1-enter-move", "rubric: ms1-typo"))
    done = grade(harness_cli, project, monkeypatch)
    assert done.returncode == 2
    assert f"{case}:3: rubric item 'ms1-typo' is not in the spec" in done.stderr
    assert not (project / "r").exists()


def test_misspelt_key_names_file_and_line(harness_cli, project, monkeypatch):
    case = project / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text(case.read_text().replace("visibility:", "visibilty:"))
    done = grade(harness_cli, project, monkeypatch)
    assert done.returncode == 2
    assert f"{case}:5:" in done.stderr and "visibilty" in done.stderr


def test_broken_yaml_names_the_line(harness_cli, project, monkeypatch):
    case = project / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text(case.read_text().replace('inputs: ["5", "d"]', 'inputs: ["5", "d"'))
    done = grade(harness_cli, project, monkeypatch)
    assert done.returncode == 2
    assert str(case) in done.stderr and "not valid YAML" in done.stderr


def test_wrong_type_in_expect_names_its_line(harness_cli, project, monkeypatch):
    case = project / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text(case.read_text().replace("exit: 0", "exit: finished"))
    done = grade(harness_cli, project, monkeypatch)
    assert done.returncode == 2
    line = next(i for i, l in enumerate(case.read_text().splitlines(), 1) if "exit: finished" in l)
    assert f"{case}:{line}:" in done.stderr


def test_broken_spec_names_its_line(harness_cli, project, monkeypatch):
    spec = project / "specs" / "reversi" / "spec.yaml"
    spec.write_text(spec.read_text().replace("points: 20}", "points: lots}", 1))
    done = grade(harness_cli, project, monkeypatch)
    assert done.returncode == 2
    assert f"{spec}:" in done.stderr and "lots" in done.stderr


def test_unknown_game_and_milestone(harness_cli):
    done = harness_cli("grade", "chess", ROOT)
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr and "reversi" in done.stderr
    done = harness_cli("grade", "reversi:ms9", ROOT)
    assert done.returncode == 2 and "reversi:ms1" in done.stderr


def test_bad_command_line_is_exit_2(harness_cli):
    assert harness_cli("grade").returncode == 2
    assert harness_cli("frobnicate").returncode == 2
