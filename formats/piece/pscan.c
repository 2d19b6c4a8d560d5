/* The first pass of a cut; see pscan.h. */
#include "pscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/atrace/psdump.h"
#include "pjson.h"
#include "pline.h"
#include "pscan_int.h"

static void fail_on(struct pscan *s, enum st_err e)
{
    if (e == ST_ENOMEM)
        s->failed = 1;
}

struct pscan *pscan_new(const struct piece_spec *spec)
{
    struct pscan *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->spec = spec;
    plines_init(&s->lines);
    imap_init(&s->tgid, THREADS_MAX);
    imap_init(&s->count, THREADS_MAX);
    imap_init(&s->edges, EDGES_MAX);
    imap_init(&s->depth, THREADS_MAX);
    smap_init(&s->names, NAMES_MAX);
    s->gran = 4096;
    return s;
}

void pscan_free(struct pscan *s)
{
    if (!s)
        return;
    plines_free(&s->lines);
    pjson_free(&s->js);
    imap_free(&s->tgid);
    imap_free(&s->count);
    imap_free(&s->edges);
    imap_free(&s->depth);
    smap_free(&s->names);
    free(s);
}

int pscan_failed(const struct pscan *s)
{
    return s->failed;
}

/* The repair keeps only what follows the last buffer-started line. */
static void restart(struct pscan *s)
{
    s->any = 0;
    s->text_any = s->unordered = 0;
    s->seen = 0;
    s->found = s->ended = 0;
    s->text_bytes = 0;
    s->nsamples = 0;
    s->gran = 4096;
    imap_free(&s->count);
    imap_free(&s->depth);
}

static void at_time(struct pscan *s, int64_t ts)
{
    if (!s->any || ts < s->first)
        s->first = ts;
    if (!s->any || ts > s->last)
        s->last = ts;
    s->any = 1;
}

static void sample(struct pscan *s, int64_t ts, size_t n)
{
    uint64_t before = s->text_bytes;
    s->text_bytes += n;
    if (before / s->gran == s->text_bytes / s->gran && s->nsamples)
        return;
    if (s->nsamples == SAMPLES_MAX) {       /* coarser: every other sample */
        for (size_t i = 0; i < SAMPLES_MAX / 2; i++) {
            s->sample_ts[i] = s->sample_ts[2 * i + 1];
            s->sample_bytes[i] = s->sample_bytes[2 * i + 1];
        }
        s->nsamples = SAMPLES_MAX / 2;
        s->gran *= 2;
    }
    s->sample_ts[s->nsamples] = ts;
    s->sample_bytes[s->nsamples++] = before;
}

/* What ftrace writes for a task whose comm it no longer knows: any real
 * name seen later (or a process dump's) stands instead. */
static int placeholder(const char *p, size_t n)
{
    return n >= 2 && p[0] == '<' && p[n - 1] == '>';
}

static void name_pid(struct pscan *s, int64_t pid, const char *name, size_t n, int strong)
{
    char k[24];
    int kn = snprintf(k, sizeof(k), "%lld", (long long)pid);
    size_t have;
    const char *had;
    if (n > NAME_MAX_BYTES)
        n = NAME_MAX_BYTES;
    if (!n || (!strong && (had = smap_get(&s->names, k, (size_t)kn, &have)) &&
               (placeholder(name, n) || !placeholder(had, have))))
        return;
    fail_on(s, smap_put(&s->names, k, (size_t)kn, name, n));
}

static int name_is(const char *p, size_t n, const char *want)
{
    size_t k = strlen(want);
    return n == k && !memcmp(p, want, k);
}

/* The Nth slice of the name asked for: where it begins and ends. */
static void slice_seen(struct pscan *s, int64_t key, int64_t ts, const char *name, size_t n)
{
    if (s->spec->range != PIECE_SLICE || s->found || !name_is(name, n, s->spec->slice))
        return;
    if (++s->seen != (s->spec->slice_nth ? s->spec->slice_nth : 1))
        return;
    s->found = 1;
    s->slice_at = ts;
    s->slice_key = key;
    int64_t d = 0;
    imap_get(&s->depth, key, &d);
    s->slice_depth = (size_t)d;
}

static void slice_depth(struct pscan *s, int64_t key, int64_t ts, int open)
{
    int64_t d = 0;
    imap_get(&s->depth, key, &d);
    d = open ? d + 1 : d > 0 ? d - 1 : 0;
    fail_on(s, imap_put(&s->depth, key, d));
    if (!open && s->found && !s->ended && key == s->slice_key && (size_t)d == s->slice_depth) {
        s->ended = 1;
        s->slice_end = ts;
    }
}

static int64_t field(const char *p, size_t n, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= n; i++)
        if ((i == 0 || p[i - 1] == ' ') && !memcmp(p + i, key, k)) {
            int64_t v = 0;
            size_t j = i + k, d = 0;
            while (j < n && p[j] >= '0' && p[j] <= '9' && d++ < 18)
                v = v * 10 + (p[j++] - '0');
            return d ? v : -1;
        }
    return -1;
}

static void edge(struct pscan *s, int64_t from_tid, int64_t to_tid)
{
    if (from_tid <= 0 || to_tid <= 0 || from_tid >= (1LL << 31) || to_tid >= (1LL << 31))
        return;
    fail_on(s, imap_put(&s->edges, from_tid << 32 | to_tid, 1));
}

/* A thread's process: its line's TGID column, else what a process dump
 * or an earlier mark said; -1 when nothing has. */
static int64_t tgid_seen(const struct pscan *s, const struct pline *l)
{
    int64_t v;
    return l->tgid >= 0 ? l->tgid : imap_get(&s->tgid, l->tid, &v) ? v : -1;
}

static void text_event(struct pscan *s, const struct pline *l, size_t n)
{
    at_time(s, l->ts_ns);
    if (s->text_any && l->ts_ns < s->text_max)
        s->unordered = 1;       /* as a method trace's threads come */
    if (!s->text_any || l->ts_ns > s->text_max)
        s->text_max = l->ts_ns;
    s->text_any = 1;
    sample(s, l->ts_ns, n);
    if (l->tgid >= 0)
        fail_on(s, imap_put(&s->tgid, l->tid, l->tgid));
    int64_t tgid = tgid_seen(s, l);
    /* a thread of no known process stands for one (piece_keeps): its
     * name is the one --process can ask for, as ps would show its comm */
    if (tgid < 0 || l->tid == tgid)
        name_pid(s, l->tid, l->task, l->task_len, 0);
    if (l->tid)
        fail_on(s, imap_add(&s->count, tgid >= 0 ? tgid : l->tid, 1));
    struct pmark m;
    if (pline_is(l, "tracing_mark_write") && !pmark_parse(l->body, l->body_len, &m)) {
        if (m.pid > 0 && l->tgid < 0)
            fail_on(s, imap_put(&s->tgid, l->tid, m.pid));
        if (m.kind == 'B')
            slice_seen(s, l->tid, l->ts_ns, m.name, m.name_len);
        if (m.kind == 'B' || m.kind == 'E')
            slice_depth(s, l->tid, l->ts_ns, m.kind == 'B');
    } else if (pline_is(l, "sched_waking") || pline_is(l, "sched_wakeup")) {
        edge(s, l->tid, field(l->body, l->body_len, "pid="));
    } else if (pline_is(l, "binder_transaction")) {
        edge(s, l->tid, field(l->body, l->body_len, "dest_thread="));
        edge(s, l->tid, field(l->body, l->body_len, "dest_proc="));
    }
}

static enum st_err text_line(void *ctx, const char *p, size_t n, int whole)
{
    struct pscan *s = ctx;
    struct pline l;
    if (!whole)
        return ST_OK;
    if (n > 10 && !memcmp(p, "##### CPU ", 10)) {
        restart(s);
        return ST_OK;
    }
    if (!pline_parse(p, n, &l))
        text_event(s, &l, n);
    return ST_OK;
}

static enum st_err dump_line(void *ctx, const char *p, size_t n, int whole)
{
    struct pscan *s = ctx;
    struct psdump_row r;
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
        n--;
    enum psdump_row_kind k = whole ? psdump_line(&s->ps, p, n, &r) : PSDUMP_NONE;
    if (k == PSDUMP_PROCESS) {
        name_pid(s, r.pid, r.name, r.name_len, 1);
        fail_on(s, imap_put(&s->tgid, r.pid, r.pid));
    } else if (k == PSDUMP_THREAD) {
        fail_on(s, imap_put(&s->tgid, r.tid, r.pid));
        if (r.tid == r.pid)
            name_pid(s, r.pid, r.name, r.name_len, 0);
    }
    return ST_OK;
}

/* {"ph":"M","name":"process_name","pid":P,"args":{"name":"..."}} */
static void json_meta(struct pscan *s, const char *p, const struct pevent *ev)
{
    struct pevent a;
    if (!ev->has_pid || !ev->args.len || !name_is(p + ev->name.off, ev->name.len,
                                                   "\"process_name\""))
        return;
    if (pevent_parse(p + ev->args.off, ev->args.len, &a) || a.name.len < 2)
        return;
    const char *q = p + ev->args.off + a.name.off;
    if (q[0] == '"')
        name_pid(s, ev->pid_v, q + 1, a.name.len - 2, 1);
}

static enum st_err json_elem(void *ctx, const char *p, size_t n)
{
    struct pscan *s = ctx;
    struct pevent ev;
    if (pevent_parse(p, n, &ev))
        return ST_OK;
    if (ev.phase == 'M') {
        json_meta(s, p, &ev);
        return ST_OK;
    }
    if (!ev.has_ts)
        return ST_OK;
    at_time(s, ev.ts_ns);
    if (ev.phase == 'X' && ev.has_dur)
        at_time(s, ev.ts_ns + ev.dur_ns);
    if (ev.has_pid) {
        fail_on(s, imap_add(&s->count, ev.pid_v, 1));
        if (ev.has_tid)
            fail_on(s, imap_put(&s->tgid, ev.tid_v, ev.pid_v));
    }
    /* unsigned: a pid may be negative in outside JSON */
    int64_t key = (int64_t)(((uint64_t)ev.pid_v << 32) ^ (uint64_t)ev.tid_v ^ ((uint64_t)1 << 62));
    const char *name = ev.name.len >= 2 ? p + ev.name.off + 1 : "";
    size_t nlen = ev.name.len >= 2 ? ev.name.len - 2 : 0;
    if (ev.phase == 'B' || ev.phase == 'X')
        slice_seen(s, key, ev.ts_ns, name, nlen);
    if (ev.phase == 'X' && s->found && !s->ended && s->slice_key == key &&
        s->slice_at == ev.ts_ns) {
        s->ended = 1;
        s->slice_end = ev.ts_ns + (ev.has_dur ? ev.dur_ns : 0);
    }
    if (ev.phase == 'B' || ev.phase == 'E')
        slice_depth(s, key, ev.ts_ns, ev.phase == 'B');
    return ST_OK;
}

static enum st_err nothing(void *ctx, const void *p, size_t n)
{
    (void)ctx, (void)p, (void)n;
    return ST_OK;
}

static enum st_err no_end(void *ctx)
{
    (void)ctx;
    return ST_OK;
}

void pscan_begin(void *ctx, const char *part)
{
    struct pscan *s = ctx;
    s->part = !strcmp(part, "systemTraceEvents")    ? P_TEXT
              : !strcmp(part, "androidProcessDump") ? P_DUMP
              : !strcmp(part, "traceEvents")        ? P_JSON
                                                    : P_OTHER;
    psdump_init(&s->ps);
    if (s->part == P_JSON) {
        struct pjson_cb cb = {nothing, s, json_elem, no_end, s};
        pjson_free(&s->js);
        pjson_init(&s->js, &cb);
    }
}

void pscan_write(void *ctx, const void *p, size_t n)
{
    struct pscan *s = ctx;
    if (s->part == P_TEXT)
        plines_feed(&s->lines, p, n, text_line, s);
    else if (s->part == P_DUMP)
        plines_feed(&s->lines, p, n, dump_line, s);
    else if (s->part == P_JSON)
        pjson_feed(&s->js, p, n);
}

void pscan_end(void *ctx)
{
    struct pscan *s = ctx;
    if (s->part == P_TEXT)
        plines_finish(&s->lines, text_line, s);
    else if (s->part == P_DUMP)
        plines_finish(&s->lines, dump_line, s);
    s->part = P_OTHER;
}

int pscan_span(const struct pscan *s, int64_t *first, int64_t *last)
{
    *first = s->first;
    *last = s->last;
    return s->any;
}

size_t pscan_size_bounds(const struct pscan *s, uint64_t size, int64_t *at, size_t max)
{
    size_t n = 0;
    uint64_t next = size;
    for (size_t i = 0; i < s->nsamples && n < max; i++)
        if (s->sample_bytes[i] >= next) {
            if (!n || s->sample_ts[i] > at[n - 1])
                at[n++] = s->sample_ts[i];
            next = (s->sample_bytes[i] / size + 1) * size;
        }
    return n;
}
