/*
 * Benchmark of the trace summary alone (issue 23's cost goal): inflates an
 * `atrace -z` file (after "TRACE:\n") 512 KiB at a time, as the
 * conversion's writes come, and feeds each piece to the summary as the
 * page's ftrace part; only the summary's own CPU time is counted (the
 * thread's clock around each feed), best of REPEAT.  The conversion's
 * time with and without the summary is noisy on a busy machine; this
 * number is not.  make bench (scripts/bench/run.py) builds and runs it.
 *
 *   sumfeed FILE [REPEAT]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "formats/summary/summary.h"

#define PIECE (512u << 10)

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One pass: the summary's CPU seconds; *events what it counted. */
static double pass(FILE *f, unsigned char *in, unsigned char *out, unsigned long long *events)
{
    rewind(f);
    size_t n = fread(in, 1, PIECE, f);
    unsigned char *m = n > 7 ? memmem(in, n, "TRACE:\n", 7) : NULL;
    size_t skip = m ? (size_t)(m - in) + 7 : 0;
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK)
        exit(1);
    struct summary *s = summary_new();
    if (!s)
        exit(1);
    summary_begin_part(s, "systemTraceEvents");
    double t = 0;
    int r = Z_OK;
    z.next_in = in + skip;
    z.avail_in = (uInt)(n - skip);
    while (r != Z_STREAM_END) {
        if (!z.avail_in) {
            if (!(n = fread(in, 1, PIECE, f)))
                break;
            z.next_in = in;
            z.avail_in = (uInt)n;
        }
        z.next_out = out;
        z.avail_out = PIECE;
        r = inflate(&z, Z_NO_FLUSH);
        if (r != Z_OK && r != Z_STREAM_END)
            exit(1);
        double a = cpu_now();
        summary_feed(s, out, PIECE - z.avail_out);
        t += cpu_now() - a;
    }
    double a = cpu_now();
    summary_end_part(s);
    if (summary_finish(s))
        exit(1);
    t += cpu_now() - a;
    *events = summary_totals(s)->events;
    summary_free(s);
    inflateEnd(&z);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sumfeed FILE [REPEAT]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    int reps = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
    unsigned char *in = malloc(PIECE), *out = malloc(PIECE);
    if (!in || !out)
        return 1;
    double best = 0;
    unsigned long long events = 0;
    for (int i = 0; i < (reps > 0 ? reps : 1); i++) {
        double t = pass(f, in, out, &events);
        if (!i || t < best)
            best = t;
    }
    printf("%.4f %llu\n", best, events);
    free(in);
    free(out);
    fclose(f);
    return 0;
}
