"""A malformed case, spec or command line: one message naming file and line, exit 2, nothing graded."""
import dataclasses
import os
import shutil
import signal
import sys

import pexpect
import pytest

from tests.helpers import FIXTURE, ROOT, SAMPLES, copy_project

SAMPLE_CORRECT = SAMPLES / "correct"


@pytest.fixture
def reversi_copy(tmp_path):
    """A copy of the Reversi spec and two of its cases, to break."""
    copy_project(ROOT, tmp_path, parts=("specs",), games=("reversi",))
    (tmp_path / "cases" / "reversi").mkdir(parents=True)
    for name in ("ms1-capture-up.yaml", "ms1-prompts.yaml"):
        shutil.copy(ROOT / "cases" / "reversi" / name, tmp_path / "cases" / "reversi" / name)
    return tmp_path


def grade(harness_cli, reversi_copy, monkeypatch):
    monkeypatch.setenv("HARNESS_ROOT", str(reversi_copy))
    return harness_cli("grade", "reversi:ms1", ROOT / "examples" / "reversi" / "correct-ms1-java",
                       "-o", reversi_copy / "r")


def test_unknown_rubric_item_names_file_and_line(harness_cli, reversi_copy, monkeypatch):
    case = reversi_copy / "cases" / "reversi" / "ms1-prompts.yaml"
    case.write_text(case.read_text().replace("rubric: ms1-enter-move", "rubric: ms1-typo"))
    done = grade(harness_cli, reversi_copy, monkeypatch)
    assert done.returncode == 2
    assert f"{case}:3: rubric item 'ms1-typo' is not in the spec" in done.stderr
    assert not (reversi_copy / "r").exists()


def test_misspelt_key_names_file_and_line(harness_cli, reversi_copy, monkeypatch):
    case = reversi_copy / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text(case.read_text().replace("visibility:", "visibilty:"))
    done = grade(harness_cli, reversi_copy, monkeypatch)
    assert done.returncode == 2
    assert f"{case}:5:" in done.stderr and "visibilty" in done.stderr


def test_broken_yaml_names_the_line(harness_cli, reversi_copy, monkeypatch):
    case = reversi_copy / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text(case.read_text().replace('inputs: ["5", "d"]', 'inputs: ["5", "d"'))
    done = grade(harness_cli, reversi_copy, monkeypatch)
    assert done.returncode == 2
    assert str(case) in done.stderr and "not valid YAML" in done.stderr


def test_wrong_type_in_expect_names_its_line(harness_cli, reversi_copy, monkeypatch):
    case = reversi_copy / "cases" / "reversi" / "ms1-capture-up.yaml"
    case.write_text(case.read_text().replace("exit: 0", "exit: finished"))
    done = grade(harness_cli, reversi_copy, monkeypatch)
    assert done.returncode == 2
    line = next(i for i, l in enumerate(case.read_text().splitlines(), 1) if "exit: finished" in l)
    assert f"{case}:{line}:" in done.stderr


@pytest.mark.slow  # grades a course game's Java sample
def test_broken_spec_names_its_line(harness_cli, reversi_copy, monkeypatch):
    spec = reversi_copy / "specs" / "reversi" / "spec.yaml"
    spec.write_text(spec.read_text().replace("points: 20", "points: lots", 1))
    done = grade(harness_cli, reversi_copy, monkeypatch)
    assert done.returncode == 2
    assert f"{spec}:" in done.stderr and "lots" in done.stderr


def test_unknown_game_and_milestone(harness_cli):
    done = harness_cli("grade", "chess", ROOT)
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr and "reversi" in done.stderr
    done = harness_cli("grade", "reversi:ms9", ROOT)
    assert done.returncode == 2 and "reversi:ms1" in done.stderr


def test_a_game_id_ignores_letter_case_and_a_near_miss_is_offered_the_nearest(harness_cli):
    done = harness_cli("run", "revers", ROOT)
    assert done.returncode == 2 and "unknown game 'revers'; did you mean reversi?" in done.stderr
    assert "Traceback" not in done.stderr
    done = harness_cli("run", "Reversi:MS9", ROOT)  # the game found whatever its case; the milestone is not
    assert done.returncode == 2 and "reversi has no milestone 'MS9'; use one of: reversi:ms1" in done.stderr
    done = harness_cli("run", "zzzzzz", ROOT)
    assert done.returncode == 2 and "did you mean" not in done.stderr


def test_check_refuses_a_report_folder_inside_the_submission(harness_cli, tmp_path):
    """Reports written into a student's folder would be handed in with it and graded next time."""
    submission = tmp_path / "mine"
    shutil.copytree(ROOT / "tests" / "fixture" / "examples" / "tally" / "correct", submission)
    done = harness_cli("check", "tally", ".", "-o", "reports", cwd=submission,
                       env={"HARNESS_ROOT": str(ROOT / "tests" / "fixture")})
    assert done.returncode == 2 and "inside the submission" in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in submission.iterdir()) == ["tally.py"]


def test_bad_command_line_is_exit_2(harness_cli):
    assert harness_cli("grade").returncode == 2
    assert harness_cli("frobnicate").returncode == 2


# --- hostile or absurd files: a line, never a traceback or a hang -------------------------

def in_process(reversi_copy, monkeypatch, capsys, *argv):
    """`harness ARGV` run in this process against `reversi_copy`; (exit code, stderr)."""
    from harness import cli
    monkeypatch.setenv("HARNESS_ROOT", str(reversi_copy))
    code = cli.main([str(a) for a in argv])
    return code, capsys.readouterr().err


def grade_ms1(reversi_copy, monkeypatch, capsys):
    return in_process(reversi_copy, monkeypatch, capsys, "grade", "reversi:ms1",
                      ROOT / "examples" / "reversi" / "correct-ms1-java", "-o", reversi_copy / "r")


def line_of(path, text) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def one_clean_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def case(reversi_copy):
    return reversi_copy / "cases" / "reversi" / "ms1-capture-up.yaml"


@pytest.mark.parametrize("old, new, marker, message", [
    ("points: 1", 'points: 1\nextra: "a\x00b"', "extra:", "control character U+0000"),
    ("points: 1", "points: .nan", "points:", ".nan is not a finite number"),
    ("points: 1", "points: 1\nlimits: {run_seconds: .inf}", "limits:", ".inf is not a finite number"),
    ("points: 1", "points: 1\nrepeat: 1000000000", "repeat:", "1000000000 is greater than the maximum of 100"),
    ("points: 1", "points: 1\nlimits: {output_bytes: 1000000000000}", "limits:", "greater than the maximum"),
    ("points: 1", "points: 1\nrubric: ms1-board", "rubric: ms1-board", "key 'rubric' appears twice (first on line 3)"),
    ("points: 1", "points: 1\nargs: " + "[" * 20000 + "]" * 20000, "args:", "nested more than"),
    ("points: 1", "points: 1\nseed: 2020-13-45", "seed:", "'2020-13-45' cannot be read as timestamp"),
    ("points: 1", "points: 1\nseed: " + "9" * 5000, "seed:", "a number of 5000 digits"),
])
def test_a_malformed_case_is_one_line_at_its_line(reversi_copy, case, monkeypatch, capsys, old, new, marker, message):
    case.write_text(case.read_text().replace(old, new, 1))
    code, err = grade_ms1(reversi_copy, monkeypatch, capsys)
    assert code == 2
    assert one_clean_line(err).startswith(f"harness: {case}:{line_of(case, marker)}: ")
    assert message in err
    assert not (reversi_copy / "r").exists()


def test_an_alias_bomb_is_refused_at_once(reversi_copy, case, monkeypatch, capsys):
    bomb = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    bomb += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 11)]
    case.write_text(case.read_text() + "\n".join(bomb) + "\n")
    code, err = grade_ms1(reversi_copy, monkeypatch, capsys)
    assert code == 2
    assert one_clean_line(err).startswith(f"harness: {case}:{line_of(case, 'a1: &a1')}: alias *a0 is not allowed")


def test_a_huge_case_is_refused_before_it_is_read(reversi_copy, case, monkeypatch, capsys):
    with open(case, "a") as handle:
        handle.write("# " + "x" * (50 * 2**20) + "\n")
    code, err = grade_ms1(reversi_copy, monkeypatch, capsys)
    assert code == 2 and f"{case}: the file is 50.0 MB, over the 20 MB limit" in one_clean_line(err)


def test_a_fifo_named_like_a_case_does_not_hang(reversi_copy, monkeypatch, capsys):
    fifo = reversi_copy / "cases" / "reversi" / "ms1-zz-fifo.yaml"
    os.mkfifo(fifo)
    code, err = grade_ms1(reversi_copy, monkeypatch, capsys)
    assert code == 2 and f"{fifo}: not a regular file" in one_clean_line(err)


SPEC_JAVA = "      java:\n        files: [Reversi.java]\n        main: Reversi\n"


@pytest.mark.parametrize("extra, marker, message", [
    ("        source_checks:\n          - {pattern: 'System.exit(', message: exits}\n", "pattern:",
     "pattern is not a valid regular expression: missing ), unterminated subpattern"),
    ('        run: "{nosuch} x"\n', "run:", "run uses {nosuch}, which is not a placeholder; use {src}"),
    ("        run: \"java -cp {out} 'Reversi\"\n", "run:", "cannot be split into words (No closing quotation)"),
    ('        build: ["javac -d {out} x{sources}"]\n', "build:", "{sources} stands for several words"),
    ("        support: [/etc/hostname]\n", "support:", "support: '/etc/hostname' must be a relative path"),
    ("        optional: [../../../etc/hostname]\n", "optional:", "without '..'"),
])
def test_a_spec_that_could_crash_or_escape_is_refused_at_its_line(reversi_copy, monkeypatch, capsys, extra, marker,
                                                                   message):
    spec = reversi_copy / "specs" / "reversi" / "spec.yaml"
    spec.write_text(spec.read_text().replace(SPEC_JAVA, SPEC_JAVA + extra, 1))
    code, err = grade_ms1(reversi_copy, monkeypatch, capsys)
    assert code == 2
    assert one_clean_line(err).startswith(f"harness: {spec}:{line_of(spec, marker)}: ")
    assert message in err


@pytest.mark.parametrize("files", ["[/etc/hostname]", "['../x/Reversi.java']", "['']"])
def test_submission_file_names_stay_inside_the_submission(reversi_copy, monkeypatch, capsys, files):
    spec = reversi_copy / "specs" / "reversi" / "spec.yaml"
    spec.write_text(spec.read_text().replace("files: [Reversi.java]", f"files: {files}", 1))
    code, err = grade_ms1(reversi_copy, monkeypatch, capsys)
    assert code == 2
    assert one_clean_line(err).startswith(f"harness: {spec}:{line_of(spec, 'files: ' + files)}: files: ")
    assert "must be a relative path inside the folder" in err


# --- the command line and the environment ----------------------------------------------

def test_reports_onto_an_existing_file_is_refused(reversi_copy, monkeypatch, capsys):
    target = reversi_copy / "a-file"
    target.write_text("keep me")
    code, err = in_process(reversi_copy, monkeypatch, capsys, "grade", "reversi:ms1", reversi_copy, "-o", target)
    assert code == 2 and "is a file, not a folder" in one_clean_line(err)
    assert target.read_text() == "keep me"


def test_a_missing_submission_is_refused(reversi_copy, monkeypatch, capsys):
    code, err = in_process(reversi_copy, monkeypatch, capsys, "grade", "reversi", reversi_copy / "nowhere")
    assert code == 2 and f"no such file or folder: {reversi_copy / 'nowhere'}" in one_clean_line(err)


@pytest.mark.parametrize("name, value, message", [
    ("HARNESS_JOBS", "abc", "HARNESS_JOBS='abc' is not a number of workers"),
    ("HARNESS_JOBS", "0", "HARNESS_JOBS='0' is not a number of workers"),
    ("HARNESS_JOBS", "-3", "HARNESS_JOBS='-3'"),
    ("HARNESS_JOBS", "10000", "from 1 to 256"),
    ("HARNESS_SANDBOX", "maybe", "HARNESS_SANDBOX='maybe' is not a setting; use auto"),
    ("HARNESS_NO_CDS", "perhaps", "HARNESS_NO_CDS='perhaps' is not a yes/no setting"),
    ("HARNESS_ROOT", "/nonexistent-folder", "HARNESS_ROOT='/nonexistent-folder' has no specs/ folder"),
])
def test_a_bad_environment_setting_is_one_line(harness_cli, monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    done = harness_cli("grade", "reversi", ROOT / "examples" / "reversi" / "correct-java", "-o", ROOT / "reports")
    assert done.returncode == 2
    assert one_clean_line(done.stderr) == f"harness: {message}" or message in one_clean_line(done.stderr)


def test_settings_are_read_into_one_frozen_record():
    from harness.loading import config
    settings = config.load({"HARNESS_JOBS": "3", "HARNESS_SANDBOX": "off", "HARNESS_NO_CDS": "1"})
    assert (settings.jobs, settings.sandbox, settings.no_cds, settings.root) == (3, "off", True, None)
    assert config.load({}) == config.Settings(root=None, sandbox="auto", jobs=None, no_cds=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.jobs = 4


def test_record_never_overwrites_a_case_without_force(harness_cli, tmp_path):
    existing = tmp_path / "mine.yaml"
    existing.write_text("keep me")
    done = harness_cli("record", "reversi:ms1", "-o", existing, input="5\nd\n")
    assert done.returncode == 2
    assert one_clean_line(done.stderr) == f"harness: {existing} exists; pass --force to overwrite it, or give another name"
    assert existing.read_text() == "keep me"
    done = harness_cli("record", "reversi:ms1", "-o", existing, "--force", input="5\nd\n")
    assert done.returncode == 0, done.stderr
    from harness.loading import cases
    from harness.loading import spec as specs
    recorded = cases.load_case(existing, specs.load("reversi", ROOT))
    assert recorded.inputs == ["5", "d"] and recorded.expect["exit"] == 0


@pytest.mark.parametrize("command", [["play", "reversi:ms1"], ["record", "reversi:ms1", "-o", "{tmp}/new.yaml"]])
def test_ctrl_c_is_one_line_and_exit_130(tmp_path, command):
    # as from a shell: Ctrl-C is not ignored, whatever an earlier test in this process did with it
    child = pexpect.spawn(sys.executable, ["-m", "harness", *[a.format(tmp=tmp_path) for a in command]],
                          cwd=str(ROOT), encoding="utf-8", timeout=20,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.expect_exact("Row? (1-6) ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "harness: interrupted" in child.before and "Traceback" not in child.before
    assert "KeyboardInterrupt" not in child.before
    assert not (tmp_path / "new.yaml").exists()


def test_version_is_the_packages(harness_cli):
    declared = next(line.split("=", 1)[1].strip().strip('"') for line in (ROOT / "pyproject.toml").read_text().splitlines()
                    if line.startswith("version"))
    done = harness_cli("--version")
    assert done.returncode == 0 and done.stdout == f"harness {declared}\n" and done.stderr == ""


@pytest.mark.parametrize("command", [["grade", "tally", SAMPLE_CORRECT, "-o", "{root}/r"], ["samples", "tally"],
                                     ["regen", "tally", "--check"], ["run", "tally", SAMPLE_CORRECT]])
def test_a_reference_that_rejects_the_start_it_drew_is_the_instructors_error(harness_cli, tmp_path, monkeypatch,
                                                                              command):
    """The spec names an option that takes the start as text, but the harness passes a file: the
    reference would reject every start, and every student's random case be charged to setup.
    Instead the command stops (exit 2), naming the spec's line, the reference and the option,
    and nothing is graded."""
    root = copy_project(FIXTURE, tmp_path / "project")
    spec = root / "specs" / "tally" / "spec.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("option: --start-file", "option: --start", 1), encoding="utf-8")
    monkeypatch.setenv("HARNESS_ROOT", str(root))
    done = harness_cli(*[str(word).replace("{root}", str(root)) for word in command])
    assert done.returncode == 2, done.stdout + done.stderr
    line = next(i for i, row in enumerate(spec.read_text(encoding="utf-8").splitlines(), 1) if "option: --start" in row)
    assert f"{spec}:{line}: the reference (" in done.stderr
    assert "rejects the start it drew itself" in done.stderr and "--start FILE" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (root / "r").exists()
