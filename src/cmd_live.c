/*
 * Live capture from Android devices through the adb server (or directly),
 * and -l.  Everything that can fail before tracing starts is checked first
 * (server, device, viewer, output paths), so a bad command line never
 * leaves a device tracing or wastes a capture.
 *
 * One device runs on this thread, its adb calls watching the signal pipe
 * itself.  Several (-e A -e B, --all-devices) run side by side on worker
 * threads (at most MAX_WORKERS; a device's pipeline streams, so memory
 * grows by a bounded amount per device): all are started, one wait ends
 * tracing on all, all are collected in parallel.  This thread keeps the
 * signal pipe and passes every cancel on to each device's own pipe.  A
 * device that fails costs the others nothing; every device's outcome is
 * printed on one line at the end.
 *
 * Exit codes: cli.h; 130 after Ctrl-C during collection, 143 after
 * SIGTERM; with several devices non-zero if any failed.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "devrun.h"
#include "rows.h"
#include "browser.h"
#include "lib/signals.h"
#include "pfopen.h"
#include "presets.h"
#include "runsum.h"

#define TESTED_SERVER_VERSION 41
#define MAX_WORKERS 32

struct live {
    const struct st_options *o;
    struct ui u;
    struct capture_ui hooks;        /* messages of the run as a whole */
    int sigfd;
    int direct;                     /* devices are opened without the server */
    char server_err[600];           /* auto: why not through the server */
    const char *want[ST_MAX_DEVICES];
    char *owned[ST_MAX_DEVICES];    /* serials listed by --all-devices */
    size_t n;
    struct devrun *d;
    struct viewer v;                /* loaded once for every page */
    int have_viewer;
};

/* The server answers (and is a version we know), or direct is the way. */
static int choose_transport(struct live *l)
{
    if (l->o->transport == TRANSPORT_DIRECT) {
        l->direct = 1;
        return EXIT_OK;
    }
    struct adb_client *c = adb_client_new();
    if (!c || adb_client_use_env(c)) {
        fprintf(stderr, "systrace: adb: %s\n", c ? adb_client_error(c) : "out of memory");
        adb_client_free(c);
        return EXIT_ERROR;
    }
    adb_client_set_cancel_fd(c, l->sigfd);
    unsigned version = 0;
    enum st_err e = adb_server_version(c, &version);
    int rc = EXIT_OK;
    if (e == ST_ECONNECT && l->o->transport == TRANSPORT_AUTO) {
        l->direct = 1;
        snprintf(l->server_err, sizeof(l->server_err), "%s", adb_client_error(c));
    } else if (e) {
        fprintf(stderr, "systrace: adb server: %s\n", adb_client_error(c));
        rc = EXIT_ERROR;
    } else if (version != TESTED_SERVER_VERSION) {
        l->hooks.warn(l->hooks.ctx, "adb server version %u differs from %u, the version "
                                    "systrace is tested with; continuing (systrace never "
                                    "restarts a server)", version, TESTED_SERVER_VERSION);
    }
    adb_client_free(c);
    return rc;
}

/* --all-devices: every device the server lists in state "device". */
static int list_all(struct live *l)
{
    if (l->direct) {
        fprintf(stderr, "systrace: --all-devices: needs the adb server (%s)\n",
                l->server_err[0] ? l->server_err : "--transport direct");
        return EXIT_ERROR;
    }
    struct adb_client *c = adb_client_new();
    struct adb_device_list *devs = NULL;
    enum st_err e = !c ? ST_ENOMEM : adb_client_use_env(c);
    if (!e)
        e = adb_server_devices(c, &devs);
    if (e) {
        fprintf(stderr, "systrace: --all-devices: %s\n", c ? adb_client_error(c)
                                                          : st_strerror(e));
        adb_client_free(c);
        return EXIT_ERROR;
    }
    for (size_t i = 0; i < devs->n && l->n < ST_MAX_DEVICES; i++) {
        if (devs->v[i].st == ADB_STATE_DEVICE && (l->owned[l->n] = strdup(devs->v[i].serial))) {
            l->want[l->n] = l->owned[l->n];
            l->n++;
        }
    }
    int rc = EXIT_OK;
    if (!l->n) {
        fprintf(stderr, "systrace: --all-devices: no device is in state \"device\" (`adb "
                        "devices` lists %zu device%s)\n", devs->n, devs->n == 1 ? "" : "s");
        rc = EXIT_ERROR;
    }
    adb_device_list_free(devs);
    adb_client_free(c);
    return rc;
}

/* ---- several devices side by side ------------------------------------- */

enum phase { PH_OPEN, PH_LIST, PH_COLLECT, PH_ABORT };

struct pool {
    struct live *l;
    enum phase ph;
    atomic_size_t next, done;
};

static void run_phase_one(struct live *l, struct devrun *d, enum phase ph)
{
    if (ph == PH_OPEN) {
        if (devrun_connect(d, l->direct, l->server_err[0] ? l->server_err : NULL) == EXIT_OK &&
            !l->o->list_categories)
            devrun_start(d, l->have_viewer ? &l->v : NULL);
    } else if (ph == PH_LIST) {
        if (d->rc == EXIT_OK)
            devrun_list(d);
    } else if (ph == PH_COLLECT) {
        if (d->started && devrun_collect(d) == EXIT_OK)
            devrun_commit(d);
    } else {
        devrun_abort(d, ST_EINTR);
    }
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    size_t i;
    while ((i = atomic_fetch_add(&p->next, 1)) < p->l->n) {
        run_phase_one(p->l, &p->l->d[i], p->ph);
        atomic_fetch_add(&p->done, 1);
    }
    return NULL;
}

/* Whether a signal now cancels what the devices are doing: any, but a
 * hang-up during collection (sig_hangup_stops keeps those off the pipe). */
static void forward_signals(struct live *l)
{
    sig_drain();
    for (size_t i = 0; i < l->n; i++)
        devrun_cancel(&l->d[i]);
}

/* Run a phase on every device, on worker threads, while this thread keeps
 * the signal pipe. */
static void run_parallel(struct live *l, enum phase ph)
{
    struct pool p = {.l = l, .ph = ph};
    size_t nw = l->n < MAX_WORKERS ? l->n : MAX_WORKERS, started = 0;
    pthread_t th[MAX_WORKERS];
    for (; started < nw; started++)
        if (pthread_create(&th[started], NULL, worker, &p) != 0)
            break;
    if (!started)
        worker(&p);     /* no thread to be had: one after the other */
    while (atomic_load(&p.done) < l->n) {
        struct plat_pollfd pf = {l->sigfd, PLAT_POLLIN, 0};
        if (plat_poll(&pf, 1, 100) > 0 && ph != PH_ABORT)
            forward_signals(l);
    }
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

static size_t count_started(const struct live *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->d[i].started;
    return n;
}

/* The exact commands that stop every device still tracing, for an exit
 * at once. */
static void set_hint(struct live *l)
{
    struct dynbuf h;
    dynbuf_init(&h, 64 * 1024);
    dynbuf_addstr(&h, "the devices may still be tracing; stop them with:");
    for (size_t i = 0; i < l->n; i++)
        if (l->d[i].started)
            dynbuf_printf(&h, "%s %s", i ? ";" : "", l->d[i].stop_cmd);
    sig_set_hint(dynbuf_str(&h));
    dynbuf_free(&h);
}

static int summary(struct live *l)
{
    int rc = EXIT_OK, failed = 0;
    for (size_t i = 0; i < l->n; i++) {
        struct devrun *d = &l->d[i];
        const char *who = d->c.serial ? d->c.serial : d->want;
        if (!l->o->quiet || d->rc != EXIT_OK)  /* -q: only what went wrong */
            printf("%s: %s\n", who, d->outcome[0] ? d->outcome : "not traced");
        if (d->rc != EXIT_OK) {
            failed += d->rc != EXIT_PARTIAL;    /* a page cut short is still a page */
            if (rc == EXIT_OK || d->rc > rc)
                rc = d->rc;     /* 130/143 over 1: say what stopped the run */
        }
    }
    fflush(stdout);
    if (failed)
        fprintf(stderr, "systrace: %d of %zu devices failed\n", failed, l->n);
    return rc;
}

static int run_several(struct live *l)
{
    run_parallel(l, PH_OPEN);
    if (l->o->list_categories) {
        run_parallel(l, PH_LIST);
        if (!l->o->quiet)
            presets_print(stdout);
        return summary(l);
    }
    if (!count_started(l) || sig_terminated() || sig_interrupts()) {
        run_parallel(l, PH_ABORT);
        return summary(l);
    }
    set_hint(l);
    struct dynbuf err;
    dynbuf_init(&err, 4096);
    struct ctl **ctls = calloc(l->n, sizeof(*ctls));
    size_t nc = 0;
    for (size_t i = 0; ctls && i < l->n; i++)
        if (l->d[i].started)
            ctls[nc++] = l->d[i].ctl;
    enum st_err e = ctl_wait(l->d[0].c.opt, &l->hooks, &l->u, l->sigfd, ctls, nc, &err);
    free(ctls);
    if (e) {
        fprintf(stderr, "systrace: %s\n", dynbuf_str(&err));
        run_parallel(l, PH_ABORT);
    } else {
        l->hooks.note(l->hooks.ctx, "Tracing completed. Collecting output...");
        sig_deadline(l->o->collection_timeout_s);
        ui_collect_start(&l->u);
        run_parallel(l, PH_COLLECT);
        sig_deadline(0);
        ui_collect_done(&l->u);
    }
    dynbuf_free(&err);
    sig_set_hint(NULL);
    return summary(l);
}

/* ---- one device, on this thread ---------------------------------------- */

static int run_one(struct live *l)
{
    struct devrun *d = &l->d[0];
    int rc = devrun_connect(d, l->direct, l->server_err[0] ? l->server_err : NULL);
    if (rc)
        return rc;
    if (l->o->list_categories) {
        rc = devrun_list(d);
        if (!rc && !l->o->quiet)
            presets_print(stdout);
        return rc;
    }
    sig_set_hint(d->stop_hint);
    if ((rc = devrun_start(d, NULL)) == EXIT_OK) {
        sig_set_hint(d->stop_hint);     /* the agent may have its own stop command */
        enum st_err e = ctl_wait(d->c.opt, &d->c.ui, &l->u, l->sigfd, &d->ctl, 1, &d->c.err);
        if (e) {
            devrun_abort(d, e);
            result_report_error(&d->res, d->c.serial, dynbuf_str(&d->c.err));
            rc = d->rc;
        } else {
            d->c.ui.note(d->c.ui.ctx, "Tracing completed. Collecting output...");
            sig_deadline(l->o->collection_timeout_s);
            ui_collect_start(&l->u);
            rc = devrun_collect(d);
            sig_deadline(0);
            if (rc != EXIT_OK)
                ui_collect_failed(&l->u);
            ui_collect_done(&l->u);
            if (rc == EXIT_OK)
                rc = devrun_commit(d);
        }
    }
    sig_set_hint(NULL);
    return rc;
}

/* NAME-k.EXT of path (the extension after the last dot of the last
 * component, if any), malloc'd. */
static char *run_name(const char *path, int k)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    size_t stem = dot && dot != (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);
    size_t n = strlen(path) + 16;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s-%d%s", (int)stem, path, k, path + stem);
    return p;
}

/* --runs=N: N launches one after the other, each its own capture into
 * NAME-k (and --summary FILE-k), the app prepared anew before each; stops
 * at the first run that fails.  Then one summary of them all (runsum.h):
 * a line, and --summary FILE. */
static int run_launches(struct live *l)
{
    const struct st_options *o = l->o;
    char *base = options_output_path(o);
    struct runsum *all = runsum_new(o->launch);
    int rc = base && all ? EXIT_OK : EXIT_ERROR;
    for (int k = 1; rc == EXIT_OK && k <= o->runs; k++) {
        struct st_options ok = *o;
        char *out = run_name(base, k);
        char *sum = o->summary ? run_name(o->summary, k) : NULL;
        ok.output = out;
        ok.summary = sum;
        if (!out || (o->summary && !sum) ||
            devrun_init(&l->d[0], &ok, l->want[0], 0, l->sigfd, &l->u)) {
            rc = EXIT_ERROR;
        } else {
            if (!o->quiet)
                printf("Run %d of %d:\n", k, o->runs);
            fflush(stdout);
            rc = run_one(l);
            if (rc == EXIT_OK && runsum_add(all, out, l->d[0].res.sum)) {
                fprintf(stderr, "systrace: out of memory\n");
                rc = EXIT_ERROR;
            }
            devrun_free(&l->d[0]);
            memset(&l->d[0], 0, sizeof(l->d[0]));
        }
        free(out);
        free(sum);
        if (sig_interrupts() || sig_terminated())
            break;
    }
    if (rc == EXIT_OK)
        rc = runsum_commit(all, o->summary, !o->quiet);
    runsum_free(all);
    free(base);
    return rc;
}

static int open_devices(struct live *l)
{
    const struct st_options *o = l->o;
    int several = o->all_devices || o->nserials > 1;
    if (o->all_devices && list_all(l))
        return EXIT_ERROR;
    if (!o->all_devices) {
        l->n = o->nserials ? o->nserials : 1;
        for (size_t i = 0; i < l->n; i++)
            l->want[i] = o->nserials ? o->serials[i] : o->serial;
    }
    if (several && !o->json && !o->list_categories) {
        if (open_viewer(o, &l->v))
            return EXIT_ERROR;
        l->have_viewer = 1;
    }
    if (!(l->d = calloc(l->n, sizeof(*l->d))))
        return EXIT_ERROR;
    if (!several && o->runs > 1) {
        int rc = run_launches(l);
        l->n = 0;   /* each run freed its own */
        return rc;
    }
    for (size_t i = 0; i < l->n; i++)
        if (devrun_init(&l->d[i], o, l->want[i], several, several ? -1 : l->sigfd, &l->u))
            return EXIT_ERROR;
    return several ? run_several(l) : run_one(l);
}

/* --open=perfetto: each device's Perfetto trace (kept even when its page
 * failed), else its written page. */
static void serve_to_perfetto(struct live *l)
{
    const char *paths[ST_MAX_DEVICES];
    size_t n = 0;
    for (size_t i = 0; l->d && i < l->n && n < ST_MAX_DEVICES; i++) {
        struct devrun *d = &l->d[i];
        if (d->c.raw_kept && d->c.raw_kept_path)
            paths[n++] = d->c.raw_kept_path;
        else if (d->rc == EXIT_OK && d->collected && strcmp(d->res.out, "-"))
            paths[n++] = d->res.out;
    }
    if (!n || sig_terminated())
        return;
    sig_drain();    /* a Ctrl-C that ended tracing is not one that ends serving */
    sig_serving();  /* the pages are written: a Ctrl-C now only ends serving */
    pfopen_serve(paths, n, l->o->quiet, l->sigfd);
}

/* When tracing starts, UTC, ISO 8601 (--rows' capture_time). */
static void capture_time(char *out, size_t n)
{
    time_t now = time(NULL);
    struct tm *t = gmtime(&now);    /* the main thread's only call */
    if (!t || !strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", t))
        out[0] = '\0';
}

int cmd_live(const struct st_options *o)
{
    if (o->target == TARGET_LINUX)
        return cmd_linux(o);
    struct live l;
    memset(&l, 0, sizeof(l));
    l.o = o;
    ui_init(&l.u, o->quiet, &l.hooks);
    l.sigfd = sig_install();
    if ((o->nserials > 1 || o->all_devices) && o->output && !strcmp(o->output, "-")) {
        fprintf(stderr, "systrace: -o -: several devices need a file name for their pages\n");
        ui_free(&l.u);
        sig_restore();
        return EXIT_USAGE;
    }
    char when[32] = "";
    int rc = o->rows ? rows_live_check(o->rows) : EXIT_OK;
    if (rc == EXIT_OK)
        rc = choose_transport(&l);
    if (rc == EXIT_OK && o->rows)
        capture_time(when, sizeof(when));
    if (rc == EXIT_OK)
        rc = open_devices(&l);
    /* every device's rows, also of those that failed (error rows) */
    if (o->rows && l.d && !o->list_categories && rows_live_write(o->rows, l.d, l.n, when) &&
        rc == EXIT_OK)
        rc = EXIT_ERROR;
    if (o->open == BROWSER_PERFETTO && !o->list_categories)
        serve_to_perfetto(&l);
    for (size_t i = 0; l.d && i < l.n; i++)
        devrun_free(&l.d[i]);
    free(l.d);
    for (size_t i = 0; i < l.n; i++)
        free(l.owned[i]);
    if (l.have_viewer)
        viewer_free(&l.v);
    ui_free(&l.u);
    sig_restore();
    return rc;
}
