/*
 * mwutool: compare's statistics (lib/stats.h) for test scripts.  Each
 * line of standard input is two samples, "x1 x2 ... | y1 y2 ..."; each
 * output line is "U P EXACT" (%.17g), so e2e/compare_scipy can hold them
 * against scipy.stats.mannwhitneyu.  A malformed line ends with exit 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

#define MAXN 1000

/* the numbers of p up to '|' or the end; how many, -1 on junk */
static int numbers(char **p, double *v)
{
    int n = 0;
    for (;;) {
        while (**p == ' ' || **p == '\t')
            (*p)++;
        if (!**p || **p == '\n' || **p == '|')
            return n;
        char *end;
        double d = strtod(*p, &end);
        if (end == *p || n == MAXN)
            return -1;
        v[n++] = d;
        *p = end;
    }
}

int main(void)
{
    static double x[MAXN], y[MAXN];
    char line[65536];
    while (fgets(line, sizeof(line), stdin)) {
        char *p = line;
        int nx = numbers(&p, x);
        if (nx < 0 || *p != '|')
            return fprintf(stderr, "mwutool: bad line: %s", line), 1;
        p++;
        int ny = numbers(&p, y);
        struct mwu r;
        if (ny < 0 || stats_mwu(x, (size_t)nx, y, (size_t)ny, &r))
            return fprintf(stderr, "mwutool: bad line: %s", line), 1;
        printf("%.17g %.17g %d\n", r.u, r.p, r.exact);
    }
    return 0;
}
