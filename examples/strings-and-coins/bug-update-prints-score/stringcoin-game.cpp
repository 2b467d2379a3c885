// stringcoin-game.cpp
// Program flow of the Strings and Coins game.

#include <iostream>
#include "stringcoin.h"
using namespace std;

int main() {
    long long network = 1111111111111111100LL;
    int player = 1;
    while (true) {
        printNetwork(network);
        int pos;
        while (true) {
            cout << "Player " << player << "'s move (1-17): ";
            if (!(cin >> pos))
                return 1;
            if (pos >= 1 && pos <= 17 && stringState(network, pos))
                break;
            cout << "Invalid. Try again!" << endl;
        }
        int before = playerScore(network, player);
        updateNetwork(network, pos, player);
        if (allCut(network))
            break;
        if (playerScore(network, player) == before)  // updateNetwork announces a score
            player = 3 - player;
    }
    printNetwork(network);
    int score1 = playerScore(network, 1);
    int score2 = playerScore(network, 2);
    if (score1 > score2)
        cout << "Player 1 wins!";
    else if (score2 > score1)
        cout << "Player 2 wins!";
    else
        cout << "Draw game!";
    return 0;
}
