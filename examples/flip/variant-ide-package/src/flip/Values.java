package flip;

/**
 * Helpers for arrays of die values.
 */
public class Values
{
   /** The sum of the values. */
   public static int sum(int[] values)
   {
      int sum = 0;
      for (int v : values) sum += v;
      return sum;
   }
}
