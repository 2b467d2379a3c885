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


# Strips of fewer coins say nothing of the law of the gaps: a program that re-rolls a final
# strip (all gaps 1) changes the law of its gaps by 6**-coins, visible only on short strips.
LAW_COINS = 5


def start_gaps(text):
    """The gaps a start shows (the grader's check of the random setup: each uniform over 1-6),
    from strips of at least LAW_COINS coins: each coin's distance from its left neighbour, or
    from the left edge for coin 0. Read as printed, so a gap the rules forbid shows as it is."""
    squares = [square for square, token in enumerate(text.split()) if token != "_"]
    if len(squares) < LAW_COINS:
        return []
    return [right - left for left, right in zip([-1] + squares, squares)]


# ---------------------------------------------------------------- reading a program's board

# The handout invites "a nicer representation" than `_ 0 _ 1`, so a person reads the strip from
# any drawing of its cells: one line of tokens, `[ ][0]` cells, `| |0|` cells (boxes of any
# width, bordered above and below, a blank line between border and cells, padding rows inside a
# box), any glyph for an empty square. These readers turn every such drawing into the plain
# line, which is what the grader compares (the spec's `rewrite`) and what it reads the program's
# start and state from (the spec's `state`). Every step is plain string code, linear in the
# output: no regular expression runs over what a program printed.

EMPTY_GLYPHS = frozenset("_.-*#~o·□◻⬜")
LONGEST_BOARD = 4000  # characters; a strip of 100 coins is under 2,000, and longer lines are never read
_BORDER_CHARS = frozenset("+-=|*#─━│┃┼┬┴├┤┌┐└┘╋═║╬╔╗╚╝╦╩╠╣¦ ")
_OPENERS = {"[": "]", "(": ")", "{": "}"}


_WRAPPERS = ("()", "[]", "{}", "<>")


def _square(token):
    """'_' for an empty square, the coin number for a coin (`0`, `(0)`, `[0]`, `C0`, `$0`),
    None for anything else."""
    token = token.strip()
    if len(token) > 2 and token[0] + token[-1] in _WRAPPERS:
        token = token[1:-1].strip()
    if not token or len(set(token)) == 1 and token[0] in EMPTY_GLYPHS:
        return "_"
    if len(token) > 1 and token[0] in "cC$#" and token[1:].isdigit():
        token = token[1:]
    if token.isascii() and token.isdigit() and len(token) <= 4:
        return str(int(token))
    return None


def _tokens(text):
    squares = [_square(token) for token in text.split()]
    return squares if len(squares) >= 2 and None not in squares else None


def _piped(text):
    """`| |0| |1|` or `_ | 0 | _`: cells between bars."""
    if "|" not in text:
        return None
    stripped = text.strip()
    stripped = stripped[1:] if stripped.startswith("|") else stripped
    stripped = stripped[:-1] if stripped.endswith("|") else stripped
    cells = stripped.split("|")
    squares = [_square(cell) for cell in cells]
    return squares if len(squares) >= 2 and None not in squares else None


def _bracketed(text):
    """`[ ][ ][0][ ][1]` (or `( )` / `{ }` cells), spaces between cells allowed."""
    stripped = text.strip()
    if not stripped or stripped[0] not in _OPENERS:
        return None
    opener, closer = stripped[0], _OPENERS[stripped[0]]
    parts = stripped.split(closer)
    if parts[-1].strip():
        return None
    squares = []
    for part in parts[:-1]:
        part = part.lstrip()
        if not part.startswith(opener) or opener in part[1:]:
            return None
        squares.append(_square(part[1:]))
    return squares if len(squares) >= 2 and None not in squares else None


def _compact(text):
    """`__0_1___2` (no separators): coins read in their order, so `10` after coin 9 is coin 10."""
    stripped = text.strip()
    if len(stripped) < 2 or not all(ch.isdigit() or ch in EMPTY_GLYPHS for ch in stripped):
        return None
    squares, coin, index = [], 0, 0
    while index < len(stripped):
        if stripped[index] in EMPTY_GLYPHS:
            squares.append("_")
            index += 1
            continue
        number = str(coin)
        if not stripped.startswith(number, index):
            return None
        squares.append(number)
        coin += 1
        index += len(number)
    return squares


_VERTICALS = str.maketrans("│┃║¦", "||||")


def _cells(line):
    """The squares a line draws, or None when it draws none."""
    if len(line) > LONGEST_BOARD or not line.strip():
        return None
    line = line.translate(_VERTICALS)
    return _piped(line) or _bracketed(line) or _tokens(line) or _compact(line)


def _is_border(line):
    stripped = line.strip()
    return len(stripped) >= 2 and any(ch in "-=─━═" for ch in stripped) and all(ch in _BORDER_CHARS for ch in stripped)


def _is_strip(squares):
    """A strip a person reads as the game's: at least one coin and one empty square, or coins
    only, numbered 0, 1, 2, ... (a strip already final: a start the rules allow but that shows no
    game). Whether its coins are numbered and spaced as setup draws them is otherwise the rules'
    question (parse_strip), not the reader's: a wrong board is read as drawn, so that the
    reference can say what is wrong with it."""
    coins = sum(square != "_" for square in squares)
    return 0 < coins < len(squares) or coins == len(squares) and squares == [str(i) for i in range(coins)]


def _has_blank(squares):
    return any(square == "_" for square in squares)


def _beside_strip(cells, lines, index, width):
    """A strip with an empty square of the same width next to line `index` (past blank lines and
    borders): then a row of numbers only there is that strip's row of square labels."""
    for step in (-1, 1):
        probe = index + step
        while 0 <= probe < len(lines) and (not lines[probe].strip() or _is_border(lines[probe])):
            probe += step
        if 0 <= probe < len(lines) and cells[probe] is not None and len(cells[probe]) == width \
                and _has_blank(cells[probe]):
            return True
    return False


LABELS_NOTE = ("a row of numbers only beside a board was read as square labels, not coins "
               "(a strip in play always has an empty square)")


class Reading(str):
    """The text as read, with what a person checking the harness should know about the reading
    (`notes`: a row of numbers read as square labels, not coins); the grader shows the notes."""
    notes: tuple = ()


def _labels(row):
    """A row of distinct numbers only, no empty square: square labels (a strip always has one)."""
    return all(square != "_" for square in row) and len(set(row)) == len(row)


def _merged(rows):
    """The rows of one box (padding rows, a row of labels) read as one strip, or None."""
    rows = [row for row in rows if not _labels(row)]
    if not rows:
        return None
    merged = []
    for column in zip(*rows):
        filled = [square for square in column if square != "_"]
        if len(filled) > 1:
            return None
        merged.append(filled[0] if filled else "_")
    return merged if _is_strip(merged) else None


def read_boards(text):
    """`text` with every drawing of the strip read as the plain board line (`_ 0 _ 1`); all
    other lines as they are. A line that ends in a board after a colon (`Board: _ 0 _ 1`) keeps
    its words on a line of their own."""
    if len(text) > 4 * 1024 * 1024:
        return text  # no board drawing is that long; the output limit has ended the run anyway
    lines = text.split("\n")
    cells = [_cells(line) for line in lines]
    out, index, notes = [], 0, []
    while index < len(lines):
        row = cells[index]
        if row is None:
            before, _, after = lines[index].rpartition(":")
            tail = _cells(after) if before and len(lines[index]) <= LONGEST_BOARD else None
            if tail is not None and _is_strip(tail):
                out += [before + ":", " ".join(tail)]
            else:
                out.append(lines[index])
            index += 1
            continue
        end = index + 1
        while end < len(lines) and cells[end] is not None and len(cells[end]) == len(row):
            end += 1
        if end - index == 1 and _labels(row) and _beside_strip(cells, lines, index, len(row)):
            notes.append(LABELS_NOTE)  # square numbers above or below a drawn strip
            index += 1
            continue
        merged = _merged(cells[index:end]) if end - index > 1 else (row if _is_strip(row) else None)
        if merged is None:
            out += lines[index:end]
            index = end
            continue
        if end - index > 1 and any(_labels(r) for r in cells[index:end]):
            notes.append(LABELS_NOTE)
        _drop_border(out, before=True)
        out.append(" ".join(merged))
        index = _skip_border(lines, end)
    reading = Reading("\n".join(out))
    reading.notes = tuple(dict.fromkeys(notes))
    return reading


def _drop_border(out, before):
    """A border above a board (and the blank lines between them) is part of its drawing."""
    at = len(out)
    while at > 0 and not out[at - 1].strip():
        at -= 1
    if at > 0 and _is_border(out[at - 1]):
        del out[at - 1:]


def _skip_border(lines, at):
    """Past a border below a board and the blank lines between them."""
    probe = at
    while probe < len(lines) and not lines[probe].strip():
        probe += 1
    return probe + 1 if probe < len(lines) and _is_border(lines[probe]) else at


plain_board = read_boards  # the name earlier specs used


_PLAYER_WORDS = (("1", "1"), ("2", "2"), ("one", "1"), ("two", "2"))
_ORDINALS = (("first", "1"), ("second", "2"), ("1st", "1"), ("2nd", "2"))


def _player_mentions(line):
    """The players a line names (`Player 2`, `player #1`, `Player one`, `P1`, `first player`),
    each with where its mention ends, in order."""
    lowered = line.lower()
    found, at = [], lowered.find("p")
    while at >= 0:
        if at == 0 or not lowered[at - 1].isalnum():
            word_end = at + 6 if lowered.startswith("player", at) else at + 1
            probe = word_end
            if word_end - at == 6:
                while probe < len(lowered) and lowered[probe] in " #:_.-":
                    probe += 1
            for word, player in _PLAYER_WORDS:
                after = probe + len(word)
                if lowered.startswith(word, probe) and (after == len(lowered) or not lowered[after].isalnum()) \
                        and (word_end - at == 6 or word.isdigit()):
                    found.append((player, after))
                    break
            else:
                for word, player in _ORDINALS:  # `first player`, `second player`
                    if lowered.startswith("player", at) and lowered[max(0, at - len(word) - 1):at] == word + " " \
                            and (at - len(word) - 1 == 0 or not lowered[at - len(word) - 2].isalnum()):
                        found.append((player, at + 6))
        at = lowered.find("p", at + 1)
    return found


_WINNING = ("win", "won", "victor", "congrat", "champion")
_REFUSING = ("illegal", "invalid", "not ", "n't", "cannot", "again", "wrong", "sorry", "error", "no such", "impossible")


def _named_player(line):
    """The one player a line is about; with both named, the one a word of winning follows."""
    named = _player_mentions(line)
    players = {player for player, _ in named}
    if len(players) == 1:
        return named[0][0]
    lowered = line.lower()
    for player, end in named:
        if any(word in lowered[end:end + 20] for word in _WINNING):
            return player
    return None


def _winners(line, named):
    """The players a line declares the winner: the one it names when it speaks of winning, or,
    with both named, each that a word of winning follows ("Player 1 wins! Player 2 wins!" names
    two, an answer that says nothing)."""
    lowered = line.lower()
    if not any(word in lowered for word in _WINNING):
        return []
    players = list(dict.fromkeys(player for player, _ in named))
    if len(players) == 1:
        return players
    return list(dict.fromkeys(player for player, end in named
                              if any(word in lowered[end:end + 20] for word in _WINNING)))


def facts(text):
    """What a person reads in a turn's output, whatever the drawing and the wording, in order:
    every board drawn (`board`, the plain line), the player a line asks to move (`player`), the
    winner a line declares (`winner`; two in one turn is no answer), and that a line says
    something else (`said`: a message in words of its own, such as the refusal of a move, which
    the handout requires but leaves the words of free); linear in the text."""
    found = []
    for line in read_boards(text).split("\n"):
        if len(line) > LONGEST_BOARD:
            continue
        squares = _tokens(line)
        if squares is not None and _is_strip(squares):
            found.append(("board", " ".join(squares)))
            continue
        named = _player_mentions(line)
        winners = _winners(line, named)
        if winners:
            found += [("winner", player) for player in winners]
            continue
        player = _named_player(line)
        if player is None:
            if line.strip():
                found.append(("said", "yes"))
            continue
        lowered = line.lower()
        if any(word in lowered for word in _REFUSING):  # "Player 1, illegal move! Try again: "
            found.append(("said", "yes"))
        found.append(("player", player))
    return found


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
