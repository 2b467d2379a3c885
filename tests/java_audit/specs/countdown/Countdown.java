import java.util.Scanner;

/** Countdown: a pile of 7; each turn takes 1 or 2 from it (never more than is left) until it is
 *  empty; anything else is refused with `Illegal!` and asked again. */
public class Countdown {
    static final int PILE = 7;

    static boolean legal(int take, int left) {
        return take >= 1 && take <= 2 && take <= left;
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int left = PILE, turns = 0;
        String label = "Left: ";
        System.out.println("Pile: " + left);
        while (left > 0) {
            System.out.print("Take? ");
            System.out.flush();
            if (!in.hasNextLine()) System.exit(1);
            String line = in.nextLine().trim();
            int take;
            try {
                take = Integer.parseInt(line);
            } catch (NumberFormatException e) {
                take = -1;
            }
            if (!legal(take, left)) {
                System.out.println("Illegal!");
                continue;
            }
            left -= take;
            turns++;
            String shown = label + left;
            System.out.println(shown);
        }
        System.out.println("Empty after " + turns + " turns");
    }
}
