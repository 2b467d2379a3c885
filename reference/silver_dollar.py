"""Silver Dollar: the reference implementation (formats.md, "Silver Dollar").

Coins sit on a strip of squares and move only to the left; no coin may land on or pass
the coin to its left. The game ends when the n coins fill the leftmost n squares; the
player who made the last move wins.

The state is a tuple of coin positions (0-based square indexes, strictly increasing;
coin i is the i-th coin from the left) plus the strip length, which is fixed at setup
(index of the last coin + 1) and never shrinks.

Reference-only flags:

--seed N        draw the board with JavaRandom(N): one `nextInt(6) + 1` gap per coin,
                left to right (coin 0's gap counts from the left edge, so it sits on
                square gap-1); if the board drawn is already final, draw the whole strip
                again from the same generator. Without --seed the board is drawn the same
                way from an unseeded generator.
--start STATE   begin from STATE, the board as the game prints it, e.g.
                "_ 0 _ 1 _ _ 2" (tokens `_` or coin numbers 0..n-1 in order, separated by
                whitespace). The coin count is still prompted for and read and must equal
                the strip's. STATE must be a board setup could have drawn: coin 0 on
                square 0..5, every gap 1..6, the strip ending with the last coin.
                Otherwise `Invalid start: <reason>` is the last line on stdout and the
                exit status is 3. A STATE already final (no move possible) is within the
                handout's rules but shows no game: `Unplayable start: <reason>`, exit 4
                (the reference's own re-roll is a Decision, not the handout's rule). With
                --start, --seed is ignored.
--start-file PATH  the same, STATE read from the file PATH (how the grader passes it).
--plan JSON     with --start: print the input lines a strategy types for the moves of a
                whole game from STATE (one move `c d` per line, nothing else; the coin
                count is not part of the plan) and exit 0. Bad JSON or an unknown
                strategy: one line on stderr, exit 2.

Plan strategies (JSON object; keys "strategy", "seed" (default 0), "illegal_every"
(default 0); any other key is an error):

  {"strategy": "random-legal", "seed": S, "illegal_every": K}
      Every move is `random.Random(S).choice(legal_moves(...))`, where legal_moves lists
      the legal moves by coin, then distance, ascending; until the game ends.
  {"strategy": "leftmost", "illegal_every": K}
      Always move the lowest-numbered coin that can move, by the largest legal distance
      (a short deterministic game). "seed" is accepted and unused.

  With K > 0, one illegal attempt is typed before every K-th move (moves 1-based: before
  moves K, 2K, ...). The attempts cycle through ILLEGAL_KINDS in order, built around the
  coin c of the legal move that follows (c, d); a kind that cannot be built in the
  position is skipped and the next one is used:
      no-such-coin       (n, d)
      zero-distance      (c, 0)
      negative-distance  (c, -d)
      off-left-edge      (0, position of coin 0 + 1)
      onto-neighbour     coin c (or, if c is 0, coin 1) moved exactly onto its left
                         neighbour; needs 2 coins
      past-neighbour     a coin moved one square past its left neighbour, onto a square
                         of the strip (c first, else the lowest coin where that works)

Errors the handout lets a program assume away: a coin count below 1 or a token that is
not an int prints a line on stderr and exits 1 (a Java program would throw). End of input
exits 1 with nothing more printed.
"""
import argparse
import random
import sys

from reference import console, options
from reference.jrandom import JavaRandom

MAX_GAP = 6  # each coin stands 1..MAX_GAP squares right of its left neighbour (or edge)
ILLEGAL_KINDS = (
    "no-such-coin",
    "zero-distance",
    "negative-distance",
    "off-left-edge",
    "onto-neighbour",
    "past-neighbour",
)
STRATEGIES = ("random-legal", "leftmost")


class InvalidStart(ValueError):
    """A --start state that is unreadable or that setup could never have drawn."""


class UnplayableStart(ValueError):
    """A --start state setup could draw by the handout's rules, but already final: no game."""


# ---------------------------------------------------------------- rules (no I/O)

def draw_strip(rng, n):
    """Positions and length of a random board, drawn as formats.md says (rerolled if final).

    `rng` is anything with `next_int(bound)` (a JavaRandom).
    """
    if n < 1:
        raise ValueError("the number of coins must be at least 1")
    while True:
        positions = []
        square = -1  # the left edge
        for _ in range(n):
            square += rng.next_int(MAX_GAP) + 1
            positions.append(square)
        positions = tuple(positions)
        if not is_final(positions):
            return positions, positions[-1] + 1


def parse_strip(text):  # audit: reference-only (--start)
    """Read a board as the game prints it; validate it as a start; return (positions, length)."""
    tokens = text.split()
    if not tokens:
        raise InvalidStart("the strip is empty")
    positions = []
    for square, token in enumerate(tokens):
        if token == "_":
            continue
        if not (token.isascii() and token.isdigit()):
            raise InvalidStart(f"square {square} holds {token!r}, which is neither _ nor a coin number")
        expected = len(positions)
        if token != str(expected):
            raise InvalidStart(
                f"square {square} holds {token!r} where coin {expected} was expected "
                f"(coins are numbered 0, 1, 2, ... from the left)"
            )
        positions.append(square)
    if not positions:
        raise InvalidStart("the strip holds no coin")
    if positions[0] + 1 > MAX_GAP:
        raise InvalidStart(
            f"coin 0 stands {positions[0] + 1} squares from the left edge (at most {MAX_GAP})"
        )
    for coin in range(1, len(positions)):
        gap = positions[coin] - positions[coin - 1]
        if gap > MAX_GAP:
            raise InvalidStart(
                f"coin {coin} stands {gap} squares right of coin {coin - 1} (at most {MAX_GAP})"
            )
    length = len(tokens)
    last = len(positions) - 1
    if positions[-1] != length - 1:
        extra = length - 1 - positions[-1]
        raise InvalidStart(
            f"the strip goes on {extra} square{'s' if extra != 1 else ''} past coin {last} "
            f"(a new strip ends with its last coin)"
        )
    positions = tuple(positions)
    if is_final(positions):
        raise UnplayableStart(
            f"no move is possible: the {len(positions)} coins already fill the leftmost squares"
        )
    return positions, length


def render(positions, length):
    """The board line: one token per square, `_` or the coin number, single spaces."""
    squares = ["_"] * length
    for coin, square in enumerate(positions):
        squares[square] = str(coin)
    return " ".join(squares)


def legal(positions, coin, dist):
    """True iff coin `coin` may move `dist` squares left: stays on the strip, lands right of coin-1."""
    if not 0 <= coin < len(positions) or dist < 1:
        return False
    target = positions[coin] - dist
    floor = positions[coin - 1] + 1 if coin > 0 else 0
    return target >= floor


def move(positions, coin, dist):
    """The positions after a legal move (a new tuple)."""
    if not legal(positions, coin, dist):
        raise ValueError(f"illegal move {coin} {dist}")
    return positions[:coin] + (positions[coin] - dist,) + positions[coin + 1:]


def is_final(positions):
    """The game is over when coin i sits on square i for every i."""
    return all(square == coin for coin, square in enumerate(positions))


def max_distance(positions, coin):  # audit: reference-only (--plan)
    """How far `coin` can move left (0: it cannot move)."""
    floor = positions[coin - 1] + 1 if coin > 0 else 0
    return positions[coin] - floor


def legal_moves(positions):  # audit: reference-only (--plan)
    """Every legal (coin, dist), by coin then distance, ascending."""
    return [(coin, dist) for coin in range(len(positions))
            for dist in range(1, max_distance(positions, coin) + 1)]


def illegal_attempt(positions, kind, coin, dist):  # audit: reference-only (--plan)
    """An illegal (coin, dist) of the given kind near the legal move (coin, dist), or None."""
    n = len(positions)
    if kind == "no-such-coin":
        return (n, dist)
    if kind == "zero-distance":
        return (coin, 0)
    if kind == "negative-distance":
        return (coin, -dist)
    if kind == "off-left-edge":
        return (0, positions[0] + 1)
    if kind == "onto-neighbour":
        if n < 2:
            return None
        c = coin if coin > 0 else 1
        return (c, positions[c] - positions[c - 1])
    if kind == "past-neighbour":
        for c in [coin] + list(range(1, n)):
            if c > 0 and positions[c - 1] >= 1:  # the square past the neighbour exists
                return (c, positions[c] - positions[c - 1] + 1)
        return None
    raise ValueError(f"unknown illegal kind {kind!r}")


def check_strategy(strategy):  # audit: reference-only (--plan)
    """Validate a --plan strategy object; return it with defaults filled in. Raises ValueError."""
    if not isinstance(strategy, dict):
        raise ValueError("the plan must be a JSON object")
    unknown = sorted(set(strategy) - {"strategy", "seed", "illegal_every"})
    if unknown:
        raise ValueError(f"unknown plan key(s): {', '.join(unknown)}")
    name = strategy.get("strategy")
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    seed = strategy.get("seed", 0)
    every = strategy.get("illegal_every", 0)
    for key, value in (("seed", seed), ("illegal_every", every)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{key} must be an integer")
    if every < 0:
        raise ValueError("illegal_every must be 0 or more")
    return {"strategy": name, "seed": seed, "illegal_every": every}


def plan_inputs(positions, length, strategy):  # audit: reference-only (--plan)
    """The lines a strategy types for a whole game from `positions` (see the module docstring)."""
    strategy = check_strategy(strategy)
    rng = random.Random(strategy["seed"])
    every = strategy["illegal_every"]
    positions = tuple(positions)
    lines = []
    kind_index = 0
    number = 0
    while not is_final(positions):
        number += 1
        if strategy["strategy"] == "random-legal":
            coin, dist = rng.choice(legal_moves(positions))
        else:
            coin = next(c for c in range(len(positions)) if max_distance(positions, c) > 0)
            dist = max_distance(positions, coin)
        if every and number % every == 0:
            for _ in ILLEGAL_KINDS:
                kind = ILLEGAL_KINDS[kind_index % len(ILLEGAL_KINDS)]
                kind_index += 1
                attempt = illegal_attempt(positions, kind, coin, dist)
                if attempt is not None:
                    lines.append(f"{attempt[0]} {attempt[1]}")
                    break
        lines.append(f"{coin} {dist}")
        positions = move(positions, coin, dist)
    return lines


# ---------------------------------------------------------------- the game

def play(scanner, positions, length):
    """Run the turns from a non-final board; returns the exit status."""
    player = 1
    while True:
        console.println(render(positions, length))
        while True:
            console.write(f"Player {player}: Enter your move: ")
            coin = scanner.next_int()
            dist = scanner.next_int()
            if legal(positions, coin, dist):
                break
            console.println("Illegal move! Try again.")
        positions = move(positions, coin, dist)
        if is_final(positions):
            console.println(render(positions, length))
            console.println(f"Player {player} wins!")
            return 0
        player = 3 - player


def main(argv=None) -> int:
    console.setup_stdout()
    # audit: begin reference-only (the harness's flags: --seed, --start, --start-file, --plan)
    parser = argparse.ArgumentParser(prog="python -m reference.silver_dollar",
                                     description="The Silver Dollar game.")
    parser.add_argument("--seed", type=int, help="draw the board with java.util.Random(SEED)")
    options.add_start(parser, '"_ 0 _ 1 _ _ 2"')
    parser.add_argument("--plan", metavar="JSON", help="with --start: print a strategy's inputs")
    args = parser.parse_args(argv)
    args.start = options.start_text(args)

    start = None
    if args.plan is not None:
        if args.start is None:
            return options.bad_option("--plan needs --start")
        strategy = options.read_plan(args.plan, check_strategy)
        if strategy is None:
            return options.BAD_OPTION
    if args.start is not None:
        try:
            start = parse_strip(args.start)
        except InvalidStart as exc:
            return options.invalid_start(exc)
        except UnplayableStart as exc:
            return options.unplayable_start(exc)
    if args.plan is not None:
        for line in plan_inputs(*start, strategy):
            console.println(line)
        return 0
    # audit: end reference-only

    scanner = console.Scanner()
    try:
        console.write("Enter the number of coins: ")
        n = scanner.next_int()
        # audit: begin reference-only
        if start is not None:
            positions, length = start
            if n != len(positions):
                return options.invalid_start(f"{n} coins were entered but the strip holds {len(positions)}")
        # audit: end reference-only
        else:
            if n < 1:
                print("the number of coins must be at least 1", file=sys.stderr)
                return 1
            seed = args.seed if args.seed is not None else random.randrange(1 << 48)  # audit: reference-only
            positions, length = draw_strip(JavaRandom(seed), n)
        return play(scanner, positions, length)
    except console.EndOfInput:
        return 1
    except ValueError as exc:  # a token that is not an int: Java's InputMismatchException
        print(exc, file=sys.stderr)
        return 1
    finally:
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
