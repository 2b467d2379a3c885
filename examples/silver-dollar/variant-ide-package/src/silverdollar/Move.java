package silverdollar;

import java.util.Scanner;

/**
 * A move typed by a player: the coin to move and how many squares to the left.
 */
public class Move {
    private int coin;
    private int distance;

    public Move(int coin, int distance) {
        this.coin = coin;
        this.distance = distance;
    }

    /** Reads a move as two integers: the coin, then the distance. */
    public static Move read(Scanner in) {
        int coin = in.nextInt();
        int distance = in.nextInt();
        return new Move(coin, distance);
    }

    public int getCoin() {
        return coin;
    }

    public int getDistance() {
        return distance;
    }
}
