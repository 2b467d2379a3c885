import java.util.Scanner;

/**
 * Runs a game of Silver Dollar between two players at the keyboard.
 */
public class PlayGame {
    private static final int PAUSE_MILLIS = 1000;

    /**
     * Waits PAUSE_MILLIS after a move, so the game does not rush past the players.
     */
    private static void pause() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);

        System.out.print("Enter the number of coins: ");
        int numCoins = in.nextInt();
        CoinStrip strip = new CoinStrip(numCoins);

        int player = 1;
        boolean done = false;
        while (!done) {
            System.out.println(strip);
            System.out.print("Player " + player + ": Enter your move: ");
            int coin = in.nextInt();
            int distance = in.nextInt();
            while (!strip.isLegalMove(coin, distance)) {
                System.out.println("Illegal move! Try again.");
                System.out.print("Player " + player + ": Enter your move: ");
                coin = in.nextInt();
                distance = in.nextInt();
            }
            strip.move(coin, distance);
            pause(); // give both players a moment to see the move before the board changes

            if (strip.isGameOver()) {
                System.out.println(strip);
                System.out.println("Player " + player + " wins!");
                done = true;
            } else if (player == 1) {
                player = 2;
            } else {
                player = 1;
            }
        }
    }
}
