/*
 * ftrace text -> Chrome trace-event JSON (`--trace-events FILE`), streamed.
 *
 * Fed from the tracewriter tee, so it sees the same repaired text as the
 * HTML (TGID fix, added header).  Output (Trace Event Format, `ts` in µs):
 *   {"traceEvents":[ ...events... ],"otherData":{...}}
 *   - tracing_mark_write / print / 0 payloads (atrace):
 *       B|tgid|name + E       -> X (complete slice) on the thread, pid tgid
 *       C|tgid|name|value     -> C counter of process tgid
 *       S|tgid|name|cookie, F -> b / e nestable async, one fresh id per pair
 *       I|tgid|name           -> i (thread instant)
 *   - sched_switch -> X slices named after the running task on a pseudo
 *     process "CPUs" (pid TEV_CPU_PID) with one thread per CPU
 *   - cpu_frequency, cpu_idle -> C counters on that pseudo process
 *   - M process_name / thread_name at the end, for processes and threads
 *     that have events, named from the ftrace task names and the PROCESS
 *     DUMP part (`ps` output: long form USER PID PPID ... NAME, thread form
 *     USER PID TID CMD).
 * Unclosed slices are written as B events at the end; an E without a B is
 * dropped; an S without F stays a lone b.
 *
 * Circular-buffer cut: the repair stage drops everything between the
 * header and the last `##### CPU N buffer started` line by rewriting the
 * HTML at the end.  A stream cannot take events back, so the converter
 * mirrors it: at such a line after any other line of the part it rewinds
 * its own output (text_sink keep) to where the part began and forgets the
 * open slices and CPU states.
 *
 * Memory: per-thread open-slice stacks (TEV_DEPTH_MAX deep, TEV_OPEN_MAX
 * open in all: a trace whose threads leave slices open, as an app killed
 * mid-slice does, would otherwise grow with its length), name tables and
 * open async ids, each bounded (TEV_*_MAX); what exceeds a bound is
 * counted in stats.dropped, never an error.
 */
#ifndef SYSTRACE_TEVENTS_H
#define SYSTRACE_TEVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"
#include "formats/html/tracewriter.h"

#define TEV_CPU_PID 1000000000      /* above any Linux pid (max 2^22) */
#define TEV_DEPTH_MAX 512
#define TEV_OPEN_MAX (1u << 16)     /* open slices of all threads: ~4 MB */
#define TEV_THREADS_MAX (1u << 20)
#define TEV_ASYNC_MAX (1u << 20)
#define TEV_NAMES_BYTES (64u << 20)
#define TEV_CPUS_MAX 4096
#define TEV_LINE_MAX 65536          /* longer lines are skipped */

struct tevents_stats {
    uint64_t lines;         /* ftrace event lines tokenized */
    uint64_t unparsed;      /* other non-comment lines */
    uint64_t events;        /* trace events written, M included */
    uint64_t slices;        /* X from B/E pairs */
    uint64_t unclosed;      /* B without E, written as B */
    uint64_t unmatched_end; /* E without B, dropped */
    uint64_t counters;      /* C from atrace C| */
    uint64_t async_begin, async_end;
    uint64_t instants;
    uint64_t cpu_slices;    /* X from sched_switch */
    uint64_t cpu_counters;  /* C from cpu_frequency / cpu_idle */
    uint64_t metadata;      /* M */
    uint64_t resets;        /* circular-buffer rewinds */
    uint64_t dropped;       /* over a memory bound */
};

struct tevents;

/* out: where the JSON goes; keep is used for circular-buffer rewinds. */
struct tevents *tevents_new(const struct text_sink *out);
void tevents_free(struct tevents *t);

/* Part boundaries and payload, as the tracewriter tee reports them:
 * systemTraceEvents is converted, androidProcessDump read for names,
 * anything else ignored. */
void tevents_begin_part(struct tevents *t, const char *name);
enum st_err tevents_feed(struct tevents *t, const void *p, size_t n);
void tevents_end_part(struct tevents *t);
/* The current part starts over (tw_tee.restart): what it produced so far
 * is taken back, as for a circular-buffer cut. */
void tevents_restart_part(struct tevents *t);
/* The tee for tw_set_tee. */
void tevents_tee(struct tevents *t, struct tw_tee *tee);

/* Close what is open, write the metadata and the end of the JSON. */
enum st_err tevents_finish(struct tevents *t);

/* A converter writing path atomically (outfile): it appears on commit.
 * On failure *out may still be set, for the error text. */
enum st_err tevents_open_file(const char *path, struct tevents **out);
/* tevents_finish, then put the file in place. */
enum st_err tevents_commit(struct tevents *t);

const struct tevents_stats *tevents_stats(const struct tevents *t);
/* Sticky error of the conversion (ST_OK if none) and its detail. */
enum st_err tevents_error(const struct tevents *t);
const char *tevents_errtext(const struct tevents *t);

/* ---- the pieces, for tests and fuzzing ---- */

/* One ftrace line, tokenized like Perfetto's systrace tokenizer:
 * `TASK-TID [(TGID)] [CPU] [FLAGS] SEC.FRAC: EVENT: ARGS`. */
struct tev_line {
    const char *task;
    size_t task_len;
    uint32_t tid;
    int64_t tgid;           /* -1: not in the line */
    uint32_t cpu;
    uint64_t ts_ns;
    const char *event;
    size_t event_len;
    const char *args;
    size_t args_len;
};
int tev_parse_line(const char *p, size_t n, struct tev_line *l);
/* The two halves of tev_parse_line: the fast path for the usual shape
 * (tevents_fast.c; 0 when the line is not of that shape, whatever the
 * general one says) and the general tokenizer.  Where the fast path
 * answers, the general one gives the same fields. */
int tev_parse_line_std(const char *p, size_t n, struct tev_line *l);
int tev_parse_line_general(const char *p, size_t n, struct tev_line *l);

/* An atrace payload (B|1|name ...). */
struct tev_mark {
    char phase;             /* B E C S F I */
    int64_t tgid;           /* -1: absent */
    const char *name;
    size_t name_len;
    const char *value;      /* C: value; S/F: cookie */
    size_t value_len;
    int64_t num;            /* C: the value */
};
int tev_parse_mark(const char *p, size_t n, struct tev_mark *m);

/* The unsigned value of `key=N` in ftrace args; 0 if absent or bad. */
int tev_arg_u64(const char *args, size_t n, const char *key, uint64_t *v);

/* sched_switch args: `prev_comm=A prev_pid=1 ... ==> next_comm=B
 * next_pid=2 next_prio=120` (comms may hold spaces; prev_comm is empty
 * when the args do not start with it). */
struct tev_switch {
    const char *prev_comm, *next_comm;
    size_t prev_comm_len, next_comm_len;
    uint32_t prev_pid, next_pid;
};
int tev_parse_switch(const char *args, size_t n, struct tev_switch *s);

/* sched_wakeup / sched_waking args: `comm=A pid=1 prio=120 ...` (the
 * comm may hold spaces: it runs to the last " pid="). */
int tev_parse_wakeup(const char *args, size_t n, const char **comm, size_t *comm_len,
                     uint32_t *pid);

#endif
