"""Grading end to end on the fixture game (tests/fixture): real builds, real runs, real reference.

Every expected number comes from the fixture's spec and cases: which cases a sample fails is
said by a rule over the cases (what they type, what they compare, how the reference ends
them), and the percentage follows from the rubric weights and case points as the manual's
docs/scores.md states it.
"""
import dataclasses
import shutil
import textwrap

import pytest

from harness.loading import spec as specs
from harness.outcome import End
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE
from tests.helpers import (CHARGED, FIXTURE, LEGAL, RULES, SAMPLES, command_lines, expected_percent, is_number, typed,
                           unplannable_case)


@pytest.mark.parametrize("sample", list(RULES))
def test_a_sample_loses_exactly_what_its_bug_touches(sample, tally, grader):
    spec, cases = tally
    rule, items = RULES[sample]
    failing = {c.name for c in cases if rule(spec, c)}
    charged_to = CHARGED.get(sample)
    # the fixture shows the bug where it says (a case of another item charged to the bug's)
    assert {charged_to or c.rubric for c in cases if c.name in failing} == items

    result = grader.grade(spec, None, cases, SAMPLES / sample)

    assert result.status == "graded", result.builds
    statuses = {c.name: c.status for c in result.cases}
    assert {n for n, s in statuses.items() if s != PASSED} == failing, {c.name: c.reason for c in result.cases}
    assert set(statuses.values()) <= {PASSED, FAILED}
    lost = {i.id for i in result.items if i.counted and i.earned < i.weight}
    assert lost == items
    assert {c.charged_to for c in result.cases if c.name in failing and c.rubric != charged_to} <= {charged_to}
    assert result.percent == pytest.approx(expected_percent(spec, cases, failing, charged_to), abs=0.01)
    assert result.possible == sum(i.points for i in spec.rubric if i.graded)


def test_the_percentages_the_rules_give(tally):
    """The rules above in numbers: a one-bug sample keeps the weights of the items it does not lose."""
    spec, cases = tally
    graded = sum(i.points for i in spec.rubric if i.graded)
    weight = {i.id: i.points for i in spec.rubric}
    for sample in ("bug-add", "bug-illegal", "bug-end", "variant-banner", "bug-start-range"):
        rule, (item,) = RULES[sample]
        failing = {c.name for c in cases if rule(spec, c)}
        assert failing == {c.name for c in cases if c.rubric == item}  # the whole item, nothing else
        assert expected_percent(spec, cases, failing) == round(100 * (graded - weight[item]) / graded, 2)


def _only(cases, *names):
    chosen = [c for c in cases if c.name in names]
    assert len(chosen) == len(names)
    return chosen


def test_a_start_against_the_rules_fails_setup_and_is_charged_to_it_elsewhere(tally, grader):
    spec, cases = tally
    setup = spec.random_start.rubric
    chosen = _only(cases, "setup-start", "add-two")
    result = grader.grade(spec, None, chosen, SAMPLES / "bug-start-seven")
    by_name = {c.name: c for c in result.cases}
    # the setup item's own case looks for exactly this: it fails
    assert by_name["setup-start"].status == FAILED
    assert "'7' breaks the rules" in by_name["setup-start"].reason
    # another item's case never gets a start within the rules: not gradable, charged to setup
    assert by_name["add-two"].status == UNGRADABLE
    assert by_name["add-two"].charged_to == setup
    items = {i.id: i for i in result.items}
    assert items[setup].charges == 1 and items[setup].counted and items[setup].earned == 0
    assert not items["add"].counted  # no case of it could be graded: left out of the total
    assert result.possible == items[setup].weight
    assert result.percent == 0
    # the charge is one failed point of setup beside setup-start's own points
    assert by_name["add-two"].value == pytest.approx(items[setup].weight / (by_name["setup-start"].points + 1))


def test_an_unplayable_start_is_drawn_again_and_never_charged(tally, grader):
    spec, cases = tally
    result = grader.grade(spec, None, _only(cases, "setup-start", "add-two"), SAMPLES / "bug-always-six")
    assert [c.status for c in result.cases] == [UNGRADABLE, UNGRADABLE]
    assert all(c.charged_to is None for c in result.cases)
    assert all("shows no game" in c.reason for c in result.cases)
    assert all(not i.counted and i.charges == 0 for i in result.items)
    assert result.possible == 0


def test_a_program_that_hangs_times_out_and_the_others_are_graded(tally, grader):
    spec, cases = tally
    hangs = {c.name for c in cases if any(is_number(x) and x not in LEGAL for x in typed(c))}
    assert hangs
    # the hanging cases get a short turn limit (the others keep the spec's, so a busy machine cannot fail them)
    quick = [dataclasses.replace(c, limits={"turn_seconds": 1}) if c.name in hangs else c for c in cases]
    result = grader.grade(spec, None, quick, SAMPLES / "bug-hang")
    statuses = {c.name: c.status for c in result.cases}
    assert {n for n, s in statuses.items() if s != PASSED} == hangs
    for case in result.cases:
        if case.name in hangs:
            assert case.actual_end == End("timeout"), case.reason  # stopped by its 1 s turn limit
    # nothing it started outlives the grading: no process runs the program's command any more
    commands = {"\0".join(c.command) for c in result.cases}
    assert commands and not commands & set(command_lines())


def test_a_case_the_reference_cannot_plan_is_a_harness_error_and_the_rest_are_graded(tally, grader, tmp_path):
    spec, cases = tally
    odd = unplannable_case(spec, cases, tmp_path)
    result = grader.grade(spec, None, [*cases, odd], SAMPLES / "correct")
    by_name = {c.name: c for c in result.cases}
    assert by_name[odd.name].status == HARNESS_ERROR
    assert "zigzag" in by_name[odd.name].reason
    assert all(c.status == PASSED for c in result.cases if c.name != odd.name)
    assert result.status == "harness-error"
    assert result.percent == 100.0  # a harness error counts against nobody


CRASHING_REFERENCE = '''
import runpy, sys
if "--start-file" in sys.argv and "--plan" not in sys.argv:
    raise RuntimeError("the reference itself is broken")
sys.argv[0] = {real!r}
runpy.run_path({real!r}, run_name="__main__")
'''

ALWAYS_FOUR = textwrap.dedent('''
    total, turns = 4, 0
    print("Start:", total)
    while total < 10:
        k = int(input("Add? "))
        total += k
        turns += 1
        print("Now", total)
    print("Done in", turns, "turns")
''')


def test_a_reference_that_crashes_on_a_programs_start_fails_the_case_for_the_program(tally, grader, tmp_path):
    """What the harness cannot judge never helps the program: no expected transcript can be made
    from this start, so the case fails with that reason (a harness error would count nowhere)."""
    _, cases = tally
    project = tmp_path / "project"
    shutil.copytree(FIXTURE / "specs", project / "specs")
    folder = project / "specs" / "tally"
    (folder / "crashing.py").write_text(CRASHING_REFERENCE.format(real=str(folder / "tally.py")))
    spec_file = folder / "spec.yaml"
    spec_file.write_text(spec_file.read_text().replace("{spec}/tally.py", "{spec}/crashing.py"))
    spec = specs.load("tally", project)
    program = tmp_path / "always-four"
    program.mkdir()
    (program / "tally.py").write_text(ALWAYS_FOUR)
    result = grader.grade(spec, None, _only(cases, "add-two"), program)
    assert [c.status for c in result.cases] == [FAILED], result.cases[0].reason
    assert "the reference" in result.cases[0].reason and "cannot be graded and fails" in result.cases[0].reason
    assert result.status == "graded" and result.percent < 100.0


def test_a_long_tmpdir_still_starts_the_workers(harness_cli, tmp_path):
    """The workers' fork server listens on a socket under TMPDIR, and a socket's path cannot pass
    107 bytes: under a TMPDIR that long the harness puts that one socket elsewhere."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    done = harness_cli("run", "tally", SAMPLES / "correct", env={"HARNESS_ROOT": str(FIXTURE), "TMPDIR": str(deep)})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert list(deep.iterdir()) == []  # the runs' folders were made there and removed


def test_the_grading_tells_its_progress_case_by_case(tally, grader):
    """What the self-check service shows a student while the cases run: one call per case, the
    count rising to the number of cases (the extra runs of random starts are not cases)."""
    spec, cases = tally
    told = []
    result = grader.grade(spec, None, cases, SAMPLES / "correct", progress=lambda done, total: told.append((done, total)))
    assert sorted(told) == [(n, len(cases)) for n in range(1, len(cases) + 1)]
    assert result.total >= len(cases)


def test_check_keeps_its_report_out_of_the_submission_and_says_what_it_is_not(harness_cli, tmp_path):
    """Run inside the student's folder with no -o: the report goes to the student's cache, the
    folder is left as it was; the output says how many hidden cases the grading also runs (the
    fixture's cases marked hidden) and that this score is not the grade."""
    from harness.loading import cases as caseload
    from harness.reporting import selfcheck
    spec, milestone = specs.parse_game("tally", FIXTURE)
    everything = caseload.load_all(spec, milestone)
    hidden = sum(case.visibility == "hidden" for case in everything)
    assert 0 < hidden < len(everything)
    submission = tmp_path / "mine"
    shutil.copytree(SAMPLES / "correct", submission)
    cache = tmp_path / "cache"
    done = harness_cli("check", "tally", ".", cwd=submission,
                       env={"HARNESS_ROOT": str(FIXTURE), "XDG_CACHE_HOME": str(cache)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in submission.iterdir()) == ["tally.py"]
    assert f"{len(everything) - hidden}/{len(everything) - hidden} cases passed" in done.stdout
    assert f"{hidden} hidden case{'s are' if hidden != 1 else ' is'} not run here" in done.stdout
    assert selfcheck.NOT_THE_GRADE in done.stdout
    report = cache / "game-harness" / "check" / "check-tally" / "report.html"
    assert f"full report: {report}" in done.stdout and selfcheck.NOT_THE_GRADE in report.read_text(encoding="utf-8")


def test_check_in_a_copy_without_hidden_cases_says_the_grading_may_have_more(harness_cli, tally_project, tmp_path):
    for path in (tally_project / "cases" / "tally").glob("*.yaml"):
        if "visibility: hidden" in path.read_text(encoding="utf-8"):
            path.unlink()
    done = harness_cli("check", "tally", SAMPLES / "correct", "-o", tmp_path / "reports",
                       env={"HARNESS_ROOT": str(tally_project)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no hidden cases; the grading may run cases that are not here" in done.stdout
    assert (tmp_path / "reports" / "check-tally" / "report.html").is_file()


def test_a_bug_met_in_another_items_case_is_charged_to_the_item_it_breaks_and_said_so(tally, grader):
    """One mistake, one deduction: bug-crash dies on a word. end-cycle (an end case) types one
    between its additions, so it fails there, at a turn the spec's owners give to `illegal`:
    the end item keeps its points and the report says where the charge came from."""
    spec, cases = tally
    chosen = _only(cases, "end-cycle", "end-ones", "illegal-out-of-range")
    result = grader.grade(spec, None, chosen, SAMPLES / "bug-crash")
    by_name = {c.name: c for c in result.cases}
    words = [i for i, line in enumerate(by_name["end-cycle"].typed, 1) if not is_number(line)]
    assert by_name["end-cycle"].status == FAILED and by_name["end-cycle"].charged_to == "illegal"
    assert by_name["end-cycle"].reason.startswith(
        f"charged to `illegal`: the refused line after your {words[0]}"
        f"{ {1: 'st', 2: 'nd', 3: 'rd'}.get(words[0] % 10 if words[0] % 100 not in (11, 12, 13) else 0, 'th') } input in `end-cycle`")
    items = {i.id: i for i in result.items}
    assert items["end"].earned == items["end"].weight and items["end"].cases_gradable == 1
    assert items["illegal"].charged_failures == 1 and items["illegal"].charges == 0
    assert items["illegal"].earned == items["illegal"].weight / 2
