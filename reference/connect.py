"""Connect 4/5/6: the reference for the ConnectGame handout.

Two players drop X and O into a (2n)x(2n) board; the first to line up n pieces in a row,
a column or a diagonal wins, a full board without a winner is a draw. Games repeat while
the players answer yes, the starting player alternates and the stats accumulate.

Run: python -m reference.connect 4 Alice Bob
Output follows the Connect section of formats.md byte for byte.
"""
import argparse
import re
import sys

from reference import console

USAGE = "Usage: java -cp bin ConnectGame {4 - 6} player1 player2"
MIN_CONNECT, MAX_CONNECT = 4, 6
SYMBOLS = ("X", "O")
NUMBER_WORDS = {4: "Four", 5: "Five", 6: "Six"}
EMPTY = "_"
# right, down, down-right (backslash), down-left (forward slash)
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
GOODBYE = "\n\nThank you for playing today.  Good bye!"


class Board:
    """The grid, row 0 at the top; pieces fall to the lowest free row of a column."""

    def __init__(self, connect: int):
        if not MIN_CONNECT <= connect <= MAX_CONNECT:
            raise ValueError("Invalid connect size")
        self.connect = connect
        self.size = 2 * connect
        self.cells = [[EMPTY] * self.size for _ in range(self.size)]
        self.pieces = 0

    def column_full(self, column: int) -> bool:
        """`column` is 0-based; the top cell is taken once the column is full."""
        return self.cells[0][column] != EMPTY

    def drop(self, column: int, piece: str) -> bool:
        """Put `piece` on top of 0-based `column`; False (board unchanged) if off the board or full."""
        if not 0 <= column < self.size or self.column_full(column):
            return False
        row = self.size - 1
        while self.cells[row][column] != EMPTY:
            row -= 1
        self.cells[row][column] = piece
        self.pieces += 1
        return True

    def is_full(self) -> bool:
        return self.pieces == self.size * self.size

    def run_from(self, row: int, col: int, dr: int, dc: int) -> int:
        """How many equal pieces start at (row, col) and continue in direction (dr, dc)."""
        piece = self.cells[row][col]
        if piece == EMPTY:
            return 0
        count = 0
        while 0 <= row < self.size and 0 <= col < self.size and self.cells[row][col] == piece:
            count += 1
            row, col = row + dr, col + dc
        return count

    def run_through(self, row: int, col: int, dr: int, dc: int) -> int:
        """Length of the run of the piece at (row, col) along the line (dr, dc), both ways."""
        if self.cells[row][col] == EMPTY:
            return 0
        back = self.run_from(row, col, -dr, -dc)
        return back + self.run_from(row, col, dr, dc) - 1

    def longest_run(self, piece: str) -> int:
        """Longest line of `piece` in any of the four directions (0 if it has none)."""
        best = 0
        for row in range(self.size):
            for col in range(self.size):
                if self.cells[row][col] == piece:
                    for dr, dc in DIRECTIONS:
                        best = max(best, self.run_from(row, col, dr, dc))
        return best

    def header(self) -> str:
        return "".join("%2d" % (c + 1) for c in range(self.size))

    def __str__(self) -> str:
        return "".join("|" + "".join(cell + "|" for cell in row) + "\n" for row in self.cells)


class Player:
    """Name, symbol and the running win/loss/draw counts."""

    def __init__(self, name: str, piece: str):
        self.name, self.piece = name, piece
        self.wins = self.losses = self.draws = 0

    def stats_line(self) -> str:
        return "%-12s " % (self.name + ": ") + "%4d%8d%8d" % (self.wins, self.losses, self.draws)


def parse_connect(text: str):
    """The connect size from the first argument as Integer.parseInt reads it, or None.

    parseInt takes an optional sign and decimal digits of any script (`+4`, `04` and `٤`
    are 4), nothing else: no spaces, no underscores.
    """
    if not re.fullmatch(r"[+-]?\d+", text):
        return None
    value = int(text)
    return value if MIN_CONNECT <= value <= MAX_CONNECT else None


def stats_table(players) -> str:
    return "%37s\n" % "Wins    Losses    Draws" + "".join(p.stats_line() + "\n" for p in players)


def display_board(board: Board) -> None:
    console.println()
    console.println(board.header())
    console.println(str(board))


def player_line(board: Board, player: Player) -> str:
    n = board.longest_run(player.piece)
    return f"Player {player.name} ({player.piece}) has {n} connected pieces."


def input_column(scanner, board: Board, player: Player):
    """Prompt until a column with room is given; the 0-based column, or None to quit."""
    prompt = f"Enter the column to place your {player.piece} piece (1 to {board.size}) or q to quit: "
    while True:
        console.write(prompt)
        if scanner.has_next_int():
            column = scanner.next_int()
            if not 1 <= column <= board.size:
                console.println("Invalid column number, please try again.")
            elif board.drop(column - 1, player.piece):
                return column - 1
            else:
                console.println(" Sorry, that column is full, please try again:")
                console.println(player_line(board, player))
        else:
            token = scanner.next()
            if token[0] in "qQ":
                return None
            console.println("\nNot a number, please try again.")


def play_game(scanner, connect: int, players, first: int) -> bool:
    """One game from the empty board; False if a player quit."""
    board = Board(connect)
    display_board(board)
    turn = first
    while True:
        player = players[turn]
        console.println(player_line(board, player))
        if input_column(scanner, board, player) is None:
            return False
        display_board(board)
        other = players[1 - turn]
        if board.longest_run(player.piece) >= connect:
            console.println(f"\n{player.name} wins!\n")
            player.wins += 1
            other.losses += 1
            return True
        if board.is_full():
            console.println("\nIt's a draw!\n")
            player.draws += 1
            other.draws += 1
            return True
        turn = 1 - turn


def ask_again(scanner) -> bool:
    while True:
        console.write("\nWould you like to play again (y/n)? ")
        answer = scanner.next()
        if answer[0] in "yY":
            return True
        if answer[0] in "nN":
            return False
        console.println(f"Unrecognized response {answer}, please enter y or n.")


def main(argv=None) -> int:
    console.setup_stdout()
    parser = argparse.ArgumentParser(
        prog="python -m reference.connect", add_help=False,
        description="Connect 4/5/6: <4|5|6> <name1> <name2> (further arguments ignored).")
    parser.add_argument("args", nargs="*", help="the game's own command-line arguments")
    # Everything is positional, even words that start with '-', as Java's args[] would be.
    args = parser.parse_args(["--", *(sys.argv[1:] if argv is None else argv)]).args
    connect = parse_connect(args[0]) if len(args) >= 3 else None
    if connect is None:
        console.println(USAGE)
        sys.stdout.flush()
        return 1
    players = [Player(args[1], SYMBOLS[0]), Player(args[2], SYMBOLS[1])]
    console.println(f"Welcome to Connect {NUMBER_WORDS[connect]}")
    console.println(f"{players[0].name} plays first with symbol {players[0].piece}")
    console.println(f"{players[1].name} plays next with symbol {players[1].piece}")
    console.println()
    scanner = console.Scanner()
    first = 0
    try:
        while True:
            if not play_game(scanner, connect, players, first):
                break
            console.write(stats_table(players))
            if not ask_again(scanner):
                break
            first = 1 - first
    except console.EndOfInput:
        sys.stdout.flush()
        return 1
    console.println(GOODBYE)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
