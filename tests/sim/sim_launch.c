/*
 * Launching an app, as `systrace --launch` drives a phone:
 *  - `am start [-W] [--activity-clear-task] [-a A] [-c C] -n PKG/ACT`
 *    prints what ActivityManagerShellCommand prints (Starting: Intent,
 *    Status, LaunchState, Activity, TotalTime, WaitTime, Complete), or
 *    `Error type 3` / `Error: Activity class {...} does not exist.`
 *    (status 255); with -W it returns once the first frame is drawn;
 *  - `am force-stop PKG`, `input keyevent KEYCODE_HOME|3|KEYCODE_BACK|4`;
 *  - `pm list packages [FILTER]`, `cmd package resolve-activity --brief
 *    [-a A] [-c C] PKG`;
 *  - `logcat -d`: ActivityTaskManager's "Fully drawn PKG/ACT: +XsYYYms"
 *    once the app reported it (--fully-drawn), as Android 10+ logs it;
 *  - `pidof PKG` finds the app only while it runs (--app-stopped: not
 *    at boot; am force-stop ends it).
 * One app can be launched: com.android.launcher3/.Launcher (its process
 * is in the ps table, so a capture's process dump names it).  While
 * tracing, a launch writes what the platform writes: system_server's
 * `launching: PKG` async slice (from the intent to the first frame) and
 * on the app's main thread bindApplication (cold), activityStart (cold,
 * warm), activityResume, Choreographer#doFrame, and reportFullyDrawn
 * with --fully-drawn.  --launch-never-draws: Status: timeout, and the
 * launching slice never ends.
 */
#include "sim_atrace.h"
#include "sim_cmds.h"

#include <stdio.h>
#include <string.h>

#define APP_PKG "com.android.launcher3"
#define APP_ACT ".Launcher"
#define APP_PID 2000
#define SYS_PID 1000

static const char *const packages[] = {"android", "com.android.shell", "com.android.systemui",
                                       APP_PKG};

enum { COLD = 1, WARM, HOT };

/* 1 when cmp names the app's activity (short or full class name). */
static int known_component(const char *cmp)
{
    static const char *const forms[] = {APP_PKG "/" APP_ACT, APP_PKG "/" APP_PKG APP_ACT};
    for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++)
        if (!strcmp(cmp, forms[i]))
            return 1;
    return 0;
}

static void slice(struct sim_trace *t, uint64_t b, uint64_t e, const char *name)
{
    char text[128];
    snprintf(text, sizeof(text), "B|%d|%s", APP_PID, name);
    sim_add_marker(t, APP_PID, 1, "droid.launcher3", b, text);
    snprintf(text, sizeof(text), "E|%d", APP_PID);
    sim_add_marker(t, APP_PID, 1, "droid.launcher3", e, text);
}

/* The launch's trace markers, t0 the intent, ms the time to first frame. */
static void launch_markers(struct sim_device *dev, int type, uint64_t t0, unsigned ms)
{
    struct sim_trace *t = dev->trace;
    if (!t->on && !t->pf_running)   /* atrace, or a perfetto session's print events */
        return;
    const uint64_t M = 1000000;
    uint64_t end = t0 + ms * M;
    char text[128];
    snprintf(text, sizeof(text), "S|%d|launching: %s|%u", SYS_PID, APP_PKG, 7000 + dev->launches);
    sim_add_marker(t, SYS_PID, 0, "system_server", t0, text);
    if (type) {
        snprintf(text, sizeof(text), "F|%d|launching: %s|%u", SYS_PID, APP_PKG,
                 7000 + dev->launches);
        sim_add_marker(t, SYS_PID, 0, "system_server", end, text);
        /* the app's steps fill the launch: fractions of it */
        uint64_t d = ms * M / 20;
        if (type == COLD)
            slice(t, t0 + 2 * d, t0 + 9 * d, "bindApplication");
        if (type != HOT)
            slice(t, t0 + 10 * d, t0 + 14 * d, "activityStart");
        slice(t, t0 + 15 * d, t0 + 16 * d, "activityResume");
        slice(t, t0 + 17 * d, end - d / 2, "Choreographer#doFrame");
        if (dev->opt.fully_drawn_ms >= 0) {
            uint64_t f = end + (uint64_t)dev->opt.fully_drawn_ms * M;
            slice(t, f, f + M, "reportFullyDrawn");
        }
    }
    sim_sort_markers(t);
}

/* What ActivityTaskManager logs once the app reports fully drawn. */
static void note_fully_drawn(struct sim_device *dev, uint64_t t0, unsigned ms)
{
    if (dev->opt.fully_drawn_ms < 0)
        return;
    unsigned k = dev->nfully_drawn++ % SIM_FULLY_DRAWN_MAX;
    dev->fully_drawn_ms[k] = ms + (unsigned)dev->opt.fully_drawn_ms;
    dev->fully_drawn_ns[k] = t0 + dev->fully_drawn_ms[k] * 1000000ull;
}

/* The launch's type by the app's state; the state after it. */
static int launch(struct sim_device *dev, int clear_task)
{
    pthread_mutex_lock(&dev->lock);
    int type = !dev->app_alive ? COLD : clear_task || !dev->app_activity ? WARM
             : dev->app_activity == 1 ? HOT : 0;
    dev->app_alive = 1;
    dev->app_activity = 2;
    pthread_mutex_unlock(&dev->lock);
    return type;
}

static int am_start(struct sh_cmd *c)
{
    const char *cmp = NULL;
    int wait = 0, clear = 0;
    for (int i = 2; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "-W"))
            wait = 1;
        else if (!strcmp(a, "--activity-clear-task"))
            clear = 1;
        else if (!strcmp(a, "-n") && i + 1 < c->argc)
            cmp = c->argv[++i];
        else if ((!strcmp(a, "-a") || !strcmp(a, "-c")) && i + 1 < c->argc)
            i++;    /* action, category: the launcher's */
    }
    if (!cmp) {
        sink_puts(c->err, "Error: no intent component given (-n)\n");
        return 255;
    }
    sink_printf(c->out, "Starting: Intent { act=android.intent.action.MAIN "
                "cat=[android.intent.category.LAUNCHER] cmp=%s }\n", cmp);
    if (!known_component(cmp)) {
        sink_puts(c->out, "Error type 3\n");
        sink_printf(c->err, "Error: Activity class {%s} does not exist.\n", cmp);
        return 255;
    }
    struct sim_device *dev = c->sh->dev;
    uint64_t t0 = sim_now_ns();
    int type = launch(dev, clear);
    unsigned ms = type == COLD ? 600 : type == WARM ? 250 : 80;
    pthread_mutex_lock(&dev->lock);
    dev->launches++;
    ms = sim_launch_ms(dev, ms);
    launch_markers(dev, dev->opt.launch_never_draws ? 0 : type, t0, ms);
    if (type && !dev->opt.launch_never_draws)
        note_fully_drawn(dev, t0, ms);
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
    if (!wait)
        return 0;
    if (dev->opt.launch_never_draws) {
        sim_sleep(300 * 1000000ull, NULL, NULL);
        sink_printf(c->out, "Status: timeout\nLaunchState: UNKNOWN (0)\nActivity: %s\n"
                    "WaitTime: 10003\nComplete\n", cmp);
        return 0;
    }
    sim_sleep(ms * 1000000ull, NULL, NULL);
    static const char *const states[] = {"UNKNOWN (0)", "COLD", "WARM", "HOT"};
    if (!type)
        sink_puts(c->out, "Warning: Activity not started, its current task has been brought "
                          "to the front\n");
    sink_printf(c->out, "Status: ok\nLaunchState: %s\nActivity: %s/%s\nTotalTime: %u\n"
                "WaitTime: %u\nComplete\n", states[type], APP_PKG, APP_ACT, ms, ms + 4);
    return 0;
}

int sim_launch_am(struct sh_cmd *c)
{
    if (!strcmp(c->argv[1], "start"))
        return am_start(c);
    if (c->argc < 3) {
        sink_puts(c->err, "Error: no package specified\n");
        return 255;
    }
    struct sim_device *dev = c->sh->dev;
    pthread_mutex_lock(&dev->lock);
    if (!strcmp(c->argv[c->argc - 1], APP_PKG))
        dev->app_alive = dev->app_activity = 0;
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
    return 0;   /* am force-stop is silent, even for unknown packages */
}

int sim_cmd_input(struct sh_cmd *c)
{
    if (c->argc < 3 || strcmp(c->argv[1], "keyevent")) {
        sink_puts(c->err, "Usage: input [<source>] <command> [<arg>...]\n");
        return 1;
    }
    const char *k = c->argv[2];
    int home = !strcmp(k, "3") || !strcmp(k, "KEYCODE_HOME");
    int back = !strcmp(k, "4") || !strcmp(k, "KEYCODE_BACK");
    struct sim_device *dev = c->sh->dev;
    pthread_mutex_lock(&dev->lock);
    if (dev->app_activity == 2 && (home || back))
        dev->app_activity = home ? 1 : 0;
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
    return 0;
}

int sim_cmd_pm(struct sh_cmd *c)
{
    if (c->argc < 3 || strcmp(c->argv[1], "list") || strcmp(c->argv[2], "packages")) {
        sink_puts(c->err, "Error: unknown command\n");
        return 255;
    }
    const char *filter = c->argc > 3 ? c->argv[c->argc - 1] : "";
    for (size_t i = 0; i < sizeof(packages) / sizeof(*packages); i++)
        if (strstr(packages[i], filter))
            sink_printf(c->out, "package:%s\n", packages[i]);
    return 0;
}

int sim_cmd_cmd(struct sh_cmd *c)
{
    if (c->argc < 4 || strcmp(c->argv[1], "package") ||
        strcmp(c->argv[2], "resolve-activity")) {
        sink_printf(c->err, "cmd: Can't find service: %s\n", c->argc > 1 ? c->argv[1] : "");
        return 255;
    }
    const char *pkg = c->argv[c->argc - 1];
    if (strcmp(pkg, APP_PKG)) {
        sink_puts(c->out, "No activity found\n");
        return 0;
    }
    sink_printf(c->out, "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 "
                "isDefault=true\n%s/%s\n", APP_PKG, APP_ACT);
    return 0;
}

/* logcat -d [-s TAG...]: ActivityTaskManager's "Fully drawn" lines whose
 * time has come (the only lines this device logs). */
int sim_cmd_logcat(struct sh_cmd *c)
{
    struct sim_device *dev = c->sh->dev;
    uint64_t now = sim_now_ns();
    pthread_mutex_lock(&dev->lock);
    unsigned n = dev->nfully_drawn, first = n > SIM_FULLY_DRAWN_MAX ? n - SIM_FULLY_DRAWN_MAX : 0;
    for (unsigned i = first; i < n; i++) {
        unsigned k = i % SIM_FULLY_DRAWN_MAX, ms = dev->fully_drawn_ms[k];
        if (dev->fully_drawn_ns[k] <= now)
            sink_printf(c->out, "01-01 00:00:%02u.%03u  %d  %d I ActivityTaskManager: Fully "
                        "drawn %s/%s: +%us%03ums\n", i % 60, ms % 1000, SYS_PID, SYS_PID + 20,
                        APP_PKG, APP_ACT, ms / 1000, ms % 1000);
    }
    pthread_mutex_unlock(&dev->lock);
    return 0;
}

int sim_launch_gone(struct sim_device *dev, const char *name)
{
    if (strcmp(name, APP_PKG))
        return 0;
    pthread_mutex_lock(&dev->lock);
    int gone = !dev->app_alive;
    pthread_mutex_unlock(&dev->lock);
    return gone;
}
