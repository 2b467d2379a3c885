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
