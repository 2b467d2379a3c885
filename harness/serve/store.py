"""What the service keeps, all under --data: an SQLite database (submissions and their state)
and files (each upload in uploads/ID/; what its student is shown in results/ID.student.json,
written once its public cases are done; its whole result, hidden cases included, in
results/ID.json, written when its grading ends).

A submission is `done` for its student once their view is written (its hidden cases may still
be running): it no longer counts as their submission in flight. An upload is written whole into
its folder and its row committed before it is acknowledged, so a kill at any moment loses
nothing acknowledged; on start, what was running is queued again, and a submission whose
student's view is out but whose whole result is not is graded again for the instructor.
"""
import json
import os
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from harness import atomic
from harness.reporting import exports
from harness.results import SubmissionResult

class State(StrEnum):
    """Where a submission is (the strings are the database's)."""
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


QUEUED, RUNNING, DONE = State.QUEUED, State.RUNNING, State.DONE

SCHEMA = """
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL,
    game TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS by_student ON submissions (student, id);
CREATE INDEX IF NOT EXISTS by_state ON submissions (state, id);
CREATE TABLE IF NOT EXISTS own_games (
    submission INTEGER PRIMARY KEY,
    student TEXT NOT NULL,
    game TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    why TEXT NOT NULL DEFAULT '',
    sources TEXT NOT NULL DEFAULT '',
    spent INTEGER NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    shown TEXT,
    next INTEGER,
    next_agrees INTEGER
);
CREATE INDEX IF NOT EXISTS own_by_student ON own_games (student, game, created);
"""


@dataclass
class Row:
    id: int
    student: str
    game: str
    state: State
    created: float
    started: float | None
    finished: float | None
    attempts: int


class Store:
    def __init__(self, folder: Path):
        self.folder = folder
        for sub in ("uploads", "results", "staging", "exports"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        shutil.rmtree(folder / "staging", ignore_errors=True)  # never acknowledged: a kill mid-upload
        (folder / "staging").mkdir()
        self._lock = threading.Lock()
        self._changed = threading.Condition()  # told whenever a submission's state changes
        self.listeners: list = []  # called (from any thread) whenever a submission's state changes
        self.graded: list = []  # called (from any thread) whenever a whole result is written (the instructor's)
        self._db = sqlite3.connect(folder / "serve.db", check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a committed row survives a kill or a power cut
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _rows(self, sql: str, *args) -> list[Row]:
        with self._lock:
            return [Row(r[0], r[1], r[2], State(r[3]), *r[4:]) for r in self._db.execute(
                f"SELECT id, student, game, state, created, started, finished, attempts FROM submissions {sql}", args)]

    # --- uploads ---------------------------------------------------------------------

    def staging(self) -> Path:
        """A fresh folder to receive an upload's files into (removed unless added)."""
        path = self.folder / "staging" / os.urandom(8).hex()
        path.mkdir()
        return path

    def add(self, student: str, game: str, staged: Path) -> Row:
        """The staged upload becomes a queued submission: its files moved in, its row committed."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute("INSERT INTO submissions (student, game, state, created) VALUES (?, ?, ?, ?)",
                                          (student, game, QUEUED, time.time()))
                ident = cursor.lastrowid
                target = self.upload(ident)
                shutil.rmtree(target, ignore_errors=True)  # a folder left by a kill before an earlier commit
                os.replace(staged, target)
                _sync_folder(target.parent)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return self.get(ident)

    def upload(self, ident: int) -> Path:
        return self.folder / "uploads" / str(ident)

    # --- the queue -------------------------------------------------------------------

    def recover(self) -> list[Row]:
        """On start: a submission left running is done if its student's view (or its whole result)
        was written, else queued again. The done submissions whose whole result is missing (their
        hidden cases were running) are returned: they are graded again for the instructor."""
        with self._lock:  # a search a stop cut short: not computed (its student may upload again)
            self._db.execute("UPDATE own_games SET status = 'not computed', why = 'the service was restarted' "
                             "WHERE status = 'searching'")
        for row in self._rows("WHERE state = ?", RUNNING):
            if self.result_path(row.id).exists() or self.shown_path(row.id).exists():
                self._set(row.id, DONE, finished=time.time())
            else:
                self._set(row.id, QUEUED)
        return [row for row in self._rows("WHERE state = ? ORDER BY id", DONE) if not self.result_path(row.id).exists()]

    def claim(self, busy: set[str]) -> Row | None:
        """The oldest queued submission of a student with none running, marked running."""
        for row in self._rows("WHERE state = ? ORDER BY id", QUEUED):
            if row.student not in busy:
                with self._lock:
                    self._db.execute("UPDATE submissions SET state = ?, started = ?, attempts = attempts + 1 "
                                     "WHERE id = ?", (RUNNING, time.time(), row.id))
                self._tell()
                return self.get(row.id)
        return None

    def publish(self, ident: int, shown) -> None:
        """The student's view (anything with `to_json()`) written, once, and the submission done
        for its student."""
        atomic.write_text(self.shown_path(ident), exports.json_text(shown.to_json()))
        self._set(ident, DONE, finished=time.time())

    def finish(self, ident: int, result: SubmissionResult) -> None:
        """The whole result, the instructor's: nothing a student sees changes with it."""
        atomic.write_text(self.result_path(ident), exports.json_text(result.to_json()))
        for listener in list(self.graded):
            listener()

    # --- own games (serve/own.py) ----------------------------------------------------
    # a row per submission whose own game was searched for, or refused: its status, whether it
    # spent one of the student's searches of the day, the reference's turns it showed, the game
    # shown (JSON), and whether the student's next submission still differs on it

    def own_begin(self, ident: int, student: str, game: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO own_games (submission, student, game, created, status) "
                             "VALUES (?, ?, ?, ?, 'searching')", (ident, student, game, time.time()))
        self._tell()

    def own_set(self, ident: int, status: str, shown: dict | None = None, sources: str | None = None,
                spent: bool = False, turns: int = 0, why: str = "") -> None:
        """The own game's status (a row made if it has none); the long polls are told."""
        row = self.get(ident)
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO own_games (submission, student, game, created, status) "
                             "VALUES (?, ?, ?, ?, ?)", (ident, row.student, row.game, time.time(), status))
            self._db.execute("UPDATE own_games SET status = ?, why = ?, sources = COALESCE(?, sources), spent = ?, "
                             "turns = ?, shown = ? WHERE submission = ?",
                             (status, why, sources, int(spent), turns,
                              None if shown is None else json.dumps(shown, separators=(",", ":")), ident))
        self._tell()

    def own(self, ident: int) -> dict | None:
        """The own game's record of a submission, or None (never searched for)."""
        with self._lock:
            found = self._db.execute("SELECT status, why, shown, turns FROM own_games WHERE submission = ?",
                                     (ident,)).fetchone()
        if found is None:
            return None
        return {"status": found[0], "why": found[1], "shown": json.loads(found[2]) if found[2] else None,
                "turns": found[3]}

    def own_spent(self, student: str, game: str, since: float) -> tuple[int, int, float | None]:
        """The student's searches spent on the game since `since`, the turns shown, and the oldest's time."""
        with self._lock:
            count, turns, oldest = self._db.execute(
                "SELECT COUNT(*), COALESCE(SUM(turns), 0), MIN(created) FROM own_games "
                "WHERE student = ? AND game = ? AND spent = 1 AND created >= ?", (student, game, since)).fetchone()
        return count, turns, oldest

    def own_for_sources(self, student: str, game: str, sources: str, before: int) -> tuple[str, dict | None] | None:
        """The status and game an earlier submission of the same sources was shown (found or none)."""
        with self._lock:
            found = self._db.execute(
                "SELECT status, shown FROM own_games WHERE student = ? AND game = ? AND sources = ? "
                "AND submission < ? AND status IN ('found', 'none found') ORDER BY submission DESC LIMIT 1",
                (student, game, sources, before)).fetchone()
        return None if found is None else (found[0], json.loads(found[1]) if found[1] else None)

    def own_last_shown(self, student: str, game: str, before: int) -> tuple[int, dict] | None:
        """The game shown on the student's submission just before `before`, if one was shown
        there and no later submission was played it yet."""
        with self._lock:
            last = self._db.execute("SELECT MAX(id) FROM submissions WHERE student = ? AND game = ? AND id < ?",
                                    (student, game, before)).fetchone()[0]
            found = None if last is None else self._db.execute(
                "SELECT shown FROM own_games WHERE submission = ? AND status = 'found' AND next IS NULL",
                (last,)).fetchone()
        return None if found is None or not found[0] else (last, json.loads(found[0]))

    def own_replayed(self, ident: int, next_ident: int, agrees: bool) -> None:
        with self._lock:
            self._db.execute("UPDATE own_games SET next = ?, next_agrees = ? WHERE submission = ?",
                             (next_ident, int(agrees), ident))

    def own_counts(self, game: str) -> dict:
        """The instructor's counts for one game: games shown, the next submissions played them,
        those that no longer differ on them, the reference's turns shown, the searches made."""
        with self._lock:
            shown, replayed, agree, turns, searched = self._db.execute(
                "SELECT COALESCE(SUM(status = 'found'), 0), COALESCE(SUM(next IS NOT NULL), 0), "
                "COALESCE(SUM(next_agrees = 1), 0), COALESCE(SUM(turns), 0), COALESCE(SUM(spent), 0) "
                "FROM own_games WHERE game = ?", (game,)).fetchone()
            none, limited = self._db.execute(
                "SELECT COALESCE(SUM(status = 'none found'), 0), COALESCE(SUM(status = 'limit reached for today'), 0) "
                "FROM own_games WHERE game = ?", (game,)).fetchone()
        return {"shown": shown, "next_played": replayed, "next_no_longer_differs": agree, "turns_shown": turns,
                "searches": searched, "none_found": none, "limit_reached": limited}

    def _set(self, ident: int, state: State, finished: float | None = None) -> None:
        with self._lock:
            self._db.execute("UPDATE submissions SET state = ?, finished = ? WHERE id = ?", (state, finished, ident))
        self._tell()

    def _tell(self) -> None:
        with self._changed:
            self._changed.notify_all()
        for listener in list(self.listeners):
            listener()

    def wait_change(self, ident: int, state: State, seconds: float) -> None:
        """Return once the submission is no longer in `state`, or after `seconds` (a long poll)."""
        with self._changed:
            self._changed.wait_for(lambda: (row := self.get(ident)) is None or row.state != state, timeout=seconds)

    # --- reading ---------------------------------------------------------------------

    def get(self, ident: int) -> Row | None:
        rows = self._rows("WHERE id = ?", ident)
        return rows[0] if rows else None

    def of_student(self, student: str) -> list[Row]:
        return self._rows("WHERE student = ? ORDER BY id", student)

    def everything(self) -> list[Row]:
        return self._rows("ORDER BY id")

    def in_flight(self, student: str) -> Row | None:
        rows = self._rows("WHERE student = ? AND state != ? ORDER BY id", student, DONE)
        return rows[0] if rows else None

    def since(self, student: str, moment: float) -> list[Row]:
        return self._rows("WHERE student = ? AND created >= ? ORDER BY id", student, moment)

    def position(self, ident: int) -> int:
        """How many queued submissions are ahead of this one."""
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM submissions WHERE state = ? AND id < ?",
                                    (QUEUED, ident)).fetchone()[0]

    def result_path(self, ident: int) -> Path:
        return self.folder / "results" / f"{ident}.json"

    def result(self, ident: int) -> SubmissionResult | None:
        """The whole result (the instructor's), once the grading has ended."""
        try:
            return SubmissionResult.from_json(json.loads(self.result_path(ident).read_text(encoding="utf-8")))
        except FileNotFoundError:
            return None

    def shown_path(self, ident: int) -> Path:
        return self.folder / "results" / f"{ident}.student.json"

    def shown(self, ident: int) -> dict | None:
        """What the student was shown (as `publish` wrote it); None for a submission graded
        before the service kept it apart (the whole result is there instead)."""
        try:
            return json.loads(self.shown_path(ident).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None


def _sync_folder(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
