import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The state of a Flip game, with the dice stored as sets of Die objects.
 * Player 1 is always the player whose turn it is.
 */
public class GameState
{
   private Set<Die> player1;
   private Set<Die> player2;
   private Set<Die> middle;
   private Die justPlayed; // one of the middle dice; may be null

   /**
    * Gives each player dice / 2 flippable dice with random values.
    * @param dice the total number of dice
    */
   public GameState(int dice)
   {
      Random generator = new Random();
      player1 = new HashSet<Die>();
      player2 = new HashSet<Die>();
      middle = new HashSet<Die>();
      for (int i = 0; i < dice / 2; i++)
         player1.add(new Die(generator.nextInt(6) + 1));
      for (int i = 0; i < dice / 2; i++)
         player2.add(new Die(generator.nextInt(6) + 1));
   }

   /**
    * Gives each player flippable dice with the given values.
    * @param player1DieValues the values of player 1's dice
    * @param player2DieValues the values of player 2's dice
    */
   public GameState(int[] player1DieValues, int[] player2DieValues)
   {
      player1 = new HashSet<Die>();
      player2 = new HashSet<Die>();
      middle = new HashSet<Die>();
      for (int v : player1DieValues) player1.add(new Die(v));
      for (int v : player2DieValues) player2.add(new Die(v));
   }

   /**
    * Flips a flippable die of player 1.
    * @param dieValue the value of the die to flip
    */
   public void flip(int dieValue)
   {
      Die d = find(player1, dieValue, true);
      d.setValue(7 - dieValue);
      d.setFlippable(false);
      justPlayed = null;
   }

   /**
    * Player 1 plays a die of player 2 into the middle.
    * @param dieValue the value of the die to play
    */
   public void play(int dieValue)
   {
      Die d = find(player2, dieValue, true);
      if (d == null) d = find(player2, dieValue, false);
      player2.remove(d);
      middle.add(d);
      justPlayed = d;
      for (Die mine : player1) mine.setFlippable(true);
   }

   /**
    * Moves dice from the middle to player 1's flippable dice.
    * @param dieValues the values of the dice to take
    */
   public void take(int[] dieValues)
   {
      for (int v : dieValues)
      {
         Die d = find(ordinaryMiddle(), v);
         middle.remove(d);
         d.setFlippable(true);
         player1.add(d);
      }
   }

   /**
    * Checks whether the dice can be taken from the middle.
    * @param dieValues the values of the dice to take
    * @return true if they are all in the middle and their sum is less than the
    * just played die
    */
   public boolean checkTake(int[] dieValues)
   {
      if (dieValues.length == 0) return true;
      if (justPlayed == null) return false;
      int sum = 0;
      for (int v : dieValues) sum += v;
      if (sum >= justPlayed.getValue()) return false;
      List<Die> available = ordinaryMiddle();
      for (int v : dieValues)
      {
         Die d = find(available, v);
         if (d == null) return false;
         available.remove(d);
      }
      return true;
   }

   public boolean checkFlip(int[] takenDieValues, int flippedDieValue)
   {
      if (!checkTake(takenDieValues)) return false;
      for (int v : takenDieValues)
         if (v == flippedDieValue) return true;
      return find(player1, flippedDieValue, true) != null;
   }

   public boolean checkPlay(int[] takenDieValues, int playedDieValue)
   {
      return checkTake(takenDieValues) && find(player2, playedDieValue) != null;
   }

   /**
    * Checks whether player 1 has won: player 2 has no dice and cannot take any.
    */
   public boolean isWinning()
   {
      if (!player2.isEmpty()) return false;
      if (justPlayed == null) return true;
      for (Die d : ordinaryMiddle())
         if (d.getValue() < justPlayed.getValue()) return false;
      return true;
   }

   public void switchPlayers()
   {
      Set<Die> temp = player1;
      player1 = player2;
      player2 = temp;
   }

   public String toString()
   {
      String result = values(player1, true) + "+" + values(player1, false) + "|";
      if (!middle.isEmpty())
      {
         result = result + values(ordinaryMiddle()) + "+";
         if (justPlayed != null) result = result + justPlayed.getValue();
      }
      result = result + "|" + values(player2, true) + "+" + values(player2, false);
      return result;
   }

   private List<Die> ordinaryMiddle()
   {
      List<Die> result = new ArrayList<Die>(middle);
      result.remove(justPlayed);
      return result;
   }

   private static Die find(Iterable<Die> dice, int value)
   {
      for (Die d : dice)
         if (d.getValue() == value) return d;
      return null;
   }

   private static Die find(Iterable<Die> dice, int value, boolean flippable)
   {
      for (Die d : dice)
         if (d.getValue() == value && d.isFlippable() == flippable) return d;
      return null;
   }

   private static String values(Iterable<Die> dice)
   {
      List<Integer> list = new ArrayList<Integer>();
      for (Die d : dice) list.add(d.getValue());
      Collections.sort(list);
      String result = "";
      for (int v : list) result = result + v;
      return result;
   }

   private static String values(Set<Die> dice, boolean flippable)
   {
      List<Die> selected = new ArrayList<Die>();
      for (Die d : dice)
         if (d.isFlippable() == flippable) selected.add(d);
      return values(selected);
   }
}
