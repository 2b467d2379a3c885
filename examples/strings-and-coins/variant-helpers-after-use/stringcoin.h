// stringcoin.h
// Prototypes of the Strings and Coins functions.

#ifndef STRINGCOIN_H
#define STRINGCOIN_H

bool stringState(long long network, int pos);
void printNetwork(long long network);
int playerScore(long long network, int p);
void updateNetwork(long long &network, int pos, int p);

// extra functions
long long power10(int e);
bool coinDisconnected(long long network, int top);
bool allCut(long long network);

#endif
