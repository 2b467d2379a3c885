// driver.cpp -- calls the student's required functions one by one, as the handout's
// graders do, so each function is graded on its own through a transcript.
//
// Build: g++ -std=c++17 -Wall -Wextra -O2 -o driver driver.cpp stringcoin.cpp
//
// Protocol: one command per line on stdin, each answered on stdout; no prompt; exit 0 at
// end of input. Tokens are separated by white space; numbers are digits only (a network
// may have leading zeros and is read in decimal).
//   state NETWORK POS      -> "true" or "false"          (stringState)
//   score NETWORK P        -> the integer                (playerScore)
//   update NETWORK POS P   -> the new network, printed as cout << (long long),
//                             i.e. without leading zeros (updateNetwork)
//   print NETWORK          -> printNetwork's output
// With --prints-nothing NAME,NAME,... (the spec's run command gives the functions the handout
// says print nothing), whatever such a function writes to the terminal during the call (cout,
// printf, cerr alike: caught at file descriptors 1 and 2) is not shown as it came but told at
// the end of that command's answer: `ANSWER   <- updateNetwork printed "..."`. The answer line
// then differs from the reference's, so the output is charged to that function's item, even
// where extra lines are ignored.
// Anything else -> "?". That includes a wrong number of arguments and arguments outside
// the handout's assumptions (NETWORK not a proper encoding: at most 19 digits, digits
// 1-17 are 0 or 1, digits 18-19 are 0-6; POS not 1-17; P not 1 or 2; update of a string
// that is already cut): the student's functions are never called outside their contract.
// The reference answers the same protocol: python -m reference.strings_and_coins --driver

#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

// The handout's four prototypes, declared here rather than through stringcoin.h: the student's
// header is theirs (the handout lets them add prototypes to it), and this driver needs these alone.
bool stringState(long long network, int pos);
void printNetwork(long long network);
int playerScore(long long network, int p);
void updateNetwork(long long &network, int pos, int p);

namespace {

std::set<std::string> printsNothing;  // from --prints-nothing
const std::size_t kShown = 120;        // bytes of a silent function's output told in the answer

void flushAll() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
}

// What a function writes to the terminal while one call runs, caught at descriptors 1 and 2
// when the function must print nothing; otherwise nothing is caught.
class Catch {
  public:
    explicit Catch(const std::string &function) {
        if (printsNothing.count(function) == 0)
            return;
        flushAll();
        file_ = std::tmpfile();
        if (file_ == nullptr)
            return;
        saved_[0] = dup(1);
        saved_[1] = dup(2);
        dup2(fileno(file_), 1);
        dup2(fileno(file_), 2);
        function_ = function;
    }

    // Ends the catch; what it caught, told for the answer line ("" when nothing was printed).
    std::string told() {
        if (file_ == nullptr)
            return "";
        flushAll();
        dup2(saved_[0], 1);
        dup2(saved_[1], 2);
        close(saved_[0]);
        close(saved_[1]);
        std::rewind(file_);
        std::string text;
        int c;
        bool more = false;
        while ((c = std::fgetc(file_)) != EOF) {
            if (text.size() >= kShown) {
                more = true;
                break;
            }
            if (c == '\n')
                text += "\\n";
            else if (c == '"' || c == '\\')
                text += std::string("\\") + static_cast<char>(c);
            else if (c < 32 || c == 127)
                text += "?";
            else
                text += static_cast<char>(c);
        }
        bool any = !text.empty();
        std::fclose(file_);
        file_ = nullptr;
        if (!any)
            return "";
        return "   <- " + function_ + " printed \"" + text + (more ? "..." : "") + "\"";
    }

    ~Catch() { told(); }

  private:
    std::FILE *file_ = nullptr;
    int saved_[2] = {-1, -1};
    std::string function_;
};

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
        Catch caught("stringState");
        bool uncut = stringState(network, static_cast<int>(args[1]));
        std::string printed = caught.told();
        std::cout << (uncut ? "true" : "false") << printed << std::endl;
        return true;
    }
    if (command == "score" && args.size() == 2 && (args[1] == 1 || args[1] == 2)) {
        Catch caught("playerScore");
        int score = playerScore(network, static_cast<int>(args[1]));
        std::string printed = caught.told();
        std::cout << score << printed << std::endl;
        return true;
    }
    if (command == "update" && args.size() == 3 && posOk && (args[2] == 1 || args[2] == 2) &&
        digitAt(args[0], static_cast<int>(args[1])) == 1) {
        Catch caught("updateNetwork");
        updateNetwork(network, static_cast<int>(args[1]), static_cast<int>(args[2]));
        std::string printed = caught.told();
        std::cout << network << printed << std::endl;
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

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i++) {
        if (std::string(argv[i]) == "--prints-nothing") {
            std::istringstream names(argv[i + 1]);
            std::string name;
            while (std::getline(names, name, ','))
                printsNothing.insert(name);
        }
    }
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!answer(line))
            std::cout << "?" << std::endl;
    }
    return 0;
}
