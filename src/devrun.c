/* One device's part of a live capture; see devrun.h. */
#include "devrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/perfetto/pflist.h"
#include "agents/android/probe.h"
#include "formats/summary/summary.h"
#include "cli.h"
#include "outname.h"
#include "lib/esctext.h"
#include "lib/plat.h"
#include "lib/signals.h"

static int fail(struct devrun *d, const char *who, const char *what)
{
    fprintf(stderr, "systrace: %s: %s\n", who, what);
    snprintf(d->outcome, sizeof(d->outcome), "failed: %s", what);
    return d->rc = EXIT_ERROR;
}

void devrun_safe_serial(const char *serial, char *out, size_t n)
{
    size_t i = 0;
    for (; serial[i] && i + 1 < n; i++) {
        char ch = serial[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                 (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        out[i] = ok ? ch : '_';
    }
    out[i] = '\0';
}

/* trace.html -> trace-SERIAL.html */
static char *with_serial(const char *path, const char *serial)
{
    char safe[256];
    devrun_safe_serial(serial, safe, sizeof(safe));
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot > name ? (size_t)(dot - path) : strlen(path);
    size_t n = strlen(path) + strlen(safe) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s-%s%s", (int)stem, path, safe, path + stem);
    return p;
}

int devrun_init(struct devrun *d, const struct st_options *o, const char *want, int several,
                int cancel_fd, struct ui *u)
{
    memset(d, 0, sizeof(*d));
    d->o = *o;
    d->want = want;
    d->several = several;
    d->cancel[0] = d->cancel[1] = -1;
    options_capture(&d->o, &d->copt);
    d->c.opt = &d->copt;
    dynbuf_init(&d->c.err, 8192);
    ui_dev_hooks(u, &d->ud, several ? want : "", &d->c.ui);
    d->c.cancel_fd = cancel_fd;
    if (cancel_fd < 0) {
        if (plat_pipe(d->cancel) != 0)
            return -1;
        d->c.cancel_fd = d->cancel[0];
    }
    d->quiet_asked = o->quiet;
    if (several)
        d->o.quiet = 1;     /* the run prints one outcome line per device */
    return 0;
}

static void auth_note(void *ctx, const char *msg)
{
    struct devrun *d = ctx;
    d->c.ui.warn(d->c.ui.ctx, "%s", msg);
}

/* What a user runs when systrace could not stop tracing itself. */
static void set_stop_hint(struct devrun *d)
{
    struct dynbuf q;
    dynbuf_init(&q, 1024);
    if (adb_is_plain_token(d->c.serial))
        dynbuf_addstr(&q, d->c.serial);
    else
        adb_quote_arg(&q, d->c.serial);     /* nothing the user's shell expands */
    snprintf(d->stop_cmd, sizeof(d->stop_cmd), "adb -s %s shell atrace --async_stop",
             dynbuf_str(&q));
    dynbuf_free(&q);
    snprintf(d->stop_hint, sizeof(d->stop_hint), "the device may still be tracing; stop it "
             "with: %s", d->stop_cmd);
    d->c.stop_hint = d->stop_hint;
}

/* Several devices: this one's page, --trace-events file and raw dump are
 * named after its serial.  A default name (no -o) that exists is kept and
 * the page goes to the first free numbered name (src/outname.h). */
static int name_outputs(struct devrun *d, char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    if (!d->several && d->o.output)
        return 0;
    char *out = options_output_path(&d->o);
    if (out && d->several) {
        char *p = with_serial(out, d->c.serial);
        free(out);
        out = p;
    }
    if (!out)
        return -1;
    if (d->o.output) {
        d->out_path = out;
    } else {
        struct outname n;
        if (outname_free_of(out, d->o.json ? ".json" : ".html", &n, err, errlen))
            return -1;
        d->out_path = n.path;
        d->taken = n.taken;
    }
    if (d->several && d->o.trace_events &&
        !(d->te_path = with_serial(d->o.trace_events, d->c.serial)))
        return -1;
    if (d->several && d->o.summary &&
        !(d->sum_path = with_serial(d->o.summary, d->c.serial)))
        return -1;
    d->o.output = d->out_path;
    if (d->te_path)
        d->o.trace_events = d->te_path;
    if (d->sum_path)
        d->o.summary = d->sum_path;
    return 0;
}

int devrun_connect(struct devrun *d, int direct, const char *server_err)
{
    const struct st_options *o = &d->o;
    if (!(d->client = adb_client_new()))
        return fail(d, "adb", "out of memory");
    if (adb_client_use_env(d->client))
        return fail(d, "adb", adb_client_error(d->client));
    adb_client_set_timeout(d->client, o->timeout_s > 0 ? o->timeout_s * 1000
                                                       : ADB_DEFAULT_TIMEOUT_MS);
    adb_client_set_cancel_fd(d->client, d->c.cancel_fd);
    if (direct) {
        adb_client_set_auth_notify(d->client, auth_note, d);
        if (adb_device_open_direct(d->client, d->want, &d->dev)) {
            if (server_err)
                fprintf(stderr, "systrace: adb: %s\n", server_err);
            return fail(d, server_err ? "adb (direct, without a server)" : "adb (direct)",
                        adb_client_error(d->client));
        }
    } else if (adb_device_open(d->client, d->want, &d->dev)) {
        return fail(d, d->several && d->want ? d->want : "adb", adb_client_error(d->client));
    }
    d->c.dev = d->dev;
    d->c.serial = adb_device_info(d->dev)->serial;
    set_stop_hint(d);
    if (device_probe(&d->c))
        return fail(d, d->c.serial, dynbuf_str(&d->c.err));
    char err[512];
    if (name_outputs(d, err, sizeof(err)))
        return fail(d, d->c.serial, err);
    return d->rc = EXIT_OK;
}

int devrun_list(struct devrun *d)
{
    enum st_err e = d->c.opt->perfetto ? perfetto_list_categories(&d->c)
                                       : device_list_categories(&d->c);
    if (e)
        return fail(d, d->c.serial, dynbuf_str(&d->c.err));
    snprintf(d->outcome, sizeof(d->outcome), "listed");
    return EXIT_OK;
}

/* A failed step's exit code: 130/143 for a signal, else 1. */
static int failed_rc(enum st_err e)
{
    return sig_terminated() || e == ST_EINTR ? sig_exit_status() : EXIT_ERROR;
}

static void record(struct devrun *d, enum st_err e)
{
    /* the error may quote the device: no terminal controls through */
    size_t n = d->c.err.len;
    char *shown = malloc(n * 4 + 1);
    if (shown)
        esc_text(shown, n * 4 + 1, dynbuf_str(&d->c.err), n, ESC_KEEP_NL);
    const char *what = shown ? shown : dynbuf_str(&d->c.err);
    result_report_error(&d->res, d->c.serial, what);
    snprintf(d->outcome, sizeof(d->outcome), "%s: %s",
             e == ST_EINTR ? "stopped" : "failed", what);
    free(shown);
    d->rc = failed_rc(e);
}

int devrun_start(struct devrun *d, const struct viewer *v)
{
    if (d->taken && !d->quiet_asked)     /* -q: as --from-file, the name is all */
        d->c.ui.warn(d->c.ui.ctx, "%s already exists and is left alone; this capture goes "
                     "to %s (-o names the output)", d->taken, d->out_path);
    if ((d->rc = result_open_viewer(&d->o, d->o.perfetto ? ".perfetto-trace" : ".atrace", v,
                                    !d->quiet_asked, &d->res))) {
        snprintf(d->outcome, sizeof(d->outcome), "failed: its output cannot be written");
        return d->rc;
    }
    d->c.raw_path = d->res.raw;
    d->c.page = d->res.w;
    d->res.device = d->c.serial;
    d->res.model = d->c.model;
    d->res.release = d->c.release;
    if (d->res.sum)
        summary_set_device(d->res.sum, d->c.model, d->c.release);
    if (d->several) {
        snprintf(d->sum_prefix, sizeof(d->sum_prefix), "%.70s: ", d->c.serial);
        d->res.sum_prefix = d->sum_prefix;
    }
    enum st_err e = ctl_new(&d->c, &d->ctl);
    d->res.ctl = d->ctl;    /* a page that cannot be written keeps the raw data */
    d->started = 1;     /* from here on the device may be tracing */
    if (!e)
        e = ctl_start(d->ctl);
    if (!e && d->c.stop_hint != d->stop_hint) {
        /* the agent's own stop command (--perfetto: kill its session) */
        snprintf(d->stop_cmd, sizeof(d->stop_cmd), "%s", d->c.stop_hint);
        snprintf(d->stop_hint, sizeof(d->stop_hint), "the device may still be tracing; stop "
                 "it with: %s", d->stop_cmd);
    }
    if (e) {
        d->started = 0;     /* ctl_start cleaned up */
        record(d, e);
    }
    return d->rc;
}

int devrun_collect(struct devrun *d)
{
    enum st_err e = ctl_collect(d->ctl, d->res.w);
    d->started = 0;
    if (e)
        record(d, e);
    else
        d->collected = 1;
    return d->rc;
}

int devrun_commit(struct devrun *d)
{
    if (!d->collected)
        return d->rc;
    d->rc = result_commit(&d->o, &d->res);
    if (d->rc == EXIT_OK && d->c.cut_short[0]) {
        /* after the page's own lines, so it is the last word */
        d->c.ui.warn(d->c.ui.ctx, "the capture was cut short after %.1f MB (%s): %s holds "
                     "the %llu bytes that arrived", (double)d->c.cut_bytes / 1e6,
                     d->c.cut_short, d->res.out, (unsigned long long)d->c.cut_bytes);
        snprintf(d->outcome, sizeof(d->outcome), "wrote %s (cut short: %.400s)", d->res.out,
                 d->c.cut_short);
        d->rc = EXIT_PARTIAL;
    } else if (d->rc == EXIT_OK)
        snprintf(d->outcome, sizeof(d->outcome), "wrote %s", d->res.out);
    else
        snprintf(d->outcome, sizeof(d->outcome), "failed: %s cannot be written", d->res.out);
    return d->rc;
}

void devrun_abort(struct devrun *d, enum st_err why)
{
    if (!d->started)
        return;
    ctl_abort(d->ctl);
    d->started = 0;
    d->rc = failed_rc(why);
    snprintf(d->outcome, sizeof(d->outcome), "stopped: tracing stopped, nothing written");
}

void devrun_cancel(struct devrun *d)
{
    char c = 1;
    if (d->cancel[1] >= 0 && plat_sock_write(d->cancel[1], &c, 1) < 0) {
        /* full: readable already, which is all a cancel needs */
    }
}

void devrun_free(struct devrun *d)
{
    ctl_free(d->ctl);
    result_free(&d->res);
    adb_device_free(d->dev);
    adb_client_free(d->client);
    dynbuf_free(&d->c.err);
    free(d->c.raw_kept_path);
    for (int i = 0; i < 2; i++)
        plat_sock_close(d->cancel[i]);
    free(d->out_path);
    free(d->te_path);
    free(d->sum_path);
    free(d->taken);
}
