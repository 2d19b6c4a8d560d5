/*
 * The atrace agent (catapult-systrace.md §3, §4): lists the device's
 * categories, drops and names the unavailable ones, starts atrace with
 * catapult's argument vector, writes the clock-sync marker, and at collect
 * time stops atrace and streams its dump straight through the decoder and
 * the repairs into the result — never holding the dump in memory.
 *
 * Beyond catapult: a device whose atrace rejects -z is retried without it;
 * the raw dump is teed to a file that is kept (and named) when collection
 * fails after bytes arrived; whether the clock-sync marker came back is
 * recorded so the controller part is only written when the viewer can use
 * it; cleanup stops tracing on the device after any error or interrupt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
#include "atrace_cmd.h"
#include "lib/debug.h"
#include "formats/atrace/decode.h"
#include "devcmd.h"
#include "formats/atrace/ftrace_norm.h"
#include "formats/atrace/repair.h"

#define LIST_MAX (1u << 20)
#define PROC_LIST_MAX (16u << 20)

struct atrace {
    struct capture *c;
    struct atrace_cats avail;
    struct atrace_plan plan;
    int compress;
    int started;            /* atrace --async_start succeeded */
    /* collect */
    struct decoder *dec;
    struct fnorm *norm;     /* 5-column flags (device kernels >= 5.18) */
    struct repair *rep;
    FILE *raw;
    char *raw_tmp;
    uint64_t raw_bytes;
    struct dynbuf errtext;  /* stderr of the dump command */
};

/* c->err = "what: detail" */
static enum st_err fail(struct capture *c, enum st_err e, const char *what, const char *detail)
{
    dynbuf_reset(&c->err);
    dynbuf_printf(&c->err, "%s: %s", what, detail);
    return e;
}

static enum st_err list_categories(struct atrace *a)
{
    static const char *const argv[] = {"atrace", "--list_categories", NULL};
    struct adb_result r;
    enum st_err e = dev_run(a->c, argv, LIST_MAX, &r);
    if (!e && r.exit_code != 0 && r.exit_code != ADB_EXIT_UNKNOWN) {
        char line[256];
        dev_first_line(r.out, line, sizeof(line));
        e = fail(a->c, ST_EDEVICE, "atrace --list_categories failed", line);
    }
    if (!e)
        e = atrace_cats_parse(r.out, r.out_len, a->c->sdk, &a->avail);
    adb_result_free(&r);
    return e;
}

static void warn_unavailable(struct atrace *a, const char *list)
{
    struct capture *c = a->c;
    c->ui.warn(c->ui.ctx, "These categories are unavailable: %s", list);
    if (c->root)
        return;
    struct dynbuf rootonly;
    dynbuf_init(&rootonly, 4096);
    for (size_t i = 0; i < c->opt->ncategories; i++) {
        const char *cat = c->opt->categories[i];
        if (atrace_root_only(cat) && !atrace_cats_has(&a->avail, cat)) {
            if (rootonly.len)
                dynbuf_addc(&rootonly, ' ');
            dynbuf_addstr(&rootonly, cat);
        }
    }
    if (rootonly.len)
        c->ui.warn(c->ui.ctx, "%s: kernel categories that need root; on a userdebug or "
                              "eng build run `adb root` first", dynbuf_str(&rootonly));
    dynbuf_free(&rootonly);
}

static enum st_err make_plan(struct atrace *a)
{
    struct dynbuf unavailable;
    dynbuf_init(&unavailable, 65536);
    atrace_plan_free(&a->plan);
    enum st_err e = atrace_plan_make(a->c->opt, &a->avail, a->compress, &a->plan,
                                     &unavailable);
    if (!e && unavailable.len)
        warn_unavailable(a, dynbuf_str(&unavailable));
    if (!e && !a->plan.nkept && a->c->opt->ncategories)
        a->c->ui.warn(a->c->ui.ctx, "none of the requested categories is available; "
                                    "`systrace -l` lists what the device offers");
    dynbuf_free(&unavailable);
    return e;
}

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    if (c->opt->target != TARGET_ANDROID || !c->dev)
        return ST_OK;
    struct atrace *a = calloc(1, sizeof(*a));
    if (!a)
        return ST_ENOMEM;
    *state = a;
    a->c = c;
    a->compress = c->opt->compress;
    dynbuf_init(&a->errtext, 64 * 1024);
    if (c->sdk < 18) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "device SDK %d is older than 18 (Android 4.3): atrace "
                               "cannot trace it", c->sdk);
        return ST_EUNSUPPORTED;
    }
    enum st_err e = list_categories(a);
    return e ? e : make_plan(a);
}

static enum st_err start(void *state)
{
    struct atrace *a = state;
    for (;;) {
        const char **argv = atrace_plan_argv(&a->plan, "--async_start");
        if (!argv)
            return ST_ENOMEM;
        struct adb_result r;
        enum st_err e = dev_run(a->c, argv, LIST_MAX, &r);
        free(argv);
        if (e)
            return e;
        int rc = r.exit_code;
        if (rc != 0 && a->compress && atrace_rejects_z(r.out, r.err)) {
            adb_result_free(&r);
            a->c->ui.warn(a->c->ui.ctx, "the device's atrace cannot compress (-z); "
                                        "tracing uncompressed");
            a->compress = 0;
            if ((e = make_plan(a)))
                return e;
            continue;
        }
        if (rc != 0 && rc != ADB_EXIT_UNKNOWN) {
            char line[256];
            dev_first_line(r.err_len ? r.err : r.out, line, sizeof(line));
            adb_result_free(&r);
            return fail(a->c, ST_EDEVICE, "atrace --async_start failed", line);
        }
        adb_result_free(&r);
        a->started = 1;
        return ST_OK;
    }
}

static enum st_err clock_sync(void *state)
{
    struct atrace *a = state;
    struct capture *c = a->c;
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

static enum st_err stop(void *state)
{
    struct atrace *a = state;
    if (a->c->sdk >= 23)
        return ST_OK;   /* --async_stop in collect stops and dumps */
    /* before M there is no --async_stop: stop the kernel, then dump */
    struct dynbuf s;
    dynbuf_init(&s, 4096);
    dynbuf_printf(&s, "echo 0 > %s/tracing_on", a->c->tracing_dir);
    struct adb_result r;
    enum st_err e = dev_script(a->c, dynbuf_str(&s), 65536, &r);
    adb_result_free(&r);
    dynbuf_free(&s);
    return e;
}

/* ---- collect: stop + dump streamed through decoder and repairs ------- */

static enum st_err on_dump(void *ctx, const void *p, size_t n)
{
    struct atrace *a = ctx;
    if (a->raw && fwrite(p, 1, n, a->raw) != n) {
        fclose(a->raw);     /* the tee is a safety net; carry on without it */
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

static enum st_err load_tgids(struct atrace *a, struct tgid_map *m)
{
    struct adb_result r;
    enum st_err e = dev_script(a->c, "echo -n /proc/[0-9]*/task/[0-9]*", PROC_LIST_MAX, &r);
    if (!e)
        e = tgid_map_parse(m, r.out, r.out_len);
    adb_result_free(&r);
    return e;
}

static void open_raw(struct atrace *a)
{
    const char *path = a->c->raw_path;
    if (!path)
        return;
    size_t n = strlen(path) + 8;
    a->raw_tmp = malloc(n);
    if (!a->raw_tmp)
        return;
    snprintf(a->raw_tmp, n, "%s.part", path);
    a->raw = fopen(a->raw_tmp, "wb");
}

/* Keep the raw bytes under their final name; 1 if kept. */
static int keep_raw(struct atrace *a)
{
    if (!a->raw)
        return 0;
    int ok = fclose(a->raw) == 0 && a->raw_bytes > 0 &&
             rename(a->raw_tmp, a->c->raw_path) == 0;
    a->raw = NULL;
    if (!ok)
        remove(a->raw_tmp);
    return ok;
}

static void drop_raw(struct atrace *a)
{
    if (a->raw) {
        fclose(a->raw);
        a->raw = NULL;
        remove(a->raw_tmp);
    }
}

static enum st_err dump_failed(struct atrace *a, enum st_err e, const char *what)
{
    struct capture *c = a->c;
    struct dynbuf d;
    dynbuf_init(&d, 4096);
    dynbuf_addstr(&d, what);
    if (keep_raw(a))
        dynbuf_printf(&d, "; the %llu bytes received are kept in %s (convert them "
                          "later with: systrace --from-file %s)",
                      (unsigned long long)a->raw_bytes, c->raw_path, c->raw_path);
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&d));
    dynbuf_free(&d);
    return e;
}

static enum st_err stream_dump(struct atrace *a)
{
    struct capture *c = a->c;
    const char **argv = atrace_plan_argv(&a->plan, c->sdk >= 23 ? "--async_stop" :
                                                                  "--async_dump");
    if (!argv)
        return ST_ENOMEM;
    struct adb_sink sink = {on_dump, on_stderr, on_progress, a};
    int rc = ADB_EXIT_UNKNOWN;
    ST_DBG(DBG_ATRACE, "dump via mode %d", (int)dev_dump_mode(c));
    enum st_err e = adb_stream_cmd(c->dev, dev_dump_mode(c), argv, &sink, &rc);
    free(argv);
    if (c->sdk >= 23 && (!e || a->raw_bytes))
        a->started = 0;     /* --async_stop ran on the device */
    if (e) {
        struct dynbuf d;
        dynbuf_init(&d, 1024);
        dynbuf_printf(&d, "collecting the trace failed after %llu bytes: %s",
                      (unsigned long long)a->raw_bytes,
                      e == ST_EINTR ? "interrupted" : adb_device_error(c->dev));
        e = dump_failed(a, e, dynbuf_str(&d));
        dynbuf_free(&d);
    }
    return e;
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
        if (keep_raw(a))
            c->ui.warn(c->ui.ctx, "raw data kept in %s", c->raw_path);
    } else if (e) {
        return dump_failed(a, e, decoder_detail(a->dec));
    }
    enum st_err e2 = fnorm_finish(a->norm);
    if (!e2)
        e2 = repair_finish(a->rep);
    if (!e2)
        e2 = tw_end(w);
    c->sync_seen = repair_watch_seen(a->rep);
    if (repair_lines_fixed(a->rep))
        ST_DBG(DBG_ATRACE, "TGID fix: %llu lines", (unsigned long long)repair_lines_fixed(a->rep));
    return e2 ? e2 : e;
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct atrace *a = state;
    struct capture *c = a->c;
    struct tgid_map *m = tgid_map_new();
    if (!m)
        return ST_ENOMEM;
    enum st_err e = load_tgids(a, m);
    if (e) {
        tgid_map_free(m);
        return e;
    }
    struct text_sink ts;
    tw_text_sink(w, &ts);
    struct repair_opts ro = {.tgids = m, .circular = 1, .add_header = 1,
                             .watch = c->sync_written ? c->sync_id : NULL,
                             .observe = c->line_observer, .observe_ctx = c->observer_ctx};
    a->rep = repair_new(&ro, &ts);
    static const struct fnorm_opts auto_flags = {.flags = FNORM_AUTO};
    a->norm = a->rep ? fnorm_new(&auto_flags, repair_write, a->rep) : NULL;
    a->dec = a->norm ? decoder_new(DECODE_ATRACE, fnorm_write, a->norm) : NULL;
    if (!a->dec || (e = tw_begin(w, "systemTraceEvents"))) {
        tgid_map_free(m);
        return e ? e : ST_ENOMEM;
    }
    open_raw(a);
    e = stream_dump(a);
    if (!e || e == ST_ETRUNCATED)
        e = finish_dump(a, w);
    if (!e)
        drop_raw(a);
    tgid_map_free(m);
    if (!e && c->sdk < 23) {
        /* AOSP systrace ends old devices' traces with a 0 s trace so that
         * atrace's categories are switched off again */
        const char **argv = atrace_plan_argv(&a->plan, "-t 0");
        struct adb_sink none = {0};
        if (argv && !adb_stream_cmd(c->dev, ADB_SHELL, argv, &none, NULL))
            a->started = 0;
        free(argv);
    }
    return e;
}

/* After an error or interrupt: make sure the device is not left tracing. */
static void cleanup(void *state)
{
    struct atrace *a = state;
    if (!a || !a->started)
        return;
    const char **argv = atrace_plan_argv(&a->plan, a->c->sdk >= 23 ? "--async_stop" : "-t 0");
    struct adb_sink none = {0};
    if (argv && !adb_stream_cmd(a->c->dev, ADB_SHELL, argv, &none, NULL))
        a->started = 0;
    free(argv);
    if (a->started)
        a->c->ui.warn(a->c->ui.ctx, "could not stop tracing on the device (%s); run "
                                    "`adb shell atrace --async_stop` to stop it",
                      adb_device_error(a->c->dev));
}

static void destroy(void *state)
{
    struct atrace *a = state;
    if (!a)
        return;
    drop_raw(a);
    free(a->raw_tmp);
    decoder_free(a->dec);
    fnorm_free(a->norm);
    repair_free(a->rep);
    atrace_cats_free(&a->avail);
    atrace_plan_free(&a->plan);
    dynbuf_free(&a->errtext);
    free(a);
}

const struct agent_ops atrace_agent = {
    .name = "atrace",
    .create = create,
    .start = start,
    .clock_sync = clock_sync,
    .stop = stop,
    .collect = collect,
    .cleanup = cleanup,
    .destroy = destroy,
};
