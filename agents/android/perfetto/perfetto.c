/*
 * `--perfetto`: the atrace agent's capture way that records through the
 * device's own perfetto (Android 9+), following Perfetto's record script
 * (perfetto-recording.md §1):
 *
 *   start    from the device probe: a session already recording? atrace
 *            tracing on? traced enabled? then `echo CONFIG | perfetto --background
 *            [--txt] -o FILE -c -` (binary config on Android 9, which has
 *            no --txt) and the session's pid from its output;
 *   wait     one device shell loops until /proc/PID is gone (pfwait.h),
 *            read a slice at a time while the host waits for -t, Enter or
 *            Ctrl-C: a session that ends on its own ends the wait;
 *   stop     `kill -TERM PID` (the file is finalised), and in the same
 *            shell a loop that looks every 10 ms says when the pid is gone;
 *   follow   while it records, the file (write_into_file) read as it
 *            grows, kept and converted into the page (pflive.h);
 *   collect  the rest of the file: what following did not bring is
 *            fetched (pffetch.h: a pull, `cat` when the pull fails; a
 *            dropped link is waited out and the fetch starts over); the
 *            file removed from the device, the conversion ended.  Without
 *            a page to write into while recording, the whole file is
 *            fetched and converted with --from-file's converter.
 *
 * Never a session left recording: cleanup (every error, interrupt and
 * signal path goes through it) kills the session and removes its file,
 * and when the device cannot be reached the message names the command.
 * A trace that could not be fetched leaves no output and says why; if the
 * conversion fails the trace is kept and the message says where.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/atrace/atrace_int.h"
#include "agents/android/devcmd.h"
#include "formats/input/fromfile.h"
#include "lib/debug.h"
#include "lib/fairlock.h"
#include "lib/outfile.h"
#include "lib/plat.h"
#include "pfconfig.h"
#include "pfuser.h"
#include "lib/printf.h"
#include "lib/signals.h"
#include "pffetch.h"
#include "pflive.h"
#include "pfwait.h"

#define DEVICE_DIR "/data/misc/perfetto-traces"
/* Held from the start to the file's removal: mkdir is atomic, so of two
 * systraces started together one records and the other is refused (the
 * probe's pidof cannot tell: neither session exists yet).  It holds the
 * session's pid; a lock whose pid is gone is stale (a run that lost the
 * device) and is taken over. */
#define LOCK DEVICE_DIR "/systrace.lock"
#define LOCK_BUSY 75            /* the start script's status when it is held */
#define GONE_WAIT_MS 20000
#define START_OUT_MAX 65536     /* what perfetto --background may print */
/* a session ending this close to -t ended at its duration_ms */
#define DURATION_SLACK_MS 1500

struct pfrec {
    struct pfconfig cfg;
    int pid;                /* the session, 0: none */
    int recording;          /* it may still run */
    int file_on_device;
    int have_lock;          /* LOCK is ours to remove */
    int ended_early;        /* it ended on its own, before -t */
    int told;               /* the error already names the commands to clean up by hand */
    struct pfwait *wait;    /* the device-side wait loop (NULL: none now) */
    struct pflive *live;    /* the file read while it records (NULL: fetched at the end) */
    struct fairlock lock;   /* the device, shared with live's thread */
    char path[128];         /* the device's file */
    char hint[300];         /* how a user stops it and removes its file by hand */
};

static struct pfrec *rec_of(const struct atrace *a)
{
    return a->way_state;
}

/* The reader stopped and gone; the device is the main thread's again. */
static void live_end(struct atrace *a)
{
    struct pfrec *p = rec_of(a);
    pflive_free(p->live);
    p->live = NULL;
    a->c->dev_lock = NULL;
}

static enum st_err fail(struct capture *c, enum st_err e, const char *fmt, ...)
    ST_PRINTF(3, 4);

static enum st_err fail(struct capture *c, enum st_err e, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, line);
    return e;
}

/* Another session, atrace tracing (debug.atrace.user_initiated, which
 * atrace sets from Android 9 on and perfetto.rc stops traced_probes for:
 * not tracing_on, which some phones boot with), both from the device
 * probe; traced off: turned on, saying so. */
static enum st_err probe(struct atrace *a)
{
    struct capture *c = a->c;
    if (c->perfetto_pid)
        return fail(c, ST_EDEVICE, "a Perfetto session is already recording on the device "
                                 "(perfetto pid %d); wait for it or stop it first "
                                 "(adb -s %s shell kill %d)",
                    c->perfetto_pid, c->serial, c->perfetto_pid);
    if (c->atrace_user)
        return fail(c, ST_EDEVICE, "atrace tracing is on on the device (another capture?); "
                                 "Perfetto and atrace must not run together: stop it first "
                                 "(adb -s %s shell atrace --async_stop)", c->serial);
    if (c->sdk <= 29 && strcmp(c->traced_enable, "1")) {
        c->ui.note(c->ui.ctx, "traced is off on %s (persist.traced.enable=%s): turning it on",
                   c->serial, *c->traced_enable ? c->traced_enable : "unset");
        struct adb_result r;
        enum st_err e = dev_script(c, "setprop persist.traced.enable 1; sleep 1", 4096, &r);
        adb_result_free(&r);    /* set on every path */
        if (e)
            return e;
    }
    return ST_OK;
}

/* The text config as echo's argument: mksh's echo reads backslash
 * escapes, so each backslash of a user's strings is doubled to reach
 * perfetto as written; quoted for the shell. */
static enum st_err echo_text(const struct dynbuf *text, struct dynbuf *s)
{
    struct dynbuf esc;
    dynbuf_init(&esc, 2 * text->len + 16);
    for (size_t i = 0; i < text->len; i++)
        if (text->data[i] != '\\' ? dynbuf_addc(&esc, text->data[i])
                                   : dynbuf_addstr(&esc, "\\\\"))
            break;
    enum st_err e = dynbuf_addstr(s, "echo");
    if (!e)
        e = adb_quote_arg(s, dynbuf_str(&esc));
    dynbuf_free(&esc);
    return e;
}

/* Text on Android 10+ (--txt), binary before, or when the user's config
 * is binary. */
static enum st_err start_cmd(struct atrace *a, struct dynbuf *s)
{
    struct pfrec *p = rec_of(a);
    int txt = a->c->sdk >= 29 && p->cfg.text.len;
    dynbuf_printf(s, "mkdir " LOCK " 2>/dev/null || exit %d; ", LOCK_BUSY);
    enum st_err e = txt ? echo_text(&p->cfg.text, s) : pfconfig_echo_binary(&p->cfg, s);
    if (!e)
        e = dynbuf_printf(s, " | perfetto --background%s -o %s -c - >" LOCK "/pid; rc=$?; "
                          "cat " LOCK "/pid; exit $rc", txt ? " --txt" : "", p->path);
    return e;
}

/* The pid perfetto --background printed alone on a line; 0 if none. */
static int parse_pid(const char *out)
{
    for (const char *l = out; *l;) {
        size_t n = strcspn(l, "\r\n");
        char *end;
        long v = strtol(l, &end, 10);
        if (n && end == l + n && v > 0 && v < 4194304)
            return (int)v;
        l += n;
        l += strspn(l, "\r\n");
    }
    return 0;
}

/* perfetto printed more than dev_script keeps (a warning per config
 * field, a log): its first line, never the config script; a session it
 * started anyway (a pid among what came) is stopped by cleanup. */
static enum st_err start_too_chatty(struct atrace *a, struct adb_result *r)
{
    struct pfrec *p = rec_of(a);
    char line[256];
    dev_first_line(r->err_len ? r->err : r->out, line, sizeof(line));
    p->pid = parse_pid(r->out);
    p->recording = p->pid != 0;
    adb_result_free(r);
    return fail(a->c, ST_EDEVICE, "perfetto did not start: it printed over %d KB, beginning "
                "with: %s", START_OUT_MAX / 1024, line);
}

/* Why perfetto did not start, and what to do when the device has none. */
static enum st_err start_failed(struct capture *c, const struct adb_result *r)
{
    char line[256];
    dev_first_line(r->err_len ? r->err : r->out, line, sizeof(line));
    int absent = r->exit_code == 127 || strstr(line, "perfetto: inaccessible or not found") ||
                 strstr(line, "perfetto: not found");
    return fail(c, ST_EDEVICE, "perfetto did not start: %s%s", *line ? line : "no pid",
                absent ? "; the device has no perfetto: record without --perfetto (atrace) "
                         "instead" : "");
}

/* Not fatal when it cannot: the file is then fetched at the end. */
static void live_start(struct atrace *a)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    if (!c->page)
        return;
    c->dev_lock = &p->lock;
    if (pflive_start(c, p->path, c->page, &p->live))
        live_end(a);
}

static int parse_pid(const char *out);

/* The lock is held: by a live session (refused), by a systrace starting
 * one right now (refused), or stale (removed: *retry). */
static enum st_err lock_held(struct atrace *a, int *retry)
{
    struct capture *c = a->c;
    struct adb_result r;
    *retry = 0;
    enum st_err e = dev_script(c, "cat " LOCK "/pid 2>/dev/null", 4096, &r);
    int pid = e ? 0 : parse_pid(r.out);
    adb_result_free(&r);
    if (e)
        return e;
    if (!pid)
        return fail(c, ST_EDEVICE, "another systrace is starting a Perfetto session on the "
                    "device (" LOCK " exists); wait for it, or if none runs remove the lock: "
                    "adb -s %s shell rm -rf " LOCK, c->serial);
    /* removed only while it still holds the pid read: another systrace
     * may have taken it over since, and made its own */
    char script[256];
    snprintf(script, sizeof(script),
             "[ -d /proc/%d ] && echo alive || (grep -qxF %d " LOCK "/pid && rm -rf " LOCK ")",
             pid, pid);
    e = dev_script(c, script, 4096, &r);
    int alive = !e && strstr(r.out, "alive");
    adb_result_free(&r);
    if (e)
        return e;
    if (alive)
        return fail(c, ST_EDEVICE, "a Perfetto session is already recording on the device "
                    "(perfetto pid %d, another systrace's); wait for it or stop it first "
                    "(adb -s %s shell kill %d)", pid, c->serial, pid);
    ST_DBG(DBG_ATRACE, "perfetto: stale lock of pid %d removed", pid);
    *retry = 1;
    return ST_OK;
}

/* The start script: 0 with *r set, or the refusal. */
static enum st_err run_start(struct atrace *a, struct adb_result *r)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    struct dynbuf s;
    dynbuf_init(&s, 1 << 22);
    enum st_err e = start_cmd(a, &s);
    int ran = 0, retry = 1;
    for (int tries = 0; !e && !ran && retry && tries < 2; tries++) {
        p->file_on_device = 1;
        e = dev_script(c, dynbuf_str(&s), START_OUT_MAX, r);
        if (e || r->exit_code != LOCK_BUSY) {
            p->have_lock = 1;   /* made, or maybe (no answer): the cleanup removes it */
            ran = 1;
            break;
        }
        p->file_on_device = 0;
        adb_result_free(r);
        e = lock_held(a, &retry);
    }
    /* a stale lock still there after its removal (not ours to remove, or
     * not quite what our start writes): said, *r left empty */
    if (!e && !ran)
        e = fail(c, ST_EDEVICE, "the Perfetto lock stays held on the device (" LOCK
                 "); if no systrace records there, remove it: adb -s %s shell rm -rf " LOCK,
                 c->serial);
    dynbuf_free(&s);
    return e;
}

static enum st_err pf_start(struct atrace *a)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    enum st_err e = probe(a);
    if (e)
        return e;
    char id[40];
    capture_uuid(id);
    snprintf(p->path, sizeof(p->path), "%s/systrace-%.8s.perfetto-trace", DEVICE_DIR, id);
    struct adb_result r = {0};
    e = run_start(a, &r);
    if (e == ST_ETOOBIG)
        return start_too_chatty(a, &r);
    if (e) {
        adb_result_free(&r);    /* set on every path */
        return e;
    }
    p->pid = parse_pid(r.out);
    if (!p->pid || (r.exit_code != 0 && r.exit_code != ADB_EXIT_UNKNOWN)) {
        e = start_failed(c, &r);
        adb_result_free(&r);
        return e;
    }
    adb_result_free(&r);
    p->recording = 1;
    snprintf(p->hint, sizeof(p->hint), "adb -s %s shell kill %d; adb -s %s shell rm -f %s",
             c->serial, p->pid, c->serial, p->path);
    c->stop_hint = p->hint;
    a->t_start_us = capture_now_us();
    if (pfwait_open(c, p->pid, 0, &p->wait))
        dynbuf_reset(&c->err);  /* not fatal: the stop opens it again */
    live_start(a);
    return ST_OK;
}

static int wait_left(double end_us)
{
    double ms = (end_us - capture_now_us()) / 1e3;
    return ms > 0 ? (int)ms : 0;
}

/* A Ctrl-C while perfetto finalises its file (a first one: the -t or
 * Enter stop was under way) costs nothing: the file is complete soon and
 * worth the wait.  The cancel pipe is emptied so the wait goes on. */
static int first_interrupt(struct capture *c)
{
    if (sig_terminated() || sig_interrupts() >= 2 || sig_alarmed())
        return 0;
    char buf[64];
    while (c->cancel_fd >= 0 && plat_sock_read(c->cancel_fd, buf, sizeof(buf)) > 0) {
    }
    return 1;
}

static enum st_err pf_stop(struct atrace *a)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    a->t_stop_us = capture_now_us();
    if (!p->recording)
        return ST_OK;
    /* one shell sends the signal and sees the session end */
    pfwait_free(p->wait);
    p->wait = NULL;
    double end = capture_now_us() + GONE_WAIT_MS * 1e3;
    enum st_err e;
    while ((e = pfwait_until_gone(c, &p->wait, p->pid, 1, wait_left(end))) == ST_EINTR &&
           first_interrupt(c))
        c->ui.note(c->ui.ctx, "Interrupted: perfetto is finishing its file; keeping what it "
                              "recorded (Ctrl-C again to abandon it)");
    if (e && e != ST_EINTR && c->dev_gone) {
        p->told = 1;    /* cleanup cannot reach it either: said here, once */
        return fail(c, e, "the device did not come back, so the Perfetto session (pid %d) may "
                    "still be recording and its file is left on the device; once it is back: "
                    "adb -s %s shell kill %d; adb -s %s shell rm -f %s", p->pid, c->serial,
                    p->pid, c->serial, p->path);
    }
    if (e == ST_ETIMEOUT)
        return fail(c, e, "the Perfetto session (pid %d) did not end within %d s of kill -TERM",
                    p->pid, GONE_WAIT_MS / 1000);
    if (e)
        return e;
    p->recording = 0;
    pfwait_free(p->wait);
    p->wait = NULL;
    c->tracing_off = 1;     /* from here a Ctrl-C only says the page is being written */
    return ST_OK;
}

/* The device file could not be removed: never left behind unsaid. */
static void file_left(struct atrace *a, const char *why)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    c->ui.warn(c->ui.ctx, "could not remove the Perfetto trace's file from the device (%s); "
                          "remove it with: adb -s %s shell rm -f %s", why, c->serial, p->path);
}

/* "rm -rf FILE" and, if it is ours, the lock, as long as it is still
 * ours: once our session ended, another systrace may have taken it over
 * as stale and made its own.  Without our pid (the start's answer lost)
 * only a lock without one goes; one with a pid is taken over later. */
static void rm_script(const struct pfrec *p, struct dynbuf *s)
{
    dynbuf_printf(s, "rm -rf %s", p->path);
    if (p->have_lock && p->pid)
        dynbuf_printf(s, "; (grep -qxF %d " LOCK "/pid && rm -rf " LOCK ")", p->pid);
    else if (p->have_lock)
        dynbuf_addstr(s, "; ([ -s " LOCK "/pid ] || rm -rf " LOCK ")");
}

/* An interrupted rm (the second Ctrl-C) is retried by the cleanup. */
static void remove_file(struct atrace *a)
{
    struct pfrec *p = rec_of(a);
    struct dynbuf s;
    dynbuf_init(&s, 4096);
    rm_script(p, &s);
    struct adb_result r;
    enum st_err e = dev_script(a->c, dynbuf_str(&s), 4096, &r);
    dynbuf_free(&s);
    adb_result_free(&r);    /* set on every path, an interrupted one too */
    if (!e) {
        p->file_on_device = p->have_lock = 0;
    } else if (e != ST_EINTR) {
        file_left(a, a->c->err.len ? dynbuf_str(&a->c->err) : st_strerror(e));
        dynbuf_reset(&a->c->err);
    }
}

/* The conversion's end, said the same way whichever way it ran. */
static enum st_err converted(struct atrace *a, const char *kept, enum st_err e,
                             const struct ff_result *res)
{
    struct capture *c = a->c;
    if (e == ST_ETRUNCATED) {
        c->ui.warn(c->ui.ctx, "%s: %s", kept, res->detail);
        e = ST_OK;
    }
    if (e) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "converting the Perfetto trace failed: %s; the recording is "
                      "kept in %s (open it in ui.perfetto.dev, or convert it again with: "
                      "systrace --from-file %s)", *res->detail ? res->detail : st_strerror(e),
                      kept, kept);
        return e;
    }
    capture_warn_cut(c, res->cut_lines);
    c->ui.note(c->ui.ctx, "Perfetto trace: %s", kept);
    return ST_OK;
}

static enum st_err convert(struct atrace *a, const char *kept, struct tracewriter *w)
{
    struct pfrec *p = rec_of(a);
    struct ff_result res;
    enum st_err e = p->live ? pflive_convert_end(p->live, &res)
                            : fromfile_convert(kept, w, &res);
    return converted(a, kept, e, &res);
}

/* Nothing could be fetched: no output, and what became of the session
 * and its file. */
static enum st_err fetch_failed(struct atrace *a, enum st_err e, const char *why)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    if (e == ST_EINTR)
        return e;
    p->told = p->file_on_device;
    if (p->file_on_device)
        return fail(c, e, "could not fetch the Perfetto trace from the device (%s); the "
                    "session was stopped, nothing was written, and its file is still on the "
                    "device: adb -s %s shell rm -f %s", why, c->serial, p->path);
    return fail(c, e, "could not fetch the Perfetto trace from the device (%s); the session "
                "was stopped and its file removed, nothing was written", why);
}

/* An empty file: a session ended from outside before its first write
 * says so; otherwise traced never recorded. */
static enum st_err nothing_recorded(struct atrace *a)
{
    struct pfrec *p = rec_of(a);
    if (p->ended_early)
        return fail(a->c, ST_ENOTRACE, "the Perfetto session (pid %d) was ended from outside "
                    "before it wrote anything: nothing was recorded (if nobody stopped it, is "
                    "traced running? adb shell setprop persist.traced.enable 1)", p->pid);
    return fail(a->c, ST_ENOTRACE, "%s", "perfetto recorded nothing (an empty trace): is traced "
                "running? (adb shell setprop persist.traced.enable 1)");
}

/* An earlier trace of that name is never replaced (the page's rule):
 * the name taken instead is said, whatever -q or -o - leave out, and is
 * the one --open=perfetto serves. */
static void kept_as(struct capture *c, const char *kept)
{
    free(c->raw_kept_path);
    c->raw_kept_path = strdup(kept);
    if (strcmp(kept, c->raw_path))
        c->ui.warn(c->ui.ctx, "%s already exists and is left alone; the Perfetto trace is "
                              "kept in %s", c->raw_path, kept);
}

static enum st_err pf_collect(struct atrace *a, struct tracewriter *w)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    struct outfile *own = NULL, *o = p->live ? pflive_outfile(p->live) : NULL;
    if (!c->raw_path)
        return fail(c, ST_EINVAL, "%s", "no place to keep the Perfetto trace");
    enum st_err e = o ? ST_OK : outfile_open_flags(c->raw_path, OUTFILE_NOREPLACE, &own);
    if (e) {
        enum st_err r = fail(c, e, "%s: cannot write", c->raw_path);
        outfile_free(own);
        return r;
    }
    o = o ? o : own;
    char why[700];
    e = p->live ? pflive_fetch(p->live, why, sizeof(why))
                : pffetch(c, p->path, o, why, sizeof(why));
    int fetched = !e;
    if (!e && !outfile_tell(o))
        e = nothing_recorded(a);
    if (!e && (e = outfile_commit(o)))
        fail(c, e, "%s: cannot write: %s", c->raw_path, outfile_errtext(o));
    c->raw_kept = !e;
    char *kept = !e ? strdup(outfile_path(o)) : NULL;
    if (kept)
        kept_as(c, kept);
    outfile_free(own);
    remove_file(a);
    ST_DBG(DBG_ATRACE, "perfetto: %s removed from the device", p->path);
    if (!fetched)
        return fetch_failed(a, e, why);
    if (!e && !kept)
        e = ST_ENOMEM;
    if (!e)
        e = convert(a, kept, w);
    ST_DBG(DBG_ATRACE, "perfetto: conversion ended: %s", st_strerror(e));
    free(kept);
    return e;
}

/* The page was abandoned (a second Ctrl-C, SIGTERM) or failed after the
 * trace was kept: the recording is there, and the user is told where
 * (unless the error says it already). */
static void say_kept(struct capture *c)
{
    if (c->raw_kept && c->raw_kept_path && !strstr(dynbuf_str(&c->err), c->raw_kept_path))
        c->ui.warn(c->ui.ctx, "the Perfetto trace is kept in %s (open it in ui.perfetto.dev, "
                              "or convert it with: systrace --from-file %s)",
                   c->raw_kept_path, c->raw_kept_path);
}

/* The page failed after the conversion: the recording, kept in any case,
 * is named in the error (a reader that left did not ask for it to go). */
static void pf_keep(struct atrace *a, int reader_left, struct dynbuf *said)
{
    struct capture *c = a->c;
    (void)reader_left;
    if (c->raw_kept && c->raw_kept_path)
        dynbuf_printf(said, "; the Perfetto trace is kept in %s (open it in ui.perfetto.dev, "
                            "or convert it with: systrace --from-file %s)",
                      c->raw_kept_path, c->raw_kept_path);
}

/* Every path that did not end in a collected trace: no session left
 * recording, no file left on the device. */
static void pf_cleanup(struct atrace *a)
{
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    if (p) {
        pfwait_free(p->wait);
        p->wait = NULL;
        live_end(a);
        say_kept(c);
    }
    if (!p || (!p->recording && !p->file_on_device && !p->have_lock))
        return;
    struct dynbuf s, saved;
    dynbuf_init(&s, 4096);
    dynbuf_init(&saved, 65536);
    dynbuf_addstr(&saved, dynbuf_str(&c->err));
    if (p->recording && p->pid)
        dynbuf_printf(&s, "kill -KILL %d 2>/dev/null; ", p->pid);
    rm_script(p, &s);
    struct adb_result r;
    enum st_err e = dev_script(c, dynbuf_str(&s), 4096, &r);
    adb_result_free(&r);    /* set on every path */
    if (!e)
        p->recording = p->file_on_device = p->have_lock = 0;
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&saved));
    if (e && p->recording && !p->told)
        c->ui.warn(c->ui.ctx, "could not stop the Perfetto session on the device; run `%s` "
                              "to stop it and `adb -s %s shell rm -f %s` to remove its file",
                   p->hint, c->serial, p->path);
    else if (e && (p->file_on_device || p->have_lock) && !p->told)
        file_left(a, st_strerror(e));
    dynbuf_free(&s);
    dynbuf_free(&saved);
}


/* The loop broke off (the link dropped): said once; the session goes on
 * recording on the device and the stop reaches it again. */
static void wait_lost(struct atrace *a)
{
    struct pfrec *p = rec_of(a);
    a->c->ui.warn(a->c->ui.ctx, "lost sight of the Perfetto session (pid %d): %s; it goes on "
                                "recording on the device and is stopped and fetched at the end",
                  p->pid, pfwait_error(p->wait));
    pfwait_free(p->wait);
    p->wait = NULL;
}

/* Looked at while the host waits: 1 once the session ended on its own
 * (stopped by someone else, traced gone) before -t, or with no -t.  At
 * its duration_ms it ends with the host's own -t: no message. */
static int pf_ended(const struct atrace *a_)
{
    struct atrace *a = (struct atrace *)a_;     /* the op is a question; the loop is read */
    struct capture *c = a->c;
    struct pfrec *p = rec_of(a);
    if (p->live && pflive_conversion_failed(p->live))
        return 1;   /* recording on is of no use; the conversion's error is said at the end */
    if (!p->wait)
        return p->ended_early;
    enum st_err e = pfwait_read(p->wait, 0);
    if (e == ST_ETIMEOUT || e == ST_EINTR)
        return 0;
    if (e) {
        wait_lost(a);
        return 0;
    }
    pfwait_free(p->wait);
    p->wait = NULL;
    p->recording = 0;
    double ms = (capture_now_us() - a->t_start_us) / 1e3;
    if (c->opt->time_ms > 0 && ms >= c->opt->time_ms - DURATION_SLACK_MS)
        return 0;
    c->ui.warn(c->ui.ctx, "the Perfetto session (pid %d) was ended from outside after %.1f s "
                          "(stopped or killed on the device, or traced went away); fetching "
                          "what it recorded", p->pid, ms / 1e3);
    p->ended_early = 1;
    return 1;
}

static void pf_destroy(struct atrace *a)
{
    struct pfrec *p = rec_of(a);
    if (p) {
        live_end(a);
        pfconfig_free(&p->cfg);
        pfwait_free(p->wait);
        fairlock_destroy(&p->lock);
    }
    free(p);
    a->way_state = NULL;
}

/* --perfetto-config: checked before any device was asked (src/); a text
 * one cannot reach Android 9's perfetto, which has no --txt. */
static enum st_err user_config(struct capture *c, struct pfrec *p)
{
    const struct capture_opts *o = c->opt;
    struct pfuser_info info;
    char why[300];
    if (pfuser_check(o->pf_config, o->pf_config_len, &info, why, sizeof(why)))
        return fail(c, ST_EINVAL, "%s: %s", o->pf_config_name, why);
    if (c->sdk < 29 && !info.binary)
        return fail(c, ST_EUNSUPPORTED, "%s: a text config, and the device's perfetto "
                    "(Android 9, SDK %d) reads only binary ones: encode it with protoc "
                    "--encode=perfetto.protos.TraceConfig perfetto_config.proto <%s >%s.pb",
                    o->pf_config_name, c->sdk, o->pf_config_name, o->pf_config_name);
    uint32_t ms = o->time_ms > 0 ? (uint32_t)o->time_ms : 0;
    enum st_err e = pfuser_make(o->pf_config, o->pf_config_len, ms, &p->cfg);
    if (e)
        return fail(c, e, "%s: not a usable trace config", o->pf_config_name);
    if (*info.replaced)
        c->ui.note(c->ui.ctx, "%s: its %s replaced by systrace's (it reads the file as the "
                   "session writes it and stops the session at -t, Enter or Ctrl-C)",
                   o->pf_config_name, info.replaced);
    return ST_OK;
}

enum st_err perfetto_way_create(struct atrace *a)
{
    struct capture *c = a->c;
    if (c->sdk < 28) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "the device runs SDK %d: perfetto is on Android 9 (SDK 28) "
                               "and later; record without --perfetto (atrace) instead", c->sdk);
        return ST_EUNSUPPORTED;
    }
    struct pfrec *p = calloc(1, sizeof(*p));
    if (!p)
        return ST_ENOMEM;
    fairlock_init(&p->lock);
    a->way = &perfetto_way;
    a->way_state = p;
    if (c->opt->pf_config)
        return user_config(c, p);
    struct dynbuf dropped;
    dynbuf_init(&dropped, 65536);
    enum st_err e = pfconfig_make(c->opt, &a->avail, c->sdk, &p->cfg, &dropped);
    if (e == ST_EINVAL)
        fail(c, e, "%s", dynbuf_str(&dropped));
    else if (!e && !p->cfg.nkernel && !p->cfg.nuser)
        e = fail(c, ST_EINVAL, "none of the requested categories can be recorded with "
                 "Perfetto on the device (%s); `systrace -l` lists the ones it offers",
                 dynbuf_str(&dropped));
    else if (!e && dropped.len)
        c->ui.warn(c->ui.ctx, "These categories have no Perfetto equivalent on the device "
                              "and are dropped: %s", dynbuf_str(&dropped));
    if (!e && *p->cfg.lacking)
        c->ui.warn(c->ui.ctx, "The device (SDK %d) lacks these Perfetto data sources, left "
                              "out: %s", c->sdk, p->cfg.lacking);
    dynbuf_free(&dropped);
    return e;
}

const struct atrace_way perfetto_way = {
    .start = pf_start,
    .stop = pf_stop,
    .collect = pf_collect,
    .cleanup = pf_cleanup,
    .ended = pf_ended,
    .destroy = pf_destroy,
    .keep = pf_keep,
    .own_clock = 1,
};
