/*
 * --stream for a device whose atrace cannot stream (no --stream before
 * Android 7, or a vendor build refusing it): tracing starts as for a
 * capture (--async_start, which atrace runs in overwrite mode) with a
 * large buffer, and a reader thread dumps it every DUMP_PERIOD_MS with
 * `atrace ... --async_dump` (each dump clears the buffer on the device)
 * into the spool.  The agent's halt ends the dumps (one under way is
 * finished) before the clock sync: a marker written while a dump was read
 * was cleared with the buffer by that dump and never reached the page.
 * The stop is then the usual `--async_stop`, the last dump, which holds it.
 * The dumps are joined as one trace (formats/atrace/streamtext.h: one
 * header, lost events summed from each header's counters).
 *
 * Limits, said when it starts: events between a dump's read and its
 * clearing of the buffer are lost (recent kernels also pause recording
 * while the buffer is read); a dump is never cut short by Ctrl-C (a cut
 * dump's events would come again in the next), only by an abort.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astream_int.h"
#include "agents/android/devcmd.h"
#include "lib/debug.h"
#include "lib/plat.h"

#define DUMP_PERIOD_MS 1000
#define FALLBACK_KB 16384

struct dump {
    struct astream *s;
    struct decoder *dec;
};

static enum st_err dump_out(void *ctx, const void *p, size_t n)
{
    struct dump *d = ctx;
    return decoder_feed(d->dec, p, n);
}

static enum st_err dump_err(void *ctx, const void *p, size_t n)
{
    struct dump *d = ctx;
    dynbuf_add(&d->s->errtext, p, n);   /* bounded; the rest is not needed */
    return ST_OK;
}

/* Read the dump command to its end, a slice at a time (the device is
 * shared); silence longer than the device timeout is an error. */
static enum st_err read_dump(struct astream *s, struct adb_cmd *cmd, struct dump *d)
{
    struct adb_sink sink = {dump_out, dump_err, NULL, d};
    double quiet_since = capture_now_us();
    while (!adb_cmd_ended(cmd)) {
        if (atomic_load(&s->abort))
            return ST_EINTR;
        uint64_t before = s->bytes;
        fairlock_acquire(&s->lock);
        enum st_err e = adb_cmd_read(cmd, &sink, ASTREAM_SLICE_MS);
        fairlock_release(&s->lock);
        double now = capture_now_us();
        if (!e || s->bytes != before)
            quiet_since = now;
        if (e == ST_ETIMEOUT && now - quiet_since < dev_wait_s(s->c) * 1e6)
            continue;
        if (e) {
            dev_first_line(adb_cmd_error(cmd), s->why, sizeof(s->why));
            return e;
        }
    }
    return ST_OK;
}

/* One `atrace ... MODE` whose dump is appended to the spool. */
static enum st_err dump_once(struct astream *s, const char *mode)
{
    struct capture *c = s->c;
    const char **argv = atrace_plan_argv(&s->a->plan, mode);
    struct dynbuf cmd;
    dynbuf_init(&cmd, 65536);
    struct dump d = {s, NULL};
    enum st_err e = argv ? adb_quote_argv(&cmd, argv) : ST_ENOMEM;
    free(argv);
    struct adb_cmd *ac = NULL;
    d.dec = e ? NULL : decoder_new(DECODE_ATRACE, djoin_write, s->join);
    if (!e && !d.dec)
        e = ST_ENOMEM;
    if (!e) {
        djoin_next(s->join);
        dynbuf_reset(&s->errtext);
        fairlock_acquire(&s->lock);
        e = adb_cmd_start(c->dev, dev_dump_mode(c), dynbuf_str(&cmd), &ac);
        fairlock_release(&s->lock);
        if (e)
            dev_first_line(adb_device_error(c->dev), s->why, sizeof(s->why));
    }
    if (!e) {
        adb_cmd_set_cancel_fd(ac, -1);
        e = read_dump(s, ac, &d);
    }
    if (!e && (e = decoder_finish(d.dec)) == ST_ENOTRACE)
        dev_first_line(s->errtext.len ? dynbuf_str(&s->errtext) : decoder_detail(d.dec),
                       s->why, sizeof(s->why));
    if (!e)
        e = djoin_end(s->join);
    ST_DBG(DBG_ATRACE, "dump %u (%s): %s, %llu bytes so far", djoin_dumps(s->join), mode,
           st_errname(e), (unsigned long long)s->bytes);
    adb_cmd_free(ac);
    decoder_free(d.dec);
    dynbuf_free(&cmd);
    return e;
}

/* Sleep until the next dump is due, or a stop or abort wakes us. */
static void nap(struct astream *s, double due)
{
    double left = due - capture_now_us();
    if (left <= 0)
        return;
    struct plat_pollfd p = {s->wake[0], PLAT_POLLIN, 0};
    plat_poll(&p, 1, (int)(left / 1e3) + 1);
}

static void *reader(void *arg)
{
    struct astream *s = arg;
    enum st_err e = ST_OK;
    double due = capture_now_us();
    for (;;) {
        due += DUMP_PERIOD_MS * 1e3;
        nap(s, due);
        if (atomic_load(&s->stop) || atomic_load(&s->abort))
            break;
        if ((e = dump_once(s, "--async_dump")))
            break;
        double now = capture_now_us();
        if (due < now)
            due = now;  /* a dump longer than the period: the next at once */
    }
    s->err = atomic_load(&s->abort) ? ST_EINTR : e;
    s->early = !atomic_load(&s->stop);
    if (s->c->ui.stream)
        s->c->ui.stream(s->c->ui.ctx, s->bytes, spool_events(s));
    if (s->early && s->err != ST_EINTR)
        s->c->ui.warn(s->c->ui.ctx, "dumping the device's trace buffer failed after %.1f MB "
                                    "(%s)", (double)s->bytes / 1e6, s->why);
    atomic_store(&s->ended, 1);
    return NULL;
}

enum st_err adumps_start(struct astream *s, const char *why)
{
    struct atrace *a = s->a;
    struct capture *c = s->c;
    s->fallback = 1;
    a->compress = c->opt->compress;
    a->buf_kb = c->opt->buf_kb > 0 ? 0 : FALLBACK_KB;   /* -b given: the user's */
    enum st_err e = atrace_make_plan(a);
    if (!e)
        c->ui.warn(c->ui.ctx, "the device's atrace cannot stream (%s); dumping its trace "
                              "buffer every %d s instead (-b %d KB per CPU): events that "
                              "happen while a dump is read may be lost", why,
                   DUMP_PERIOD_MS / 1000, a->plan.buf_kb);
    if (!e)
        e = spool_open(s, 0);   /* the first dump's header becomes the spool's */
    if (!e && !(s->join = djoin_new(spool_write, s)))
        e = ST_ENOMEM;
    if (!e)
        e = atrace_async_start(a);
    if (!e)
        e = astream_thread(s, reader);
    if (!e)
        a->t_start_us = capture_now_us();
    return e;
}

void adumps_halt(struct astream *s)
{
    atomic_store(&s->stop, 1);
    char b = 1;
    if (plat_sock_write(s->wake[1], &b, 1) < 0) {
        /* full: readable already */
    }
    if (s->th_started)
        pthread_join(s->th, NULL);
    s->th_started = 0;
}

enum st_err adumps_stop(struct astream *s)
{
    struct atrace *a = s->a;
    struct capture *c = s->c;
    adumps_halt(s);
    c->dev_lock = NULL;
    char what[700];
    if (s->early) {
        snprintf(what, sizeof(what), "dumping the device's trace buffer failed after %.1f "
                                     "MB (%s)", (double)s->bytes / 1e6, s->why);
        return astream_failed(s, s->err ? s->err : ST_EDEVICE, what);
    }
    enum st_err e = ST_OK;
    if (c->sdk < 23) {      /* no --async_stop: stop the kernel, then dump */
        struct adb_result r;
        snprintf(what, sizeof(what), "echo 0 > %s/tracing_on", c->tracing_dir);
        e = dev_script(c, what, 65536, &r);
        adb_result_free(&r);
    }
    if (!e)
        e = dump_once(s, c->sdk >= 23 ? "--async_stop" : "--async_dump");
    if (!e)
        e = spool_end(s);
    if (!e && c->sdk >= 23)
        a->dirty = 0;       /* atrace --async_stop ran to its end: it cleaned up */
    if (!e && c->sdk < 23) {
        static const char *const old_argv[] = {"atrace", "-t", "0", NULL};
        char why[256];
        atrace_reset(a, old_argv, why, sizeof(why));
    }
    if (e) {
        snprintf(what, sizeof(what), "the last dump of the device's trace buffer failed (%s)",
                 s->why[0] ? s->why : st_strerror(e));
        return astream_failed(s, e, what);
    }
    return ST_OK;
}
