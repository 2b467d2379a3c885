"""`harness samples`: a game's samples grade as its expected.yaml says, or the command says which
sample differs and how. On the fixture game (real runs of its Python samples); the course games'
samples are checked by the same command in CI (`.ci/run`)."""
import os
import signal
import subprocess
import sys

import pytest

from harness.running import proctree
from harness.suite import samples
from harness.loading import spec as specs
from harness.errors import InputError
from tests.helpers import FIXTURE, ROOT, RULES, alive, expected_percent


@pytest.fixture(scope="module")
def tally_spec():
    spec, _ = specs.parse_game("tally", FIXTURE)
    return spec


def test_the_fixture_entries_agree_with_the_rules_over_its_cases(tally, tally_spec):
    """The fixture's expected.yaml says what its rules (tests/helpers.py) derive from the cases."""
    spec, cases = tally
    entries = {e.name: e for e in samples.load(tally_spec)}
    for sample, (rule, _items) in RULES.items():
        assert entries[sample].fails == {c.name for c in cases if rule(spec, c)}, sample
    assert set(entries) == {p.name for p in (FIXTURE / "examples" / "tally").iterdir() if p.is_dir()}


def test_each_sample_is_ok_or_named_with_what_differs(harness_cli, tally_project, tally):
    """A sample that gets what its entry says is `ok` with its score and items; a seeded bug
    whose entry lists one of its two failing cases, and a variant said to lose an item it
    keeps, are FAIL with each difference; exit 1."""
    spec, cases = tally
    adds = sorted(c.name for c in cases if RULES["bug-add"][0](spec, c))
    expected = tally_project / "examples" / "tally" / "expected.yaml"
    text = expected.read_text(encoding="utf-8")
    text = text.replace(f"bug-add: {{fails: [{', '.join(adds)}]}}", f"bug-add: {{fails: [{adds[0]}]}}")
    text = text.replace("variant-wording: {}", "variant-wording: {loses: [illegal]}")
    expected.write_text(text, encoding="utf-8")
    chosen = ["variant-banner", "bug-add", "variant-wording"]
    done = harness_cli("samples", "tally", *[f"--sample={s}" for s in chosen], env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    ok = {line.split()[1]: line for line in out.splitlines() if line.startswith("  ok ")}
    assert set(ok) == {"variant-banner"}
    for sample, line in ok.items():
        failing = {c.name for c in cases if RULES[sample][0](spec, c)}
        assert f"{expected_percent(spec, cases, failing):6.2f} %" in line
        assert line.endswith(f"loses {', '.join(sorted(RULES[sample][1]))}")
    assert "  FAIL bug-add" in out and "  FAIL variant-wording" in out
    assert f"{adds[1]}: failed, and expected.yaml does not list it" in out
    assert "lost nothing; expected to lose illegal" in out
    assert "tally: 1 of 3 samples as expected.yaml says" in out


@pytest.mark.parametrize("change, message", [
    ("bug-add: {fails: [add-two, add-too]}", "fails: no case 'add-too' in cases/tally/"),
    ("bug-add: {lose: [add]}", "Additional properties are not allowed ('lose' was unexpected)"),
    ("bug-add: {loses: [adding]}", "loses: no rubric item 'adding'"),
    ("bug-add: {fails: [add-two], build_fails: [program]}", "build_fails: no target 'program'"),
    ("bug-gone: {}", "no sample folder"),
    ("bug-add: {milestone: ms1, fails: [add-two]}", "tally has no milestone 'ms1'; remove the key"),
])
def test_a_wrong_entry_is_one_line_at_its_line(tally_project, change, message):
    expected = tally_project / "examples" / "tally" / "expected.yaml"
    lines = expected.read_text(encoding="utf-8").splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith("  bug-add:"))
    lines[at] = "  " + change
    expected.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec, _ = specs.parse_game("tally", tally_project)
    with pytest.raises(InputError) as raised:
        samples.load(spec)
    said = str(raised.value)
    assert said.startswith(f"{expected}:{at + 1}: ") and message in said, said
    assert "\n" not in said


def test_a_wrong_entry_stops_the_command_before_anything_is_graded(harness_cli, tally_project):
    expected = tally_project / "examples" / "tally" / "expected.yaml"
    expected.write_text(expected.read_text(encoding="utf-8").replace("correct: {}", "correct: {fails: [nope]}"),
                        encoding="utf-8")
    done = harness_cli("samples", "tally", env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 2 and done.stdout == ""  # nothing graded
    assert done.stderr.startswith(f"harness: {expected}:") and "no case 'nope'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_game_without_expectations_or_an_unknown_sample_is_exit_2(harness_cli, tally_project):
    (tally_project / "examples" / "tally" / "expected.yaml").unlink()
    done = harness_cli("samples", "tally", env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 2 and "no expected.yaml for tally" in done.stderr
    done = harness_cli("samples", "tally", "--sample=nope", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2 and "--sample 'nope' is in no expected.yaml" in done.stderr


@pytest.mark.slow
def test_course_game_samples_in_java_get_what_their_entries_say(harness_cli):
    """The same check on a course game: a seeded bug and a correct program handed in with the
    wrong letter case, built with javac and run in the sandbox."""
    done = harness_cli("samples", "reversi", "--sample=bug-tie", "--sample=variant-wrong-case")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reversi: 2 of 2 samples as expected.yaml says" in done.stdout
    tie = next(line for line in done.stdout.splitlines() if " bug-tie " in line)
    assert tie.endswith("loses ms2-result")  # the rubric item of the one case it fails
    assert (ROOT / "examples" / "reversi" / "expected.yaml").is_file()


def test_a_sample_folder_without_an_entry_is_named(tally_project):
    (tally_project / "examples" / "tally" / "bug-new").mkdir()
    (tally_project / "examples" / "tally" / "bug-new" / "tally.py").write_text("print('Start: 2')\n")
    spec, _ = specs.parse_game("tally", tally_project)
    assert samples.unlisted(spec, samples.load(spec)) == ["bug-new"]


@pytest.mark.slow  # waits on a hanging sample
def test_ctrl_c_ends_the_check_and_every_process_it_started(tmp_path):
    """Interrupted once the first sample is judged, while a hanging one still runs: exit 130 at
    once, no run left, no scratch folder left."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(HARNESS_ROOT=str(FIXTURE), TMPDIR=str(temp))
    child = subprocess.Popen([sys.executable, "-m", "harness", "samples", "tally", "--sample=correct",
                              "--sample=bug-hang"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        seen = [child.stdout.readline()]
        while " correct " not in seen[-1] and seen[-1]:
            seen.append(child.stdout.readline())
        assert " correct " in seen[-1], "".join(seen) + child.communicate(timeout=60)[1]
        started = proctree.tree(child.pid)
        assert len(started) > 1, "the check had started no process"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "Traceback" not in err and "stopping: ending the programs and builds running now" in err
    assert "bug-hang" not in out  # interrupted before its verdict
    assert [pid for pid in started if pid != child.pid and alive(pid)] == []
    assert list(temp.iterdir()) == []
