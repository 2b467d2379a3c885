"""The grading worker: queued submissions graded on an executor (this machine's pool,
classes.executor.Local, or a Dask cluster: the same Grader.grade as `harness grade`), oldest
first, never two of one student at once.

A submission's student is shown its public results the moment they are final, before any of
its hidden cases starts (Grader.grade's `public_done`), and then nothing more: from that moment
it is done for them (not in flight: their next upload is taken at once), and its progress,
the end of its hidden runs and its whole result are the instructor's only.

No hidden run goes on beside a run whose output a student will see, this student's or
another's: on this machine's pool the gate of `executor.Local` keeps the two kinds of phase
apart, on a cluster `_Phases` does for the whole cluster. A public phase that comes while
hidden ones run waits for them (when both wait they take turns)."""
import copy
import threading
import traceback
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Callable

from harness.classes import classroom, executor, gate
from harness.grading import scoring
from harness.loading import config
from harness.results import FAILED, CaseResult, Cause, SubmissionResult, Verdict, Visibility
from harness.serve import own, views
from harness.serve.store import Row, Store

PUBLIC, HIDDEN = "public", "hidden"


@dataclass
class Game:
    spec: object
    milestone: str | None
    cases: list  # every case, hidden ones included: the grade is the instructor's

    @property
    def public(self) -> list:
        return [case for case in self.cases if case.visibility != Visibility.HIDDEN]

    @property
    def hidden(self) -> list:
        return [case for case in self.cases if case.visibility == Visibility.HIDDEN]

    @property
    def shown_total(self) -> int:
        """How many cases the student's result lists: the public cases and, when the check of
        the random setup draws on a public case, that check (grading.drawn.complete adds it after
        them). The progress counts to this, so its total is the result's."""
        start = self.spec.random_start
        law = start.law if start is not None else None
        checked = law is not None and any(case.name == law.case for case in self.public)
        return len(self.public) + checked


class Worker:
    def __init__(self, store: Store, games: dict[str, Game], jobs: int | None = None,
                 pool: executor.Executor | None = None, settings: config.Settings = config.DEFAULTS,
                 policy: own.Policy = own.Policy()):
        self.store, self.games = store, games
        self.pool = pool or executor.Local(jobs, settings=settings)  # settings: the service's, read as it started
        # submissions graded at once: as many as the pool has case workers (their cases share it)
        self.capacity = pool.capacity if pool is not None else self.pool.grader.jobs
        self._phases = _Phases(self.pool, games) if not isinstance(self.pool, executor.Local) else None
        # a student's own games: searched after each grading, under the gate's public turn
        self.own = own.OwnGames(store, games, policy, settings,
                                self._phases.gate if self._phases is not None else self.pool.grader.gate)
        self._wake = threading.Condition()
        self._grading: dict[int, str] = {}  # submission id -> student: every grading under way
        self._unshown: dict[int, str] = {}  # those whose student has not been shown their results yet
        self.cases: dict[int, tuple[int, int]] = {}  # submission id -> (public cases done, of the shown_total), until shown
        self._again: list[Row] = []  # shown to their student, graded again for the instructor (a restart)
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="grading", daemon=True)

    def start(self) -> None:
        self._again = self.store.recover()
        self._thread.start()

    def poke(self) -> None:
        with self._wake:
            self._wake.notify_all()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify_all()
        self._thread.join(timeout=5)
        self.pool.interrupt([])
        if self._phases is not None:
            self._phases.close()
        self.pool.close()

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and len(self._grading) >= self.capacity:
                    self._wake.wait()
                if self._stopped:
                    return
                # a student's submission in flight is one not shown yet: hidden runs hold nothing of theirs
                row, again = self.store.claim(set(self._unshown.values())), False
                if row is None and self._again:
                    row, again = self._again.pop(0), True
                if row is None:
                    self._wake.wait(timeout=5)
                    continue
                self._grading[row.id] = row.student
                if not again:
                    self._unshown[row.id] = row.student
            self._submit(row, again)

    def _submit(self, row: Row, again: bool) -> None:
        """Grade the row; `again`: its student's view is out already, only the whole result is wanted."""
        game = self.games[row.game]
        path = self.store.upload(row.id)
        entry = classroom.Entry(label=row.student, shown=f"{row.student} (self-check #{row.id})", layout="folder",
                                path=path, name=row.student)
        public, total = len(game.public), game.shown_total
        progress = None if again else (lambda done, _total, ident=row.id: self._progress(ident, done, public, total))
        shown = None if again else (lambda result, row=row, game=game: self._show(row, game, result))
        try:
            if self._phases is None:
                future = self.pool.submit(game.spec, game.milestone, game.cases, entry, progress, public_done=shown)
            else:
                future = self._phases.submit(row.game, entry, shown)
        except RuntimeError:  # the pool is shutting down: the row stays running, queued again on restart
            return
        future.add_done_callback(lambda done, row=row, entry=entry, game=game: self._done(row, entry, game, done))

    def _progress(self, ident: int, done: int, public: int, total: int) -> None:
        """What the student sees while their public cases run: those cases done, out of the
        cases their result will list (`Game.shown_total`: the check of the random setup, run
        after them, is the last), and nothing once they are shown (a tick of a hidden case is
        never counted)."""
        with self._wake:
            if ident in self._unshown and done <= public:
                self.cases[ident] = (done, total)

    def _show(self, row: Row, game: Game, result: SubmissionResult) -> None:
        """The public results are final (no hidden case has started): the student's view kept,
        the submission done for them, and no longer theirs in flight."""
        with self._wake:
            if row.id not in self._unshown:
                return
        self.own.waiting(row)  # before the student is shown the result: its own game is on its way
        # the hidden count is the game's: on a cluster the public grading has no hidden case in it
        self.store.publish(row.id, views.Shown(views.public(result, game.spec), len(game.hidden)))
        with self._wake:
            self._unshown.pop(row.id, None)
            self.cases.pop(row.id, None)
            self._wake.notify_all()
        self.own.shown(row, result)  # before any hidden case starts: see own.OwnGames.shown

    def _done(self, row: Row, entry, game: Game, future: Future) -> None:
        if future.cancelled() or self._stopped:
            return  # left as it is: graded again on the next start
        try:
            result = future.result()
        except Exception:
            result = executor.crashed(game.spec, game.milestone, entry, traceback.format_exc(), self.pool.settings.sandbox)
        try:
            self._show(row, game, result)  # a grading that ended before its public results were told
            self.store.finish(row.id, result)
        finally:
            with self._wake:
                self._grading.pop(row.id, None)
                self._unshown.pop(row.id, None)
                self.cases.pop(row.id, None)
                self._wake.notify_all()


class _Phases:
    """Grading on an executor that cannot call back mid-grading (a Dask cluster: the grading
    runs on a worker): the public cases and the hidden ones as two gradings of their own, the
    public one first; the student is shown the first, the instructor gets the two merged. Each
    (game, phase) has its own view of the cluster (its own worker plugin holds that game's spec
    and those cases).

    The service cannot choose the worker a grading lands on, so its gate is the whole
    cluster's: a hidden grading is sent only while no public one is under way anywhere, and a
    public one waits for the hidden ones under way (`gate.Gate`, taking turns when both wait).
    Each grading waiting for its turn or under way holds a thread here (no more than the
    service's submissions in flight)."""

    def __init__(self, pool, games: dict[str, Game]):
        self.games = games
        self.views = {(name, phase): _fresh(pool) for name in games for phase in (PUBLIC, HIDDEN)}
        self.gate = gate.Gate()

    def _gated(self, kind: gate.Kind, send: Callable[[], Future]) -> Future:
        """A future of the grading `send` starts, sent when the gate gives `kind` its turn and
        holding it until the grading ends."""
        done: Future = Future()

        def turn() -> None:
            try:
                with self.gate.held(kind):
                    result = send().result()
            except BaseException as problem:  # noqa: BLE001 (handed to the caller's future)
                done.set_exception(problem)
                return
            done.set_result(result)

        threading.Thread(target=turn, name=f"grading-{kind.value}", daemon=True).start()
        return done

    def submit(self, game_name: str, entry, shown: Callable[[SubmissionResult], None] | None) -> Future:
        game = self.games[game_name]
        whole: Future = Future()
        first = self._gated(gate.Kind.PUBLIC, lambda: self.views[game_name, PUBLIC].submit(
            game.spec, game.milestone, game.public, entry))

        def public_done(done) -> None:
            try:
                public = done.result()
            except BaseException as problem:  # noqa: BLE001 (handed to the caller's future)
                whole.set_exception(problem)
                return
            try:
                if shown is not None:
                    shown(public)
                if not game.hidden or len(public.cases) < len(game.public):  # nothing hidden, or it could not grade
                    whole.set_result(public)
                    return
                second = self._gated(gate.Kind.HIDDEN, lambda: self.views[game_name, HIDDEN].submit(
                    game.spec, game.milestone, game.hidden, entry))
            except BaseException as problem:  # noqa: BLE001
                whole.set_exception(problem)
                return
            second.add_done_callback(lambda later: _merged(whole, game, public, later))

        first.add_done_callback(public_done)
        return whole

    def close(self) -> None:
        self.gate.close()  # a grading waiting for its turn gives up
        for view in self.views.values():
            _close_view(view)


def _fresh(pool):
    """A view of the cluster that registers its own worker plugin on its first submission."""
    view = copy.copy(pool)
    view.plugin = ""
    return view


def _close_view(view) -> None:
    """The view's plugin removed from the workers; the connection is the pool's to close."""
    try:
        if view.plugin:
            view.client.unregister_worker_plugin(view.plugin)
    except Exception:  # a scheduler already gone: nothing is left to remove
        pass


def _merged(whole: Future, game: Game, public: SubmissionResult, later) -> None:
    """The whole result of a grading made of a public and a hidden one: the cases in the game's
    order, then the checks each phase added, scored together."""
    try:
        hidden = later.result()
        whole.set_result(merge(game, public, hidden))
    except BaseException as problem:  # noqa: BLE001
        whole.set_exception(problem)


def merge(game: Game, public: SubmissionResult, hidden: SubmissionResult) -> SubmissionResult:
    """One result of the two: a hidden case the second did not reach (it could not grade) is
    said as not run, and its status is the first's unless that one is `graded`."""
    ran = {PUBLIC: iter(public.cases), HIDDEN: iter(hidden.cases)}
    cases = [next(ran[HIDDEN if case.visibility == Visibility.HIDDEN else PUBLIC], None) or _not_run(case, hidden)
             for case in game.cases]
    cases += list(ran[PUBLIC]) + list(ran[HIDDEN])  # the checks each phase's starts added
    status = public.status if public.status != Verdict.GRADED else hidden.status
    return replace(scoring.scored(public, scoring.score(game.spec, game.spec.items(game.milestone), cases)),
                   status=status)


def _not_run(case, hidden: SubmissionResult) -> CaseResult:
    reason = next((b.reason for b in hidden.builds.values() if b.reason), "") or "the grading did not reach it"
    built = all(b.ok for b in hidden.builds.values())
    return CaseResult(case.name, case.description, case.rubric, case.points, case.visibility, FAILED,
                      reason=f"not run: {reason}", cause=Cause.NOT_REACHED if built else Cause.NOT_BUILT)
