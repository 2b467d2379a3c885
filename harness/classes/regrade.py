"""A class graded again after a case, an acceptance, the spec or the reference changed: only
what the change can touch is run again, and what changed is written down.

A report folder's `.harness-hash` records what it was graded from, part by part (`resume`):
everything but the cases (the spec, the references, the harness), the submission's files, and
each case's file with its acceptances apart. When the submission and everything but the cases
are unchanged, a submission is run again only on the cases that changed:
- a case whose file changed (inputs, expected transcript, points...), or a new case: run again;
- a case whose only change is a new acceptance: run again only where it failed (an acceptance
  lets more pass; it cannot fail what passed); an acceptance taken back: run again everywhere;
- a case removed: dropped.
Its other cases are kept from its report, and the whole is scored again. A submission whose
build failed or whose files were missing runs nothing: a case change cannot touch it.

The delta (`delta.csv`, the class page, the count on the terminal) is each submission whose
grade moved, and nothing else: by how much, in which items, because of which case and turn."""
import dataclasses
import io
from dataclasses import dataclass, field
from pathlib import Path

from harness import atomic, csv_cells
from harness.classes import resume
from harness.csv_cells import Figure
from harness.grading import scoring
from harness.judging.differences import place
from harness.loading.cases import Case
from harness.results import HARNESS_ERROR, PASSED, CaseResult, Origin, SubmissionResult, Verdict
from harness.safe_text import cap, one_line, visible

EPSILON = 1e-6


@dataclass(frozen=True)
class Plan:
    """How a submission with a report on disk is graded again."""
    previous: SubmissionResult
    run: list[str]  # the cases to run again (in class order); the others are kept
    dropped: list[str] = field(default_factory=list)  # cases the report has that are gone

    @property
    def keeps_all(self) -> bool:
        return not self.run and not self.dropped


def plan(folder: Path, common: resume.Inputs, submission: str, cases: list[Case]) -> Plan | None:
    """What of `folder`'s report a regrade can keep, or None when it must be graded whole (no
    report, or its submission or anything but the cases changed)."""
    record = resume.stored(folder)
    if record is None or not record.base or record.base != common.base or record.submission != submission:
        return None
    previous = resume.stored_result(folder)
    if previous is None:
        return None
    had = {case.name: case for case in previous.cases if case.origin == Origin.CASE}  # a check is no case
    names = [case.name for case in cases]
    dropped = [name for name in had if name not in names]
    if previous.status in (Verdict.BUILD_FAILED, Verdict.MISSING_FILES):
        # nothing ran and nothing will: a case change cannot touch it, but its list of cases is the class's
        return Plan(previous, [], dropped) if not [n for n in names if n not in had] else None
    run = []
    for name in names:
        before = had.get(name)
        if before is None or record.cases.get(name) != common.cases[name] or before.status == HARNESS_ERROR:
            run.append(name)
            continue
        old, new = record.accepted.get(name, []), common.accepted.get(name, [])
        if old == new:
            continue
        if all(entry in new for entry in old):  # acceptances added: only a failure can change
            if before.status != PASSED:
                run.append(name)
        else:
            run.append(name)
    return Plan(previous, run, dropped)


def merged(spec, milestone: str | None, cases: list[Case], previous: SubmissionResult,
           fresh: SubmissionResult) -> SubmissionResult:
    """The cases run again (`fresh`) in place of their old results, the rest kept, scored whole.
    A check the grading added beside the cases (the law of the random starts: `Origin`) is the
    fresh grading's when it made one again (it ran the check's case), else the old one, kept: a
    regrade never drops what a check took from the grade."""
    if fresh.status in (Verdict.BUILD_FAILED, Verdict.MISSING_FILES):
        return fresh  # it no longer builds: nothing of the old report stands
    new = {case.name: case for case in fresh.cases if case.origin == Origin.CASE}
    old = {case.name: case for case in previous.cases if case.origin == Origin.CASE}
    together = [new.get(case.name) or old[case.name] for case in cases]
    checks = {check.origin: check for check in previous.cases if check.origin != Origin.CASE}
    checks.update({check.origin: check for check in fresh.cases if check.origin != Origin.CASE})
    together += checks.values()
    status = Verdict.HARNESS_ERROR if any(c.status == HARNESS_ERROR for c in together) else Verdict.GRADED
    return dataclasses.replace(scoring.scored(fresh, scoring.score(spec, spec.items(milestone), together)), status=status)


# --- the delta ------------------------------------------------------------------------------

@dataclass
class CaseChange:
    case: str
    rubric: str
    before: str  # passed | failed | ... | "new"
    after: str  # ... | "removed"
    where: str  # the turn that decides it now (or before, for a case that now passes)


@dataclass
class Change:
    name: str
    before: float  # percent
    after: float
    earned_before: float
    earned_after: float
    possible: float
    items: list[tuple[str, float, float]]  # (item, earned before, earned after)
    cases: list[CaseChange]

    @property
    def points(self) -> float:
        return self.earned_after - self.earned_before


def _where(case: CaseResult | None) -> str:
    if case is None or case.status == PASSED:
        return ""
    if case.first_divergence is not None and case.turns:
        turn = case.turns[min(case.first_divergence, len(case.turns) - 1)]
        return place(turn.index, turn.typed)
    return one_line(cap(case.reason, 120))


def change(before: SubmissionResult, after: SubmissionResult) -> Change | None:
    """How `after` differs from `before` for one submission, or None when its grade did not move
    (its points, percent and status the same): a case whose points changed while every student's
    verdict and total stayed is no change to them. A moved grade lists the items that moved and
    the cases that moved it: a verdict that changed, or the same verdict now worth other points."""
    moved = (abs(before.earned - after.earned) >= EPSILON or abs(before.percent - after.percent) >= EPSILON
             or before.status != after.status)
    if not moved:
        return None
    old = {c.name: c for c in before.cases}
    new = {c.name: c for c in after.cases}
    cases = []
    for name in list(new) + [n for n in old if n not in new]:
        a, b = old.get(name), new.get(name)
        if a is not None and b is not None and abs(a.earned - b.earned) < EPSILON and a.status == b.status:
            continue
        if a is not None and b is not None and a.status == b.status:  # the same verdict, other points
            cases.append(CaseChange(name, b.rubric, str(a.status), f"{b.status} ({a.earned:.2f}->{b.earned:.2f} points)",
                                    ""))
            continue
        cases.append(CaseChange(name, (b or a).rubric, str(a.status) if a else "new", str(b.status) if b else "removed",
                                _where(b) or _where(a)))
    was = {i.id: i.earned for i in before.items}
    items = [(i.id, was.get(i.id, 0.0), i.earned) for i in after.items
             if abs(was.get(i.id, 0.0) - i.earned) >= EPSILON]
    return Change(after.name, before.percent, after.percent, before.earned, after.earned, after.possible, items, cases)


def delta_csv(changes: list[Change]) -> str:
    """One row per submission whose grade moved: before, after, change, the items and the cases."""
    out = io.StringIO()
    writer = csv_cells.Writer(out)  # text cells never formulas; the numbers stay numbers (-2.50)
    writer.writerow(["student", "before_percent", "after_percent", "points_before", "points_after", "points_change",
                     "items", "cases"])
    for c in changes:
        writer.writerow([c.name, Figure(c.before, ".2f"), Figure(c.after, ".2f"), Figure(c.earned_before, ".2f"),
                         Figure(c.earned_after, ".2f"), Figure(c.points, "+.2f"),
                         "; ".join(f"{item} {a:.2f}->{b:.2f}" for item, a, b in c.items),
                         "; ".join(f"{k.case} {k.before}->{k.after}" + (f" ({k.where})" if k.where else "")
                                   for k in c.cases)])
    return out.getvalue()


def write_delta(changes: list[Change], path: Path) -> Path:
    return atomic.write_text(path, delta_csv(changes))
