/*
 * The first pass of a cut: what a piece needs to know of the whole trace
 * before it cuts (formats/piece/piece.h).  It sees a converted trace's
 * parts (a tee of the page writer: ftrace text, process dumps, trace-event
 * JSON) and keeps, in bounded memory: the time of the first and last
 * event (ftrace text after the circular-buffer cut: a "##### CPU N buffer
 * started" line starts the count again, as the repair keeps only what
 * follows the last one), each thread's process, the processes' names and
 * how many events each has, who woke or called whom (--process-and-deps:
 * sched_waking and binder transactions), and the slice a
 * --time-range=slice: asks for.
 *
 * pscan_window then turns the command line's spec into absolute times and
 * a set of processes, or one line saying why it cannot (an empty range,
 * one outside the trace, an unknown process, no such slice).
 */
#ifndef SYSTRACE_PSCAN_H
#define SYSTRACE_PSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "piece.h"
#include "pmap.h"

struct pscan;

struct pscan *pscan_new(const struct piece_spec *spec);
void pscan_free(struct pscan *s);
/* A tee's calls (formats/html/tracewriter.h struct tw_tee). */
void pscan_begin(void *s, const char *part);
void pscan_write(void *s, const void *p, size_t n);
void pscan_end(void *s);
/* ST_ENOMEM if memory ran out (the scan is then not to be trusted). */
int pscan_failed(const struct pscan *s);

/* First and last event time (ns, the trace's own clock); 0 if none. */
int pscan_span(const struct pscan *s, int64_t *first, int64_t *last);
/* Payload bytes of ftrace text at each time, for --split=SIZE: the times
 * where each size bytes begin, n at most max; returns n. */
size_t pscan_size_bounds(const struct pscan *s, uint64_t size, int64_t *at, size_t max);

/* What to keep: [lo, hi) in the trace's clock, and processes (none: all). */
#define PIECE_OTHER_PID 4194304     /* above any pid (PID_MAX_LIMIT - 1) */
struct piece_window {
    int64_t lo, hi;
    int64_t pids[PIECE_PROCS_MAX * 8];
    size_t npids;
    int all;                    /* every process */
    int unordered;              /* ftrace text out of time order across threads */
    const struct imap *tgid;    /* a thread's process (the scan's) */
};
/* 0, or -1 with one line in err. */
int pscan_window(const struct pscan *s, const struct piece_spec *spec,
                 struct piece_window *w, char *err, size_t errlen);
/* Is a thread's process kept (tgid -1: look it up)? */
int piece_keeps(const struct piece_window *w, int64_t tid, int64_t tgid);

#endif
