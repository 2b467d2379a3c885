"""Connect 4/5/6 in my own words: a boxed board, both players' longest lines after every move.

Run: python3 connect.py {4 - 6} player1 player2
"""
import sys

USAGE = "Usage: java -cp bin ConnectGame {4 - 6} player1 player2"
PIECES = ("X", "O")


class Board:
    def __init__(self, connect):
        self.connect = connect
        self.size = 2 * connect
        self.grid = [[" "] * self.size for _ in range(self.size)]
        self.pieces = 0

    def drop(self, column, piece):
        for row in range(self.size - 1, -1, -1):
            if self.grid[row][column] == " ":
                self.grid[row][column] = piece
                self.pieces += 1
                return True
        return False

    def longest(self, piece):
        best = 0
        for row in range(self.size):
            for col in range(self.size):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    run, r, c = 0, row, col
                    while 0 <= r < self.size and 0 <= c < self.size and self.grid[r][c] == piece:
                        run, r, c = run + 1, r + dr, c + dc
                    best = max(best, run)
        return best

    def full(self):
        return self.pieces == self.size * self.size

    def show(self):
        border = "+" + "---+" * self.size
        print("".join("%4d" % (c + 1) for c in range(self.size)))
        print(border)
        for row in self.grid:
            print("|" + "|".join(" %s " % cell for cell in row) + "|")
            print(border)


class Player:
    def __init__(self, name, piece):
        self.name, self.piece = name, piece
        self.won = self.lost = self.tied = 0

    def record(self):
        return "%s: %d win(s), %d loss(es), %d draw(s)" % (self.name, self.won, self.lost, self.tied)


def read():
    line = input()
    return line.strip()


def ask_column(player, board):
    """The 0-based column the player picks, or None when they quit."""
    while True:
        answer = input("%s, drop your %s in which column (1-%d, q to quit)? " % (player.name, player.piece, board.size)).strip()
        if answer[:1] in ("q", "Q"):
            return None
        try:
            column = int(answer)
        except ValueError:
            print("'%s' is not a number. Try again." % answer)
            continue
        if not 1 <= column <= board.size:
            print("There is no column %d on this board." % column)
        elif board.drop(column - 1, player.piece):
            return column - 1
        else:
            print("Column %d is full, choose another one." % column)


def show(board, players):
    board.show()
    print("Longest lines: " + ", ".join("%s (%s) %d in a row" % (p.name, p.piece, board.longest(p.piece)) for p in players))


def play(connect, players, first):
    """One game; False when someone quits."""
    board = Board(connect)
    show(board, players)
    turn = first
    while True:
        player, other = players[turn], players[1 - turn]
        if ask_column(player, board) is None:
            return False
        show(board, players)
        if board.longest(player.piece) >= connect:
            print("*** %s connects %d and wins! ***" % (player.name, connect))
            player.won += 1
            other.lost += 1
            return True
        if board.full():
            print("No more room on the board: this game is a tie.")
            player.tied += 1
            other.tied += 1
            return True
        turn = 1 - turn


def main(args):
    if len(args) < 3 or not args[0].lstrip("+-").isdigit() or int(args[0]) not in (4, 5, 6):
        print(USAGE)
        sys.exit(1)
    connect = int(args[0])
    players = [Player(args[1], PIECES[0]), Player(args[2], PIECES[1])]
    print("Welcome! This is Connect %d: line up %d pieces to win." % (connect, connect))
    print("%s plays X and %s plays O." % (players[0].name, players[1].name))
    first = 0
    while play(connect, players, first):
        print("Scores so far:")
        for p in players:
            print("  " + p.record())
        while True:
            answer = input("Another round? Type y/yes or n/no: ").strip()
            if answer[:1] in ("y", "Y"):
                break
            if answer[:1] in ("n", "N"):
                print("Thanks for playing!")
                return
            print("Please answer with y or n.")
        first = 1 - first
    print("Thanks for playing!")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except EOFError:
        sys.exit(1)
