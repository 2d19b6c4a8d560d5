/*
 * The atrace agent's start (catapult-systrace.md §3): the device's
 * categories, the unavailable ones named and dropped (every one missing:
 * refused before anything starts), catapult's argument vector, and
 * `atrace --async_start`, retried without -z when the device's atrace
 * cannot compress.  A start atrace reports only on stderr (it exits 0
 * after "unable to start tracing", e.g. -k on a user build) fails here,
 * saying when root is what is missing.  A device already tracing is
 * refused before anything is set: from the probe, and again inside the
 * start section (atrace_lock.c), where of two runs starting together the
 * second finds the first tracing.  The ways start through these: the
 * one-shot dump (atrace_dump.c), and --stream's periodic dumps where
 * the device's atrace cannot stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrace_int.h"
#include "agents/android/devcmd.h"

static enum st_err list_categories(struct atrace *a)
{
    static const char *const argv[] = {"atrace", "--list_categories", NULL};
    struct adb_result r;
    enum st_err e = dev_run(a->c, argv, LIST_MAX, &r);
    if (!e && r.exit_code != 0 && r.exit_code != ADB_EXIT_UNKNOWN) {
        char line[256];
        dev_first_line(r.out, line, sizeof(line));
        e = atrace_fail(a->c, ST_EDEVICE, "atrace --list_categories failed", line);
    }
    if (!e)
        e = atrace_cats_parse(r.out, r.out_len, a->c->sdk, &a->avail);
    adb_result_free(&r);
    return e;
}

/* The requested root-only kernel categories the device lacks because
 * adbd is not root, space-separated into out. */
static void missing_root_only(struct atrace *a, struct dynbuf *out)
{
    struct capture *c = a->c;
    if (c->root)
        return;
    for (size_t i = 0; i < c->opt->ncategories; i++) {
        const char *cat = c->opt->categories[i];
        if (atrace_root_only(cat) && !atrace_cats_has(&a->avail, cat)) {
            if (out->len)
                dynbuf_addc(out, ' ');
            dynbuf_addstr(out, cat);
        }
    }
}

static void warn_unavailable(struct atrace *a, const char *list)
{
    struct capture *c = a->c;
    c->ui.warn(c->ui.ctx, "These categories are unavailable: %s", list);
    struct dynbuf rootonly;
    dynbuf_init(&rootonly, 4096);
    missing_root_only(a, &rootonly);
    if (rootonly.len)
        c->ui.warn(c->ui.ctx, "%s: kernel categories that need root; on a userdebug or "
                              "eng build run `adb root` first", dynbuf_str(&rootonly));
    dynbuf_free(&rootonly);
}

/* Nothing the user asked for exists on the device: refuse before
 * tracing (catapult traces with no categories and writes an empty page). */
static enum st_err none_available(struct atrace *a, const char *list)
{
    struct capture *c = a->c;
    struct dynbuf rootonly;
    dynbuf_init(&rootonly, 4096);
    missing_root_only(a, &rootonly);
    dynbuf_reset(&c->err);
    dynbuf_printf(&c->err, "none of the requested categories is available on the device "
                           "(%s); `systrace -l` lists the ones it offers", list);
    if (rootonly.len)
        dynbuf_printf(&c->err, " (%s need root: on a userdebug or eng build run `adb root` "
                               "first)", dynbuf_str(&rootonly));
    dynbuf_free(&rootonly);
    return ST_EINVAL;
}

/* The plan for a->compress and a->buf_kb (0: the user's -b); the
 * unavailable categories are named once per capture. */
enum st_err atrace_make_plan(struct atrace *a)
{
    struct dynbuf unavailable;
    dynbuf_init(&unavailable, 65536);
    atrace_plan_free(&a->plan);
    struct capture_opts o = *a->c->opt;
    if (a->buf_kb)
        o.buf_kb = a->buf_kb;
    enum st_err e = atrace_plan_make(&o, &a->avail, a->compress, &a->plan, &unavailable);
    if (!e && !a->plan.nkept && a->c->opt->ncategories)
        e = none_available(a, dynbuf_str(&unavailable));
    else if (!e && unavailable.len && !a->warned && !a->c->opt->default_categories)
        warn_unavailable(a, dynbuf_str(&unavailable));
    a->warned = 1;
    dynbuf_free(&unavailable);
    return e;
}

enum st_err atrace_create(struct capture *c, void **state)
{
    *state = NULL;
    if (c->opt->target != TARGET_ANDROID || !c->dev)
        return ST_OK;
    struct atrace *a = calloc(1, sizeof(*a));
    if (!a)
        return ST_ENOMEM;
    *state = a;
    a->c = c;
    a->compress = c->opt->compress && !c->opt->stream;   /* a stream is text */
    dynbuf_init(&a->errtext, 64 * 1024);
    if (c->sdk < 18) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "device SDK %d is older than 18 (Android 4.3): atrace "
                               "cannot trace it", c->sdk);
        return ST_EUNSUPPORTED;
    }
    if (!c->opt->perfetto && c->perfetto_pid) {
        /* traced_probes drives atrace itself while Perfetto records */
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "a Perfetto session is recording on the device (perfetto pid "
                      "%d); atrace and Perfetto must not run together: wait for it to end or "
                      "stop it first (adb -s %s shell kill %d)", c->perfetto_pid, c->serial,
                      c->perfetto_pid);
        return ST_EDEVICE;
    }
    return list_categories(a);
}

/* atrace did not start: say why in one line, and that root is needed when
 * that is the reason (-k on a user build: current_tracer is root's). */
enum st_err atrace_start_failed_msg(struct atrace *a, const char *how, const char *out,
                                    const char *err)
{
    struct capture *c = a->c;
    char line[256], what[64];
    dev_first_line(*err ? err : out, line, sizeof(line));
    snprintf(what, sizeof(what), "atrace %s failed", how);
    atrace_fail(c, ST_EDEVICE, what, line);
    int denied = strstr(out, "Permission denied") || strstr(err, "Permission denied");
    if (!c->root && c->opt->kfuncs)
        dynbuf_addstr(&c->err, "; kernel function tracing (-k) needs root: on a userdebug "
                               "or eng build run `adb root` first");
    else if (!c->root && denied)
        dynbuf_addstr(&c->err, "; this needs root: on a userdebug or eng build run "
                               "`adb root` first");
    return ST_EDEVICE;
}

/* `atrace ... --async_start` in the start section (atrace_lock.c); *r is
 * filled whatever happens. */
static enum st_err locked_start(struct atrace *a, struct adb_result *r)
{
    *r = (struct adb_result){.exit_code = ADB_EXIT_UNKNOWN};
    const char **argv = atrace_plan_argv(&a->plan, "--async_start");
    struct dynbuf cmd;
    dynbuf_init(&cmd, 1 << 20);
    enum st_err e = argv ? adb_quote_argv(&cmd, argv) : ST_ENOMEM;
    free(argv);
    if (!e)
        e = atrace_locked(a, dynbuf_str(&cmd), LIST_MAX, r);
    dynbuf_free(&cmd);
    return e;
}

enum st_err atrace_async_start(struct atrace *a)
{
    for (;;) {
        struct adb_result r;
        enum st_err e = locked_start(a, &r);
        if (e) {
            adb_result_free(&r);
            return e;
        }
        int rc = r.exit_code;
        if (rc != 0 && a->compress && atrace_rejects_z(r.out, r.err)) {
            adb_result_free(&r);
            a->c->ui.warn(a->c->ui.ctx, "the device's atrace cannot compress (-z); "
                                        "tracing uncompressed");
            a->compress = 0;
            if ((e = atrace_make_plan(a)))
                return e;
            continue;
        }
        /* atrace reports some failures only on stderr and exits 0 */
        if ((rc != 0 && rc != ADB_EXIT_UNKNOWN) || atrace_start_failed(r.out, r.err)) {
            e = atrace_start_failed_msg(a, "--async_start", r.out, r.err);
            adb_result_free(&r);
            return e;
        }
        adb_result_free(&r);
        a->t_start_us = capture_now_us();
        return ST_OK;
    }
}

/* A device already tracing is someone else's capture (another systrace,
 * atrace by hand): starting over it would change its settings, and our stop
 * would end its session.  Refused before anything is set, so the cleanup
 * leaves it alone.  From Android 9 atrace says so in a property the probe
 * read (debug.atrace.user_initiated; tracing_on may be 1 from boot); before,
 * tracing_on is the only sign (init clears it at boot).  An unreadable
 * tracing_on is no answer.  This early refusal takes no lock: the start
 * section asks again (atrace_lock.c). */
enum st_err atrace_refuse_busy(struct atrace *a)
{
    struct capture *c = a->c;
    int busy = c->atrace_user;
    enum st_err e = ST_OK;
    if (c->sdk < 28) {
        char cmd[128], line[16] = "";
        snprintf(cmd, sizeof(cmd), "cat %s/tracing_on", c->tracing_dir);
        struct adb_result r;
        e = dev_script(c, cmd, 4096, &r);
        if (!e && r.exit_code == 0)
            dev_first_line(r.out, line, sizeof(line));
        adb_result_free(&r);
        busy = !e && !strcmp(line, "1");
    }
    return e || !busy ? e : atrace_busy(c);
}
