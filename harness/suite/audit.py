"""`harness audit GAME`: is the case suite able to tell a wrong program from the right one?

Each mutant of the reference (`harness/suite/mutants.py`) is graded as if it were a submission: a
temporary copy of the reference's package (or script folder) with the one module replaced,
run with the spec's own reference command as a ready program, by the harness's own Grader on
the game's cases. A case kills a mutant when it fails (or cannot be graded) on it; a mutant
no case kills survives. The unmutated reference stays what the expected transcripts come from.

Two things keep it fast and its verdicts the same on every run:
- a mutant is handed each case's seed exactly as the reference was when its expected
  transcript was made (the spec's `seed_option`, or the random start's fixed seed), so it
  draws the same start;
- the unmutated copy is first run on every case under a line tracer (`linetrace.py`); a mutant
  is then run only on the cases that execute a line it changed: on every other case it does
  exactly what the reference did (the runs are deterministic), so those cases pass. A mutant
  no case reaches survives without being run;
- an item's verdict on a mutant needs one killing case: a mutant runs one case of each item
  first, then the rest of the items not yet killing it (`every_case` runs all, for the
  complete list of killers).

Then each survivor is explained (`explain`): a differential search runs the reference and the
mutant, inside worker processes (`linetrace.execute`: no terminal, thousands of runs a minute),
on input sequences grown from the cases' own inputs (legal and illegal moves the reference was
typed, their variants, windows of other cases, cuts and splices; seeded, so the same on every
run). The first sequence whose output differs is shrunk, then typed through a terminal as a
case of each graded item: the items whose comparison it fails are the ones a case would close
the gap for (`exposed`); a difference no item's comparison sees is a liberty the spec leaves
(`liberty`); none found in the sequences that reach the mutant's lines is "probably
equivalent"; lines that neither a case nor any sequence executes are `unreachable`.

A reference given as a build recipe (Java or C++: `reference: {language, files, main}`) is
mutated on its source text (`source_mutants.py`): each mutant is a copy of the recipe's files
with one changed, built with the recipe (`harness.building.reference.prepared`); one that does
not compile is "not viable", counted in the report and left out of every score. With no line
tracer for a compiled program, every case reaches every mutant (each item still stops at its
first killing case), and the search, which runs a Python reference in-process, does not run:
its survivors are reported as not explained.

Mutants are the project's own code: they run without the sandbox.

One job a module: `audit_reference` (the file mutated, a mutant's copy of it and the command
that runs the copy), `audit_run` (the sample drawn, each case's reach traced, each mutant
graded), `audit_search` (the search's sequences, run in worker processes) and `audit_explain`
(each survivor's verdict), `audit_results` (what the reports read), `audit_report` (the
terminal summary and the page), `audit_suggest` (`--suggest`'s case files); this module holds
the options and takes the steps in turn.
"""
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from harness.building import reference as built_reference
from harness.classes import executor
from harness.classes.progress import QUIET, Progress
from harness.errors import InputError
from harness.grading import submission as grading
from harness.loading import config
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.suite import mutants
from harness.suite.audit_explain import Explainer
from harness.suite.audit_reference import made_from, resolve, sources_of
from harness.suite.audit_report import progress_line
from harness.suite.audit_results import Audit, Finding, ItemAudit, MutantResult, MutantStatus
from harness.suite.audit_run import Auditor, CompiledAuditor, choose
from harness.loading import paths

SEARCH = 300  # input sequences the search grows from the cases (per audit), by default


@dataclass
class AuditOptions:
    sample: int | None = None
    seed: int = 0
    select: str | None = None
    jobs: int | None = None
    only: tuple[str, ...] = ()  # audit just these mutant ids (e.g. a survivor, again)
    every_case: bool = False  # run every reaching case, not one killer per item
    search: int = SEARCH  # input sequences grown for the survivors' search (0: none)
    settings: config.Settings = config.DEFAULTS  # the command's HARNESS_* settings, for every build and run


def positive(text: str) -> int:
    """A command-line count: a whole number of at least 1."""
    import argparse
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count; give a whole number of at least 1")
    return value


def milestones_of(spec: Spec, name: str, milestone: str | None) -> list[str | None]:
    """`GAME:MILESTONE` audits that milestone; a plain `GAME` audits every milestone."""
    if ":" in name or not spec.milestones:
        return [milestone]
    return list(spec.milestones)


def _items(spec: Spec, milestones: list[str | None], cases: list[Case], results: list[MutantResult]) -> list[ItemAudit]:
    """Per graded item: how many mutants its cases kill (an item whose cases kill none fails), and
    the charging precision of the mutants that stand for it; each mutant's collateral is set here."""
    items = []
    seen = set()
    milestone_of = {item.id: milestone for milestone in milestones for item in spec.items(milestone)}
    for result in results:
        if result.drawn_for is not None:
            result.collateral = [i for i in result.lost if i != result.drawn_for
                                 and milestone_of.get(i) == milestone_of.get(result.drawn_for)]
    for milestone in milestones:
        for item in spec.items(milestone):
            if not item.graded or item.id in seen:
                continue
            seen.add(item.id)
            names = [c.name for c in cases if c.rubric == item.id]
            killed = sum(1 for r in results if set(names).intersection(r.killed_by))
            exposed = sum(1 for r in results if r.search is not None and r.search.verdict is Finding.EXPOSED
                          and item.id in r.search.items)
            viable = sum(1 for r in results if r.status is not MutantStatus.NOT_VIABLE)
            drawn = [r for r in results if r.drawn_for == item.id and r.status is not MutantStatus.NOT_VIABLE]
            hit = [r for r in drawn if r.status is MutantStatus.KILLED]
            items.append(ItemAudit(item.id, item.title, names, killed, viable, exposed, len(drawn), len(hit),
                                   sum(1 for r in hit if item.id in r.lost), sum(1 for r in hit if r.collateral)))
    return items


def audit(spec: Spec, milestones: list[str | None], cases: list[Case], options: AuditOptions,
          progress: Progress | None = None) -> Audit:
    """Make the mutants, trace the cases' reach, run the (sampled) mutants, score every item."""
    started = time.monotonic()
    compiled = spec.built_reference and spec.reference.name != "python"  # a Python recipe runs a script: as above
    if compiled:  # a recipe: built once now (an InputError if the reference itself does not compile)
        spec = built_reference.prepared(spec)
        sources = sources_of(spec)
        made, name = made_from(sources), sources.name
    else:
        reference = resolve(spec)
        skip = set(mutants.SKIP)
        law = spec.random_start.law if spec.random_start else None
        # the harness calls these in-process, never through the program
        for called in (spec.rewrite, law.values if law else None, (spec.state or {}).get("read")):
            if called and called.partition(":")[0] == reference.module:
                skip.add(called.partition(":")[2])
        made = mutants.generate(reference.path.read_text(encoding="utf-8"), reference.name, skip)
        name = reference.name
    if options.only:
        unknown = sorted(set(options.only) - {m.id for m in made})
        if unknown:
            raise InputError(f"--mutant {unknown[0]}: no such mutant of {name}; the ids are in the "
                             "audit's report (module:line:column:operator)")
        made = [m for m in made if m.id in options.only]
    local = executor.Local(options.jobs, threads=2 * grading.workers(options.jobs, options.settings),
                           settings=options.settings)  # threads keep the case workers fed
    grader, results, futures, searched = local.grader, [], [], 0
    with tempfile.TemporaryDirectory(prefix=paths.temporary("audit")) as scratch:
        try:
            auditor = (CompiledAuditor if compiled else Auditor)(spec, milestones, cases, grader, Path(scratch))
            reach = auditor.reach()
            by_item = {}
            for milestone in milestones:
                for item in spec.items(milestone):
                    if item.graded:
                        by_item[item.id] = [c.name for c in cases if c.rubric == item.id]
            chosen = choose(made, reach, by_item, options.sample, options.seed)
            if progress:
                progress.expect(len(chosen))
            # with no tracer every case reaches every line: no mutant stands for one item, none is in the precision
            futures = [local.builders.submit(auditor.run, m, reach, options.every_case, None if compiled else item)
                       for m, item in chosen]
            for future in futures:
                results.append(future.result())
                if progress:
                    progress.advance()
                    if progress.look.detail != QUIET:
                        progress.say(progress_line(len(results), len(chosen), results[-1]))
            if options.search and not compiled and any(r.status in (MutantStatus.SURVIVED, MutantStatus.NOT_REACHED)
                                                       for r in results):
                explainer = Explainer(auditor, spec, options.search, options.seed,
                                      min(os.cpu_count() or 1, options.jobs or os.cpu_count() or 1), reach)
                try:
                    explainer.grow()
                    searched = len(explainer.probes)
                    explainer.explain(results)
                finally:
                    explainer.close()
        except KeyboardInterrupt:  # Ctrl-C: no mutant or case is started again, every run below this process ends
            local.interrupt(futures)
            raise
        finally:
            local.close()
    return Audit(spec.game, spec.title, milestones, name, len(made), options.sample, options.seed,
                 len(cases), results, _items(spec, milestones, cases, results), round(time.monotonic() - started, 1),
                 searched, explained=not compiled)
