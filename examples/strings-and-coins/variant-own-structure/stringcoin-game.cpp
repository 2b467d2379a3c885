// stringcoin-game.cpp -- the game loop written another way: a turn function and a do-while.
#include <iostream>
#include "stringcoin.h"
using namespace std;

// Asks the current player until a string still uncut is chosen; returns it, or 0 at end of input.
static int askPosition(long long network, int player) {
    int chosen = 0;
    bool ok = false;
    do {
        cout << "Player " << player << "'s move (1-17): ";
        if (!(cin >> chosen))
            return 0;
        ok = chosen >= 1 && chosen <= 17 && stringState(network, chosen);
        if (!ok)
            cout << "Invalid. Try again!" << endl;
    } while (!ok);
    return chosen;
}

int main() {
    long long network = 1111111111111111100LL;
    int current = 1;
    bool over = false;
    while (!over) {
        printNetwork(network);
        int pos = askPosition(network, current);
        if (pos == 0)
            return 1;
        int scoreBefore = playerScore(network, current);
        updateNetwork(network, pos, current);
        over = allCut(network);
        if (!over) {
            if (playerScore(network, current) == scoreBefore)
                current = (current == 1) ? 2 : 1;
            else
                cout << "Player " << current << " scores! Gets extra turn." << endl;
        }
    }
    printNetwork(network);
    int one = playerScore(network, 1), two = playerScore(network, 2);
    cout << (one > two ? "Player 1 wins!" : two > one ? "Player 2 wins!" : "Draw game!");
    return 0;
}
