/**
 * A die of the Flip game: a value from 1 to 6 and whether it may be flipped.
 * Dice are compared by identity (equals and hashCode are not overridden), so a
 * Set&lt;Die&gt; can hold several dice showing the same value.
 */
public class Die
{
   private int value;
   private boolean flippable;

   /**
    * Constructs a flippable die.
    * @param value the value shown, 1 to 6
    */
   public Die(int value)
   {
      this.value = value;
      this.flippable = true;
   }

   /**
    * Gets the value shown.
    * @return the value, 1 to 6
    */
   public int getValue()
   {
      return value;
   }

   /**
    * Sets the value shown.
    * @param value the new value, 1 to 6
    */
   public void setValue(int value)
   {
      this.value = value;
   }

   /**
    * Tells whether this die may be flipped.
    * @return true if it is flippable
    */
   public boolean isFlippable()
   {
      return flippable;
   }

   /**
    * Marks this die as flippable or not.
    * @param flippable true if it may be flipped
    */
   public void setFlippable(boolean flippable)
   {
      this.flippable = flippable;
   }

   public String toString()
   {
      return "" + value;
   }
}
