/* Agent lifecycle; see controller.h. */
#include "controller.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb.h"
#include "agents/agent.h"
#include "lib/plat.h"
#include "lib/signals.h"

#define MAX_AGENTS 8

struct ctl {
    struct capture *c;
    const struct agent_ops *ops[MAX_AGENTS];
    void *st[MAX_AGENTS];
    int n;
    int started;            /* agents [0, started) were started */
    int tracing;            /* counted in sig_tracing_begin */
};

/* Empty the capture's cancel pipe so the cleanup commands can reach the
 * device (the pipe says a cancel happened; the counters say why). */
static void drain(int fd)
{
    char buf[64];
    while (fd >= 0 && plat_sock_read(fd, buf, sizeof(buf)) > 0) {
    }
}

/* The second Ctrl-C's word, once per run (several captures share it),
 * before the (maybe slow) cleanup starts. */
static void say_abandon(const struct capture_ui *ui)
{
    static atomic_int said;
    if (sig_interrupts() >= 2 && !sig_terminated() && !atomic_exchange(&said, 1))
        ui->note(ui->ctx, sig_tracing_over()
                              ? "Interrupted again: abandoning the page (tracing had "
                                "stopped; Ctrl-C once more exits at once)"
                              : "Interrupted again: abandoning the trace and stopping "
                                "tracing (Ctrl-C once more exits at once)");
}

/* This capture no longer counts as tracing (once). */
static void tracing_done(struct ctl *r)
{
    if (r->tracing)
        sig_tracing_end();
    r->tracing = 0;
}

/* The capture's device stopped tracing while it is collected (capture.h
 * tracing_stopped), as after a stop phase that set tracing_off. */
static void tracing_stopped(void *ctx)
{
    tracing_done(ctx);
}

/* The device is reset with its cancel fd set aside: a Ctrl-C counted
 * before its byte reached the pipe (several devices: the main thread
 * forwards it) cancelled the reset itself and left a device tracing.
 * The device's timeouts bound the reset; a third Ctrl-C exits at once
 * from the signal handler. */
static void cleanup(struct ctl *r)
{
    say_abandon(&r->c->ui);
    tracing_done(r);
    drain(r->c->cancel_fd);
    if (r->c->dev)
        adb_device_set_cancel_fd(r->c->dev, -1);
    for (int i = r->started - 1; i >= 0; i--)
        if (r->ops[i]->cleanup)
            r->ops[i]->cleanup(r->st[i]);
    if (r->c->dev)
        adb_device_set_cancel_fd(r->c->dev, r->c->cancel_fd);
    r->started = 0;
}

/* 1: stop tracing now; 0: keep waiting; -1: SIGTERM or a second Ctrl-C. */
static int check_signals(const struct capture_ui *ui)
{
    sig_drain();
    if (sig_terminated() || sig_interrupts() >= 2)
        return -1;
    if (sig_interrupts()) {
        ui->note(ui->ctx, sig_hangup() ? "Hang-up: stopping the trace early and collecting it"
                                       : "Interrupted: stopping the trace early and "
                                         "collecting it (press Ctrl-C again to abort)");
        return 1;
    }
    return 0;
}

int ctl_ended(struct ctl *r)
{
    for (int i = 0; r && i < r->started; i++) {
        int v = r->ops[i]->ended ? r->ops[i]->ended(r->st[i]) : 0;
        if (v)
            return v;
    }
    return 0;
}

/* Every capture's tracing ended on its own: nothing left to wait for. */
static int all_ended(struct ctl *const *ctls, size_t n, const struct capture_ui *ui)
{
    size_t k = 0;
    int done = 1;   /* each has what it was for: no note */
    int v;
    while (k < n && (v = ctl_ended(ctls[k])) != 0) {
        done &= v == AGENT_DONE;
        k++;
    }
    if (!n || k < n)
        return 0;
    if (!done)
        ui->note(ui->ctx, "Tracing ended on its own: collecting what arrived");
    return 1;
}

/* Standard input ended (a script, cron, `&`, `< /dev/null`): no Enter can
 * come.  On a terminal (Ctrl-D) that is the user's stop; elsewhere an
 * untimed capture goes on until a signal instead of ending at once. */
static int no_enter(const struct capture_ui *ui, long t)
{
    if (plat_isatty(STDIN_FILENO))
        return 0;
    if (t <= 0)
        ui->note(ui->ctx, "Standard input is not a terminal and has ended: tracing until "
                          "interrupted (Ctrl-C, or kill -INT/-HUP %ld); use -t for a fixed "
                          "time", (long)plat_getpid());
    return 1;
}

/* Wait -t, or for Enter; Enter also ends a timed wait on a TTY.  A wait
 * with streams looks at them four times a second. */
static enum st_err wait_loop(const struct capture_opts *o, const struct capture_ui *ui,
                             struct ui *u, int sigfd, struct ctl *const *ctls, size_t nctl)
{
    int tick = o->stream ? 250 : 1000;
    long t = o->time_ms;
    int use_stdin = t <= 0 || plat_isatty(STDIN_FILENO);
    double start = capture_now_us(), end = start + (t > 0 ? (double)t * 1e3 : 0);
    if (t > 0)
        ui->note(ui->ctx, "Starting tracing (%g seconds)", (double)t / 1e3);
    else
        ui->note(ui->ctx, "Starting tracing (stop with enter)");
    for (;;) {
        double now = capture_now_us(), left = end - now;
        if (t > 0 && left <= 0)
            break;
        ui_countdown(u, t > 0 ? (int)(left / 1e6 + 0.999) : -1, (int)((now - start) / 1e6));
        if (all_ended(ctls, nctl, ui))
            break;
        struct plat_pollfd p[2] = {{sigfd, PLAT_POLLIN, 0},
                                   {use_stdin ? plat_stdin_fd() : -1, PLAT_POLLIN, 0}};
        int ms = t > 0 && left < tick * 1e3 ? (int)(left / 1e3) + 1 : tick;
        int k = plat_poll(p, use_stdin ? 2 : 1, ms);
        if (k < 0)
            continue;   /* EINTR: the pipe says why */
        if (p[0].revents) {
            int s = check_signals(ui);
            if (s < 0)
                return ST_EINTR;
            if (s > 0)
                break;
        }
        if (use_stdin && p[1].revents) {
            char buf[256];
            ssize_t n = plat_stdin_read(buf, sizeof(buf));
            if (n > 0 && memchr(buf, '\n', (size_t)n))
                break;
            if (n <= 0 && !no_enter(ui, t))
                break;
            if (n <= 0)
                use_stdin = 0;
        }
    }
    return ST_OK;
}

enum st_err ctl_wait(const struct capture_opts *o, const struct capture_ui *hooks,
                     struct ui *u, int sigfd, struct ctl *const *ctls, size_t n,
                     struct dynbuf *err)
{
    enum st_err e = wait_loop(o, hooks, u, sigfd, ctls, n);
    ui_endline(u);
    if (e == ST_EINTR && err)
        dynbuf_addstr(err, sig_terminated() ? "terminated while tracing; tracing stopped, "
                                              "nothing written"
                                            : "interrupted twice while tracing; tracing "
                                              "stopped, nothing written");
    sig_hangup_stops(0);            /* a closed terminal must not cancel collection */
    return e;
}

/* SIGTERM, a second Ctrl-C or the deadline: whatever is under way stops. */
static int abandoned(void)
{
    return sig_terminated() || sig_interrupts() >= 2 || sig_alarmed();
}

enum phase { PH_START, PH_HALT, PH_SYNC, PH_STOP, PH_COLLECT };

static enum st_err run_phase(struct ctl *r, enum phase phase, struct tracewriter *w)
{
    struct capture *c = r->c;
    for (int i = 0; i < r->n; i++) {
        const struct agent_ops *a = r->ops[i];
        enum st_err e = ST_OK;
        if (abandoned())
            return ST_EINTR;    /* a step that would not block must not miss it */
        if (phase == PH_START) {
            e = a->start(r->st[i]);
            r->started = i + 1;
        } else if (phase == PH_HALT && a->halt) {
            e = a->halt(r->st[i]);
        } else if (phase == PH_SYNC && a->clock_sync) {
            e = a->clock_sync(r->st[i]);
            if (e && e != ST_EINTR) {   /* a missed sync only costs alignment */
                c->ui.warn(c->ui.ctx, "clock sync failed: %s", dynbuf_str(&c->err));
                e = ST_OK;
            }
        } else if (phase == PH_STOP) {
            e = a->stop(r->st[i]);
        } else if (phase == PH_COLLECT) {
            e = a->collect(r->st[i], w);
        }
        if (e)
            return e;
    }
    return ST_OK;
}

enum st_err ctl_new(struct capture *c, struct ctl **out)
{
    struct ctl *r = calloc(1, sizeof(*r));
    *out = r;
    if (!r)
        return ST_ENOMEM;
    r->c = c;
    c->tracing_stopped = tracing_stopped;
    c->tracing_ctx = r;
    for (int i = 0; st_agents[i] && r->n < MAX_AGENTS; i++) {
        void *st = NULL;
        enum st_err e = st_agents[i]->create(c, &st);
        if (st) {
            r->ops[r->n] = st_agents[i];
            r->st[r->n++] = st;
        }
        if (e)
            return e;
    }
    return ST_OK;
}

enum st_err ctl_explain(struct capture *c, enum st_err e)
{
    if (sig_alarmed()) {
        /* the agent's detail says what was kept; keep it after the cause */
        struct dynbuf d;
        dynbuf_init(&d, c->err.max);
        dynbuf_printf(&d, "collecting the trace took longer than --collection-timeout=%d s",
                      c->opt->collection_timeout_s);
        if (c->err.len)
            dynbuf_printf(&d, " (%s)", dynbuf_str(&c->err));
        dynbuf_reset(&c->err);
        dynbuf_addstr(&c->err, dynbuf_str(&d));
        dynbuf_free(&d);
        return ST_ETIMEOUT;
    }
    if (e == ST_EINTR && !c->err.len)
        dynbuf_addstr(&c->err, sig_terminated() ? "terminated" : "interrupted");
    return e;
}

enum st_err ctl_start(struct ctl *r)
{
    enum st_err e = run_phase(r, PH_START, NULL);
    if (e == ST_EINTR && !sig_alarmed()) {
        /* whatever step was under way (a ps, a probe) is ours, not the user's */
        dynbuf_reset(&r->c->err);
        dynbuf_addstr(&r->c->err, sig_terminated() ? "terminated while starting; tracing "
                                                     "stopped, nothing written"
                                                   : "interrupted while starting; tracing "
                                                     "stopped, nothing written");
    }
    if (e) {
        e = ctl_explain(r->c, e);
        cleanup(r);
    }
    r->c->traced = !e;
    if (!e && !r->tracing) {
        r->tracing = 1;
        sig_tracing_begin();
    }
    return e;
}

enum st_err ctl_collect(struct ctl *r, struct tracewriter *w)
{
    struct capture *c = r->c;
    enum st_err e = run_phase(r, PH_HALT, w);
    if (!e)
        e = run_phase(r, PH_SYNC, w);
    if (!e)
        e = run_phase(r, PH_STOP, w);
    if (!e && c->tracing_off)
        tracing_done(r);    /* a Ctrl-C now need not cost the page */
    if (!e)
        e = run_phase(r, PH_COLLECT, w);
    tracing_done(r);
    if (!e && abandoned())
        e = ST_EINTR;           /* asked to abandon while the last step finished */
    if (e) {
        e = ctl_explain(c, e);
        cleanup(r);
    }
    return e;
}

void ctl_abort(struct ctl *r)
{
    if (r)
        cleanup(r);
}

void ctl_keep(struct ctl *r, int reader_left, struct dynbuf *said)
{
    for (int i = 0; r && i < r->n; i++)
        if (r->ops[i]->keep)
            r->ops[i]->keep(r->st[i], reader_left, said);
}

void ctl_free(struct ctl *r)
{
    if (!r)
        return;
    tracing_done(r);
    for (int i = 0; i < r->n; i++)
        r->ops[i]->destroy(r->st[i]);
    if (r->c->tracing_ctx == r) {
        r->c->tracing_stopped = NULL;
        r->c->tracing_ctx = NULL;
    }
    free(r);
}

enum st_err controller_run(struct capture *c, struct ui *u, struct tracewriter *w, int sigfd)
{
    struct ctl *r;
    c->cancel_fd = sigfd;
    enum st_err e = ctl_new(c, &r);
    sig_set_hint(c->stop_hint);     /* from here on the device may be tracing */
    if (!e)
        e = ctl_start(r);
    if (!e && (e = ctl_wait(c->opt, &c->ui, u, sigfd, &r, 1, &c->err)))
        ctl_abort(r);
    if (!e) {
        c->ui.note(c->ui.ctx, "Tracing completed. Collecting output...");
        sig_deadline(c->opt->collection_timeout_s);
        ui_collect_start(u);
        e = ctl_collect(r, w);
        sig_deadline(0);
        ui_collect_done(u);
    }
    sig_set_hint(NULL);
    ctl_free(r);
    return e;
}
