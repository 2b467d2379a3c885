"""Connect 4/5/6 read as a person reads a program's output: the functions the spec names for the
grader to call in-process (`reference.connect_reading:...` in specs/, apart from the game
in `reference/connect.py`, which `python -m reference.connect` runs):

- `facts`: the spec's state reader (`state: read:`), what a person reads in a turn, with the
  boards it draws (`read_boards`).

The game never calls them: kept apart, they leave the game's module (the one the mutation
audit mutates) with the game alone.
"""
import re

from harness.judging import drawing
from harness.judging.facts import choose
from reference.connect import DIRECTIONS, EMPTY, SYMBOLS


# --- reading a program's output as a person does (the spec's state reader) ------------------
# The handout prescribes one text exactly, the usage line; the rest it describes ("the game
# board is displayed", "they are prompted that it is not a valid column", "the winner is
# declared"). So the rule items judge what a person reads in each turn, whatever the words and
# whatever the drawing: the board, whether the counts shown are the board's, that a column was
# refused, who won or that it is a draw, the stats, that the play-again question or a column
# prompt is asked, that a welcome is shown. Plain string code over lines no longer than a board
# can be (the few regular expressions run on such a line only, and backtrack on none).
_LONGEST_LINE = 300
_LONGEST_TEXT = 4 * 1024 * 1024
_SIZES = (8, 10, 12)
_PIECES = {"X": "X", "x": "X", "O": "O", "o": "O"}
_BLANKS = frozenset("_.-·∙ ")
_BORDER_CHARS = frozenset("+-=|─━│┃┼┬┴├┤┌┐└┘╋═║╬╔╗╚╝╦╩╠╣ ")
_VERTICALS = str.maketrans("│┃║¦[]", "||||||")
_REFUSALS = re.compile(
    r"(?i)\b(?:invalid|not (?:a |an )?(?:valid|legal|allowed|possible|permitted)|isn'?t (?:a )?valid|"
    r"out of (?:range|bounds)|not (?:a|an) (?:number|integer|int|digit|whole number)|non-?(?:numeric|integer|number)|"
    r"not numeric|full|no (?:more )?(?:room|space)|can(?:not|'t| not) (?:fit|hold|take|place|drop|go|be)|illegal|"
    r"error|wrong|bad|does(?:n't| not) exist|no such|no column|there is no|try again|oops|sorry|unrecogni[sz]ed|non-?existent|mismatch|"
    r"(?:numbers?|integers?|digits?) only|only (?:numbers|integers|digits)|must be (?:a|an) (?:number|integer|whole number))\b")
_DRAW = re.compile(r"(?i)\b(?:draw|drawn|tie|tied|stalemate|no winner)\b|"
                   r"\b(?:nobody|no one|noone|neither)\b[^.!?]{0,20}\b(?:wins|won|win)\b")
_WIN = re.compile(r"(?i)\b(?:wins|won|winner|victory|victorious|congratulations|congrats)\b")
_NOT_NAMES = frozenset(
    "you nobody everyone everybody it it's its the a an i we game player winner winners is has and wins won "
    "congratulations congrats well done great victory victorious game over connect connects four five six "
    "in a row with line lines who what that this board full over end ended round match so here there "
    "has have had player's our your their".split())
_AGAIN = re.compile(r"(?i)\bplay\w*\b[^.!]{0,40}\bagain\b|\bagain\s*\?|\b(?:another|new) (?:game|round|match)\b|"
                    r"\bplay more\b|\bkeep playing\b|\bcontinue\b|\brematch\b|\by(?:es)?\W{0,3}(?:or|/|,)\W{0,3}no?\b")
_WELCOME = re.compile(r"(?i)\bwelcome\b|\blet'?s play\b|\bconnect[ -]{0,3}(?:four|five|six|[456])\b")
_COUNT = re.compile(r"(?i)\b(?:connected|connection|connections|in a row|longest|streak|chain)\b")
_PROMPT = re.compile(r"(?i)\b(?:column|col|enter|choose|pick|select|drop|place|move|turn)\b")
_GOAL_WORDS = frozenset("need needs needed goal target of connect to get".split())
# A refusal in the program's own words that no pattern above names ("Column 9 is not on the
# board."): a negation about the column or the input. Read as a refusal only in a turn that
# expects one (it is only one way to read such a line).
_NEGATION = re.compile(r"(?i)\b(?:not|no|never|cannot|can't|won't|isn't|doesn't|don't)\b")
_ABOUT_INPUT = re.compile(r"(?i)\b(?:column|col|number|board|range|input|entry|choice|option|move|slot)\b")
# A line that asks for a number again ("Please enter a number.", "You must choose a column 1-8.")
# before the prompt: a refusal in a turn that expects one, never the turn's own last line (the
# prompt itself asks for a column in every turn).
_ASK_AGAIN = re.compile(r"(?i)\b(?:please|must|should|need to|have to)\b[^.!?]{0,30}?"
                        r"\b(?:enter|type|choose|pick|give|input|select)\b[^.!?]{0,30}?"
                        r"\b(?:number|integer|digit|column|col)s?\b")
_STAT_WORDS = {"win": "w", "wins": "w", "won": "w", "w": "w", "loss": "l", "losses": "l", "lost": "l",
               "lose": "l", "l": "l", "draw": "d", "draws": "d", "drew": "d", "tie": "d", "ties": "d",
               "tied": "d", "d": "d", "t": "d"}


def _cells(line: str):
    """The cells (X, O or _) of a line that draws one row of a board, else None: `|_|X|O|`,
    `| X |   |`, `[X][ ]`, `. X O .`, `_XO_____`, with or without a row number at either end."""
    if len(line) > _LONGEST_LINE:
        return None
    text = line.rstrip("\r").translate(_VERTICALS).replace("||", "|").strip()
    head = 0
    while head < len(text) and text[head].isdigit():
        head += 1
    if 0 < head < len(text) and text[head] in " |:":
        text = text[head:].strip(" :")
    tail = len(text)
    while tail > 0 and text[tail - 1].isdigit():
        tail -= 1
    if 0 < tail < len(text) and text[tail - 1] in " |":
        text = text[:tail].strip()
    if "|" in text:
        inner = text[1:] if text.startswith("|") else text
        inner = inner[:-1] if inner.endswith("|") else inner
        cells = [cell.strip() for cell in inner.split("|")]
        if len(cells) == 1:
            cells = inner.split() if " " in inner.strip() else list(inner.strip())
    elif " " in text:
        cells = text.split()
    else:
        cells = list(text) if "-" not in text else []
    if len(cells) not in _SIZES:
        return None
    row = []
    for cell in cells:
        if cell in _PIECES:
            row.append(_PIECES[cell])
        elif cell == "" or len(cell) == 1 and cell in _BLANKS:
            row.append(EMPTY)
        else:
            return None
    return row


def _is_border(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= 3 and any(ch in "-=─━═" for ch in stripped) and all(ch in _BORDER_CHARS for ch in stripped)


def _is_header(line: str) -> bool:
    """The column numbers (` 1 2 3 4 5 6 7 8`, ` 1 2 … 910`, `| 1 | 2 |`): layout, not a fact."""
    stripped = line.strip()
    return bool(stripped) and len(stripped) <= _LONGEST_LINE and all(ch.isdigit() or ch in " |" for ch in stripped)


def read_boards(lines: list[str]) -> tuple[list, list[bool]]:
    """The boards drawn in `lines` (each a list of rows, top row first) and, per line, whether
    it is part of a drawing (a row, a border or the column numbers around a board)."""
    rows = [_cells(line) for line in lines]
    drawn = [False] * len(lines)
    boards, index = [], 0
    while index < len(lines):
        if rows[index] is None:
            index += 1
            continue
        width, board, at = len(rows[index]), [], index
        while at < len(lines):
            if rows[at] is not None and len(rows[at]) == width:
                board.append(rows[at])
            elif not (board and _is_border(lines[at]) or len(board) < width and _blank_before_row(lines, rows, at, width)):
                break
            at += 1
        if len(board) == width:
            boards.append(board)
            start, end = index, at
            while start > 0 and (_is_border(lines[start - 1]) or _is_header(lines[start - 1])):
                start -= 1
            while end < len(lines) and (_is_border(lines[end]) or _is_header(lines[end])):
                end += 1
            for covered in range(start, end):
                drawn[covered] = True
        index = at
    return boards, drawn


# The board the reference drew for the same inputs is known: the program's turn is read first in
# the drawing learned from it (harness/judging/drawing.py: where the cells are, the frame, the
# labels), and in the generous reading above where nothing is learned. The handout names the
# pieces: X is player 1's, O player 2's, whatever a drawing does.
_FIXED = {"X": "X", "x": "X", "O": "O", "o": "O"}


def _frame(line: str) -> bool:
    return _is_border(line) or _is_header(line) or drawing.no_words(line)


def learned_boards(lines: list[str], expected, generous: list) -> tuple[list, list[bool], list[str]] | None:
    """(boards, per line whether it is part of a drawing, the problems of the boards that could not
    be read) in the drawing learned from the first board of the reference's turn, or None. Where
    the generous reading already reads the reference's boards, learning would read them alike
    (a drawing learned from a board reads it as that board), so nothing is learned."""
    value = next((value for kind, value in expected or () if kind == "board"), None)
    if value is None or len(value) > _LONGEST_LINE * 12 or value == _distinct(generous):
        return None
    known = value.split(" | ")[0]
    learned = drawing.learn(tuple(tuple(row) for row in known.split("/")), lines, _FIXED, _frame)
    found = drawing.boards(learned, lines) if learned else []
    if not found:
        return None
    drawn = [False] * len(lines)
    boards, problems = [], []
    for board in found:
        drawn[board.start:board.end] = [True] * (board.end - board.start)
        if board.grid is None:
            problems.append(board.problem)
        else:
            boards.append([list(row) for row in board.grid])
    return boards, drawn, problems


def _values(boards: list) -> list[str]:
    return ["/".join("".join(row) for row in board) for board in boards]


def _distinct(boards: list) -> str:
    """The boards as the `board` fact says them: the distinct ones, in order, joined by ` | `."""
    return " | ".join(dict.fromkeys(_values(boards)))


def _blank_before_row(lines: list[str], rows: list, at: int, width: int) -> bool:
    """A blank line between two rows of a board drawn with a blank line between its rows."""
    return not lines[at].strip() and at + 1 < len(lines) and rows[at + 1] is not None and len(rows[at + 1]) == width


def _longest(board: list, piece: str) -> int:
    size, best = len(board), 0
    for row in range(size):
        for col in range(size):
            if board[row][col] != piece:
                continue
            for dr, dc in DIRECTIONS:
                if 0 <= row - dr < size and 0 <= col - dc < size and board[row - dr][col - dc] == piece:
                    continue  # not the start of this run
                length, r, c = 0, row, col
                while 0 <= r < size and 0 <= c < size and board[r][c] == piece:
                    length, r, c = length + 1, r + dr, c + dc
                best = max(best, length)
    return best


def _tokens(line: str) -> list[str]:
    """Words and standalone numbers (`Player1` is one word, `2` a number), in order."""
    out, word = [], ""
    for ch in line:
        if ch.isalnum() or ch == "'":
            word += ch
        else:
            if word:
                out.append(word)
            word = ""
    if word:
        out.append(word)
    return out


def _counts_on(line: str) -> list[tuple[str | None, int]]:
    """(symbol or None, count) for each count a line shows; `Player 1`/`Player 2` are X and O."""
    tokens = _tokens(line)
    found, symbol, index = [], None, 0
    while index < len(tokens):
        token = tokens[index]
        if token.lower() == "player" and index + 1 < len(tokens) and tokens[index + 1] in ("1", "2"):
            symbol, index = SYMBOLS[int(tokens[index + 1]) - 1], index + 2
            continue
        if token in ("X", "O"):
            symbol = token
        elif token.isdigit() and index and tokens[index - 1].lower() in _GOAL_WORDS:
            pass  # the goal (`need 4`, `connect 4`), not a count
        elif token.isdigit():
            found.append((symbol, int(token)))
            symbol = None if symbol is None else symbol + "*"  # one count a symbol
        index += 1
    return [(s, n) for s, n in found if s is None or not s.endswith("*")]


def _winner(line: str) -> str:
    """The name a winner line declares (`Alice wins!`, `The winner is Alice`, `Congratulations,
    Alice! You won!`, `*** Alice (X) connects 4 and wins! ***`), else the symbol it names."""
    tokens = _tokens(line)
    lowered = [token.lower() for token in tokens]

    def name(at: int) -> bool:
        return 0 <= at < len(tokens) and lowered[at] not in _NOT_NAMES and tokens[at] not in ("X", "O") \
            and not tokens[at].isdigit()
    for at, word in enumerate(lowered):
        if word in ("wins", "won") and name(at - 1):
            return lowered[at - 1]
        if word == "winner":
            after = at + 2 if at + 1 < len(tokens) and lowered[at + 1] == "is" else at + 1
            if name(after):
                return lowered[after]
        if word.startswith("congrat") and name(at + 1):
            return lowered[at + 1]
    for at, token in enumerate(tokens):
        if token[:1].isupper() and name(at):
            return lowered[at]
    return next((token for token in tokens if token in ("X", "O")), "?")


def _stats_row(line: str, order: str) -> str | None:
    """`name w l d` for a line with a name and three counts (`Alice: 1 0 0`, `Bob - 1 win, 0
    losses, 0 ties`, `Bob W:1 L:0 D:0`), the counts by their words or else in `order`."""
    tokens = _tokens(line)
    numbers = [i for i, t in enumerate(tokens) if t.isdigit() and not (i and tokens[i - 1].lower() == "player")]
    if len(numbers) != 3:
        return None
    name = [t.lower() for t in tokens[:numbers[0]]
            if t.lower() not in _STAT_WORDS and t.lower() != "player" and t not in ("X", "O") and not t.isdigit()]
    if not name:
        return None
    named = {}
    for side in (-1, 1):  # `W:1 L:0 D:0` (the word before each count) or `1 win, 0 losses` (after)
        kinds = [_STAT_WORDS.get(tokens[i + side].lower()) if 0 <= i + side < len(tokens) else None for i in numbers]
        if not named and None not in kinds and len(set(kinds)) == 3:
            named = {kind: tokens[i] for kind, i in zip(kinds, numbers)}
    if named:
        values = [named["w"], named["l"], named["d"]]
    else:
        by_order = dict(zip(order, (tokens[i] for i in numbers)))
        values = [by_order["w"], by_order["l"], by_order["d"]]
    return " ".join(name) + " " + " ".join(str(int(v)) for v in values)


def _header_order(line: str) -> str | None:
    """The order of the columns of a stats header (`Wins Losses Draws` -> `wld`), or None."""
    order = ""
    for token in _tokens(line):
        kind = _STAT_WORDS.get(token.lower())
        if kind and kind not in order:
            order += kind
    return order if len(order) == 3 else None


class _Reading:
    """One way to read a line: the facts it gives read so (`weak`: only where the turn expects
    its kind, a refusal in words no pattern names)."""
    def __init__(self, facts: list, weak: bool = False):
        self.facts, self.weak = facts, weak

    @staticmethod
    def kind(reading: "_Reading") -> str:
        return reading.facts[0][0]


def _readings(line: str, order: str, last: bool = False) -> list[_Reading]:
    """Every way a line can be read, the likeliest first: a row of the stats, the welcome, what
    it says of the game (the winner or a draw, the play-again question or a refusal, counts), a
    refusal in words of its own. `Alice got Connect Four and wins!` is a welcome's words and a
    winner's; `Longest lines -> Alice: 2, Bob: 1 (need 4)` a stats row's shape and counts: the
    turn decides (facts.choose)."""
    readings = []
    row = _stats_row(line, order)
    if row:
        readings.append(_Reading([("stats", row)]))
    refusal = bool(_REFUSALS.search(line))
    if _WELCOME.search(line) and not refusal:
        readings.append(_Reading([("welcome", "shown")]))
    said = []
    if _DRAW.search(line):
        said.append(("result", "draw"))
    elif _WIN.search(line):
        said.append(("result", _winner(line)))
    if _AGAIN.search(line):
        said.append(("again", "asked"))
    elif refusal and not _WIN.search(line) and not _DRAW.search(line):
        said.append(("refused", "column"))
    if _COUNT.search(line):
        shown = _counts_on(line)
        if shown:
            said.append(("counts", shown))
    if said:
        readings.append(_Reading(said))
    if not refusal and _NEGATION.search(line) and _ABOUT_INPUT.search(line) and not _WIN.search(line):
        readings.append(_Reading([("refused", "column")], weak=True))
    elif not refusal and not last and _ASK_AGAIN.search(line) and not _AGAIN.search(line):
        readings.append(_Reading([("refused", "column")], weak=True))
    return readings


def facts(text: str, expected: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """What a person reads in a turn's output, in a fixed order, whatever the wording and the
    drawing: `welcome`; `board` (the distinct boards drawn, rows joined by `/`; two different
    boards in one turn read as both, which matches no single board); `refused` (a column
    refused, for any reason: out of range, not a number, full); `counts` (`right` when every
    count shown beside a board is that player's longest line on it, else what is wrong);
    `result` (the winner's name, `draw`, or every result named when lines contradict each
    other); `stats` (each player's wins, losses, draws); `again` (the play-again question, asked
    or asked again); `prompt` (the turn ends asking for a column, of the player whose turn the
    board shows when the prompt names a symbol). A line that fits several readings is read as
    the one the turn expects (`expected`: the reference's facts of the same turn), and as its
    likeliest without them."""
    if len(text) > _LONGEST_TEXT:
        return [("unread", "output too large")]
    lines = text.replace("\r\n", "\n").split("\n")
    boards, drawn = read_boards(lines)
    learned = learned_boards(lines, expected, boards)
    unreadable = []
    if learned:
        boards, drawn, unreadable = learned
    found: dict[str, object] = {}
    distinct = [f"not readable ({problem})" for problem in unreadable]
    for value in _values(boards):
        if value not in distinct:
            distinct.append(value)
    order, counts, results, stats = "wld", [], [], []
    expects = {kind for kind, _ in expected or ()}
    last_at = next((at for at in range(len(lines) - 1, -1, -1) if lines[at].strip() and not drawn[at]), -1)
    for at, (line, part) in enumerate(zip(lines, drawn)):
        if part or not line.strip() or len(line) > _LONGEST_LINE:
            continue
        header = _header_order(line)
        if header and not any(t.isdigit() for t in _tokens(line)):
            order = header
            continue
        readings = [reading for reading in _readings(line, order, at == last_at)
                    if not reading.weak or reading.kind(reading) in expects]
        if not readings:
            continue
        for kind, value in choose(readings, _Reading.kind, expected).facts:
            if kind == "stats":
                stats.append(value)
            elif kind == "result":
                results.append(value)
            elif kind == "counts":
                counts += value
            else:
                found[kind] = value
    last = next((line for line, part in zip(reversed(lines), reversed(drawn)) if line.strip() and not part), "")
    if len(last) <= _LONGEST_LINE and (_PROMPT.search(last) or last.rstrip()[-1:] in (":", "?", ">")) \
            and not _AGAIN.search(last) \
            and not _WIN.search(last) and not _DRAW.search(last):
        found["prompt"] = "column"
    out = []
    if "welcome" in found:
        out.append(("welcome", "shown"))
    if distinct:
        out.append(("board", " | ".join(distinct)))
    if "refused" in found:
        out.append(("refused", "column"))
    if counts and boards:
        board = boards[-1]
        runs = {piece: _longest(board, piece) for piece in SYMBOLS}
        wrong = [f"{symbol or 'a player'} {n} (the board: {runs[symbol] if symbol else ' or '.join(map(str, runs.values()))})"
                 for symbol, n in counts if (runs.get(symbol) != n if symbol else n not in runs.values())]
        out.append(("counts", "wrong: " + ", ".join(wrong) if wrong else "right"))
    named = sorted({r for r in results if r != "?"}) or sorted(set(results))
    if named:
        out.append(("result", "+".join(named)))
    if stats:
        out.append(("stats", "; ".join(sorted(set(stats)))))
    if "again" in found:
        out.append(("again", "asked"))
    if "prompt" in found:
        out.append(("prompt", _whose_turn(last, boards[-1] if boards else None)))
    return out


def _whose_turn(prompt: str, board) -> str:
    """`column`, or what is wrong when the prompt names the symbol of a player whose turn the
    board shows it is not (after a drop the player with fewer pieces moves; with as many pieces
    each, either player may start a game, so nothing is checked)."""
    named = {token for token in _tokens(prompt) if token in SYMBOLS}
    if board is None or len(named) != 1:
        return "column"
    pieces = {piece: sum(row.count(piece) for row in board) for piece in SYMBOLS}
    if pieces["X"] == pieces["O"]:
        return "column"
    due = "X" if pieces["X"] < pieces["O"] else "O"
    asked = named.pop()
    return "column" if asked == due else f"column for {asked}, but it is {due}'s turn"


facts.expects = True  # the grader gives it the reference's facts of the same turn
