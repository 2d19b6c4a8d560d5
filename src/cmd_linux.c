/*
 * `systrace --target=linux`: trace this machine's kernel through tracefs
 * (agents/linux/ftrace.c, agents/linux/hostproc_agent.c) with the same controller,
 * signals, progress and output as the Android path, and -l for the
 * categories this kernel offers.  tracefs is found or mounted and the
 * private tracing instance made before the output is opened, so a
 * missing permission is reported before anything is written.
 *
 * Kernel state: the agents restore it after collecting, after errors,
 * Ctrl-C and SIGTERM; tracefs_close() here is the last line (and unmounts
 * what was mounted).  A third Ctrl-C exits at once: the signal handler
 * runs the restore first (async-signal-safe subset, tracefs_emergency).
 * Exit codes as cmd_live.c: 130 after Ctrl-C during collection, 143 after
 * SIGTERM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outname.h"
#include "commands.h"
#include "controller.h"
#include "agents/linux/ftrace_cats.h"
#include "agents/linux/ftrace_fs.h"
#include "result.h"
#include "lib/signals.h"
#include "formats/html/tracewriter.h"
#include "ui.h"

/* Put the kernel back from the signal handler, when a third Ctrl-C exits
 * at once (async-signal-safe). */
static void emergency(void *ctx)
{
    tracefs_emergency(ctx);
}

static int fail_msg(const char *what)
{
    fprintf(stderr, "systrace: --target=linux: %s\n", what);
    return EXIT_ERROR;
}

static int list_categories(struct tracefs *t)
{
    struct dynbuf text, out;
    dynbuf_init(&text, 16u << 20);
    dynbuf_init(&out, 1u << 20);
    struct evset *s = evset_new();
    enum st_err e = s ? tracefs_read(t, 1, "available_events", &text) : ST_ENOMEM;
    if (!e)
        e = evset_parse(s, dynbuf_str(&text), text.len);
    if (!e)
        e = fcat_list(s, &out);
    if (!e)
        fputs(dynbuf_str(&out), stdout);
    int rc = e ? fail_msg(e == ST_ENOMEM ? st_strerror(e) : t->err) : EXIT_OK;
    evset_free(s);
    dynbuf_free(&text);
    dynbuf_free(&out);
    return rc;
}

static void warn_ignored(const struct st_options *o, struct capture *c)
{
    if (o->apps)
        c->ui.warn(c->ui.ctx, "-a applies to Android devices; ignored with --target=linux");
    if (!o->compress)
        c->ui.warn(c->ui.ctx, "--no-compress applies to Android devices; ignored with "
                              "--target=linux");
}

static int use_instance(void)
{
    const char *v = getenv("SYSTRACE_FTRACE_INSTANCE");
    return !v || strcmp(v, "0") != 0;
}

struct run {
    const struct st_options *o;
    struct capture_opts copt;
    struct capture c;
    struct ui u;
    struct result res;
    int sigfd;
};

static int capture(struct run *r)
{
    int rc = result_open(r->o, ".ftrace", &r->res);
    if (rc)
        return rc;
    r->res.device = "linux";
    r->c.raw_path = r->res.raw;
    enum st_err e = controller_run(&r->c, &r->u, r->res.w, r->sigfd);
    if (e) {
        result_report_error(&r->res, "--target=linux", dynbuf_str(&r->c.err));
        return sig_terminated() || e == ST_EINTR ? sig_exit_status() : EXIT_ERROR;
    }
    return result_commit(r->o, &r->res);
}

static int linux_run(const struct st_options *o)
{
    struct run r;
    memset(&r, 0, sizeof(r));
    r.o = o;
    options_capture(o, &r.copt);
    r.c.opt = &r.copt;
    r.c.host = 1;
    r.c.serial = "linux";
    dynbuf_init(&r.c.err, 8192);
    ui_init(&r.u, o->quiet, &r.c.ui);
    r.sigfd = sig_install();
    struct tracefs *t = tracefs_new();
    int rc = EXIT_OK;
    if (!t) {
        rc = fail_msg("out of memory");
    } else if (tracefs_open(t)) {
        rc = fail_msg(t->err);
    } else {
        sig_set_emergency(emergency, t);
        r.c.tfs = t;
        snprintf(r.c.tracing_dir, sizeof(r.c.tracing_dir), "%.63s", t->root);
        if (t->notes[0])
            r.c.ui.warn(r.c.ui.ctx, "%s", t->notes);
        if (o->list_categories) {
            rc = list_categories(t);
        } else if (tracefs_begin(t, use_instance())) {
            rc = fail_msg(t->err);
        } else {
            warn_ignored(o, &r.c);
            rc = capture(&r);
        }
    }
    if (t && tracefs_close(t)) {
        fprintf(stderr, "systrace: warning: the kernel's tracing settings were not all "
                        "restored: %s\n", t->err);
        rc = rc ? rc : EXIT_ERROR;
    }
    sig_set_emergency(NULL, NULL);
    tracefs_free(t);
    result_free(&r.res);
    dynbuf_free(&r.c.err);
    ui_free(&r.u);
    sig_restore();
    return rc;
}

/* Without -o, an existing trace.html is kept (src/outname.h). */
int cmd_linux(const struct st_options *o)
{
    if (o->output || o->list_categories)
        return linux_run(o);
    struct outname name;
    char err[512];
    if (outname_pick(o, &name, err, sizeof(err))) {
        fprintf(stderr, "systrace: %s\n", err);
        return EXIT_ERROR;
    }
    if (name.taken)
        fprintf(stderr, "systrace: warning: %s already exists and is left alone; this capture "
                        "goes to %s (-o names the output)\n", name.taken, name.path);
    struct st_options lo = *o;
    lo.output = name.path;
    int rc = linux_run(&lo);
    outname_free(&name);
    return rc;
}
