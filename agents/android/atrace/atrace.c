/*
 * The atrace agent's face (catapult-systrace.md §3, §4): the agent_ops the
 * controller drives, each handed on to the capture way chosen at create
 * (atrace_int.h's struct atrace_way):
 *   dump_way      atrace --async_start, and at the end the dump streamed
 *                 into the page (atrace_dump.c);
 *   stream_way    --stream: atrace --stream read while tracing, or
 *                 periodic dumps where atrace cannot stream
 *                 (atrace_stream.c, atrace_dumps.c, atrace_spool.c);
 *   perfetto_way  --perfetto: the device's own perfetto (../perfetto/).
 * What all ways share stays here: the clock-sync marker (not for a way
 * with a clock of its own), and after any error or interrupt the reset
 * of a device left tracing (tracing off, categories and app tags cleared,
 * 1 KB buffer), which a killed atrace never did, and the removal of our
 * start lock when the start broke off inside its section (atrace_lock.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/devcmd.h"
#include "atrace_int.h"

static enum st_err write_marker(struct capture *c)
{
    struct dynbuf s;
    dynbuf_init(&s, 4096);
    capture_uuid(c->sync_id);
    dynbuf_printf(&s, "echo trace_event_clock_sync: name=%s > %s/trace_marker", c->sync_id,
                  c->tracing_dir);
    struct adb_result r;
    c->sync_issue_us = capture_now_us();
    enum st_err e = dev_script(c, dynbuf_str(&s), 65536, &r);
    c->sync_done_us = capture_now_us();
    dynbuf_free(&s);
    if (!e && r.exit_code == 0)
        c->sync_written = 1;
    else if (!e) {
        char line[256];
        dev_first_line(r.err_len ? r.err : r.out, line, sizeof(line));
        c->ui.warn(c->ui.ctx, "could not write the clock-sync marker (%s); the trace will "
                              "not be aligned with the host", line);
    }
    adb_result_free(&r);
    return e;
}

static enum st_err clock_sync(void *state)
{
    struct atrace *a = state;
    struct capture *c = a->c;
    if (a->way->own_clock)
        return ST_OK;   /* Perfetto's clock is the trace's own */
    unsigned waits = c->dev_waits;
    enum st_err e = write_marker(c);
    if (!e && c->dev_waits != waits) {
        /* the device dropped and came back meanwhile: the host times
         * span the wait, so write a fresh marker for a tight pair */
        c->sync_written = 0;
        e = write_marker(c);
    }
    return e;
}

/* The way is chosen once the device's categories are known. */
static enum st_err create(struct capture *c, void **state)
{
    enum st_err e = atrace_create(c, state);
    struct atrace *a = *state;
    if (e || !a)
        return e;
    if (c->opt->perfetto)
        return perfetto_way_create(a);
    a->way = c->opt->stream ? &stream_way : &dump_way;
    return atrace_make_plan(a);
}

/* A stream is synced right after it started: at the stop, the marker
 * would wait behind the stream's backlog on a slow link, and atrace,
 * stopped first, would no longer read it.  Periodic dumps are synced at
 * the stop, once the halt ended them: the last dump reads the marker. */
static enum st_err start(void *state)
{
    struct atrace *a = state;
    enum st_err e = a->way->start(a);
    if (e || !a->way->streaming || !a->way->streaming(a))
        return e;
    a->synced = 1;
    e = clock_sync(a);
    if (e && e != ST_EINTR) {   /* a missed sync only costs alignment */
        a->c->ui.warn(a->c->ui.ctx, "clock sync failed: %s", dynbuf_str(&a->c->err));
        e = ST_OK;
    }
    return e;
}

static enum st_err sync_at_stop(void *state)
{
    struct atrace *a = state;
    return a->synced ? ST_OK : clock_sync(a);
}

static enum st_err halt(void *state)
{
    struct atrace *a = state;
    if (a && a->way && a->way->halt)
        a->way->halt(a);
    return ST_OK;
}

static enum st_err stop(void *state)
{
    struct atrace *a = state;
    return a->way->stop(a);
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct atrace *a = state;
    return a->way->collect(a, w);
}

/* After an error or interrupt: tracing off, categories and app tags
 * cleared, 1 KB buffer (a dump that broke off killed atrace before its
 * cleanup).  No categories on the command line: one the device rejects
 * would make atrace fail before resetting. */
static void reset(struct atrace *a)
{
    struct capture *c = a->c;
    static const char *const stop_argv[] = {"atrace", "--async_stop", NULL};
    static const char *const old_argv[] = {"atrace", "-t", "0", NULL};
    const char *const *argv = c->sdk >= 23 ? stop_argv : old_argv;
    char why[256] = "";
    if (atrace_reset(a, argv, why, sizeof(why)))
        c->ui.warn(c->ui.ctx, "could not stop tracing on the device (%s); run `adb -s %s "
                              "shell %s` to stop it", why[0] ? why : "unknown reason",
                   c->serial, c->sdk >= 23 ? "atrace --async_stop" : "atrace -t 0");
}

/* Our start lock, left when the start broke off inside its section
 * (atrace_lock.c): removed once the device is reset. */
static void unlock(struct atrace *a)
{
    struct capture *c = a->c;
    if (a->lock_held && atrace_unlock(a))
        c->ui.warn(c->ui.ctx, "could not remove systrace's start lock from the device; if "
                              "no systrace starts there, remove it: adb -s %s shell rm -rf "
                              ATRACE_LOCK, c->serial);
}

/* After an error or interrupt: make sure the device is not left tracing
 * nor keeps our settings, then that our start lock is gone. */
static void cleanup(void *state)
{
    struct atrace *a = state;
    if (a && a->way)
        a->way->cleanup(a);
    if (!a || (!a->dirty && !a->lock_held))
        return;
    struct capture *c = a->c;
    struct dynbuf saved;    /* the error being reported stays as it is */
    dynbuf_init(&saved, 65536);
    dynbuf_addstr(&saved, dynbuf_str(&c->err));
    if (a->dirty)
        reset(a);
    unlock(a);
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&saved));
    dynbuf_free(&saved);
}

static void destroy(void *state)
{
    struct atrace *a = state;
    if (!a)
        return;
    if (a->way)
        a->way->destroy(a);
    atrace_cats_free(&a->avail);
    atrace_plan_free(&a->plan);
    dynbuf_free(&a->errtext);
    free(a);
}

static void keep(void *state, int reader_left, struct dynbuf *said)
{
    struct atrace *a = state;
    if (a && a->way && a->way->keep)
        a->way->keep(a, reader_left, said);
}

static int ended(void *state)
{
    const struct atrace *a = state;
    return a && a->way && a->way->ended(a);
}

const struct agent_ops atrace_agent = {
    .name = "atrace",
    .create = create,
    .start = start,
    .halt = halt,
    .clock_sync = sync_at_stop,
    .stop = stop,
    .collect = collect,
    .cleanup = cleanup,
    .destroy = destroy,
    .ended = ended,
    .keep = keep,
};
