"""Reversi read as a person reads a program's output: the functions the spec names for the
grader to call in-process (`reference.reversi_reading:...` in specs/, apart from the game
in `reference/reversi.py`, which `python -m reference.reversi` runs):

- `read_boards`: the spec's `rewrite`, every drawing of the 6x6 board read as the reference
  prints it: in the program's own drawing, learned from its first board (the start, which is
  known), and where that fails in the generous reading of any drawing a person reads;
- `facts`: the spec's state reader (`state: read:`), what a person reads in a turn.

The game never calls them: kept apart, they leave the game's module (the one the mutation
audit mutates) with the game alone.
"""
from harness.judging import drawing
from harness.judging.facts import choose
from reference.reversi import BLACK, COLUMNS, EMPTY, SIZE, WHITE, initial_board, render


# ---------------------------------------------------------------- reading a program's board

# The handout says a program "can use" ● and ○: a person reads the 6x6 grid from any drawing of
# it, so the grader does too. A row is six cells, one glyph each, with or without separators
# (spaces, `|`), with or without its row number (1-6) before or after; a header of the column
# letters (`abcdef`, `a b c d e f`, upper case too) and border lines (`+-+-+`, `----`) may go
# around or between the rows. Six such rows in a row are a board, and are read as the
# reference prints it. Plain string code, linear in the output: no regular expression runs over
# what a program printed.
_BLACK_GLYPHS = frozenset("●XxBb@*■⚫#")
_WHITE_GLYPHS = frozenset("○OoWw□⚪")
_EMPTY_GLYPHS = frozenset(".-_· +")
_GLYPHS = _BLACK_GLYPHS | _WHITE_GLYPHS | _EMPTY_GLYPHS
_LONGEST_ROW = 200
_BORDER_CHARS = frozenset("+-=|─━│┃┼┬┴├┤┌┐└┘╋═║╬╔╗╚╝╦╩╠╣ ")
_VERTICALS = str.maketrans("│┃║¦", "||||")


def _glyph(ch: str) -> str:
    return BLACK if ch in _BLACK_GLYPHS else WHITE if ch in _WHITE_GLYPHS else EMPTY


def _row(line: str):
    """(row number or None, six squares) when the line draws one row of the board, else None."""
    if len(line) > _LONGEST_ROW:
        return None
    raw = line.rstrip("\r").translate(_VERTICALS)
    if raw[:1] in "123456" and raw[:1] and raw[1:2] == " " and len(raw) >= 8 and raw[8:].strip() == "" \
            and all(ch in _GLYPHS for ch in raw[2:8]):
        return int(raw[0]), [_glyph(ch) for ch in raw[2:8]]  # `1   ●○  `: spaces as empty squares
    text = raw.rstrip(" \t")
    number = None
    stripped = text.lstrip()
    if stripped[:1] in "0123456" and stripped[:1]:
        number, text = int(stripped[0]), stripped[1:]
        if text.rstrip().endswith(" " + stripped[0]) or text.rstrip().endswith("|" + stripped[0]):
            text = text.rstrip()[:-1]  # the row number again at its end
    elif stripped[-1:] in "123456" and stripped[-1:] and len(stripped) > 6:
        number, text = int(stripped[-1]), stripped[:-1].rstrip()
    if number is not None and text.startswith(" ") is False and text[:1] not in "|: ":
        return None  # "12" or "1x": not a row number followed by cells
    if "|" in text:
        inner = text.strip(" :")
        inner = inner[1:] if inner.startswith("|") else inner
        inner = inner[:-1] if inner.endswith("|") else inner
        cells = [cell.strip() or "." for cell in inner.split("|")]
    else:
        cells = text.split()
    if len(cells) == SIZE and all(len(cell) == 1 and cell in _GLYPHS for cell in cells):
        return number, [_glyph(cell) for cell in cells]
    compact = text.strip("|: ") if number is None else text[1:] if text[:1] in " |:" else text
    compact = compact.rstrip("| ")
    if len(compact) == SIZE and all(ch in _GLYPHS for ch in compact) and compact.strip():
        return number, [_glyph(ch) for ch in compact]
    return None


def _is_header(line: str) -> bool:
    letters = "".join(ch for ch in line.translate(_VERTICALS).lower() if not ch.isspace() and ch != "|")
    return letters == COLUMNS


def _is_border(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= 3 and any(ch in "-=─━═" for ch in stripped) and all(ch in _BORDER_CHARS for ch in stripped)


class Reading(str):
    """The text as read, with what a person checking the harness should know about the reading
    (`notes`: a board drawn the learned way that could not be read); the grader shows the notes."""
    notes: tuple = ()


# The start is known (every case begins with it): the program's first drawing of it teaches
# where its cells are and which glyph is which piece (harness/judging/drawing.py), and every later
# board is read that way. The handout's own glyphs keep their meaning: a drawing that shows the
# start with ● for white is a wrong board, not a new glyph.
_START = tuple(tuple(row) for row in initial_board())
_FIXED = {BLACK: BLACK, WHITE: WHITE}
_LEARN_FROM = 3  # outputs searched for the start: it is drawn before the first move
_UNREADABLE = "(a board drawn as the program drew the start, but not readable: {})"


def _frame(line: str) -> bool:
    return _is_border(line) or _is_header(line) or drawing.no_words(line)


def learn(outputs: list[str]) -> drawing.Learned:
    """The program's drawing, learned from the first of its outputs that draws the start."""
    problem = ""
    for text in outputs[:_LEARN_FROM]:
        if len(text) > 4 * 1024 * 1024:
            break
        learned = drawing.learn(_START, text.split("\n"), _FIXED, _frame)
        if learned:
            return learned
        problem = learned.problem
    return drawing.Learned((), problem or "no output")


def read_run(outputs: list[str]) -> list[str]:
    """Each output of a run with every board read as the reference draws it: first in the
    program's own drawing as learned from the start, the rest in the generous reading."""
    learned = learn(outputs)
    return [_read(text, learned) for text in outputs]


def read_boards(text: str) -> str:
    """`text` with every drawing of the 6x6 board read as the reference prints it (the header
    `  abcdef`, then `1 ......` to `6 ......` with ● and ○); all other lines as they are. The
    spec's rewrite: the grader reads a whole run through `read_boards.run`, so the drawing
    learned from the start reads every later turn."""
    return read_run([text])[0]


read_boards.run = read_run


def _read(text: str, learned: drawing.Learned) -> str:
    if len(text) > 4 * 1024 * 1024:
        return text
    lines = text.split("\n")
    out, notes, at = [], [], 0
    for board in drawing.boards(learned, lines) if learned else ():
        out += _generous(lines[at:board.start])
        if board.grid is None:
            out.append(_UNREADABLE.format(board.problem))
            notes.append(f"a board drawn as the program drew the start could not be read: {board.problem}")
        else:
            out += render([list(row) for row in board.grid]).rstrip("\n").split("\n")
        at = board.end
    out += _generous(lines[at:])
    reading = Reading("\n".join(out))
    reading.notes = tuple(dict.fromkeys(notes))
    return reading


def _generous(lines: list[str]) -> list[str]:
    """The lines with every drawing of the board a person reads as one read as the reference's:
    the fallback for a drawing not learned from the start."""
    rows = [_row(line) for line in lines]
    out, index = [], 0
    while index < len(lines):
        found = _board_at(lines, rows, index)
        if found is None:
            out.append(lines[index])
            index += 1
            continue
        board, end = found
        while out and (_is_border(out[-1]) or _is_header(out[-1])):
            out.pop()
        out += render(board).rstrip("\n").split("\n")
        while end < len(lines) and (_is_border(lines[end]) or _is_header(lines[end])):
            end += 1
        index = end
    return out


def _board_at(lines, rows, index):
    """(board, index past it) when six rows start at `index` (borders between them allowed)."""
    board, at, numbers = [], index, []
    while at < len(lines) and len(board) < SIZE:
        if rows[at] is not None:
            numbers.append(rows[at][0])
            board.append(rows[at][1])
            at += 1
        elif board and _is_border(lines[at]):
            at += 1
        else:
            break
    if len(board) < SIZE or (at < len(lines) and rows[at] is not None):
        return None
    if any(n is not None for n in numbers) and numbers not in (list(range(1, SIZE + 1)), list(range(SIZE))):
        return None  # labelled rows count 1-6 (or 0-5) in order
    return board, at


canonical_board = read_boards  # the name earlier specs used


_COLOURS = (("black", BLACK), ("white", WHITE))
_WINNING = ("win", "won", "victor")
_TIED = ("tie", "draw")


def _words(line: str) -> list[str]:
    return "".join(ch if ch.isalpha() else " " for ch in line.lower()).split()


def _named_otherwise(line: str, words: list[str]) -> list[str]:
    """A colour a line names without its word: by its piece (`Turn: ●`), or as player 1 (Black,
    who moves first) or player 2."""
    pieces = [name for name, glyph in _COLOURS if glyph in line]
    if pieces:
        return pieces
    lowered = line.lower()
    return [name for name, number in (("black", "1"), ("white", "2"))
            if any(lowered[at + 6:at + 8].strip().startswith(number) for at in _finds(lowered, "player"))]


def _finds(text: str, word: str) -> list[int]:
    found, at = [], text.find(word)
    while at >= 0 and len(found) < 8:
        found.append(at)
        at = text.find(word, at + 1)
    return found


def _count(line: str) -> str | None:
    """`black=B, white=W` for a line that gives each colour one number (`Final count: black=12,
    white=24`, `Black has 12 pieces, White 24`, `● 12 ○ 24`, `12 black - 24 white`), else None."""
    marks, word, number = [], "", ""
    for ch in line.lower() + " ":
        if ch.isalpha():
            word += ch
            continue
        if word in ("black", "white"):
            marks.append(("colour", word))
        word = ""
        if ch.isdigit():
            number += ch
            continue
        if number:
            marks.append(("number", str(int(number[:6]))))
            number = ""
        for name, glyph in _COLOURS:
            if ch == glyph:
                marks.append(("colour", name))
    kinds = [kind for kind, _ in marks]
    if kinds == ["colour", "number", "colour", "number"]:
        pairs = {marks[0][1]: marks[1][1], marks[2][1]: marks[3][1]}
    elif kinds == ["number", "colour", "number", "colour"]:
        pairs = {marks[1][1]: marks[0][1], marks[3][1]: marks[2][1]}
    else:
        return None
    return f"black={pairs['black']}, white={pairs['white']}" if len(pairs) == 2 else None


# What a line says, whatever its words (the handout shows every message only in example
# sessions): a refusal of the move typed, a player with no legal move, a prompt for the row or
# the column. Word lists, not patterns: a line is cut into its words once.
_REFUSING = frozenset("illegal invalid disallowed impossible wrong forbidden".split())
_FINE = frozenset("legal valid allowed possible permitted acceptable".split())
_NOT = frozenset("not cannot can't cant never isn't isnt".split())  # `No legal moves!` is no refusal
_NEGATIONS = _NOT | frozenset(("no", "won't"))
_ABOUT_A_MOVE = frozenset("move moves square spot place position cell there that row column col occupied taken "
                          "again empty full".split())
_SKIPPING = frozenset("skip skips skipped skipping pass passes passed passing".split())
_NO_MOVE_WORDS = frozenset("move moves".split())
_ROW_WORDS = frozenset(("row", "rows"))
_COLUMN_WORDS = frozenset(("column", "columns", "col", "cols"))
_ORDER = ("board", "turn", "refused", "skip", "prompt", "count", "result", "final")


def _spoken(line: str) -> list[str]:
    """A line's words, lower case, an apostrophe kept inside a word (`can't`, `isn't`)."""
    return "".join(ch if ch.isalpha() or ch == "'" else " " for ch in line.lower()).replace("' ", " ").split()


def _near(words: list[str], first: frozenset, then: frozenset, within: int = 3) -> bool:
    """A word of `first` followed, within `within` words, by a word of `then`."""
    return any(word in first and any(later in then for later in words[at + 1:at + 1 + within])
               for at, word in enumerate(words))


def _refuses(words: list[str]) -> bool:
    """The line says the move typed is refused (`Not a legal move!`, `Illegal move, try again.`,
    `That move is not allowed!`, `Invalid move.`)."""
    return any(word in _REFUSING for word in words) or _near(words, _NOT, _FINE) \
        or _near(words, frozenset(("try",)), frozenset(("again",)), 1) \
        or _near(words, frozenset(("bad",)), _NO_MOVE_WORDS, 1)


def _no_moves(words: list[str]) -> bool:
    """The line says the player has no legal move (`No legal moves!`, `No valid moves available!`,
    `Black cannot move`, `turn skipped`)."""
    return any(word in _SKIPPING for word in words) or _near(words, frozenset(("no",)), _NO_MOVE_WORDS) \
        or _near(words, frozenset(("cannot", "can't", "cant", "unable")), _NO_MOVE_WORDS, 2)


_TELLING = frozenset("taken occupied please must should only lowercase".split())


def _refuses_in_own_words(words: list[str]) -> bool:
    """A negation or an instruction about the move (`You can't put a piece there.`, `That square
    is taken!`, `Please type the column in lowercase (a-f)!`): a refusal only in a turn that
    expects one (it is only one way to read such a line)."""
    return any(word in _NEGATIONS or word in _TELLING for word in words) \
        and any(word in _ABOUT_A_MOVE for word in words)


class _Reading:
    """One way to read a line: the facts it gives read so (`weak`: only where the turn expects
    its kind)."""
    def __init__(self, found: list, weak: bool = False):
        self.facts, self.weak = found, weak

    @staticmethod
    def kind(reading: "_Reading") -> str:
        return reading.facts[0][0]

    @staticmethod
    def value(reading: "_Reading") -> str:
        return reading.facts[0][1]


def _readings(line: str, words: list[str], expects: set) -> list[_Reading]:
    """Every way a line can be read, the likeliest first: a count, an outcome, a refusal, a
    player with no move, a turn announced (the one colour it names). `Black has no legal moves`
    names a colour and says it cannot move; `No legal move there, try again` refuses and says
    no move: the turn decides (facts.choose)."""
    named = [name for name, _ in _COLOURS if name in words] or _named_otherwise(line, words)
    count = _count(line)
    if count is not None:
        return [_Reading([("count", count)])]
    if any(word.startswith(_TIED) for word in words) and len(named) != 1:
        return [_Reading([("result", "tie")])]
    if len(named) == 1 and any(word.startswith(_WINNING) for word in words):
        return [_Reading([("result", named[0])])]
    spoken = _spoken(line)
    readings = []
    if _refuses(spoken):
        readings.append(_Reading([("refused", "move")]))
    if _no_moves(spoken):  # `White has no legal moves!` says whose turn it skips too
        readings.append(_Reading([("skip", "no moves")] + [("turn", name) for name in named[:1] if len(named) == 1]))
    if len(named) == 1:
        readings.append(_Reading([("turn", named[0])]))
    if not readings and "refused" in expects and _refuses_in_own_words(spoken):
        readings.append(_Reading([("refused", "move")], weak=True))
    return readings


def _prompt(line: str, expected) -> tuple[str, str] | None:
    """The prompt a turn ends with (its last line that is no board), for the row or the column,
    in any words (`Row? (1-6) `, `Enter row: `, `Which column? `): a line that names the row or
    the column, or one that asks (ends with `?`, `:` or `>`). One that names neither, or both,
    is read as the one the turn asks for."""
    words = _spoken(line)
    row, column = any(w in _ROW_WORDS for w in words), any(w in _COLUMN_WORDS for w in words)
    if not (row or column or line.rstrip()[-1:] in ("?", ":", ">")):
        return None
    if row != column:
        return ("prompt", "row" if row else "column")
    readings = [_Reading([("prompt", "row")]), _Reading([("prompt", "column")])]
    return choose(readings, _Reading.kind, expected, _Reading.value).facts[0]


def facts(text: str, expected: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """What a person reads in a turn's output, whatever the drawing and the wording: every board
    drawn (`board`, its rows joined by `/`), whose turn a line announces (`turn`: the one colour
    it names), a refused move (`refused`), a player with no legal move (`skip`), the prompt the
    turn ends with (`prompt`: `row` or `column`), the pieces a line counts for each colour
    (`count`: `black=B, white=W`), the outcome a line announces (`result`: the winning colour, or
    `tie`) and, in a turn that counts or announces the outcome, the board shown after the last
    turn announced (`final`: the game's last board, wherever its count is printed). A line that
    fits several readings is read as the one the turn expects (`expected`: the reference's facts
    of the same turn), and as its likeliest without them. The boards come first, in the order
    drawn, then the other kinds in a fixed order (each kind's facts in the order said), so the
    order in which a program says its messages is its own."""
    found = []
    lines = read_boards(text).split("\n")
    expects = {kind for kind, _ in expected or ()}
    index, since_turn, ending, last_said = 0, None, False, None
    while index < len(lines):
        if lines[index] == "  " + COLUMNS and index + SIZE < len(lines):
            rows = lines[index + 1:index + 1 + SIZE]
            if all(row[:2] == f"{n} " for n, row in enumerate(rows, 1)):
                since_turn = "/".join(row[2:] for row in rows)
                found.append(("board", since_turn))
                index += 1 + SIZE
                last_said = None
                continue
        line = lines[index]
        index += 1
        if len(line) > _LONGEST_ROW * 4 or not line.strip():
            continue
        last_said = line
        readings = [r for r in _readings(line, _words(line), expects) if not r.weak or _Reading.kind(r) in expects]
        if not readings:
            continue
        for kind, value in choose(readings, _Reading.kind, expected).facts:
            found.append((kind, value))
            if kind in ("count", "result"):
                ending = True
            elif kind == "turn":
                since_turn = None
    if last_said is not None and not ending:
        prompt = _prompt(last_said, expected)
        if prompt is not None:
            found.append(prompt)
    if ending and since_turn is not None:
        found.append(("final", since_turn))
    return sorted(found, key=lambda fact: _ORDER.index(fact[0]))


facts.expects = True  # the grader gives it the reference's facts of the same turn
