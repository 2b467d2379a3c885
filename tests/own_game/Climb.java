import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Random;
import java.util.Scanner;

/** Climb: the start S is a die roll of 1-5 (a 6 is rolled again); each turn climbs 1 or 2 until
 *  the goal (10, or the first argument); anything else is refused with `Illegal!`.
 *  Reference flags: --seed N, --start-file P (exit 3: not a die roll; exit 4: a 6), --plan JSON. */
public class Climb {
    public static void main(String[] args) throws Exception {
        Long seed = null;
        String startFile = null, plan = null;
        int goal = 10;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--start-file": startFile = args[++i]; break;
                case "--plan": plan = args[++i]; break;
                default: goal = Integer.parseInt(args[i]);
            }
        }
        int start;
        if (startFile != null) {
            String text = new String(Files.readAllBytes(Paths.get(startFile)), "UTF-8").trim();
            if (!text.matches("[1-6]")) {
                System.out.println("Invalid start: " + text + " is not a die roll (1-6)");
                System.exit(3);
            }
            start = Integer.parseInt(text);
            if (start == 6) {
                System.out.println("Unplayable start: 6 is rolled again");
                System.exit(4);
            }
        } else {
            Random random = seed == null ? new Random() : new Random(seed);
            do { start = random.nextInt(6) + 1; } while (start == 6);
        }
        if (plan != null) {
            if (!plan.contains("\"ones\"")) {
                System.err.println("unknown strategy: " + plan);
                System.exit(2);
            }
            for (int at = start; at < goal; at++) System.out.println("1");
            return;
        }
        System.out.println("Start: " + start);
        Scanner in = new Scanner(System.in);
        int at = start, steps = 0;
        while (at < goal) {
            System.out.print("Step? ");
            System.out.flush();
            if (!in.hasNextLine()) System.exit(1);
            String line = in.nextLine().trim();
            if (!line.equals("1") && !line.equals("2")) {
                System.out.println("Illegal!");
                continue;
            }
            at += Integer.parseInt(line);
            steps++;
            System.out.println("At " + at);
        }
        System.out.println("Done in " + steps + " steps");
    }
}
