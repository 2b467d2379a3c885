"""Every report says what each case is worth of the total and how each item's score was reached:
the terminal, report.html, Gradescope's results.json and JUnit, from one real `harness grade` of
the fixture game (the correct sample, and bug-crash, whose end case fails at a refused line the
spec's owners give to `illegal`). The expected values are worked out here from the spec's
weights, the cases' points and what each sample is known to fail (tests/helpers.py's RULES and
CHARGED), never read from a run."""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from harness.reporting import exports, student
from harness.results import SubmissionResult
from harness.running import sandbox
from tests.helpers import CHARGED, FIXTURE, ROOT, RULES, SAMPLES

SAMPLES_GRADED = ("correct", "bug-crash")


def shown(value: float) -> str:
    """Points as the reports print them: two decimals at most, no trailing zero."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def expected(sample: str):
    """(each case's worth, the total, each graded item's (own cases, passed, charged from, values))
    by docs/scores.md: a failing case of another item that the sample's bug makes fail at the
    charged item's turn counts there as one failed point (bug-crash derails the game, so it
    counts nowhere else)."""
    spec, milestone = specs.parse_game("tally", FIXTURE)
    cases = caseload.load_all(spec, milestone)
    fails, _ = RULES[sample]
    failing = {c.name for c in cases if fails(spec, c)}
    owner = CHARGED.get(sample)
    moved = {c.name for c in cases if owner and c.name in failing and c.rubric != owner}
    worth, items = {}, {}
    for item in spec.rubric:
        if not item.graded:
            continue
        own = [c for c in cases if c.rubric == item.id and c.name not in moved]
        charged = [c for c in cases if c.name in moved and item.id == owner]
        units = sum(c.points for c in own) + len(charged)
        for case in own:
            worth[case.name] = item.points * case.points / units
        for case in charged:
            worth[case.name] = item.points / units
        sources = {}
        for case in charged:
            sources[case.rubric] = sources.get(case.rubric, 0) + 1
        items[item.id] = (len(own), sum(1 for c in own if c.name not in failing), sources,
                          [item.points * c.points / units for c in own] + [item.points / units] * len(charged))
    total = sum(item.points for item in spec.rubric if item.graded)
    return cases, worth, total, items, moved, owner


def account(own, passed, sources, values) -> str:
    said = [f"{passed} of {plural(own, 'case')} passed"]
    said += [f"{plural(n, 'failure')} charged here from `{source}`'s cases" for source, n in sources.items()]
    text = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
    distinct = sorted({shown(v) for v in values}, key=float)
    if len(values) == 1:
        return f"{text}, worth {distinct[0]}"
    if len(distinct) == 1:
        return f"{text}, each worth {distinct[0]}"
    return f"{text}, worth {distinct[0]} to {distinct[-1]} each (by their points)"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("points")
    for name in SAMPLES_GRADED:
        shutil.copytree(SAMPLES / name, root / "class" / name)
    unconfined = [] if sandbox.available() else ["--no-sandbox"]
    done = subprocess.run([sys.executable, "-m", "harness", "grade", "tally", str(root / "class"), "-o",
                           str(root / "out"), "-v", "--color", "never", *unconfined], cwd=ROOT,
                          env={**os.environ, "HARNESS_ROOT": str(FIXTURE)},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout, root / "out"


@pytest.mark.parametrize("sample", SAMPLES_GRADED)
def test_the_terminal_gives_each_case_its_worth_and_each_item_its_account(graded, sample):
    out, _ = graded
    cases, worth, total, items, moved, owner = expected(sample)
    block = next(part for part in re.split(r"(?m)^(?=Tally)", out) if f"/{sample}" in part.splitlines()[0])
    for case in cases:
        line = next(l for l in block.splitlines() if re.match(rf"\s+\S+ {re.escape(case.name)} \[{case.rubric}\]", l))
        assert f"worth {shown(worth[case.name])} of {shown(total)} points" in line, line
        if case.name in moved:
            assert f"counted in `{owner}` (a failure charged there)" in line
        assert ("(hidden: not shown to students)" in line) == (case.visibility == "hidden")
    spec, _ = specs.parse_game("tally", FIXTURE)
    for item in spec.rubric:
        if item.graded:
            assert f"[{item.id}]: {account(*items[item.id])}" in block, block
        else:
            assert f"[{item.id}] (graded by a person, {shown(item.points)} points)" in block


def test_bug_crash_s_illegal_line_counts_the_end_case_charged_to_it(graded):
    """The item of the brief's example: its own cases and a failure from another item's case,
    each worth the item's weight over all three."""
    out, _ = graded
    spec, _ = specs.parse_game("tally", FIXTURE)
    weight = next(i.points for i in spec.rubric if i.id == "illegal")
    own = [c for c in caseload.load_all(spec, None) if c.rubric == "illegal"]
    assert len(own) == 2 and all(c.points == 1 for c in own)
    assert f"[illegal]: 1 of 2 cases passed and 1 failure charged here from `end`'s cases, each worth {shown(weight / 3)}" in out


@pytest.mark.parametrize("sample", SAMPLES_GRADED)
def test_report_html_gives_each_case_its_worth_and_each_item_its_account(graded, sample):
    _, folder = graded
    text = (folder / sample / "report.html").read_text(encoding="utf-8")
    cases, worth, total, items, moved, owner = expected(sample)
    for case in cases:
        summary = re.search(rf'<details class="case" id="{re.escape(case.name)}".*?</summary>', text, re.S)[0]
        assert f'<span class="worth">worth {shown(worth[case.name])} of {shown(total)} points' in summary
        assert "1 pt" not in summary
    rubric = text.split('<table class="rubric">')[1].split("</table>")[0]
    for item, parts in items.items():
        as_html = re.sub(r"`([^`]+)`", r"<code>\1</code>", account(*parts)).replace("'", "&#39;")
        assert f"<td>{as_html}</td>" in rubric, rubric  # an item's id in the sentence is shown as code


@pytest.mark.parametrize("sample", SAMPLES_GRADED)
def test_gradescope_and_junit_give_each_case_its_worth(graded, sample):
    _, folder = graded
    cases, worth, total, _, _, _ = expected(sample)
    results = json.loads((folder / sample / "results.json").read_text(encoding="utf-8"))
    tests = {t["name"].split(" ")[0]: t for t in results["tests"]}
    suite = ET.fromstring((folder / sample / "junit.xml").read_text(encoding="utf-8"))
    junit = {tc.get("name"): "".join(tc.itertext()) + "".join(c.get("message", "") for c in tc) for tc in suite.iter("testcase")}
    for case in cases:
        assert tests[case.name]["max_score"] == pytest.approx(worth[case.name], abs=1e-4)
        sentence = f"worth {shown(worth[case.name])} of {shown(total)} points"
        assert f"This case: {sentence}" in tests[case.name]["output"]
        assert sentence in junit[case.name]
    # a case is hidden: no item's account in what the student reads first (it would count its passes)
    assert "cases passed," not in results["output"] and "each worth" not in results["output"]


def test_gradescope_s_summary_gives_each_item_its_account_when_no_case_is_hidden(graded):
    """The student's copy of a result (public cases only) has no hidden case: Gradescope's summary
    then says how each item's score was reached."""
    _, folder = graded
    result = SubmissionResult.from_json(json.loads((folder / "bug-crash" / "result.json").read_text(encoding="utf-8")))
    public = student.public(result)
    summary = exports.gradescope(public)["output"]
    spec, _ = specs.parse_game("tally", FIXTURE)
    cases = [c for c in caseload.load_all(spec, None) if c.visibility == "public"]
    weight = next(i.points for i in spec.rubric if i.id == "illegal")
    own = [c for c in cases if c.rubric == "illegal"]
    assert len(own) == 1
    # the public illegal case passes; end-cycle's failure is charged here: each of the two is worth half
    assert (f"illegal {shown(weight / 2)}/{shown(weight)}: 1 of 1 case passed and 1 failure charged here from "
            f"`end`'s cases, each worth {shown(weight / 2)}") in summary


def test_result_json_loads_back_to_the_same_explanation(graded):
    """The explanation is worked out again from result.json: what it says adds up to the stored values."""
    from harness.grading import scoring
    _, folder = graded
    for sample in SAMPLES_GRADED:
        result = SubmissionResult.from_json(json.loads((folder / sample / "result.json").read_text(encoding="utf-8")))
        explained = scoring.explain(result)
        for case in result.cases:
            assert explained.worth(case).value == pytest.approx(case.value, abs=1e-4)
            assert explained.worth(case).earned == pytest.approx(case.earned, abs=1e-4)
        for item in result.items:
            assert sum(explained.account(item).values) == pytest.approx(item.weight if item.counted else 0, abs=1e-4)
