"""Reversi on a 6x6 board, as the handout's two milestones print it.

Milestone 1: the board, Black's single turn (re-prompted until legal), the board again.
Milestone 2: the full game; a player with no legal move prints `No legal moves!` and is
skipped; the game ends at the second consecutive skip (so on a full board both players
still print it). A skip prints its blank line and the unchanged board, except the second
of the two final skips: `Final board:` follows its `No legal moves!` directly, as in the
handout's official transcript.

`--start STATE` begins from a position written as the board is printed (the header line
may be left out; `/` may stand for line ends), with `--to-move black|white`.
"""
import argparse
import sys

from reference import console, options

SIZE = 6
EMPTY, BLACK, WHITE = ".", "●", "○"
COLUMNS = "abcdef"
NAMES = {BLACK: "Black", WHITE: "White"}
DIRECTIONS = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)]

Board = list[list[str]]


def initial_board() -> Board:
    board = [[EMPTY] * SIZE for _ in range(SIZE)]
    board[2][2], board[2][3] = WHITE, BLACK
    board[3][2], board[3][3] = BLACK, WHITE
    return board


def other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


def render(board: Board) -> str:
    lines = ["  " + COLUMNS]
    lines += [f"{r + 1} " + "".join(row) for r, row in enumerate(board)]
    return "\n".join(lines) + "\n"


def captures(board: Board, row: int, col: int, player: str) -> list[tuple[int, int]]:
    """The squares a piece of `player` placed at (row, col) would flip, in every direction."""
    if not (0 <= row < SIZE and 0 <= col < SIZE) or board[row][col] != EMPTY:
        return []
    flipped = []
    for dy, dx in DIRECTIONS:
        run = []
        r, c = row + dy, col + dx
        while 0 <= r < SIZE and 0 <= c < SIZE and board[r][c] == other(player):
            run.append((r, c))
            r, c = r + dy, c + dx
        if run and 0 <= r < SIZE and 0 <= c < SIZE and board[r][c] == player:
            flipped += run
    return flipped


def is_legal(board: Board, row: int, col: int, player: str) -> bool:
    return bool(captures(board, row, col, player))


def legal_moves(board: Board, player: str) -> list[tuple[int, int]]:
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if is_legal(board, r, c, player)]


def play(board: Board, row: int, col: int, player: str) -> None:
    """Place the piece and flip every captured one (the move must be legal)."""
    for r, c in captures(board, row, col, player):
        board[r][c] = player
    board[row][col] = player


def count(board: Board, player: str) -> int:
    return sum(row.count(player) for row in board)


def parse_board(text: str) -> Board:  # audit: reference-only (--start)
    """A board as `render` prints it (header optional, `/` for line ends) -> Board."""
    lines = [line for line in text.replace("/", "\n").splitlines() if line.strip()]
    if lines and lines[0].strip() == COLUMNS:
        lines = lines[1:]
    if len(lines) != SIZE:
        raise ValueError(f"{len(lines)} rows, expected {SIZE}")
    board = []
    for number, line in enumerate(lines, 1):
        cells = line.split(" ", 1)[1] if line.startswith(f"{number} ") else line
        if len(cells) != SIZE or any(c not in (EMPTY, BLACK, WHITE) for c in cells):
            raise ValueError(f"row {number} is {line!r}: expected {SIZE} of '.', '●', '○'")
        board.append(list(cells))
    return board


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


def read_boards(text: str) -> str:
    """`text` with every drawing of the 6x6 board read as the reference prints it (the header
    `  abcdef`, then `1 ......` to `6 ......` with ● and ○); all other lines as they are."""
    if len(text) > 4 * 1024 * 1024:
        return text
    lines = text.split("\n")
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
    return "\n".join(out)


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


def facts(text: str) -> list[tuple[str, str]]:
    """What a person reads in a turn's output, in order, whatever the drawing and the wording:
    every board drawn (`board`, its rows joined by `/`), whose turn a line announces (`turn`:
    the one colour it names) and the outcome a line announces (`result`: the winning colour,
    or `tie`). Lines naming both colours (the counts) are left to the items about text."""
    found = []
    lines = read_boards(text).split("\n")
    index = 0
    while index < len(lines):
        if lines[index] == "  " + COLUMNS and index + SIZE < len(lines):
            rows = lines[index + 1:index + 1 + SIZE]
            if all(row[:2] == f"{n} " for n, row in enumerate(rows, 1)):
                found.append(("board", "/".join(row[2:] for row in rows)))
                index += 1 + SIZE
                continue
        line = lines[index]
        index += 1
        if len(line) > _LONGEST_ROW * 4:
            continue
        words = _words(line)
        named = [name for name, _ in _COLOURS if name in words] or _named_otherwise(line, words)
        if any(word.startswith(_TIED) for word in words) and len(named) != 1:
            found.append(("result", "tie"))
        elif len(named) == 1 and any(word.startswith(_WINNING) for word in words):
            found.append(("result", named[0]))
        elif len(named) == 1:
            found.append(("turn", named[0]))
    return found


def read_move(scanner: console.Scanner, board: Board, player: str) -> tuple[int, int]:
    """Prompt until a legal move is entered; both row and column are read before judging."""
    while True:
        console.write("Row? (1-6) ")
        row = scanner.next_int() - 1
        console.write("Column? (a-f) ")
        letter = scanner.next()[0]
        col = COLUMNS.find(letter) if letter in COLUMNS else -1
        if is_legal(board, row, col, player):
            return row, col
        console.println("Not a legal move!")


def take_turn(scanner: console.Scanner, board: Board, player: str) -> bool:
    """A turn's header and its move or `No legal moves!`; False when the player had to skip.

    The board that follows is the caller's: the game's last skip is not followed by one."""
    console.println()
    console.println(f"{NAMES[player]}'s turn")
    moved = bool(legal_moves(board, player))
    if moved:
        play(board, *read_move(scanner, board, player), player)
    else:
        console.println("No legal moves!")
    return moved


def show_board(board: Board) -> None:
    console.println()
    console.write(render(board))


def play_game(scanner: console.Scanner, board: Board, player: str, milestone: int) -> None:
    console.write(render(board))
    if milestone == 1:
        take_turn(scanner, board, player)
        show_board(board)
        return
    skips = 0
    while True:
        skips = 0 if take_turn(scanner, board, player) else skips + 1
        player = other(player)
        if skips == 2:
            break
        show_board(board)
    console.println("Final board:")
    console.println()
    console.write(render(board))
    console.println()
    black, white = count(board, BLACK), count(board, WHITE)
    console.println(f"Final count: black={black}, white={white}")
    if black == white:
        console.println("It's a tie!")
    else:
        console.println("Black wins!" if black > white else "White wins!")


def main(argv=None) -> int:
    # audit: begin reference-only (the harness's flags: --milestone, --start, --to-move)
    parser = argparse.ArgumentParser(prog="reversi", description=__doc__.splitlines()[0])
    parser.add_argument("--milestone", type=int, choices=(1, 2), default=2)
    parser.add_argument("--start", help="board to begin from, as the game prints it")
    parser.add_argument("--to-move", choices=("black", "white"), default="black")
    args = parser.parse_args(argv)
    # audit: end reference-only
    console.setup_stdout()
    board = initial_board()
    if args.start is not None:  # audit: reference-only
        try:
            board = parse_board(args.start)
        except ValueError as problem:
            return options.invalid_start(problem)
    player = BLACK if args.to_move == "black" else WHITE  # audit: reference-only (--to-move)
    try:
        play_game(console.Scanner(), board, player, args.milestone)
    except (console.EndOfInput, ValueError):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
