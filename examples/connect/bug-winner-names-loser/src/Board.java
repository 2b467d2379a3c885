/**
 * The game board for Connect Four, Five or Six. The board is (2 * connectSize) squared,
 * row 0 is the top row and pieces fall to the lowest empty row of a column.
 */
public class Board {

    /** Smallest connect size allowed */
    public static final int MIN_CONNECT_SIZE = 4;
    /** Largest connect size allowed */
    public static final int MAX_CONNECT_SIZE = 6;

    private char[][] board;
    private int connectSize;
    private int totalBoardSize;
    private int column;
    private int[] nextSpot;
    private int longestConnect;
    private int totalPieceCount;

    /**
     * Creates an empty board.
     *
     * @param connectSize number of pieces in a row needed to win
     * @throws IllegalArgumentException if connectSize is outside 4 to 6
     */
    public Board(int connectSize) {
        if (connectSize < MIN_CONNECT_SIZE || connectSize > MAX_CONNECT_SIZE) {
            throw new IllegalArgumentException("Invalid connect size");
        }
        this.connectSize = connectSize;
        int size = connectSize * 2;
        board = new char[size][size];
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < size; c++) {
                board[r][c] = '_';
            }
        }
        nextSpot = new int[size];
        for (int c = 0; c < size; c++) {
            nextSpot[c] = size - 1;
        }
        totalBoardSize = size * size;
        totalPieceCount = 0;
        longestConnect = 0;
    }

    /**
     * Drops a piece into a column.
     *
     * @param column the column index (0 based)
     * @param piece the piece to drop
     * @return true if the piece was placed, false if the column does not exist or is full
     */
    public boolean dropPiece(int column, char piece) {
        if (column < 0 || column >= board.length) {
            return false;
        }
        this.column = column;
        if (nextSpot[column] < 0) {
            return false;
        }
        board[nextSpot[column]][column] = piece;
        nextSpot[column]--;
        totalPieceCount++;
        return true;
    }

    /**
     * Finds the longest line of the given piece going across, down or along a diagonal.
     *
     * @param piece the piece to look for
     * @return the length of the longest connected line of that piece
     */
    public int getLongestConnect(char piece) {
        int size = board.length;
        longestConnect = 0;

        // horizontal
        for (int r = 0; r < size; r++) {
            int count = 0;
            for (int c = 0; c < size; c++) {
                if (board[r][c] == piece) {
                    count++;
                    if (count > longestConnect) {
                        longestConnect = count;
                    }
                } else {
                    count = 0;
                }
            }
        }

        // vertical
        for (int c = 0; c < size; c++) {
            int count = 0;
            for (int r = 0; r < size; r++) {
                if (board[r][c] == piece) {
                    count++;
                    if (count > longestConnect) {
                        longestConnect = count;
                    }
                } else {
                    count = 0;
                }
            }
        }

        // backward slash: down and to the right
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < size; c++) {
                int count = 0;
                int i = r;
                int j = c;
                while (i < size && j < size && board[i][j] == piece) {
                    count++;
                    i++;
                    j++;
                }
                if (count > longestConnect) {
                    longestConnect = count;
                }
            }
        }

        // forward slash: down and to the left
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < size; c++) {
                int count = 0;
                int i = r;
                int j = c;
                while (i < size && j >= 0 && board[i][j] == piece) {
                    count++;
                    i++;
                    j--;
                }
                if (count > longestConnect) {
                    longestConnect = count;
                }
            }
        }

        return longestConnect;
    }

    public int getTotalPieceCount() {
        return totalPieceCount;
    }

    public boolean isBoardFull() {
        return totalPieceCount == totalBoardSize;
    }

    /**
     * Returns the board as text: one line per row, each cell followed by a bar.
     */
    public String toString() {
        String result = "";
        for (int r = 0; r < board.length; r++) {
            result += "|";
            for (int c = 0; c < board[r].length; c++) {
                result += board[r][c] + "|";
            }
            result += "\n";
        }
        return result;
    }
}
