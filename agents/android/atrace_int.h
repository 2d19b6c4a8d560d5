/*
 * Internals of the atrace agent, shared by its two files: atrace_start.c
 * (categories, the plan, starting atrace) and atrace.c (clock sync,
 * stopping, the dump and its retry, resetting the device).
 */
#ifndef SYSTRACE_ATRACE_INT_H
#define SYSTRACE_ATRACE_INT_H

#include <stdio.h>

#include "agents/agent.h"
#include "atrace_cmd.h"
#include "formats/atrace/decode.h"
#include "formats/atrace/ftrace_norm.h"
#include "formats/atrace/repair.h"

#define LIST_MAX (1u << 20)

struct atrace {
    struct capture *c;
    struct atrace_cats avail;
    struct atrace_plan plan;
    int compress;
    int dirty;              /* the device may be tracing or keep our categories,
                             * app tags and buffer: cleanup resets it */
    double t_start_us, t_stop_us;   /* host times tracing ran */
    /* collect */
    struct decoder *dec;
    struct fnorm *norm;     /* 5-column flags (device kernels >= 5.18) */
    struct repair *rep;
    struct outfile *raw;    /* the dump as received, kept only if collection fails */
    uint64_t raw_bytes;
    struct dynbuf errtext;  /* stderr of the dump command */
};

/* c->err = "what: detail" */
enum st_err atrace_fail(struct capture *c, enum st_err e, const char *what,
                        const char *detail);
enum st_err atrace_create(struct capture *c, void **state);
enum st_err atrace_start(void *state);

#endif
