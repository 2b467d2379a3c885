"""Connect Four, Five or Six for two players at the console.

Usage: python3 connect.py {4 - 6} player1 player2
"""
import re
import sys

MIN_CONNECT_LENGTH = 4
MAX_CONNECT_LENGTH = 6
SYMBOL = ["X", "O"]
GOODBYE = "\n\nThank you for playing today.  Good bye!"

tokens = []


def next_token():
    """Next word the user typed (words are separated by spaces or new lines)."""
    while not tokens:
        tokens.extend(input().split())
    return tokens.pop(0)


def peek_token():
    while not tokens:
        tokens.extend(input().split())
    return tokens[0]


PIECES = {"X": "\u25cf", "O": "\u25cb"}  # X drawn as a black circle, O as a white one


def is_int(text):
    return re.fullmatch(r"[+-]?[0-9]+", text) is not None and -2**31 <= int(text) < 2**31


class Board:
    def __init__(self, connect_size):
        if connect_size < MIN_CONNECT_LENGTH or connect_size > MAX_CONNECT_LENGTH:
            raise ValueError("Invalid connect size")
        self.size = connect_size * 2
        self.board = [["_"] * self.size for _ in range(self.size)]
        self.next_spot = [self.size - 1] * self.size
        self.total_piece_count = 0

    def drop_piece(self, column, piece):
        if column < 0 or column >= self.size or self.next_spot[column] < 0:
            return False
        self.board[self.next_spot[column]][column] = piece
        self.next_spot[column] -= 1
        self.total_piece_count += 1
        return True

    def count(self, row, col, dr, dc, piece):
        n = 0
        while 0 <= row < self.size and 0 <= col < self.size and self.board[row][col] == piece:
            n += 1
            row += dr
            col += dc
        return n

    def get_longest_connect(self, piece):
        longest = 0
        for r in range(self.size):
            for c in range(self.size):
                for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
                    longest = max(longest, self.count(r, c, dr, dc, piece))
        return longest

    def is_board_full(self):
        return self.total_piece_count == self.size * self.size

    def __str__(self):
        result = ""
        for row in self.board:
            # wide cells between spaces, no walls, round pieces: ` ●   _   ○ `
            result += " " + "   ".join(PIECES.get(cell, cell) for cell in row) + " \n"
        return result


class Player:
    def __init__(self, name, piece):
        self.name = name
        self.piece = piece
        self.wins = 0
        self.losses = 0
        self.draws = 0

    def print_stats(self):
        print("%-12s " % (self.name + ": "), end="")
        print("%4d%8d%8d" % (self.wins, self.losses, self.draws))


def usage():
    print("Usage: java -cp bin ConnectGame {4 - 6} player1 player2")
    sys.exit(1)


def get_cla(args):
    if len(args) < 3:
        usage()
    if re.fullmatch(r"[+-]?\d+", args[0]) is None:
        usage()
    version = int(args[0])
    if version < MIN_CONNECT_LENGTH or version > MAX_CONNECT_LENGTH:
        usage()
    return version, [Player(args[1], SYMBOL[0]), Player(args[2], SYMBOL[1])]


def print_connected(player, board):
    print("Player %s (%s) has %d connected pieces."
          % (player.name, player.piece, board.get_longest_connect(player.piece)))


def input_column(player, board):
    print_connected(player, board)
    while True:
        print("Enter the column to place your %s piece (1 to %d) or q to quit: "
              % (player.piece, board.size), end="")
        if is_int(peek_token()):
            column = int(next_token())
            if column < 1 or column > board.size:
                print("Invalid column number, please try again.")
            elif board.drop_piece(column - 1, player.piece):
                return column - 1
            else:
                print(" Sorry, that column is full, please try again:")
                print_connected(player, board)
        else:
            word = next_token()
            if word[0] == "q" or word[0] == "Q":
                print(GOODBYE)
                sys.exit(0)
            print("\nPlease enter a number.")


def display_board(board):
    print()
    # the column numbers over the cells, four characters apart
    print(" " + "".join(str(c).ljust(4) for c in range(1, board.size + 1)).rstrip())
    print(board)


def main():
    version, players = get_cla(sys.argv[1:])
    names = {4: "Four", 5: "Five", 6: "Six"}
    print("Welcome to Connect " + names[version])
    print(players[0].name + " plays first with symbol " + SYMBOL[0])
    print(players[1].name + " plays next with symbol " + SYMBOL[1])
    print()

    first_player = 0
    keep_playing = True
    while keep_playing:
        board = Board(version)
        display_board(board)
        current = first_player
        game_over = False
        while not game_over:
            input_column(players[current], board)
            display_board(board)
            player = players[current]
            other = players[1 - current]
            if board.get_longest_connect(player.piece) >= version:
                print("\n" + player.name + " wins!\n")
                player.wins += 1
                other.losses += 1
                game_over = True
            elif board.is_board_full():
                print("\nIt's a draw!\n")
                player.draws += 1
                other.draws += 1
                game_over = True
            else:
                current = 1 - current

        print("%37s" % "Wins    Losses    Draws")
        players[0].print_stats()
        players[1].print_stats()

        while True:
            print("\nWould you like to play again (y/n)? ", end="")
            answer = next_token()
            if answer[0] in "yY":
                break
            if answer[0] in "nN":
                keep_playing = False
                break
            print("Unrecognized response " + answer + ", please enter y or n.")
        first_player = 1 - first_player
    print(GOODBYE)


if __name__ == "__main__":
    try:
        main()
    except EOFError:
        sys.exit(1)
