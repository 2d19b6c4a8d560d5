/*
 * Method trace -> Chrome trace-event JSON (docs/method-traces.md,
 * "Timeline").  Each thread's calls become "B"/"E" slices on its own
 * track; ts is wall time in µs (header start + column, unless relative),
 * tts thread-CPU time for dual-clock files.  Thread-CPU-only files use the
 * CPU column as ts (noted in otherData: not comparable across threads).
 *
 * Two passes over the input, memory bounded by stacks x threads:
 *  1. replay each thread's stack to find the frames that were already
 *     open when tracing began (exits with no matching entry, innermost
 *     first);
 *  2. emit, opening those frames at time 0 (trace start / the thread's CPU
 *     base) flagged synthetic_begin, so every E has its B and slices nest.
 * B/E (not X) because the viewer sorts X slices by start time only and
 * nests equal starts in file order, which inner-first X output breaks
 * (sampling traces have many equal timestamps).  Unrolls (exceptions) end
 * with args.exception; an exit that skips frames ends them with
 * implicit_end; frames open at the end close at the end of the trace
 * with synthetic_end.
 */
#include "mtrace_int.h"
#include "mtrace_jw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mt_json {
    struct mt_tables *tab;
    struct mt_threads th;
    struct mtrace_json_opts o;
    struct mtrace_info *info;
    struct mt_jw *w;
    int pass;
    int wcol, ccol;                 /* wall / cpu column, -1 if none */
    int64_t base;
    int64_t end_wall;               /* latest wall time in the file */
    long pid;
    int nevents;
    uint32_t *frag;                 /* per method: offset+1 in frags */
    uint32_t nfrag;
    struct dynbuf frags;
    char err[160];
};

/* ---- pass 1: frames open at the start ---- */

static enum st_err scan_record(void *ctx, const struct mt_rec *r)
{
    struct mt_json *j = ctx;
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
        if (k >= 0) {
            th->depth = (uint32_t)k;
        } else if (th->norph >= MTRACE_MAX_DEPTH) {
            e = ST_ETOOBIG;
        } else {
            if (th->norph == th->caporph) {
                uint32_t cap = th->caporph ? th->caporph * 2 : 16;
                uint32_t *n = realloc(th->orph, cap * sizeof(*n));
                if (!n)
                    return ST_ENOMEM;
                th->orph = n;
                th->caporph = cap;
            }
            th->orph[th->norph++] = r->midx;
            th->depth = 0;
        }
    }
    if (e == ST_ETOOBIG)
        mt_err(j->err, sizeof(j->err), "call stack deeper than %u frames "
               "on thread %u at offset %llu", MTRACE_MAX_DEPTH, r->tid,
               (unsigned long long)r->off);
    return e;
}

/* ---- pass 2: events ---- */

static enum st_err fragment(struct mt_json *j, uint32_t midx, const char **p,
                            size_t *n);

static void ev_head(struct mt_json *j, const struct mt_thread *th, char ph,
                    const int64_t t[2])
{
    struct mt_jw *w = j->w;
    mt_jw_lit(w, j->nevents++ ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
    mt_jw_raw(w, &ph, 1);
    mt_jw_lit(w, "\",\"pid\":");
    mt_jw_i64(w, j->pid);
    mt_jw_lit(w, ",\"tid\":");
    const struct mt_tinfo *ti = mt_tinfo_of(j->tab, th->id);
    int64_t tid = ti->named && (ti->full_id & (MT_NTHREADS - 1)) == th->id
                  ? ti->full_id : th->id;
    mt_jw_i64(w, j->o.tid_base + tid);
    mt_jw_lit(w, ",\"ts\":");
    mt_jw_i64(w, j->base + t[j->wcol >= 0 ? j->wcol : j->ccol]);
    if (j->wcol >= 0 && j->ccol >= 0) {
        mt_jw_lit(w, ",\"tts\":");
        mt_jw_i64(w, t[j->ccol]);
    }
}

/* The observer hook (mtrace_json_opts.on_slice). */
static void observe(struct mt_json *j, const struct mt_thread *th, char ph,
                    const int64_t t[2], uint32_t midx, uint32_t depth,
                    int synthetic)
{
    const struct mt_tinfo *ti = mt_tinfo_of(j->tab, th->id);
    const struct mt_method *m = &j->tab->m[midx];
    struct mtrace_slice s = {
        .ph = ph, .synthetic = synthetic, .depth = depth,
        .tid = j->o.tid_base + (ti->named && (ti->full_id & (MT_NTHREADS - 1))
                                == th->id ? ti->full_id : th->id),
        .ts = j->base + t[j->wcol >= 0 ? j->wcol : j->ccol],
        .cls = mt_str(j->tab, m->cls), .name = mt_str(j->tab, m->name),
    };
    j->o.on_slice(j->o.slice_ctx, &s);
}

static enum st_err ev_begin(struct mt_json *j, const struct mt_thread *th,
                            const struct mt_frame *f, int synthetic)
{
    if (j->o.max_depth && th->depth > j->o.max_depth)
        return ST_OK;
    const char *frag;
    size_t n;
    enum st_err e = fragment(j, f->midx, &frag, &n);
    if (e != ST_OK)
        return e;
    ev_head(j, th, 'B', f->t);
    if (j->o.on_slice)
        observe(j, th, 'B', f->t, f->midx, th->depth, synthetic);
    if (synthetic) {
        /* fragment ends with "}" (args) or "\"" (no args) */
        int args = frag[n - 1] == '}';
        mt_jw_raw(j->w, frag, args ? n - 1 : n);
        mt_jw_lit(j->w, args ? ",\"synthetic_begin\":true}}"
                             : ",\"args\":{\"synthetic_begin\":true}}");
    } else {
        mt_jw_raw(j->w, frag, n);
        mt_jw_lit(j->w, "}");
    }
    return j->w->failed ? ST_EIO : ST_OK;
}

static const char *end_flag[] = {
    NULL, "exception", "implicit_end", "synthetic_end",
};
enum { END_NORMAL, END_EXCEPTION, END_IMPLICIT, END_SYNTHETIC };

/* Pops the top frame of th at time t. */
static enum st_err ev_end(struct mt_json *j, struct mt_thread *th,
                          const int64_t t[2], int how)
{
    uint32_t depth = th->depth--;
    if (j->o.max_depth && depth > j->o.max_depth)
        return ST_OK;
    ev_head(j, th, 'E', t);
    if (j->o.on_slice)
        observe(j, th, 'E', t, th->f[depth - 1].midx, depth, how == END_SYNTHETIC);
    if (end_flag[how]) {
        mt_jw_lit(j->w, ",\"args\":{\"");
        mt_jw_lit(j->w, end_flag[how]);
        mt_jw_lit(j->w, "\":true}");
    }
    mt_jw_lit(j->w, "}");
    return j->w->failed ? ST_EIO : ST_OK;
}

static enum st_err start_thread(struct mt_json *j, struct mt_thread *th)
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

static enum st_err emit_exit(struct mt_json *j, struct mt_thread *th,
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
        e = ev_end(j, th, t, END_IMPLICIT);
    if (e == ST_OK)
        e = ev_end(j, th, t, r->action == MT_A_UNROLL ? END_EXCEPTION
                                                      : END_NORMAL);
    return e;
}

static enum st_err emit_record(void *ctx, const struct mt_rec *r)
{
    struct mt_json *j = ctx;
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
static enum st_err finish_threads(struct mt_json *j)
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
            e = ev_end(j, th, t, END_SYNTHETIC);
    }
    return e;
}

/* Cached `,"cat":...,"name":...,"args":{...}` text of a method. */
static enum st_err fragment(struct mt_json *j, uint32_t midx, const char **p,
                            size_t *n)
{
    if (midx >= j->nfrag) {
        uint32_t cap = j->tab->nm > midx ? j->tab->nm : midx + 1;
        uint32_t *f = realloc(j->frag, cap * sizeof(*f));
        if (!f)
            return ST_ENOMEM;
        memset(f + j->nfrag, 0, (cap - j->nfrag) * sizeof(*f));
        j->frag = f;
        j->nfrag = cap;
    }
    if (!j->frag[midx]) {
        const struct mt_method *m = &j->tab->m[midx];
        const char *cls = mt_str(j->tab, m->cls), *name = mt_str(j->tab,
                                                                  m->name);
        const char *shrt = cls, *s;
        struct dynbuf *b = &j->frags;
        size_t at = b->len;
        for (s = cls; *s; s++) {
            if (*s == '/' || *s == '.')
                shrt = s + 1;
        }
        if (m->flags & MT_M_NONAME)
            shrt = cls;
        enum st_err e = dynbuf_addstr(b, ",\"cat\":\"art_method\",\"name\":\"");
        if (e == ST_OK)
            e = mt_json_escape(b, shrt, strlen(shrt));
        if (e == ST_OK && !(m->flags & MT_M_NONAME))
            e = dynbuf_addc(b, '.');
        if (e == ST_OK && !(m->flags & MT_M_NONAME))
            e = mt_json_escape(b, name, strlen(name));
        if (e == ST_OK)
            e = dynbuf_addc(b, '"');
        if (e == ST_OK && !j->o.no_args && !(m->flags & MT_M_NONAME)) {
            const char *sig = mt_str(j->tab, m->sig);
            const char *file = mt_str(j->tab, m->file);
            e = dynbuf_addstr(b, ",\"args\":{\"class\":\"");
            if (e == ST_OK)
                e = mt_json_escape(b, cls, strlen(cls));
            if (e == ST_OK)
                e = dynbuf_addstr(b, "\",\"signature\":\"");
            if (e == ST_OK)
                e = mt_json_escape(b, sig, strlen(sig));
            if (e == ST_OK && *file) {
                e = dynbuf_addstr(b, "\",\"file\":\"");
                if (e == ST_OK)
                    e = mt_json_escape(b, file, strlen(file));
            }
            if (e == ST_OK && m->line >= 0)
                e = dynbuf_printf(b, "\",\"line\":%d}", (int)m->line);
            else if (e == ST_OK)
                e = dynbuf_addstr(b, "\"}");
        }
        if (e == ST_OK)
            e = dynbuf_addc(b, '\0');
        if (e != ST_OK) {
            b->len = at;
            return e;
        }
        j->frag[midx] = (uint32_t)at + 1;
    }
    *p = j->frags.data + j->frag[midx] - 1;
    *n = strlen(*p);
    return ST_OK;
}

/* ---- metadata, framing, driver ---- */

static void meta(struct mt_json *j, const char *what, int64_t tid,
                 const char *name, const char *suffix)
{
    struct mt_jw *w = j->w;
    mt_jw_lit(w, j->nevents++ ? ",\n{" : "\n{");
    mt_jw_lit(w, "\"ph\":\"M\",\"pid\":");
    mt_jw_i64(w, j->pid);
    mt_jw_lit(w, ",\"tid\":");
    mt_jw_i64(w, tid);
    mt_jw_lit(w, ",\"name\":\"");
    mt_jw_lit(w, what);
    mt_jw_lit(w, "\",\"args\":{\"name\":\"");
    struct dynbuf b;
    dynbuf_init(&b, 1u << 20);
    if (mt_json_escape(&b, name, strlen(name)) == ST_OK &&
        (!suffix || mt_json_escape(&b, suffix, strlen(suffix)) == ST_OK))
        mt_jw_raw(w, dynbuf_str(&b), b.len);
    dynbuf_free(&b);
    mt_jw_lit(w, "\"}}");
}

static void emit_meta(struct mt_json *j)
{
    char buf[64];
    const char *pname = j->o.process_name;
    if (!pname) {
        snprintf(buf, sizeof(buf), "%s%smethod trace", j->tab->vm,
                 j->tab->vm[0] ? " " : "");
        pname = buf;
    }
    meta(j, "process_name", 0, pname, NULL);
    mt_threads_sort(&j->th);
    for (uint32_t k = 0; k < j->th.n; k++) {
        uint32_t i = j->th.ids[k];
        const struct mt_tinfo *ti = mt_tinfo_of(j->tab, i);
        int64_t tid = ti->named && (ti->full_id & (MT_NTHREADS - 1)) == i
                      ? ti->full_id : i;
        char dflt[32];
        snprintf(dflt, sizeof(dflt), "Thread %u", i);
        meta(j, "thread_name", j->o.tid_base + tid,
             ti->named ? mt_str(j->tab, ti->name) : dflt, j->o.thread_suffix);
    }
}

static enum st_err scan_header(void *ctx, struct mt_tables *t)
{
    struct mt_json *j = ctx;
    mt_threads_setup(&j->th, t);
    return ST_OK;
}

static enum st_err emit_header(void *ctx, struct mt_tables *t)
{
    struct mt_json *j = ctx;
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
    mt_jw_lit(j->w, "{\"traceEvents\":[");
    emit_meta(j);
    return j->w->failed ? ST_EIO : ST_OK;
}

static void emit_tail(struct mt_json *j)
{
    struct mt_jw *w = j->w;
    const struct mt_tables *t = j->tab;
    mt_jw_lit(w, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{"
              "\"source\":\"Android method trace\",\"version\":\"");
    mt_jw_i64(w, t->version & 0x0f);
    mt_jw_lit(w, t->streaming ? " streaming\",\"clock\":\"" : "\",\"clock\":\"");
    mt_jw_lit(w, j->info->clock);
    mt_jw_lit(w, "\",\"vm\":");
    mt_jw_str(w, t->vm, strlen(t->vm));
    if (j->wcol < 0)
        mt_jw_lit(w, ",\"note\":\"thread-cpu clock only: ts is per-thread "
                  "CPU time, not comparable across threads\"");
    mt_jw_lit(w, j->info->sampling ? ",\"sampling\":\"likely\"" : "");
    mt_jw_lit(w, "}}\n");
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

static enum st_err json_run(struct mt_json *j, const struct mtrace_src *src,
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
        emit_tail(j);
    mt_jw_flush(j->w);
    return j->w->failed ? ST_EIO : e;
}

enum st_err mtrace_to_trace_events_src(const struct mtrace_src *src,
                                       const struct mtrace_json_opts *opts,
                                       mtrace_write_fn write, void *ctx,
                                       struct mtrace_info *info,
                                       char *err, size_t errlen)
{
    struct mtrace_info local;
    struct mt_json *j = calloc(1, sizeof(*j));
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
    j->w = w;
    j->info = info;
    if (opts)
        j->o = *opts;
    dynbuf_init(&j->frags, MT_MAX_STRINGS);
    j->tab = mt_tables_new();
    if (!j->tab || mt_threads_init(&j->th) != ST_OK)
        goto out;
    e = json_run(j, src, err, errlen);
    if (e != ST_OK && j->err[0])
        mt_err(err, errlen, "%s", j->err);
    else if (e == ST_EIO && w->failed)
        mt_err(err, errlen, "cannot write the output");
out:
    if (e == ST_ENOMEM)
        mt_err(err, errlen, "%s", st_strerror(e));
    if (j) {
        mt_threads_free(&j->th);
        mt_tables_free(j->tab);
        dynbuf_free(&j->frags);
        free(j->frag);
    }
    free(j);
    free(w);
    return e;
}

enum st_err mtrace_to_trace_events(const char *path,
                                   const struct mtrace_json_opts *opts,
                                   mtrace_write_fn write, void *ctx,
                                   char *err, size_t errlen)
{
    struct mtrace_src src = { .path = path };
    return mtrace_to_trace_events_src(&src, opts, write, ctx, NULL, err,
                                      errlen);
}
