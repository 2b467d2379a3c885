// Shared opening of the C++ attacks (the test puts it in front of each): re-run once with a
// marker argument, so the test can find every process the attack leaves.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>
static const char *TOKEN = "@TOKEN@";
static void mark(int argc, char **argv) {
    for (int i = 1; i < argc; i++) if (strcmp(argv[i], TOKEN) == 0) return;
    char *again[] = {argv[0], (char *) TOKEN, nullptr};
    execv("/proc/self/exe", again);
}
