/*
 * The atrace agent's state and the interface of its capture ways.  Files,
 * from the top down: atrace.c (the face: agent_ops, the clock sync, the
 * reset after a failure) drives one way through struct atrace_way:
 * atrace_dump.c (the one-shot dump), atrace_stream.c (--stream, with
 * atrace_dumps.c's periodic dumps and atrace_spool.c's spool) or
 * ../perfetto/perfetto.c (--perfetto).  Below them: atrace_start.c
 * (categories, the plan, `atrace --async_start`), atrace_lock.c (the busy
 * check and the start as one step on the device) and atrace_dev.c
 * (errors, the thread listing, atrace's own cleanup).
 */
#ifndef SYSTRACE_ATRACE_INT_H
#define SYSTRACE_ATRACE_INT_H

#include <stdio.h>

#include "adb/adb.h"
#include "agents/agent.h"
#include "agents/android/atrace_cmd.h"
#include "formats/atrace/decode.h"
#include "formats/atrace/ftrace_norm.h"
#include "formats/atrace/linecut.h"
#include "formats/atrace/repair.h"

#define LIST_MAX (1u << 20)
/* atrace_lock.c's lock: held by a run while it checks and starts */
#define ATRACE_LOCK "/data/local/tmp/systrace-atrace.lock"

struct astream;
struct atrace;

/* A capture way: the face hands the capture's lifecycle over to it.
 * start to destroy as in agents/agent.h; ended: it ended on its own
 * before the stop; cleanup after an error or interrupt (the face resets
 * a device left dirty after it).  Optional: halt (before the clock sync:
 * atrace asked to stop now, the stop's wait comes later; periodic dumps
 * end, so none clears the marker), streaming (1: the trace is read while
 * it is recorded, so the clock sync is written right after the start);
 * own_clock: the trace carries a clock of its own (no sync marker);
 * keep (agent.h): the page failed after collect, keep the raw data. */
struct atrace_way {
    enum st_err (*start)(struct atrace *a);
    enum st_err (*stop)(struct atrace *a);
    enum st_err (*collect)(struct atrace *a, struct tracewriter *w);
    void (*cleanup)(struct atrace *a);
    int (*ended)(const struct atrace *a);
    void (*destroy)(struct atrace *a);
    void (*halt)(struct atrace *a);
    int (*streaming)(const struct atrace *a);
    void (*keep)(struct atrace *a, int reader_left, struct dynbuf *said);
    int own_clock;
};
extern const struct atrace_way dump_way;        /* atrace_dump.c */
extern const struct atrace_way stream_way;      /* atrace_stream.c */
extern const struct atrace_way perfetto_way;    /* ../perfetto/perfetto.c */
/* perfetto.c: set a->way up for --perfetto (the config from the options;
 * categories without an equivalent named) or say why it cannot be. */
enum st_err perfetto_way_create(struct atrace *a);

struct atrace {
    struct capture *c;
    struct atrace_cats avail;
    struct atrace_plan plan;
    int compress;
    int buf_kb;             /* -b for the plan instead of the user's; 0: theirs */
    int warned;             /* unavailable categories named */
    int dirty;              /* the device may be tracing or keep our categories,
                             * app tags and buffer: cleanup resets it */
    double t_start_us, t_stop_us;   /* host times tracing ran */
    /* collect */
    struct decoder *dec;
    struct fnorm *norm;     /* 5-column flags (device kernels >= 5.18) */
    struct repair *rep;
    struct lcut *cut;       /* over-long lines, between the repairs and the part */
    struct outfile *raw;    /* the dump as received, kept only if collection
                             * fails or the page cannot be written */
    uint64_t raw_bytes;
    char *first_raw;        /* a refetch: the first try's dump, kept until the */
    uint64_t first_bytes;   /* second holds as much (it may fail sooner) */
    struct dynbuf errtext;  /* stderr of the dump command */
    struct astream *stream; /* --stream (atrace_stream.c) */
    const struct atrace_way *way;   /* set by the face's create */
    void *way_state;
    int synced;             /* the clock sync was done at the start */
    char lock_id[40];       /* what our start lock holds (atrace_lock.c) */
    int lock_held;          /* our lock may be on the device: atrace_unlock */
};

/* atrace_dev.c: c->err = "what: detail"; the device's TID -> PID listing;
 * reset the device with argv (atrace's own cleanup; why: the reason it
 * could not be) */
enum st_err atrace_fail(struct capture *c, enum st_err e, const char *what,
                        const char *detail);
enum st_err atrace_load_tgids(struct atrace *a, struct tgid_map *m);
enum st_err atrace_reset(struct atrace *a, const char *const *argv, char *why, size_t n);

/* atrace_start.c: the state and the device's categories (no way yet);
 * the plan (unavailable categories warned about once); refused when the
 * device already traces; `atrace ... --async_start` (retried without -z
 * when refused); atrace said it did not start (how: "--async_start",
 * "--stream"). */
enum st_err atrace_create(struct capture *c, void **state);
enum st_err atrace_make_plan(struct atrace *a);
enum st_err atrace_refuse_busy(struct atrace *a);
enum st_err atrace_async_start(struct atrace *a);
enum st_err atrace_start_failed_msg(struct atrace *a, const char *how, const char *out,
                                    const char *err);

/* atrace_lock.c: c->err says the device already traces; run start
 * (quoted shell text) in the start section: under the lock, after the busy
 * check repeated there (refused: atrace_busy's error), another run's
 * section waited for (bounded); *r is then start's answer, filled
 * whatever happens (r may be NULL).  start NULL: the lock is taken and kept (lock_held)
 * until atrace_unlock, which removes it only while it holds our id. */
enum st_err atrace_busy(struct capture *c);
enum st_err atrace_locked(struct atrace *a, const char *start, size_t max,
                          struct adb_result *r);
enum st_err atrace_unlock(struct atrace *a);

#endif
