/*
 * The controller's own part (catapult-systrace.md §6): a trace-event JSON
 * document in the SYSTRACE clock domain holding one clock_sync event whose
 * sync_id is the marker written into the device's trace_marker, so the
 * viewer can place host and device events on one timeline.
 *
 * catapult wrote this part even when the marker never reached the trace,
 * and the viewer then refused the whole file ("Unable to select a master
 * clock domain").  Here it is written only when the marker was seen in the
 * decoded trace, so that failure cannot happen.
 */
#include <stdio.h>
#include <stdlib.h>

#include "agent.h"
#include "lib/plat.h"

struct ctl {
    struct capture *c;
};

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    if (!c->dev && !c->host)
        return ST_OK;
    struct ctl *t = calloc(1, sizeof(*t));
    if (!t)
        return ST_ENOMEM;
    t->c = c;
    *state = t;
    return ST_OK;
}

static enum st_err nothing(void *state)
{
    (void)state;
    return ST_OK;
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct ctl *t = state;
    struct capture *c = t->c;
    if (!c->sync_written)
        return ST_OK;
    if (!c->sync_seen) {
        c->ui.warn(c->ui.ctx, "the clock-sync marker did not come back in the trace; the "
                              "host clock part is left out (the trace still opens)");
        return ST_OK;
    }
    char json[512];
    int pid = plat_getpid();
    int n = snprintf(json, sizeof(json),
                     "{\"traceEvents\": [{\"ph\": \"c\", \"category\": \"systrace\", "
                     "\"pid\": %d, \"tid\": %d, \"ts\": %.3f, \"name\": \"clock_sync\", "
                     "\"args\": {\"sync_id\": \"%s\", \"issue_ts\": %.3f}}], "
                     "\"metadata\": {\"clock-domain\": \"SYSTRACE\"}}",
                     pid, pid, c->sync_done_us, c->sync_id, c->sync_issue_us);
    enum st_err e = tw_begin(w, "systraceController");
    if (!e)
        e = tw_write(w, json, (size_t)n);
    return e ? e : tw_end(w);
}

static void destroy(void *state)
{
    free(state);
}

const struct agent_ops controller_agent = {
    .name = "controller",
    .create = create,
    .start = nothing,
    .stop = nothing,
    .collect = collect,
    .destroy = destroy,
};
