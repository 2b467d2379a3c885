import java.util.Scanner;

/** The helpers a handout prints for students to type in (not given as a support file): every
 *  student of the class hands them in, so they are the class's code, not a sign of copying. */
public class Handout {
    public static final int SIZE = 6;
    public static final int[][] STEPS = {{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}};

    public static void drawBoard(int[][] cells) {
        System.out.print("  ");
        for (int col = 0; col < SIZE; col++) {
            System.out.print((char) ('a' + col));
        }
        System.out.println();
        for (int row = 0; row < SIZE; row++) {
            System.out.print((row + 1) + " ");
            for (int col = 0; col < SIZE; col++) {
                if (cells[row][col] == 1) {
                    System.out.print("\u25CF");
                } else if (cells[row][col] == 2) {
                    System.out.print("\u25CB");
                } else {
                    System.out.print(".");
                }
            }
            System.out.println();
        }
    }

    public static boolean onBoard(int row, int col) {
        return row >= 0 && row < SIZE && col >= 0 && col < SIZE;
    }

    public static int readRow(Scanner keyboard) {
        System.out.print("Row? (1-6) ");
        String line = keyboard.next();
        if (line.length() != 1 || line.charAt(0) < '1' || line.charAt(0) > '6') {
            return -1;
        }
        return line.charAt(0) - '1';
    }

    public static int readColumn(Scanner keyboard) {
        System.out.print("Column? (a-f) ");
        String line = keyboard.next();
        if (line.length() != 1 || line.charAt(0) < 'a' || line.charAt(0) > 'f') {
            return -1;
        }
        return line.charAt(0) - 'a';
    }

    public static int count(int[][] cells, int who) {
        int total = 0;
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                if (cells[row][col] == who) {
                    total++;
                }
            }
        }
        return total;
    }

    public static void announce(int black, int white) {
        System.out.println("Final count: black=" + black + ", white=" + white);
        if (black > white) {
            System.out.println("Black wins!");
        } else if (white > black) {
            System.out.println("White wins!");
        } else {
            System.out.println("It's a tie!");
        }
    }
}
