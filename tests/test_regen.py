"""`harness regen` on the fixture game, through the real command line (HARNESS_ROOT).

A copy of the fixture's specs and cases is edited, never the fixture itself: a stale case is
found by --check (which changes nothing) and rewritten by regen; a new case gets its expected
transcript, which is what the reference prints when the same lines are typed.
"""
import subprocess

import yaml

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE


def case_count() -> int:
    return len(list((FIXTURE / "cases" / "tally").glob("*.yaml")))


def test_the_fixture_is_up_to_date(harness_cli):
    done = harness_cli("regen", "tally", "--check", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == f"{case_count()} cases, 0 stale"


def test_a_stale_case_is_found_by_check_and_rewritten_by_regen(harness_cli, tally_project):
    env = {"HARNESS_ROOT": str(tally_project)}
    path = tally_project / "cases" / "tally" / "add-two.yaml"
    original = path.read_text(encoding="utf-8")
    spec = specs.load("tally", tally_project)
    case = caseload.load_case(path, spec)
    added = [line for line in case.expected_events if "in" in line]
    assert [e["in"] for e in added] == ["2"]
    # what the case's expected transcript says after typing 2, changed by one
    after = case.expected_events[2]["out"].splitlines()[0]
    total = int(after.split()[1])
    path.write_text(original.replace(f"Now {total}", f"Now {total + 1}"), encoding="utf-8")

    done = harness_cli("regen", "tally", "--check", env=env)
    assert done.returncode == 1
    stale = [line for line in done.stdout.splitlines() if line.startswith("stale: ")]
    assert len(stale) == 1 and str(path) in stale[0]
    assert stale[0].endswith(f": turn 1 (after typing '2'): line 1 was 'Now {total + 1}', now 'Now {total}'")
    assert done.stdout.strip().splitlines()[-1] == f"{case_count()} cases, 1 stale"
    assert path.read_text(encoding="utf-8") != original  # --check changes nothing

    done = harness_cli("regen", "tally", env=env)
    assert done.returncode == 0
    assert path.read_text(encoding="utf-8") == original
    assert harness_cli("regen", "tally", "--check", env=env).returncode == 0


def test_a_new_case_gets_what_the_reference_prints(harness_cli, tally_project):
    lines = ["1", "x", "3"]
    path = tally_project / "cases" / "tally" / "add-new.yaml"
    path.write_text("# written by hand; regen fills in expect\n"
                    "description: A new case\nrubric: add\n"
                    f"inputs: {lines!r}\n".replace("'", '"'), encoding="utf-8")
    done = harness_cli("regen", path, env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 0, done.stderr
    assert f"updated: {path}: new expected transcript" in done.stdout
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# written by hand; regen fills in expect\ndescription: A new case\n")
    expect = yaml.safe_load(text)["expect"]
    assert [e["in"] for e in expect["transcript"] if "in" in e] == lines
    assert expect["exit"] == "waiting"
    # the reference, fed the same lines on a pipe from the spec's seed, prints the same bytes
    spec = specs.load("tally", tally_project)
    command = spec.reference_command(None, "game", spec.seed_args(spec.random_start.seed))
    piped = subprocess.run(command, input="".join(f"{line}\n" for line in lines), capture_output=True, text=True,
                           timeout=30)
    assert "".join(e.get("out", "") for e in expect["transcript"]) == piped.stdout


def test_a_case_naming_an_unknown_item_is_one_line_with_its_place(harness_cli, tally_project):
    path = tally_project / "cases" / "tally" / "bad-item.yaml"
    text = "description: Names an item the spec does not have\nrubric: scoring\ninputs: []\n"
    path.write_text(text, encoding="utf-8")
    done = harness_cli("regen", "tally", "--check", env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 2
    line = text.splitlines().index("rubric: scoring") + 1
    assert done.stderr.startswith(f"harness: {path}:{line}: rubric item 'scoring' is not in the spec")
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_strategy_the_reference_cannot_plan_is_one_line_with_its_place(harness_cli, tally_project):
    path = tally_project / "cases" / "tally" / "end-ones.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("strategy: ones", "strategy: zigzag"), encoding="utf-8")
    done = harness_cli("regen", path, env={"HARNESS_ROOT": str(tally_project)})
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    assert done.stderr.startswith(f"harness: {path}:")


def test_check_names_the_line_that_changed_and_its_text(harness_cli, tally_project):
    """A blank line the case has and the reference no longer prints, and a changed message two
    turns later: --check names the first (its turn, its line, that it is blank), counts the rest."""
    env = {"HARNESS_ROOT": str(tally_project)}
    path = tally_project / "cases" / "tally" / "prompt-two-adds.yaml"
    case = caseload.load_case(path, specs.load("tally", tally_project))
    typed = [e["in"] for e in case.expected_events if "in" in e]
    start = case.expected_events[0]["out"].splitlines()[0]
    last = case.expected_events[-1]["out"].splitlines()[0]
    text = path.read_text(encoding="utf-8")
    assert text.count(f"        {start}\n") == 1 and text.count(f"        {last}\n") == 1
    text = text.replace(f"        {start}\n", f"        {start}\n\n", 1).replace(f"        {last}\n", "        Total?\n", 1)
    path.write_text(text, encoding="utf-8")
    done = harness_cli("regen", "tally", "--check", env=env)
    assert done.returncode == 1
    (stale,) = [line for line in done.stdout.splitlines() if line.startswith("stale: ")]
    assert stale == (f"stale: {path}: turn 0: line 2 (a blank line) is gone; "
                     f"1 later turn changed too"), stale
    assert len(typed) == 2  # the changed message is in the last of the three turns
