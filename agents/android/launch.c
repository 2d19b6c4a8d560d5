/*
 * --launch=PKG[/ACTIVITY]: measure one app startup in the capture.
 * create (before tracing starts): the package must be installed (`pm list
 * packages PKG`), the activity is the one given or the package's launcher
 * activity (`cmd package resolve-activity --brief`), and the app is put
 * in the state the launch mode needs, as Macrobenchmark does: cold
 * `am force-stop`; warm and hot an untraced `am start -W` then Home
 * (`input keyevent KEYCODE_HOME`).  start (after atrace/perfetto
 * started): `am start -W [--activity-clear-task] -n PKG/ACT` (warm: clear
 * task, so the activity is made anew in the living process), which
 * returns once the first frame is drawn; then the capture waits for the
 * app's reportFullyDrawn, which ActivityTaskManager logs ("Fully drawn
 * PKG/ACT: +XsYYYms", Android 10+; logcat polled every LAUNCH_POLL_MS,
 * a line counted only when it is new since the launch): the capture ends
 * LAUNCH_MARGIN_MS after it, or LAUNCH_FULL_WAIT_MS after the first frame
 * when none came (nothing says in advance whether an app reports it; no
 * logcat: LAUNCH_MARGIN_MS after the first frame).  -t bounds it all.
 * stop: an app that was not running before (pidof) is force-stopped
 * again, so the device is left as it was.  What am says is checked: "Status: ok", else
 * its Error line or its Status is the one line of the failure, and the
 * controller's cleanup stops tracing.  The names were checked by the
 * option parser (a Java name) and every command goes as a quoted argv.
 */
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
#include "agents/android/devcmd.h"

#define CMD_MAX 65536
#define LAUNCH_MARGIN_MS 500
#define LAUNCH_FULL_WAIT_MS 5000
#define LAUNCH_POLL_MS 250

struct launch {
    struct capture *c;
    char pkg[256];
    char cmp[520];          /* PKG/ACTIVITY */
    double until_us;        /* 0: not launched yet */
    double next_poll_us;    /* 0: not waiting for fully drawn */
    long drawn_before;      /* "Fully drawn" lines before the launch; -1: no logcat */
    int was_running;        /* the app's process ran before the launch */
    int launched;
};

/* c->err emptied for the one line that says why */
static enum st_err failing(struct capture *c, enum st_err e)
{
    dynbuf_reset(&c->err);
    return e;
}

static enum st_err run(struct launch *l, const char *const *argv, struct adb_result *r)
{
    enum st_err e = dev_run(l->c, argv, CMD_MAX, r);
    if (e)
        adb_result_free(r);
    return e;
}

/* A line of text that is exactly want. */
static int has_line(const char *text, const char *want)
{
    size_t n = strlen(want);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, want, n) && (p[n] == '\n' || p[n] == '\r' || !p[n]))
            return 1;
    return 0;
}

static enum st_err check_installed(struct launch *l)
{
    const char *argv[] = {"pm", "list", "packages", l->pkg, NULL};
    struct adb_result r;
    enum st_err e = run(l, argv, &r);
    if (e)
        return e;
    char want[300];
    snprintf(want, sizeof(want), "package:%s", l->pkg);
    int ok = has_line(r.out, want);
    adb_result_free(&r);
    if (ok)
        return ST_OK;
    e = failing(l->c, ST_ENOENT);
    dynbuf_printf(&l->c->err, "--launch: %s is not installed on the device", l->pkg);
    return e;
}

/* The last line naming a component (PKG/CLASS), as resolve-activity
 * --brief prints it after the match's details. */
static int last_component(const char *out, const char *pkg, char *cmp, size_t n)
{
    int found = 0;
    size_t plen = strlen(pkg);
    for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        size_t len = strcspn(p, "\r\n");
        if (len > plen && len < n && !strncmp(p, pkg, plen) && p[plen] == '/' &&
            memchr(p, ' ', len) == NULL) {
            memcpy(cmp, p, len);
            cmp[len] = '\0';
            found = adb_is_plain_token(cmp);
        }
    }
    return found;
}

static enum st_err resolve_activity(struct launch *l)
{
    const char *argv[] = {"cmd", "package", "resolve-activity", "--brief", "-a",
                          "android.intent.action.MAIN", "-c", "android.intent.category.LAUNCHER",
                          l->pkg, NULL};
    struct adb_result r;
    enum st_err e = run(l, argv, &r);
    if (e)
        return e;
    int ok = last_component(r.out, l->pkg, l->cmp, sizeof(l->cmp));
    adb_result_free(&r);
    if (ok)
        return ST_OK;
    e = failing(l->c, ST_ENOENT);
    dynbuf_printf(&l->c->err, "--launch: %s has no launcher activity (name one: "
                  "--launch=%s/ACTIVITY)", l->pkg, l->pkg);
    return e;
}

/* The line that says why am failed: its Error line, else its Status. */
static void am_why(const struct adb_result *r, char *line, size_t n)
{
    const char *texts[] = {r->err, r->out};
    const char *keys[] = {"Error:", "Status:", "Error"};
    for (size_t k = 0; k < 3; k++)
        for (size_t t = 0; t < 2; t++) {
            const char *p = texts[t] ? strstr(texts[t], keys[k]) : NULL;
            if (p) {
                dev_first_line(p, line, n);
                return;
            }
        }
    dev_first_line(r->err_len ? r->err : r->out, line, n);
}

/* am start -W; *total_ms its TotalTime (-1: none) */
static enum st_err am_start(struct launch *l, int clear_task, long *total_ms)
{
    const char *argv[8];
    int k = 0;
    argv[k++] = "am";
    argv[k++] = "start";
    argv[k++] = "-W";
    if (clear_task)
        argv[k++] = "--activity-clear-task";
    argv[k++] = "-n";
    argv[k++] = l->cmp;
    argv[k] = NULL;
    struct adb_result r;
    enum st_err e = run(l, argv, &r);
    if (e)
        return e;
    if (!has_line(r.out, "Status: ok")) {
        char why[256];
        am_why(&r, why, sizeof(why));
        adb_result_free(&r);
        if (!strncmp(why, "Status: timeout", 15)) {
            e = failing(l->c, ST_ETIMEOUT);
            dynbuf_printf(&l->c->err, "--launch %s: the app never drew its first frame (am "
                          "start -W: %s)", l->cmp, why);
            return e;
        }
        e = failing(l->c, ST_EDEVICE);
        dynbuf_printf(&l->c->err, "--launch %s: am start failed: %s", l->cmp, why);
        return e;
    }
    const char *t = strstr(r.out, "TotalTime: ");
    *total_ms = t ? strtol(t + 11, NULL, 10) : -1;
    adb_result_free(&r);
    return ST_OK;
}

/* "Fully drawn PKG/" lines in logcat's ActivityTaskManager log; the
 * last one's time ("3s100ms") into when.  -1: no logcat. */
static long fully_drawn(struct launch *l, char *when, size_t n)
{
    const char *argv[] = {"logcat", "-d", "-s", "ActivityTaskManager:I", NULL};
    struct adb_result r;
    if (run(l, argv, &r))
        return -1;
    char want[300];
    snprintf(want, sizeof(want), "Fully drawn %s/", l->pkg);
    long count = 0;
    for (const char *p = r.out; p && (p = strstr(p, want)); p += strlen(want)) {
        const char *plus = strstr(p, ": +");
        count++;
        if (plus && when)
            snprintf(when, n, "%.*s", (int)strcspn(plus + 3, " \r\n"), plus + 3);
    }
    adb_result_free(&r);
    dynbuf_reset(&l->c->err);
    return count;
}

/* 1 when the app's process runs (pidof finds it). */
static int app_running(struct launch *l)
{
    const char *argv[] = {"pidof", l->pkg, NULL};
    struct adb_result r;
    if (run(l, argv, &r))
        return 1;   /* unknown: leave it be */
    int yes = r.out_len > 0 && strspn(r.out, "0123456789") > 0;
    adb_result_free(&r);
    dynbuf_reset(&l->c->err);
    return yes;
}

static enum st_err prepare(struct launch *l)
{
    if (l->c->opt->launch_mode == LAUNCH_COLD) {
        const char *argv[] = {"am", "force-stop", l->pkg, NULL};
        struct adb_result r;
        enum st_err e = run(l, argv, &r);
        if (!e)
            adb_result_free(&r);
        return e;
    }
    long ms;
    enum st_err e = am_start(l, 0, &ms);
    if (e)
        return e;
    const char *home[] = {"input", "keyevent", "KEYCODE_HOME", NULL};
    struct adb_result r;
    e = run(l, home, &r);
    if (!e)
        adb_result_free(&r);
    return e;
}

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    const char *arg = c->opt->launch;
    if (!arg || c->opt->target != TARGET_ANDROID || !c->dev)
        return ST_OK;
    struct launch *l = calloc(1, sizeof(*l));
    if (!l)
        return ST_ENOMEM;
    l->c = c;
    *state = l;
    const char *slash = strchr(arg, '/');
    size_t plen = slash ? (size_t)(slash - arg) : strlen(arg);
    snprintf(l->pkg, sizeof(l->pkg), "%.*s", (int)plen, arg);
    if (slash)
        snprintf(l->cmp, sizeof(l->cmp), "%s", arg);
    enum st_err e = check_installed(l);
    if (!e && !slash)
        e = resolve_activity(l);
    if (!e)
        l->was_running = app_running(l);
    if (!e)
        e = prepare(l);
    return e;
}

static enum st_err start(void *state)
{
    static const char *const modes[] = {"cold", "warm", "hot"};
    struct launch *l = state;
    long ms = -1;
    l->drawn_before = fully_drawn(l, NULL, 0);
    l->launched = 1;
    enum st_err e = am_start(l, l->c->opt->launch_mode == LAUNCH_WARM, &ms);
    if (e)
        return e;
    double now = capture_now_us();
    l->until_us = now + (l->drawn_before < 0 ? LAUNCH_MARGIN_MS : LAUNCH_FULL_WAIT_MS) * 1e3;
    l->next_poll_us = l->drawn_before < 0 ? 0 : now;
    l->c->ui.note(l->c->ui.ctx, "Launched %s (%s): first frame after %ld ms (am start -W)",
                  l->cmp, modes[l->c->opt->launch_mode % 3], ms);
    return ST_OK;
}

/* An app that did not run before the launch is stopped again. */
static enum st_err stop(void *state)
{
    struct launch *l = state;
    if (!l->launched || l->was_running)
        return ST_OK;
    const char *argv[] = {"am", "force-stop", l->pkg, NULL};
    struct adb_result r;
    enum st_err e = run(l, argv, &r);
    if (!e)
        adb_result_free(&r);
    l->launched = 0;
    return e;
}

static void cleanup(void *state)
{
    struct launch *l = state;
    if (stop(state))
        dynbuf_reset(&l->c->err);
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    (void)state;
    (void)w;
    return ST_OK;
}

/* While waiting for fully drawn: a new "Fully drawn" line ends the
 * capture LAUNCH_MARGIN_MS later. */
static void poll_fully_drawn(struct launch *l, double now)
{
    char when[32] = "";
    l->next_poll_us = now + LAUNCH_POLL_MS * 1e3;
    long n = fully_drawn(l, when, sizeof(when));
    if (n <= l->drawn_before)
        return;
    l->next_poll_us = 0;
    double until = capture_now_us() + LAUNCH_MARGIN_MS * 1e3;
    if (until < l->until_us)
        l->until_us = until;
    l->c->ui.note(l->c->ui.ctx, "%s fully drawn after %s (reportFullyDrawn)", l->cmp, when);
}

static int ended(void *state)
{
    struct launch *l = state;
    double now = capture_now_us();
    if (l->next_poll_us > 0 && now >= l->next_poll_us && now < l->until_us)
        poll_fully_drawn(l, now);
    return l->until_us > 0 && capture_now_us() >= l->until_us ? AGENT_DONE : 0;
}

static void destroy(void *state)
{
    free(state);
}

const struct agent_ops launch_agent = {
    .name = "launch",
    .create = create,
    .start = start,
    .stop = stop,
    .collect = collect,
    .cleanup = cleanup,
    .destroy = destroy,
    .ended = ended,
};
