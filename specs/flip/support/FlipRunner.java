import java.util.Random;
import java.util.Scanner;

/**
 * Plays Flip between two people at one keyboard with your GameState class.
 *
 * Usage: java FlipRunner [SEED]
 * Without SEED the start is new GameState(6). With SEED (a long) each player gets three
 * dice drawn with new Random(SEED), one nextInt(6) + 1 per die, player 1's three first,
 * and the start is new GameState(p1, p2).
 *
 * A move is one line: the taken dice, then f (flip) or p (play), then the value of the
 * die to flip or play, e.g. f2, p4 or 12f2. Surrounding spaces are ignored; any other
 * line, or a move that GameState.checkFlip / checkPlay rejects, prints "Illegal move."
 * and the same player moves again. A player without any legal move loses.
 */
public class FlipRunner
{
   public static void main(String[] args)
   {
      GameState state;
      if (args.length > 0)
      {
         Random generator = new Random(Long.parseLong(args[0]));
         int[] player1 = new int[3];
         int[] player2 = new int[3];
         for (int i = 0; i < player1.length; i++) player1[i] = generator.nextInt(6) + 1;
         for (int i = 0; i < player2.length; i++) player2[i] = generator.nextInt(6) + 1;
         state = new GameState(player1, player2);
      }
      else
      {
         state = new GameState(6);
      }

      Scanner in = new Scanner(System.in);
      System.out.println("Enter moves in the format");
      System.out.println("taken dice, followed by f (flip) or p (play) and the value of the die to flip or play");
      System.out.println("Examples: f2 or p4 or 12f2");
      System.out.println();

      int player = 1;
      while (true)
      {
         System.out.println("Game state: " + state);
         if (!hasLegalMove(state))
         {
            System.out.println("Player " + player + " has no legal move.");
            System.out.println("Player " + (3 - player) + " wins!");
            return;
         }
         System.out.print("Enter move for player " + player + ": ");
         System.out.flush();
         if (!in.hasNextLine()) System.exit(1);
         String move = in.nextLine().trim();
         if (!move.matches("[1-6]*[fp][1-6]"))
         {
            System.out.println("Illegal move.");
            continue;
         }
         int n = move.length();
         int[] taken = new int[n - 2];
         for (int i = 0; i < taken.length; i++) taken[i] = move.charAt(i) - '0';
         boolean flip = move.charAt(n - 2) == 'f';
         int value = move.charAt(n - 1) - '0';

         boolean legal = flip ? state.checkFlip(taken, value) : state.checkPlay(taken, value);
         if (!legal)
         {
            System.out.println("Illegal move.");
            continue;
         }
         state.take(taken);
         if (flip) state.flip(value);
         else state.play(value);
         if (state.isWinning())
         {
            System.out.println("Congratulations! You won.");
            return;
         }
         state.switchPlayers();
         player = 3 - player;
      }
   }

   /**
    * Tells whether player 1 has any legal move: some take (a sum below 6, since
    * no die shows more) followed by some flip or play.
    */
   private static boolean hasLegalMove(GameState state)
   {
      for (int[] taken : takes(new int[0], 1, 5))
         for (int value = 1; value <= 6; value++)
            if (state.checkFlip(taken, value) || state.checkPlay(taken, value))
               return true;
      return false;
   }

   /**
    * All lists that extend prefix with values from smallest up (ascending),
    * adding at most budget to the sum; prefix itself comes first.
    */
   private static java.util.List<int[]> takes(int[] prefix, int smallest, int budget)
   {
      java.util.List<int[]> result = new java.util.ArrayList<int[]>();
      result.add(prefix);
      for (int v = smallest; v <= budget; v++)
      {
         int[] longer = java.util.Arrays.copyOf(prefix, prefix.length + 1);
         longer[prefix.length] = v;
         result.addAll(takes(longer, v, budget - v));
      }
      return result;
   }
}
