// Eight children of 300 MB each: far past a 1 GiB limit for the tree, within 2 GB per process.
int main(int argc, char **argv) {
    mark(argc, argv);
    const size_t size = 300u << 20;
    for (int i = 0; i < 8; i++) {
        if (fork() == 0) {
            FILE *adj = fopen("/proc/self/oom_score_adj", "w");  // the kernel takes children first
            if (adj) { fputs("1000", adj); fclose(adj); }
            volatile char *block = (volatile char *) malloc(size);
            if (!block) _exit(2);
            for (size_t at = 0; at < size; at += 4096) block[at] = 1;  // every page really used
            sleep(1);
            _exit(0);
        }
    }
    int held = 0, killed = 0, status;
    while (wait(&status) > 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) held++;
        else if (WIFSIGNALED(status)) killed++;
    }
    printf("held %d killed %d\n", held, killed);
    fflush(stdout);
    char line[100];
    return fgets(line, sizeof line, stdin) ? 0 : 1;
}
