import java.util.Scanner;

public class Reversi {
	// Size of the game board
	public static final int BOARD_HEIGHT = 6;
	public static final int BOARD_WIDTH = 6;

	// Values stored in the board array
	public static final int EMPTY = 0;
	public static final int BLACK = 1;
	public static final int WHITE = 2;

	// Modes for the traverse method
	public static final int CHECK = 0;
	public static final int CAPTURE = 1;

	// The 8 directions in which pieces can be captured (dy, dx)
	public static final int[][] DIRECTIONS = {
		{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}
	};

	public static void main(String[] args) {
		Scanner keyboard = new Scanner(System.in);

		int[][] board = new int[BOARD_HEIGHT][BOARD_WIDTH];
		setupBoard(board);
		printBoard(board);

		int player = BLACK;
		int skips = 0; // number of turns skipped in a row

		// the game ends when both players had to skip, one after the other
		while (skips < 2) {
			if (player == BLACK) {
				System.out.println("Black's turn");
			} else {
				System.out.println("White's turn");
			}

			if (!hasLegalMove(board, player)) {
				System.out.println("No legal moves!");
				skips++;
				// the second skip in a row ends the game: no board after it
				if (skips == 2) {
					break;
				}
			} else {
				skips = 0;
				playTurn(keyboard, board, player);
			}

			System.out.println();
			printBoard(board);

			// switch players
			if (player == BLACK) {
				player = WHITE;
			} else {
				player = BLACK;
			}
		}

		System.out.println("Final board:");
		System.out.println();
		printBoard(board);
		System.out.println();

		int black = countPieces(board, BLACK);
		int white = countPieces(board, WHITE);
		System.out.println("Final count: black=" + black + ", white=" + white);
		if (black > white) {
			System.out.println("Black wins!");
		} else if (white > black) {
			System.out.println("White wins!");
		} else {
			System.out.println("It's a tie!");
		}
	}

	// Put the 4 starting pieces in the center of the board.
	private static void setupBoard(int[][] board) {
		board[2][2] = WHITE;
		board[2][3] = BLACK;
		board[3][2] = BLACK;
		board[3][3] = WHITE;
	}

	// Print the board with column letters and row numbers.
	private static void printBoard(int[][] board) {
		System.out.print("  ");
		for (int col = 0; col < BOARD_WIDTH; col++) {
			System.out.print((char) ('a' + col));
		}
		System.out.println();
		for (int row = 0; row < BOARD_HEIGHT; row++) {
			System.out.print((row + 1) + " ");
			for (int col = 0; col < BOARD_WIDTH; col++) {
				if (board[row][col] == BLACK) {
					System.out.print("\u25CF");
				} else if (board[row][col] == WHITE) {
					System.out.print("\u25CB");
				} else {
					System.out.print(".");
				}
			}
			System.out.println();
		}
	}

	// Ask the player for a row and column until a legal move is entered,
	// then place the piece and capture.
	private static void playTurn(Scanner keyboard, int[][] board, int player) {
		int row;
		int col;
		while (true) {
			System.out.print("Row? (1-6) ");
			int rowNum = keyboard.nextInt();
			System.out.print("Column? (a-f) ");
			String s = keyboard.next();
			char colChar = s.charAt(0);

			if (rowNum >= 1 && rowNum <= BOARD_HEIGHT && colChar >= 'a' && colChar <= 'f') {
				row = rowNum - 1;
				col = colChar - 'a';
				if (isLegalMove(board, row, col, player)) {
					break;
				}
			}
			System.out.println("Not a legal move!");
		}

		// capture in every direction where pieces can be captured
		for (int i = 0; i < DIRECTIONS.length; i++) {
			int dy = DIRECTIONS[i][0];
			int dx = DIRECTIONS[i][1];
			if (traverse(board, row, col, player, dy, dx, CHECK)) {
				traverse(board, row, col, player, dy, dx, CAPTURE);
			}
		}
		board[row][col] = player;
	}

	// A move is legal if the square is empty and at least one of the
	// opponent's pieces would be captured.
	private static boolean isLegalMove(int[][] board, int row, int col, int player) {
		if (board[row][col] != EMPTY) {
			return false;
		}
		for (int i = 0; i < DIRECTIONS.length; i++) {
			if (traverse(board, row, col, player, DIRECTIONS[i][0], DIRECTIONS[i][1], CHECK)) {
				return true;
			}
		}
		return false;
	}

	// Check whether the player can move anywhere on the board.
	private static boolean hasLegalMove(int[][] board, int player) {
		int count = 0;
		for (int row = 0; row < BOARD_HEIGHT; row++) {
			for (int col = 0; col < BOARD_WIDTH; col++) {
				if (isLegalMove(board, row, col, player)) {
					count++;
				}
			}
		}
		return count > 0;
	}

	// Starting next to (row, col), go in direction (dy, dx) over the
	// opponent's pieces. Returns true if at least one opponent piece is
	// followed by one of the player's pieces. In CAPTURE mode, the opponent's
	// pieces along the way are changed to the player's color.
	private static boolean traverse(int[][] board, int row, int col, int player, int dy, int dx, int mode) {
		int opponent = (player == BLACK) ? WHITE : BLACK;
		int y = row + dy;
		int x = col + dx;
		int count = 0;
		while (y >= 0 && y < BOARD_HEIGHT && x >= 0 && x < BOARD_WIDTH && board[y][x] == opponent) {
			if (mode == CAPTURE) {
				board[y][x] = player;
			}
			count++;
			y += dy;
			x += dx;
		}
		if (y < 0 || y >= BOARD_HEIGHT || x < 0 || x >= BOARD_WIDTH) {
			return false;
		}
		return count > 0 && board[y][x] == player;
	}

	// Count the pieces of one color.
	private static int countPieces(int[][] board, int player) {
		int count = 0;
		for (int row = 0; row < BOARD_HEIGHT; row++) {
			for (int col = 0; col < BOARD_WIDTH; col++) {
				if (board[row][col] == player) {
					count++;
				}
			}
		}
		return count;
	}
}
