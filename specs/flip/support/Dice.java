/**
 * A bag of dice values: a frequency table of the values 1 to 6.
 * The same value may occur several times.
 */
public class Dice
{
   private int[] counts = new int[7]; // counts[v] = how many dice show v; counts[0] is unused

   /**
    * Constructs an empty bag.
    */
   public Dice()
   {
   }

   /**
    * Constructs a bag holding the given values.
    * @param values die values, 1 to 6
    */
   public Dice(int[] values)
   {
      for (int v : values) add(v);
   }

   /**
    * Adds one die.
    * @param value its value, 1 to 6
    */
   public void add(int value)
   {
      counts[value]++;
   }

   /**
    * Adds all dice of another bag (the other bag is unchanged).
    * @param other the bag to add
    */
   public void addAll(Dice other)
   {
      for (int v = 1; v <= 6; v++) counts[v] += other.counts[v];
   }

   /**
    * Removes one die.
    * @param value its value; a die with this value must be in the bag
    */
   public void remove(int value)
   {
      if (counts[value] == 0)
         throw new IllegalArgumentException("No die with value " + value);
      counts[value]--;
   }

   /**
    * Gets the number of dice with a value.
    * @param value a value, 1 to 6
    * @return how many dice show it
    */
   public int count(int value)
   {
      return counts[value];
   }

   /**
    * Tells whether a die with a value is in the bag.
    * @param value a value, 1 to 6
    * @return true if at least one die shows it
    */
   public boolean contains(int value)
   {
      return counts[value] > 0;
   }

   /**
    * Tells whether all the given values are in the bag, counting repeats:
    * {4, 4} needs two dice showing 4.
    * @param values die values, 1 to 6
    * @return true if the bag holds them all
    */
   public boolean containsAll(int[] values)
   {
      int[] needed = new int[7];
      for (int v : values) needed[v]++;
      for (int v = 1; v <= 6; v++)
         if (needed[v] > counts[v]) return false;
      return true;
   }

   /**
    * Removes all dice.
    */
   public void clear()
   {
      counts = new int[7];
   }

   /**
    * Gets the number of dice.
    * @return the size of the bag
    */
   public int size()
   {
      int n = 0;
      for (int v = 1; v <= 6; v++) n += counts[v];
      return n;
   }

   /**
    * Tells whether the bag is empty.
    * @return true if it holds no die
    */
   public boolean isEmpty()
   {
      return size() == 0;
   }

   /**
    * Gets the sum of all values.
    * @return the sum
    */
   public int sum()
   {
      int s = 0;
      for (int v = 1; v <= 6; v++) s += v * counts[v];
      return s;
   }

   /**
    * Gets the values, in increasing order.
    * @return the digits of all values without separators, e.g. "244"
    */
   public String toString()
   {
      String result = "";
      for (int v = 1; v <= 6; v++)
         for (int i = 0; i < counts[v]; i++)
            result = result + v;
      return result;
   }
}
