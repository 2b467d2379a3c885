// stringcoin.cpp
// Functions for the Strings and Coins game.

#include <iostream>
#include "stringcoin.h"
using namespace std;

// Returns true if the string in position pos is not cut yet.
bool stringState(long long network, int pos) {
    return network / power10(19 - pos) % 10 == 1;
}

// Provided function: prints the network and the scores.
void printNetwork(long long network) {
    cout << "*************" << endl;
    for (int i = 1; i <= 15; i += 7) {
        cout << "*";
        for (int j = i; j < i + 3; j++)
            cout << "  " << (stringState(network, j) ? "|" : " ");
        cout << "  *" << endl;
        if (i < 15) {
            cout << "*";
            for (int j = i + 3; j < i + 7; j++) {
                if (j > i + 3)
                    cout << "$";
                cout << (stringState(network, j) ? "--" : "  ");
            }
            cout << "*" << endl;
        }
    }
    cout << "*************" << endl;
    cout << "Player 1 score: " << playerScore(network, 1) << endl;
    cout << "Player 2 score: " << playerScore(network, 2) << endl;
}

// Returns the score of Player p (18th digit for Player 1, 19th digit for Player 2).
int playerScore(long long network, int p) {
    if (p == 1)
        return network / 10 % 10;
    return network % 10;
}

// Player p cuts the string in position pos. Every coin that gets disconnected
// gives Player p one point.
void updateNetwork(long long &network, int pos, int p) {
    network -= power10(19 - pos);
    int coins = 0;
    for (int row = 0; row < 2; row++) {
        for (int col = 0; col < 3; col++) {
            int top = row * 7 + col + 1;
            bool touches = pos == top || pos == top + 3 || pos == top + 4 || pos == top + 7;
            if (touches && coinDisconnected(network, top))
                coins++;
        }
    }
    if (p == 1)
        network += coins * 10;
    else
        network += coins;
}

// Returns true if all 17 strings are cut.
bool allCut(long long network) {
    for (int pos = 1; pos <= 17; pos++)
        if (stringState(network, pos))
            return false;
    return true;
}

// Helpers, declared in stringcoin.h so the functions above can call them.

// Returns 10 to the power of e (we cannot use pow() from <cmath>).
long long power10(int e) {
    long long result = 1;
    for (int i = 0; i < e; i++)
        result *= 10;
    return result;
}

// A coin is named by the string above it (1, 2, 3 or 8, 9, 10).
// Its four strings are top, top + 3 (left), top + 4 (right) and top + 7 (bottom).
bool coinDisconnected(long long network, int top) {
    return !stringState(network, top) && !stringState(network, top + 3) &&
           !stringState(network, top + 4) && !stringState(network, top + 7);
}
