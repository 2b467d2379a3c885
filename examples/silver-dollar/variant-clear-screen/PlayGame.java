import java.util.Scanner;

/**
 * Runs a game of Silver Dollar between two players at the keyboard.
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);

        System.out.print("Enter the number of coins: ");
        int numCoins = in.nextInt();
        CoinStrip strip = new CoinStrip(numCoins);

        int player = 1;
        boolean done = false;
        while (!done) {
            // a fresh screen for every board: cursor home, then clear
            System.out.print("\033[H\033[2J");
            System.out.flush();
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

            if (strip.isGameOver()) {
                System.out.print("\033[H\033[2J");
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
