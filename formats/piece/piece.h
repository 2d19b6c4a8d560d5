/*
 * What piece of a trace to keep: `--time-range`, `--process`, `--split`
 * and a Perfetto trace as the output (issue 35).  The command line
 * (src/piecearg.c) fills a struct piece_spec; the cutters below the
 * readers (text, trace events, Perfetto packets) apply it while they
 * stream, so one conversion keeps only its piece, or writes several.
 *
 * Times are nanoseconds.  A range relative to the trace (PIECE_REL)
 * counts from the trace's first event; PIECE_TS is in the trace's own
 * clock (ftrace's seconds, Perfetto's ns); PIECE_SLICE is found by name
 * (the Nth slice called so, with a margin each side), which needs a first
 * pass over the input.  An open end is INT64_MAX, an open start 0 (REL)
 * or INT64_MIN (TS).
 */
#ifndef SYSTRACE_PIECE_H
#define SYSTRACE_PIECE_H

#include <stddef.h>
#include <stdint.h>

enum piece_range { PIECE_ALL, PIECE_REL, PIECE_TS, PIECE_SLICE };

#define PIECE_PROCS_MAX 64
#define PIECE_SLICE_MAX 256

/* One --process entry: a pid, or a name (pid -1). */
struct piece_proc {
    int64_t pid;
    const char *name;       /* points into the command line; NULL for a pid */
};

struct piece_spec {
    enum piece_range range;
    int64_t start_ns, end_ns;       /* PIECE_REL, PIECE_TS */
    char slice[PIECE_SLICE_MAX];    /* PIECE_SLICE: the slice's name */
    unsigned slice_nth;             /* its Nth occurrence, from 1 */
    int64_t margin_ns;              /* PIECE_SLICE: kept before and after it */
    struct piece_proc procs[PIECE_PROCS_MAX];
    size_t nprocs;
    int deps;                       /* --process-and-deps: wakers, binder peers */
    uint64_t split_bytes;           /* --split=SIZE; 0: not by size */
    int64_t split_ns;               /* --split=DURATION; 0: not by time */
};

/* a + b held at the ends of int64_t: a range's times far past a trace's */
static inline int64_t piece_sat_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

/* A range whose end is not after its start (times far past a trace's
 * saturate to the same instant: those are outside it, not empty). */
static inline int piece_empty(const struct piece_spec *s)
{
    return (s->range == PIECE_REL || s->range == PIECE_TS) && s->end_ns <= s->start_ns;
}

/* Anything to cut at all (a range, processes or a split)? */
static inline int piece_active(const struct piece_spec *s)
{
    return s->range != PIECE_ALL || s->nprocs || s->split_bytes || s->split_ns;
}

#endif
