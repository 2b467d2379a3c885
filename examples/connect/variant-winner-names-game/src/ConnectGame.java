import java.util.Scanner;

/**
 * Plays Connect Four, Five or Six between two players at the console.
 * Run with: java -cp bin ConnectGame {4 - 6} player1 player2
 */
public class ConnectGame {

    /** Smallest number of connected pieces to win */
    public static final int MIN_CONNECT_LENGTH = 4;
    /** Largest number of connected pieces to win */
    public static final int MAX_CONNECT_LENGTH = 6;
    /** Symbols of the two players */
    public static final char[] SYMBOL = { 'X', 'O' };

    private static int gameVersion;
    private static int boardSize;
    private static Player[] players = new Player[2];

    /**
     * Runs games until the players stop.
     *
     * @param args connect size, first player's name, second player's name
     */
    public static void main(String[] args) {
        Scanner scnr = new Scanner(System.in);
        getCLA(args, scnr);

        String[] versionNames = { "Four", "Five", "Six" };
        System.out.println("Welcome to Connect " + versionNames[gameVersion - MIN_CONNECT_LENGTH]);
        System.out.println(players[0].getName() + " plays first with symbol " + SYMBOL[0]);
        System.out.println(players[1].getName() + " plays next with symbol " + SYMBOL[1]);
        System.out.println();

        int firstPlayer = 0;
        boolean keepPlaying = true;
        while (keepPlaying) {
            Board board = new Board(gameVersion);
            displayBoard(board, scnr);
            int current = firstPlayer;
            boolean gameOver = false;
            while (!gameOver) {
                inputColumn(current, scnr, board);
                displayBoard(board, scnr);
                Player player = players[current];
                Player other = players[1 - current];
                if (board.getLongestConnect(player.getPiece()) >= gameVersion) {
                    System.out.println("\n" + player.getName() + " got Connect "
                            + versionNames[gameVersion - MIN_CONNECT_LENGTH] + " and wins!\n");
                    player.addWin();
                    other.addLoss();
                    gameOver = true;
                } else if (board.isBoardFull()) {
                    System.out.println("\nIt's a draw!\n");
                    player.addDraw();
                    other.addDraw();
                    gameOver = true;
                } else {
                    current = 1 - current;
                }
            }

            System.out.printf("%37s\n", "Wins    Losses    Draws");
            players[0].printStats();
            players[1].printStats();

            boolean answered = false;
            while (!answered) {
                System.out.print("\nWould you like to play again (y/n)? ");
                String answer = scnr.next();
                char first = answer.charAt(0);
                if (first == 'y' || first == 'Y') {
                    answered = true;
                } else if (first == 'n' || first == 'N') {
                    answered = true;
                    keepPlaying = false;
                } else {
                    System.out.println("Unrecognized response " + answer + ", please enter y or n.");
                }
            }
            firstPlayer = 1 - firstPlayer;
        }
        System.out.println("\n\nThank you for playing today.  Good bye!");
    }

    /**
     * Reads the command line arguments, or prints the usage message and exits.
     *
     * @param args the command line arguments
     * @param scnr the console scanner
     */
    public static void getCLA(String[] args, Scanner scnr) {
        if (args.length < 3) {
            usage();
        }
        try {
            gameVersion = Integer.parseInt(args[0]);
        } catch (NumberFormatException e) {
            usage();
        }
        if (gameVersion < MIN_CONNECT_LENGTH || gameVersion > MAX_CONNECT_LENGTH) {
            usage();
        }
        boardSize = gameVersion * 2;
        players[0] = new Player(args[1], SYMBOL[0]);
        players[1] = new Player(args[2], SYMBOL[1]);
    }

    private static void usage() {
        System.out.println("Usage: java -cp bin ConnectGame {4 - 6} player1 player2");
        System.exit(1);
    }

    /**
     * Asks the player for a column until a valid one is entered and drops the piece there.
     * Entering q quits the program.
     *
     * @param playerId index of the player (0 or 1)
     * @param scnr the console scanner
     * @param board the game board
     * @return the index of the column the piece was dropped in
     * @throws IllegalArgumentException if playerId is not a valid player index
     */
    public static int inputColumn(int playerId, Scanner scnr, Board board) {
        if (playerId < 0 || playerId >= players.length) {
            throw new IllegalArgumentException("Invalid player id");
        }
        Player player = players[playerId];
        printConnected(player, board);
        while (true) {
            System.out.print("Enter the column to place your " + player.getPiece()
                    + " piece (1 to " + boardSize + ") or q to quit: ");
            if (scnr.hasNextInt()) {
                int column = scnr.nextInt();
                if (column < 1 || column > boardSize) {
                    System.out.println("Invalid column number, please try again.");
                } else if (board.dropPiece(column - 1, player.getPiece())) {
                    return column - 1;
                } else {
                    System.out.println(" Sorry, that column is full, please try again:");
                    printConnected(player, board);
                }
            } else {
                String input = scnr.next();
                if (input.charAt(0) == 'q' || input.charAt(0) == 'Q') {
                    System.out.println("\n\nThank you for playing today.  Good bye!");
                    System.exit(0);
                }
                System.out.println("\nNot a number, please try again.");
            }
        }
    }

    private static void printConnected(Player player, Board board) {
        System.out.println("Player " + player.getName() + " (" + player.getPiece() + ") has "
                + board.getLongestConnect(player.getPiece()) + " connected pieces.");
    }

    /**
     * Prints the column numbers and the board.
     *
     * @param board the game board
     * @param scnr the console scanner
     */
    public static void displayBoard(Board board, Scanner scnr) {
        System.out.println();
        for (int c = 1; c <= boardSize; c++) {
            System.out.printf("%2d", c);
        }
        System.out.println();
        System.out.println(board.toString());
    }
}
