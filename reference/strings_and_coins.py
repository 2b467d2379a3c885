"""Strings and Coins: the reference for the C++ handout (stringcoin.cpp, stringcoin-game.cpp).

The whole game state is one integer, as in the handout: digit d_i (i = 1..17, counted
from the left of 19 digits) is 1 while string i is uncut, d18 and d19 are the scores of
players 1 and 2. The rule functions mirror the C++ functions the students write, so
tests and mutants can call them directly:

    string_state(network, pos)      -> bool   (stringState)
    player_score(network, p)        -> int    (playerScore)
    update_network(network, pos, p) -> int    (updateNetwork; returns the new network)
    print_network(network)          -> str    (printNetwork's output)

Modes:
    python -m reference.strings_and_coins                   play from the full network
    python -m reference.strings_and_coins --start NETWORK   play from NETWORK, player 1 to move
    python -m reference.strings_and_coins --driver          the function-driver protocol
"""
import argparse
import re
import sys

from reference import console, options

STRINGS = 17
FULL_NETWORK = 1111111111111111100  # 17 uncut strings, both scores 0
LIMIT = 10**19  # a network has at most 19 digits

# Each coin by its four strings (top, left, right, bottom).
COINS = (
    (1, 4, 5, 8),
    (2, 5, 6, 9),
    (3, 6, 7, 10),
    (8, 11, 12, 15),
    (9, 12, 13, 16),
    (10, 13, 14, 17),
)

PROMPT = "Player {}'s move (1-17): "
INVALID = "Invalid. Try again!"
EXTRA_TURN = "Player {} scores! Gets extra turn."


def digit(network: int, i: int) -> int:
    """d_i of the 19-digit encoding (i = 1..19), i.e. (network / 10^(19-i)) % 10."""
    return network // 10 ** (19 - i) % 10


def string_state(network: int, pos: int) -> bool:
    """True while string `pos` is uncut."""
    return digit(network, pos) == 1


def player_score(network: int, p: int) -> int:
    """Score of player p: d18 for player 1, d19 for player 2."""
    return digit(network, 17 + p)


def coin_free(network: int, coin: tuple) -> bool:
    """A coin is disconnected once all four of its strings are cut."""
    return not any(string_state(network, s) for s in coin)


def update_network(network: int, pos: int, p: int) -> int:
    """Player p cuts string pos (assumed uncut); each coin this frees scores one point."""
    network -= 10 ** (19 - pos)
    freed = sum(1 for coin in COINS if pos in coin and coin_free(network, coin))
    return network + freed * (10 if p == 1 else 1)


def strings_left(network: int) -> int:
    return sum(1 for pos in range(1, STRINGS + 1) if string_state(network, pos))


def print_network(network: int) -> str:
    """What the handout's provided printNetwork prints (every line ends with a newline)."""
    def vertical(pos):
        return "|" if string_state(network, pos) else " "

    def horizontal(pos):
        return "--" if string_state(network, pos) else "  "

    lines = ["*" * 13]
    for i in (1, 8, 15):
        lines.append("*  " + "  ".join(vertical(i + k) for k in range(3)) + "  *")
        if i < 15:
            lines.append("*" + "$".join(horizontal(i + k) for k in range(3, 7)) + "*")
    lines.append("*" * 13)
    lines.append(f"Player 1 score: {player_score(network, 1)}")
    lines.append(f"Player 2 score: {player_score(network, 2)}")
    return "\n".join(lines) + "\n"


def result_line(network: int) -> str:
    one, two = player_score(network, 1), player_score(network, 2)
    if one > two:
        return "Player 1 wins!"
    if two > one:
        return "Player 2 wins!"
    return "Draw game!"


def encoding_problem(network: int):
    """Why `network` is not a proper encoding (the handout's assumption (a)), or None."""
    if not 0 <= network < LIMIT:
        return "a network has at most 19 digits"
    for i in range(1, STRINGS + 1):
        if digit(network, i) > 1:
            return f"digit {i} (string {i}) must be 0 or 1"
    for p in (1, 2):
        if player_score(network, p) > 6:
            return f"player {p}'s score (digit {17 + p}) must be 0-6"
    return None


def parse_number(token: str):
    """A decimal token of digits only (leading zeros allowed), or None."""
    if not re.fullmatch(r"[0-9]+", token):
        return None
    return int(token)


def parse_start(text: str) -> int:  # audit: reference-only (--start)
    """The network for --start, or ValueError with the reason it cannot be played."""
    network = parse_number(text.strip())
    if network is None:
        raise ValueError(f"{text!r} is not a decimal network (digits only, leading zeros allowed)")
    problem = encoding_problem(network)
    if problem:
        raise ValueError(problem)
    if strings_left(network) == 0:
        raise ValueError("no string is left to cut")
    freed = sum(1 for coin in COINS if coin_free(network, coin))
    scores = player_score(network, 1) + player_score(network, 2)
    if scores != freed:
        raise ValueError(f"the scores add up to {scores} but {freed} coin(s) are disconnected")
    return network


# ---------------------------------------------------------------- the game


def play(scanner: console.Scanner, network: int) -> None:
    """The handout's program flow from `network` with player 1 to move."""
    player = 1
    while True:
        console.write(print_network(network))
        while True:
            console.write(PROMPT.format(player))
            pos = scanner.next_int()
            if 1 <= pos <= STRINGS and string_state(network, pos):
                break
            console.println(INVALID)
        before = player_score(network, player)
        network = update_network(network, pos, player)
        if strings_left(network) == 0:
            break  # the final cut: no "scores!" line, even when it scores
        if player_score(network, player) > before:
            console.println(EXTRA_TURN.format(player))
        else:
            player = 3 - player
    console.write(print_network(network))
    console.write(result_line(network))  # no newline after the last line


# ---------------------------------------------------------------- the driver
# audit: begin reference-only (driver.cpp: the course's support program, which calls the student's functions)


def _proper(network, pos=1, p=1) -> bool:
    """The handout's assumptions: (a) a proper network, (b) pos is 1-17, (c) p is 1 or 2."""
    return encoding_problem(network) is None and 1 <= pos <= STRINGS and p in (1, 2)


def driver_answer(line: str) -> str:
    """One command of the function-driver protocol -> its answer (with the final newline).

    Commands (tokens separated by ASCII white space, numbers are digits only):
      state NETWORK POS     -> true / false
      score NETWORK P       -> the score
      update NETWORK POS P  -> the new network in decimal without leading zeros
      print NETWORK         -> printNetwork's output
    Anything else, a wrong number of arguments, or arguments outside the handout's
    assumptions (not a proper network, POS not 1-17, P not 1/2, `update` on a cut
    string) -> `?`.
    """
    words = [w for w in re.split(r"[ \t\n\v\f\r]+", line) if w]
    if not words:
        return "?\n"
    command, args = words[0], [parse_number(w) for w in words[1:]]
    if None in args:
        return "?\n"
    if command == "state" and len(args) == 2 and _proper(args[0], pos=args[1]):
        return ("true" if string_state(*args) else "false") + "\n"
    if command == "score" and len(args) == 2 and _proper(args[0], p=args[1]):
        return f"{player_score(*args)}\n"
    if command == "update" and len(args) == 3 and _proper(*args) and string_state(args[0], args[1]):
        return f"{update_network(*args)}\n"
    if command == "print" and len(args) == 1 and _proper(args[0]):
        return print_network(args[0])
    return "?\n"


def drive(scanner: console.Scanner) -> None:
    while True:
        try:
            line = scanner.next_line()
        except console.EndOfInput:
            return
        console.write(driver_answer(line))


# audit: end reference-only

# ---------------------------------------------------------------- command line


def main(argv=None) -> int:
    console.setup_stdout()
    # audit: begin reference-only (the harness's flags: --start, --driver)
    parser = argparse.ArgumentParser(
        prog="python -m reference.strings_and_coins", description="Strings and Coins (reference)"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--start",
        metavar="NETWORK",
        help="begin from this network (the 19-digit integer, leading zeros allowed), player 1 to move",
    )
    mode.add_argument(
        "--driver", action="store_true", help="answer function-driver commands instead of playing"
    )
    args = parser.parse_args(argv)
    # audit: end reference-only

    scanner = console.Scanner()
    if args.driver:
        drive(scanner)
        sys.stdout.flush()
        return 0

    network = FULL_NETWORK
    if args.start is not None:  # audit: reference-only
        try:
            network = parse_start(args.start)
        except ValueError as reason:
            return options.invalid_start(reason)
    try:
        play(scanner, network)
    except (console.EndOfInput, ValueError):
        # End of input, or a token that is not an int (the handout assumes integers):
        # the C++ sample's `cin >> pos` fails there and it returns 1.
        sys.stdout.flush()
        return 1
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
