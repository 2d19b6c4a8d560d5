/*
 * The atrace agent's one-shot way (catapult-systrace.md §3, §4):
 * `atrace --async_start` (atrace_start.c), and at the end `--async_stop`
 * (before Android M: tracing_on cleared, then `--async_dump`) whose dump
 * is streamed straight through the decoder and the repairs into the
 * result, never held in memory.
 *
 * Beyond catapult: the raw dump is teed to a file that is kept (and
 * named) when collection fails after bytes arrived, or when the page
 * cannot be written after it (the tee lives until then: a page written in
 * place, -o - or a FIFO, is copied out only at the end); a dump cut off by a
 * dropped link is fetched again once the device is back (atrace died
 * before clearing its buffer), the part written so far taken back; a
 * kernel buffer too small for the time traced is named with the -b that
 * would have held it; from the dump's first byte (tracing is off by then)
 * a Ctrl-C only says the page is still being written, as for a --stream
 * being converted, and the next one abandons it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/devcmd.h"
#include "atrace_int.h"
#include "lib/debug.h"
#include "lib/outfile.h"
#include "lib/signals.h"

static enum st_err dump_start(struct atrace *a)
{
    enum st_err e = atrace_refuse_busy(a);
    return e ? e : atrace_async_start(a);
}

static enum st_err dump_stop(struct atrace *a)
{
    a->t_stop_us = capture_now_us();
    if (a->c->sdk >= 23)
        return ST_OK;   /* --async_stop in collect stops and dumps */
    /* before M there is no --async_stop: stop the kernel, then dump */
    struct dynbuf s;
    dynbuf_init(&s, 4096);
    dynbuf_printf(&s, "echo 0 > %s/tracing_on", a->c->tracing_dir);
    struct adb_result r;
    enum st_err e = dev_script(a->c, dynbuf_str(&s), 65536, &r);
    if (!e && r.exit_code == 0)
        a->c->tracing_off = 1;  /* the --async_dump that follows is host work */
    adb_result_free(&r);
    dynbuf_free(&s);
    return e;
}

/* atrace --async_stop stops tracing before it writes a byte: from its
 * first one, a Ctrl-C only says the page is still being written, and the
 * dump goes on (the next abandons it), as for a --stream being converted. */
static void dump_began(struct capture *c)
{
    if (c->tracing_off)
        return;
    c->tracing_off = 1;
    ST_DBG(DBG_ATRACE, "the dump began: tracing is off");
    if (c->tracing_stopped)
        c->tracing_stopped(c->tracing_ctx);
}

static enum st_err on_dump(void *ctx, const void *p, size_t n)
{
    struct atrace *a = ctx;
    if (n)
        dump_began(a->c);
    if (a->raw && outfile_write(a->raw, p, n)) {
        outfile_free(a->raw);   /* the tee is a safety net; carry on without it */
        a->raw = NULL;
    }
    a->raw_bytes += n;
    return decoder_feed(a->dec, p, n);
}

static enum st_err on_stderr(void *ctx, const void *p, size_t n)
{
    struct atrace *a = ctx;
    dynbuf_add(&a->errtext, p, n);  /* bounded; the rest is not needed */
    return ST_OK;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct atrace *a = ctx;
    (void)total;
    a->c->ui.progress(a->c->ui.ctx, done);
}

static void open_raw(struct atrace *a)
{
    if (a->c->raw_path && outfile_open_flags(a->c->raw_path, OUTFILE_NOREPLACE, &a->raw)) {
        outfile_free(a->raw);
        a->raw = NULL;
    }
}

/* Keep the raw bytes under a name no other file has (never an earlier
 * run's dump); that name, or NULL.  Only bytes that convert are kept: a
 * dump interrupted before its first event (atrace's " done" line alone)
 * would be a file `--from-file` refuses. */
static const char *keep_raw(struct atrace *a)
{
    if (!a->raw || !a->raw_bytes || !a->rep || !repair_coverage(a->rep)->events ||
        outfile_commit(a->raw))
        return NULL;
    return outfile_path(a->raw);
}

static void drop_raw(struct atrace *a)
{
    outfile_free(a->raw);
    a->raw = NULL;
}

/* The first try's dump once a later one holds as much: removed. */
static void drop_first_raw(struct atrace *a)
{
    if (a->first_raw)
        remove(a->first_raw);
    free(a->first_raw);
    a->first_raw = NULL;
}

/* Collection ended short after a refetch: the first try's dump, when it
 * holds more than this one (to be named to the user), else NULL. */
static const char *first_raw_kept(struct atrace *a)
{
    if (a->first_raw && a->raw_bytes >= a->first_bytes)
        drop_first_raw(a);
    return a->first_raw;
}

/* "; the N bytes WHICH are kept in FILE (convert ...)" */
static void say_kept(struct dynbuf *d, const char *which, uint64_t n, const char *kept)
{
    dynbuf_printf(d, "; the %llu bytes %s are kept in %s (convert them later with: "
                     "systrace --from-file %s)", (unsigned long long)n, which, kept, kept);
}

static enum st_err dump_failed(struct atrace *a, enum st_err e, const char *what)
{
    struct capture *c = a->c;
    struct dynbuf d;
    dynbuf_init(&d, 4096);
    dynbuf_addstr(&d, what);
    const char *first = first_raw_kept(a), *kept = keep_raw(a);
    if (kept)
        say_kept(&d, "received", a->raw_bytes, kept);
    if (first)
        say_kept(&d, "of the first try", a->first_bytes, first);
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&d));
    dynbuf_free(&d);
    return e;
}

/* One try: the dump streamed through the chain.  *rc: atrace's exit
 * status, or ADB_EXIT_UNKNOWN (no shell v2, or the stream broke off). */
static enum st_err stream_dump(struct atrace *a, int *rc)
{
    struct capture *c = a->c;
    const char **argv = atrace_plan_argv(&a->plan, c->sdk >= 23 ? "--async_stop" :
                                                                  "--async_dump");
    if (!argv)
        return ST_ENOMEM;
    struct adb_sink sink = {on_dump, on_stderr, on_progress, a};
    *rc = ADB_EXIT_UNKNOWN;
    if (c->dev_hung) {      /* it timed out before: no second full wait */
        free(argv);
        return ST_ETIMEOUT;
    }
    ST_DBG(DBG_ATRACE, "dump via mode %d", (int)dev_dump_mode(c));
    enum st_err e = adb_stream_cmd(c->dev, dev_dump_mode(c), argv, &sink, rc);
    free(argv);
    return e;
}

static enum st_err stream_failed(struct atrace *a, enum st_err e, const char *why)
{
    struct dynbuf d;
    dynbuf_init(&d, 1024);
    dynbuf_printf(&d, "collecting the trace failed after %llu bytes: %s",
                  (unsigned long long)a->raw_bytes,
                  e != ST_EINTR ? why : sig_alarmed() ? "stopped at the deadline"
                                                      : "interrupted");
    e = dump_failed(a, e, dynbuf_str(&d));
    dynbuf_free(&d);
    return e;
}

/* The dump broke off because the link dropped: the stream failed the way
 * a lost connection fails, or (no exit status on this channel) it just
 * ended while the device is not there. */
static int link_broke(struct atrace *a, enum st_err e, int rc)
{
    if (e)
        return e != ST_EINTR && dev_link_lost(e);
    return rc == ADB_EXIT_UNKNOWN && adb_device_wait(a->c->dev, 1) != ST_OK;
}

static enum st_err finish_dump(struct atrace *a, struct tracewriter *w)
{
    struct capture *c = a->c;
    enum st_err e = decoder_finish(a->dec);
    if (e == ST_ENOTRACE) {
        char line[300];
        dev_first_line(a->errtext.len ? dynbuf_str(&a->errtext) : decoder_detail(a->dec),
                       line, sizeof(line));
        return dump_failed(a, e, a->errtext.len ? line : decoder_detail(a->dec));
    }
    if (e == ST_ETRUNCATED) {
        c->ui.warn(c->ui.ctx, "%s", decoder_detail(a->dec));
        const char *first = first_raw_kept(a), *kept = keep_raw(a);
        if (kept)
            c->ui.warn(c->ui.ctx, "raw data kept in %s", kept);
        if (first)
            c->ui.warn(c->ui.ctx, "the first try's raw data kept in %s", first);
    } else if (e) {
        return dump_failed(a, e, decoder_detail(a->dec));
    }
    enum st_err e2 = fnorm_finish(a->norm);
    if (!e2)
        e2 = repair_finish(a->rep);
    if (!e2)
        e2 = tw_end(w);
    /* a page without one event is no trace (nor was the buffer full) */
    if (!e2 && !repair_coverage(a->rep)->have)
        return dump_failed(a, ST_ENOTRACE, "no trace events found: the device's trace "
                           "holds only its header and comments (nothing was recorded; "
                           "systrace -l lists the categories it has)");
    capture_warn_cut(c, lcut_lines(a->cut));
    c->sync_seen = repair_watch_seen(a->rep);
    if (repair_lines_fixed(a->rep))
        ST_DBG(DBG_ATRACE, "TGID fix: %llu lines", (unsigned long long)repair_lines_fixed(a->rep));
    return e2 ? e2 : e;
}

static void chain_free(struct atrace *a)
{
    decoder_free(a->dec);
    fnorm_free(a->norm);
    repair_free(a->rep);
    lcut_free(a->cut);
    a->dec = NULL;
    a->norm = NULL;
    a->rep = NULL;
    a->cut = NULL;
}

/* A fresh decoding chain (decoder -> 5-column flags -> repairs -> line
 * cut -> the part) and raw tee for one try of the dump. */
static enum st_err chain_new(struct atrace *a, struct tracewriter *w,
                             const struct tgid_map *m)
{
    struct capture *c = a->c;
    chain_free(a);
    struct text_sink ts, cs;
    tw_text_sink(w, &ts);
    struct repair_opts ro = {.tgids = m, .circular = 1, .add_header = 1,
                             .watch = c->sync_written ? c->sync_id : NULL,
                             .observe = c->line_observer, .observe_ctx = c->observer_ctx,
                             .coverage = 1};
    if (!(a->cut = lcut_new(&ts, 0)))
        return ST_ENOMEM;
    lcut_sink(a->cut, &cs);
    a->rep = repair_new(&ro, &cs);
    static const struct fnorm_opts auto_flags = {.flags = FNORM_AUTO};
    a->norm = a->rep ? fnorm_new(&auto_flags, repair_write, a->rep) : NULL;
    a->dec = a->norm ? decoder_new(DECODE_ATRACE, fnorm_write, a->norm) : NULL;
    if (!a->dec)
        return ST_ENOMEM;
    dynbuf_reset(&a->errtext);
    a->raw_bytes = 0;
    drop_raw(a);
    open_raw(a);
    return ST_OK;
}

/* The link dropped during the dump.  atrace died before clearing its
 * buffer, so the trace is still on the device: wait for it to come back
 * (bounded), drop what this try wrote, and fetch it again. */
static enum st_err refetch(struct atrace *a, struct tracewriter *w, enum st_err e)
{
    struct capture *c = a->c;
    char why[400], reason[300];
    dev_first_line(e ? adb_device_error(c->dev) : "the stream ended early", reason,
                   sizeof(reason));
    snprintf(why, sizeof(why), "after %llu bytes of the trace: %s",
             (unsigned long long)a->raw_bytes, reason);
    enum st_err back = dev_wait_back(c, why, ", to fetch the trace again");
    if (back) {
        char gone[600];
        snprintf(gone, sizeof(gone), "%s", back == ST_EINTR ? "interrupted"
                                                            : dynbuf_str(&c->err));
        return stream_failed(a, back, gone);
    }
    /* the first try's bytes stay until a second one holds as much */
    const char *kept = keep_raw(a);
    if (kept && (a->first_raw = strdup(kept)))
        a->first_bytes = a->raw_bytes;
    drop_raw(a);
    e = tw_restart_part(w);
    if (e)
        return atrace_fail(c, e, "cannot fetch the trace again", "the output cannot be rewound");
    return ST_OK;
}

/* atrace's buffer size when no -b is given (frameworks/native atrace.cpp,
 * g_traceBufferSizeKB) */
#define ATRACE_DEFAULT_KB 2048

/* A kernel buffer too small for the time traced loses data without a
 * word (atrace's stops recording, a circular one keeps only the end):
 * say how much was kept and which -b would have held it. */
static void check_coverage(struct atrace *a)
{
    struct capture *c = a->c;
    double kept = coverage_seconds(repair_coverage(a->rep));
    double traced = (a->t_stop_us - a->t_start_us) / 1e6;
    int kb = a->plan.buf_kb ? a->plan.buf_kb : ATRACE_DEFAULT_KB, want;
    if (!a->t_start_us || !coverage_short(kept, traced, kb, &want))
        return;
    c->ui.warn(c->ui.ctx, "the trace covers only %.2f s of the %.1f s traced: the "
                          "device's trace buffer (-b %d, KB per CPU) was full; -b %d would "
                          "have held it%s", kept, traced, kb, want,
               want >= 65536 ? " (or trace fewer categories)" : "");
}

/* Stop atrace and stream its dump into the part; fetched a second time
 * when the link dropped during the first. */
static enum st_err dump_tries(struct atrace *a, struct tracewriter *w,
                              const struct tgid_map *m)
{
    struct capture *c = a->c;
    if (c->sdk >= 23)
        a->t_stop_us = capture_now_us();
    for (int try = 0;; try++) {
        enum st_err e = chain_new(a, w, m);
        int rc = ADB_EXIT_UNKNOWN;
        if (!e)
            e = stream_dump(a, &rc);
        if (e == ST_ENOMEM)
            return e;
        if (e == ST_ETIMEOUT)
            c->dev_gone = c->dev_hung = 1;  /* later steps give up at once */
        if (try == 0 && !c->dev_gone && link_broke(a, e, rc)) {
            if ((e = refetch(a, w, e)))
                return e;
            continue;
        }
        if (e)
            return stream_failed(a, e, c->dev_hung && !a->raw_bytes
                                           ? "the device stopped answering"
                                           : adb_device_error(c->dev));
        if (!e && c->sdk >= 23)
            a->dirty = 0;   /* atrace --async_stop ran to its end: it cleaned up */
        if (!(e = finish_dump(a, w))) {
            check_coverage(a);
            drop_first_raw(a);  /* the page holds all of it */
        }
        return e;
    }
}

static enum st_err dump_collect(struct atrace *a, struct tracewriter *w)
{
    struct capture *c = a->c;
    struct tgid_map *m = tgid_map_new();
    if (!m)
        return ST_ENOMEM;
    enum st_err e = atrace_load_tgids(a, m);
    if (!e)
        e = tw_begin(w, "systemTraceEvents");
    if (!e)
        e = dump_tries(a, w, m);
    tgid_map_free(m);
    if (!e && c->sdk < 23) {
        /* AOSP systrace ends old devices' traces with a 0 s trace so that
         * atrace's categories are switched off again */
        const char **argv = atrace_plan_argv(&a->plan, "-t 0");
        char why[256];
        if (argv)
            atrace_reset(a, argv, why, sizeof(why));
        free(argv);
    }
    return e;
}

/* The page failed after the dump was collected: the tee, until now
 * uncommitted, is kept as after a failed collection (agent.h keep). */
static void dump_keep(struct atrace *a, int reader_left, struct dynbuf *said)
{
    /* a reader that left asked for no file; one kept already is named */
    if (reader_left && (!a->raw || outfile_tmppath(a->raw)))
        return;
    const char *kept = keep_raw(a);
    if (kept)
        say_kept(said, "received", a->raw_bytes, kept);
}

static void dump_cleanup(struct atrace *a)
{
    (void)a;    /* the face resets a device left dirty */
}

static int dump_ended(const struct atrace *a)
{
    (void)a;    /* nothing runs on its own until the stop */
    return 0;
}

static void dump_destroy(struct atrace *a)
{
    drop_raw(a);
    free(a->first_raw);     /* named to the user when kept */
    chain_free(a);
}

const struct atrace_way dump_way = {
    .start = dump_start,
    .stop = dump_stop,
    .collect = dump_collect,
    .cleanup = dump_cleanup,
    .ended = dump_ended,
    .destroy = dump_destroy,
    .keep = dump_keep,
};
