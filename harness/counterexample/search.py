"""The search for a differing game, and the counterexample made of it.

First, where it is affordable (a menu of at most EXHAUSTIVE_MENU lines), every game of three
lines in the primary context, so a difference within three lines is always found at its
shortest; then the failing public cases' own games; then seeded games: a public case's lines
edited one to three times (a line changed, put in, left out, typed again, another case's game
from there on), or lines of the menu drawn at random; the whole search is bounded in wall
time. The seed is the submission's content hash, so the same sources always get the same
counterexample. A differing game is shrunk (shrink.py) and replayed three times; one that does not differ three
runs of three is never shown, and the search goes on."""
import hashlib
import random
import time
from dataclasses import dataclass
from itertools import product
from pathlib import Path

from harness.building import build as builder
from harness.counterexample import menu as menus
from harness.counterexample import secrecy, shrink
from harness.counterexample.game import Context, Counterexample, Trial
from harness.counterexample.trial import Games
from harness.loading import tree_hash
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.results import Visibility

EXHAUSTIVE_MENU = 4  # a menu this small has every game of three lines tried (4**3 = 64 runs)
SEARCH_GAMES = 40  # seeded games tried at most
LONGEST = 12  # lines of a drawn game at most
REPLAYS = 3  # a counterexample differs on each of these runs
CANDIDATES = 2  # differing games shrunk and replayed at most before the search gives up


SHRINK_SECONDS = 60.0  # a shrink's wall time at most (as Hypothesis caps it): past it, partly shrunk
SEARCH_SECONDS = 180.0  # the whole search's wall time at most: a program that spends each run's time limit
OWN_GAMES = 5  # failing public cases whose own game is tried first, at most


@dataclass
class Options:
    search: int = SEARCH_GAMES
    shrink: int = shrink.BUDGET
    shrink_seconds: float = SHRINK_SECONDS
    seconds: float = SEARCH_SECONDS
    exhaustive_menu: int = EXHAUSTIVE_MENU


def seed_of(submission: Path, game: str) -> int:
    """The search's seed: the submission's sources' content hash, and the game's name."""
    digest = hashlib.sha256(game.encode())
    tree_hash.update(digest, submission, max_files=2000, max_bytes=50 << 20)
    return int.from_bytes(digest.digest()[:8], "big")


def contexts(cases: list[Case], failing: tuple[str, ...] = ()) -> list[Context]:
    """The contexts games are played in: the failing cases' first (hidden ones too: only their
    item, target and arguments are used), then every other case's, one per distinct context."""
    ordered = [c for c in cases if c.name in failing] + [c for c in cases if c.name not in failing]
    seen, out = set(), []
    for case in ordered:
        found = menus.context(case)
        key = (found.milestone, found.target, found.rubric, found.args, found.seed, found.compare, found.limits)
        if key not in seen:
            seen.add(key)
            out.append(found)
    return out


def _edited(rng: random.Random, lines: list[str], menu: tuple[str, ...], others: list[list[str]]) -> tuple[str, ...]:
    """One to three edits of a public case's lines, as a student's session would differ from it:
    a line changed, put in, left out or typed again, or another case's game from here on (which
    keeps a long game mostly legal)."""
    seq = list(lines)
    for _ in range(rng.choice((1, 1, 2, 3))):
        at = rng.randint(0, len(seq))
        kind = rng.random()
        if kind < 0.3 and seq:
            seq[min(at, len(seq) - 1)] = rng.choice(menu)
        elif kind < 0.55:
            seq.insert(at, rng.choice(menu))
        elif kind < 0.7 and seq:
            del seq[min(at, len(seq) - 1)]
        elif kind < 0.85 and others:
            other = rng.choice(others)
            seq = seq[:at] + other[rng.randrange(len(other)):] if other else seq
        elif seq:
            at = min(at, len(seq) - 1)
            seq.insert(at, seq[at])
    return tuple(seq[:LONGEST * 8])


def drawn_games(rng: random.Random, spaces: list[Context], cases: list[Case], menus_of: dict[str, tuple],
                count: int, primary: int = 1):
    """`count` seeded games, each (context, lines): one of the first `primary` contexts (the
    failing cases') three times in four."""
    public = [c for c in cases if c.visibility == Visibility.PUBLIC]
    for _ in range(count):
        context = rng.choice(spaces[:max(1, primary)]) if rng.random() < 0.75 else rng.choice(spaces)
        menu = menus_of[context.target]
        bases = [menus.listed(c) for c in public if c.target == context.target and c.milestone == context.milestone]
        if bases and rng.random() < 0.5:
            yield context, _edited(rng, rng.choice(bases), menu, bases)
        else:
            yield context, tuple(rng.choice(menu) for _ in range(rng.randint(1, LONGEST)))


def _exhaustive(games: Games, context: Context, menu: tuple[str, ...], allowed, deadline: float) -> Trial | None:
    """Every game of three lines (in the menu's order, simplest first): the first differing
    turn's shortest, the simplest among those; None when none differs (or the search's time is up)."""
    best = None
    for lines in product(menu, repeat=3):
        if time.monotonic() > deadline:
            break
        judged = games.trial(context, lines)
        if judged.differs and allowed(lines[:judged.turn]) and (best is None or judged.turn < best.turn):
            best = judged
            if best.turn <= 1:  # later games start with a line no simpler
                break
    return best


def find(spec: Spec, cases: list[Case], build: builder.Build, submission: Path, failing: tuple[str, ...] = (),
         options: Options = Options(), lines_from: list[Case] | None = None,
         contexts_from: list[Case] | None = None) -> Counterexample | None:
    """A counterexample of the built program, or None (no difference found within the budget).
    `cases`: the milestone's (the hidden ones only kept out of it); `lines_from`: the cases whose
    public lines make the menu (default: `cases`; the front doors give every milestone's);
    `contexts_from`: the cases whose contexts games are played in (default: `cases`; the
    service gives the public ones, so no hidden case's item, arguments or seed is shown)."""
    started = time.monotonic()
    games = Games(spec, build)
    hidden = secrecy.hidden_games(cases)
    allowed = lambda lines: not secrecy.reveals(lines, hidden)  # noqa: E731
    spaces = [c for c in contexts(cases if contexts_from is None else contexts_from, failing)
              if c.target == build.target]
    if not spaces:
        return None
    menus_of = {c.target: menus.build(lines_from or cases, c.target) for c in spaces}
    rng = random.Random(seed_of(submission, spec.game))
    exhaustive = len(menus_of[spaces[0].target]) <= options.exhaustive_menu
    tried: set[tuple] = set()

    def attempts():
        if exhaustive:
            best = _exhaustive(games, spaces[0], menus_of[spaces[0].target], allowed, started + options.seconds)
            if best is not None:
                yield spaces[0], best
        primary = sum(1 for c in spaces if c.case in failing)
        own = [(menus.context(c), tuple(menus.listed(c))) for c in cases
               if c.name in failing and c.visibility == Visibility.PUBLIC and c.target == build.target
               and not c.strategy][:OWN_GAMES]
        for context, lines in own + list(drawn_games(rng, spaces, cases, menus_of, options.search, primary)):
            if time.monotonic() - started > options.seconds:
                return
            if (context, lines) not in tried and allowed(lines):
                tried.add((context, lines))
                yield context, games.trial(context, lines)

    candidates = 0
    for context, judged in attempts():
        if not judged.differs:
            continue
        candidates += 1
        shrunk = _shrunk_and_replayed(games, context, judged, menus_of[context.target], allowed, options)
        if shrunk is not None:
            shown = shrunk.trial
            return Counterexample(spec.game, context, shown.inputs, shown.turn, shown.expected, shown.actual,
                                  shown.expected_end, shown.actual_end, shown.start, not shrunk.complete,
                                  games.runs, time.monotonic() - started, exhaustive)
        if candidates >= CANDIDATES:
            break
    return None


def _shrunk_and_replayed(games: Games, context: Context, judged: Trial, menu: tuple[str, ...], allowed,
                         options: Options):
    """The game shrunk, then replayed: the shrunk game when it differs at the same turn on every
    replay; None when it does not (a difference of chance or time)."""
    made = shrink.shrink(judged, lambda lines: games.trial(context, lines), lambda: games.runs, menu, allowed,
                         options.shrink, options.shrink_seconds)
    if not allowed(made.trial.inputs):
        return None
    for _ in range(REPLAYS):
        replay = games.trial(context, made.trial.inputs, fresh=True)
        if not replay.differs or replay.turn != made.trial.turn:
            return None
    return made
