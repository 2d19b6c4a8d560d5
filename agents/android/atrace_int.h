/*
 * Internals of the atrace agent, shared by its files: atrace_start.c
 * (categories, the plan, starting atrace), atrace.c (clock sync,
 * stopping, the dump and its retry, resetting the device), and for
 * --stream atrace_stream.c, atrace_dumps.c and atrace_spool.c.
 */
#ifndef SYSTRACE_ATRACE_INT_H
#define SYSTRACE_ATRACE_INT_H

#include <stdio.h>

#include "agents/agent.h"
#include "atrace_cmd.h"
#include "formats/atrace/decode.h"
#include "formats/atrace/ftrace_norm.h"
#include "formats/atrace/linecut.h"
#include "formats/atrace/repair.h"

#define LIST_MAX (1u << 20)

struct astream;
struct atrace;

/* A capture way other than the one-shot dump (--perfetto: perfetto.c):
 * the agent hands its lifecycle over to it.  (--stream predates this and
 * is still called directly.) */
struct atrace_way {
    enum st_err (*start)(struct atrace *a);
    enum st_err (*stop)(struct atrace *a);
    enum st_err (*collect)(struct atrace *a, struct tracewriter *w);
    void (*cleanup)(struct atrace *a);
    int (*ended)(const struct atrace *a);
    void (*destroy)(struct atrace *a);
};
extern const struct atrace_way perfetto_way;
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
    struct outfile *raw;    /* the dump as received, kept only if collection fails */
    uint64_t raw_bytes;
    char *first_raw;        /* a refetch: the first try's dump, kept until the */
    uint64_t first_bytes;   /* second holds as much (it may fail sooner) */
    struct dynbuf errtext;  /* stderr of the dump command */
    struct astream *stream; /* --stream (atrace_stream.c) */
    const struct atrace_way *way;   /* NULL: the dump or --stream */
    void *way_state;
    int synced;             /* the clock sync was done at the start */
};

/* c->err = "what: detail" */
enum st_err atrace_fail(struct capture *c, enum st_err e, const char *what,
                        const char *detail);
enum st_err atrace_create(struct capture *c, void **state);
enum st_err atrace_start(void *state);
/* atrace_start.c: the plan (unavailable categories warned about once);
 * `atrace ... --async_start` (retried without -z when refused); atrace
 * said it did not start (how: "--async_start", "--stream"). */
enum st_err atrace_make_plan(struct atrace *a);
enum st_err atrace_async_start(struct atrace *a);
enum st_err atrace_start_failed_msg(struct atrace *a, const char *how, const char *out,
                                    const char *err);
/* atrace.c: the device's TID -> PID listing; reset the device with argv
 * (atrace's own cleanup; why: the reason it could not be) */
enum st_err atrace_load_tgids(struct atrace *a, struct tgid_map *m);
enum st_err atrace_reset(struct atrace *a, const char *const *argv, char *why, size_t n);

/* atrace_stream.c: --stream, on its own thread (atrace_spool.c converts
 * what arrived, atrace_dumps.c is the fallback for an atrace without
 * --stream: periodic --async_dump). */
enum st_err astream_start(struct atrace *a);
enum st_err astream_stop(struct atrace *a);
/* 1 while atrace --stream runs (not the periodic-dump fallback). */
int astream_streaming(const struct atrace *a);
/* kill -INT atrace now and wait (bounded) for its stream to end. */
void astream_halt(struct atrace *a);
enum st_err astream_collect(struct atrace *a, struct tracewriter *w);
void astream_cleanup(struct atrace *a);
int astream_ended(const struct atrace *a);
void astream_free(struct astream *s);

#endif
