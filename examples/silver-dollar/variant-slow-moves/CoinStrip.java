import java.util.Random;

/**
 * A strip of squares holding silver dollars for the Silver Dollar Game.
 * The board is stored as the square index of each coin, from left to right,
 * so checking a move only needs the coin and its left neighbour.
 */
public class CoinStrip {
    private static final int MAX_GAP = 6;

    private int[] coins;   // coins[i] is the square that coin i stands on
    private int length;    // number of squares on the strip (never changes)

    /**
     * Builds a random strip: each coin stands 1 to 6 squares right of the
     * coin before it (or of the left edge, for coin 0). A strip where no
     * move is possible is thrown away and drawn again.
     */
    public CoinStrip(int numCoins) {
        Random rand = new Random();
        coins = new int[numCoins];
        do {
            int previous = -1; // the left edge
            for (int i = 0; i < numCoins; i++) {
                coins[i] = previous + rand.nextInt(MAX_GAP) + 1;
                previous = coins[i];
            }
        } while (isGameOver());
        length = coins[numCoins - 1] + 1;
    }

    /** Returns the number of coins on the strip. */
    public int numCoins() {
        return coins.length;
    }

    /** Returns true if coin can move distance squares to the left. */
    public boolean isLegalMove(int coin, int distance) {
        if (coin < 0 || coin >= coins.length || distance < 1) {
            return false;
        }
        int target = coins[coin] - distance;
        if (target < 0) {
            return false;
        }
        if (coin > 0 && target <= coins[coin - 1]) {
            return false;
        }
        return true;
    }

    /** Moves coin distance squares to the left (the move must be legal). */
    public void move(int coin, int distance) {
        coins[coin] = coins[coin] - distance;
    }

    /** Returns true when the coins fill the leftmost squares. */
    public boolean isGameOver() {
        for (int i = 0; i < coins.length; i++) {
            if (coins[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Returns the board, one token per square: _ or the coin's number. */
    public String toString() {
        String[] squares = new String[length];
        for (int i = 0; i < length; i++) {
            squares[i] = "_";
        }
        for (int i = 0; i < coins.length; i++) {
            squares[coins[i]] = Integer.toString(i);
        }
        return String.join(" ", squares);
    }
}
