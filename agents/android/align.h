/*
 * Aligning an app's method trace with the atrace capture it was recorded
 * during (method-trace-format.md §11, docs/app-profile.md).
 *
 * Method-trace times are the app's clock in µs: CLOCK_MONOTONIC for ART,
 * CLOCK_REALTIME epoch µs for Dalvik (told apart by magnitude, §4).
 * ftrace timestamps are the kernel trace clock.  atrace writes, when it
 * starts, `trace_event_clock_sync: parent_ts=<mono s as a float>` and
 * `realtime_ts=<ms>` through trace_marker; their ftrace timestamps give a
 * first estimate of  ftrace_us = app_us + offset.  The estimate is then
 * refined by pairing the app's Trace.beginSection/traceBegin calls with
 * the same thread's `B|pid|name` lines: the offset where most pairs agree
 * (a densest-window vote, robust to B lines of native code and to calls
 * whose line is missing), then the median of the pairs near it; the
 * residual is their median absolute deviation.
 *
 * Memory is bounded: at most ALIGN_MAX_EVENTS events per set and
 * ALIGN_MAX_PAIRS candidate pairs; later ones are dropped and counted.
 */
#ifndef SYSTRACE_ALIGN_H
#define SYSTRACE_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#define ALIGN_MAX_EVENTS 100000u
#define ALIGN_MAX_PAIRS 1000000u
#define ALIGN_TOLERANCE_US 200      /* pairs this close to the vote agree */

/* ---- one ftrace line (align_line.c) ---------------------------------- */

enum align_kind {
    ALIGN_L_OTHER = 0,
    ALIGN_L_BEGIN,          /* tracing_mark_write: B|pid|name */
    ALIGN_L_PARENT_TS,      /* trace_event_clock_sync: parent_ts=F */
    ALIGN_L_REALTIME_TS,    /* trace_event_clock_sync: realtime_ts=N */
};

struct align_line {
    enum align_kind kind;
    int64_t ts_us;          /* the line's ftrace timestamp */
    int64_t tid;            /* the writing thread (task field) */
    int64_t pid;            /* B: the pid in the payload */
    double parent_s;        /* PARENT_TS */
    int64_t realtime_ms;    /* REALTIME_TS */
};

/* Parse an ftrace text line (without its LF; any bytes).  Returns the
 * kind; ALIGN_L_OTHER for anything else, including malformed lines. */
enum align_kind align_parse_line(const char *p, size_t n, struct align_line *out);

/* ---- collected events -------------------------------------------------- */

struct align_ev {
    int64_t tid, ts_us;
};

struct align_set {
    struct align_ev *v;
    size_t n, cap;
    uint64_t dropped;       /* over ALIGN_MAX_EVENTS */
};

void align_set_init(struct align_set *s);
void align_set_free(struct align_set *s);
/* 0, or -1 when out of memory (the event is dropped and counted). */
int align_set_add(struct align_set *s, int64_t tid, int64_t ts_us);

/* The clock-sync markers seen in the ftrace text (first of each). */
struct align_marks {
    int have_parent, have_realtime;
    double parent_s;
    int64_t parent_line_us;
    int64_t realtime_ms;
    int64_t realtime_line_us;
};

/* Record a parsed line into marks / the B set (only B lines of `pid`,
 * or of every process when pid <= 0). */
void align_note_line(const struct align_line *l, int64_t pid,
                     struct align_marks *m, struct align_set *begins);

/* ---- the math -------------------------------------------------------------- */

enum align_basis { ALIGN_NONE, ALIGN_PARENT_TS, ALIGN_REALTIME_TS };

struct align_estimate {
    enum align_basis basis;
    int64_t offset_us;      /* ftrace_us = app_us + offset_us */
    int64_t window_us;      /* how wrong the estimate may be */
};

/* First estimate for a method trace whose header start time is start_us.
 * basis ALIGN_NONE when the needed marker is missing. */
void align_estimate(const struct align_marks *m, int64_t start_us, struct align_estimate *out);

/* Float rounding of atrace's parent_ts (a 32-bit float printed with %f):
 * half a unit in the last place, in µs, plus the %f rounding. */
int64_t align_float_error_us(double parent_s);

struct align_result {
    int refined;            /* 1: offset from matched sections */
    int64_t offset_us;      /* the offset to use */
    int64_t correction_us;  /* offset - estimate */
    double residual_us;     /* median absolute deviation of the pairs */
    size_t matched;         /* method calls paired with a B line */
    size_t calls;           /* method calls considered */
    int unbounded;          /* found outside the estimate's window */
};

/* Refine est with the app's Trace-begin calls (tid, app µs) and the B
 * lines (tid, ftrace µs); both sets are sorted in place.  With basis
 * ALIGN_NONE every pair on a thread is a candidate (bounded).  Needs at
 * least min_matched pairs, a fifth of the calls, and a residual within a
 * quarter of ALIGN_TOLERANCE_US (chance pairs spread over all of it),
 * else refined = 0, matched = 0 and offset = the estimate.
 * When the window holds too few, the whole range is searched once and
 * accepted if at least half the calls pair up (a clock the markers do
 * not describe); matched then counts the failed windowed attempt as 0. */
void align_refine(struct align_set *calls, struct align_set *begins,
                  const struct align_estimate *est, size_t min_matched,
                  struct align_result *out);

/* ---- does it belong to this capture ------------------------------------- */

/* How far past the capture's first/last ftrace event an aligned method
 * trace may reach: a profile runs inside the capture (am profile start
 * after atrace starts, stop before it stops), so anything well outside is
 * a trace of another session or a clock nobody described. */
#define ALIGN_SLACK_US 2000000

/* Where a method trace spanning [lo, hi] app µs lands against the
 * capture's ftrace events [flo, fhi] µs once shifted by offset: 0 inside
 * (within ALIGN_SLACK_US), else by how much it misses: negative, its
 * start before the capture's; positive, its end after the capture's (its
 * start, when all of it comes after). */
int64_t align_outside(int64_t lo, int64_t hi, int64_t offset, int64_t flo, int64_t fhi);

#endif
