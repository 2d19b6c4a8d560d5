/*
 * Many systrace command lines in one Windows process: Wine's process start
 * costs about a second, a conversion a few milliseconds, so check-windows
 * runs its --from-file conversions through this (the very cli_main of
 * systrace.exe, after the same plat_init).  Reads LIST: one run per line,
 * "NAME<TAB>ARG<TAB>ARG...", UTF-8; prints "NAME STATUS" per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"
#include "src/cli.h"

#define MAX_ARGS 32

int main(int argc, char **argv)
{
    plat_init(&argc, &argv);
    FILE *list = argc == 2 ? plat_fopen(argv[1], "rb") : NULL;
    if (!list) {
        fprintf(stderr, "usage: multi LIST (one tab-separated command line a line)\n");
        return 2;
    }
    char line[8192];
    while (fgets(line, sizeof(line), list)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *v[MAX_ARGS + 1];
        int n = 0;
        for (char *p = line; p && n < MAX_ARGS; n++) {
            v[n] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (n < 2)
            continue;
        v[n] = NULL;
        const char *name = v[0];
        v[0] = "systrace";
        int rc = cli_main(n, v);
        fflush(stderr);
        printf("%s %d\n", name, rc);
        fflush(stdout);
    }
    fclose(list);
    return 0;
}
