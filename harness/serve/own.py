"""A student's own counterexample in the self-check service (`harness serve --counterexamples N`):
searched in the grading worker once a submission's public results are shown and before its
hidden cases start (`OwnGames.shown`), replayed on the student's next submission, and counted
for the instructor.

It is searched whether or not a hidden case failed (a search only after a hidden failure would
tell that failure); the search starts from the failing *public* cases and plays games in the
public cases' contexts only, and `counterexample.secrecy` keeps every hidden case out of what
is shown. The same sources get the same game (the search is seeded by their hash), and a
resubmission of the same sources is shown the game kept for them, at no cost. A search costs one
of the student's N a day for the game; the reference's turns a shown game reveals count against
`turns` a day; each comes back a day after it was spent, as an upload comes back an hour after
it was made (`app.upload`'s rate). Every run is a run whose output the student sees, so it holds
the gate's public turn (`classes.gate`): no hidden run goes on beside it."""
import threading
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

from harness.building import intake
from harness.classes import gate as gates
from harness.counterexample import make, search, show
from harness.counterexample.game import Context
from harness.loading import config
from harness.results import SubmissionResult, Visibility
from harness.serve.store import Store

DAY = 24 * 3600.0
TURNS_PER_DAY = 60  # the reference's turns a student may be shown a day per game (--counterexample-turns)
SHOWN_AS = "SUBMISSION"  # the replay command's name for the student's folder (the service does not know it)

# what a student is told (the `status` of their submission's `own_game`)
FOUND, NONE, LIMIT, SEARCHING, NOT_COMPUTED = "found", "none found", "limit reached for today", "searching", "not computed"


@dataclass(frozen=True)
class Policy:
    per_day: int = 0  # searches a student may have a day per game; 0: the service searches none
    turns: int = TURNS_PER_DAY

    @property
    def on(self) -> bool:
        return self.per_day > 0


def revealed(found: dict) -> int:
    """The reference's turns a shown game reveals: every turn up to the differing one (turn 0,
    before any line is typed, included): the program agreed on the earlier ones."""
    return int(found["turn"]) + 1


class OwnGames:
    """The searches and replays of one service, each on its upload's grading thread."""

    def __init__(self, store: Store, games: dict, policy: Policy, settings: config.Settings, gate):
        self.store, self.games, self.policy, self.settings, self.gate = store, games, policy, settings, gate
        self._spending = threading.Lock()  # a student's searches of the day counted and spent at once

    def waiting(self, row) -> None:
        """The submission's student is shown its public results: its own game is on its way
        (when the service searches any)."""
        if self.policy.on:
            self.store.own_begin(row.id, row.student, row.game)

    def shown(self, row, result: SubmissionResult) -> None:
        """The student has been shown the public results and no hidden case has started (this is
        called on the grading's thread, which starts the hidden cases after it): the student's
        last shown game played to this upload, then this upload's own game searched. So when
        the game comes out depends on the program and the public cases alone, never on how long
        a hidden case ran; the instructor's whole result waits for it instead."""
        last = self.store.own_last_shown(row.student, row.game, row.id)
        if last is None and not self.policy.on:
            return  # nothing to play or search: the gate is not taken
        try:
            with self.gate.held(gates.Kind.PUBLIC):
                if last is not None:
                    self._replay_last(row, *last)
                if self.policy.on:
                    self._search(row, result)
        except gates.Closed:
            return  # the service is stopping: `not computed` on its next start
        except Exception:  # noqa: BLE001 (a search that cannot be made is not computed, and said in the log)
            traceback.print_exc()
            self.store.own_set(row.id, NOT_COMPUTED, why="the search stopped on an error of the service")

    def _replay_last(self, row, ident: int, shown: dict) -> None:
        """The game shown on the student's previous upload of this game, played to this one:
        one game, so the instructor can count how many next uploads no longer differ on it."""
        game = self.games[row.game]
        context = Context(**{**shown["context"], "args": tuple(shown["context"]["args"])})
        judged = make.replayed(game.spec, self.store.upload(row.id), context, tuple(shown["inputs"]), self.settings)
        self.store.own_replayed(ident, row.id, judged is not None and not judged.differs)

    def _search(self, row, result: SubmissionResult) -> None:
        game = self.games[row.game]
        if any(case.unbuilt for case in result.cases):
            self.store.own_set(row.id, NOT_COMPUTED, why="your program does not build")
            return
        taken = intake.open_submission(self.store.upload(row.id))  # the sources as the grading took them in
        try:
            self._search_taken(row, result, Path(taken.root))
        finally:
            intake.close(taken)

    def _search_taken(self, row, result: SubmissionResult, upload: Path) -> None:
        """The search on the upload's sources (an archive unpacked: the same sources sent loose or
        zipped are the same sources)."""
        game = self.games[row.game]
        sources = str(search.seed_of(upload, game.spec.game))
        kept = self.store.own_for_sources(row.student, row.game, sources, row.id)
        if kept is not None:  # the same sources: the same game, which reveals nothing new
            self.store.own_set(row.id, kept[0], shown=kept[1], sources=sources, why="the same sources as before")
            return
        with self._spending:  # two uploads of one student searched at once spend one each
            now = time.time()
            spent, turns, oldest = self.store.own_spent(row.student, row.game, now - DAY)
            if spent >= self.policy.per_day or turns >= self.policy.turns:
                self.store.own_set(row.id, LIMIT, sources=sources, why=self._limit(spent, turns, oldest, now))
                return
            self.store.own_set(row.id, SEARCHING, sources=sources, spent=True)
        failing = tuple(case.name for case in result.cases
                        if case.visibility == Visibility.PUBLIC and not case.passed)
        found = make.counterexample(game.spec, game.cases, upload, SHOWN_AS, failing, self.settings,
                                    public_contexts=True)
        if found is None:
            self.store.own_set(row.id, NONE, sources=sources, spent=True)
            return
        shown = {**found.to_dict(), "context": asdict(found.context), "text": show.lines(found)}
        if turns + revealed(shown) > self.policy.turns:
            self.store.own_set(row.id, LIMIT, sources=sources, spent=True,
                               why=f"the game found would show more than {self.policy.turns} of the handout's turns today")
            return
        self.store.own_set(row.id, FOUND, shown=shown, sources=sources, spent=True, turns=revealed(shown))

    def _limit(self, spent: int, turns: int, oldest: float | None, now: float) -> str:
        back = "" if oldest is None else f"; the next comes back in {int((oldest + DAY - now) // 3600) + 1} h"
        if spent >= self.policy.per_day:
            return f"at most {self.policy.per_day} game{'s' if self.policy.per_day != 1 else ''} of your own a day{back}"
        return f"at most {self.policy.turns} of the handout's turns shown a day{back}"


def student_view(record: dict | None, policy: Policy) -> dict:
    """What the student is shown of their upload's own game: the game (the lines typed to the
    first differing turn, both outputs at that turn, the replay command), or why there is none."""
    if record is None:
        return {"status": NOT_COMPUTED, "why": "the service searches no game of your own" if not policy.on
                else "this upload was checked before the search was turned on"}
    out = {"status": record["status"]}
    if record.get("why"):
        out["why"] = record["why"]
    shown = record.get("shown")
    if record["status"] == FOUND and shown:
        out["game"] = {key: shown[key] for key in ("inputs", "turn", "expected", "actual", "expected_end",
                                                   "actual_end", "start", "rubric", "partly_shrunk", "replay")}
        out["text"] = "\n".join(shown["text"]) + "\n"
    return out
