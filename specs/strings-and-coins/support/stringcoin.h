// stringcoin.h -- the four functions of the Strings and Coins handout, declared exactly
// as the handout gives them. The function driver (driver.cpp) is compiled against this
// header and linked with the student's stringcoin.cpp.

#ifndef STRINGCOIN_H
#define STRINGCOIN_H

bool stringState(long long network, int pos);
void printNetwork(long long network);
int playerScore(long long network, int p);
void updateNetwork(long long &network, int pos, int p);

#endif
