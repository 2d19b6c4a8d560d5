/* The device-side wait loop of a --perfetto session; see pfwait.h. */
#include "pfwait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb.h"
#include "agents/android/devcmd.h"
#include "lib/debug.h"
#include "lib/fairlock.h"

#define TICK "0.1"          /* seconds between looks while it records */
#define STOP_TICK "0.01"    /* ... once stopped: the stop's latency */
#define SLICE_MS 250        /* one read while waiting until gone */
#define LOCKED_MS 50        /* the most one read holds the device (pflive.h reads beside) */

struct pfwait {
    struct capture *c;
    struct adb_cmd *cmd;
    char out[64];           /* what the loop printed: "gone" at its end */
    size_t nout;
    char errtext[256];      /* its stderr, for messages */
    size_t nerr;
    char why[512];
};

static enum st_err on_out(void *ctx, const void *p, size_t n)
{
    struct pfwait *w = ctx;
    dev_keep_text(w->out, sizeof(w->out), &w->nout, p, n);
    return ST_OK;
}

static enum st_err on_err(void *ctx, const void *p, size_t n)
{
    struct pfwait *w = ctx;
    dev_keep_text(w->errtext, sizeof(w->errtext), &w->nerr, p, n);
    return ST_OK;
}

enum st_err pfwait_open(struct capture *c, int pid, int stop, struct pfwait **out)
{
    *out = NULL;
    struct pfwait *w = calloc(1, sizeof(*w));
    if (!w)
        return ST_ENOMEM;
    w->c = c;
    char script[160];
    if (stop)
        snprintf(script, sizeof(script), "kill -TERM %d 2>/dev/null; while [ -d /proc/%d ]; "
                 "do sleep " STOP_TICK "; done; echo gone", pid, pid);
    else
        snprintf(script, sizeof(script),
                 "while [ -d /proc/%d ]; do sleep " TICK "; done; echo gone", pid);
    fairlock_acquire(c->dev_lock);
    enum st_err e = adb_cmd_start(c->dev, dev_dump_mode(c), script, &w->cmd);
    fairlock_release(c->dev_lock);
    if (e) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "%s: %s", script, adb_device_error(c->dev));
        free(w);
        return e;
    }
    ST_DBG(DBG_ATRACE, "perfetto: waiting on the device: %s", script);
    *out = w;
    return ST_OK;
}

/* The loop ended: it said "gone", or it was cut short. */
static enum st_err ended(struct pfwait *w)
{
    if (strstr(w->out, "gone"))
        return ST_OK;
    char line[256];
    dev_first_line(w->errtext, line, sizeof(line));
    snprintf(w->why, sizeof(w->why), "the wait loop ended with status %d%s%s",
             adb_cmd_exit_code(w->cmd), *line ? ": " : "", line);
    return ST_EDEVICE;
}

enum st_err pfwait_read(struct pfwait *w, int ms)
{
    struct adb_sink sink = {on_out, on_err, NULL, w};
    double end = capture_now_us() + ms * 1e3;
    for (;;) {
        if (adb_cmd_ended(w->cmd))
            return ended(w);
        double left = (end - capture_now_us()) / 1e3;
        fairlock_acquire(w->c->dev_lock);
        int slice = left > 0 ? (int)left + 1 : 0;
        enum st_err e = adb_cmd_read(w->cmd, &sink, slice > LOCKED_MS ? LOCKED_MS : slice);
        fairlock_release(w->c->dev_lock);
        if (e == ST_ETIMEOUT && left > 0)
            continue;
        if (e == ST_ETIMEOUT || e == ST_EINTR)
            return e;
        if (e) {
            dev_first_line(adb_cmd_error(w->cmd), w->why, sizeof(w->why));
            return e;
        }
    }
}

const char *pfwait_error(const struct pfwait *w)
{
    return w->why;
}

enum st_err pfwait_until_gone(struct capture *c, struct pfwait **w, int pid, int stop, int ms)
{
    double end = capture_now_us() + ms * 1e3;
    int again = 0;      /* opened again after a dropped link */
    for (;;) {
        char why[512];
        enum st_err e = *w ? ST_OK : pfwait_open(c, pid, stop, w);
        if (!e) {
            double left = (end - capture_now_us()) / 1e3;
            e = pfwait_read(*w, left > 0 ? (int)left : 0);
            if (!e || e == ST_EINTR || e == ST_ETIMEOUT)
                return e;
            snprintf(why, sizeof(why), "%s", pfwait_error(*w));
            pfwait_free(*w);
            *w = NULL;
        } else {
            dev_first_line(adb_device_error(c->dev), why, sizeof(why));
        }
        if (again || !dev_link_lost(e)) {
            dynbuf_reset(&c->err);
            dynbuf_printf(&c->err, "waiting for the Perfetto session (pid %d) to end: %s",
                          pid, why);
            return e;
        }
        again = 1;
        if ((e = dev_wait_back(c, why, NULL)))
            return e;
    }
}

void pfwait_free(struct pfwait *w)
{
    if (!w)
        return;
    adb_cmd_free(w->cmd);
    free(w);
}
