/*
 * The atrace agent's start section: the busy check and the start as one
 * step on the device, so that of two systraces starting at the same moment
 * one traces and the other is refused (the probe's check alone cannot
 * tell: neither has started yet).  One shell script makes a lock with
 * mkdir (atomic), writes our id into it, repeats the busy check inside
 * (debug.atrace.user_initiated from Android 9, tracing_on before), runs the
 * start and removes the lock:
 *
 *   (mkdir L 2>/dev/null || (cat L/id; exit 75) || exit 75; echo ID >L/id;
 *    CHECK && (rm -rf L; exit 0) && exit 76; START; rc=$?; rm -rf L; exit $rc)
 *
 * The lock lives only for that section (no device process lives through
 * an atrace capture whose pid could tell a stale lock from a live one, as
 * Perfetto's does), so one found held is waited for, a few seconds at
 * most, and then named with how to remove it: a run killed inside the
 * section left it.  --stream, whose start never ends, takes the lock with
 * no START and removes it once atrace streams.  Our own lock is removed
 * only while it holds our id.  L is under /data/local/tmp, which the shell
 * user may write on every Android version.
 *
 * Never a device left tracing: a section hung up on still completes the
 * command under way (adbd's SIGHUP ends the shell, not its atrace), so a
 * Ctrl-C or SIGTERM waits for the section's end and the reset comes after
 * the start; a try cut by a dropped link (devcmd runs it again) that left
 * our lock, or finds tracing on, may have started: the cleanup resets the
 * device and removes our lock.
 */
#include <stdio.h>
#include <string.h>

#include "agents/android/devcmd.h"
#include "atrace_int.h"
#include "lib/debug.h"
#include "lib/plat.h"

#define LOCK_HELD 75        /* the section's status when another run is in it */
#define LOCK_BUSY 76        /* ... when the device already traces */
#define LOCK_WAIT_MS 10000  /* a section lasts a second or two */
#define LOCK_POLL_MS 200

enum st_err atrace_busy(struct capture *c)
{
    dynbuf_reset(&c->err);
    dynbuf_printf(&c->err, "the device is already tracing (another capture is running on it: "
                           "systrace or atrace); wait for it to end, or stop it "
                           "first with `adb -s %s shell atrace --async_stop`", c->serial);
    return ST_EDEVICE;
}

/* The busy check, true when busy: the property atrace sets from Android 9
 * (grep reads it from a file: old greps read no standard input), else
 * tracing_on. */
static enum st_err busy_check(struct capture *c, struct dynbuf *s)
{
    if (c->sdk >= 28)
        return dynbuf_addstr(s, "getprop debug.atrace.user_initiated >" ATRACE_LOCK "/busy; "
                                "grep -qxF 1 " ATRACE_LOCK "/busy");
    struct dynbuf path;
    dynbuf_init(&path, 4096);
    enum st_err e = dynbuf_printf(&path, "%s/tracing_on", c->tracing_dir);
    if (!e)
        e = dynbuf_addstr(s, "grep -qxF 1");
    if (!e)
        e = adb_quote_arg(s, dynbuf_str(&path));
    if (!e)
        e = dynbuf_addstr(s, " 2>/dev/null");
    dynbuf_free(&path);
    return e;
}

/* The section's script around start (quoted shell text); without one the
 * lock is taken and kept. */
static enum st_err section(struct atrace *a, const char *start, struct dynbuf *s)
{
    enum st_err e = dynbuf_printf(s, "(mkdir " ATRACE_LOCK " 2>/dev/null || (cat " ATRACE_LOCK
                                     "/id 2>/dev/null; exit %d) || exit %d; echo",
                                  LOCK_HELD, LOCK_HELD);
    if (!e)
        e = adb_quote_arg(s, a->lock_id);
    if (!e)
        e = dynbuf_addstr(s, " >" ATRACE_LOCK "/id; ");
    if (!e)
        e = busy_check(a->c, s);
    if (!e)
        e = dynbuf_printf(s, " && (rm -rf " ATRACE_LOCK "; exit 0) && exit %d; ", LOCK_BUSY);
    if (!e && start)
        e = dynbuf_printf(s, "%s; rc=$?; rm -rf " ATRACE_LOCK "; exit $rc)", start);
    else if (!e)
        e = dynbuf_addstr(s, "exit 0)");
    return e;
}

static enum st_err held_too_long(struct capture *c)
{
    dynbuf_reset(&c->err);
    dynbuf_printf(&c->err, "another systrace has been starting atrace on the device for %d s "
                           "(its lock " ATRACE_LOCK " stays); if none runs there (one was "
                           "killed while starting), remove the lock: adb -s %s shell rm -rf "
                           ATRACE_LOCK, LOCK_WAIT_MS / 1000, c->serial);
    return ST_EDEVICE;
}

/* A pause between tries; 1 when Ctrl-C or a signal came meanwhile. */
static int pause_cancelled(struct capture *c)
{
    if (c->cancel_fd < 0) {
        plat_sleep_ms(LOCK_POLL_MS);
        return 0;
    }
    struct plat_pollfd p = {c->cancel_fd, PLAT_POLLIN, 0};
    return plat_poll(&p, 1, LOCK_POLL_MS) > 0;
}

/* A signal came (Ctrl-C, SIGTERM): the cancel pipe holds a byte. */
static int cancel_pending(struct capture *c)
{
    struct plat_pollfd p = {c->cancel_fd, PLAT_POLLIN, 0};
    return c->cancel_fd >= 0 && plat_poll(&p, 1, 0) > 0;
}

/* An error names the command that failed: the start, not the whole
 * section around it (start NULL: the lock's taking). */
static void name_start(struct capture *c, const char *script, const char *start)
{
    const char *at = strstr(dynbuf_str(&c->err), script);
    if (!at)
        return;
    struct dynbuf d;
    dynbuf_init(&d, c->err.max);
    dynbuf_add(&d, c->err.data, (size_t)(at - c->err.data));
    dynbuf_addstr(&d, start ? start : "taking systrace's start lock " ATRACE_LOCK);
    dynbuf_addstr(&d, at + strlen(script));
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&d));
    dynbuf_free(&d);
}

/* One try, never cut short by a signal: a section hung up on would run
 * on without the host (the command under way completes: a start after
 * the cleanup's reset would leave the device tracing).  The device's
 * timeout bounds it; a signal is seen once it has ended. */
static enum st_err run_once(struct capture *c, const char *script, size_t max,
                            struct adb_result *r)
{
    adb_device_set_cancel_fd(c->dev, -1);
    enum st_err e = dev_script(c, script, max, r);
    adb_device_set_cancel_fd(c->dev, c->cancel_fd);
    return e;
}

/* The lock is held by this run: a try the dropped link cut (devcmd ran
 * the script again once the device was back) left it. */
static int held_by_us(const struct atrace *a, const struct adb_result *r)
{
    char line[64];
    dev_first_line(r->out, line, sizeof(line));
    return r->exit_code == LOCK_HELD && !strcmp(line, a->lock_id);
}

/* A try of ours broke off inside the section (the link dropped) and its
 * start may have run: the cleanup resets the device and removes the lock. */
static enum st_err broke_off(struct atrace *a, int starts)
{
    a->dirty = a->dirty || starts;
    a->lock_held = 1;
    return atrace_fail(a->c, ST_EDEVICE, "atrace did not start",
                       "the connection to the device dropped while it was starting");
}

/* Run the section until it is ours: *r is then the script's answer
 * (another run's section is waited for).  Past the refusals the start may
 * have run (dirty: even a failed one may leave settings behind); the
 * answer lost, the lock may be ours (lock_held, for atrace_unlock).  After
 * a dropped link a refusal may be our own first try's doing. */
static enum st_err run_section(struct atrace *a, const char *script, const char *start,
                               size_t max, struct adb_result *r)
{
    struct capture *c = a->c;
    double t0 = capture_now_us();
    unsigned waits = c->dev_waits;
    int starts = start != NULL;
    for (;;) {
        enum st_err e = run_once(c, script, max, r);
        if (e)
            name_start(c, script, start);
        int rc = e ? ADB_EXIT_UNKNOWN : r->exit_code, ours = !e && held_by_us(a, r);
        if (ours && !starts) {  /* the cut try took it, after the busy check */
            a->lock_held = 1;
            return ST_OK;
        }
        if (ours || (rc == LOCK_BUSY && starts && c->dev_waits != waits))
            return broke_off(a, starts);
        if (rc == LOCK_BUSY)
            return atrace_busy(c);
        if (rc != LOCK_HELD) {
            a->dirty = a->dirty || starts;
            a->lock_held = a->lock_held || rc == ADB_EXIT_UNKNOWN || (!starts && rc == 0);
            return e ? e : cancel_pending(c) ? ST_EINTR : ST_OK;
        }
        adb_result_free(r);
        ST_DBG(DBG_ATRACE, "the start lock is held; waiting");
        if (capture_now_us() - t0 > LOCK_WAIT_MS * 1e3)
            return held_too_long(c);
        if (pause_cancelled(c))
            return atrace_fail(c, ST_EINTR, "atrace start", "interrupted while waiting for "
                               "another systrace's start");
    }
}

enum st_err atrace_locked(struct atrace *a, const char *start, size_t max,
                          struct adb_result *r)
{
    struct adb_result mine;
    if (!r)
        r = &mine;
    struct dynbuf s;
    dynbuf_init(&s, 1 << 20);
    if (!a->lock_id[0])
        capture_uuid(a->lock_id);
    enum st_err e = section(a, start, &s);
    if (e) {
        *r = (struct adb_result){.exit_code = ADB_EXIT_UNKNOWN};
        dynbuf_free(&s);
        return e;
    }
    e = run_section(a, dynbuf_str(&s), start, max, r);
    dynbuf_free(&s);
    if (!e && start && a->lock_held)
        atrace_unlock(a);   /* the section's end unseen: maybe still ours */
    if (r == &mine)
        adb_result_free(r);
    return e;
}

enum st_err atrace_unlock(struct atrace *a)
{
    struct capture *c = a->c;
    if (!a->lock_held)
        return ST_OK;
    struct dynbuf s;
    dynbuf_init(&s, 4096);
    enum st_err e = dynbuf_addstr(&s, "grep -qxF");
    if (!e)
        e = adb_quote_arg(&s, a->lock_id);
    if (!e)
        e = dynbuf_addstr(&s, " " ATRACE_LOCK "/id 2>/dev/null && rm -rf " ATRACE_LOCK "; true");
    struct adb_result r = {0};
    if (!e)
        e = dev_script(c, dynbuf_str(&s), 4096, &r);
    adb_result_free(&r);
    dynbuf_free(&s);
    if (!e)
        a->lock_held = 0;
    return e;
}
