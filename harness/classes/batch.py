"""Grade a class in one command: every submission found, the unchanged ones kept from the last
run, the others graded side by side, each report written the moment it is done, a gradebook
and a class page at the end, and a clean stop on Ctrl-C.

Case workers ignore Ctrl-C (their fork server is started with SIGINT ignored), so only this
process answers it: queued cases are dropped, the programs and builds running are killed (each
worker then cleans up after its run as usual), the workers end, and the gradebook and class
page are written for the reports that are finished (the rest are rows marked not graded).

Where each submission is graded is an `executor.Executor` (submit, completed, interrupt,
close): this machine (`executor.Local`) unless `Options.pool` gives a cluster
(`harness.classes.cluster`); reports and the gradebook are written here either way.
"""
import contextlib
import os
import dataclasses
import json
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from harness.classes import classroom, executor, lateness
from harness.classes import progress
from harness.classes import history, regrade, resume, similarity
from harness.loading import config
from harness.running import sandbox
from harness.errors import InputError
from harness.reporting import exports, files, summary, suspects, terminal
from harness.results import SubmissionResult, Verdict
from harness.safe_text import one_line, visible

NOT_GRADED = Verdict.NOT_GRADED


@dataclass(frozen=True)
class Options:
    output: Path
    detail: str  # progress.QUIET | NORMAL | VERBOSE
    colour: str  # auto | always | never
    force: bool  # regrade even what is unchanged
    pool: "executor.Executor | None" = None  # where submissions are graded: None for this machine (`executor.Local`)
    late: "lateness.Settings | None" = None  # the deadline and late policy, when one is set
    similarity: float | None = None  # --similarity: the threshold in percent (None: no comparison)
    settings: config.Settings = config.DEFAULTS  # the front door's HARNESS_* settings, read once


@dataclass
class Done:
    """One finished submission: its result and where its report is. `reused`: its report is the
    last run's (its hash still matches); `stopped` too when it was taken after a Ctrl-C, before
    this run graded it again (a --force run)."""
    entry: classroom.Entry
    result: SubmissionResult
    report: Path
    reused: bool
    stopped: bool = False


def require_some(paths: list[Path]) -> None:
    """Every path missing is a mistyped command, not a class of missing submissions."""
    if not any(os.path.lexists(path) for path in paths):
        raise InputError(f"no such file or folder: {', '.join(map(str, paths))}")


def _refuse_overlap(output: Path, paths: list[Path], entries: list[classroom.Entry]) -> None:
    """Reports are never written over what is graded or into a student's folder (where they
    would become part of the submission)."""
    target = os.path.realpath(output)
    for path in paths:
        if target == os.path.realpath(path):
            raise InputError(f"-o {output}: that is what is graded; give a folder of its own for the reports, "
                             "e.g. -o reports")
    for entry in entries:
        base = os.path.realpath(entry.path) if entry.layout == classroom.FOLDER else None
        if base and (target == base or target.startswith(base + os.sep)):
            raise InputError(f"-o {output}: that is inside the submission {entry.path}; give a folder of its own "
                             "for the reports, e.g. -o reports")


def grade_class(spec, milestone, cases, paths: list[Path], options: Options) -> int:
    found = classroom.find(paths, spec, exclude=[options.output])
    if not found.entries:
        raise InputError(f"{', '.join(map(str, paths))}: no submissions in it (folders, archives or source files)")
    _refuse_overlap(options.output, paths, found.entries)
    found.notes += lateness.attach(options.late, found.entries)  # before staging: times are the export's
    look = progress.style(options.detail, options.colour)
    started = time.monotonic()
    with classroom.Staging() as staging:
        try:
            for entry in found.entries:
                staging.stage(entry)
            common = resume.inputs(spec, milestone, cases, sandbox.mode(options.settings.sandbox) != "none")
            keys, records = {}, {}
            for e in found.entries:
                path = e.path if e.layout != classroom.MISSING else None
                keys[e.name] = resume.key(common, path)
                records[e.name] = resume.record(common, keys[e.name], resume.submission_digest(path))
        except KeyboardInterrupt:  # before anything was graded: nothing to write
            print(f"\ninterrupted: 0 of {len(found.entries)} graded", file=sys.stderr)
            return 130
        again = Again(common, records, history.begin(options.output) if _graded_before(options.output) else None)
        try:
            return _run(spec, milestone, cases, found, keys, options, look, started, again)
        finally:
            if again.entry is not None:
                history.finish(again.entry, bool(again.changes))


@dataclass
class Again:
    """A class graded again: what each report was graded from (`records`), the history entry
    keeping what the regrade replaces, each submission's plan (which cases run again), the
    grades that moved and the program runs it took."""
    common: resume.Inputs
    records: dict[str, str]
    entry: history.Entry | None
    plans: dict[str, regrade.Plan] = dataclasses.field(default_factory=dict)
    changes: list[regrade.Change] = dataclasses.field(default_factory=list)
    cases_run: int = 0
    waiting: list[str] = dataclasses.field(default_factory=list)  # reports whose student files wait for publish


def _graded_before(out: Path) -> bool:
    return (out / "gradebook.csv").is_file()


def _run(spec, milestone, cases, found, keys, options, look, started, again: Again) -> int:
    entries, out = found.entries, options.output
    done: list[Done] = []
    todo = []
    for entry in entries:
        kept = None if options.force else resume.reusable(out / entry.name, keys[entry.name])
        plan = None
        if kept is None and not options.force:
            plan = regrade.plan(out / entry.name, again.common, json.loads(again.records[entry.name])["submission"],
                                cases)
            if plan is not None and plan.keeps_all:  # only acceptances its passing cases need not see
                kept = plan.previous
                resume.remember(out / entry.name, again.records[entry.name])
                plan = None
        if kept is not None:
            kept.name = entry.name
            done.append(Done(entry, _slim(kept), out / entry.name / "report.html", True))
        else:
            if plan is not None:
                again.plans[entry.name] = plan
            todo.append(entry)
    whole = len(entries) == 1 and look.detail != progress.QUIET
    with progress.Progress(len(entries), len(done), look) as shown:
        if look.detail != progress.QUIET:
            for note in found.notes:
                shown.say(one_line(note))
            for item in done:
                shown.say(_full(item, look) if whole or look.detail == progress.VERBOSE else _line(item, look))
        pool = options.pool or executor.Local(settings=options.settings)
        pending = {}
        try:
            pending = {pool.submit(spec, milestone, _to_run(cases, again.plans.get(entry.name)), entry): entry
                       for entry in todo}
            again.cases_run = sum(len(_to_run(cases, again.plans.get(entry.name))) for entry in todo)
            for future in pool.completed(pending):
                entry = pending.pop(future)  # a finished future would keep its whole result alive
                try:
                    result = future.result()
                except Exception:  # the harness failed on this submission: its row says so, the rest go on
                    result = executor.crashed(spec, milestone, entry, traceback.format_exc(), options.settings.sandbox)
                result = _compared(spec, milestone, cases, entry, result, out, again)
                with _whole() as stop:  # a Ctrl-C now takes effect once the report is written and counted
                    paths = _write(result, out / entry.name, again.records[entry.name])
                    _published_later(entry.name, out, again)
                    item = Done(entry, result, paths["html"], False)
                    done.append(item)
                    shown.advance()
                if whole or look.detail == progress.VERBOSE:
                    shown.say(_full(item, look))
                elif look.detail != progress.QUIET:
                    shown.say(_line(item, look))
                item.result = _slim(result)
                if stop:
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut the cleanup short
            shown.close()
            print("\nstopping: ending the programs and builds running now", file=sys.stderr, flush=True)
            pool.interrupt(pending)
            finished = {d.entry.name for d in done}
            done += _kept_on_disk([e for e in entries if e.name not in finished], keys, out)
            finished = {d.entry.name for d in done}
            left = [e for e in entries if e.name not in finished]
            _class_files(spec, milestone, entries, done, left, out, again=again)
            print(_interrupted(done, left, len(entries)), file=sys.stderr)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            return 130
        finally:
            pool.close()
    _class_files(spec, milestone, entries, done, [], out, time.monotonic() - started, again, options.similarity)
    return 0 if all(d.result.all_passed and d.result.status == Verdict.GRADED for d in done) else 1


def _kept_on_disk(entries: list[classroom.Entry], keys: dict[str, str], out: Path) -> list[Done]:
    """After a stop: the submissions not graded again whose report on disk is still their grade
    (a --force run stopped before it reached them). Their rows stay; only the rest are not graded."""
    kept = []
    for entry in entries:
        result = resume.reusable(out / entry.name, keys[entry.name])
        if result is not None:
            result.name = entry.name
            kept.append(Done(entry, _slim(result), out / entry.name / "report.html", True, stopped=True))
    return kept


def _interrupted(done: list[Done], left: list[classroom.Entry], total: int) -> str:
    """What a stopped run did: how many this run graded, how many rows are the last run's
    reports (kept as unchanged, or still on disk after the stop), how many are not graded."""
    graded = sum(not d.reused for d in done)
    parts = [f"interrupted: {graded} of {total} graded by this run"]
    unchanged = sum(d.reused and not d.stopped for d in done)
    if unchanged:
        parts.append(f"{unchanged} unchanged since the last run, kept")
    on_disk = sum(d.stopped for d in done)
    if on_disk:
        parts.append(f"{on_disk} not graded again: {'its row is' if on_disk == 1 else 'their rows are'} "
                     f"the last run's report{'' if on_disk == 1 else 's'}, still on disk")
    if left:
        parts.append(f"{len(left)} {NOT_GRADED}: the same command grades {'it' if len(left) == 1 else 'them'}")
    return "; ".join(parts)


@contextlib.contextmanager
def _whole():
    """While a report is written and counted, a Ctrl-C waits: a stop never leaves a report half
    written (its hash forgotten, its row not graded). Yields a list that holds the Ctrl-C, if any."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():  # only the main thread gets Ctrl-C
        yield caught
        return
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)


def _to_run(cases, plan: "regrade.Plan | None") -> list:
    """The cases a submission runs: all, or those its regrade plan runs again."""
    return cases if plan is None else [case for case in cases if case.name in plan.run]


def _compared(spec, milestone, cases, entry, result: SubmissionResult, out: Path, again: Again) -> SubmissionResult:
    """A regraded submission's whole result (the cases run again in place of their old results),
    and, when its grade moved, its report kept in the history before it is rewritten."""
    folder = out / entry.name
    plan = again.plans.get(entry.name)
    previous = plan.previous if plan is not None else (resume.stored_result(folder) if again.entry else None)
    if plan is not None:
        result = regrade.merged(spec, milestone, cases, plan.previous, result)
    if previous is not None:
        previous.name = result.name
        moved = regrade.change(previous, result)
        if moved is not None:
            again.changes.append(moved)
            if again.entry is not None:
                again.entry.save(folder)
    return result


def _published_later(name: str, out: Path, again: Again) -> None:
    """A moved grade's student-facing files wait for `harness publish`; the published ones stay."""
    if again.entry is not None and name in again.entry.kept:
        if history.hold_back(out / name, again.entry.folder / name):
            again.waiting.append(name)


def _write(result: SubmissionResult, folder: Path, key: str) -> dict[str, Path]:
    """The submission's report files, then its hash: an interrupted write is graded again."""
    try:
        resume.forget(folder)
        paths = files.write(result, folder)
        resume.remember(folder, key)
    except OSError as problem:
        raise InputError(f"cannot write the report in {folder} ({problem.strerror or problem}); "
                         "free some space or choose another folder with -o") from None
    return paths


def _slim(result: SubmissionResult) -> SubmissionResult:
    """What the class page and the gradebook need of a finished submission (its report is on
    disk): scores and reasons, and of each failing case only its first differing turn, so the
    harness's memory stays flat however large the class."""
    cases = []
    for case in result.cases:
        turn = case.turns[case.first_divergence] if case.first_divergence is not None and case.turns else None
        cases.append(dataclasses.replace(case, expected=[], actual=[], typed=[], notes=case.notes[:3],
                                         turns=[turn] if turn else [], first_divergence=0 if turn else None))
    return dataclasses.replace(result, cases=cases)


def _full(item: Done, look: progress.Style) -> str:
    kept = " (unchanged since the last run: kept)" if item.reused else ""
    return progress.rendered(terminal.render, item.result, look.colour) + f"  report: {item.report}{kept}\n"


def _line(item: Done, look: progress.Style) -> str:
    result = item.result
    tone = "failing" if result.status == Verdict.GRADED and not result.all_passed else result.status
    status = terminal.paint(f"{result.status:<13}", tone, look.colour)
    kept = "  (unchanged since the last run: kept)" if item.reused else ""
    return (f"{result.percent:6.1f} %  {status} {result.passed}/{result.total} cases  "
            f"{visible(result.name)}  ({item.report}){kept}")


def _class_files(spec, milestone, entries: list[classroom.Entry], done: list[Done], left: list[classroom.Entry],
                 out: Path, seconds: float | None = None, again: Again | None = None,
                 threshold: float | None = None) -> None:
    """The gradebook (every submission of the class, in class order), the class page, and for a
    class graded again the delta (`delta.csv`: whose grade moved, why); with a `threshold`, the
    similar pairs' page linked from the class page (docs/similarity.md)."""
    out.mkdir(parents=True, exist_ok=True)
    order = {entry.name: index for index, entry in enumerate(entries)}
    done = sorted(done, key=lambda d: order[d.entry.name])
    gradebook = out / "gradebook.csv"
    kept = _keep_previous(gradebook, {d.entry.name for d in done} | {e.name for e in left})
    sources = {e.name: exports.Source(e.original, e.lms_id) for e in entries}
    in_class_order = [e.name for e in entries]  # not-graded rows too keep their place
    exports.gradebook([d.result for d in done], gradebook, [e.name for e in left], sources, spec.items(milestone),
                      late=_lateness(entries),
                      order=in_class_order)
    regraded = again is not None and again.entry is not None
    if regraded:
        again.changes.sort(key=lambda change: order.get(change.name, len(order)))
        regrade.write_delta(again.changes, out / "delta.csv")
    reports = [summary.Report(d.result, d.report.relative_to(out).as_posix(), d.reused, d.entry.original, _late_line(d),
                              d.entry.late.final(d.result.percent)
                              if d.entry.late is not None and d.result.published else None)
               for d in done]
    similar = None if threshold is None else similarity.step(spec, entries, out, threshold,
                                                             {d.entry.name: d.report.relative_to(out).as_posix() for d in done})
    page = summary.write(spec, milestone, reports, [e.name for e in left], out / "index.html", in_class_order,
                         summary.Since(again.changes, history.pending(out), again.entry.folder.name)
                         if regraded else None, suspects.find(spec.game, [(r.result, r.link) for r in reports], spec),
                         similar if similar is not None and similar.page is not None else None)
    counts: dict[str, int] = {}
    for item in done:
        counts[item.result.status] = counts.get(item.result.status, 0) + 1
    parts = [f"{n} {status}" for status, n in sorted(counts.items())]
    if left:
        parts.append(f"{len(left)} {NOT_GRADED}")
    unchanged = sum(d.reused and not d.stopped for d in done)
    on_disk = sum(d.stopped for d in done)
    took = f" in {seconds:.1f} s" if seconds is not None else ""
    print(f"{len(done) + len(left)} submission{'s' if len(done) + len(left) != 1 else ''}{took}: {', '.join(parts)}"
          + (f"; {unchanged} unchanged since the last run, kept (--force grades them again)" if unchanged else "")
          + (f"; {on_disk} from the last run's reports still on disk (the stop came before this run graded "
             f"{'it' if on_disk == 1 else 'them'} again)" if on_disk else ""))
    if kept:
        print(f"the previous gradebook listed submissions this run does not: kept as {kept}")
    if regraded:
        print(_regrade_line(again, out))
    print(f"gradebook: {gradebook}\nclass page: {page}")
    if similar is not None:
        print(similar.line)


def _regrade_line(again: Again, out: Path) -> str:
    """What a class graded again changed, and what waits for the instructor."""
    if not again.changes:
        return f"graded again: {again.cases_run} case run{'s' if again.cases_run != 1 else ''}; no grade moved"
    waiting = history.pending(out)
    return (f"graded again: {again.cases_run} case run{'s' if again.cases_run != 1 else ''}; "
            f"{len(again.changes)} grade{'s' if len(again.changes) != 1 else ''} moved: {out / 'delta.csv'}; "
            f"the previous grades are kept ({out / history.HISTORY / again.entry.folder.name}; "
            f"`harness restore -o {out}` puts them back)"
            + (f"; {len(waiting)} student report{'s wait' if len(waiting) != 1 else ' waits'} for "
               f"`harness publish -o {out}`" if waiting else ""))


def _late_line(item: Done) -> str:
    """The class page's line on a submission's lateness ("" without a deadline)."""
    late = item.entry.late
    if late is None:
        return ""
    return late.line(item.result.percent if item.result.published else None)


def _lateness(entries: list[classroom.Entry]) -> dict | None:
    """Each submission's lateness by name, when a deadline is set (None: the gradebook as ever)."""
    return {e.name: e.late for e in entries} if any(e.late is not None for e in entries) else None


def _keep_previous(gradebook: Path, names: set[str]) -> Path | None:
    """A gradebook with rows this run does not cover is moved aside, never silently replaced."""
    try:
        previous = exports.gradebook_names(gradebook)
    except OSError:
        return None
    if previous <= names:
        return None
    n = 1
    while (aside := gradebook.with_name(f"gradebook-previous-{n}.csv")).exists():
        n += 1
    gradebook.rename(aside)
    return aside
