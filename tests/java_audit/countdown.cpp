#include <iostream>
#include <string>
using namespace std;

// Countdown (as Countdown.java): a pile of 7; each turn takes 1 or 2 (never more than is left)
// until it is empty; anything else is refused with `Illegal!`. tests/test_audit.py audits it.
static const int PILE = 7;

bool legal(int take, int left) {
    return take >= 1 && take <= 2 && take <= left;
}

int main(int argc, char** argv) {
    int left = PILE, turns = 0;
    string label = "Left: ";
    cout << "Pile: " << left << endl;
    while (left > 0) {
        cout << "Take? " << flush;
        string line;
        if (!getline(cin, line)) return 1;
        int take;
        try {
            take = stoi(line);
        } catch (...) {
            take = -1;
        }
        if (!legal(take, left)) {
            cout << "Illegal!" << endl;
            continue;
        }
        left -= take;
        turns++;
        string shown = label + to_string(left);
        cout << shown << endl;
    }
    cout << "Empty after " << turns << " turns" << endl;
    return 0;
}
