// driver.cpp -- calls the student's required functions one by one, as the handout's
// graders do, so each function is graded on its own through a transcript.
//
// Build: g++ -std=c++17 -Wall -Wextra -O2 -I <this folder> -o driver driver.cpp stringcoin.cpp
//
// Protocol: one command per line on stdin, each answered on stdout; no prompt; exit 0 at
// end of input. Tokens are separated by white space; numbers are digits only (a network
// may have leading zeros and is read in decimal).
//   state NETWORK POS      -> "true" or "false"          (stringState)
//   score NETWORK P        -> the integer                (playerScore)
//   update NETWORK POS P   -> the new network, printed as cout << (long long),
//                             i.e. without leading zeros (updateNetwork)
//   print NETWORK          -> printNetwork's output
// Anything else -> "?". That includes a wrong number of arguments and arguments outside
// the handout's assumptions (NETWORK not a proper encoding: at most 19 digits, digits
// 1-17 are 0 or 1, digits 18-19 are 0-6; POS not 1-17; P not 1 or 2; update of a string
// that is already cut): the student's functions are never called outside their contract.
// The reference answers the same protocol: python -m reference.strings_and_coins --driver

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "stringcoin.h"

namespace {

const unsigned long long kLimit = 10000000000000000000ULL;  // 10^19

// A token of decimal digits (leading zeros allowed) whose value is below 10^19.
bool parseNumber(const std::string &token, unsigned long long &value) {
    if (token.empty())
        return false;
    for (char c : token)
        if (c < '0' || c > '9')
            return false;
    std::string::size_type first = token.find_first_not_of('0');
    if (first == std::string::npos) {
        value = 0;
        return true;
    }
    if (token.size() - first > 19)
        return false;
    value = 0;
    for (std::string::size_type i = first; i < token.size(); i++)
        value = value * 10 + static_cast<unsigned long long>(token[i] - '0');
    return value < kLimit;
}

// d_i of the 19-digit encoding, computed here so a wrong stringState cannot mislead us.
int digitAt(unsigned long long network, int i) {
    for (int k = i; k < 19; k++)
        network /= 10;
    return static_cast<int>(network % 10);
}

bool properNetwork(unsigned long long network) {
    if (network >= kLimit)
        return false;
    for (int i = 1; i <= 17; i++)
        if (digitAt(network, i) > 1)
            return false;
    return digitAt(network, 18) <= 6 && digitAt(network, 19) <= 6;
}

// Handles one line; returns false when it is not a valid command ("?").
bool answer(const std::string &line) {
    std::istringstream in(line);
    std::string command;
    if (!(in >> command))
        return false;
    std::vector<unsigned long long> args;
    std::string token;
    while (in >> token) {
        unsigned long long value;
        if (!parseNumber(token, value))
            return false;
        args.push_back(value);
    }
    if (args.empty() || !properNetwork(args[0]))
        return false;
    long long network = static_cast<long long>(args[0]);
    bool posOk = args.size() >= 2 && args[1] >= 1 && args[1] <= 17;

    if (command == "state" && args.size() == 2 && posOk) {
        std::cout << (stringState(network, static_cast<int>(args[1])) ? "true" : "false") << std::endl;
        return true;
    }
    if (command == "score" && args.size() == 2 && (args[1] == 1 || args[1] == 2)) {
        std::cout << playerScore(network, static_cast<int>(args[1])) << std::endl;
        return true;
    }
    if (command == "update" && args.size() == 3 && posOk && (args[2] == 1 || args[2] == 2) &&
        digitAt(args[0], static_cast<int>(args[1])) == 1) {
        updateNetwork(network, static_cast<int>(args[1]), static_cast<int>(args[2]));
        std::cout << network << std::endl;
        return true;
    }
    if (command == "print" && args.size() == 1) {
        printNetwork(network);
        std::cout << std::flush;
        return true;
    }
    return false;
}

}  // namespace

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!answer(line))
            std::cout << "?" << std::endl;
    }
    return 0;
}
