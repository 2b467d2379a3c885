"""Mutants run: which are drawn for a sample, each case's reach traced on the unmutated
reference, and each mutant graded by the harness's own Grader on the cases that reach its lines."""
import random
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness.building import build as builder
from harness.building import reference as built_reference
from harness.errors import InputError
from harness.grading import submission as grading
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE, Status
from harness.suite import mutants
from harness.suite.audit_reference import (copy_command, copy_of, ready_build, resolve, seeded, sources_of,
                                           traced_command)
from harness.suite.audit_results import MutantResult, MutantStatus


def own_item(mutant: mutants.Mutant, reach: dict[str, set[int]], by_item: dict[str, list[str]]) -> str | None:
    """The graded item a mutant stands for, read from the reach alone (never from what killed
    it): the item the largest share of whose cases execute its lines (an item's own code runs in
    all its cases; shared code in every item's, and a big item's many cases must not outvote a
    small item's all), then the item whose cases make up most of the reaching ones, then the
    rubric's order; None when no graded item's case reaches it."""
    reaching = {c for cases in by_item.values() for c in cases if reach.get(c, set()).intersection(mutant.lines)}
    best, key = None, None
    for order, (item, cases) in enumerate(by_item.items()):
        hit = sum(1 for c in cases if c in reaching)
        candidate = (-hit / len(cases), -hit / len(reaching), order) if hit else None
        if candidate and (key is None or candidate < key):
            best, key = item, candidate
    return best


def choose(found: list[mutants.Mutant], reach: dict[str, set[int]], by_item: dict[str, list[str]],
           size: int | None, seed: int) -> list[tuple[mutants.Mutant, str | None]]:
    """All mutants, or a sample of `size`: drawn in turn for each graded item among the mutants
    its cases reach, those the fewest cases reach first (the item's own code), then among all,
    so a small sample still tries every item; the same seed gives the same sample. Each comes
    with the item it stands for (`own_item`: the pool it was drawn from may be a neighbour's when
    an item's own code runs out), whose loss the audit's recall and collateral measure."""
    if size is None or size >= len(found):
        return [(m, own_item(m, reach, by_item)) for m in found]
    rng = random.Random(seed)
    reached = {m.id: sum(1 for lines in reach.values() if lines.intersection(m.lines)) for m in found}
    pools = []
    for cases in by_item.values():
        lines = set().union(*(reach.get(c, set()) for c in cases)) if cases else set()
        pool = [m for m in found if lines.intersection(m.lines)]
        rng.shuffle(pool)
        # the item's own code first: the mutants fewest cases reach (drawn from the end)
        pool.sort(key=lambda m: reached[m.id], reverse=True)
        pools.append(pool)
    rest = list(found)
    rng.shuffle(rest)
    pools.append(rest)
    chosen: dict[str, tuple[mutants.Mutant, str | None]] = {}
    while len(chosen) < size:
        for pool in pools:
            while pool and pool[-1].id in chosen:
                pool.pop()
            if pool and len(chosen) < size:
                mutant = pool.pop()
                chosen[mutant.id] = (mutant, own_item(mutant, reach, by_item))
    return sorted(chosen.values(), key=lambda pair: found.index(pair[0]))


def _killer(status: Status) -> bool:
    return status in (FAILED, UNGRADABLE)


class Auditor:
    """One audit: the reference resolved, its mutants made, every case's reach traced."""

    def __init__(self, spec: Spec, milestones: list[str | None], cases: list[Case], grader: grading.Grader,
                 scratch: Path):
        self.spec, self.cases = seeded(spec, cases)
        self.original = spec
        self.milestones = milestones
        self.grader = grader
        self.scratch = scratch
        self._counter = 0
        self._lock = threading.Lock()
        self._locate(spec)

    def _locate(self, spec: Spec) -> None:
        self.reference = resolve(spec)

    def scratch_folder(self) -> Path:
        with self._lock:
            self._counter += 1
            folder = self.scratch / f"m{self._counter}"
        folder.mkdir()
        return folder

    def _groups(self, cases: list[Case]) -> dict[str | None, list[Case]]:
        groups: dict[str | None, list[Case]] = {}
        for case in cases:
            groups.setdefault(case.milestone, []).append(case)
        return groups

    def reach(self) -> dict[str, set[int]]:
        """The lines of the reference module each case executes, from one traced run of the
        unmutated copy per case; a case that fails on it stops the audit (its expectation is stale)."""
        copy = copy_of(self.reference, self.scratch_folder())
        traces = self.scratch / "traces"
        traces.mkdir()

        def one(case: Case):
            out = traces / f"{case.name}.lines"
            run = traced_command(copy_command(self.spec, self.reference, case.milestone, case.target, copy),
                                 self.reference, copy, out)
            build = ready_build(case.target, copy, run)
            result = self.grader.grade(self.spec, case.milestone, [case], copy, {case.target: build})
            lines = set()
            if out.is_file():
                lines = {int(x) for x in out.read_text(encoding="utf-8").split()}
            return case, result.cases[0], lines

        with ThreadPoolExecutor(max_workers=self.grader.jobs) as pool:
            done = list(pool.map(one, self.cases))
        for case, result, _ in done:
            if result.status != PASSED:
                raise InputError(f"fails on the unmutated reference ({result.reason or result.status}), so it cannot "
                                 "judge mutants; run `harness regen` on it", case.path, 1)
        return {case.name: lines for case, _, lines in done}

    def run(self, mutant: mutants.Mutant, reach: dict[str, set[int]], every_case: bool = False,
            drawn_for: str | None = None) -> MutantResult:
        """Grade one mutant on the cases that reach the lines it changed: first one case of each
        rubric item, then the other cases of the items that have not killed it yet (an item's
        verdict needs one killer); `every_case` runs them all, for the complete list of killers."""
        started = time.monotonic()
        hit = [c for c in self.cases if reach.get(c.name, set()).intersection(mutant.lines)]
        if not hit:
            return MutantResult(mutant, MutantStatus.NOT_REACHED, drawn_for=drawn_for)
        folder = self.scratch_folder()
        result = MutantResult(mutant, MutantStatus.SURVIVED, drawn_for=drawn_for)
        by_item: dict[str, list[Case]] = {}
        for case in hit:
            by_item.setdefault(case.rubric, []).append(case)
        try:
            try:
                copy, spec = self._prepare(mutant, folder)
            except InputError as problem:  # it does not compile: no program to grade
                result.status, result.reason = MutantStatus.NOT_VIABLE, problem.message
                result.seconds = round(time.monotonic() - started, 3)
                return result
            if every_case:
                self.grade(copy, hit, result, spec)
            else:
                self.grade(copy, [cases[0] for cases in by_item.values()], result, spec)
                killed = set(result.killed_by)
                # an item whose case failed but was charged to another item's turn has not lost it yet:
                # its other cases run too, so the items a mutant loses are all of them
                self.grade(copy, [c for item, cases in by_item.items()
                                  if not killed.intersection(x.name for x in cases) or item not in result.lost
                                  for c in cases[1:]], result, spec)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        result.status = (MutantStatus.KILLED if result.killed_by else MutantStatus.ERROR if result.errors
                         else MutantStatus.SURVIVED)
        result.skipped = len(hit) - len(result.ran)
        result.seconds = round(time.monotonic() - started, 3)
        return result

    def _prepare(self, mutant: mutants.Mutant, folder: Path) -> tuple[Path, Spec]:
        """The mutant's copy in `folder`, and the spec whose reference command runs it."""
        return copy_of(self.reference, folder, mutant.source), self.spec

    def _builds(self, copy: Path, spec: Spec, milestone: str | None, group: list[Case]) -> dict[str, builder.Build]:
        return {c.target: ready_build(c.target, copy, copy_command(spec, self.reference, milestone, c.target, copy))
                for c in group}

    def grade(self, copy: Path, cases: list[Case], result: MutantResult, spec: Spec | None = None) -> None:
        for milestone, group in self._groups(cases).items():
            builds = self._builds(copy, spec or self.spec, milestone, group)
            graded = self.grader.grade(self.spec, milestone, group, copy, builds)
            result.lost += [i.id for i in graded.items if i.graded and i.counted and i.earned < i.weight
                            and i.id not in result.lost]
            for case in graded.cases:
                result.ran.append(case.name)
                if _killer(case.status):
                    result.killed_by.append(case.name)
                elif case.accepted:  # caught but for the case's accepted alternatives
                    result.let_through += [f"{case.name}, {entry}" for entry in case.accepted]
                elif case.status == HARNESS_ERROR:
                    result.errors.append(case.name)


class CompiledAuditor(Auditor):
    """The audit of a reference built from a recipe: its mutants are built as it is, and with no
    tracer every case reaches every mutant."""

    def _locate(self, spec: Spec) -> None:
        self.sources = sources_of(spec)

    def reach(self) -> dict[str, set[int]]:
        """Every line for every case, after one run of each case on the unmutated build: a case
        that fails on it stops the audit (its expectation is stale)."""
        longest = 1
        for name in self.sources.mutated:
            longest = max(longest, len((self.sources.folder / name).read_text(encoding="utf-8").splitlines()))

        copy = self.sources.copy(self.scratch_folder())

        def one(case: Case):
            build = ready_build(case.target, copy, self.spec.reference_command(case.milestone, case.target, []),
                           self.sources.language)
            return case, self.grader.grade(self.spec, case.milestone, [case], copy, {case.target: build}).cases[0]

        with ThreadPoolExecutor(max_workers=self.grader.jobs) as pool:
            done = list(pool.map(one, self.cases))
        for case, result in done:
            if result.status != PASSED:
                raise InputError(f"fails on the unmutated reference ({result.reason or result.status}), so it cannot "
                                 "judge mutants; run `harness regen` on it", case.path, 1)
        everything = set(range(1, longest + 1))
        return {case.name: everything for case in self.cases}

    def _prepare(self, mutant: mutants.Mutant, folder: Path) -> tuple[Path, Spec]:
        """The recipe's files with the mutant's one changed, built with the recipe (InputError:
        it does not compile)."""
        copy = self.sources.copy(folder, mutant)
        return copy, built_reference.prepared(self.spec, copy, self.grader.settings)

    def _builds(self, copy: Path, spec: Spec, milestone: str | None, group: list[Case]) -> dict[str, builder.Build]:
        return {c.target: ready_build(c.target, copy, spec.reference_command(milestone, c.target, []),
                                      self.sources.language)
                for c in group}
