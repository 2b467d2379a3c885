"""Grade one submission: build each target, run every case, judge, and score.

Running a case is three steps: run the program; get the expected transcript for this run
(the case's own, or the reference re-run from the random start the program drew); judge the
two under the case's comparison policy. Cases run in a pool of worker processes that get
each case whole (spec, case and build travel to the worker); an exception in one case becomes
that case's "harness error", never the batch's end.
"""
import dataclasses
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from harness.building import build as builder
from harness.building import reference
from harness.building.javac_server import WarmJavac
from harness.grading import drawn, scoring, shown_paths
from harness.judging import alternatives, charging, compare, cpu_budget, facts, views
from harness.loading import config, functions
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.outcome import End, Kind
from harness.results import FAILED, HARNESS_ERROR, PASSED, BuildSummary, CaseResult, Cause, SubmissionResult, Verdict, Visibility
from harness.running import launcher, proctree, runner, sandbox
from harness.running.budget import Budget, Meter, counter, for_cases
from harness.running.environment import Workdir, child_env, fork_server, reference_env, trusted_folder
from harness.safe_text import cap
from harness.starts import drawing
from harness.starts.reading import MISSING, StartProblem
from harness import transcript
from harness.transcript import Transcript

if TYPE_CHECKING:  # the pool's module is imported when a pool is made: `harness run -k` needs none
    from concurrent.futures import ProcessPoolExecutor

@dataclass
class Expected:
    """The transcript and end a case expects for one run."""
    events: Transcript
    end: End
    note: str = ""  # how it was obtained, when not the case's own


# --- one run -------------------------------------------------------------------------

def case_limits(spec: Spec, case: Case) -> runner.Limits:
    return spec.limits.merged(case.limits)


def run_reference(spec: Spec, case: Case, extra: list[str], inputs, program_home: str | None = None) -> runner.RunResult:
    """The reference's run of this case. It starts in a fresh folder of its own, its HOME and
    TMPDIR too (environment.trusted_folder), never in `program_home`, the folder a program ran in,
    which callers hold and pass along: what a program wrote there (a module named as the
    reference, a sitecustomize.py) must never run with the harness's rights."""
    command = spec.reference_command(case.milestone, case.target, case.args + extra)
    with trusted_folder() as home:
        return runner.run(command, env=reference_env(home), cwd=home, inputs=inputs, limits=case_limits(spec, case))


def rewriter(name: str | None):
    """The spec's `rewrite` function (module:function), or the identity."""
    return functions.load(name) if name else _identity


def _identity(text: str) -> str:
    return text


def state_reader(spec: Spec) -> facts.StateReader | None:
    """The spec's state reader (`state: {read: module:function, carry: [...]}`): a turn's
    output -> the (kind, value) facts a person reads in it; None when the spec has none."""
    if not spec.state:
        return None
    return facts.StateReader(rewriter(spec.state["read"]), tuple(spec.state.get("carry", ())),
                             tuple(spec.state.get("presence", ())), tuple(spec.state.get("single", ())))


def _read_facts(spec: Spec):
    reader = state_reader(spec)
    return reader.read if reader else None


def make_inputs(spec: Spec, case: Case, program_home: str | None = None):
    """What is typed into this case's run (its lines, or what its strategy plays from the start
    drawn, planned by the reference in a folder of its own, never `program_home`)."""
    return drawing.inputs(spec, case, rewriter(spec.rewrite), _read_facts(spec))


def _program_args(spec: Spec, case: Case) -> list[str]:
    seed_args = spec.targets[case.target].seed_args if case.seed is not None else []
    return case.args + [a.replace("{seed}", str(case.seed)) for a in seed_args]


def _run_program(spec: Spec, case: Case, build: builder.Build, home: str, inputs,
                 meter: Meter | None = None, spin: bool = False) -> tuple[list[str], runner.RunResult]:
    """The program's run; with a meter, counted against its submission's budget as it goes;
    `spin` when it has a core to itself (runner.run)."""
    command = build.command(_program_args(spec, case))
    limits = dataclasses.replace(case_limits(spec, case), budget=meter)
    # the run sees its own copy of the build folder: nothing in it is a file another run sees
    with sandbox.own_copies([build.src] if build.src and build.sandboxed else []) as copies:
        confined = sandbox.wrap(command, writable=[home], readable=[], hidden=build.hidden, cwd=home, copies=copies) \
            if build.sandboxed else sandbox.unprivileged(command, [home], [build.src] if build.src else [],
                                                         build.sandbox_setting)
        run = runner.run(confined, env=child_env(home), cwd=home, inputs=inputs, limits=limits, spin=spin)
    if build.sandboxed and run.end.kind == Kind.EXIT:
        run.end = End.parse(sandbox.exit_status(run.end.status))
    return command, run


def _rewritten(spec: Spec, events: Transcript) -> tuple[Transcript, bool, list[str]]:
    """The program's output with the handout's alternative renderings read as the reference's,
    and what the reading says of itself (a rewrite may return a str with `notes`: an ambiguous
    drawing and the reading taken). A rewrite with a `run` reads the run's outputs together, so
    what it learns from one (the drawing of the start) reads the others."""
    rewrite = rewriter(spec.rewrite)
    outputs = [event["out"] for event in events if "out" in event]
    reads = iter(rewrite.run(outputs) if callable(getattr(rewrite, "run", None)) else map(rewrite, outputs))
    out, notes = [], []
    for event in events:
        if "out" in event:
            read = next(reads)
            notes += getattr(read, "notes", ())
            event = {"out": str(read)}
        out.append(event)
    return out, out != events, list(dict.fromkeys(notes))


def _expected(spec: Spec, case: Case, events: Transcript, inputs, home: str) -> "Expected | StartProblem":
    """The transcript this run must match: the case's own, or the reference's from the program's start."""
    def rerun(extra, lines):
        return run_reference(spec, case, extra, runner.FixedInputs(lines), home)

    output = transcript.output(events)
    outcome = drawing.expected(spec, case, output, inputs, rerun, _read_facts(spec))
    if outcome is None:
        return Expected(case.expected_events, case.expected_end)
    if isinstance(outcome, StartProblem):
        return outcome
    return Expected(outcome.events, outcome.end,
                    f"the program drew its own start {outcome.start!r}; the expected transcript is the reference's from that start")


def view_of(spec: Spec, item: str, case_compare=None) -> compare.View:
    """How a case of `item` looks at a run (the spec's defaults, the item's policy, the case's own)."""
    return compare.View(spec.policy(item, case_compare), spec.messages, state_reader(spec))


def _judge(spec: Spec, case_milestone: str | None, view: compare.View, result: CaseResult, run: runner.RunResult,
           read_events: Transcript, expected: Expected, printed_events: Transcript | None = None,
           replay: "Callable[[charging.Drop], charging.Replay] | None" = None) -> CaseResult:
    """Compare the run with what it should have printed; a failure whose first difference is a
    turn another item owns (the spec's `owners:`) is charged to that item, or to the item owning
    an earlier input the difference needs (`replay(drop)`: the case run again without it, program
    and reference; judging/charging.py decides). `read_events` is the program's output read
    through the spec's rewrite; an item that judges the program's own rendering (rewrite: false)
    is compared with the output as printed (`printed_events`: with the case's accepted
    alternatives read as the reference's lines)."""
    printed = run.events if printed_events is None else printed_events

    def events_for(flags) -> Transcript:
        return read_events if flags.rewrite else printed

    result.expected, result.expected_end = expected.events, expected.end
    result.typed = transcript.typed(expected.events)
    if expected.note:
        result.notes.append(expected.note)
    events = events_for(view.flags)
    comparison = compare.compare_within(expected.events, expected.end, events, run.end, view)
    result.policy = views.describe_policy(view.flags)
    result.turns, result.first_divergence = comparison.turns, comparison.first_divergence
    _show_as_printed(result.turns, run.events)
    result.hint = comparison.hint
    result.status = PASSED if comparison.passed else FAILED
    if not comparison.passed:
        result.reason = "; ".join(comparison.problems + ([comparison.difference] if comparison.difference else []))
        if run.detail and run.end != expected.end and (run.end.stopped or run.end.kind == Kind.WAITING):
            result.reason = f"{run.detail}; {result.reason}"

        chargeable = {i.id for i in spec.items(case_milestone) if i.graded}

        def whole_view(item: str) -> compare.View | None:  # the owner's look at every turn
            if item not in chargeable:
                return None
            # the same message classes and state reader: a turn's text is read for its facts once
            return compare.View(spec.policy(item, None).replace({"turns": "all", "from": None}), view.messages,
                                view.reader)

        charged = charging.charge(spec.owners, result.rubric, comparison, expected.events, expected.end,
                                  lambda other: events_for(other.flags), run.end, whole_view)
        if replay is not None and spec.owners:
            charged = _charge_by_replays(spec, result, comparison, expected, run, view, charged, chargeable,
                                         lambda flags: events_for(flags), whole_view, replay)
        if charged is not None:
            result.charged_to, result.own_passed = charged.item, charged.own_passed
            result.reason = f"{charged.describe(result.name)}; {result.reason}"
    return result


def _charge_by_replays(spec: Spec, result: CaseResult, comparison: compare.Comparison, expected: Expected,
                       run: runner.RunResult, view: compare.View, charged: "charging.Charge | None",
                       chargeable: set[str], events_for, whole_view, replay) -> "charging.Charge | None":
    """The charge once the earlier inputs other items own are tested as the cause: each replay
    leaves one item's inputs out (at most charging.MAX_REPLAYS, stopping at the first that shows
    the cause); the decision is charging.by_replays'."""
    if charged is not None:
        blamed, turn = charged.item, charged.turn
    else:
        blamed = result.rubric
        turn, _ = charging.divergence(comparison, expected.events, expected.end, lambda v: events_for(v.flags),
                                      run.end, whole_view(result.rubric))
    drops = [d for d in charging.drops(spec.owners, blamed, expected.events, turn)
             if d.item in chargeable or d.item == result.rubric]
    if not drops:
        return charged
    divergence_view = whole_view(blamed) or view
    outcomes = []
    for drop in drops:
        made = replay(drop)
        outcomes.append(charging.outcome(spec.owners, made, expected.events, divergence_view, view))
        if outcomes[-1].legal and outcomes[-1].gone:
            break
    for seen in outcomes:
        result.notes.append(_replay_note(seen))
    return charging.by_replays(charged, result.rubric, outcomes)


def _replay_note(seen: "charging.ReplayOutcome") -> str:
    drop = seen.drop
    said = f"replayed without {drop.what} ({len(drop.inputs)} typed line{'s' if len(drop.inputs) > 1 else ''} " \
           f"of `{drop.item}`, from turn {drop.turn}), the reference likewise: "
    if not seen.legal:
        return said + "no evidence (without them the reference plays another game: it did not refuse them " \
                      "anyway)"
    if not seen.gone:
        return said + f"the program still differs by turn {drop.divergence - len(drop.inputs)}, so they are not the cause"
    return said + "the difference is gone, so they are its cause" + (
        ", and the case passes without them" if seen.passed else "")


def _replayer(spec: Spec, case: Case, build: builder.Build, meter: Meter | None,
              spin: bool) -> "Callable[[charging.Drop], charging.Replay] | None":
    """Replays of this case without some of its typed lines: the program run again (in a home of
    its own) and the reference likewise, on the case's own start. None when the program draws its
    own start: a replay would be another game (another start, and lines planned from it), so no
    evidence, and a grade must not hang on whether a replay drew the same start."""
    if drawing.drawing(spec, case) is not None:
        return None

    def replay(drop: "charging.Drop") -> "charging.Replay":
        left_out = set(drop.inputs)
        lines = [line for index, line in enumerate(views.split_turns(case.expected_events)[1])
                 if index not in left_out]
        with Workdir() as home:  # the reference first: a replay it does not make a legal game costs no run
            reference_run = run_reference(spec, case, drawing.reference_seed_args(spec, case),
                                          runner.FixedInputs(lines), home)
            made = charging.Replay(drop, True, case.expected_events, case.expected_end, reference_run.events,
                                   reference_run.end)
            if not charging.refused_anyway(made):
                return made
        with Workdir() as home:
            _, run = _run_program(spec, case, build, home, runner.FixedInputs(lines), meter, spin)
            if run.budget_spent:
                return charging.Replay(drop, made=False)
            printed, _ = alternatives.apply(case.accept, run.events)
            try:
                with cpu_budget.cpu_budget(cpu_budget.COMPARE_SECONDS):
                    events, _, _ = _rewritten(spec, printed)
            except cpu_budget.OverBudget:
                return charging.Replay(drop, made=False)
        return dataclasses.replace(made, program_for=lambda v: events if v.flags.rewrite else printed,
                                   program_end=run.end)

    return replay


def _show_as_printed(turns, printed_events: Transcript) -> None:
    """A turn the harness read otherwise than printed (a drawing of the board the spec's
    rewrite reads as the reference's) shows the program's own lines, with the reading beside."""
    printed, _ = views.split_turns(printed_events)
    for turn in turns:
        if turn.index < len(printed) and turn.actual is not None and turn.actual != printed[turn.index]:
            turn.read = turn.read or turn.actual
            turn.actual = printed[turn.index]


def _attempt(spec: Spec, case: Case, build: builder.Build, meter: Meter | None = None,
             spin: bool = False) -> tuple[CaseResult, StartProblem | None]:
    """Run once, then judge; a start that cannot be graded comes back as the problem."""
    result = CaseResult(case.name, case.description, case.rubric, case.points, case.visibility)
    with Workdir() as home:
        inputs = make_inputs(spec, case, home)
        result.command, run = _run_program(spec, case, build, home, inputs, meter, spin)
        result.actual, result.actual_end, result.detail = run.events, run.end, run.detail
        result.printed = run.raw
        result.cause = Cause.BUDGET_SPENT if run.budget_spent else None
        result.notes, result.seconds = list(run.notes), run.seconds
        view = view_of(spec, case.rubric, case.compare)
        printed, used = alternatives.apply(case.accept, run.events)
        try:  # the spec's readers run over the program's output: bounded like the comparison
            with cpu_budget.cpu_budget(cpu_budget.COMPARE_SECONDS):
                events, changed, read_notes = _rewritten(spec, printed)
        except cpu_budget.OverBudget as over:
            result.status = FAILED
            result.reason = (f"reading the program's output as the game took more than {over.seconds:g} s of CPU: "
                             "its output is too large or too unusual to judge, so the case fails")
            return result, None
        if changed and view.flags.rewrite:
            result.notes.append("the program's output was read in the other forms the handout allows (another "
                                "drawing of the board, say) before it was compared: each turn shows that reading "
                                "beside the program's lines")
            result.notes += [f"reading the program's output: {note}" for note in read_notes]
        expected = _expected(spec, case, events, inputs, home)
        problem = expected if isinstance(expected, StartProblem) else None
        result.starts = drawing.drawn(spec, case, transcript.output(events), problem, _read_facts(spec))
        if isinstance(expected, StartProblem):
            result.typed = transcript.typed(run.events)
            result.reason = expected.reason
            if expected.kind == MISSING:
                result.reason += f" (it {run.end.describe()})"
            return result, expected
        # the start is always read through the rewrite; an item that judges the program's own
        # rendering (rewrite: false) is compared with the output as printed
        result = _judge(spec, case.milestone, view, result, run, events, expected, printed,
                        _replayer(spec, case, build, meter, spin))
        if used and result.status == PASSED:
            _note_accepted(spec, case, view, run, expected, used, result)
        return result, None


def _note_accepted(spec: Spec, case: Case, view: compare.View, run: runner.RunResult, expected: Expected,
                   used: list, result: CaseResult) -> None:
    """A case that passed through an accepted alternative says so, and records the ones it
    passed only through (the audit reports what an acceptance lets in)."""
    said = "; ".join(entry.describe() for entry in used)
    result.notes.append(f"the case's accepted alternative{'s' if len(used) > 1 else ''} applied: {said}")
    try:
        with cpu_budget.cpu_budget(cpu_budget.COMPARE_SECONDS):
            plain, _, _ = _rewritten(spec, run.events)
        events = plain if view.flags.rewrite else run.events
        passed_without = compare.compare_within(expected.events, expected.end, events, run.end, view).passed
    except cpu_budget.OverBudget:
        passed_without = False  # not shown to pass without: counted as let in by the acceptance
    if not passed_without:
        result.accepted = [entry.describe() for entry in used]


def _out_of_time(case: Case, budget: Budget) -> CaseResult:
    """A case (or the rest of one) the submission's spent budget leaves no time for: the program's."""
    return CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, FAILED,
                      reason=f"not run: {budget.describe()}", cause=Cause.OUT_OF_TIME)


def _metered_attempt(spec: Spec, case: Case, build: builder.Build, budget: Budget | None,
                     spin: bool = False) -> tuple[CaseResult, StartProblem | None]:
    """One attempt within the submission's time budget: none once it is spent; else the
    program's run is capped by what is left and stopped when it runs out, and the whole
    attempt's time (the reference's re-run and the comparison too) is counted, so only the
    submission's own work is, never its cases' wait in the queue. A run the budget stopped
    fails its case for the program, and says so, whatever its output showed."""
    if budget is None:
        return _attempt(spec, case, build, spin=spin)
    if budget.left() <= 0:
        return _out_of_time(case, budget), None
    meter = Meter(budget)
    started = time.monotonic()
    try:
        result, problem = _attempt(spec, case, build, meter, spin)
    finally:
        budget.spend(time.monotonic() - started - meter.counted)
    if result.cause == Cause.BUDGET_SPENT:
        if result.reason:
            result.notes.append(f"as judged before the budget was spent: {result.reason}")
        result.status, result.charged_to = FAILED, None
        result.reason = f"{result.detail}; all its runs together may take {budget.seconds:g} s, so this case fails"
        return result, None
    return result, problem


def _run_drawn(spec: Spec, case: Case, build: builder.Build, budget: Budget | None = None,
               spin: bool = False) -> CaseResult:
    """The case run until it draws a start it can be graded on (`drawing.draw`), with every
    start the program showed on the way, for the check of its random setup."""
    return drawn.kept(drawing.draw(spec, case, lambda: _metered_attempt(spec, case, build, budget, spin)))


def run_case(spec: Spec, case: Case, build: builder.Build, budget: Budget | None = None,
             spin: bool = False) -> CaseResult:
    """Run the case as many times as it asks; keep the first run that is not a pass, or the last.
    `spin`: its runs have a core to themselves (runner.run).
    A case whose budget runs out before its last repeat fails: passing fewer runs than it asks
    for would let a slow program skip the runs that catch its luck."""
    result = None
    starts: list[str] = []
    broken: list[str] = []
    for attempt in range(case.repeat):
        result = _run_drawn(spec, case, build, budget, spin)
        starts += result.starts
        broken += result.against_rules
        skipped = not result.ran
        result.runs = attempt + (0 if skipped else 1)
        if skipped and attempt:
            result.notes.append(f"its first {attempt} of {case.repeat} runs passed before the time budget was spent")
        if result.status != PASSED:
            break
    result.starts, result.against_rules = starts, broken
    return _bounded(result)


STORED_CHARS = 8000  # of one output event or turn kept in a result (the comparison saw it all)
PRINTED_CHARS = 2000  # of one output event as printed, kept where the terminal's reading differs
REASON_CHARS = 2000


def _bounded(result: CaseResult) -> CaseResult:
    """A flood of output stays out of the reports: first and last part kept, the cut marked."""
    result.actual = [{"out": cap(e["out"], STORED_CHARS)} if "out" in e else e for e in result.actual]
    if result.printed is not None:  # the bytes beside the reading: a shorter excerpt is enough
        result.printed = [{"out": cap(e["out"], PRINTED_CHARS)} if "out" in e else e for e in result.printed]
    for turn in result.turns:
        turn.actual = cap(turn.actual, STORED_CHARS) if turn.actual is not None else None
        turn.read = cap(turn.read, STORED_CHARS) if turn.read is not None else None
    result.reason = cap(result.reason, REASON_CHARS)
    result.detail = cap(result.detail, REASON_CHARS)
    return result


def _failure() -> str:
    """The exception being handled, with its traceback (imported only when the harness fails)."""
    import traceback

    return traceback.format_exc()


def harness_error(case: Case, problem: str, cause: Cause | None = None) -> CaseResult:
    return CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, HARNESS_ERROR,
                      reason=f"the harness failed on this case (not the program's fault): {problem.strip().splitlines()[-1]}",
                      notes=[problem], cause=cause)


Progress = Callable[[int, int], None]  # (cases done, cases in all)


class _Counter:
    """Cases finished so far, told to a progress callback (futures finish on pool threads)."""
    def __init__(self, total: int, progress: Progress | None):
        self.total, self.done, self.progress = total, 0, progress
        self._lock = threading.Lock()

    def tick(self, _future=None) -> None:
        with self._lock:
            self.done += 1
            done = self.done
        if self.progress is not None:
            self.progress(done, self.total)


@dataclass
class Job:
    """Everything a worker needs for one case."""
    spec: Spec
    case: Case
    build: builder.Build
    budget: Budget | None = None  # the submission's time budget, shared by all its jobs (None: unbounded)


def run_job(job: Job, spin: bool = False) -> CaseResult:
    """In a worker: never raises, whatever the case does."""
    try:
        return run_case(job.spec, job.case, job.build, job.budget, spin)
    except Exception:  # any failure of the harness itself is this case's result, not the batch's end
        return harness_error(job.case, _failure())


# --- a whole submission ---------------------------------------------------------------

def _not_run(case: Case, build: builder.Build) -> CaseResult:
    return CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, FAILED,
                      reason=f"not run: {build.reason}", cause=Cause.NOT_BUILT)


def _status(builds: dict[str, builder.Build], cases: list[CaseResult]) -> Verdict:
    if any(not b.ok and b.missing_files for b in builds.values()):
        return Verdict.MISSING_FILES
    if any(not b.ok for b in builds.values()):
        return Verdict.BUILD_FAILED
    if any(c.status == HARNESS_ERROR for c in cases):
        return Verdict.HARNESS_ERROR
    return Verdict.GRADED


def summary(build: builder.Build, handout_language: str | None = None) -> BuildSummary:
    """What the reports say of a build; `handout_language`: the target's, kept only when the
    submission used another (graded on its merits, and the instructor told)."""
    other = handout_language if build.language and handout_language and build.language != handout_language else None
    return BuildSummary(build.target, build.language, build.ok, build.reason, build.log,
                        build.diagnosis, list(build.findings), list(build.intake),
                        round(build.seconds, 3), other, reused=build.reused)


def workers(configured: int | None = None, settings: config.Settings = config.DEFAULTS) -> int:
    """Case workers: as asked, else the settings' HARNESS_JOBS, else one per core plus one."""
    return configured or settings.jobs or (os.cpu_count() or 1) + 1


def _start_worker() -> None:
    """In each case worker as it starts: adopt orphans (child subreaper), so it can kill a
    program's escaped processes, and make its first run's process (running.launcher)."""
    proctree.adopt_orphans()
    launcher.for_this_process().prepare()


class Grader:
    """A pool of case workers shared by every submission of one grading (cores + 1 workers:
    the measured sweet spot for JVMs on a small machine). Use as a context manager.
    `settings` are the front door's (`config.load()`, read once per command): the number of
    case workers, the sandbox and the JVM archive of every build and run of this grading; what
    a case worker needs of them travels with its job (the build's `sandbox_setting`)."""

    def __init__(self, jobs: int | None = None, inline: bool = False, settings: config.Settings = config.DEFAULTS):
        self.settings = settings
        self.jobs = workers(jobs, settings)
        # each run gets a core for its program and one for its harness to spin on (runner.run)
        self.spin = 2 * self.jobs <= (os.cpu_count() or 1)
        self.inline = inline  # a grading of one case may run it in this process (nothing else reaps here)
        self._pool: "ProcessPoolExecutor | None" = None
        self._lock = threading.Lock()  # submissions are graded from several builder threads
        self.compiler = WarmJavac(settings.sandbox)  # one warm javac for every Java build of this grading

    def __enter__(self) -> "Grader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self.compiler.close()

    def _workers(self, broken: "ProcessPoolExecutor | None" = None) -> "ProcessPoolExecutor":
        """The pool, made once; `broken` (a pool that lost a worker) is replaced by a new one."""
        from concurrent.futures import ProcessPoolExecutor

        with self._lock:
            if self._pool is not None and self._pool is broken:
                self._pool = None
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=_start_worker,
                                                 mp_context=fork_server())
            return self._pool

    def run_cases(self, jobs: list[Job], progress: Progress | None = None) -> list[CaseResult]:
        """Every job's result in order; a worker that dies costs only the cases it had.
        `progress(done, total)` is told as each job finishes (from a pool thread)."""
        if self.inline and len(jobs) == 1 and self._pool is None:
            # one case alone (`harness run -k`): starting a pool would cost more than the case
            proctree.adopt_orphans()
            return [run_job(jobs[0], spin=True)]
        from concurrent.futures.process import BrokenProcessPool

        futures = [None] * len(jobs)
        finished = _Counter(len(jobs), progress)
        # the cases that run many times first, so the pool does not end waiting on one of them
        for index in sorted(range(len(jobs)), key=lambda i: -jobs[i].case.repeat):
            pool = self._workers()
            try:
                futures[index] = pool.submit(run_job, jobs[index], self.spin)
            except BrokenProcessPool:
                futures[index] = self._workers(broken=pool).submit(run_job, jobs[index], self.spin)
            if progress is not None:
                futures[index].add_done_callback(finished.tick)
        results = []
        for job, future in zip(jobs, futures):
            try:
                results.append(future.result())
            except BrokenProcessPool:
                results.append(harness_error(job.case, "a worker process died while running this case",
                                             Cause.WORKER_DIED))
            except Exception:
                results.append(harness_error(job.case, _failure()))
        if any(r.cause == Cause.WORKER_DIED for r in results):
            self._workers(broken=self._pool)  # a fresh pool for the submissions that follow
        return results

    def grade(self, spec: Spec, milestone: str | None, cases: list[Case], submission: Path,
              builds: dict[str, builder.Build] | None = None, name: str | None = None,
              progress: Progress | None = None,
              public_done: Callable[[SubmissionResult], None] | None = None) -> SubmissionResult:
        """Build every target the cases need (unless `builds` are given), run all cases, score.
        Every run of the cases, their draws and repeats, the settling and the top-up runs share
        the submission's time budget (the cases' turns at their limit and spec.submission_seconds on
        top, or the --budget given as a whole: harness/running/budget.py, for_cases).
        `progress(done, total)` follows the cases (not the extra runs of random starts).

        The public cases run first, to the end (their draws, repeats, the check of their starts
        and their settling), and only then the hidden ones: nothing a hidden run does (what it
        locks, the CPU, memory or budget it takes, how long it lasts) can reach a public result,
        which is final before any hidden run starts. `public_done(result)` is called at that
        moment, from this thread, with those final public results (the hidden cases in it are
        placeholders, not run yet): a service shows it to the student, and nothing later.
        The result keeps the order of `cases`; what each phase's starts add comes after them."""
        spec = reference.prepared(spec, settings=self.settings)  # as the front door prepared it; else built once here
        targets = sorted({case.target for case in cases}, key=list(spec.targets).index)
        made = {}
        try:
            if builds is None:
                for target in targets:
                    made[target] = _build(submission, spec, target, self.compiler, self.settings)
                builds = made
            seconds = spec.submission_seconds if spec.budget_given else for_cases(spec.submission_seconds, spec.limits, cases)
            with counter(seconds) as budget:
                steps = _PhaseRun(self, spec, builds, budget, progress, len(cases))
                public = steps.run(cases, [i for i, c in enumerate(cases) if c.visibility != Visibility.HIDDEN])
                if public_done is not None:
                    public_done(self._result(spec, milestone, _in_order(cases, public, None), builds, submission, name))
                hidden = steps.run(cases, [i for i, c in enumerate(cases) if c.visibility == Visibility.HIDDEN])
                results = _in_order(cases, public, hidden)
        finally:
            for build in made.values():
                try:
                    builder.cleanup(build)
                except OSError:
                    pass  # a folder the program made undeletable must not cost the other submissions
        return self._result(spec, milestone, results, builds, submission, name)

    @staticmethod
    def _result(spec: Spec, milestone: str | None, results: list[CaseResult],
                builds: dict[str, builder.Build], submission: Path, name: str | None) -> SubmissionResult:
        """The scored result of these case results."""
        scores = scoring.score(spec, spec.items(milestone), results)
        return shown_paths.scrub(SubmissionResult(
            submission=str(submission), name=name or submission_name(submission), game=spec.game, title=spec.title,
            milestone=milestone, sandbox=sandbox_mode(builds), status=_status(builds, results),
            builds={t: summary(b, spec.targets[t].handout_language) for t, b in builds.items()}, cases=scores.cases,
            items=scores.items, earned=scores.earned, possible=scores.possible))


NOT_RUN_YET = "not run yet: hidden cases run once the public ones are done"


def _not_run_yet(case: Case) -> CaseResult:
    """A hidden case in the result handed over when the public cases are done."""
    return CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, FAILED,
                      reason=NOT_RUN_YET)


class _PhaseRun:
    """One phase of a grading (the public cases, then the hidden ones): its cases run, then what
    their starts add (drawn.complete), within the submission's budget; the progress callback
    counts on from the cases of the phases before."""

    def __init__(self, grader: "Grader", spec: Spec, builds: dict[str, builder.Build], budget: Budget | None,
                 progress: Progress | None, total: int):
        self.grader, self.spec, self.builds, self.budget = grader, spec, builds, budget
        self.progress, self.total, self.done = progress, total, 0

    def _told(self, done: int, _total: int) -> None:
        if self.progress is not None:
            self.progress(self.done + done, self.total)

    def run(self, cases: list[Case], chosen: list[int]) -> "_Phase":
        """The results of the cases at positions `chosen`, by position, and the checks they add."""
        if not chosen:
            return _Phase({}, [])
        builds, spec, budget = self.builds, self.spec, self.budget
        mine = [cases[i] for i in chosen]
        jobs = [Job(spec, case, builds[case.target], budget) for case in mine if builds[case.target].ok]
        ran = iter(self.grader.run_cases(jobs, self._told if self.progress is not None else None))
        results = [next(ran) if builds[c.target].ok else _not_run(c, builds[c.target]) for c in mine]
        self.done += len(jobs)
        completed = drawn.complete(
            spec, mine, results, lambda target: builds[target].ok,
            lambda more: self.grader.run_cases([Job(spec, case, builds[case.target], budget) for case in more]), budget)
        return _Phase(dict(zip(chosen, completed)), completed[len(mine):])


@dataclass
class _Phase:
    by_position: dict[int, CaseResult]  # by the case's position in the grading's list
    checks: list[CaseResult]  # what drawn.complete added after the cases


def _in_order(cases: list[Case], public: _Phase, hidden: _Phase | None) -> list[CaseResult]:
    """Every case's result in the order of `cases` (a hidden one not run yet said as such), then
    the checks the public phase added, then the hidden phase's."""
    done = {**public.by_position, **(hidden.by_position if hidden else {})}
    return ([done[i] if i in done else _not_run_yet(c) for i, c in enumerate(cases)]
            + public.checks + (hidden.checks if hidden else []))


def _build(submission: Path, spec: Spec, target: str, compiler: WarmJavac | None = None,
           settings: config.Settings = config.DEFAULTS) -> builder.Build:
    """A build that raises is this submission's verdict, not the batch's end."""
    try:
        return builder.build(submission, spec, target, compiler, settings)
    except Exception:
        problem = _failure()
        failed = builder.Build(target, None, False)
        failed.reason = f"the harness failed while building (not the program's fault): {problem.strip().splitlines()[-1]}"
        failed.log = problem
        return failed


def sandbox_mode(builds: dict[str, builder.Build]) -> str:
    return "bubblewrap" if any(b.sandboxed for b in builds.values()) else "none"


def submission_name(submission: Path) -> str:
    return submission.resolve().name if submission.is_dir() else submission.stem


def grade(spec: Spec, milestone: str | None, cases: list[Case], submission: Path,
          builds: dict[str, builder.Build] | None = None,
          settings: config.Settings = config.DEFAULTS) -> SubmissionResult:
    """Grade one submission with a pool of its own (a class shares one Grader instead)."""
    with Grader(inline=True, settings=settings) as grader:
        return grader.grade(spec, milestone, cases, submission, builds)
