import java.util.ArrayList;
import java.util.List;
import java.util.Scanner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calls the methods of a GameState one command at a time, so that each method can be
 * tested on its own. The reference answers the same protocol with
 * `python -m reference.flip --driver`.
 *
 * Protocol: one command per line on standard input. Each command prints one line, and a
 * command that changes the state a second one: the state it left (toString()), so that a
 * change is judged at the call that made it, not at a later call that observes it; a blank
 * line prints nothing. The program ends at `quit` or at the end of input, with status 0.
 *
 *   new LIST / LIST      new GameState(p1, p2)                -> ok, then the state
 *   random N             new GameState(N), 0 <= N <= 100      -> dice N1 N2 allFlippable B inRange B middleEmpty B
 *   flip V               flip(V)                              -> ok, then the state
 *   play V               play(V)                              -> ok, then the state
 *   take LIST            take(LIST)                           -> ok, then the state
 *   checkTake LIST       checkTake(LIST)                      -> true | false
 *   checkFlip LIST / V   checkFlip(LIST, V)                   -> true | false
 *   checkPlay LIST / V   checkPlay(LIST, V)                   -> true | false
 *   isWinning            isWinning()                          -> true | false
 *   switch               switchPlayers()                      -> ok, then the state
 *   show                 toString()                           -> the string returned
 *   quit                 ends the program, prints nothing
 *
 * LIST is zero or more tokens made of the digits 1-6, read digit by digit: "244" and
 * "2 4 4" are both {2, 4, 4}, and an empty LIST is an empty array. V is one digit 1-6.
 * N is 0 to 100. A "/" always counts as a token of its own ("checkFlip 12/6" is fine).
 * Tokens are separated by spaces or tabs; spaces around the line are ignored.
 *
 * `random N` reads the new state's toString() loosely (the + of an empty middle may be
 * missing) and prints only what is certain about random dice: how many dice each player
 * has, whether all are flippable, whether all values are 1-6, whether the middle is
 * empty. If toString() does not look like a state it prints `unreadable <the string>`.
 *
 * Errors in a command: `error unknown command`, `error bad arguments`, and
 * `error no state` for a method command before any new or random. The arguments are
 * checked before the state. When a GameState method or constructor throws, the line is
 * `exception <the exception's simple class name>` and the driver goes on with the next
 * command (a constructor that throws leaves no state).
 *
 * The reference also prints `undefined <reason>` for a call that breaks a "you may
 * assume" of the assignment (flipping a die player 1 does not have, taking dice that are
 * not in the middle, ...). A GameState may do anything there, so test scripts avoid it.
 */
public class GameStateDriver
{
   private static final String QUIT = new String("quit");
   private static final Pattern STATE = Pattern.compile(
      "([0-9]*)\\+([0-9]*)\\|([0-9]*)\\+?([0-9]*)\\|([0-9]*)\\+([0-9]*)");

   private GameState state;

   public static void main(String[] args)
   {
      Scanner in = new Scanner(System.in);
      GameStateDriver driver = new GameStateDriver();
      while (in.hasNextLine())
      {
         String reply = driver.execute(in.nextLine());
         if (reply == QUIT) return;
         if (reply != null)
         {
            System.out.println(reply);
            System.out.flush();
         }
      }
   }

   private static class BadArguments extends Exception
   {
   }

   /**
    * Runs one command line.
    * @return the line to print, null for nothing, or QUIT
    */
   public String execute(String line)
   {
      String text = line.trim();
      if (text.isEmpty()) return null;
      String[] tokens = text.replace("/", " / ").trim().split("[ \\t\\n\\x0B\\f\\r]+");
      String command = tokens[0];
      List<String> args = new ArrayList<String>();
      for (int i = 1; i < tokens.length; i++) args.add(tokens[i]);

      int[] values = null;
      int value = 0;
      try
      {
         switch (command)
         {
            case "quit":
               if (!args.isEmpty()) throw new BadArguments();
               return QUIT;
            case "new":
            {
               int slash = slash(args);
               int[] p1 = list(args.subList(0, slash));
               int[] p2 = list(args.subList(slash + 1, args.size()));
               state = null;
               try
               {
                  state = new GameState(p1, p2);
                  return changed();
               }
               catch (Throwable e)
               {
                  return exception(e);
               }
            }
            case "random":
            {
               if (args.size() != 1 || !args.get(0).matches("[0-9]{1,3}")) throw new BadArguments();
               int n = Integer.parseInt(args.get(0));
               if (n > 100) throw new BadArguments();
               state = null;
               try
               {
                  state = new GameState(n);
                  return summary(String.valueOf(state.toString()));
               }
               catch (Throwable e)
               {
                  return exception(e);
               }
            }
            case "flip":
            case "play":
               value = value(args);
               break;
            case "take":
            case "checkTake":
               if (args.contains("/")) throw new BadArguments();
               values = list(args);
               break;
            case "checkFlip":
            case "checkPlay":
            {
               int slash = slash(args);
               values = list(args.subList(0, slash));
               value = value(args.subList(slash + 1, args.size()));
               break;
            }
            case "isWinning":
            case "switch":
            case "show":
               if (!args.isEmpty()) throw new BadArguments();
               break;
            default:
               return "error unknown command";
         }
      }
      catch (BadArguments e)
      {
         return "error bad arguments";
      }

      if (state == null) return "error no state";
      try
      {
         switch (command)
         {
            case "flip": state.flip(value); return changed();
            case "play": state.play(value); return changed();
            case "take": state.take(values); return changed();
            case "switch": state.switchPlayers(); return changed();
            case "checkTake": return "" + state.checkTake(values);
            case "checkFlip": return "" + state.checkFlip(values, value);
            case "checkPlay": return "" + state.checkPlay(values, value);
            case "isWinning": return "" + state.isWinning();
            default: return String.valueOf(state.toString()); // show
         }
      }
      catch (Throwable e)
      {
         return exception(e);
      }
   }

   /**
    * The reply to a call that changes the state: "ok", then the state it left (toString()) on
    * a line of its own, so that each change is seen at the call that made it.
    */
   private String changed()
   {
      try
      {
         return "ok\n" + String.valueOf(state.toString());
      }
      catch (Throwable e)
      {
         return "ok\n" + exception(e);
      }
   }

   private static String exception(Throwable e)
   {
      String name = e.getClass().getSimpleName();
      if (name.isEmpty()) name = e.getClass().getName();
      return "exception " + name;
   }

   /** The position of the only "/" among the arguments. */
   private static int slash(List<String> args) throws BadArguments
   {
      int first = args.indexOf("/");
      if (first < 0 || first != args.lastIndexOf("/")) throw new BadArguments();
      return first;
   }

   /** The digits of all tokens, each token made of the digits 1-6. */
   private static int[] list(List<String> tokens) throws BadArguments
   {
      String digits = "";
      for (String t : tokens)
      {
         if (!t.matches("[1-6]+")) throw new BadArguments();
         digits = digits + t;
      }
      int[] result = new int[digits.length()];
      for (int i = 0; i < result.length; i++) result[i] = digits.charAt(i) - '0';
      return result;
   }

   /** The value of exactly one token that is one digit 1-6. */
   private static int value(List<String> tokens) throws BadArguments
   {
      if (tokens.size() != 1 || !tokens.get(0).matches("[1-6]")) throw new BadArguments();
      return tokens.get(0).charAt(0) - '0';
   }

   /** What `random N` prints about the toString() of a fresh state. */
   private static String summary(String text)
   {
      Matcher m = STATE.matcher(text.replaceAll("\\s+", ""));
      if (!m.matches()) return "unreadable " + text;
      String all = "";
      for (int g = 1; g <= 6; g++) all = all + m.group(g);
      int n1 = m.group(1).length() + m.group(2).length();
      int n2 = m.group(5).length() + m.group(6).length();
      boolean allFlippable = m.group(2).isEmpty() && m.group(6).isEmpty();
      boolean middleEmpty = m.group(3).isEmpty() && m.group(4).isEmpty();
      return "dice " + n1 + " " + n2 + " allFlippable " + allFlippable
         + " inRange " + all.matches("[1-6]*") + " middleEmpty " + middleEmpty;
   }
}
