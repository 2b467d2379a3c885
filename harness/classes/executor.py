"""Where a class's submissions are graded: an `Executor` takes one submission at a time
(`submit`) and hands back futures of their results (`completed`), ends everything on Ctrl-C
(`interrupt`) and cleans up (`close`). `Local` grades on this machine with one shared pool of
case workers; `harness.classes.cluster.Cluster` on a Dask cluster. `harness grade` (through
`batch`), `harness samples` and `harness audit` use the same `Local`.
"""
import signal
import threading
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import replace
from typing import Callable, Iterable, Iterator, Protocol

from harness.classes import classroom, gate
from harness.grading import submission as grading
from harness.loading import config
from harness.results import BuildSummary, CaseResult, SubmissionResult, Verdict, Visibility
from harness.running import cgroups, proctree, sandbox, stopping
from harness.running.environment import fork_server
from harness.safe_text import cap, one_line, writable


class Executor(Protocol):
    """The one interface of where submissions are graded."""

    settings: config.Settings  # the front door's HARNESS_* settings, for every build and run it makes

    def submit(self, spec, milestone: str | None, cases: list, entry: classroom.Entry,
               progress: grading.Progress | None = None) -> Future: ...
    # `Local.submit` also takes `public_done` (see grade_entry); a cluster does not

    def completed(self, pending: Iterable[Future]) -> Iterator[Future]: ...

    def interrupt(self, pending: Iterable[Future]) -> None: ...

    def close(self) -> None: ...


class Stopped(Exception):
    """The grading was interrupted: no new case is started."""


class StoppableGrader(grading.Grader):
    """The shared pool of case workers, which starts no new worker once the grading stops, and
    runs a batch of cases only through the machine's gate (`gate.Gate`): the public cases of
    any submission never while hidden ones of any submission run, nor the other way round, in
    this process or in any other harness process sharing the gate's folder."""

    def __init__(self, stop: threading.Event, jobs: int | None = None, settings: config.Settings = config.DEFAULTS):
        self.gate = gate.Gate(gate.machine_lock(settings))  # the machine's: other harness processes too
        super().__init__(jobs, settings=settings)
        self._stop = stop

    def _workers(self, *args, **kwargs):
        if self._stop.is_set():
            raise Stopped("interrupted")
        return super()._workers(*args, **kwargs)

    def run_cases(self, jobs: list[grading.Job], progress: grading.Progress | None = None) -> list[CaseResult]:
        """The jobs' results in order, the public ones (any run whose output a person may see)
        run under the gate's public turn, the hidden ones under its hidden turn: `Grader.grade`
        hands over one kind at a time, and a mixed batch is run as its two kinds, public first."""
        kinds = [gate.Kind.HIDDEN if job.case.visibility == Visibility.HIDDEN else gate.Kind.PUBLIC for job in jobs]
        results: list[CaseResult | None] = [None] * len(jobs)
        done = 0
        for kind in (gate.Kind.PUBLIC, gate.Kind.HIDDEN):
            chosen = [i for i, k in enumerate(kinds) if k is kind]
            if not chosen:
                continue
            told = None if progress is None else (lambda finished, _total, before=done: progress(before + finished, len(jobs)))
            try:
                with self.gate.held(kind):
                    ran = super().run_cases([jobs[i] for i in chosen], told)
            except gate.Closed:
                raise Stopped("interrupted") from None
            for i, result in zip(chosen, ran):
                results[i] = result
            done += len(chosen)
        return results


def _workers_ignore_ctrl_c() -> None:
    """Start the workers' fork server with SIGINT ignored: workers (and what they run) inherit it."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        fork_server()
    finally:
        signal.signal(signal.SIGINT, previous)


class Local:
    """Grading on this machine: a builder thread per submission in progress, one shared pool
    of case workers, and on Ctrl-C every run and build below this process ended. `settings`:
    the front door's, for every build and run of the grading."""

    def __init__(self, jobs: int | None = None, threads: int | None = None, settings: config.Settings = config.DEFAULTS):
        self.settings = settings
        self.stop = threading.Event()
        _workers_ignore_ctrl_c()
        proctree.adopt_orphans()
        cgroups.sweep()  # what a grading killed with SIGKILL before this one left behind
        self.runs = stopping.Runs()
        self.grader = StoppableGrader(self.stop, jobs, settings)
        self.builders = ThreadPoolExecutor(max_workers=threads or self.grader.jobs)

    def submit(self, spec, milestone, cases, entry: classroom.Entry, progress: grading.Progress | None = None,
               public_done: Callable[[SubmissionResult], None] | None = None):
        """A future of the entry's result; `progress(done, total)` follows its cases and
        `public_done(result)` is told the final public results before any hidden case runs."""
        return self.builders.submit(grade_entry, self.grader, spec, milestone, cases, entry, progress, public_done)

    def completed(self, pending):
        return as_completed(pending)

    def interrupt(self, pending) -> None:
        """End everything now: no new case, every run and build killed. A second Ctrl-C cannot
        cut this short."""
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            self.stop.set()
            self.grader.gate.close()  # a phase waiting for its turn gives up
            for future in pending:
                future.cancel()
            closer = threading.Thread(target=_shut, args=(self.grader, self.builders), daemon=True)
            closer.start()
            self.runs.end_until(lambda: not closer.is_alive())
            closer.join()
            stopping.kill_all()
            stopping.reap()
        finally:
            signal.signal(signal.SIGINT, previous)

    def close(self) -> None:
        if not self.stop.is_set():
            _shut(self.grader, self.builders)


def _shut(grader, builders) -> None:
    grader.close()  # queued cases dropped, running ones end within their limits
    builders.shutdown(wait=True, cancel_futures=True)
    grader.close()  # a pool a builder thread made meanwhile


def grade_entry(grader, spec, milestone, cases, entry: classroom.Entry,
                progress: grading.Progress | None = None,
                public_done: Callable[[SubmissionResult], None] | None = None) -> SubmissionResult:
    """One submission, with what the class folder said about it on top of its report;
    `public_done` (Grader.grade's hook) gets the public results with the same on top."""
    told = None if public_done is None else (lambda result: public_done(_as_entry(result, entry)))
    return _as_entry(grader.grade(spec, milestone, cases, entry.path, None, entry.name, progress, public_done=told), entry)


def _as_entry(result: SubmissionResult, entry: classroom.Entry) -> SubmissionResult:
    result = replace(result, submission=writable(entry.shown), name=entry.name)
    if entry.layout == classroom.MISSING:
        result.status = Verdict.MISSING_FILES
    for build in result.builds.values():
        build.intake[:0] = [one_line(cap(note, 500)) for note in entry.notes]
    return result


def crashed(spec, milestone, entry: classroom.Entry, problem: str, sandbox_setting: str = "auto") -> SubmissionResult:
    """A submission the harness itself failed on (a traceback): a harness-error row, never the batch's end."""
    reason = f"the harness failed on this submission (not its fault): {problem.strip().splitlines()[-1]}"
    return unfinished(spec, milestone, entry, reason, problem, sandbox_setting)


def unfinished(spec, milestone, entry: classroom.Entry, reason: str, log: str = "",
               sandbox_setting: str = "auto") -> SubmissionResult:
    """A submission the harness could not grade, never through its own fault: a harness-error
    row (counted nowhere, flagged for a person) that says why and what to do; its sandbox is
    what the grading's `sandbox_setting` (HARNESS_SANDBOX) gives here."""
    builds = {target: BuildSummary(target, None, False, cap(reason, 500), cap(log, 8000)) for target in spec.targets}
    return SubmissionResult(submission=entry.shown, name=entry.name, game=spec.game, title=spec.title,
                            milestone=milestone, sandbox=sandbox.mode(sandbox_setting), status=Verdict.HARNESS_ERROR, builds=builds,
                            cases=[], items=[], earned=0.0, possible=0.0)
