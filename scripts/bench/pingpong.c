/*
 * Benchmark load for bench-linux: two processes hand one byte back and
 * forth over a pair of pipes for N seconds, so the scheduler switches
 * tasks (and the kernel writes sched events) as fast as it can.  Prints
 * the number of round trips.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    double secs = argc > 1 ? strtod(argv[1], NULL) : 5;
    int a[2], b[2];
    if (pipe(a) || pipe(b))
        return 1;
    pid_t child = fork();
    if (child == 0) {
        char c;
        close(a[1]);
        close(b[0]);
        while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1) {
        }
        _exit(0);
    }
    close(a[0]);
    close(b[1]);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long n = 0;
    char c = 'x';
    for (;;) {
        if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
            break;
        if (++n % 1024 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >= secs)
                break;
        }
    }
    close(a[1]);
    waitpid(child, NULL, 0);
    printf("%lu\n", n);
    return 0;
}
