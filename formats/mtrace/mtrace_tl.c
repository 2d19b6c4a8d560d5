/*
 * Method trace -> timeline of slices (docs/method-traces.md, "Timeline"):
 * the two passes shared by the output forms (mtrace_tl.h).  Each thread's
 * calls become begin/end pairs on its own track; ts is wall time in µs
 * (header start + column, unless relative), thread-CPU time beside it for
 * dual-clock files.  Thread-CPU-only files use the CPU column as ts (not
 * comparable across threads).
 *
 * Two passes over the input, memory bounded by stacks x threads:
 *  1. replay each thread's stack to find the frames that were already
 *     open when tracing began (exits with no matching entry, innermost
 *     first);
 *  2. emit, opening those frames at time 0 (trace start / the thread's CPU
 *     base) flagged synthetic, so every end has its begin and slices nest.
 * Unrolls (exceptions) end flagged exception; an exit that skips frames
 * ends them flagged implicit; frames open at the end close at the end of
 * the trace, flagged synthetic.
 */
#include "mtrace_tl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t mt_tl_tid(const struct mt_tl *j, uint32_t id)
{
    const struct mt_tinfo *ti = mt_tinfo_of(j->tab, id);
    int64_t tid = ti->named && (ti->full_id & (MT_NTHREADS - 1)) == id
                  ? ti->full_id : id;
    return j->o.tid_base + tid;
}

int64_t mt_tl_ts(const struct mt_tl *j, const int64_t t[2])
{
    return j->base + t[j->wcol >= 0 ? j->wcol : j->ccol];
}

const char *mt_tl_process(const struct mt_tl *j, char *buf, size_t len)
{
    if (j->o.process_name)
        return j->o.process_name;
    snprintf(buf, len, "%s%smethod trace", j->tab->vm, j->tab->vm[0] ? " " : "");
    return buf;
}

/* ---- pass 1: frames open at the start ---- */

static enum st_err add_orphan(struct mt_thread *th, uint32_t midx)
{
    if (th->norph == th->caporph) {
        uint32_t cap = th->caporph ? th->caporph * 2 : 16;
        uint32_t *n = realloc(th->orph, cap * sizeof(*n));
        if (!n)
            return ST_ENOMEM;
        th->orph = n;
        th->caporph = cap;
    }
    th->orph[th->norph++] = midx;
    th->depth = 0;
    return ST_OK;
}

static enum st_err scan_record(void *ctx, const struct mt_rec *r)
{
    struct mt_tl *j = ctx;
    struct mt_thread *th;
    enum st_err e = mt_thread_get(&j->th, r->tid, &th);
    if (e != ST_OK)
        return e;
    int64_t t[2] = { 0, 0 };
    th->nrec++;
    if (r->action == MT_A_ENTER) {
        e = mt_push(th, r->midx, r->midx, t);
    } else {
        long k = mt_find(th, r->midx);
        if (k >= 0)
            th->depth = (uint32_t)k;
        else if (th->norph >= MTRACE_MAX_DEPTH)
            e = ST_ETOOBIG;
        else
            e = add_orphan(th, r->midx);
    }
    if (e == ST_ETOOBIG)
        mt_err(j->err, sizeof(j->err), "call stack deeper than %u frames "
               "on thread %u at offset %llu", MTRACE_MAX_DEPTH, r->tid,
               (unsigned long long)r->off);
    return e;
}

/* ---- pass 2: events ---- */

/* The observer hook (mtrace_json_opts.on_slice). */
static void observe(struct mt_tl *j, const struct mt_thread *th, char ph,
                    const int64_t t[2], uint32_t midx, uint32_t depth,
                    int synthetic)
{
    const struct mt_method *m = &j->tab->m[midx];
    struct mtrace_slice s = {
        .ph = ph, .synthetic = synthetic, .depth = depth,
        .tid = mt_tl_tid(j, th->id), .ts = mt_tl_ts(j, t),
        .cls = mt_str(j->tab, m->cls), .name = mt_str(j->tab, m->name),
    };
    j->o.on_slice(j->o.slice_ctx, &s);
}

static enum st_err ev_begin(struct mt_tl *j, const struct mt_thread *th,
                            const struct mt_frame *f, int synthetic)
{
    if (j->o.max_depth && th->depth > j->o.max_depth)
        return ST_OK;
    enum st_err e = j->ops->begin(j, th, f, synthetic);
    if (e != ST_OK)
        return e;
    if (j->o.on_slice)
        observe(j, th, 'B', f->t, f->midx, th->depth, synthetic);
    return j->w->failed ? ST_EIO : ST_OK;
}

/* Pops the top frame of th at time t. */
static enum st_err ev_end(struct mt_tl *j, struct mt_thread *th,
                          const int64_t t[2], int how)
{
    uint32_t depth = th->depth--;
    if (j->o.max_depth && depth > j->o.max_depth)
        return ST_OK;
    j->ops->end(j, th, t, how);
    if (j->o.on_slice)
        observe(j, th, 'E', t, th->f[depth - 1].midx, depth, how == MT_END_SYNTHETIC);
    return j->w->failed ? ST_EIO : ST_OK;
}

static enum st_err start_thread(struct mt_tl *j, struct mt_thread *th)
{
    int64_t zero[2] = { 0, 0 };
    enum st_err e = ST_OK;
    th->started = 1;
    j->info->orphan_exits += th->norph;
    for (uint32_t i = th->norph; i-- > 0 && e == ST_OK;) {
        e = mt_push(th, th->orph[i], th->orph[i], zero);
        if (e == ST_OK)
            e = ev_begin(j, th, &th->f[th->depth - 1], 1);
    }
    return e;
}

static enum st_err emit_exit(struct mt_tl *j, struct mt_thread *th,
                             const struct mt_rec *r, const int64_t t[2])
{
    long k = mt_find(th, r->midx);
    enum st_err e = ST_OK;
    if (k < 0)
        return ST_OK;   /* cannot happen after pass 1; ignore defensively */
    if (k != (long)th->depth - 1) {
        j->info->mismatches++;
        j->info->warnings |= MTRACE_W_MISMATCH;
    }
    while (e == ST_OK && (long)th->depth > k + 1)
        e = ev_end(j, th, t, MT_END_IMPLICIT);
    if (e == ST_OK)
        e = ev_end(j, th, t, r->action == MT_A_UNROLL ? MT_END_EXCEPTION
                                                      : MT_END_NORMAL);
    return e;
}

static enum st_err emit_record(void *ctx, const struct mt_rec *r)
{
    struct mt_tl *j = ctx;
    struct mt_thread *th;
    enum st_err e = mt_thread_get(&j->th, r->tid, &th);
    if (e != ST_OK)
        return e;
    int64_t t[2];
    mt_thread_times(&j->th, th, r->t, t);
    if (j->wcol >= 0 && t[j->wcol] > j->end_wall)
        j->end_wall = t[j->wcol];
    if (!th->started)
        e = start_thread(j, th);
    if (e != ST_OK)
        return e;
    if (r->action != MT_A_ENTER)
        return emit_exit(j, th, r, t);
    e = mt_push(th, r->midx, r->midx, t);
    return e == ST_OK ? ev_begin(j, th, &th->f[th->depth - 1], 0) : e;
}

/* Frames still open were running when the recording stopped: they end
 * at the end of the trace (elapsed-time-usec, or the latest wall time),
 * not at their thread's last record; thread-CPU time ends at the
 * thread's last value, the only one known. */
static enum st_err finish_threads(struct mt_tl *j)
{
    enum st_err e = ST_OK;
    if (j->wcol >= 0 && j->tab->elapsed_us > j->end_wall)
        j->end_wall = j->tab->elapsed_us;
    for (uint32_t k = 0; k < j->th.n && e == ST_OK; k++) {
        struct mt_thread *th = mt_thread_at(&j->th, j->th.ids[k]);
        int64_t t[2] = { th->last[0], th->last[1] };
        if (j->wcol >= 0)
            t[j->wcol] = j->end_wall;
        while (th->depth && e == ST_OK)
            e = ev_end(j, th, t, MT_END_SYNTHETIC);
    }
    return e;
}

/* ---- driver ---- */

static enum st_err scan_header(void *ctx, struct mt_tables *t)
{
    struct mt_tl *j = ctx;
    mt_threads_setup(&j->th, t);
    return ST_OK;
}

static enum st_err emit_header(void *ctx, struct mt_tables *t)
{
    struct mt_tl *j = ctx;
    mt_threads_setup(&j->th, t);
    j->wcol = j->ccol = -1;
    for (int c = t->ncol; c-- > 0;) {
        if (t->col_clock[c] == MT_CLK_CPU)
            j->ccol = c;
        else
            j->wcol = c;            /* wall, or unknown (no summary) */
    }
    j->base = (j->o.relative ? 0 : t->start_us) + j->o.ts_shift_us;
    j->pid = j->o.pid ? j->o.pid : t->pid > 0 ? t->pid : 1;
    mt_threads_sort(&j->th);
    j->ops->header(j);
    return j->w->failed ? ST_EIO : ST_OK;
}

static void reset_threads(struct mt_threads *ts)
{
    ts->have_wall_ref = 0;
    for (uint32_t k = 0; k < ts->n; k++) {
        struct mt_thread *th = mt_thread_at(ts, ts->ids[k]);
        th->depth = th->maxdepth = 0;
        th->nrec = th->same_ts = 0;
        th->started = 0;
    }
}

static const char *clock_of(const struct mt_tables *t)
{
    if (t->ncol == 2)
        return "dual";
    return t->col_clock[0] == MT_CLK_CPU ? "thread-cpu"
           : t->col_clock[0] == MT_CLK_WALL ? "wall" : "unknown";
}

static enum st_err run(struct mt_tl *j, const struct mtrace_src *src,
                       char *err, size_t errlen)
{
    struct mt_sink scan = { j, scan_header, scan_record };
    enum st_err e = mt_run(src, j->tab, &scan, 0, j->info, err, errlen);
    if (e != ST_OK)
        return e;
    j->info->clock = clock_of(j->tab);
    j->info->methods = j->tab->nm;
    reset_threads(&j->th);
    struct mt_sink emit = { j, emit_header, emit_record };
    e = mt_run(src, j->tab, &emit, 1, NULL, err, errlen);
    if (e != ST_OK)
        return e;
    mt_stack_info(&j->th, j->info);
    e = finish_threads(j);
    if (e == ST_OK)
        j->ops->tail(j);
    mt_jw_flush(j->w);
    return j->w->failed ? ST_EIO : e;
}

enum st_err mt_tl_convert(const struct mt_tl_ops *ops, void *form,
                          const struct mtrace_src *src,
                          const struct mtrace_json_opts *opts,
                          mtrace_write_fn write, void *ctx,
                          struct mtrace_info *info, char *err, size_t errlen)
{
    struct mtrace_info local;
    struct mt_tl *j = calloc(1, sizeof(*j));
    struct mt_jw *w = malloc(sizeof(*w));
    enum st_err e = ST_ENOMEM;
    if (!info)
        info = &local;
    memset(info, 0, sizeof(*info));
    if (err && errlen)
        err[0] = '\0';
    if (!j || !w)
        goto out;
    w->write = write;
    w->ctx = ctx;
    w->failed = 0;
    w->len = 0;
    j->ops = ops;
    j->form = form;
    j->w = w;
    j->info = info;
    if (opts)
        j->o = *opts;
    j->tab = mt_tables_new();
    if (!j->tab || mt_threads_init(&j->th) != ST_OK)
        goto out;
    e = run(j, src, err, errlen);
    if (e != ST_OK && j->err[0])
        mt_err(err, errlen, "%s", j->err);
    else if (e == ST_EIO && w->failed)
        mt_err(err, errlen, "cannot write the output");
out:
    if (e == ST_ENOMEM)
        mt_err(err, errlen, "%s", st_strerror(e));
    if (j) {
        ops->free(j);
        mt_threads_free(&j->th);
        mt_tables_free(j->tab);
    }
    free(j);
    free(w);
    return e;
}
