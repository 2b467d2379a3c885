import java.util.Scanner;

/**
 * Runs a game of Silver Dollar between two players at the keyboard.
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);

        System.out.println("Enter the number of coins:");
        int numCoins = in.nextInt();
        CoinStrip strip = new CoinStrip(numCoins);

        int player = 1;
        boolean done = false;
        while (!done) {
            System.out.println(strip);
            System.out.println("Player " + player + ": Enter your move:");
            int coin = in.nextInt();
            int distance = in.nextInt();
            while (!strip.isLegalMove(coin, distance)) {
                System.out.println("Illegal move! Try again.");
                System.out.println("Player " + player + ": Enter your move:");
                coin = in.nextInt();
                distance = in.nextInt();
            }
            strip.move(coin, distance);

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
