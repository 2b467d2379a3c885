# Shared opening of the Python attacks (the test puts it in front of each): re-run once with a
# marker argument, so the test can find every process the attack leaves. `opening()` looks
# like the start of a Silver Dollar game, so the harness grades the run instead of drawing again.
import os, sys
TOKEN = "@TOKEN@"
if TOKEN not in sys.argv:
    os.execv(sys.executable, [sys.executable, "-S", os.path.abspath(__file__), TOKEN])


def opening():
    n = int(input("Enter the number of coins: "))
    print(" ".join(f"_ {i}" for i in range(n)))
    print("Player 1: Enter your move: ", end="", flush=True)

