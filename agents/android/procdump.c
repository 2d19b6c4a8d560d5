/*
 * Process data agent (catapult-systrace.md §7.1): a `ps` snapshot at start
 * and one at stop, written as the PROCESS DUMP part before the ftrace part
 * (Perfetto reads process names from it only if it comes first).  Toybox
 * ps form first; the legacy toolbox `ps && ps -t` when that fails or
 * prints only its two header lines.  A device where neither works gives a
 * warning and no part rather than a failed capture.
 */
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
#include "devcmd.h"

#define SNAP_MAX (16u << 20)

static const char toybox_ps[] =
    "ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM&& ps -AT -o USER,PID,TID,CMD";
static const char legacy_ps[] = "ps && ps -t";

struct procdump {
    struct capture *c;
    struct dynbuf snap[2];
    int taken;
    int legacy;
};

static size_t count_lines(const char *s, size_t n)
{
    size_t lines = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n')
            lines++;
    if (n && s[n - 1] != '\n')
        lines++;
    return lines;
}

/* Lines joined by LF plus a final LF, CRs dropped (universal newlines). */
static enum st_err add_lines(struct dynbuf *b, const char *s, size_t n)
{
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++)
        if (s[i] != '\r')
            e = dynbuf_addc(b, s[i]);
    if (!e && n && s[n - 1] != '\n')
        e = dynbuf_addc(b, '\n');
    return e;
}

static int usable(const struct adb_result *r)
{
    return (r->exit_code == 0 || r->exit_code == ADB_EXIT_UNKNOWN) &&
           count_lines(r->out, r->out_len) != 2 && r->out_len;
}

static enum st_err snapshot(struct procdump *p, struct dynbuf *out)
{
    struct adb_result r;
    enum st_err e = ST_OK;
    if (!p->legacy) {
        if ((e = dev_script(p->c, toybox_ps, SNAP_MAX, &r))) {
            adb_result_free(&r);    /* filled on errors too */
            return e;
        }
        if (usable(&r)) {
            e = add_lines(out, r.out, r.out_len);
            adb_result_free(&r);
            return e;
        }
        adb_result_free(&r);
        p->legacy = 1;
    }
    if ((e = dev_script(p->c, legacy_ps, SNAP_MAX, &r))) {
        adb_result_free(&r);
        return e;
    }
    if (usable(&r))
        e = add_lines(out, r.out, r.out_len);
    else
        p->c->ui.warn(p->c->ui.ctx, "Unable to extract process data!");
    adb_result_free(&r);
    return e;
}

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    /* --perfetto: the trace's own process tree names the processes */
    if (c->opt->target != TARGET_ANDROID || !c->dev || c->opt->perfetto)
        return ST_OK;
    struct procdump *p = calloc(1, sizeof(*p));
    if (!p)
        return ST_ENOMEM;
    p->c = c;
    dynbuf_init(&p->snap[0], SNAP_MAX);
    dynbuf_init(&p->snap[1], SNAP_MAX);
    *state = p;
    return ST_OK;
}

static enum st_err start(void *state)
{
    struct procdump *p = state;
    p->taken = 1;
    return snapshot(p, &p->snap[0]);
}

static enum st_err stop(void *state)
{
    struct procdump *p = state;
    p->taken = 2;
    enum st_err e = snapshot(p, &p->snap[1]);
    if (e && p->c->dev_gone && p->snap[0].len) {
        /* a trace that already arrived (a stream) still gets the names
         * taken at the start; a dump that needs the device fails anyway */
        p->c->ui.warn(p->c->ui.ctx, "no process list at the end of the capture: the "
                                    "device did not come back");
        dynbuf_reset(&p->snap[1]);
        return ST_OK;
    }
    return e;
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct procdump *p = state;
    if (!p->snap[0].len && !p->snap[1].len)
        return ST_OK;
    enum st_err e = tw_begin(w, "androidProcessDump");
    if (!e)
        e = tw_write(w, "PROCESS DUMP\n", 13);
    for (int i = 0; i < 2 && !e; i++)
        e = tw_write(w, p->snap[i].data ? p->snap[i].data : "", p->snap[i].len);
    return e ? e : tw_end(w);
}

static void destroy(void *state)
{
    struct procdump *p = state;
    if (!p)
        return;
    dynbuf_free(&p->snap[0]);
    dynbuf_free(&p->snap[1]);
    free(p);
}

const struct agent_ops procdump_agent = {
    .name = "process data",
    .create = create,
    .start = start,
    .stop = stop,
    .collect = collect,
    .destroy = destroy,
};
