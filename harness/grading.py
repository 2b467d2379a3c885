"""Grade one submission: build each target, run every case, compare, and collect results.

Cases run in a pool of worker processes (cores + 1: the measured sweet spot for JVMs on a
small machine). A case whose program drew a random start is compared with the reference
re-run from that same start, so a random board can be graded.
"""
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from harness import build as builder
from harness import compare, runner, sandbox
from harness.cases import Case, load_case
from harness.environment import Workdir, child_env, reference_env
from harness.starts import StartProblem, StrategyInputs, expected_from_start
from harness.spec import Spec, load


@dataclass
class CaseResult:
    name: str
    description: str
    rubric: str
    points: float
    visibility: str
    status: str  # passed | failed | ungradable (the program's own start broke the rules)
    reason: str = ""  # one line for a person
    typed: list[str] = field(default_factory=list)
    expected: list[dict] = field(default_factory=list)
    expected_end: int | str | None = None
    actual: list[dict] = field(default_factory=list)
    actual_end: int | str | None = None
    detail: str = ""  # how the run ended
    comparison: compare.Comparison | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    command: list[str] = field(default_factory=list)
    runs: int = 0
    unusable: str | None = None  # "missing" / "rules": the run drew no start that can be graded

    @property
    def passed(self) -> bool:
        return self.status == "passed"


@cache
def _spec(game: str, root: str) -> Spec:
    return load(game, Path(root))


def case_limits(spec: Spec, case: Case) -> runner.Limits:
    return runner.Limits.merged(spec.limits, case.limits)


def run_reference(spec: Spec, case: Case, extra: list[str], inputs, home: str) -> runner.RunResult:
    command = spec.reference_command(case.milestone, case.target, case.args + extra)
    return runner.run(command, env=reference_env(home), cwd=home, inputs=inputs, limits=case_limits(spec, case))


def reference_seed_args(spec: Spec, case: Case) -> list[str]:
    """The case's seed; for a random-start target without one, the spec's fixed seed, so the
    reference's own draw (and the expected transcript) is the same every time."""
    random_start = spec.random_start_for(case.target) or {}
    seed = case.seed if case.seed is not None else random_start.get("seed")
    return ["--seed", str(seed)] if seed is not None else []


def make_inputs(spec: Spec, case: Case, home: str):
    if case.strategy is None:
        return runner.FixedInputs(case.prefix)
    reference = spec.reference_command(case.milestone, case.target, case.args)
    return StrategyInputs(case.prefix, case.strategy, reference, spec.random_start_for(case.target), home)


def _typed(events) -> list[str]:
    return [e["in"] for e in events if "in" in e]


START_TRIES = 8  # runs a case may take to draw a usable random start


def run_case(spec: Spec, case: Case, build: builder.Build) -> CaseResult:
    """Run the case (as many times as it asks) and keep the first failing run, or the last."""
    result = None
    for attempt in range(case.repeat):
        result = _run_usable(spec, case, build)
        result.runs = attempt + 1
        if result.status != "passed":
            break
    return result


def _run_usable(spec: Spec, case: Case, build: builder.Build) -> CaseResult:
    """A random game may draw a start that cannot be graded (none printed, or one against the
    rules); another run draws another. The setup item's own cases take what they get: a bad
    start is exactly what they look for. A program that never shows a start fails the case;
    one whose starts break the rules is charged to the setup item."""
    random_start = spec.random_start_for(case.target)
    setup = random_start.get("rubric") if random_start else None
    seeded = case.seed is not None and bool(spec.targets[case.target].seed_args)  # the same start every run
    tries = START_TRIES if random_start and case.rubric != setup and not seeded else 1
    against_rules = None
    for _ in range(tries):
        result = _run_once(spec, case, build)
        if result.unusable is None:
            return result
        if result.unusable == "rules":
            against_rules = result
    if tries > 1:
        (against_rules or result).notes.append(f"no usable start in {tries} runs")
    return against_rules or result


def _run_once(spec: Spec, case: Case, build: builder.Build) -> CaseResult:
    result = CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, "failed")
    args = case.args + ([a.replace("{seed}", str(case.seed)) for a in spec.targets[case.target].seed_args]
                        if case.seed is not None else [])
    result.command = build.command(args)
    with Workdir() as home:
        inputs = make_inputs(spec, case, home)
        confined = sandbox.wrap(result.command, writable=[home], readable=[build.src] if build.src else [],
                                hidden=build.hidden, cwd=home) if build.sandboxed else result.command
        run = runner.run(confined, env=child_env(home), cwd=home, inputs=inputs, limits=case_limits(spec, case))
        if build.sandboxed:
            run.end = sandbox.exit_status(run.end)
        result.actual, result.actual_end, result.detail = run.events, run.end, run.detail
        result.notes, result.seconds = list(run.notes), run.seconds
        expected, expected_end = case.expect["transcript"], case.expect["exit"]
        settings = spec.random_start_for(case.target)
        if settings:
            def rerun(extra, lines):
                return run_reference(spec, case, extra, runner.FixedInputs(lines), home)
            outcome = expected_from_start(settings, expected, run.output(), inputs, rerun)
            if isinstance(outcome, StartProblem):
                # a start against the rules is the setup item's failure; no start at all is this case's
                result.status = "ungradable" if outcome.breaks_rules else "failed"
                result.unusable = "rules" if outcome.breaks_rules else "missing"
                result.reason = outcome.reason
                if not outcome.breaks_rules:
                    result.reason += f" (it {compare.describe_end(run.end)})"
                result.typed = _typed(run.events)
                return result
            if outcome is not None:
                expected, expected_end, start = outcome
                result.notes.append(f"the program drew its own start {start!r}; the expected transcript "
                                    "is the reference's from that start")
    result.expected, result.expected_end = expected, expected_end
    result.typed = _typed(expected)
    flags = compare.policy(spec.compare, case.compare)
    comparison = compare.compare(expected, expected_end, run.events, run.end, flags)
    result.comparison = comparison
    result.status = "passed" if comparison.passed else "failed"
    if not comparison.passed:
        result.reason = "; ".join(comparison.problems + ([comparison.difference] if comparison.difference else []))
        if run.detail and run.end != expected_end and run.end in ("timeout", "output-limit", "waiting"):
            result.reason = f"{run.detail}; {result.reason}"
    return result


# --- a whole submission -------------------------------------------------------------

@dataclass
class SubmissionResult:
    submission: str
    game: str
    milestone: str | None
    builds: dict[str, builder.Build]
    cases: list[CaseResult]


def _job(game: str, root: str, case_path: str, build: builder.Build) -> CaseResult:
    spec = _spec(game, root)
    case = load_case(Path(case_path), spec)
    return run_case(spec, case, build)


def _build_failed(case: Case, build: builder.Build) -> CaseResult:
    return CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, "failed",
                      reason=f"not run: {build.reason}")


_pool: ProcessPoolExecutor | None = None


def workers() -> int:
    return int(os.environ.get("HARNESS_JOBS", 0)) or (os.cpu_count() or 1) + 1


def pool() -> ProcessPoolExecutor:
    """One pool for the whole process; each worker adopts orphans so it can kill escapees."""
    global _pool
    if _pool is None:
        # forkserver: workers never inherit the threads that build submissions side by side
        _pool = ProcessPoolExecutor(max_workers=workers(), initializer=runner.become_subreaper,
                                    mp_context=multiprocessing.get_context("forkserver"))
    return _pool


def grade(spec: Spec, milestone: str | None, cases: list[Case], submission: Path,
          builds: dict[str, builder.Build] | None = None) -> SubmissionResult:
    """Build every target the cases need (unless `builds` are given), run all cases in
    parallel, keep case order."""
    targets = sorted({case.target for case in cases}, key=list(spec.targets).index)
    builds = builds or {t: builder.build(submission, spec, t) for t in targets}
    root = str(spec.folder.parent.parent)
    futures = {}
    for case in cases:
        build = builds[case.target]
        if build.ok:
            futures[case.name] = pool().submit(_job, spec.game, root, str(case.path), build)
    results = [futures[c.name].result() if c.name in futures else _build_failed(c, builds[c.target]) for c in cases]
    for build in builds.values():
        builder.cleanup(build)
    return SubmissionResult(str(submission), spec.game, milestone, builds, results)
