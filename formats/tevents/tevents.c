/*
 * ftrace text -> trace-event JSON, streamed; see tevents.h.  Lines are
 * cut from the fed chunks (a line cut by a chunk end is carried, lines
 * over TEV_LINE_MAX are skipped), tokenized (tevents_line.c) and turned
 * into events here; names and the closing metadata are in tevents_meta.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tevents_int.h"
#include "formats/atrace/coverage.h"

struct tevents *tevents_new(const struct text_sink *out)
{
    struct tevents *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->out = *out;
    dynbuf_init(&t->line, TEV_LINE_MAX);
    dynbuf_init(&t->ev, 8 * TEV_LINE_MAX);  /* a line escaped: <= 6x */
    tmap_init(&t->threads, TEV_THREADS_MAX);
    tmap_init(&t->procs, TEV_THREADS_MAX);
    tmap_init(&t->pdump, TEV_THREADS_MAX);
    tmap_init(&t->async, TEV_ASYNC_MAX);
    return t;
}

static void drop_stack(void *ctx, void *v)
{
    struct tevents *t = ctx;
    struct tev_thread *th = v;
    for (uint32_t i = 0; i < th->depth; i++) {
        t->name_bytes -= th->stack[i].name_len + 1;
        free(th->stack[i].name);
    }
    t->open -= th->depth;
    th->depth = th->excess = 0;
}

/* Forget what is open (slices, async ids, running tasks); names and
 * which threads had events are kept, so metadata may name a thread whose
 * events a rewind dropped. */
static void reset_state(struct tevents *t)
{
    tmap_each(&t->threads, drop_stack, t);
    tmap_clear(&t->async, tev_free_async);
    for (size_t i = 0; i < t->ncpus; i++) {
        free(t->cpus[i].comm);
        t->cpus[i].comm = NULL;
        t->cpus[i].running = 0;
    }
}

void tevents_free(struct tevents *t)
{
    if (!t)
        return;
    tmap_free(&t->threads, tev_free_thread);
    tmap_free(&t->procs, free);
    tmap_free(&t->async, tev_free_async);
    tmap_free(&t->pdump, tev_free_pd);
    for (size_t i = 0; i < t->ncpus; i++)
        free(t->cpus[i].comm);
    free(t->cpus);
    tev_pass_free(t);
    outfile_free(t->own);
    dynbuf_free(&t->line);
    dynbuf_free(&t->ev);
    free(t);
}

/* ---- lines ------------------------------------------------------------ */

/* Do what the repair's cut will do to the HTML: forget this part's
 * events so far. */
static enum st_err forget_part(struct tevents *t, uint64_t resets, const char *why)
{
    if (t->started) {
        uint64_t end = t->out.tell(t->out.ctx);
        enum st_err e = t->out.keep(t->out.ctx, t->part_off, end);
        if (e)
            return tev_fail(t, e, why);
    }
    t->nev = t->part_nev;
    t->st = t->part_st;
    t->st.resets = resets;
    reset_state(t);
    return ST_OK;
}

static enum st_err rewind_part(struct tevents *t)
{
    return forget_part(t, t->st.resets + 1,
                       "rewinding the trace events at a CPU buffer start");
}

static enum st_err ftrace_line(struct tevents *t, const char *p, size_t n)
{
    if (n && p[n - 1] == '\r')
        n--;
    if (n && p[0] == '#') {
        if (t->part_body && coverage_cpu_marker(p, n))
            return rewind_part(t);
        return ST_OK;
    }
    t->part_body = 1;
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i == n)
        return ST_OK;
    struct tev_line l;
    if (!tev_parse_line(p, n, &l)) {
        t->st.unparsed++;
        return ST_OK;
    }
    t->st.lines++;
    return tev_ftrace_event(t, &l);
}

static enum st_err one_line(struct tevents *t, const char *p, size_t n)
{
    if (t->mode == TEV_FTRACE)
        return ftrace_line(t, p, n);
    if (t->mode == TEV_PSDUMP)
        tev_psdump_line(t, p, n);
    return ST_OK;
}

enum st_err tevents_feed(struct tevents *t, const void *buf, size_t n)
{
    const char *p = buf, *end = p + n;
    if (t->mode == TEV_JSON)
        return tev_pass_feed(t, buf, n);
    while (p < end && !t->err && t->mode != TEV_NONE) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (t->skipping) {
            t->skipping = !nl;
        } else if (!nl || t->line.len) {
            if (dynbuf_add(&t->line, p, k)) {
                dynbuf_reset(&t->line);
                t->skipping = !nl;
                t->st.dropped++;
            } else if (nl) {
                one_line(t, t->line.data, t->line.len);
                dynbuf_reset(&t->line);
            }
        } else {
            one_line(t, p, k);
        }
        p += k + (nl ? 1 : 0);
    }
    return t->err;
}

void tevents_begin_part(struct tevents *t, const char *name)
{
    dynbuf_reset(&t->line);
    t->skipping = 0;
    t->mode = !strcmp(name, "systemTraceEvents") ? TEV_FTRACE
              : !strcmp(name, "androidProcessDump") ? TEV_PSDUMP
              : !strcmp(name, "traceEvents") ? TEV_JSON : TEV_NONE;
    if (t->mode == TEV_JSON)
        tev_pass_begin(t);
    psdump_init(&t->ps);
    if (t->mode == TEV_FTRACE) {
        tev_open_json(t);
        t->part_off = t->err ? 0 : t->out.tell(t->out.ctx);
        t->part_nev = t->nev;
        t->part_st = t->st;
        t->part_body = 0;
    }
}

void tevents_end_part(struct tevents *t)
{
    if (t->line.len && !t->skipping)
        one_line(t, t->line.data, t->line.len);
    dynbuf_reset(&t->line);
    t->mode = TEV_NONE;
}

void tevents_restart_part(struct tevents *t)
{
    dynbuf_reset(&t->line);
    t->skipping = 0;
    if (t->mode != TEV_FTRACE)
        return;
    forget_part(t, t->st.resets, "taking back the trace events of a part fetched again");
    t->part_body = 0;
}

static void tee_restart(void *ctx)
{
    tevents_restart_part(ctx);
}

static void tee_begin(void *ctx, const char *name)
{
    tevents_begin_part(ctx, name);
}

static void tee_write(void *ctx, const void *p, size_t n)
{
    tevents_feed(ctx, p, n);
}

static void tee_end(void *ctx)
{
    tevents_end_part(ctx);
}

static void tee_fact(void *ctx, const struct tw_fact *f)
{
    if (f->kind == TW_FACT_EVENT_RUN)
        tev_pass_run(ctx, f->count, f->bytes);
}

void tevents_tee(struct tevents *t, struct tw_tee *tee)
{
    tee->begin = tee_begin;
    tee->write = tee_write;
    tee->end = tee_end;
    tee->restart = tee_restart;
    tee->ctx = t;
    tee->fact = tee_fact;
}

/* Unclosed slices become B events (open to the end of the trace). */
static void close_thread(void *ctx, void *v)
{
    struct tevents *t = ctx;
    struct tev_thread *th = v;
    for (uint32_t i = 0; i < th->depth; i++) {
        struct tev_open *o = &th->stack[i];
        tev_start(t, o->name, o->name_len, 'B');
        tev_add(t, ",\"cat\":\"atrace\"");
        tev_ts(t, "ts", o->ts);
        tev_pidtid(t, o->pid, th->tid);
        th->has_events = 1;
        tev_proc_used(t, o->pid);
        t->st.unclosed++;
        tev_emit(t);
    }
}

enum st_err tevents_finish(struct tevents *t)
{
    if (t->mode != TEV_NONE)
        tevents_end_part(t);
    tev_open_json(t);
    tmap_each(&t->threads, close_thread, t);
    for (size_t i = 0; i < t->ncpus; i++)
        tev_cpu_close(t, (uint32_t)i, t->last_ts);
    tev_write_metadata(t);
    /* no displayTimeUnit: ms is the default, and Perfetto notes the key */
    tev_pass_sides(t);
    static const char tail[] = "\n],\n\"otherData\":{\"generator\":\"systrace --trace-events\"}}\n";
    return tev_out_write(t, tail, sizeof(tail) - 1);
}

const struct tevents_stats *tevents_stats(const struct tevents *t)
{
    return &t->st;
}

enum st_err tevents_error(const struct tevents *t)
{
    return t->err;
}

const char *tevents_errtext(const struct tevents *t)
{
    return t->err ? t->errtext : "";
}
