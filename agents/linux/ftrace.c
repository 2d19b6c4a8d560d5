/*
 * The ftrace agent: traces this machine's kernel (--target=linux) through
 * tracefs (ftrace_fs.h), beside the atrace agent and sharing its output
 * path: the kernel's text goes through the flags normalisation
 * (ftrace_norm.h), the circular-buffer cut and header repair (repair.h)
 * and into the result's systemTraceEvents part, streamed, never held in
 * memory.  Clock sync writes the same trace_marker line atrace's agent
 * does, so the controller part (controller_part.c) aligns the trace.
 *
 * Default: the kernel's ring buffer, read once after tracing (`trace`),
 * as catapult does.  --stream: each CPU's trace_pipe is read while tracing
 * into a spool file beside the output (ftrace_stream.h, ftrace_spool.h);
 * the spools are merged in time order into the result, or into one raw
 * .ftrace file if the conversion fails (or with SYSTRACE_KEEP_RAW=1).  Events the kernel lost are counted from
 * per_cpu/cpuN/stats and reported.
 *
 * The kernel is put back (tracefs_restore) after collecting, and from
 * cleanup/destroy after any error, Ctrl-C or SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agents/agent.h"
#include "lib/debug.h"
#include "ftrace_cats.h"
#include "ftrace_fs.h"
#include "ftrace_conv.h"
#include "formats/atrace/ftrace_norm.h"
#include "ftrace_merge.h"
#include "ftrace_setup.h"
#include "ftrace_spool.h"
#include "ftrace_stream.h"
#include "hostproc.h"
#include "formats/atrace/repair.h"
#include "lib/signals.h"
#include "lib/printf.h"

#define AVAIL_MAX (16u << 20)

struct ftrace {
    struct capture *c;
    struct tracefs *t;
    struct evlist events;
    struct fsetup setup;
    int started;            /* the kernel may be tracing */
    struct fstream *stream;
    char *spool;            /* --stream: the spool files' base name */
    struct spools sp;
    struct kstats stats;
    int int_base;           /* Ctrl-Cs seen before collection */
    uint64_t bytes;
    double t_start_us, t_stop_us;   /* host times tracing ran */
};

static enum st_err fail(struct capture *c, enum st_err e, const char *fmt, ...)
    ST_PRINTF(3, 4);
static enum st_err fail(struct capture *c, enum st_err e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dynbuf_reset(&c->err);
    char msg[1024];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    dynbuf_addstr(&c->err, msg);
    va_end(ap);
    return e;
}

static enum st_err resolve(struct ftrace *f)
{
    struct capture *c = f->c;
    struct dynbuf text, unavailable;
    dynbuf_init(&text, AVAIL_MAX);
    dynbuf_init(&unavailable, 65536);
    struct evset *s = evset_new();
    enum st_err e = s ? tracefs_read(f->t, 1, "available_events", &text) : ST_ENOMEM;
    if (e && s)
        fail(c, e, "%s", f->t->err);
    if (!e)
        e = evset_parse(s, dynbuf_str(&text), text.len);
    if (!e)
        e = fcat_resolve(s, c->opt->categories, c->opt->ncategories, &f->events, &unavailable);
    if (!e && unavailable.len)
        c->ui.warn(c->ui.ctx, "These categories are unavailable: %s", dynbuf_str(&unavailable));
    if (!e && !f->events.n && !(c->opt->kfuncs && *c->opt->kfuncs))
        e = fail(c, ST_EUNSUPPORTED, "none of the requested categories is available on this "
                                     "kernel; `systrace --target=linux -l` lists what it "
                                     "offers");
    ST_DBG(DBG_FTRACE, "%zu events for %zu categories", f->events.n, c->opt->ncategories);
    evset_free(s);
    dynbuf_free(&text);
    dynbuf_free(&unavailable);
    return e;
}

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    if (c->opt->target != TARGET_LINUX || !c->host || !c->tfs)
        return ST_OK;
    struct ftrace *f = calloc(1, sizeof(*f));
    if (!f)
        return ST_ENOMEM;
    *state = f;
    f->c = c;
    f->t = c->tfs;
    if (c->opt->stream) {
        if (!c->raw_path || !(f->spool = malloc(strlen(c->raw_path) + 6)))
            return ST_ENOMEM;
        snprintf(f->spool, strlen(c->raw_path) + 6, "%s.part", c->raw_path);
    }
    return resolve(f);
}

static enum st_err start(void *state)
{
    struct ftrace *f = state;
    struct capture *c = f->c;
    f->started = 1;
    enum st_err e = ftrace_configure(c, f->t, &f->events, &f->setup);
    if (!e && f->spool) {
        char err[512];
        if ((e = spools_make(&f->sp, f->t, f->spool)))
            fail(c, e, "--stream: no per-CPU trace pipes in %s", f->t->dir);
        else if ((e = fstream_start(f->sp.pipes, f->sp.files, f->sp.n, &f->stream, err,
                                    sizeof(err))))
            fail(c, e, "--stream: cannot start: %s", err);
    }
    if (!e && tracefs_set(f->t, 0, "tracing_on", "1"))
        e = fail(c, ST_EIO, "%s", f->t->err);
    f->t_start_us = e ? 0 : capture_now_us();
    ST_DBG(DBG_FTRACE, "tracing: %zu events, %d KB per CPU, clock %s, tgid %d", f->events.n,
           f->setup.buf_kb, f->setup.clock, f->setup.tgid_col);
    return e;
}

static enum st_err clock_sync(void *state)
{
    struct ftrace *f = state;
    struct capture *c = f->c;
    char line[128];
    capture_uuid(c->sync_id);
    snprintf(line, sizeof(line), "trace_event_clock_sync: name=%s\n", c->sync_id);
    c->sync_issue_us = capture_now_us();
    int e = tracefs_write(f->t, 0, "trace_marker", line);
    c->sync_done_us = capture_now_us();
    if (e == EBADF)     /* what the kernel says when the buffer has no room */
        return fail(c, ST_EIO, "the trace buffer was full, so the marker could not be "
                               "written (a larger -b, or --stream, avoids this)");
    if (e)
        return fail(c, ST_EIO, "%s", f->t->err);
    c->sync_written = 1;
    return ST_OK;
}

static enum st_err stop(void *state)
{
    struct ftrace *f = state;
    struct capture *c = f->c;
    f->t_stop_us = capture_now_us();
    if (tracefs_write(f->t, 0, "tracing_on", "0"))
        return fail(c, ST_EIO, "%s", f->t->err);
    if (f->stream && fstream_stop(f->stream))
        return fail(c, ST_EIO, "--stream: writing %s failed: %s", f->spool,
                    fstream_error(f->stream));
    ftrace_read_stats(f->t, &f->stats);
    return ST_OK;
}

/* ---- collect -------------------------------------------------------- */

static int cancelled(const struct ftrace *f)
{
    return sig_terminated() || sig_alarmed() || sig_interrupts() > f->int_base;
}

static enum st_err load_tgids(struct tgid_map *m)
{
    struct dynbuf ps, tasks;
    dynbuf_init(&ps, 32u << 20);
    dynbuf_init(&tasks, 64u << 20);
    enum st_err e = hostproc_snapshot(NULL, &ps, &tasks);
    if (!e)
        e = tgid_map_parse(m, dynbuf_str(&tasks), tasks.len);
    dynbuf_free(&ps);
    dynbuf_free(&tasks);
    return e;
}

static int open_trace(struct ftrace *f)
{
    char p[PATH_MAX];
    if (tracefs_path(f->t, 0, "trace", p, sizeof(p)))
        return -1;
    return open(p, O_RDONLY | O_CLOEXEC);
}

/* The buffer was too small for the time traced (formats/atrace/coverage.h):
 * how much the kept trace covers and which -b would have held it. */
static int report_coverage(struct ftrace *f, const struct coverage *cv, uint64_t lost)
{
    struct capture *c = f->c;
    double kept = coverage_seconds(cv), traced = (f->t_stop_us - f->t_start_us) / 1e6;
    int want;
    if (f->spool || !f->t_start_us || !coverage_short(kept, traced, f->setup.buf_kb, &want))
        return 0;
    char n[48] = "";
    if (lost)
        snprintf(n, sizeof(n), ", %llu events lost", (unsigned long long)lost);
    c->ui.warn(c->ui.ctx, "the trace covers only %.2f s of the %.1f s traced: the trace "
                          "buffer (-b %d, KB per CPU) was full%s; -b %d would have held it, "
                          "or use --stream", kept, traced, f->setup.buf_kb, n, want);
    return 1;
}

static void report(struct ftrace *f, const struct fconv *cv)
{
    struct capture *c = f->c;
    const struct fnorm_stats *ns = &cv->stats;
    uint64_t lost = kstats_lost(&f->stats);
    if (lost < ns->lost)
        lost = ns->lost;
    c->ui.note(c->ui.ctx, "Captured %llu events on %d CPUs (%llu lost)",
               (unsigned long long)ns->events, f->stats.cpus, (unsigned long long)lost);
    capture_warn_cut(c, cv->cut_lines);
    if (report_coverage(f, &cv->cov, lost) || !lost)
        return;
    if (f->spool)
        c->ui.warn(c->ui.ctx, "the kernel lost %llu events: the stream did not keep up; "
                              "a larger -b (now %d KB per CPU) gives it more slack",
                   (unsigned long long)lost, f->setup.buf_kb);
    else
        c->ui.warn(c->ui.ctx, "the trace buffer filled up and %llu events were lost: use "
                              "--stream, or a larger -b (now %d KB per CPU)",
                   (unsigned long long)lost, f->setup.buf_kb);
}

/* --stream: keep the raw capture, merged, under its final name after a
 * failure; never after SIGTERM. */
static void keep_spool(struct ftrace *f)
{
    if (!f->spool || !spools_exist(&f->sp))
        return;
    char *kept = NULL;
    if (!sig_terminated() && !spools_merge_to(&f->sp, f->c->raw_path, &kept))
        f->c->ui.warn(f->c->ui.ctx, "the raw trace is kept in %s (convert it later with: "
                                    "systrace --from-file %s)", kept, kept);
    free(kept);
    spools_remove(&f->sp);
}

/* SYSTRACE_KEEP_RAW=1: the merged stream beside the page. */
static void keep_raw_text(struct ftrace *f)
{
    char *kept = NULL;
    if (!spools_merge_to(&f->sp, f->c->raw_path, &kept))
        f->c->ui.note(f->c->ui.ctx, "Raw kernel text kept in %s", kept);
    free(kept);
}

static void restore(struct ftrace *f)
{
    fstream_abort(f->stream);
    if (tracefs_restore(f->t))
        f->c->ui.warn(f->c->ui.ctx, "the kernel's tracing settings were not all restored: %s",
                      f->t->err);
    f->started = 0;
}

static int cancel_cb(void *ctx)
{
    return cancelled(ctx);
}

static void progress_cb(void *ctx, uint64_t bytes)
{
    struct ftrace *f = ctx;
    f->bytes = bytes;
    f->c->ui.progress(f->c->ui.ctx, bytes);
}

static enum st_err convert(struct ftrace *f, struct tracewriter *w, struct tgid_map *tgids)
{
    struct capture *c = f->c;
    struct fconv cv = {.norm = {.flags = 1, .func_events = f->setup.tracer == FT_FUNCTION,
                                .tgids = tgids},
                       .watch = c->sync_written ? c->sync_id : NULL,
                       .cancel = cancel_cb, .progress = progress_cb, .ctx = f};
    int fd = -1;
    struct fmerge *m = NULL;
    char err[600] = "";
    if (f->spool && fmerge_open(f->sp.files, f->sp.n, &m, err, sizeof(err)))
        return fail(c, ST_EIO, "cannot read the stream: %s", err);
    if (!f->spool && (fd = open_trace(f)) < 0)
        return fail(c, ST_EIO, "cannot read the trace: %s", strerror(errno));
    cv.merge = m;
    cv.read = fconv_read_fd;
    cv.src = &fd;
    enum st_err e = ftrace_convert(w, &cv);
    if (fd >= 0)
        close(fd);
    fmerge_free(m);
    if (e == ST_EIO)
        return fail(c, e, "%s", cv.err);
    if (!e) {
        c->sync_seen = cv.watch_seen;
        report(f, &cv);
    }
    return e;
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct ftrace *f = state;
    f->int_base = sig_interrupts();
    struct tgid_map *m = NULL;
    enum st_err e = ST_OK;
    if (!f->setup.tgid_col && (!(m = tgid_map_new()) || (e = load_tgids(m))))
        e = e ? e : ST_ENOMEM;
    double t0 = capture_now_us();
    if (!e)
        e = convert(f, w, m);
    ST_DBG(DBG_FTRACE, "converted %llu bytes of kernel text in %.3f s",
           (unsigned long long)f->bytes, (capture_now_us() - t0) / 1e6);
    tgid_map_free(m);
    if (e == ST_EINTR && !f->c->err.len)
        dynbuf_addstr(&f->c->err, sig_terminated() ? "terminated while collecting; nothing "
                                                     "written" : "interrupted");
    const char *keep = getenv("SYSTRACE_KEEP_RAW");
    if (e)
        keep_spool(f);
    else if (f->spool && keep && !strcmp(keep, "1"))
        keep_raw_text(f);
    spools_remove(&f->sp);
    restore(f);
    return e;
}

static void cleanup(void *state)
{
    struct ftrace *f = state;
    if (!f)
        return;
    restore(f);
    keep_spool(f);
}

static void destroy(void *state)
{
    struct ftrace *f = state;
    if (!f)
        return;
    fstream_free(f->stream);
    if (f->started)
        restore(f);
    spools_remove(&f->sp);
    spools_free(&f->sp);
    free(f->spool);
    evlist_free(&f->events);
    free(f);
}

const struct agent_ops ftrace_agent = {
    .name = "ftrace",
    .create = create,
    .start = start,
    .clock_sync = clock_sync,
    .stop = stop,
    .collect = collect,
    .cleanup = cleanup,
    .destroy = destroy,
};
