/*
 * --stream on Android: the device's own `atrace ... --stream` (AOSP atrace:
 * set up categories and buffer as for a capture, start tracing, clear the
 * buffer, write its clock-sync marker, copy trace_pipe to stdout until
 * SIGINT/SIGTERM/SIGHUP, then stop tracing and reset the settings), read
 * while tracing into a spool file beside the output (atrace_spool.c) and
 * converted at the end, so a capture of any length keeps every event with
 * flat host memory.
 *
 *   start    `echo $$; exec atrace [-t N] [-b N] [-a] [-k] -c cats --stream`
 *            over shell v2 (else exec:, else the legacy shell); the first
 *            line is atrace's pid.  -c (overwrite) so that a reader that
 *            falls behind costs the oldest events with a `CPU:N [LOST M
 *            EVENTS]` line instead of silently dropping new ones.  Started
 *            once the first trace line arrived.  A command that ends
 *            first cannot stream (an atrace from before Android 7, a vendor
 *            build refusing it): atrace_dumps.c takes over, saying so.
 *   wait     a reader thread copies the output to the spool, taking the
 *            device (capture.dev_lock) for one short read at a time so
 *            other commands (clock sync, ps, am profile) run in between.
 *            A stream that ends on its own (the link dropped) ends the
 *            wait (agent op `ended`) with a warning.
 *   stop     `kill -INT PID` in a second shell, first of all (the agent's
 *            halt: on a slow link every other command waits behind the
 *            stream's backlog; the clock sync was done at the start, where
 *            nothing queues yet); the reader drains until
 *            atrace exits (closing the stream, adbd's SIGHUP, is the
 *            fallback).  Then tracing_on is read, and the device reset
 *            (atrace --async_stop) when tracing is still on or atrace did
 *            not finish its own cleanup.  A stream that broke off (the
 *            link dropped) is not a failure: its page is written from what
 *            arrived and the capture marked cut short (exit 3).
 *   collect  the /proc listing taken now for the TGID fix, then the spool
 *            converted into the page (atrace_spool.c).  The spool stays
 *            until the page is written: one that cannot be (a full disk
 *            under -o -) keeps it as a failure does (agent op `keep`).
 *   cleanup  after any failure: the reader aborted, the stream closed, the
 *            device reset by the agent's cleanup; what arrived is kept
 *            under a free name (not after SIGTERM) and the message says
 *            how to convert it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astream_int.h"
#include "agents/android/devcmd.h"
#include "lib/plat.h"
#include "formats/atrace/coverage.h"
#include "lib/debug.h"
#include "lib/outfile.h"
#include "lib/signals.h"

#define PROBE_MAX (64u * 1024)
#define FIRST_LINE_WAIT_US 5e6  /* after the pid: atrace's marker comes at once */
#define STOP_WAIT_MS 10000

/* ---- what the stream sends ---------------------------------------------- */

/* A trace line: an event (it has a timestamp) or a LOST notice. */
static int trace_line(const char *p, size_t n)
{
    uint64_t ns;
    return !coverage_line_ts(p, n, &ns) || (n > 4 && !memcmp(p, "CPU:", 4));
}

/* Output before the first trace line is held: on a channel that merges
 * stderr it may be atrace's complaint rather than a trace. */
static enum st_err probe(struct astream *s, const char *p, size_t n)
{
    if (dynbuf_add(&s->probe, p, n)) {
        snprintf(s->why, sizeof(s->why), "atrace --stream printed %u KB that is not a trace",
                 PROBE_MAX / 1024);
        return ST_EFORMAT;
    }
    const char *b = s->probe.data, *end = b + s->probe.len, *nl;
    for (const char *line = b; (nl = memchr(line, '\n', (size_t)(end - line))); line = nl + 1) {
        size_t len = (size_t)(nl - line);
        if (len && line[len - 1] == '\r')
            len--;
        if (trace_line(line, len)) {
            s->streaming = 1;
            return spool_add(s, line, (size_t)(end - line));
        }
    }
    return ST_OK;
}

static enum st_err on_out(void *ctx, const void *p, size_t n)
{
    struct astream *s = ctx;
    const char *b = p;
    if (!s->pid) {
        size_t used = 0;
        long pid = 0;
        int r = stext_head_feed(&s->head, b, n, &used, &pid);
        if (!r)
            return ST_OK;
        s->pid = r > 0 ? pid : -1;
        if (r > 0) {
            b += used;
            n -= used;
        }
    }
    if (!n)
        return ST_OK;
    return s->streaming ? spool_add(s, b, n) : probe(s, b, n);
}

static enum st_err on_err(void *ctx, const void *p, size_t n)
{
    struct astream *s = ctx;
    dynbuf_add(&s->errtext, p, n);  /* bounded; the rest is not needed */
    return ST_OK;
}

/* ---- the reader thread -------------------------------------------------- */

/* Why the stream ended, for the messages. */
static void ended_why(struct astream *s, enum st_err e)
{
    if (s->why[0])
        return;
    if (e) {
        char line[256];
        dev_first_line(adb_cmd_error(s->cmd), line, sizeof(line));
        snprintf(s->why, sizeof(s->why), "%s%s",
                 dev_link_lost(e) ? "the connection to the device dropped: " : "", line);
        return;
    }
    char line[256];
    dev_first_line(dynbuf_str(&s->errtext), line, sizeof(line));
    snprintf(s->why, sizeof(s->why), "atrace exited with status %d%s%s", s->exit_code,
             line[0] ? ": " : "", line);
}

static void *reader(void *arg)
{
    struct astream *s = arg;
    struct adb_sink sink = {on_out, on_err, NULL, s};
    enum st_err e = ST_OK;
    while (!atomic_load(&s->abort)) {
        fairlock_acquire(&s->lock);
        e = adb_cmd_read(s->cmd, &sink, ASTREAM_SLICE_MS);
        fairlock_release(&s->lock);
        if (e == ST_ETIMEOUT)
            continue;
        if (e || adb_cmd_ended(s->cmd))
            break;
    }
    s->exit_code = adb_cmd_exit_code(s->cmd);
    s->err = atomic_load(&s->abort) ? ST_EINTR : e;
    s->early = !atomic_load(&s->stop);
    if (s->err != ST_EINTR)
        ended_why(s, e);
    if (!s->err)
        s->err = spool_end(s);
    if (s->c->ui.stream)
        s->c->ui.stream(s->c->ui.ctx, s->bytes, spool_events(s));
    if (s->early && s->err != ST_EINTR)
        s->c->ui.warn(s->c->ui.ctx, "the trace stream ended early, after %.1f MB (%s)",
                      (double)s->bytes / 1e6, s->why);
    atomic_store(&s->ended, 1);
    return NULL;
}

/* The reader stops now (after its current read) and is joined. */
static void reader_end(struct astream *s, int abort)
{
    if (!s->th_started)
        return;
    if (abort) {
        atomic_store(&s->abort, 1);
        char b = 1;
        if (plat_sock_write(s->wake[1], &b, 1) < 0) {
            /* full: readable already */
        }
    }
    pthread_join(s->th, NULL);
    s->th_started = 0;
}

/* ---- start -------------------------------------------------------------- */

static int cancelled(const struct capture *c)
{
    struct plat_pollfd p = {c->cancel_fd, PLAT_POLLIN, 0};
    return c->cancel_fd >= 0 && plat_poll(&p, 1, 0) > 0;
}

/* `echo $$; exec atrace ... -c --stream` started. */
static enum st_err open_stream(struct astream *s)
{
    struct atrace *a = s->a;
    struct capture *c = s->c;
    const char **argv = atrace_plan_argv(&a->plan, "-c");
    struct dynbuf cmd;
    dynbuf_init(&cmd, 65536);
    enum st_err e = argv ? dynbuf_addstr(&cmd, "echo $$; exec") : ST_ENOMEM;
    if (!e)
        e = adb_quote_argv(&cmd, argv);
    if (!e)
        e = dynbuf_addstr(&cmd, " --stream");
    free(argv);
    if (!e) {
        fairlock_acquire(&s->lock);
        e = adb_cmd_start(c->dev, dev_dump_mode(c), dynbuf_str(&cmd), &s->cmd);
        fairlock_release(&s->lock);
        if (e)
            atrace_fail(c, e, "cannot start atrace --stream", adb_device_error(c->dev));
        else
            adb_cmd_set_cancel_fd(s->cmd, s->wake[0]);
    }
    ST_DBG(DBG_ATRACE, "stream: %s", dynbuf_str(&cmd));
    dynbuf_free(&cmd);
    a->dirty = 1;   /* from here on the device may be tracing */
    return e;
}

/* It ended without streaming: atrace refused to start tracing (the same
 * failures as --async_start's), or it cannot stream at all. */
static enum st_err not_streaming(struct astream *s)
{
    const char *out = dynbuf_str(&s->probe), *err = dynbuf_str(&s->errtext);
    if (atrace_start_failed(out, err))
        return atrace_start_failed_msg(s->a, "--stream", out, err);
    dev_first_line(*err ? err : out, s->why, sizeof(s->why));
    if (!s->why[0])
        snprintf(s->why, sizeof(s->why), "it exited at once with status %d",
                 adb_cmd_exit_code(s->cmd));
    return ST_EUNSUPPORTED;
}

/* Read on this thread until the first trace line arrives (ST_OK), the
 * command ends (not_streaming), or Ctrl-C / SIGTERM (ST_EINTR). */
static enum st_err await_stream(struct astream *s)
{
    struct capture *c = s->c;
    struct adb_sink sink = {on_out, on_err, NULL, s};
    double t0 = capture_now_us(), t_pid = 0;
    for (;;) {
        if (cancelled(c))
            return atrace_fail(c, ST_EINTR, "--stream", "interrupted while starting");
        fairlock_acquire(&s->lock);
        enum st_err e = adb_cmd_read(s->cmd, &sink, ASTREAM_SLICE_MS);
        fairlock_release(&s->lock);
        double now = capture_now_us();
        if (s->pid && !t_pid)
            t_pid = now;
        if (!e && s->streaming)
            return ST_OK;
        if (!e && adb_cmd_ended(s->cmd))
            return not_streaming(s);
        if (e && e != ST_ETIMEOUT) {
            ended_why(s, e);
            return atrace_fail(c, e, "atrace --stream failed", s->why);
        }
        if (t_pid && now - t_pid > FIRST_LINE_WAIT_US)
            return ST_OK;   /* running, tracing: just no line yet */
        if (now - t0 > dev_wait_s(c) * 1e6)
            return atrace_fail(c, ST_ETIMEOUT, "atrace --stream",
                               "nothing came back from the device");
    }
}

static void astream_free(struct astream *s);

static struct astream *astream_new(struct atrace *a)
{
    struct astream *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->a = a;
    s->c = a->c;
    s->wake[0] = s->wake[1] = -1;
    fairlock_init(&s->lock);
    dynbuf_init(&s->probe, PROBE_MAX);
    dynbuf_init(&s->errtext, 64 * 1024);
    if (plat_pipe(s->wake) != 0) {
        astream_free(s);
        return NULL;
    }
    return s;
}

/* The start section's lock (atrace_lock.c) is held from before the
 * stream opens until atrace streams: the busy check of another run then
 * finds it tracing.  The fallback's start takes the lock again. */
static enum st_err astream_start(struct atrace *a)
{
    struct capture *c = a->c;
    enum st_err e = atrace_refuse_busy(a);
    if (!e)
        e = atrace_locked(a, NULL, 4096, NULL);
    if (e)
        return e;
    struct astream *s = astream_new(a);
    if (!s)
        return ST_ENOMEM;
    a->stream = s;
    c->dev_lock = &s->lock;
    e = spool_open(s, 1);
    if (!e)
        e = open_stream(s);
    if (!e)
        e = await_stream(s);
    if (e == ST_EUNSUPPORTED) {
        adb_cmd_free(s->cmd);
        s->cmd = NULL;
        if ((e = atrace_unlock(a)))
            return e;
        return adumps_start(s, s->why);
    }
    if (!e)
        atrace_unlock(a);   /* not fatal: tried again at the stop and cleanup */
    if (!e)
        e = astream_thread(s, reader);
    if (!e) {
        a->t_start_us = capture_now_us();
        ST_DBG(DBG_ATRACE, "streaming from atrace pid %ld", s->pid);
    }
    return e;
}

/* ---- stop ------------------------------------------------------------ */

/* kill -INT atrace in a second shell; wait (bounded) for its stream to
 * end.  Without a pid, closing the stream must do. */
static void ask_stop(struct astream *s)
{
    struct capture *c = s->c;
    if (s->pid <= 0)
        return;
    char pid[24];
    snprintf(pid, sizeof(pid), "%ld", s->pid);
    const char *argv[] = {"kill", "-INT", pid, NULL};
    struct adb_result r;
    enum st_err e = dev_run(c, argv, 65536, &r);
    ST_DBG(DBG_ATRACE, "kill -INT %s: %s, exit %d", pid, st_errname(e), r.exit_code);
    adb_result_free(&r);
    if (c->dev_hung)
        return;     /* no answer: closing the stream is what is left */
    for (int ms = 0; ms < STOP_WAIT_MS && !atomic_load(&s->ended); ms += 20) {
        if (astream_abandoned())
            break;
        plat_sleep_ms(20);
    }
}

/* Tracing must be off now: atrace's own stop did it, unless it was
 * killed or the link broke first; then the device is reset here. */
static void check_off(struct astream *s)
{
    struct atrace *a = s->a;
    struct capture *c = s->c;
    char cmd[128], why[256] = "";
    snprintf(cmd, sizeof(cmd), "cat %s/tracing_on", c->tracing_dir);
    struct adb_result r;
    int on = 1;
    if (!dev_script(c, cmd, 4096, &r) && r.exit_code == 0) {
        char line[16];
        dev_first_line(r.out, line, sizeof(line));
        on = strcmp(line, "0") != 0;
    }
    adb_result_free(&r);
    int clean = !s->early && !s->err &&
                (s->exit_code == 0 || s->exit_code == ADB_EXIT_UNKNOWN);
    ST_DBG(DBG_ATRACE, "after the stream: tracing_on %d, atrace exit %d", on, s->exit_code);
    if (!on && clean) {
        a->dirty = 0;
        return;
    }
    static const char *const stop_argv[] = {"atrace", "--async_stop", NULL};
    static const char *const old_argv[] = {"atrace", "-t", "0", NULL};
    if (atrace_reset(a, c->sdk >= 23 ? stop_argv : old_argv, why, sizeof(why)))
        c->ui.warn(c->ui.ctx, "could not stop tracing on the device (%s); run `adb -s %s "
                              "shell %s` to stop it", why[0] ? why : "unknown reason",
                   c->serial, c->sdk >= 23 ? "atrace --async_stop" : "atrace -t 0");
}

static void make_sure_off(struct astream *s)
{
    struct capture *c = s->c;
    struct dynbuf saved;    /* the error being reported stays as it is */
    dynbuf_init(&saved, 65536);
    dynbuf_addstr(&saved, dynbuf_str(&c->err));
    check_off(s);
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&saved));
    dynbuf_free(&saved);
}

static int astream_streaming(const struct atrace *a)
{
    return a->stream && !a->stream->fallback;
}

static void astream_halt(struct atrace *a)
{
    struct astream *s = a->stream;
    if (s && s->fallback)
        adumps_halt(s);
    if (!astream_streaming(a) || s->halted)
        return;
    s->halted = 1;
    atomic_store(&s->stop, 1);
    if (!atomic_load(&s->ended))
        ask_stop(s);
}

/* A stream that broke off (the link dropped, atrace ended) still makes a
 * page of what arrived, with the process dump and repairs; the run then
 * exits 3.  Not when nothing arrived or the spool itself failed. */
static int cut_short(struct astream *s)
{
    struct capture *c = s->c;
    if (!s->bytes || !spool_events(s) || s->err == ST_EINTR ||
        outfile_error(s->spool) || (s->err && !dev_link_lost(s->err)))
        return 0;
    snprintf(c->cut_short, sizeof(c->cut_short), "%.590s", s->why);
    c->cut_bytes = s->bytes;
    return 1;
}

static enum st_err astream_stop(struct atrace *a)
{
    struct astream *s = a->stream;
    a->t_stop_us = capture_now_us();
    if (s->fallback)
        return adumps_stop(s);
    astream_halt(a);
    reader_end(s, !atomic_load(&s->ended));
    adb_cmd_free(s->cmd);   /* a command still running is hung up on */
    s->cmd = NULL;
    a->c->dev_lock = NULL;
    if (astream_abandoned())
        return ST_EINTR;    /* the agent's cleanup resets the device */
    make_sure_off(s);
    atrace_unlock(a);       /* still there when its removal at the start failed */
    a->c->tracing_off = !a->dirty;
    if (s->early) {
        char what[700];
        snprintf(what, sizeof(what), "the trace stream ended early, after %.1f MB (%s)",
                 (double)s->bytes / 1e6, s->why);
        if (!cut_short(s))
            return astream_failed(s, s->err ? s->err : ST_ECLOSED, what);
    }
    return ST_OK;
}

/* ---- collect, cleanup ------------------------------------------------------ */

static void report(struct astream *s)
{
    struct atrace *a = s->a;
    struct capture *c = s->c;
    uint64_t events = spool_events(s), lost = s->lines ? slines_lost(s->lines) : 0;
    if (s->fallback && s->join)
        lost += djoin_lost(s->join);
    c->ui.note(c->ui.ctx, "Captured %llu events in %.1f s of streaming (%llu lost)",
               (unsigned long long)events, (a->t_stop_us - a->t_start_us) / 1e6,
               (unsigned long long)lost);
    capture_warn_cut(c, s->cut_lines);
    int kb = a->plan.buf_kb ? a->plan.buf_kb : 2048;
    if (lost && s->fallback)
        c->ui.warn(c->ui.ctx, "the device's trace buffer overflowed between dumps and %llu "
                              "events were lost; a larger -b (now %d KB per CPU) holds more",
                   (unsigned long long)lost, kb);
    else if (lost)
        c->ui.warn(c->ui.ctx, "the device's kernel overwrote %llu events before atrace read "
                              "them: the stream did not keep up; a larger -b (now %d KB per "
                              "CPU) gives it more slack", (unsigned long long)lost, kb);
}

static enum st_err astream_collect(struct atrace *a, struct tracewriter *w)
{
    struct astream *s = a->stream;
    struct capture *c = s->c;
    struct tgid_map *m = tgid_map_new();
    if (!m)
        return ST_ENOMEM;
    enum st_err e = atrace_load_tgids(a, m);
    if (e && c->cut_short[0]) {
        /* what arrived is worth a page even without the fix */
        c->ui.warn(c->ui.ctx, "the TGID fix is left out: %s", c->dev_gone
                   ? "the device did not come back to list its threads" : dynbuf_str(&c->err));
        e = ST_OK;
    }
    if (e) {
        char what[600];
        snprintf(what, sizeof(what), "the process listing for the TGID fix failed: %s",
                 dynbuf_str(&c->err));
        tgid_map_free(m);
        return astream_failed(s, e, what);
    }
    e = spool_convert(s, w, m);
    tgid_map_free(m);
    if (e) {
        char what[700];
        /* s->why tells how the stream ended, not why the page failed */
        snprintf(what, sizeof(what), "writing the streamed trace into the page failed: %s",
                 e == ST_EINTR ? (sig_alarmed() ? "stopped at the deadline" : "interrupted")
                 : tw_error(w) ? tw_errtext(w)
                 : e == ST_EIO && s->why[0] ? s->why : st_strerror(e));
        return astream_failed(s, e, what);
    }
    report(s);
    const char *keep = getenv("SYSTRACE_KEEP_RAW");
    const char *kept = keep && !strcmp(keep, "1") ? spool_keep(s) : NULL;
    if (kept)
        c->ui.note(c->ui.ctx, "Raw trace text kept in %s", kept);
    return ST_OK;
}

static void astream_cleanup(struct atrace *a)
{
    struct astream *s = a->stream;
    if (!s)
        return;
    atomic_store(&s->stop, 1);
    reader_end(s, 1);
    adb_cmd_free(s->cmd);   /* closed: adbd hangs up atrace (SIGHUP) */
    s->cmd = NULL;
    a->c->dev_lock = NULL;
    if (s->kept || sig_terminated() || !a->c->traced)
        return;     /* a start that failed recorded nothing worth keeping */
    const char *kept = spool_keep(s);
    if (kept)
        a->c->ui.warn(a->c->ui.ctx, "the %llu bytes streamed are kept in %s (convert them "
                                    "later with: systrace --from-file %s)",
                      (unsigned long long)s->bytes, kept, kept);
}

/* The page failed after the spool was converted: the spool is kept as
 * after a failed collection (never after SIGTERM). */
static void astream_keep(struct atrace *a, int reader_left, struct dynbuf *said)
{
    struct astream *s = a->stream;
    /* a reader that left asked for no file; one kept already is named */
    if (!s || (reader_left && !s->kept) || sig_terminated())
        return;
    const char *kept = spool_keep(s);
    if (kept)
        dynbuf_printf(said, "; the %llu bytes streamed are kept in %s (convert them later "
                            "with: systrace --from-file %s)",
                      (unsigned long long)s->bytes, kept, kept);
}

static int astream_ended(const struct atrace *a)
{
    const struct astream *s = a->stream;
    return s && atomic_load(&s->ended) && s->early;
}

static void astream_free(struct astream *s)
{
    if (!s)
        return;
    reader_end(s, 1);
    adb_cmd_free(s->cmd);
    outfile_free(s->spool);     /* never committed: the temporary file goes */
    slines_free(s->lines);
    djoin_free(s->join);
    dynbuf_free(&s->probe);
    dynbuf_free(&s->errtext);
    for (int i = 0; i < 2; i++)
        plat_sock_close(s->wake[i]);
    fairlock_destroy(&s->lock);
    free(s);
}

static void stream_destroy(struct atrace *a)
{
    if (a->stream)
        a->c->dev_lock = NULL;
    astream_free(a->stream);
    a->stream = NULL;
}

const struct atrace_way stream_way = {
    .start = astream_start,
    .stop = astream_stop,
    .collect = astream_collect,
    .cleanup = astream_cleanup,
    .ended = astream_ended,
    .destroy = stream_destroy,
    .halt = astream_halt,
    .streaming = astream_streaming,
    .keep = astream_keep,
};
