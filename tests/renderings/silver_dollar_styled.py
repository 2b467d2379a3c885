"""A Silver Dollar program whose board printer and wording take a style, as students' do.

The test writes STYLE (and BUG) at the top of a copy: every style is a drawing a person reads as
the strip, with wording the handout gives only "for example". BUG seeds one rule bug.
"""
import random

STYLE = {}  # replaced by the test
BUG = None  # replaced by the test: None, "pass-neighbour", "wrong-winner", "reprint-board"


def new_strip(count):
    while True:
        coins, previous = [], -1
        for _ in range(count):
            previous += random.randint(1, 6)
            coins.append(previous)
        if coins != list(range(count)):
            return coins


def legal(coins, coin, distance):
    if not 0 <= coin < len(coins) or distance < 1:
        return False
    target = coins[coin] - distance
    if target < 0:
        return False
    if BUG == "pass-neighbour":
        return coin == 0 or target not in coins
    return coin == 0 or target > coins[coin - 1]


def cell(text, width):
    return text.center(width)


def draw(coins, length):
    squares = [STYLE["empty"]] * length
    for number, square in enumerate(coins):
        squares[square] = str(number)
    width = STYLE.get("width", 1)
    kind = STYLE["board"]
    lines = []
    if kind == "line":
        body = STYLE.get("sep", " ").join(cell(s, width) for s in squares)
        lines.append(STYLE.get("prefix", "") + body)
    elif kind == "brackets":
        lines.append(STYLE.get("sep", "").join("[" + cell(s, width) + "]" for s in squares))
    elif kind == "compact":
        lines.append("".join(squares))
    elif kind == "unicode":  # box-drawing characters
        lines.append("┌" + "┬".join("─" * width for _ in squares) + "┐")
        lines.append("│" + "│".join(cell(s, width) for s in squares) + "│")
        lines.append("└" + "┴".join("─" * width for _ in squares) + "┘")
    else:  # a box
        if STYLE.get("spaced"):  # `+ - - - +`
            segment = " " + " ".join("-" * ((width - 1) // 2)) + " "
        else:
            segment = "-" * width
        border = "+" + "+".join(segment for _ in squares) + "+"
        row = "|" + "|".join(cell(s, width) for s in squares) + "|"
        pad = "|" + "|".join(" " * width for _ in squares) + "|"
        lines.append(border)
        if STYLE.get("gap"):
            lines.append("")
        if STYLE.get("tall"):
            lines.append(pad)
        lines.append(row)
        if STYLE.get("tall"):
            lines.append(pad)
        if STYLE.get("gap"):
            lines.append("")
        lines.append(border)
    if STYLE.get("labels"):
        labels = STYLE.get("sep", " ").join(cell(str(i), width) for i in range(length))
        if kind == "box":
            labels = " " + " ".join(cell(str(i), width) for i in range(length))
        lines.insert(0, labels)
    return "\n".join(lines)


def ask(player):
    return input(STYLE["prompt"].format(player=player)).split()


def main():
    count = int(input("Enter the number of coins: "))
    coins = new_strip(count)
    length = coins[-1] + 1
    player = 1
    while True:
        print(draw(coins, length))
        coin, distance = map(int, ask(player))
        while not legal(coins, coin, distance):
            print(STYLE["illegal"].format(coin=coin))
            if BUG == "reprint-board":
                print(draw(coins, length))
            coin, distance = map(int, ask(player))
        coins[coin] -= distance
        if coins == list(range(count)):
            print(draw(coins, length))
            winner = player if BUG != "wrong-winner" else 3 - player
            print(STYLE["win"].format(player=winner, other=3 - winner))
            return
        player = 3 - player


main()
