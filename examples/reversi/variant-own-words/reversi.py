# Reversi on a 6x6 board, two players at one keyboard, in its author's own words:
# a framed board of X and O, its own turn lines, prompts and messages, and its own end.

BOARD_HEIGHT = 6
BOARD_WIDTH = 6

EMPTY = 0
BLACK = 1
WHITE = 2

# modes for traverse
CHECK = 0
CAPTURE = 1

# the 8 directions in which pieces can be captured (dy, dx)
DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]

# Words typed but not used yet. The row and the column are read one word
# at a time (like Java's Scanner), so "4 e" on one line works too and
# empty lines are skipped.
pending = []


def next_word():
    while len(pending) == 0:
        pending.extend(input().split())
    return pending.pop(0)


def setup_board():
    board = [[EMPTY] * BOARD_WIDTH for _ in range(BOARD_HEIGHT)]
    board[2][2] = WHITE
    board[2][3] = BLACK
    board[3][2] = BLACK
    board[3][3] = WHITE
    return board


SYMBOLS = {EMPTY: " ", BLACK: "X", WHITE: "O"}


def print_board(board):
    print("    a   b   c   d   e   f")
    print("  +---+---+---+---+---+---+")
    for row in range(BOARD_HEIGHT):
        print(str(row + 1) + " | " + " | ".join(SYMBOLS[cell] for cell in board[row]) + " |")
        print("  +---+---+---+---+---+---+")


def traverse(board, row, col, player, dy, dx, mode):
    """Go from (row, col) in direction (dy, dx) over the opponent's pieces.
    True if at least one of them is followed by one of the player's pieces.
    In CAPTURE mode the opponent's pieces on the way become the player's."""
    opponent = WHITE if player == BLACK else BLACK
    y = row + dy
    x = col + dx
    count = 0
    while 0 <= y < BOARD_HEIGHT and 0 <= x < BOARD_WIDTH and board[y][x] == opponent:
        if mode == CAPTURE:
            board[y][x] = player
        count += 1
        y += dy
        x += dx
    if not (0 <= y < BOARD_HEIGHT and 0 <= x < BOARD_WIDTH):
        return False
    return count > 0 and board[y][x] == player


def is_legal_move(board, row, col, player):
    if board[row][col] != EMPTY:
        return False
    for dy, dx in DIRECTIONS:
        if traverse(board, row, col, player, dy, dx, CHECK):
            return True
    return False


def has_legal_move(board, player):
    for row in range(BOARD_HEIGHT):
        for col in range(BOARD_WIDTH):
            if is_legal_move(board, row, col, player):
                return True
    return False


def play_turn(board, player):
    """Ask for a row and a column until the move is legal, then play it."""
    while True:
        print("Which row do you want (1-6)? ", end="")
        row_num = int(next_word())
        print("And which column (a-f)? ", end="")
        col_char = next_word()[0]

        if 1 <= row_num <= BOARD_HEIGHT and "a" <= col_char <= "f":
            row = row_num - 1
            col = ord(col_char) - ord("a")
            if is_legal_move(board, row, col, player):
                break
        print("Sorry, you cannot place a piece there. Try again.")

    for dy, dx in DIRECTIONS:
        if traverse(board, row, col, player, dy, dx, CHECK):
            traverse(board, row, col, player, dy, dx, CAPTURE)
    board[row][col] = player


def count_pieces(board, player):
    return sum(line.count(player) for line in board)


def main():
    board = setup_board()
    print_board(board)

    player = BLACK
    skips = 0  # turns skipped in a row
    # the game ends when both players had to skip, one after the other
    while skips < 2:
        name = "Black (X)" if player == BLACK else "White (O)"
        print("=== " + name + " to play ===")

        if not has_legal_move(board, player):
            print(name + " has nowhere to go and must pass.")
            skips += 1
            # the second skip in a row ends the game: no board after it
            if skips == 2:
                break
        else:
            skips = 0
            play_turn(board, player)

        print_board(board)
        player = WHITE if player == BLACK else BLACK

    print("*** The game is over. This is where the pieces ended up: ***")
    print_board(board)
    black = count_pieces(board, BLACK)
    white = count_pieces(board, WHITE)
    print("Score -- Black: " + str(black) + ", White: " + str(white))
    if black > white:
        print("Congratulations, Black won!")
    elif white > black:
        print("Congratulations, White won!")
    else:
        print("Nobody won: the game is drawn.")


main()
