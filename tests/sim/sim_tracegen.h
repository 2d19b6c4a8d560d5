/*
 * Streaming generator of realistic ftrace text, as `atrace` dumps it
 * (TGID column "(-----)", 4 CPUs).  The text is produced in pieces by
 * tracegen_read(), never held whole, at hundreds of MB/s.  Processes and
 * threads come from the table in sim_ps.c.
 */
#ifndef ADBSIM_SIM_TRACEGEN_H
#define ADBSIM_SIM_TRACEGEN_H

#include <stddef.h>
#include <stdint.h>

struct sim_marker {
    uint64_t ts_ns;
    int pid;
    int cpu;
    char *text;         /* without trailing newline */
    const char *comm;   /* task name shown (static); NULL: "sh" */
};

/* Event groups a category switches on. */
enum {
    GEN_SCHED = 1u << 0,
    GEN_FREQ = 1u << 1,
    GEN_IDLE = 1u << 2,
    GEN_BINDER = 1u << 3,
    GEN_WORKQ = 1u << 4,
};

struct tracegen_cfg {
    uint64_t begin_ns, end_ns;  /* the window tracing was on */
    int has_window;             /* 0: the buffer was cleared: no events */
    unsigned groups;            /* GEN_* */
    const char *const *tags;    /* enabled userspace categories, NULL-ended */
    uint64_t target_bytes;      /* 0: follow event_rate */
    uint64_t max_bytes;         /* 0: unlimited; else a full buffer drops
                                 * later events (overwrite off) */
    unsigned event_rate;        /* scheduler steps per second */
    int overflow;               /* circular-buffer overrun markers */
    uint32_t seed;
    int atrace_pid;             /* 0: no atrace clock-sync lines */
    uint64_t sync_ns;
    uint64_t sync_realtime_ms;
    uint64_t long_marker;       /* one B|pid|NAME of this many bytes after
                                 * the clock-sync lines (0: none), and its E */
    const struct sim_marker *markers;   /* sorted by ts_ns */
    size_t nmarkers;
    int live;                   /* trace_pipe as atrace --stream reads it: no
                                 * header, no end; events only up to the time
                                 * tracegen_read_upto is given */
};

#define TRACEGEN_MIN_READ 4096

struct tracegen;

struct tracegen *tracegen_new(const struct tracegen_cfg *cfg);
/* Up to cap (>= TRACEGEN_MIN_READ) bytes of whole lines (the long
 * marker's excepted: it spans reads); 0 at the end. */
size_t tracegen_read(struct tracegen *g, char *buf, size_t cap);
/* The same, but only events (and markers) at or before upto_ns: 0 when
 * the generator has caught up with that time (live mode). */
size_t tracegen_read_upto(struct tracegen *g, char *buf, size_t cap, uint64_t upto_ns);
/* Live mode: the host's trace_marker writes so far (a growing copy, sorted
 * by time; those already printed are never looked at again). */
void tracegen_set_markers(struct tracegen *g, const struct sim_marker *m, size_t n);
/* Time of the next event (live mode: how far the text has got). */
uint64_t tracegen_time(const struct tracegen *g);
void tracegen_free(struct tracegen *g);

#endif
