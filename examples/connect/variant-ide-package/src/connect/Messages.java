package connect;

/**
 * Text printed in more than one place.
 */
public class Messages {
    /** Printed when the players quit or decline another game. */
    public static final String GOODBYE = "\n\nThank you for playing today.  Good bye!";
}
