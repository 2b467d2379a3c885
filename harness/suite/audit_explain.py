"""Survivors explained: the search's sequences grown once for the audit, each survivor's run in
the workers, and each difference found typed as a case of every graded item, through a terminal,
to see which items' comparisons it fails (exposed), none (a liberty), or none found (probably
equivalent)."""
import ast
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from harness.errors import InputError
from harness.loading import paths
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.running.environment import fork_server
from harness.suite import audit_search, mutants, regen
from harness.suite.audit_reference import copy_of
from harness.suite.audit_results import Finding, MutantResult, MutantStatus, Search, SearchEnd
from harness.suite.audit_run import Auditor
from harness.suite.audit_search import Probe


def _only_an_error_status(expected: str, actual: str, expected_end: SearchEnd, actual_end: SearchEnd) -> bool:
    """The mutant prints all the reference prints and only exits otherwise, where the reference
    itself stops with an error status: input the handout leaves undefined (a move that is not a
    number, a count out of range), whose exit status no handout asks for. A liberty, not a gap, unless a
    case already judges it (then the mutant was killed and never searched)."""
    return expected == actual and expected_end != actual_end and expected_end.error_status


def _words(spec: Spec, milestone: str | None, target: str, extra: list[str]) -> list[str]:
    """The reference's own arguments (after the module or script) for this run."""
    words = spec.reference_command(milestone, target, extra)
    if "-m" in words[:-1]:
        return words[words.index("-m") + 2:]
    at = next((i for i, w in enumerate(words) if w.endswith(".py")), len(words) - 1)
    return words[at + 1:]


def _typed(case: Case) -> list[str]:
    """The lines a case types: its inputs, or for a strategy those of its expected transcript."""
    if case.expect and case.expect.get("transcript"):
        return [e["in"] for e in case.expect["transcript"] if "in" in e]
    return [str(x) for x in case.inputs] if isinstance(case.inputs, list) else []


class Explainer:
    """The differential search of one audit: the sequences grown once, then each mutant's."""

    def __init__(self, auditor: Auditor, original: Spec, count: int, seed: int, jobs: int,
                 reach: dict[str, set[int]]):
        self.auditor, self.original, self.count, self.seed = auditor, original, count, seed
        self.reach = reach
        self.reference = auditor.reference
        self.filename = str(auditor.reference.path)
        self.source = auditor.reference.path.read_text(encoding="utf-8")
        search_path = [str(paths.install_root())] if auditor.reference.module else [str(auditor.reference.root)]
        self.pool = ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=fork_server(),
                                        initializer=audit_search.worker_init, initargs=(search_path,))
        self.probes: list[Probe] = []

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def grow(self) -> None:
        groups: dict[tuple, list[Probe]] = {}
        spec = self.original
        for case in self.auditor.cases:
            # a seeded case also grows from another seed: another start, for the setup's code
            seeds = [case.seed, (case.seed * 7919 + 104729) % 1_000_003] if case.seed is not None and spec.seed_option \
                else [None]
            for seed in seeds:
                extra = case.args + ([spec.seed_option, str(seed)] if seed is not None else [])
                probe = Probe(case.name, case.milestone, case.target,
                              tuple(_words(spec, case.milestone, case.target, extra)), tuple(_typed(case)), seed)
                groups.setdefault((case.milestone, case.target), []).append(probe)
        total = sum(len(g) for g in groups.values()) or 1
        jobs = [(self.source, self.filename, bases, max(1, round(self.count * len(bases) / total)),
                 self.seed * 1000 + n) for n, bases in enumerate(groups.values())]
        for probes in self.pool.map(audit_search.corpus_job, jobs):
            self.probes += probes

    def explain(self, results: list[MutantResult]) -> None:
        """A search for every survivor and every mutant no case reaches, then the differences
        found typed as cases, through a terminal, to see which items would catch them."""
        todo = [r for r in results if r.status in (MutantStatus.SURVIVED, MutantStatus.NOT_REACHED)]
        jobs = []
        for result in todo:
            lines = set(result.mutant.lines)
            reaching = [p for p in self.probes if lines.intersection(p.lines)]
            if not reaching:  # no sequence of the search reaches it either
                if result.status is MutantStatus.NOT_REACHED:
                    result.status = MutantStatus.UNREACHABLE
                    result.search = Search(Finding.UNREACHABLE, 0)
                else:  # cases reach it, no sequence does: nothing told it from the reference
                    result.search = Search(Finding.EQUIVALENT, 0)
                continue
            jobs.append((result, (result.mutant.source, self.source, self.filename, reaching, 3)))
        futures = [(result, self.pool.submit(audit_search.differ_job, job)) for result, job in jobs]
        for result, future in futures:
            tried, found = future.result()
            if result.status is MutantStatus.NOT_REACHED:
                result.status = MutantStatus.SURVIVED  # the search reaches what no case does
            result.search = self._judge(result, tried, found)

    def _judge(self, result: MutantResult, tried: int, found: list[audit_search.Difference]) -> Search:
        textual = None
        for difference in found:
            probe = difference.probe
            error_status = _only_an_error_status(probe.output, difference.actual, probe.end, difference.actual_end)
            items = [] if error_status else self._items_failing(result.mutant, probe)
            search = Search(Finding.EXPOSED if items else Finding.LIBERTY, tried, probe.case, probe.milestone,
                            probe.target, list(probe.inputs), probe.seed, probe.output, difference.actual,
                            probe.end, difference.actual_end, items)
            if items:
                return search
            if (probe.output != difference.actual or error_status) and textual is None:
                textual = search
        return textual or Search(Finding.EQUIVALENT, tried)

    def _judged_lines(self, mutant: mutants.Mutant) -> set[int]:
        """The lines whose behaviour the mutant changes: its own, or for a module-level constant
        (every case runs those lines at import) the lines of functions that read it."""
        if mutant.function is not None:
            return set(mutant.lines)
        tree = self._tree()
        top = next((t for t in tree.body if t.lineno <= mutant.line <= t.end_lineno), None)
        if not isinstance(top, (ast.Assign, ast.AnnAssign)):
            return set(mutant.lines)
        targets = top.targets if isinstance(top, ast.Assign) else [top.target]
        names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        readers = {n.lineno for f in tree.body if isinstance(f, (ast.FunctionDef, ast.ClassDef))
                   for n in ast.walk(f) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names}
        return readers or set(mutant.lines)

    def _tree(self) -> ast.Module:
        if not hasattr(self, "_parsed"):
            self._parsed = ast.parse(self.source)
        return self._parsed

    def _items_failing(self, mutant: mutants.Mutant, probe: Probe) -> list[str]:
        """The graded items whose comparison fails the mutant on these inputs, each tried as a
        case of its own (the probe's milestone, target, arguments and seed), run in a terminal."""
        auditor = self.auditor
        base = next(c for c in auditor.cases if c.name == probe.case)
        targets = {(c.milestone, c.target, c.rubric) for c in auditor.cases}
        items = [i.id for i in auditor.spec.items(probe.milestone)
                 if i.graded and (probe.milestone, probe.target, i.id) in targets]
        # an item judges the code its cases run: the items whose cases reach the mutated lines (all
        # of them for code no case reaches), so a refusal's layout is not charged to the final board
        lines = self._judged_lines(mutant)
        reaching = [c for c in auditor.cases if self.reach.get(c.name, set()).intersection(lines)]
        items = [i for i in items if i in {c.rubric for c in reaching}] or items
        # each item looks as its own cases there do (a board case compares its first turn only)
        looks = {c.rubric: c.compare for c in reversed(reaching)}
        looks[base.rubric] = base.compare
        case = replace(base, name=f"audit-{mutant.line}", inputs=list(probe.inputs), compare=None, repeat=1,
                       expect=None, points=1, seed=probe.seed)
        try:
            expect = regen.expected_for(self.original, case)
        except InputError:  # the reference did not finish on it (it never ends when typed so)
            return []
        # the item of the case it grew from judges it as that case does (a random start's summary,
        # the lines that case looks at), another item as its cases reaching the mutant's code do
        cases = [replace(case, name=f"audit-{item}", rubric=item, expect=expect, compare=looks.get(item))
                 for item in items]
        folder = auditor.scratch_folder()
        copy = copy_of(auditor.reference, folder, mutant.source)
        try:
            outcome = MutantResult(mutant, MutantStatus.SURVIVED)
            auditor.grade(copy, cases, outcome)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return [name.removeprefix("audit-") for name in outcome.killed_by]
