// Leaves a daemon behind: double fork, a session of its own, then the program exits at once.
int main(int argc, char **argv) {
    mark(argc, argv);
    if (fork() == 0) {
        setsid();
        signal(SIGHUP, SIG_IGN);
        if (fork() == 0) {
            for (int i = 0; i < 60; i++) sleep(1);
            _exit(0);
        }
        _exit(0);
    }
    printf("Strings and coins\n");
    return 0;
}
