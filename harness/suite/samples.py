"""A game's sample submissions grade as its `examples/<game>/expected.yaml` says.

The samples of a game (correct programs, seeded bugs, the liberties real students take) are the
evidence that its spec and cases are fair: a correct program scores 100 %, a seeded bug loses
exactly the rubric items it touches, a liberty the handout allows costs nothing. After changing
a game's spec, cases or reference, `harness samples GAME` grades every sample side by side and
says, per sample, whether it got what expected.yaml promises, and if not, what differs.

An entry says which milestone the sample is graded on and either `fails` (every case that must
fail; nothing else may, but for `may_fail` cases a random draw decides; the items lost are
those cases' items plus `also_loses`) or `loses` (exactly the items it must lose, whatever cases
show it). `build_fails` (true, or target ids): the build must fail and every case of those
targets be reported "not run:". `ungradable`: absent, no case may end not gradable; a list,
exactly those; "allowed", any. `intake_only`: a correct program handed in another way (a
package layout, a zip, a BOM, a name in another letter case) is graded on the first case of
every rubric item and target, enough to show it is found, built and run as it should.
"""
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path

from harness.loading import cases as caseload
from harness.starts import law as distribution
from harness.grading import submission as grading
from harness.building import intake
from harness.loading import paths
from harness.loading import schema
from harness.loading import yamlfile
from harness.loading.cases import Case
from harness.errors import InputError
from harness.results import FAILED, UNGRADABLE, Cause, SubmissionResult
from harness.loading.spec import Spec

_LOST = 1e-9  # an item is lost when it earned less than its weight by more than rounding


@dataclass(frozen=True)
class Expectation:
    """One sample's entry of expected.yaml."""
    name: str
    milestone: str | None
    fails: frozenset[str] = frozenset()
    may_fail: frozenset[str] = frozenset()
    also_loses: frozenset[str] = frozenset()
    loses: frozenset[str] | None = None  # None: judged by `fails`
    build_fails: frozenset[str] = frozenset()  # target ids
    ungradable: frozenset[str] | None = frozenset()  # None: any number allowed
    intake_only: bool = False

    @property
    def full_marks(self) -> bool:
        """Nothing is to be lost: the sample must score 100 %."""
        return not (self.loses if self.loses is not None else self.fails | self.also_loses)


@dataclass
class SampleVerdict:
    """Whether one sample got what its entry promises; `problems` says what differs."""
    sample: str
    percent: float
    lost: list[str]
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def folder(spec: Spec) -> Path:
    return paths.root_of(spec.folder) / "examples" / spec.game


def load(spec: Spec) -> list[Expectation]:
    """Every entry of the game's expected.yaml, checked against the spec and its cases: a name
    that is not a case, an item, a target, a milestone or a sample folder stops everything
    at its line, before anything is graded on a wrong basis."""
    path = folder(spec) / "expected.yaml"
    if not path.is_file():
        raise InputError(f"no expected.yaml for {spec.game}; write one in {folder(spec)} "
                         "(samples: {NAME: {fails: [...]}}, see docs/adding-a-game.md)", path)
    doc = yamlfile.load(path)
    schema.validate(doc, "samples.schema.json")
    items = {item.id for item in spec.rubric}
    found: dict[str | None, set[str]] = {}
    entries = []
    for name, want in doc.data["samples"].items():
        def fail(message, *keys):
            raise InputError(f"samples/{name}: {message}", path, doc.line_of(["samples", name, *keys]))

        if not (folder(spec) / name).exists():
            fail(f"no sample folder {folder(spec) / name}; add it or remove the entry")
        milestone = want.get("milestone") or (list(spec.milestones)[-1] if spec.milestones else None)
        if milestone is not None and milestone not in spec.milestones:
            known = f"use one of: {', '.join(spec.milestones)}" if spec.milestones else "remove the key"
            fail(f"{spec.game} has no milestone {milestone!r}; {known}", "milestone")
        if milestone not in found:
            found[milestone] = {c.name for c in caseload.load_all(spec, milestone)} | _checks(spec)
        for key in ("fails", "may_fail", "ungradable"):
            listed = want.get(key)
            unknown = sorted(set(listed) - found[milestone]) if isinstance(listed, list) else []
            if unknown:
                fail(f"{key}: no case {unknown[0]!r} in cases/{spec.game}/ for this milestone; check its name", key)
        for key in ("also_loses", "loses"):
            unknown = sorted(set(want.get(key) or []) - items)
            if unknown:
                fail(f"{key}: no rubric item {unknown[0]!r}; use one of: {', '.join(sorted(items))}", key)
        build_fails = want.get("build_fails")
        targets = list(spec.targets) if build_fails is True else build_fails or []
        unknown = sorted(set(targets) - set(spec.targets))
        if unknown:
            fail(f"build_fails: no target {unknown[0]!r}; use one of: {', '.join(spec.targets)}", "build_fails")
        ungradable = want.get("ungradable")
        entries.append(Expectation(
            name, milestone, frozenset(want.get("fails", [])), frozenset(want.get("may_fail", [])),
            frozenset(want.get("also_loses", [])), frozenset(want["loses"] or []) if "loses" in want else None,
            frozenset(targets), None if ungradable == "allowed" else frozenset(ungradable or []),
            bool(want.get("intake_only"))))
    return entries


def unlisted(spec: Spec, expectations: list[Expectation]) -> list[str]:
    """Sample folders expected.yaml has no entry for: nothing says what they must get."""
    listed = {e.name for e in expectations}
    return sorted(p.name for p in folder(spec).iterdir() if p.name not in listed and not p.name.startswith(".")
                  and (p.is_dir() or intake.is_archive(p)))


def _checks(spec: Spec) -> set[str]:
    """The names of the grading's own checks (of the random setup's law), which an entry may list."""
    return {distribution.CHECK_NAME} if (spec.random_start.law if spec.random_start else None) else set()


def cases_for(expectation: Expectation, found: list[Case]) -> list[Case]:
    """The cases a sample is graded on: all of them, or for `intake_only` the first of every
    rubric item and target."""
    if not expectation.intake_only:
        return found
    firsts: dict[tuple[str, str], Case] = {}
    for case in found:
        firsts.setdefault((case.rubric, case.target), case)
    return list(firsts.values())


def judge(expectation: Expectation, found: list[Case], result: SubmissionResult) -> SampleVerdict:
    """What differs between the grading and the entry, each as one line for a person."""
    failed = {c.name: c for c in result.cases if c.status == FAILED}
    lost = sorted(i.id for i in result.items if i.graded and i.counted and i.earned < i.weight - _LOST)
    verdict = SampleVerdict(expectation.name, result.percent, lost)
    problems = verdict.problems
    target_of = {c.name: c.target for c in found}
    unbuilt = [c for c in result.cases if target_of.get(c.name) in expectation.build_fails]
    if expectation.build_fails and not unbuilt:
        problems.append(f"no case of {', '.join(sorted(expectation.build_fails))} was graded to show the failed build")
    for case in unbuilt:
        if case.status != FAILED or case.cause != Cause.NOT_BUILT:
            problems.append(f"{case.name}: expected not run (a failed build), got {case.status}: {case.reason or 'no reason'}")
            break
    if expectation.loses is not None:
        if set(lost) != expectation.loses:
            problems.append(_items_differ(lost, expectation.loses))
    else:
        for name in sorted(expectation.fails - set(failed)):
            problems.append(f"{name}: passed or was not graded; expected.yaml says it fails")
        for name in sorted(set(failed) - expectation.fails - expectation.may_fail):
            problems.append(f"{name}: failed, and expected.yaml does not list it: {failed[name].reason}")
        promised = {failed[name].charged_to or failed[name].rubric for name in failed} | expectation.also_loses
        if set(lost) != promised:
            problems.append(_items_differ(lost, promised))
    if not problems and expectation.full_marks and result.possible and result.percent != 100.0:
        problems.append(f"scored {result.percent:g} %, expected 100 %")
    ungradable = {c.name for c in result.cases if c.status == UNGRADABLE}
    if expectation.ungradable is not None and ungradable != expectation.ungradable:
        shown = ", ".join(sorted(ungradable)) or "none"
        problems.append(f"cases not gradable: {shown}; expected: {', '.join(sorted(expectation.ungradable)) or 'none'}")
    return verdict


def _items_differ(lost, promised) -> str:
    return f"lost {', '.join(lost) or 'nothing'}; expected to lose {', '.join(sorted(promised)) or 'nothing'}"


def check(chosen: list[tuple[Spec, Expectation]], grader: grading.Grader, side_by_side: Executor,
          on_verdict=None) -> list[SampleVerdict]:
    """Grade every chosen sample (of one game or several) side by side on one pool of case
    workers, so none waits on one sample's last case, and judge each; `on_verdict(spec,
    verdict)` hears each verdict in the order given, as soon as it is known. Whatever is not
    yet graded is cancelled if this stops (Ctrl-C)."""
    def graded(spec: Spec, expectation: Expectation) -> SampleVerdict:
        try:
            found = cases_for(expectation, caseload.load_all(spec, expectation.milestone))
            result = grader.grade(spec, expectation.milestone, found, folder(spec) / expectation.name)
            return judge(expectation, found, result)
        except Exception as problem:  # the harness failed on this sample: its verdict says so, the rest go on
            return SampleVerdict(expectation.name, 0.0, [], [f"the harness failed on this sample: {problem!r}"])

    futures = [side_by_side.submit(graded, spec, e) for spec, e in chosen]
    verdicts = []
    try:
        for (spec, _), future in zip(chosen, futures):
            verdicts.append(future.result())
            if on_verdict:
                on_verdict(spec, verdicts[-1])
    finally:
        for future in futures:
            future.cancel()
    return verdicts


def line(verdict: SampleVerdict, width: int) -> str:
    """One line per sample: as expected, or not, with its score and the items it lost."""
    mark = "ok  " if verdict.ok else "FAIL"
    lost = f"loses {', '.join(verdict.lost)}" if verdict.lost else "loses nothing"
    return f"  {mark} {verdict.sample:<{width}}  {verdict.percent:6.2f} %  {lost}"
