"""Grading the bundled sample submissions gives exactly what each sample's bug deserves.

`examples/<game>/expected.yaml` says, per sample, which milestone it is graded on and which
cases must fail (nothing else may, but for `may_fail` cases whose outcome a random draw
decides): a correct sample scores 100 %, and a seeded-bug sample loses exactly the rubric
items of its failing cases (plus `also_loses`, items lost through runs that could not be
graded). A sample may instead give `loses`, exactly the rubric items it must lose (none: it
must score 100 %), whatever cases a suite uses to show it; `build_fails` (true, or a list of
target ids) says the build must fail and every case of those targets be reported "not run:";
`intake_only` marks a correct program handed in another way (a package layout, a zip, a BOM,
a name in another letter case): it is graded on the first case of every rubric item and target,
which is enough to show it is found, built and run as it should (its game is the correct
sample's, graded in full).
Real builds, real runs.
"""
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from harness import cases as caseload
from harness import grading
from harness import spec as specs

ROOT = Path(__file__).resolve().parent.parent


def _samples():
    for expected in sorted(ROOT.glob("examples/*/expected.yaml")):
        data = yaml.safe_load(expected.read_text(encoding="utf-8"))
        for name, want in data["samples"].items():
            yield pytest.param(expected.parent.name, name, want, id=f"{expected.parent.name}/{name}")


def _grade(grader, game: str, sample: str, want: dict):
    spec, milestone = specs.parse_game(f"{game}:{want['milestone']}" if want.get("milestone") else game)
    found = caseload.load_all(spec, milestone)
    if want.get("intake_only"):
        firsts = {}
        for case in found:
            firsts.setdefault((case.rubric, case.target), case)
        found = list(firsts.values())
    return spec, found, grader.grade(spec, milestone, found, ROOT / "examples" / game / sample)


@pytest.fixture(scope="module")
def graded(request):
    """Every sample this run selected, graded side by side as a class is (one shared pool), so
    the workers never wait on one sample's last case; each test takes its own result."""
    chosen = [item.callspec.params for item in request.session.items
              if item.module is request.module and hasattr(item, "callspec")]
    with grading.Grader() as grader, ThreadPoolExecutor(max_workers=grader.jobs) as side_by_side:
        futures = {(p["game"], p["sample"]): side_by_side.submit(_grade, grader, p["game"], p["sample"], p["want"])
                   for p in chosen}
        try:
            yield lambda game, sample: futures[(game, sample)].result()
        finally:
            for future in futures.values():
                future.cancel()


@pytest.mark.parametrize("game, sample, want", list(_samples()))
def test_sample_loses_exactly_what_its_bug_touches(game, sample, want, graded):
    spec, found, result = graded(game, sample)
    score = result
    failed = {c.name for c in result.cases if c.status == "failed"}
    reasons = {c.name: c.reason for c in result.cases if c.status == "failed"}
    lost = {item.id for item in result.items if item.graded and item.counted and item.earned < item.weight - 1e-9}
    by_name = {c.name: c for c in found}
    rubric_of = {c.name: c.rubric for c in result.cases}  # the cases and the grading's own checks
    if want.get("build_fails"):
        targets = want["build_fails"] if isinstance(want["build_fails"], list) else list(spec.targets)
        unbuilt = [c for c in result.cases if by_name[c.name].target in targets]
        assert unbuilt and all(c.status == "failed" and c.reason.startswith("not run:") for c in unbuilt), \
            {c.name: (c.status, c.reason) for c in unbuilt}
    if "loses" in want:
        assert lost == set(want["loses"] or []), reasons
        if not want["loses"]:
            assert score.percent == pytest.approx(100.0)
    else:
        must, may = set(want.get("fails", [])), set(want.get("may_fail", []))
        assert must <= failed <= must | may, reasons
        assert lost == {rubric_of[name] for name in failed} | set(want.get("also_loses", []))
        if not want.get("fails") and not want.get("also_loses"):
            assert score.percent == pytest.approx(100.0)
    ungradable = {c.name for c in result.cases if c.status == "ungradable"}
    if "ungradable" not in want:
        assert not ungradable
    elif isinstance(want["ungradable"], list):  # a deterministic program: exactly these
        assert ungradable == set(want["ungradable"])
