import java.util.Random;

/**
 * The state of a Flip game, with the dice stored as bags of values.
 * Player 1 is always the player whose turn it is.
 */
public class GameState
{
   private Dice player1Flippable;
   private Dice player1Unflippable;
   private Dice player2Flippable;
   private Dice player2Unflippable;
   private Dice middle; // the middle dice other than the just played one
   private int justPlayed; // may be 0

   public GameState(int dice)
   {
      this(randomValues(dice / 2), randomValues(dice / 2));
   }

   public GameState(int[] player1DieValues, int[] player2DieValues)
   {
      player1Flippable = new Dice(player1DieValues);
      player1Unflippable = new Dice();
      player2Flippable = new Dice(player2DieValues);
      player2Unflippable = new Dice();
      middle = new Dice();
      justPlayed = 0;
   }

   private static int[] randomValues(int n)
   {
      Random generator = new Random();
      int[] values = new int[n];
      for (int i = 0; i < n; i++) values[i] = generator.nextInt(6) + 1;
      return values;
   }

   public void flip(int dieValue)
   {
      player1Flippable.remove(dieValue);
      player1Unflippable.add(7 - dieValue);
      if (justPlayed != 0) middle.add(justPlayed);
      justPlayed = 0;
   }

   public void play(int dieValue)
   {
      if (player2Flippable.contains(dieValue)) player2Flippable.remove(dieValue);
      else player2Unflippable.remove(dieValue);
      if (justPlayed != 0) middle.add(justPlayed);
      justPlayed = dieValue;
      player1Flippable.addAll(player1Unflippable);
      player1Unflippable.clear();
   }

   public void take(int[] dieValues)
   {
      for (int v : dieValues)
      {
         middle.remove(v);
         player1Flippable.add(v);
      }
   }

   public boolean checkTake(int[] dieValues)
   {
      if (dieValues.length == 0) return true;
      int sum = 0;
      for (int v : dieValues) sum += v;
      return sum < justPlayed && middle.containsAll(dieValues);
   }

   public boolean checkFlip(int[] takenDieValues, int flippedDieValue)
   {
      if (!checkTake(takenDieValues)) return false;
      if (player1Flippable.contains(flippedDieValue)) return true;
      for (int v : takenDieValues)
         if (v == flippedDieValue) return true;
      return false;
   }

   public boolean checkPlay(int[] takenDieValues, int playedDieValue)
   {
      return checkTake(takenDieValues)
         && (player2Flippable.contains(playedDieValue) || player2Unflippable.contains(playedDieValue));
   }

   public boolean isWinning()
   {
      if (!player2Flippable.isEmpty() || !player2Unflippable.isEmpty()) return false;
      for (int v = 1; v < justPlayed; v++)
         if (middle.contains(v)) return false;
      return true;
   }

   public void switchPlayers()
   {
      Dice temp = player1Flippable;
      player1Flippable = player2Flippable;
      player2Flippable = temp;
      temp = player1Unflippable;
      player1Unflippable = player2Unflippable;
      player2Unflippable = temp;
   }

   public String toString()
   {
      return player1Flippable + "+" + player1Unflippable + "|"
         + middle + "+" + (justPlayed == 0 ? "" : "" + justPlayed) + "|"
         + player2Flippable + "+" + player2Unflippable;
   }
}
