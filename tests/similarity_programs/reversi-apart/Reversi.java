import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

/** Reversi on a 6x6 board, written apart from the course's sample: a char grid, one move helper. */
public class Reversi {
    static final int N = 6;
    static char[][] grid = new char[N][N];
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

    public static void main(String[] args) throws IOException {
        for (char[] line : grid) java.util.Arrays.fill(line, '.');
        grid[2][2] = 'W'; grid[3][3] = 'W'; grid[2][3] = 'B'; grid[3][2] = 'B';
        show();
        char side = 'B';
        boolean lastPassed = false;
        for (;;) {
            System.out.println();
            System.out.println(side == 'B' ? "Black's turn" : "White's turn");
            if (!canMove(side)) {
                System.out.println("No legal moves!");
                if (lastPassed) break;
                lastPassed = true;
            } else {
                lastPassed = false;
                int[] at = ask(side);
                flip(at[0], at[1], side, true);
            }
            System.out.println();
            show();
            side = side == 'B' ? 'W' : 'B';
        }
        System.out.println("Final board:");
        System.out.println();
        show();
        System.out.println();
        int b = tally('B'), w = tally('W');
        System.out.println("Final count: black=" + b + ", white=" + w);
        System.out.println(b == w ? "It's a tie!" : (b > w ? "Black wins!" : "White wins!"));
    }

    static void show() {
        StringBuilder out = new StringBuilder("  abcdef\n");
        for (int r = 0; r < N; r++) {
            out.append(r + 1).append(' ');
            for (int c = 0; c < N; c++) out.append(grid[r][c] == 'B' ? '\u25CF' : grid[r][c] == 'W' ? '\u25CB' : '.');
            out.append('\n');
        }
        System.out.print(out);
    }

    static int[] ask(char side) throws IOException {
        while (true) {
            System.out.print("Row? (1-6) ");
            String r = word();
            System.out.print("Column? (a-f) ");
            String c = word();
            int row = r.length() == 1 ? r.charAt(0) - '1' : -1;
            int col = c.length() == 1 ? c.charAt(0) - 'a' : -1;
            if (row >= 0 && row < N && col >= 0 && col < N && flip(row, col, side, false)) return new int[] {row, col};
            System.out.println("Not a legal move!");
        }
    }

    static String word() throws IOException {
        String line = in.readLine();
        if (line == null) System.exit(1);
        return line.trim();
    }

    /** Whether a piece of `side` at (row, col) captures; when `apply`, place it and turn the captured. */
    static boolean flip(int row, int col, char side, boolean apply) {
        if (grid[row][col] != '.') return false;
        char other = side == 'B' ? 'W' : 'B';
        boolean any = false;
        for (int dr = -1; dr <= 1; dr++) {
            for (int dc = -1; dc <= 1; dc++) {
                if (dr == 0 && dc == 0) continue;
                int r = row + dr, c = col + dc, seen = 0;
                while (r >= 0 && r < N && c >= 0 && c < N && grid[r][c] == other) { r += dr; c += dc; seen++; }
                if (seen == 0 || r < 0 || r >= N || c < 0 || c >= N || grid[r][c] != side) continue;
                any = true;
                if (apply) for (int k = 1; k <= seen; k++) grid[row + k * dr][col + k * dc] = side;
            }
        }
        if (any && apply) grid[row][col] = side;
        return any;
    }

    static boolean canMove(char side) {
        for (int r = 0; r < N; r++) for (int c = 0; c < N; c++) if (flip(r, c, side, false)) return true;
        return false;
    }

    static int tally(char side) {
        int n = 0;
        for (char[] line : grid) for (char x : line) if (x == side) n++;
        return n;
    }
}
