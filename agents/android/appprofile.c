/*
 * The app-profile agent (--app-profile PROCESS, docs/app-profile.md):
 * method-traces one app during the capture and puts its method slices on
 * the atrace timeline, aligned.
 *
 *   start    am profile start [--sampling US] PROCESS /data/local/tmp/systrace-<pid>.trace
 *   stop     am profile stop PROCESS; wait until the file's size is stable
 *            (sync stat, bounded by --timeout or 10 s)
 *   collect  pull it into a private host temp file (0600; pulled again
 *            when the link drops meanwhile), rm -f it on the device, find the app's Trace.beginSection/traceBegin calls
 *            (mtrace on_slice hook), align them with the B lines and
 *            clock-sync markers the atrace agent's repair stage showed us
 *            (capture.line_observer), then write the method slices as
 *            atrace text (B/E lines, a "systemTraceEvents" part the writer
 *            joins to atrace's) shifted onto the ftrace clock, on tracks
 *            of their own ("<thread> (methods)") in the app's process.
 *   cleanup  am profile stop and rm -f, after an error or interrupt.
 *
 * Registered after atrace, so the ftrace text has been seen when collect
 * runs.  The alignment is reported as one note line.  A method trace that
 * lands well outside the capture once aligned (another session's, or a
 * clock nothing describes) is left out with a warning, so the timeline
 * stays the capture's.  Limits: memory for
 * the alignment is bounded by align.h; a sampling profile is placed by
 * the clock-sync marker alone (its entry times are quantised).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
#include "align.h"
#include "devcmd.h"
#include "formats/atrace/coverage.h"
#include "formats/mtrace/mtrace.h"
#include "lib/plat.h"
#include "lib/signals.h"

#define CMD_MAX 65536
#define STABLE_POLL_MS 100
#define DEFAULT_WAIT_S 10
#define METHOD_TID_BASE 100000000   /* method tracks apart from real tids */
#define MAX_THREADS 4096

struct open_trace {         /* a thread inside a Trace-begin call */
    int64_t tid;
    uint32_t depth;
};

struct appprofile {
    struct capture *c;
    const char *process;
    int64_t pid;            /* 0: unknown (B lines of all processes kept) */
    char devpath[96];
    int started, file_made;
    uint64_t size;          /* of the finished device file; 0: none */
    /* from the ftrace text */
    struct align_marks marks;
    struct align_set begins;
    int have_f, have_m;
    int64_t f_lo, f_hi;     /* first and last ftrace event, µs */
    int64_t m_lo, m_hi;     /* first and last method event, app µs */
    /* from the method trace */
    struct align_set calls;
    struct open_trace *open;
    size_t nopen;
    char err[256];
};

static enum st_err failf(struct capture *c, enum st_err e, const char *what, const char *detail)
{
    dynbuf_reset(&c->err);
    dynbuf_printf(&c->err, "%s: %s", what, detail);
    return e;
}

/* lo/hi widened to hold v */
static void widen(int *have, int64_t *lo, int64_t *hi, int64_t v)
{
    if (!*have || v < *lo)
        *lo = v;
    if (!*have || v > *hi)
        *hi = v;
    *have = 1;
}

static void on_line(void *ctx, const char *line, size_t n)
{
    struct appprofile *a = ctx;
    struct align_line l;
    if (align_parse_line(line, n, &l) != ALIGN_L_OTHER)
        align_note_line(&l, a->pid, &a->marks, &a->begins);
    uint64_t ns;
    if (!coverage_line_ts(line, n, &ns))
        widen(&a->have_f, &a->f_lo, &a->f_hi, (int64_t)(ns / 1000));
}

static enum st_err create(struct capture *c, void **state)
{
    *state = NULL;
    if (!c->opt->app_profile || c->opt->target != TARGET_ANDROID || !c->dev)
        return ST_OK;
    if (!adb_is_plain_token(c->opt->app_profile) || c->opt->app_profile[0] == '-') {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "--app-profile: '%s' is not a process name or pid",
                      c->opt->app_profile);
        return ST_EINVAL;
    }
    struct appprofile *a = calloc(1, sizeof(*a));
    if (!a)
        return ST_ENOMEM;
    a->c = c;
    a->process = c->opt->app_profile;
    align_set_init(&a->begins);
    align_set_init(&a->calls);
    snprintf(a->devpath, sizeof(a->devpath), "/data/local/tmp/systrace-%ld.trace",
             (long)plat_getpid());
    c->line_observer = on_line;
    c->observer_ctx = a;
    *state = a;
    return ST_OK;
}

/* The app's pid: PROCESS itself when numeric, else the only `pidof`. */
static void resolve_pid(struct appprofile *a)
{
    char *end;
    long v = strtol(a->process, &end, 10);
    if (!*end && v > 0) {
        a->pid = v;
        return;
    }
    const char *argv[] = {"pidof", a->process, NULL};
    struct adb_result r;
    if (dev_run(a->c, argv, 4096, &r)) {
        adb_result_free(&r);
        return;
    }
    v = strtol(r.out, &end, 10);
    while (*end == '\r' || *end == '\n')
        end++;
    if (r.exit_code == 0 && v > 0 && !*end)
        a->pid = v;
    adb_result_free(&r);
}

/* am prints its failures ("Error: ...", an exception) and may exit 0. */
static int am_failed(const struct adb_result *r)
{
    return (r->exit_code != 0 && r->exit_code != ADB_EXIT_UNKNOWN) ||
           strstr(r->out, "Error") || strstr(r->out, "Exception") ||
           strstr(r->err, "Error") || strstr(r->err, "Exception");
}

/* The line that says why: the exception's message after am's
 * "Exception occurred while executing 'profile':" line, else the first. */
static void am_reason(const char *out, char *line, size_t n)
{
    const char *p = out, *best = out;
    while (p && *p) {
        if (!strncmp(p, "java.", 5) || !strncmp(p, "Error", 5))
            best = p;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    dev_first_line(best, line, n);
}

static enum st_err start(void *state)
{
    struct appprofile *a = state;
    struct capture *c = a->c;
    resolve_pid(a);
    char us[24];
    const char *argv[9];
    int k = 0;
    argv[k++] = "am";
    argv[k++] = "profile";
    argv[k++] = "start";
    if (c->opt->app_profile_sampling > 0) {
        snprintf(us, sizeof(us), "%d", c->opt->app_profile_sampling);
        argv[k++] = "--sampling";
        argv[k++] = us;
    }
    argv[k++] = a->process;
    argv[k++] = a->devpath;
    argv[k] = NULL;
    struct adb_result r;
    enum st_err e = dev_run(c, argv, CMD_MAX, &r);
    if (e) {
        adb_result_free(&r);
        return e;
    }
    if (am_failed(&r)) {
        char line[256];
        am_reason(r.err_len ? r.err : r.out, line, sizeof(line));
        adb_result_free(&r);
        return failf(c, ST_EDEVICE, "am profile start failed", line);
    }
    adb_result_free(&r);
    a->started = a->file_made = 1;
    return ST_OK;
}

static enum st_err profile_stop(struct appprofile *a)
{
    const char *argv[] = {"am", "profile", "stop", a->process, NULL};
    struct adb_result r;
    enum st_err e = dev_run(a->c, argv, CMD_MAX, &r);
    if (!e)
        a->started = 0;
    adb_result_free(&r);
    return e;
}

static int give_up(void)
{
    return sig_terminated() || sig_alarmed() || sig_interrupts() >= 2;
}

/* Wait until the device file exists with the same non-zero size twice. */
static enum st_err wait_stable(struct appprofile *a, uint64_t *size)
{
    struct capture *c = a->c;
    struct adb_sync *s;
    enum st_err e = adb_sync_open(c->dev, &s);
    if (e)
        return failf(c, e, "cannot open a sync session", adb_device_error(c->dev));
    int limit = c->opt->timeout_s > 0 ? c->opt->timeout_s : DEFAULT_WAIT_S;
    long polls = limit * (1000L / STABLE_POLL_MS);
    uint64_t last = 0;
    int same = 0;
    for (long i = 0; i < polls && !give_up(); i++) {
        struct adb_stat st;
        e = adb_sync_stat(s, a->devpath, &st);
        if (e && e != ST_ENOENT)
            break;
        int there = !e && st.mode && st.size;
        e = ST_OK;
        if (there && st.size == last && ++same >= 1) {
            *size = st.size;
            adb_sync_free(s);
            return ST_OK;
        }
        if (!there || st.size != last)
            same = 0;
        last = there ? st.size : 0;
        plat_sleep_ms(STABLE_POLL_MS);
    }
    adb_sync_free(s);
    if (e)
        return e;
    if (give_up())
        return ST_EINTR;
    *size = 0;
    return ST_OK;
}

static enum st_err stop(void *state)
{
    struct appprofile *a = state;
    enum st_err e = profile_stop(a);
    if (!e)
        e = wait_stable(a, &a->size);
    if (!e && !a->size)
        a->c->ui.warn(a->c->ui.ctx, "the app did not write its method trace (%s) in time; "
                                    "the capture has no method slices", a->devpath);
    return e;
}

/* ---- collect ---------------------------------------------------------- */

struct pull_ctx {
    FILE *f;
};

static enum st_err pull_out(void *ctx, const void *p, size_t n)
{
    struct pull_ctx *pc = ctx;
    return fwrite(p, 1, n, pc->f) == n ? ST_OK : ST_EIO;
}

static enum st_err pull_once(struct appprofile *a, struct pull_ctx *pc)
{
    struct capture *c = a->c;
    struct adb_sync *s;
    enum st_err e = adb_sync_open(c->dev, &s);
    if (e)
        return failf(c, e, "cannot open a sync session", adb_device_error(c->dev));
    struct adb_sink sink = {pull_out, NULL, NULL, pc};
    e = adb_sync_pull(s, a->devpath, &sink);
    if (e)
        failf(c, e, "pulling the method trace failed", adb_sync_error(s));
    adb_sync_free(s);
    return e;
}

/* The link dropped during a pull (a missing file, ST_ENOENT, or a local
 * write error, ST_EIO, is not that). */
static int pull_broke(enum st_err e)
{
    return e != ST_ENOENT && e != ST_EIO && dev_link_lost(e);
}

/* Pull the device file into a private temp file; pulled once more when
 * the link drops during the first pull. */
static enum st_err pull(struct appprofile *a, char *tmp, size_t tmplen)
{
    struct capture *c = a->c;
    snprintf(tmp, tmplen, "%s%csystrace-app-XXXXXX", plat_tmpdir(), PLAT_SEP);
    int fd = plat_mkstemp(tmp);      /* mode 0600 */
    if (fd < 0) {
        tmp[0] = '\0';
        return failf(c, ST_EIO, "cannot create a temporary file", strerror(errno));
    }
    struct pull_ctx pc = {fdopen(fd, "wb")};
    if (!pc.f) {
        close(fd);
        return failf(c, ST_EIO, "cannot create a temporary file", strerror(errno));
    }
    enum st_err e = pull_once(a, &pc);
    if (pull_broke(e) && !dev_wait_back(c, dynbuf_str(&c->err),
                                        ", to pull the method trace again")) {
        rewind(pc.f);       /* the second pull writes the file from the start */
        e = plat_ftruncate(fileno(pc.f), 0) ? failf(c, ST_EIO, "cannot rewrite the temporary "
                                                          "file", strerror(errno))
                                       : pull_once(a, &pc);
    }
    if (fclose(pc.f) && !e)
        e = failf(c, ST_EIO, "cannot write the temporary file", strerror(errno));
    return e;
}

static void remove_device_file(struct appprofile *a)
{
    const char *argv[] = {"rm", "-f", a->devpath, NULL};
    struct adb_result r;
    if (!dev_run(a->c, argv, 4096, &r) && r.exit_code == 0)
        a->file_made = 0;
    adb_result_free(&r);
}

static int trace_begin_method(const struct mtrace_slice *s)
{
    static const char *const names[] = {"beginSection", "traceBegin", "nativeTraceBegin"};
    const char *cls = s->cls;
    static const char want[] = "android.os.Trace";
    size_t i = 0;
    for (; cls[i] && want[i]; i++)
        if (cls[i] != want[i] && !(cls[i] == '/' && want[i] == '.'))
            return 0;
    if (cls[i] || want[i])
        return 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++)
        if (!strcmp(s->name, names[k]))
            return 1;
    return 0;
}

static struct open_trace *open_of(struct appprofile *a, int64_t tid, int make)
{
    for (size_t i = 0; i < a->nopen; i++)
        if (a->open[i].tid == tid)
            return &a->open[i];
    if (!make || a->nopen == MAX_THREADS)
        return NULL;
    if (!a->open && !(a->open = calloc(MAX_THREADS, sizeof(*a->open))))
        return NULL;
    a->open[a->nopen].tid = tid;
    a->open[a->nopen].depth = 0;
    return &a->open[a->nopen++];
}

/* The outermost Trace-begin call of each nest is one B line. */
static void on_slice(void *ctx, const struct mtrace_slice *s)
{
    struct appprofile *a = ctx;
    widen(&a->have_m, &a->m_lo, &a->m_hi, s->ts);
    struct open_trace *o = open_of(a, s->tid, s->ph == 'B');
    if (!o)
        return;
    if (s->ph == 'E') {
        if (o->depth == s->depth)
            o->depth = 0;
        return;
    }
    if (o->depth || !trace_begin_method(s))
        return;
    o->depth = s->depth;
    if (!s->synthetic)
        align_set_add(&a->calls, s->tid, s->ts);
}

static int discard(void *ctx, const void *p, size_t n)
{
    (void)ctx, (void)p, (void)n;
    return 0;
}

static int to_writer(void *ctx, const void *p, size_t n)
{
    return tw_write(ctx, p, n) != ST_OK;
}

static const char *basis_name(enum align_basis b)
{
    return b == ALIGN_PARENT_TS ? "parent_ts" : b == ALIGN_REALTIME_TS ? "realtime_ts" : "none";
}

/* Scan the trace for Trace-begin calls and work out the offset. */
static enum st_err align(struct appprofile *a, const struct mtrace_src *src, int64_t *offset)
{
    struct capture *c = a->c;
    struct mtrace_json_opts o = {.no_args = 1, .on_slice = on_slice, .slice_ctx = a};
    struct mtrace_info info;
    enum st_err e = mtrace_to_trace_events_src(src, &o, discard, NULL, &info, a->err,
                                               sizeof(a->err));
    if (e)
        return failf(c, e, "cannot read the app's method trace", a->err);
    if (!strcmp(info.clock, "thread-cpu")) {
        c->ui.warn(c->ui.ctx, "the app's method trace has only thread-CPU times; it "
                              "cannot be aligned with the trace");
        *offset = 0;
        return ST_OK;
    }
    struct align_estimate est;
    align_estimate(&a->marks, info.start_us, &est);
    struct align_result r;
    int sampling = c->opt->app_profile_sampling > 0 || info.sampling;
    if (sampling)
        align_set_free(&a->calls);      /* quantised entry times: marker only */
    align_refine(&a->calls, &a->begins, &est, 3, &r);
    *offset = r.offset_us;
    if (r.refined)
        c->ui.note(c->ui.ctx, "app profile aligned: offset %lld us, residual %.0f us from "
                              "%zu matched sections (%s estimate corrected by %lld us%s)",
                   (long long)r.offset_us, r.residual_us, r.matched, basis_name(est.basis),
                   (long long)r.correction_us,
                   r.unbounded ? ", far outside its error bound: the app's clock is not "
                                 "the one the marker describes" : "");
    else if (est.basis != ALIGN_NONE)
        c->ui.note(c->ui.ctx, "app profile aligned by the %s clock-sync marker only: offset "
                              "%lld us (%s; %zu of %zu Trace.beginSection calls matched)",
                   basis_name(est.basis), (long long)est.offset_us,
                   sampling ? "sampling profile" : "no sections matched", r.matched,
                   r.calls);
    else
        c->ui.warn(c->ui.ctx, "the app's method trace could not be aligned (no clock-sync "
                              "marker in the trace and no sections matched); it is "
                              "placed unshifted");
    return ST_OK;
}

/* "3.2 s", "95.3 h", "11.7 years" */
static void span_text(int64_t us, char *out, size_t n)
{
    double s = us < 0 ? -(double)us / 1e6 : (double)us / 1e6;
    static const struct { double secs; const char *unit; } u[] = {
        {365.25 * 86400, "years"}, {86400, "days"}, {3600, "h"}, {60, "min"},
    };
    for (size_t i = 0; i < sizeof(u) / sizeof(*u); i++)
        if (s >= 2 * u[i].secs) {
            snprintf(out, n, "%.1f %s", s / u[i].secs, u[i].unit);
            return;
        }
    snprintf(out, n, "%.1f s", s);
}

/* A method trace of another session (or a clock nothing describes) would
 * stretch the timeline over hours or years around the capture: leave its
 * slices out, say so, and keep the atrace part as it is.  1 if outside. */
static int outside_capture(struct appprofile *a, int64_t offset)
{
    struct capture *c = a->c;
    if (!a->have_m || !a->have_f)
        return 0;
    int64_t miss = align_outside(a->m_lo, a->m_hi, offset, a->f_lo, a->f_hi);
    if (!miss)
        return 0;
    char span[48];
    span_text(miss, span, sizeof(span));
    c->ui.warn(c->ui.ctx, "the app's method trace does not fit this capture: aligned, it "
                          "would %s %s %s the trace; its method slices are left out (was it "
                          "recorded during this capture?)", miss < 0 ? "start" : "reach",
               span, miss < 0 ? "before" : "past the end of");
    return 1;
}

/* The method slices as atrace text right after atrace's own part: the
 * writer joins the two, so Perfetto (which reads only the first ftrace
 * section) and the classic viewer both show them (tracewriter.h). */
static enum st_err convert(struct appprofile *a, const char *path, struct tracewriter *w)
{
    struct mtrace_src src = {.path = path};
    int64_t offset = 0;
    enum st_err e = align(a, &src, &offset);
    if (e || outside_capture(a, offset))
        return e;
    struct mtrace_json_opts o = {
        .pid = a->pid > 0 && a->pid < 1000000000 ? (int)a->pid : 0,
        .tid_base = METHOD_TID_BASE,
        .ts_shift_us = offset,
        .process_name = a->process,
        .thread_suffix = " (methods)",
    };
    struct mtrace_info info;
    if ((e = tw_begin(w, "systemTraceEvents")))
        return e;
    e = mtrace_to_atrace_src(&src, &o, NULL, to_writer, w, &info, a->err, sizeof(a->err));
    if (e)
        return failf(a->c, e, "cannot convert the app's method trace", a->err);
    if (info.clamped)
        a->c->ui.warn(a->c->ui.ctx, "%llu method event(s) of the app profile fell before "
                                    "time 0 of the trace and were placed at 0",
                      (unsigned long long)info.clamped);
    return tw_end(w);
}

static enum st_err collect(void *state, struct tracewriter *w)
{
    struct appprofile *a = state;
    char tmp[4096];
    tmp[0] = '\0';
    enum st_err e = a->size ? pull(a, tmp, sizeof(tmp)) : ST_OK;
    remove_device_file(a);
    if (!e && tmp[0])
        e = convert(a, tmp, w);
    if (tmp[0])
        plat_unlink(tmp);
    return e;
}

/* After an error or interrupt: stop profiling, remove the device file. */
static void cleanup(void *state)
{
    struct appprofile *a = state;
    if (!a)
        return;
    if (a->started && profile_stop(a))
        a->c->ui.warn(a->c->ui.ctx, "could not stop profiling %s (%s); run `adb shell am "
                                    "profile stop %s`", a->process,
                      adb_device_error(a->c->dev), a->process);
    if (a->file_made)
        remove_device_file(a);
}

static void destroy(void *state)
{
    struct appprofile *a = state;
    if (!a)
        return;
    if (a->c->observer_ctx == a) {
        a->c->line_observer = NULL;
        a->c->observer_ctx = NULL;
    }
    align_set_free(&a->begins);
    align_set_free(&a->calls);
    free(a->open);
    free(a);
}

const struct agent_ops appprofile_agent = {
    .name = "app profile",
    .create = create,
    .start = start,
    .stop = stop,
    .collect = collect,
    .cleanup = cleanup,
    .destroy = destroy,
};
