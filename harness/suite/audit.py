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
"""
import ast
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from harness.building import build as builder
from harness.building import reference as built_reference
from harness.classes import executor
from harness.classes.progress import QUIET, Progress
from harness.grading import submission as grading
from harness.suite import linetrace, mutants, source_mutants
from harness.loading import paths, yamlfile
from harness.running.environment import fork_server
from harness.suite import regen
from harness.loading.cases import Case
from harness.errors import InputError
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE
from harness.loading.spec import Spec

LINETRACE = Path(__file__).with_name("linetrace.py")
KILLED, SURVIVED, NOT_REACHED, ERROR = "killed", "survived", "not-reached", "error"
NOT_VIABLE = "not-viable"  # a mutant of a compiled reference that does not compile: in no score
UNEXPLAINED = "survived (not explained: the search runs Python references only)"
UNREACHABLE = "unreachable"  # no case and no sequence of the search executes its lines
# what the search says of a survivor
EXPOSED, LIBERTY, EQUIVALENT = "exposed", "liberty", "equivalent"
SEARCH = 300  # input sequences the search grows from the cases (per audit), by default


# --- what the reference command runs ----------------------------------------------------

@dataclass(frozen=True)
class Reference:
    """The file the spec's reference command runs, and the folder a mutant's copy is made of."""
    path: Path  # the module or script mutated
    module: str | None  # the `-m` name, or None for a script
    root: Path  # copied for each mutant: the top package's folder, or the script's folder
    name: str  # as the report shows it (relative to the folder it was found in)

    def copied(self, where: Path) -> Path:
        """Where the mutated file sits in a copy made under `where`."""
        return where / self.path.relative_to(self.root.parent)


def resolve(spec: Spec) -> Reference:
    """The Python file the spec's `reference:` command runs: `-m MODULE` (found beside the
    harness, where the references' PYTHONPATH points) or a `.py` script."""
    words = spec.reference_command(None, next(iter(spec.targets)), [])
    line = spec.document.line_of(["reference"]) if spec.document else None
    where = spec.document.path if spec.document else spec.folder / "spec.yaml"
    if "-m" in words[:-1]:
        module = words[words.index("-m") + 1]
        parts = module.split(".")
        base = paths.install_root()
        for path in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__main__.py")):
            if path.is_file():
                root = base / parts[0] if len(parts) > 1 or path.name == "__main__.py" else path
                return Reference(path, module, root, str(path.relative_to(base)))
        raise InputError(f"reference: module {module} is not a Python file under {base}; the audit mutates the "
                         "module the reference command runs", where, line)
    for word in words[1:]:
        if word.endswith(".py") and Path(word).is_file():
            path = Path(word).resolve()
            return Reference(path, None, path.parent, path.name)
    raise InputError("reference: the audit needs a command that runs a Python module (-m MODULE) or a .py script, "
                     "to mutate it", where, line)


def _command(spec: Spec, reference: Reference, milestone: str | None, target: str, copy: Path) -> list[str]:
    """The spec's reference command, running the copy in `copy` instead of the original."""
    words = spec.reference_command(milestone, target, [])
    search = [str(paths.install_root())]
    if reference.module:
        search.insert(0, str(copy))
    else:
        words = [str(reference.copied(copy)) if w.endswith(".py") and Path(w).resolve() == reference.path else w
                 for w in words]
    # run as the references are (PYTHONPATH, no bytecode written); a ready build's run has no environment of its own
    return ["env", f"PYTHONPATH={os.pathsep.join(search)}", "PYTHONDONTWRITEBYTECODE=1", *words]


def _traced(command: list[str], reference: Reference, copy: Path, out: Path) -> list[str]:
    """The same command under the line tracer, recording the mutated file's executed lines in `out`."""
    at = next(i for i, w in enumerate(command) if w == "-m" or w.endswith(".py") and "=" not in w)
    return command[:at] + [str(LINETRACE), str(out), str(reference.copied(copy))] + command[at:]


def _build(target: str, copy: Path, run: list[str], language: str = "python") -> builder.Build:
    return builder.Build(target, language, True, src=str(copy), run=[*run, "{args}"],
                         intake=["a mutant of the reference, run as it is (trusted code: no sandbox)"])


@dataclass(frozen=True)
class Sources:
    """A reference built from a recipe: the spec folder's files it is built from, and those the
    source operators mutate (the Java or C++ ones)."""
    folder: Path
    files: tuple[str, ...]
    mutated: tuple[str, ...]
    language: str

    @property
    def name(self) -> str:
        return ", ".join(self.mutated)

    def copy(self, where: Path, mutant: mutants.Mutant | None = None) -> Path:
        """The recipe's files copied into `where`, the mutant's file changed."""
        for name in self.files:
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.folder / name, where / name)
        if mutant is not None:
            (where / mutant.module).write_text(mutant.source, encoding="utf-8")
        return where


def sources_of(spec: Spec) -> Sources:
    """The recipe's files of a built reference, and which of them the operators read."""
    recipe = spec.reference
    mutated = tuple(name for name in recipe.files if source_mutants.language_of(name))
    if not mutated:
        line = spec.document.line_of(["reference", "files"]) if spec.document else None
        where = spec.document.path if spec.document else spec.folder / "spec.yaml"
        raise InputError("reference.files: the audit mutates Java or C++ sources (.java, .cpp, .cc, .h, .hpp) and "
                         "the recipe names none", where, line)
    return Sources(spec.folder, tuple(recipe.files), mutated, recipe.name)


def made_from(sources: Sources) -> list[mutants.Mutant]:
    """Every source mutant of the recipe's files, file by file in the recipe's order."""
    made = []
    for name in sources.mutated:
        try:
            text = (sources.folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as problem:
            raise InputError(f"reference.files: cannot read {name} in {sources.folder} ({problem})")
        made += source_mutants.generate(text, name, source_mutants.language_of(name))
    return made


def _copy(reference: Reference, where: Path, source: str | None = None) -> Path:
    """A copy of the reference's package (or script folder) in `where`; `source` replaces the module."""
    target = where / reference.root.name
    if reference.root.is_dir():
        shutil.copytree(reference.root, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        shutil.copy2(reference.root, target)
    if source is not None:
        reference.copied(where).write_text(source, encoding="utf-8")
    return where


# --- seeds: the mutant draws what the reference drew --------------------------------------

def seeded(spec: Spec, cases: list[Case]) -> tuple[Spec, list[Case]]:
    """The spec and cases as a mutant runs them: each case with the seed the reference was given
    for its expected transcript, passed with the reference's own seed option."""
    if not spec.seed_option:
        return spec, cases
    targets = {tid: replace(t, seed_args=[spec.seed_option, "{seed}"]) for tid, t in spec.targets.items()}
    out = []
    for case in cases:
        fixed = start.seed if (start := spec.random_start_for(case.target)) else None
        seed = case.seed if case.seed is not None else fixed
        # a seeded run is the same every time, so a case's repeats (for programs that draw) add nothing
        out.append(replace(case, seed=seed, repeat=1) if seed is not None else case)
    return replace(spec, targets=targets), out


# --- the results ------------------------------------------------------------------------

@dataclass
class MutantResult:
    mutant: mutants.Mutant
    status: str  # killed | survived | not-reached | error
    ran: list[str] = field(default_factory=list)  # the cases run on it (those reaching its lines)
    killed_by: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # cases the harness itself failed on
    skipped: int = 0  # reaching cases not run: their item had already killed it
    seconds: float = 0.0
    search: "Search | None" = None  # for a survivor (or a mutant no case reaches): what the search found
    reason: str = ""  # why it is not viable: the compiler's first error
    let_through: list[str] = field(default_factory=list)  # "case: acceptance" it passed only through


@dataclass
class ItemAudit:
    id: str
    title: str
    cases: list[str]
    killed: int  # mutants killed by at least one of its cases
    total: int  # viable mutants audited (all of a Python reference's)
    exposed: int = 0  # survivors an input was found for that a case of this item would kill

    @property
    def score(self) -> float:
        """Killed out of the mutants this item's cases kill or should: killed / (killed + the
        survivors with an exposing input its comparison sees); 1 when it has neither."""
        judged = self.killed + self.exposed
        return self.killed / judged if judged else 1.0

    @property
    def passed(self) -> bool:
        return self.killed > 0


@dataclass
class Audit:
    game: str
    title: str
    milestones: list[str | None]
    reference: str
    made: int  # mutants the operators made
    sample: int | None
    seed: int
    cases: int
    results: list[MutantResult]
    items: list[ItemAudit]
    seconds: float
    searched: int = 0  # sequences the search grew (0: no search)
    explained: bool = True  # False: the reference is compiled, its survivors are not searched

    @property
    def passed(self) -> bool:
        return all(item.passed for item in self.items)

    @property
    def viable(self) -> int:
        """The mutants audited that are programs (a compiled reference's mutant may not compile)."""
        return len(self.results) - self.count(NOT_VIABLE)

    @property
    def score(self) -> float:
        """The mutation score: killed out of the viable mutants audited (1 when there are none)."""
        return self.count(KILLED) / self.viable if self.viable else 1.0

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    def verdicts(self, verdict: str) -> list[MutantResult]:
        return [r for r in self.results if r.search is not None and r.search.verdict == verdict]


# --- running ------------------------------------------------------------------------------

@dataclass
class AuditOptions:
    sample: int | None = None
    seed: int = 0
    select: str | None = None
    jobs: int | None = None
    only: tuple[str, ...] = ()  # audit just these mutant ids (e.g. a survivor, again)
    every_case: bool = False  # run every reaching case, not one killer per item
    search: int = SEARCH  # input sequences grown for the survivors' search (0: none)


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


def choose(found: list[mutants.Mutant], reach: dict[str, set[int]], by_item: dict[str, list[str]],
           size: int | None, seed: int) -> list[mutants.Mutant]:
    """All mutants, or a sample of `size`: drawn in turn for each graded item among the mutants
    its cases reach, those the fewest cases reach first (the item's own code), then among all,
    so a small sample still tries every item; the same seed gives the same sample."""
    if size is None or size >= len(found):
        return list(found)
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
    chosen: dict[str, mutants.Mutant] = {}
    while len(chosen) < size:
        for pool in pools:
            while pool and pool[-1].id in chosen:
                pool.pop()
            if pool and len(chosen) < size:
                mutant = pool.pop()
                chosen[mutant.id] = mutant
    return sorted(chosen.values(), key=found.index)


def _killer(status: str) -> bool:
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

    def _folder(self) -> Path:
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
        copy = _copy(self.reference, self._folder())
        traces = self.scratch / "traces"
        traces.mkdir()

        def one(case: Case):
            out = traces / f"{case.name}.lines"
            run = _traced(_command(self.spec, self.reference, case.milestone, case.target, copy), self.reference,
                          copy, out)
            result = self.grader.grade(self.spec, case.milestone, [case], copy, {case.target: _build(case.target, copy, run)})
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

    def run(self, mutant: mutants.Mutant, reach: dict[str, set[int]], every_case: bool = False) -> MutantResult:
        """Grade one mutant on the cases that reach the lines it changed: first one case of each
        rubric item, then the other cases of the items that have not killed it yet (an item's
        verdict needs one killer); `every_case` runs them all, for the complete list of killers."""
        started = time.monotonic()
        hit = [c for c in self.cases if reach.get(c.name, set()).intersection(mutant.lines)]
        if not hit:
            return MutantResult(mutant, NOT_REACHED)
        folder = self._folder()
        result = MutantResult(mutant, SURVIVED)
        by_item: dict[str, list[Case]] = {}
        for case in hit:
            by_item.setdefault(case.rubric, []).append(case)
        try:
            try:
                copy, spec = self._prepare(mutant, folder)
            except InputError as problem:  # it does not compile: no program to grade
                result.status, result.reason = NOT_VIABLE, problem.message
                result.seconds = round(time.monotonic() - started, 3)
                return result
            if every_case:
                self._grade(copy, hit, result, spec)
            else:
                self._grade(copy, [cases[0] for cases in by_item.values()], result, spec)
                killed = set(result.killed_by)
                self._grade(copy, [c for cases in by_item.values() if not killed.intersection(x.name for x in cases)
                                   for c in cases[1:]], result, spec)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        result.status = KILLED if result.killed_by else ERROR if result.errors else SURVIVED
        result.skipped = len(hit) - len(result.ran)
        result.seconds = round(time.monotonic() - started, 3)
        return result

    def _prepare(self, mutant: mutants.Mutant, folder: Path) -> tuple[Path, Spec]:
        """The mutant's copy in `folder`, and the spec whose reference command runs it."""
        return _copy(self.reference, folder, mutant.source), self.spec

    def _builds(self, copy: Path, spec: Spec, milestone: str | None, group: list[Case]) -> dict[str, builder.Build]:
        return {c.target: _build(c.target, copy, _command(spec, self.reference, milestone, c.target, copy))
                for c in group}

    def _grade(self, copy: Path, cases: list[Case], result: MutantResult, spec: Spec | None = None) -> None:
        for milestone, group in self._groups(cases).items():
            builds = self._builds(copy, spec or self.spec, milestone, group)
            graded = self.grader.grade(self.spec, milestone, group, copy, builds)
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

        copy = self.sources.copy(self._folder())

        def one(case: Case):
            build = _build(case.target, copy, self.spec.reference_command(case.milestone, case.target, []),
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
        return copy, built_reference.prepared(self.spec, copy)

    def _builds(self, copy: Path, spec: Spec, milestone: str | None, group: list[Case]) -> dict[str, builder.Build]:
        return {c.target: _build(c.target, copy, spec.reference_command(milestone, c.target, []), self.sources.language)
                for c in group}


def _items(spec: Spec, milestones: list[str | None], cases: list[Case], results: list[MutantResult]) -> list[ItemAudit]:
    """Per graded item: how many mutants its cases kill; an item whose cases kill none fails."""
    items = []
    seen = set()
    for milestone in milestones:
        for item in spec.items(milestone):
            if not item.graded or item.id in seen:
                continue
            seen.add(item.id)
            names = [c.name for c in cases if c.rubric == item.id]
            killed = sum(1 for r in results if set(names).intersection(r.killed_by))
            exposed = sum(1 for r in results if r.search is not None and r.search.verdict == EXPOSED
                          and item.id in r.search.items)
            viable = sum(1 for r in results if r.status != NOT_VIABLE)
            items.append(ItemAudit(item.id, item.title, names, killed, viable, exposed))
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
    local = executor.Local(options.jobs, threads=2 * grading.workers(options.jobs))  # threads keep the case workers fed
    grader, results, futures, searched = local.grader, [], [], 0
    with tempfile.TemporaryDirectory(prefix="harness-audit-") as scratch:
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
            futures = [local.builders.submit(auditor.run, m, reach, options.every_case) for m in chosen]
            for future in futures:
                results.append(future.result())
                if progress:
                    progress.advance()
                    if progress.look.detail != QUIET:
                        progress.say(progress_line(len(results), len(chosen), results[-1]))
            if options.search and not compiled and any(r.status in (SURVIVED, NOT_REACHED) for r in results):
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


# --- explaining survivors: a differential search ------------------------------------------

@dataclass
class Probe:
    """An input sequence the search types, grown from a case, and what the reference did on it."""
    case: str  # the case it grew from (its milestone, target, arguments and seed)
    milestone: str | None
    target: str
    argv: tuple[str, ...]  # the reference's arguments (the milestone's, the case's, its seed)
    inputs: tuple[str, ...]
    seed: int | None = None
    output: str = ""
    end: str = ""
    lines: frozenset = frozenset()


@dataclass
class Search:
    """What the search found for one mutant."""
    verdict: str  # exposed | liberty | equivalent | unreachable
    tried: int  # sequences run on the mutant (those reaching its lines)
    case: str | None = None  # the case the exposing sequence grew from
    milestone: str | None = None
    target: str | None = None
    inputs: list[str] = field(default_factory=list)
    seed: int | None = None
    expected: str = ""  # the reference's output on it
    actual: str = ""  # the mutant's
    expected_end: str = ""
    actual_end: str = ""
    items: list[str] = field(default_factory=list)  # graded items whose comparison the inputs fail

    def says(self) -> str:
        if self.verdict == EXPOSED:
            return (f"exposed by {len(self.inputs)} input(s) grown from {self.case}: a case of "
                    f"{', '.join(self.items)} with them kills it")
        if self.verdict == LIBERTY:
            return (f"its output differs on {len(self.inputs)} input(s) grown from {self.case}, but no graded item's "
                    "comparison sees the difference: a liberty the spec leaves (or an item to add)")
        if self.verdict == UNREACHABLE:
            return f"unreachable: no case and none of {self.tried} searched sequences executes its lines"
        return f"no difference found in {self.tried} sequences: probably equivalent"


def _only_an_error_status(expected: str, actual: str, expected_end: str, actual_end: str) -> bool:
    """The mutant prints all the reference prints and only exits otherwise, where the reference
    itself stops with an error status: input the handout leaves undefined (a move that is not a
    number, a count out of range), whose exit status no handout asks for. A liberty, not a gap, unless a
    case already judges it (then the mutant was killed and never searched)."""
    return (expected == actual and expected_end != actual_end and expected_end.startswith("exit ")
            and expected_end != "exit 0")


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


def _variants(token: str) -> list[str]:
    """Near misses of a typed token: its other cases, neighbours of a number or a letter, a part."""
    out = {token.upper(), token.lower(), token.capitalize(), token.swapcase(), token.strip()}
    if len(token) > 1:
        out |= {token[0], token[:-1], token[1:], token + token[-1]}
    if re.fullmatch(r"[+-]?[0-9]+", token.strip()):
        n = int(token)
        out |= {str(n - 1), str(n + 1), str(-n), "0", f"0{n}", f"+{n}"}
    elif len(token) == 1 and token.isalpha():
        out |= {chr(ord(token) - 1), chr(ord(token) + 1)}
    if token:
        out |= {token + "x", " " + token, token + " " + token}
    out.discard(token)
    return sorted(out)


def _grow(rng: random.Random, inputs: list[str], others: list[list[str]], alphabet: list[str]) -> list[str]:
    """One to three edits of a sequence, as a student's session would differ from a case's."""
    seq = list(inputs)
    for _ in range(rng.choice((1, 1, 2, 3))):
        at = rng.randint(0, len(seq))
        kind = rng.random()
        other = rng.choice(others) if others else seq
        if kind < 0.25 and seq:  # a typed token changed: a near miss or another token
            at = min(at, len(seq) - 1)
            seq[at] = rng.choice(_variants(seq[at]) or [seq[at]]) if rng.random() < 0.7 else rng.choice(alphabet)
        elif kind < 0.45:  # a window of another case's moves put in
            if other:
                start = rng.randrange(len(other))
                seq[at:at] = other[start:start + rng.randint(1, 4)]
        elif kind < 0.6 and seq:  # some moves left out
            del seq[min(at, len(seq) - 1):min(at, len(seq) - 1) + rng.randint(1, 3)]
        elif kind < 0.75:  # another case's game from here on
            if other:
                seq = seq[:at] + other[rng.randrange(len(other)):]
        elif kind < 0.85 and seq:  # a move typed again
            at = min(at, len(seq) - 1)
            seq[at:at] = seq[at:at + rng.randint(1, 2)]
        else:  # random tokens put in
            seq[at:at] = [rng.choice(alphabet) for _ in range(rng.randint(1, 3))]
    return seq[:400]


def _worker_init(search_path: list[str]) -> None:
    for folder in reversed(search_path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:  # a mutant that allocates without end stops at a MemoryError, not the machine's memory
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (ValueError, OSError):
        pass


def _corpus_job(job: tuple) -> list[Probe]:
    """Grow `count` sequences from the cases of one milestone and target, the reference run on
    each (its output, how it ended, the lines it executed); a sequence that reaches lines no
    earlier one did becomes a parent of later ones (coverage-guided)."""
    source, filename, bases, count, seed = job
    rng = random.Random(seed)
    others = [list(b.inputs) for b in bases if b.inputs]
    alphabet = sorted({t for b in bases for t in b.inputs} | {"", "0", "-1", "99", "x", "q", "y", "n"})
    pool = list(bases)
    covered: set[int] = set()
    seen: set[tuple] = {tuple(b.inputs) for b in bases}
    probes = []
    for _ in range(count * 3):
        if len(probes) >= count:
            break
        parent = rng.choice(pool[-40:] if pool[len(bases):] and rng.random() < 0.5 else pool)
        inputs = tuple(_grow(rng, list(parent.inputs), others, alphabet))
        if inputs in seen:
            continue
        seen.add(inputs)
        output, end, lines = linetrace.execute(source, filename, list(parent.argv), "".join(i + "\n" for i in inputs),
                                               trace=True)
        probe = replace(parent, inputs=inputs, output=output, end=end, lines=lines)
        probes.append(probe)
        if lines - covered:
            covered |= lines
            pool.append(probe)
    return probes


def _differs(a: tuple[str, str], b: tuple[str, str]) -> bool:
    return a[0] != b[0] or a[1] != b[1]


def _shrink(run, inputs: list[str], budget: int = 120) -> list[str]:
    """A shorter sequence on which the two programs still differ the same way (text or ending)."""
    def differs(seq):
        nonlocal budget
        budget -= 1
        ref, mut = run(seq)
        return ref[0] != mut[0] if text else _differs(ref, mut)

    ref, mut = run(inputs)
    text = ref[0] != mut[0]
    low, high = 0, len(inputs)  # the shortest prefix that differs
    while low < high and budget > 0:
        middle = (low + high) // 2
        if differs(inputs[:middle]):
            high = middle
        else:
            low = middle + 1
    seq = inputs[:high] if high < len(inputs) and differs(inputs[:high]) else list(inputs)
    for size in (4, 2, 1):
        at = 0
        while at < len(seq) and budget > 0:
            shorter = seq[:at] + seq[at + size:]
            if shorter and differs(shorter):
                seq = shorter
            else:
                at += 1
    return seq


def _differ_job(job: tuple) -> tuple[int, list[dict]]:
    """Run a mutant on the sequences that reach its lines until three differ from the
    reference: (sequences run, the differences, each shrunk)."""
    source, reference, filename, probes, wanted = job
    found, tried = [], 0

    def run(seq, argv):
        stdin = "".join(i + "\n" for i in seq)
        ref = linetrace.execute(reference, filename, list(argv), stdin)
        mut = linetrace.execute(source, filename, list(argv), stdin)
        return ref[:2], mut[:2]

    for probe in probes:
        tried += 1
        mut = linetrace.execute(source, filename, list(probe.argv), "".join(i + "\n" for i in probe.inputs))
        if not _differs((probe.output, probe.end), mut[:2]):
            continue
        seq = _shrink(lambda s: run(s, probe.argv), list(probe.inputs))
        ref, mut = run(seq, probe.argv)
        found.append({"probe": replace(probe, inputs=tuple(seq), output=ref[0], end=ref[1], lines=frozenset()),
                      "actual": mut[0], "actual_end": mut[1]})
        if len(found) >= wanted:
            break
    return tried, found


class Explainer:
    """The differential search of one audit: the sequences grown once, then each mutant's."""

    def __init__(self, auditor: "Auditor", original: Spec, count: int, seed: int, jobs: int,
                 reach: dict[str, set[int]]):
        self.auditor, self.original, self.count, self.seed = auditor, original, count, seed
        self.reach = reach
        self.reference = auditor.reference
        self.filename = str(auditor.reference.path)
        self.source = auditor.reference.path.read_text(encoding="utf-8")
        search_path = [str(paths.install_root())] if auditor.reference.module else [str(auditor.reference.root)]
        self.pool = ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=fork_server(),
                                        initializer=_worker_init, initargs=(search_path,))
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
        for probes in self.pool.map(_corpus_job, jobs):
            self.probes += probes

    def explain(self, results: list[MutantResult]) -> None:
        """A search for every survivor and every mutant no case reaches, then the differences
        found typed as cases, through a terminal, to see which items would catch them."""
        todo = [r for r in results if r.status in (SURVIVED, NOT_REACHED)]
        jobs = []
        for result in todo:
            lines = set(result.mutant.lines)
            reaching = [p for p in self.probes if lines.intersection(p.lines)]
            if not reaching:
                result.status = UNREACHABLE if result.status == NOT_REACHED else result.status
                result.search = Search(UNREACHABLE if result.status == UNREACHABLE else EQUIVALENT, 0)
                if result.status == SURVIVED:  # cases reach it, no sequence of the search does
                    result.search.tried = 0
                continue
            jobs.append((result, (result.mutant.source, self.source, self.filename, reaching, 3)))
        futures = [(result, self.pool.submit(_differ_job, job)) for result, job in jobs]
        for result, future in futures:
            tried, found = future.result()
            if result.status == NOT_REACHED:
                result.status = SURVIVED  # the search reaches what no case does
            result.search = self._judge(result, tried, found)

    def _judge(self, result: MutantResult, tried: int, found: list[dict]) -> Search:
        textual = None
        for difference in found:
            probe = difference["probe"]
            error_status = _only_an_error_status(probe.output, difference["actual"], probe.end, difference["actual_end"])
            items = [] if error_status else self._items_failing(result.mutant, probe)
            search = Search(EXPOSED if items else LIBERTY, tried, probe.case, probe.milestone, probe.target,
                            list(probe.inputs), probe.seed, probe.output, difference["actual"], probe.end,
                            difference["actual_end"], items)
            if items:
                return search
            if (probe.output != difference["actual"] or error_status) and textual is None:
                textual = search
        return textual or Search(EQUIVALENT, tried)

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
        folder = auditor._folder()
        copy = _copy(auditor.reference, folder, mutant.source)
        try:
            outcome = MutantResult(mutant, SURVIVED)
            auditor._grade(copy, cases, outcome)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return [name.removeprefix("audit-") for name in outcome.killed_by]


def suggest(report: "Audit", spec: Spec, cases: list[Case], folder: Path) -> list[Path]:
    """Each exposing input as a case file to review in `folder` (no expected transcript:
    `harness regen` fills it), named after the mutant; an existing file is left as it is."""
    written = []
    for result in report.verdicts(EXPOSED):
        search, mutant = result.search, result.mutant
        base = next((c for c in cases if c.name == search.case), None)
        name = re.sub(r"[^a-z0-9]+", "-", f"audit {mutant.function or 'module'} {mutant.line} {mutant.operator}".lower())
        path = folder / f"{name.strip('-')}.yaml"
        if path.exists():
            continue
        case = {"description": f"Found by the audit: {mutant.description} in {mutant.function or 'module level'} "
                               f"({mutant.id}) passes every case; review, then `harness regen`"}
        if search.milestone:
            case["milestone"] = search.milestone
        if base is not None and base.target != next(iter(spec.targets)):
            case["target"] = base.target
        case.update({"rubric": search.items[0], "points": 1, "visibility": "public"})
        if base is not None and base.args:
            case["args"] = list(base.args)
        if search.seed is not None and (base is None or base.data.get("seed") is not None or search.seed != base.seed):
            case["seed"] = search.seed
        case["inputs"] = list(search.inputs)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(yamlfile.dump(case), encoding="utf-8")
        except OSError as problem:
            raise InputError(f"cannot write {path} ({problem.strerror or problem}); choose another --suggest folder")
        written.append(path)
    return written


# --- reports --------------------------------------------------------------------------

def progress_line(count: int, total: int, result: MutantResult) -> str:
    """One mutant's outcome as the audit goes (`harness audit` without -q)."""
    how = f" by {len(result.killed_by)} case(s)" if result.killed_by else ""
    return f"  {count}/{total} {result.status}{how}: {result.mutant.id}"


def first_difference(expected: str, actual: str, context: int = 2) -> list[str]:
    """The lines around the first line where two outputs differ, side by side (for a person)."""
    a, b = expected.split("\n"), actual.split("\n")
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, at - context)
    out = [f"line {at + 1}:"]
    out += ["  reference: " + repr(x) for x in a[lo:at + context + 1]]
    out += ["  mutant:    " + repr(y) for y in b[lo:at + context + 1]]
    return out


def operator_table(report: Audit) -> list[tuple[str, int, int, int, int, int, int]]:
    """Per operator: (operator, mutants, killed, exposed, liberty, equivalent, unreachable or not reached),
    of the viable mutants."""
    rows = {}
    for r in report.results:
        if r.status == NOT_VIABLE:
            continue
        row = rows.setdefault(r.mutant.operator, [0] * 6)
        row[0] += 1
        verdict = r.search.verdict if r.search else None
        if r.status == KILLED:
            row[1] += 1
        elif r.status in (UNREACHABLE, NOT_REACHED):
            row[5] += 1
        elif verdict == EXPOSED:
            row[2] += 1
        elif verdict == LIBERTY:
            row[3] += 1
        elif r.status == SURVIVED:
            row[4] += 1
    return [(op, *row) for op, row in sorted(rows.items())]


def text(report: Audit) -> str:
    """The terminal summary: a table of the graded items, then the survivors explained."""
    where = ", ".join(m for m in report.milestones if m) or "all cases"
    sample = f", a sample of {len(report.results)} (seed {report.seed})" if report.sample else ""
    exposed, liberty, equivalent = (report.verdicts(v) for v in (EXPOSED, LIBERTY, EQUIVALENT))
    survivors = [r for r in report.results if r.status == SURVIVED]
    lines = [f"Audit of {report.title} ({report.game}: {where}): {report.reference}, {report.made} mutants{sample}, "
             f"{report.cases} cases",
             f"  killed {report.count(KILLED)}, survived {len(survivors)}"
             + (f" (exposed {len(exposed)}, liberty {len(liberty)}, probably equivalent {len(equivalent)}; "
                f"{report.searched} sequences searched)" if report.searched else "")
             + f", unreachable {report.count(UNREACHABLE)}, not reached by any case {report.count(NOT_REACHED)}, "
               f"harness errors {report.count(ERROR)}"
             + (f", not viable (do not compile) {report.count(NOT_VIABLE)}" if not report.explained else "")
             + f"; {report.seconds:.0f} s",
             f"  mutation score {report.score:.0%} (killed {report.count(KILLED)} of {report.viable} viable)", ""]
    width = max([len(i.id) for i in report.items] + [4])
    lines.append(f"  {'item':<{width}}  cases  killed  exposed  score  verdict")
    for item in report.items:
        verdict = "ok" if item.passed else "FAIL: no case of this item kills a mutant"
        if item.passed and item.score < 0.95:
            verdict = "ok, below 95 %: see the exposed survivors"
        lines.append(f"  {item.id:<{width}}  {len(item.cases):>5}  {item.killed:>6}  {item.exposed:>7}  "
                     f"{item.score:>5.0%}  {verdict}")
    survived = "equivalent" if report.explained else "  survived"  # a compiled reference's survivors: not searched
    lines += ["", f"  operator        mutants  killed  exposed  liberty  {survived}  unreachable"]
    for op, total, killed, exp, lib, equiv, unreached in operator_table(report):
        lines.append(f"  {op:<15} {total:>7}  {killed:>6}  {exp:>7}  {lib:>7}  {equiv:>10}  {unreached:>11}")

    def head(result):
        m = result.mutant
        return [f"- {m.id} in {m.function or 'module level'}: {m.description} (ran on {len(result.ran)} case(s))"] + \
            ["    " + line for line in m.diff.splitlines()[2:]]

    if exposed:
        lines += ["", f"Survivors an input exposes ({len(exposed)}; a case with these inputs would kill them):"]
        for result in exposed:
            search = result.search
            lines += head(result)
            lines.append(f"    {search.says()}")
            lines.append(f"    inputs ({search.milestone or 'no milestone'}, {search.target}): {search.inputs}")
            lines += ["    " + line for line in first_difference(search.expected, search.actual)]
            if search.expected_end != search.actual_end:
                lines.append(f"    ends: reference {search.expected_end}, mutant {search.actual_end}")
    let_in = [r for r in survivors if r.let_through]
    if let_in:
        lines += ["", f"Let through by accepted alternatives ({len(let_in)}; each was caught before its case "
                      "accepted the students' version: check the acceptance is what the handout allows):"]
        for result in let_in:
            lines += head(result)
            lines += [f"    passed only through {entry}" for entry in result.let_through]
    if liberty:
        lines += ["", f"Survivors whose output differs where no item looks ({len(liberty)}; liberties the spec "
                      "leaves, or an item to add):"]
        for result in liberty:
            lines += head(result)
            lines.append(f"    inputs: {result.search.inputs}")
            lines += ["    " + line for line in first_difference(result.search.expected, result.search.actual)]
    rest = [r for r in survivors if r not in exposed and r not in liberty]
    if rest:
        title = "Probably equivalent" if report.searched else "Surviving mutants"
        lines += ["", f"{title} ({len(rest)}; each ran on the cases that reach its lines, and all passed"
                      + (", and no searched sequence told it from the reference):" if report.searched else "):")
                  if report.explained else f"Surviving mutants ({len(rest)}; each ran on every case, and all passed; "
                                           f"{UNEXPLAINED}):"]
        for result in rest:
            lines += head(result)
            if result.search:
                lines.append(f"    {result.search.says()}")
    for status, title in ((UNREACHABLE, "Unreachable (no case and no searched sequence executes them)"),
                          (NOT_REACHED, "Not reached by any case"), (NOT_VIABLE, "Not viable (they do not compile)")):
        unreached = [r for r in report.results if r.status == status]
        if unreached:
            counts: dict[str, int] = {}
            for result in unreached:
                name = result.mutant.function or "module level"
                counts[name] = counts.get(name, 0) + 1
            lines += ["", f"{title} ({len(unreached)}): " +
                      ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1]))]
    failing = [i.id for i in report.items if not i.passed]
    lines += ["", f"audit failed: no case of {', '.join(failing)} kills a mutant" if failing
              else "audit passed: every graded item's cases kill a mutant"]
    return "\n".join(lines) + "\n"


def html(report: Audit) -> str:
    from jinja2 import Environment, PackageLoader, select_autoescape
    env = Environment(loader=PackageLoader("harness.reporting", "templates"), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    return env.get_template("audit.html.j2").render(
        a=report, operators=mutants.OPERATORS, KILLED=KILLED, SURVIVED=SURVIVED, NOT_REACHED=NOT_REACHED, ERROR=ERROR,
        UNREACHABLE=UNREACHABLE, EXPOSED=EXPOSED, LIBERTY=LIBERTY, EQUIVALENT=EQUIVALENT, NOT_VIABLE=NOT_VIABLE,
        UNEXPLAINED=UNEXPLAINED, table=operator_table(report),
        first_difference=first_difference)


def write(report: Audit, folder: Path) -> dict[str, Path]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written = {"html": folder / "audit.html", "text": folder / "audit.txt"}
        written["html"].write_text(html(report), encoding="utf-8")
        written["text"].write_text(text(report), encoding="utf-8")
    except OSError as problem:
        raise InputError(f"cannot write the audit to {folder} ({problem.strerror or problem}); choose another -o")
    return written


def milestones_of(spec: Spec, name: str, milestone: str | None) -> list[str | None]:
    """`GAME:MILESTONE` audits that milestone; a plain `GAME` audits every milestone."""
    if ":" in name or not spec.milestones:
        return [milestone]
    return list(spec.milestones)

