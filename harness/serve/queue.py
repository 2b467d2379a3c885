"""The grading worker: queued submissions graded on an executor (this machine's pool,
classes.executor.Local, or a Dask cluster: the same Grader.grade as `harness grade`), oldest
first, never two of one student at once."""
import threading
import traceback
from concurrent.futures import Future
from dataclasses import dataclass

from harness.classes import classroom, executor
from harness.serve.store import Row, Store


@dataclass
class Game:
    spec: object
    milestone: str | None
    cases: list  # every case, hidden ones included: the grade is the instructor's


class Worker:
    def __init__(self, store: Store, games: dict[str, Game], jobs: int | None = None,
                 pool: executor.Executor | None = None):
        self.store, self.games = store, games
        self.pool = pool or executor.Local(jobs)
        # submissions graded at once: as many as the pool has case workers (their cases share it)
        self.capacity = pool.capacity if pool is not None else self.pool.grader.jobs
        self._wake = threading.Condition()
        self._running: dict[int, str] = {}  # submission id -> student
        self.cases: dict[int, tuple[int, int]] = {}  # submission id -> (cases done, cases in all), while it runs
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="grading", daemon=True)

    def start(self) -> None:
        self.store.recover()
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
        self.pool.close()

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and len(self._running) >= self.capacity:
                    self._wake.wait()
                if self._stopped:
                    return
                row = self.store.claim(set(self._running.values()))
                if row is None:
                    self._wake.wait(timeout=5)
                    continue
                self._running[row.id] = row.student
            self._submit(row)

    def _submit(self, row: Row) -> None:
        game = self.games[row.game]
        path = self.store.upload(row.id)
        entry = classroom.Entry(label=row.student, shown=f"{row.student} (self-check #{row.id})", layout="folder",
                                path=path, name=row.student)
        try:
            future = self.pool.submit(game.spec, game.milestone, game.cases, entry,
                                      lambda done, total, ident=row.id: self.cases.__setitem__(ident, (done, total)))
        except RuntimeError:  # the pool is shutting down: the row stays running, queued again on restart
            return
        future.add_done_callback(lambda done, row=row, entry=entry, game=game: self._done(row, entry, game, done))

    def _done(self, row: Row, entry, game: Game, future: Future) -> None:
        if future.cancelled() or self._stopped:
            return  # left running: graded again on the next start
        try:
            result = future.result()
        except Exception:
            result = executor.crashed(game.spec, game.milestone, entry, traceback.format_exc())
        try:
            self.store.finish(row.id, result)
        finally:
            with self._wake:
                self._running.pop(row.id, None)
                self.cases.pop(row.id, None)
                self._wake.notify_all()
