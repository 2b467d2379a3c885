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

Mutants are the project's own code: they run without the sandbox.
"""
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from harness.building import build as builder
from harness.classes import batch
from harness.grading import submission as grading
from harness.suite import mutants
from harness.loading import paths
from harness.loading.cases import Case
from harness.errors import InputError
from harness.results import FAILED, HARNESS_ERROR, PASSED, UNGRADABLE
from harness.loading.spec import Spec

LINETRACE = Path(__file__).with_name("linetrace.py")
KILLED, SURVIVED, NOT_REACHED, ERROR = "killed", "survived", "not-reached", "error"


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


def _build(target: str, copy: Path, run: list[str]) -> builder.Build:
    return builder.Build(target, "python", True, src=str(copy), run=[*run, "{args}"],
                         intake=["a mutant of the reference, run as it is (trusted code: no sandbox)"])


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
        fixed = (spec.random_start_for(case.target) or {}).get("seed")
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


@dataclass
class ItemAudit:
    id: str
    title: str
    cases: list[str]
    killed: int  # mutants killed by at least one of its cases
    total: int  # mutants audited

    @property
    def score(self) -> float:
        return self.killed / self.total if self.total else 0.0

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

    @property
    def passed(self) -> bool:
        return all(item.passed for item in self.items)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)


# --- running ------------------------------------------------------------------------------

@dataclass
class Options:
    sample: int | None = None
    seed: int = 0
    select: str | None = None
    jobs: int | None = None
    only: tuple[str, ...] = ()  # audit just these mutant ids (e.g. a survivor, again)
    every_case: bool = False  # run every reaching case, not one killer per item


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
        self.milestones = milestones
        self.grader = grader
        self.scratch = scratch
        self.reference = resolve(spec)
        self._counter = 0
        self._lock = threading.Lock()

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
        copy = _copy(self.reference, folder, mutant.source)
        result = MutantResult(mutant, SURVIVED)
        by_item: dict[str, list[Case]] = {}
        for case in hit:
            by_item.setdefault(case.rubric, []).append(case)
        try:
            if every_case:
                self._grade(copy, hit, result)
            else:
                self._grade(copy, [cases[0] for cases in by_item.values()], result)
                killed = set(result.killed_by)
                self._grade(copy, [c for cases in by_item.values() if not killed.intersection(x.name for x in cases)
                                   for c in cases[1:]], result)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        result.status = KILLED if result.killed_by else ERROR if result.errors else SURVIVED
        result.skipped = len(hit) - len(result.ran)
        result.seconds = round(time.monotonic() - started, 3)
        return result

    def _grade(self, copy: Path, cases: list[Case], result: MutantResult) -> None:
        for milestone, group in self._groups(cases).items():
            builds = {c.target: _build(c.target, copy, _command(self.spec, self.reference, milestone, c.target, copy))
                      for c in group}
            graded = self.grader.grade(self.spec, milestone, group, copy, builds)
            for case in graded.cases:
                result.ran.append(case.name)
                if _killer(case.status):
                    result.killed_by.append(case.name)
                elif case.status == HARNESS_ERROR:
                    result.errors.append(case.name)


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
            items.append(ItemAudit(item.id, item.title, names, killed, len(results)))
    return items


def audit(spec: Spec, milestones: list[str | None], cases: list[Case], options: Options, progress=None) -> Audit:
    """Make the mutants, trace the cases' reach, run the (sampled) mutants, score every item."""
    started = time.monotonic()
    reference = resolve(spec)
    skip = set(mutants.SKIP)
    law = (spec.random_start or {}).get("distribution") or {}
    # the harness calls these in-process, never through the program
    for called in (spec.rewrite, law.get("values"), (spec.state or {}).get("read")):
        if called and called.partition(":")[0] == reference.module:
            skip.add(called.partition(":")[2])
    made = mutants.generate(reference.path.read_text(encoding="utf-8"), reference.name, skip)
    if options.only:
        unknown = sorted(set(options.only) - {m.id for m in made})
        if unknown:
            raise InputError(f"--mutant {unknown[0]}: no such mutant of {reference.name}; the ids are in the "
                             "audit's report (module:line:column:operator)")
        made = [m for m in made if m.id in options.only]
    local = batch.Local(options.jobs, threads=2 * grading.workers(options.jobs))  # threads keep the case workers fed
    grader, results, futures = local.grader, [], []
    with tempfile.TemporaryDirectory(prefix="harness-audit-") as scratch:
        try:
            auditor = Auditor(spec, milestones, cases, grader, Path(scratch))
            reach = auditor.reach()
            by_item = {}
            for milestone in milestones:
                for item in spec.items(milestone):
                    if item.graded:
                        by_item[item.id] = [c.name for c in cases if c.rubric == item.id]
            chosen = choose(made, reach, by_item, options.sample, options.seed)
            if progress:
                progress.start(len(chosen))
            futures = [local.builders.submit(auditor.run, m, reach, options.every_case) for m in chosen]
            for future in futures:
                results.append(future.result())
                if progress:
                    progress.done(results[-1])
        except KeyboardInterrupt:  # Ctrl-C: no mutant or case is started again, every run below this process ends
            local.interrupt(futures)
            raise
        finally:
            local.close()
    return Audit(spec.game, spec.title, milestones, reference.name, len(made), options.sample, options.seed,
                 len(cases), results, _items(spec, milestones, cases, results), round(time.monotonic() - started, 1))


# --- reports --------------------------------------------------------------------------

class Progress:
    """A line per mutant on standard error, or a tqdm bar there when it is a terminal."""

    def __init__(self, quiet: bool = False, err=None):
        self.quiet = quiet
        self.err = err or sys.stderr
        self.bar = None
        self.total = 0
        self.count = 0

    def start(self, total: int) -> None:
        self.total = total
        if not self.quiet and self.err.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total, file=self.err, unit=" mutants", leave=False, dynamic_ncols=True)

    def done(self, result: MutantResult) -> None:
        self.count += 1
        if self.bar is not None:
            self.bar.update(1)
            if self.count == self.total:
                self.bar.close()
        elif not self.quiet:
            how = f" by {len(result.killed_by)} case(s)" if result.killed_by else ""
            print(f"  {self.count}/{self.total} {result.status}{how}: {result.mutant.id}", file=self.err, flush=True)


def text(report: Audit) -> str:
    """The terminal summary: a table of the graded items, then the survivors with their diffs."""
    where = ", ".join(m for m in report.milestones if m) or "all cases"
    sample = f", a sample of {len(report.results)} (seed {report.seed})" if report.sample else ""
    lines = [f"Audit of {report.title} ({report.game}: {where}): {report.reference}, {report.made} mutants{sample}, "
             f"{report.cases} cases",
             f"  killed {report.count(KILLED)}, survived {report.count(SURVIVED)}, not reached by any case "
             f"{report.count(NOT_REACHED)}, harness errors {report.count(ERROR)}; {report.seconds:.0f} s", ""]
    width = max([len(i.id) for i in report.items] + [4])
    lines.append(f"  {'item':<{width}}  cases  killed       score  verdict")
    for item in report.items:
        verdict = "ok" if item.passed else "FAIL: no case of this item kills a mutant"
        lines.append(f"  {item.id:<{width}}  {len(item.cases):>5}  {item.killed:>4}/{item.total:<6} {item.score:>5.0%}  "
                     f"{verdict}")
    survivors = [r for r in report.results if r.status == SURVIVED]
    if survivors:
        lines += ["", f"Surviving mutants ({len(survivors)}; each ran on the cases that reach its lines, and all passed):"]
        for result in survivors:
            m = result.mutant
            lines.append(f"- {m.id} in {m.function or 'module level'}: {m.description} "
                         f"(ran on {len(result.ran)} case(s))")
            lines += ["    " + line for line in m.diff.splitlines()[2:]]
    unreached = [r for r in report.results if r.status == NOT_REACHED]
    if unreached:
        counts: dict[str, int] = {}
        for result in unreached:
            counts[result.mutant.function or "module level"] = counts.get(result.mutant.function or "module level", 0) + 1
        lines += ["", f"Not reached by any case ({len(unreached)}): " +
                  ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1]))]
    failing = [i.id for i in report.items if not i.passed]
    lines += ["", f"audit failed: no case of {', '.join(failing)} kills a mutant" if failing
              else "audit passed: every graded item's cases kill a mutant"]
    return "\n".join(lines) + "\n"


def html(report: Audit) -> str:
    from jinja2 import Environment, PackageLoader, select_autoescape
    env = Environment(loader=PackageLoader("harness.reporting", "templates"), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    return env.get_template("audit.html.j2").render(a=report, operators=mutants.OPERATORS, KILLED=KILLED,
                                                    SURVIVED=SURVIVED, NOT_REACHED=NOT_REACHED, ERROR=ERROR)


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

