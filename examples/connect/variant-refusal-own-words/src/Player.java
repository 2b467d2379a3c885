/**
 * A player of the Connect game: name, piece symbol and win/loss/draw counts.
 */
public class Player {

    /** Width of the name column in the stats table */
    public static final int NAME_WIDTH = 12;

    private String name;
    private char piece;
    private int win;
    private int loss;
    private int draw;

    /**
     * Creates a player with no games played yet.
     *
     * @param name the player's name
     * @param piece the player's symbol on the board
     */
    public Player(String name, char piece) {
        this.name = name;
        this.piece = piece;
        this.win = 0;
        this.loss = 0;
        this.draw = 0;
    }

    public String getName() {
        return name;
    }

    public char getPiece() {
        return piece;
    }

    public int getWins() {
        return win;
    }

    public int getLosses() {
        return loss;
    }

    public int getDraws() {
        return draw;
    }

    public void addWin() {
        win++;
    }

    public void addLoss() {
        loss++;
    }

    public void addDraw() {
        draw++;
    }

    /**
     * Prints the player's name and win, loss and draw counts as one row of the stats table.
     */
    public void printStats() {
        System.out.printf("%-" + NAME_WIDTH + "s ", name + ": ");
        System.out.printf("%4d%8d%8d\n", win, loss, draw);
    }
}
