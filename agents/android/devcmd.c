/* Device command helpers; see devcmd.h. */
#include "devcmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"
#include "lib/esctext.h"
#include "lib/fairlock.h"
#include "lib/plat.h"
#include "lib/signals.h"

#define RC_MARK "__systrace_rc="

void dev_keep_text(char *buf, size_t cap, size_t *n, const void *p, size_t len)
{
    if (len > cap - 1 - *n)
        len = cap - 1 - *n;
    memcpy(buf + *n, p, len);
    *n += len;
    buf[*n] = '\0';
}

void dev_first_line(const char *s, char *out, size_t n)
{
    while (*s == '\n' || *s == '\r' || *s == ' ')
        s++;
    size_t l = strcspn(s, "\r\n");
    if (l > 200)
        l = 200;
    esc_text(out, n, s, l, 0);     /* device text: no terminal controls */
}

/* Take "<marker>N" off the end of a legacy shell's output. */
static void take_rc(struct adb_result *r)
{
    char *m = NULL;
    for (char *p = r->out; (p = strstr(p, RC_MARK)); p++)
        m = p;
    if (!m)
        return;
    int rc = 0;
    for (const char *d = m + strlen(RC_MARK); *d >= '0' && *d <= '9'; d++)
        rc = rc * 10 + (*d - '0');
    r->exit_code = rc;
    /* drop the marker and the blank our echo put before it */
    if (m > r->out && m[-1] == ' ')
        m--;
    r->out_len = (size_t)(m - r->out);
    r->out[r->out_len] = '\0';
}

static enum st_err finish(struct capture *c, enum st_err e, const char *what,
                          struct adb_result *r)
{
    if (e == ST_ETIMEOUT) {     /* said as every later step will say it */
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "the device stopped answering (nothing came back within "
                               "--timeout=%d s) to: %s", dev_wait_s(c), what);
        return e;
    }
    if (e) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "%s: %s", what, adb_device_error(c->dev));
        return e;
    }
    if (!r->split)
        take_rc(r);
    return ST_OK;
}

int dev_link_lost(enum st_err e)
{
    return e == ST_ECLOSED || e == ST_ETRUNCATED || e == ST_EOFFLINE || e == ST_ENOENT ||
           e == ST_ENODEVICE || e == ST_EIO;
}

/* Right after a drop the adb server may still list the device as usable
 * for a moment, and it reconnects no sooner than 0.25 s later: look
 * after this pause (Ctrl-C, SIGTERM and the collection deadline end it). */
#define SETTLE_MS 300

static enum st_err settle(void)
{
    int ints = sig_interrupts();
    for (int i = 0; i < SETTLE_MS / 50; i++) {
        if (sig_terminated() || sig_interrupts() > ints || sig_alarmed())
            return ST_EINTR;
        plat_sleep_ms(50);
    }
    return ST_OK;
}

int dev_wait_s(const struct capture *c)
{
    return c->opt->timeout_s > 0 ? c->opt->timeout_s : ADB_DEFAULT_TIMEOUT_MS / 1000;
}

enum st_err dev_wait_back(struct capture *c, const char *why, const char *then)
{
    if (c->dev_gone)
        return ST_EOFFLINE;
    int s = dev_wait_s(c);
    c->ui.warn(c->ui.ctx, "the connection to the device dropped (%s); waiting up to %d s "
                          "for it to come back%s", why, s, then ? then : "");
    double t0 = capture_now_us();
    enum st_err e = settle();
    fairlock_acquire(c->dev_lock);
    if (!e)
        e = adb_device_wait(c->dev, s * 1000 - SETTLE_MS);
    fairlock_release(c->dev_lock);
    dynbuf_reset(&c->err);
    if (!e) {
        ST_DBG(DBG_ATRACE, "device back after %.1f s", (capture_now_us() - t0) / 1e6);
        c->dev_waits++;
        return ST_OK;
    }
    if (e != ST_EINTR)
        c->dev_gone = 1;
    dynbuf_addstr(&c->err, adb_device_error(c->dev));
    return e;
}

/* What adb_run leaves on an error: empty output, never NULL. */
static void no_result(struct adb_result *r)
{
    memset(r, 0, sizeof(*r));
    r->exit_code = ADB_EXIT_UNKNOWN;
    r->out = calloc(1, 1);
    r->err = calloc(1, 1);
}

static enum st_err run_locked(struct capture *c, const char *script, size_t max,
                              struct adb_result *r)
{
    enum st_err e;
    if (adb_device_has_feature(c->dev, "shell_v2"))
        return finish(c, adb_run_script(c->dev, ADB_SHELL_V2, script, max, r), script, r);
    struct dynbuf s;
    dynbuf_init(&s, 65536);
    /* one echo, so $? is still the command's status */
    dynbuf_printf(&s, "%s; echo \" " RC_MARK "$?\"", script);
    e = adb_run_script(c->dev, ADB_SHELL_LEGACY, dynbuf_str(&s), max, r);
    dynbuf_free(&s);
    return finish(c, e, script, r);
}

/* One try, the device taken for it (a stream reader may share it). */
static enum st_err run_once(struct capture *c, const char *script, size_t max,
                            struct adb_result *r)
{
    fairlock_acquire(c->dev_lock);
    enum st_err e = run_locked(c, script, max, r);
    fairlock_release(c->dev_lock);
    return e;
}

enum st_err dev_script(struct capture *c, const char *script, size_t max,
                       struct adb_result *r)
{
    if (c->dev_gone) {
        no_result(r);
        dynbuf_reset(&c->err);
        if (c->dev_hung)
            dynbuf_printf(&c->err, "the device stopped answering (nothing came back within "
                                   "--timeout=%d s); not sent: %s", dev_wait_s(c), script);
        else
            dynbuf_printf(&c->err, "%s: the device is gone", script);
        return c->dev_hung ? ST_ETIMEOUT : ST_EOFFLINE;
    }
    enum st_err e = run_once(c, script, max, r);
    if (e == ST_ETIMEOUT)
        c->dev_gone = c->dev_hung = 1;  /* one full wait per device, not one per step */
    if (!dev_link_lost(e))
        return e;
    adb_result_free(r);
    char why[300];
    dev_first_line(adb_device_error(c->dev), why, sizeof(why));
    enum st_err w = dev_wait_back(c, why, NULL);
    if (w) {
        no_result(r);
        return w;
    }
    return run_once(c, script, max, r);
}

enum st_err dev_run(struct capture *c, const char *const *argv, size_t max,
                    struct adb_result *r)
{
    struct dynbuf s;
    dynbuf_init(&s, 65536);
    enum st_err e = adb_quote_argv(&s, argv);
    if (!e)
        e = dev_script(c, dynbuf_str(&s), max, r);
    else
        no_result(r);   /* callers free r whatever happened */
    dynbuf_free(&s);
    return e;
}

enum adb_mode dev_dump_mode(const struct capture *c)
{
    if (adb_device_has_feature(c->dev, "shell_v2"))
        return ADB_SHELL_V2;
    return c->sdk >= 21 ? ADB_EXEC : ADB_SHELL_LEGACY;
}
