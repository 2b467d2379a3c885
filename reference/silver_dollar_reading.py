"""Silver Dollar read as a person reads a program's output: the functions the spec names for the
grader to call in-process (`reference.silver_dollar_reading:...` in specs/, apart from the game
in `reference/silver_dollar.py`, which `python -m reference.silver_dollar` runs):

- `start_gaps`: the values whose law the grader checks (`random_start: distribution: values:`);
- `read_boards`: the spec's `rewrite`, every drawing of the strip read as the plain board line;
- `facts`: the spec's state reader (`state: read:`), what a person reads in a turn.

The game never calls them: kept apart, they leave the game's module (the one the mutation
audit mutates) with the game alone.
"""
import re

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
        row = (cells[probe] or _labelled(lines[probe])) if 0 <= probe < len(lines) else None
        if row is not None and len(row) == width and _has_blank(row):
            return True
    return False


def _labelled(line):
    """The squares of a board after a label and a colon (`Board: _ 0 _ 1`), or None."""
    before, _, after = line.rpartition(":")
    tail = _cells(after) if before and len(line) <= LONGEST_BOARD else None
    return tail if tail is not None and _is_strip(tail) else None


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
            tail = _labelled(lines[index])
            if tail is not None and _labels(tail) and _beside_strip(cells, lines, index, len(tail)):
                notes.append(LABELS_NOTE)  # square numbers after words (a prompt the input ended): labels
                out.append(lines[index].rpartition(":")[0] + ":")
            elif tail is not None:
                out += [lines[index].rpartition(":")[0] + ":", " ".join(tail)]
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
    text = "\n".join(out)
    prompt = _PROMPT_ON_ITS_LINE.search(text)
    if prompt:
        text = text[:prompt.start()] + prompt.group(1) + " "
        notes.append(PROMPT_NOTE)
    reading = Reading(text)
    reading.notes = tuple(dict.fromkeys(notes))
    return reading


# A prompt printed with println: its last line ends in the prompt's colon, then the line ends and
# the program waits (the input goes on the next line). The handout shows its prompts on lines of
# their own ("Enter the number of coins:", "Player 1: Enter your move:") and never says where the
# input goes, so a careful grader reads it as the prompt; the reference's `print` is a choice
# formats.md made. The words stay the program's own: `prompt` still judges them exactly.
_PROMPT_ON_ITS_LINE = re.compile(r"(?:^|(?<=\n))([^\n]*\S:)[ \t]*\n\Z")
PROMPT_NOTE = "a prompt ending its line (the input typed on the next one) was read as the prompt the input follows"


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
