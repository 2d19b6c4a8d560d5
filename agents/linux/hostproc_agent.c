/*
 * Process data agent for --target=linux: the host's process and thread
 * tables (hostproc.h) at start and at stop, written as the PROCESS DUMP
 * part in the same place and form as the Android agent's (procdump.c), so
 * processes that start or end during the trace are named too.  A /proc
 * that cannot be read gives a warning and no part, not a failed capture.
 */
#include <stdlib.h>

#include "agents/agent.h"
#include "hostproc.h"

#define SNAP_MAX (32u << 20)

struct hostproc {
    struct capture *c;
    struct dynbuf snap[2];
};

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    if (c->opt->target != TARGET_LINUX || !c->host)
        return ST_OK;
    struct hostproc *h = calloc(1, sizeof(*h));
    if (!h)
        return ST_ENOMEM;
    h->c = c;
    dynbuf_init(&h->snap[0], SNAP_MAX);
    dynbuf_init(&h->snap[1], SNAP_MAX);
    *state = h;
    return ST_OK;
}

static enum st_err snapshot(struct hostproc *h, struct dynbuf *out)
{
    enum st_err e = hostproc_snapshot(NULL, out, NULL);
    if (e == ST_ENOMEM)
        return e;
    if (e) {
        dynbuf_reset(out);
        h->c->ui.warn(h->c->ui.ctx, "Unable to extract process data! (/proc: %s)",
                      st_strerror(e));
    }
    return ST_OK;
}

static enum st_err start(void *state)
{
    struct hostproc *h = state;
    return snapshot(h, &h->snap[0]);
}

static enum st_err stop(void *state)
{
    struct hostproc *h = state;
    return snapshot(h, &h->snap[1]);
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct hostproc *h = state;
    if (!h->snap[0].len && !h->snap[1].len)
        return ST_OK;
    enum st_err e = tw_begin(w, "androidProcessDump");
    if (!e)
        e = tw_write(w, "PROCESS DUMP\n", 13);
    for (int i = 0; i < 2 && !e; i++)
        e = tw_write(w, dynbuf_str(&h->snap[i]), h->snap[i].len);
    return e ? e : tw_end(w);
}

static void destroy(void *state)
{
    struct hostproc *h = state;
    if (!h)
        return;
    dynbuf_free(&h->snap[0]);
    dynbuf_free(&h->snap[1]);
    free(h);
}

const struct agent_ops hostproc_agent = {
    .name = "host process data",
    .create = create,
    .start = start,
    .stop = stop,
    .collect = collect,
    .destroy = destroy,
};
