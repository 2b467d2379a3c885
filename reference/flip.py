"""Flip: the reference implementation (formats.md, "Flip").

A turn is an optional take (dice from the middle whose sum is less than the just-played
die) followed by a flip (one of the mover's flippable dice v becomes 7-v and unflippable)
or a play (one of the opponent's dice goes to the middle as the new just-played die, and
all of the mover's dice become flippable again). After a move the mover wins if the
opponent has no dice and cannot take any.

`GameState` mirrors the handout's Java class (snake_case names); "player 1" is always the
player to move and `switch_players()` swaps the roles after every move, as FlipRunner does.

State string (`GameState.toString()`), every part sorted ascending, digits 1-6 without
separators, both `+` and both `|` always present:

    <p1 flippable>+<p1 unflippable>|<middle except just-played>+<just-played>|<p2 flippable>+<p2 unflippable>

e.g. `244+|+|124+` (a start) or `22+|46+4|4+`.

Modes and reference-only flags:

(default)       FlipRunner: the game between two people, moves read one line each.
--seed N        the start's 6 dice are JavaRandom(N).next_int(6) + 1 each, player 1's three
                first, as FlipRunner does with `new Random(N)`. Without it the start is drawn
                the same way from an unseeded generator (FlipRunner: `new GameState(6)`).
--start STATE   begin from STATE (the state string above; player 1 moves first). It must be
                well formed and a position a game can be in: no part unsorted, at most one
                just-played die, player 2 without unflippable dice when there is a
                just-played die (player 2 has just played), and player 1 not already beaten
                (player 1 has dice or can take some). Otherwise `Invalid start: <reason>` is
                the last line on stdout and the exit status is 3. --start wins over --seed.
--plan JSON     with --start (or --seed): print the move lines a strategy types for a whole
                game, one per line, and exit 0. Bad JSON or an unknown strategy or key: one
                line on stderr, exit 2.
--driver        answer the method protocol of GameStateDriver.java (see DRIVER_HELP).

Reading moves: each move is one whole line (Java `nextLine().trim()`; the trim removes
characters up to U+0020 at both ends). A readable move matches `[1-6]*[fp][1-6]`: the taken
dice as digits, `f` or `p`, the value to flip or play (`f2`, `p4`, `12f2`). Anything else
(an empty line, spaces inside, upper case, 0 or 7-9, two moves on a line) is unreadable and
answered like an illegal move: `Illegal move.`, then the same state and prompt again.
End of input exits 1 with nothing more printed.

Plan strategy (JSON object; keys "strategy", "seed" (default 0), "illegal_every"
(default 0), "max_moves" (default 60); any other key is an error):

  {"strategy": "random-legal", "seed": S, "illegal_every": K, "max_moves": M}
      Each move is random.Random(S).choice(state.legal_moves()): every distinct move text
      (take included) once, sorted by (taken dice, f before p, value). With K > 0 one illegal
      attempt is typed before every K-th move (moves 1-based: K, 2K, ...), chosen with the
      same generator right after the move it precedes, by rng.choice from a sorted list of:
      `f<v>` / `p<v>` (no take) that are illegal, and every non-empty sub-multiset T of the
      ordinary middle dice whose take is illegal (sum not below the just-played die, or no
      just-played die) followed by the action and value of the legal move. If that list is
      empty the attempt is `f0` (unreadable). The plan stops when the game ends (a win or
      a player without a legal move) or after M moves.
"""
import argparse
import random
import re
import sys
from collections import Counter
from typing import NamedTuple

from reference import console, options
from reference.jrandom import JavaRandom

FACES = range(1, 7)
START_DICE = 6
INTRO = (
    "Enter moves in the format\n"
    "taken dice, followed by f (flip) or p (play) and the value of the die to flip or play\n"
    "Examples: f2 or p4 or 12f2\n"
)
MOVE = re.compile(r"([1-6]*)([fp])([1-6])")
STRATEGIES = ("random-legal",)
PLAN_KEYS = ("strategy", "seed", "illegal_every", "max_moves")
DEFAULT_MAX_MOVES = 60


class InvalidStart(ValueError):
    """A --start state that is unreadable or that no game can be in."""


class PreconditionError(ValueError):
    """A method called against the handout's "you may assume": the Java result is undefined."""


def java_trim(text: str) -> str:
    """Java's String.trim(): drop characters up to U+0020 at both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def _bag(values) -> str:
    return "".join(str(v) for v in sorted(values))


def _contains_all(bag, values) -> bool:
    """Multiset inclusion: `values` (with repeats) can all be found in `bag`."""
    have = Counter(bag)
    return all(have[v] >= n for v, n in Counter(values).items())


def _remove_all(bag: list, values) -> None:
    for v in values:
        bag.remove(v)


class Move(NamedTuple):
    """One typed move: the taken dice, 'f' or 'p', and the value to flip or play."""
    taken: tuple
    action: str
    value: int

    def __str__(self):
        return _bag(self.taken) + self.action + str(self.value)


def parse_move(line: str):
    """The Move a typed line stands for, or None when it is unreadable (see the docstring)."""
    match = MOVE.fullmatch(java_trim(line))
    if not match:
        return None
    taken, action, value = match.groups()
    return Move(tuple(int(c) for c in taken), action, int(value))


# ---------------------------------------------------------------- rules (no I/O)

class GameState:
    """The handout's GameState. Bags are ascending lists of die values.

    `middle` holds the ordinary middle dice only; `just_played` is 0 when there is none.
    """

    def __init__(self, player1_values=(), player2_values=()):
        """GameState(int[] p1, int[] p2): both players' dice flippable, nothing in the middle."""
        self.p1_flippable = sorted(player1_values)
        self.p1_unflippable = []
        self.middle = []
        self.just_played = 0
        self.p2_flippable = sorted(player2_values)
        self.p2_unflippable = []

    @classmethod
    def random(cls, dice: int, rng) -> "GameState":
        """GameState(int dice): dice // 2 random values each, player 1's first.

        `rng` has `next_int(bound)` (a JavaRandom), so a seed draws what FlipRunner draws.
        """
        half = dice // 2
        p1 = [rng.next_int(6) + 1 for _ in range(half)]
        p2 = [rng.next_int(6) + 1 for _ in range(half)]
        return cls(p1, p2)

    @classmethod
    def from_string(cls, text: str) -> "GameState":  # audit: reference-only (--start)
        """Read a state string; raise InvalidStart unless it is a position a game can be in."""
        parts = text.split("|")
        if len(parts) != 3:
            raise InvalidStart(
                f"expected 3 parts separated by |, found {len(parts)} in {text!r} "
                f"(format: <p1 flippable>+<p1 unflippable>|<middle>+<just played>|<p2 flippable>+<p2 unflippable>)"
            )
        bags = []
        for name, part in zip(("player 1", "the middle", "player 2"), parts):
            halves = part.split("+")
            if len(halves) != 2:
                raise InvalidStart(f"the part of {name} must hold exactly one +, found {part!r}")
            for half in halves:
                for c in half:
                    if c not in "123456":
                        raise InvalidStart(f"die values are the digits 1 to 6, found {c!r}")
                if list(half) != sorted(half):
                    raise InvalidStart(f"the dice of each part must be sorted ascending, found {half!r}")
                bags.append([int(c) for c in half])
        if len(bags[3]) > 1:
            raise InvalidStart(f"at most one die can be just played, found {_bag(bags[3])!r}")
        state = cls()
        (state.p1_flippable, state.p1_unflippable, state.middle, jp,
         state.p2_flippable, state.p2_unflippable) = bags
        state.just_played = jp[0] if jp else 0
        if state.just_played and state.p2_unflippable:
            raise InvalidStart("player 2 has just played, so all of its dice are flippable")
        if not state.p1_flippable and not state.p1_unflippable and not state.can_take_any():
            raise InvalidStart("the game is over: player 1 has no dice and cannot take any")
        return state

    def copy(self) -> "GameState":
        other = GameState()
        other.__dict__.update({k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()})
        return other

    # -- the handout's methods

    def flip(self, value: int) -> None:
        """Player 1 flips a flippable die: it shows 7-value and is unflippable; no die is just played."""
        if value not in self.p1_flippable:  # audit: reference-only (the driver's `undefined`: a failed precondition)
            raise PreconditionError(f"flip {value}: player 1 has no flippable {value}")
        self.p1_flippable.remove(value)
        self.p1_unflippable = sorted(self.p1_unflippable + [7 - value])
        self._retire_just_played()

    def play(self, value: int) -> None:
        """Player 1 plays a die of player 2 (a flippable one first) into the middle."""
        if value in self.p2_flippable:
            self.p2_flippable.remove(value)
        elif value in self.p2_unflippable:
            self.p2_unflippable.remove(value)
        else:
            # audit: reference-only (the driver's `undefined`: a failed precondition)
            raise PreconditionError(f"play {value}: player 2 has no die {value}")
        self._retire_just_played()
        self.just_played = value
        self.p1_flippable = sorted(self.p1_flippable + self.p1_unflippable)
        self.p1_unflippable = []

    def take(self, values) -> None:
        """Move the given ordinary middle dice to player 1's flippable dice (no legality check)."""
        if not _contains_all(self.middle, values):  # audit: reference-only (the driver's `undefined`: a failed precondition)
            raise PreconditionError(f"take {_bag(values)}: not all of these are ordinary middle dice")
        _remove_all(self.middle, values)
        self.p1_flippable = sorted(self.p1_flippable + list(values))

    def check_take(self, values) -> bool:
        """All dice are ordinary middle dice and their sum is below the just-played die."""
        if not values:
            return True
        return _contains_all(self.middle, values) and sum(values) < self.just_played

    def check_flip(self, taken, value: int) -> bool:
        return self.check_take(taken) and (value in self.p1_flippable or value in taken)

    def check_play(self, taken, value: int) -> bool:
        return self.check_take(taken) and (value in self.p2_flippable or value in self.p2_unflippable)

    def is_winning(self) -> bool:
        """After player 1's move: player 2 has no dice and cannot take any next turn."""
        return not self.p2_flippable and not self.p2_unflippable and not self.can_take_any()

    def switch_players(self) -> None:
        self.p1_flippable, self.p2_flippable = self.p2_flippable, self.p1_flippable
        self.p1_unflippable, self.p2_unflippable = self.p2_unflippable, self.p1_unflippable

    def to_string(self) -> str:
        jp = str(self.just_played) if self.just_played else ""
        return (f"{_bag(self.p1_flippable)}+{_bag(self.p1_unflippable)}|{_bag(self.middle)}+{jp}|"
                f"{_bag(self.p2_flippable)}+{_bag(self.p2_unflippable)}")

    __str__ = to_string

    # -- helpers for the runner and strategies

    def _retire_just_played(self) -> None:
        if self.just_played:
            self.middle = sorted(self.middle + [self.just_played])
            self.just_played = 0

    def can_take_any(self) -> bool:
        """Some ordinary middle die is below the just-played die: the next mover can take."""
        return bool(self.just_played) and any(v < self.just_played for v in self.middle)

    def legal_takes(self) -> list:
        """Every distinct legal take (sorted tuples), the empty one first."""
        counts = Counter(v for v in self.middle if v < self.just_played)
        takes = [()]
        for value in sorted(counts):
            takes = [t + (value,) * k for t in takes for k in range(counts[value] + 1)]
        return sorted(t for t in takes if sum(t) < self.just_played or not t)

    def is_legal(self, move: Move) -> bool:
        check = self.check_flip if move.action == "f" else self.check_play
        return check(list(move.taken), move.value)

    def legal_moves(self) -> list:
        """Every distinct legal Move, sorted by (taken, action, value)."""
        moves = []
        opponent = sorted(set(self.p2_flippable + self.p2_unflippable))
        for taken in self.legal_takes():
            moves += [Move(taken, "f", v) for v in sorted(set(self.p1_flippable) | set(taken))]
            moves += [Move(taken, "p", v) for v in opponent]
        return sorted(moves)

    def apply(self, move: Move) -> None:
        """Take, then flip or play, as FlipRunner does after the check (no switch)."""
        self.take(list(move.taken))
        (self.flip if move.action == "f" else self.play)(move.value)


def illegal_attempts(state: GameState, move: Move) -> list:  # audit: reference-only (--plan)
    """Illegal move texts to type before the legal `move` (sorted; see the docstring)."""
    attempts = set()
    for v in FACES:
        for action in "fp":
            candidate = Move((), action, v)
            if not state.is_legal(candidate):
                attempts.add(str(candidate))
    counts = Counter(state.middle)
    subsets = [()]
    for value in sorted(counts):
        subsets = [t + (value,) * k for t in subsets for k in range(counts[value] + 1)]
    for taken in subsets:
        if taken and not state.check_take(list(taken)):
            attempts.add(str(Move(taken, move.action, move.value)))
    return sorted(attempts)


def check_strategy(strategy) -> dict:  # audit: reference-only (--plan)
    """Validate a --plan object; return it with defaults filled in. Raises ValueError."""
    if not isinstance(strategy, dict):
        raise ValueError("the plan must be a JSON object")
    unknown = sorted(set(strategy) - set(PLAN_KEYS))
    if unknown:
        raise ValueError(f"unknown plan key(s): {', '.join(unknown)}")
    name = strategy.get("strategy")
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    values = {"seed": strategy.get("seed", 0), "illegal_every": strategy.get("illegal_every", 0),
              "max_moves": strategy.get("max_moves", DEFAULT_MAX_MOVES)}
    for key, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{key} must be an integer")
    if values["illegal_every"] < 0 or values["max_moves"] < 0:
        raise ValueError("illegal_every and max_moves must be 0 or more")
    return {"strategy": name, **values}


def plan_inputs(state: GameState, strategy) -> list:  # audit: reference-only (--plan)
    """The lines a strategy types for a whole game from `state` (see the module docstring)."""
    strategy = check_strategy(strategy)
    rng = random.Random(strategy["seed"])
    every = strategy["illegal_every"]
    state = state.copy()
    lines = []
    for number in range(1, strategy["max_moves"] + 1):
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        if every and number % every == 0:
            attempts = illegal_attempts(state, move)
            lines.append(rng.choice(attempts) if attempts else "f0")
        lines.append(str(move))
        state.apply(move)
        if state.is_winning():
            break
        state.switch_players()
    return lines


# ---------------------------------------------------------------- the method driver

# audit: begin reference-only (GameStateDriver: the course's support program, which calls the student's methods)
DRIVER_HELP = """\
One command per line; each prints one line, a change of the state a second one with the
state it left (toString()); blank lines print nothing:
  new LIST / LIST      GameState(int[], int[])      -> ok, then the state
  random N             GameState(N), 0 <= N <= 100  -> dice N1 N2 allFlippable B inRange B middleEmpty B
                                                       (read from toString(); `unreadable TEXT` if it
                                                       does not look like a state string)
  flip V | play V      flip(V) | play(V)            -> ok, then the state
  take LIST            take(LIST)                   -> ok, then the state
  checkTake LIST       checkTake(LIST)              -> true | false
  checkFlip LIST / V   checkFlip(LIST, V)           -> true | false
  checkPlay LIST / V   checkPlay(LIST, V)           -> true | false
  isWinning            isWinning()                  -> true | false
  switch               switchPlayers()              -> ok, then the state
  show                 toString()                   -> the string
  quit                 exit 0 (end of input too)
LIST: zero or more tokens of digits 1-6, read digit by digit ("244" = "2 4 4"); V: one digit 1-6.
A `/` is a token of its own even when written without spaces.
Errors: `error unknown command`, `error bad arguments`, `error no state` (before new/random).
A method that throws prints `exception <SimpleClassName>`. The reference alone prints
`undefined <reason>` for a call against the handout's "you may assume" (cases must avoid these).
"""
_WS = re.compile(r"[ \t\n\x0b\f\r]+")  # Java's \s
_LIST_TOKEN = re.compile(r"[1-6]+")
_VALUE = re.compile(r"[1-6]")
_COUNT = re.compile(r"[0-9]{1,3}")
_LOOSE_STATE = re.compile(r"([0-9]*)\+([0-9]*)\|([0-9]*)\+?([0-9]*)\|([0-9]*)\+([0-9]*)")
_NO_ARGS = ("isWinning", "switch", "show", "quit")
_COMMANDS = ("new", "random", "flip", "play", "take", "checkTake", "checkFlip", "checkPlay") + _NO_ARGS


class _BadArguments(Exception):
    pass


def _parse_list(tokens) -> list:
    if not all(_LIST_TOKEN.fullmatch(t) for t in tokens):
        raise _BadArguments()
    return [int(c) for t in tokens for c in t]


def _parse_value(tokens) -> int:
    if len(tokens) != 1 or not _VALUE.fullmatch(tokens[0]):
        raise _BadArguments()
    return int(tokens[0])


def _split_slash(args):
    if args.count("/") != 1:
        raise _BadArguments()
    i = args.index("/")
    return args[:i], args[i + 1:]


def _java_bool(value: bool) -> str:
    return "true" if value else "false"


def random_summary(text: str) -> str:
    """What `random N` prints about a fresh state's toString(): only what is checkable."""
    match = _LOOSE_STATE.fullmatch(re.sub(r"\s+", "", text))
    if not match:
        return f"unreadable {text}"
    g = match.groups()
    in_range = all(c in "123456" for c in "".join(g))
    return (f"dice {len(g[0]) + len(g[1])} {len(g[4]) + len(g[5])} "
            f"allFlippable {_java_bool(not g[1] and not g[5])} inRange {_java_bool(in_range)} "
            f"middleEmpty {_java_bool(not g[2] and not g[3])}")


class Driver:
    """The reference side of GameStateDriver: one command line in, one reply line (or None) out."""

    QUIT = object()

    def __init__(self, rng=None):
        self.state = None
        self.rng = rng if rng is not None else JavaRandom(random.randrange(1 << 48))

    def execute(self, line: str):
        text = java_trim(line)
        if not text:
            return None
        tokens = _WS.split(java_trim(text.replace("/", " / ")))
        command, args = tokens[0], tokens[1:]
        if command not in _COMMANDS:
            return "error unknown command"
        try:
            if command in _NO_ARGS and args:
                raise _BadArguments()
            if command == "quit":
                return self.QUIT
            if command == "new":
                left, right = _split_slash(args)
                p1, p2 = _parse_list(left), _parse_list(right)
                self.state = GameState(p1, p2)
                return self.changed()
            if command == "random":
                if len(args) != 1 or not _COUNT.fullmatch(args[0]) or int(args[0]) > 100:
                    raise _BadArguments()
                self.state = GameState.random(int(args[0]), self.rng)
                return random_summary(self.state.to_string())
            # parse before looking at the state, as the Java driver does
            if command in ("flip", "play"):
                value = _parse_value(args)
            elif command in ("take", "checkTake"):
                if "/" in args:
                    raise _BadArguments()
                values = _parse_list(args)
            elif command in ("checkFlip", "checkPlay"):
                left, right = _split_slash(args)
                values, value = _parse_list(left), _parse_value(right)
        except _BadArguments:
            return "error bad arguments"
        state = self.state
        if state is None:
            return "error no state"
        try:
            if command == "flip":
                state.flip(value)
            elif command == "play":
                state.play(value)
            elif command == "take":
                state.take(values)
            elif command == "switch":
                state.switch_players()
            elif command == "show":
                return state.to_string()
            elif command == "checkTake":
                return _java_bool(state.check_take(values))
            elif command == "checkFlip":
                return _java_bool(state.check_flip(values, value))
            elif command == "checkPlay":
                return _java_bool(state.check_play(values, value))
            else:  # isWinning
                return _java_bool(state.is_winning())
        except PreconditionError as exc:
            return f"undefined {exc}"
        return self.changed()

    def changed(self) -> str:
        """A call that changed the state answers `ok` and the state it left, on a line of its
        own, so that a change is judged at the call that made it (GameStateDriver.java)."""
        return "ok\n" + self.state.to_string()


def run_driver(scanner) -> int:
    driver = Driver()
    while True:
        try:
            line = scanner.next_line()
        except console.EndOfInput:
            return 0
        reply = driver.execute(line)
        if reply is Driver.QUIT:
            return 0
        if reply is not None:
            console.println(reply)


# audit: end reference-only

# ---------------------------------------------------------------- the game (FlipRunner)

def run_game(scanner, state: GameState) -> int:  # audit: reference-only (FlipRunner.java, a support file)
    """FlipRunner's loop from `state` (player 1 to move); returns the exit status."""
    console.write(INTRO)
    console.println()
    player = 1
    while True:
        console.println(f"Game state: {state}")
        if not state.legal_moves():
            console.println(f"Player {player} has no legal move.")
            console.println(f"Player {3 - player} wins!")
            return 0
        console.write(f"Enter move for player {player}: ")
        move = parse_move(scanner.next_line())
        if move is None or not state.is_legal(move):
            console.println("Illegal move.")
            continue
        state.apply(move)
        if state.is_winning():
            console.println("Congratulations! You won.")
            return 0
        state.switch_players()
        player = 3 - player


def main(argv=None) -> int:
    console.setup_stdout()
    # audit: begin reference-only (the harness's flags: --seed, --start, --start-file, --plan, --driver)
    parser = argparse.ArgumentParser(prog="python -m reference.flip", description="The Flip game (FlipRunner).",
                                     epilog="--driver protocol:\n" + DRIVER_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, help="draw the start with java.util.Random(SEED)")
    options.add_start(parser, "244+|+|124+")
    parser.add_argument("--plan", metavar="JSON", help="with --start or --seed: print a strategy's moves")
    parser.add_argument("--driver", action="store_true", help="answer the GameStateDriver protocol")
    args = parser.parse_args(argv)
    args.start = options.start_text(args)
    # audit: end reference-only

    try:
        if args.driver:
            if args.start is not None or args.plan is not None or args.seed is not None:  # audit: reference-only
                return options.bad_option("--driver takes no other option")
            return run_driver(console.Scanner())
        if args.plan is not None:  # audit: reference-only
            if args.start is None and args.seed is None:
                return options.bad_option("--plan needs --start or --seed")
            strategy = options.read_plan(args.plan, check_strategy)
            if strategy is None:
                return options.BAD_OPTION
        # audit: begin reference-only
        if args.start is not None:
            try:
                state = GameState.from_string(args.start)
            except InvalidStart as exc:
                return options.invalid_start(exc)
        # audit: end reference-only
        else:
            seed = args.seed if args.seed is not None else random.randrange(1 << 48)  # audit: reference-only
            state = GameState.random(START_DICE, JavaRandom(seed))
        if args.plan is not None:  # audit: reference-only
            for line in plan_inputs(state, strategy):
                console.println(line)
            return 0
        return run_game(console.Scanner(), state)
    except console.EndOfInput:
        return 1
    finally:
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
