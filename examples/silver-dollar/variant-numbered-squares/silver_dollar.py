"""Silver Dollar Game: two players take turns sliding coins left on a strip."""
import random

MAX_GAP = 6


def new_strip(num_coins):
    """Return the squares of a random strip's coins, left to right (never already finished)."""
    while True:
        coins = []
        previous = -1  # the left edge
        for _ in range(num_coins):
            previous = previous + random.randint(1, MAX_GAP)
            coins.append(previous)
        if not game_over(coins):
            return coins


def is_legal(coins, coin, distance):
    if coin < 0 or coin >= len(coins) or distance < 1:
        return False
    target = coins[coin] - distance
    if target < 0:
        return False
    if coin > 0 and target <= coins[coin - 1]:
        return False
    return True


def game_over(coins):
    for i in range(len(coins)):
        if coins[i] != i:
            return False
    return True


def board(coins, length):
    # The strip after a label, each square two characters wide, the square numbers above it.
    squares = ["."] * length
    for i in range(len(coins)):
        squares[coins[i]] = str(i)
    label = "Coins:  "
    numbers = " " * len(label) + " ".join(str(n).rjust(2) for n in range(length))
    return numbers + "\n" + label + " ".join(s.rjust(2) for s in squares)


def main():
    num_coins = int(input("Enter the number of coins: "))
    coins = new_strip(num_coins)
    length = coins[-1] + 1

    player = 1
    while True:
        print(board(coins, length))
        coin, distance = map(int, input("Player " + str(player) + ": Enter your move: ").split())
        while not is_legal(coins, coin, distance):
            print("Illegal move! Try again.")
            coin, distance = map(int, input("Player " + str(player) + ": Enter your move: ").split())
        coins[coin] -= distance
        if game_over(coins):
            print(board(coins, length))
            print("Player " + str(player) + " wins!")
            break
        player = 2 if player == 1 else 1


main()
