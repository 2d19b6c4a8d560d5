/* The cutter: parts and ftrace text; see pcut.h. */
#include "pcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "lib/plat.h"
#include "pcut_int.h"

struct pcut *pcut_new(const struct piece_window *w, st_write_fn out, void *out_ctx)
{
    struct pcut *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->w = w;
    c->out = out;
    c->out_ctx = out_ctx;
    dynbuf_init(&c->tmp, PLINE_MAX + PJSON_ELEM_MAX);
    plines_init(&c->lines);
    pstack_init(&c->open_slices, CUT_KEYS_MAX);
    smap_init(&c->counters, CUT_COUNTERS_MAX);
    smap_init(&c->async, CUT_COUNTERS_MAX);
    imap_init(&c->cross, CUT_KEYS_MAX);
    smap_init(&c->async_lo, CUT_COUNTERS_MAX);
    pcutj_begin(c);
    return c;
}

void pcut_free(struct pcut *c)
{
    if (!c)
        return;
    dynbuf_free(&c->tmp);
    plines_free(&c->lines);
    pstack_free(&c->open_slices);
    smap_free(&c->counters);
    smap_free(&c->async);
    imap_free(&c->cross);
    smap_free(&c->async_lo);
    pcutj_free(c);
    if (c->stream)
        c->stream_free(c);
    free(c);
}

uint64_t pcut_kept(const struct pcut *c)
{
    return c->kept;
}

/* ---- the "other" thread --------------------------------------------- */

#define OTHER "other"

static int64_t num(const char *p, size_t n)
{
    int64_t v = 0;
    size_t i = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9' && i < 18)
        v = v * 10 + (p[i++] - '0');
    return i ? v : -1;
}

static const char *find(const char *p, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(p + i, s, k))
            return p + i;
    return NULL;
}

/* The line as the thread "other" logged it, with body as its body, in
 * c->tmp. */
static enum st_err build_other(struct pcut *c, const char *p, const struct pline *l,
                               const char *body, size_t bn)
{
    char who[64];
    int wn = snprintf(who, sizeof(who), "%16s-%d %s", OTHER, PIECE_OTHER_PID,
                      l->tgid_col ? "(" : "");
    dynbuf_reset(&c->tmp);
    enum st_err e = dynbuf_add(&c->tmp, who, (size_t)wn);
    if (!e && l->tgid_col)
        e = dynbuf_printf(&c->tmp, "%d) ", PIECE_OTHER_PID);
    if (!e)
        e = dynbuf_add(&c->tmp, p + l->cpu_off, l->body_off - l->cpu_off);
    if (!e)
        e = dynbuf_add(&c->tmp, body, bn);
    return e ? e : dynbuf_addc(&c->tmp, '\n');
}

static enum st_err as_other(struct pcut *c, const char *p, const struct pline *l,
                            const char *body, size_t bn)
{
    enum st_err e = build_other(c, p, l, body, bn);
    return e ? e : pcut_put(c, c->tmp.data, c->tmp.len);
}

static int keeps(const struct pcut *c, int64_t tid)
{
    return tid == 0 || piece_keeps(c->w, tid, -1);
}

/* sched_switch with one side (or none) kept: the other side as "other". */
static enum st_err switch_line(struct pcut *c, const char *p, size_t n,
                               const struct pline *l)
{
    const char *b = l->body, *end = b + l->body_len;
    const char *pp = find(b, l->body_len, " prev_pid="), *pr = find(b, l->body_len,
                                                                        " prev_prio=");
    const char *ar = find(b, l->body_len, " ==> "), *np = find(b, l->body_len, " next_pid=");
    const char *nr = find(b, l->body_len, " next_prio=");
    if (!pp || !pr || !ar || !np || !nr || !(pp < pr && pr < ar && ar < np && np < nr))
        return keeps(c, l->tid) ? (c->kept++, pcut_put(c, p, n)) : ST_OK;
    int keep_prev = keeps(c, num(pp + 10, (size_t)(end - pp - 10)));
    int keep_next = keeps(c, num(np + 10, (size_t)(end - np - 10)));
    if (!keep_prev && !keep_next)
        return ST_OK;
    c->kept++;
    if (keep_prev && keep_next && keeps(c, l->tid))
        return pcut_put(c, p, n);
    struct dynbuf body;
    dynbuf_init(&body, PLINE_MAX);
    char o[64];
    int on = snprintf(o, sizeof(o), "prev_comm=%s prev_pid=%d", OTHER, PIECE_OTHER_PID);
    enum st_err e = keep_prev ? dynbuf_add(&body, b, (size_t)(pr - b))
                              : dynbuf_add(&body, o, (size_t)on);
    if (!e)
        e = dynbuf_add(&body, pr, (size_t)(ar + 5 - pr));
    on = snprintf(o, sizeof(o), "next_comm=%s next_pid=%d", OTHER, PIECE_OTHER_PID);
    if (!e)
        e = keep_next ? dynbuf_add(&body, ar + 5, (size_t)(nr - ar - 5))
                      : dynbuf_add(&body, o, (size_t)on);
    if (!e)
        e = dynbuf_add(&body, nr, (size_t)(end - nr));
    if (!e && keeps(c, l->tid)) {
        dynbuf_reset(&c->tmp);
        e = dynbuf_add(&c->tmp, p, l->body_off);
        if (!e)
            e = dynbuf_add(&c->tmp, body.data, body.len);
        if (!e)
            e = dynbuf_addc(&c->tmp, '\n');
        if (!e)
            e = pcut_put(c, c->tmp.data, c->tmp.len);
    } else if (!e) {
        e = as_other(c, p, l, body.data, body.len);
    }
    dynbuf_free(&body);
    return e;
}

static int cpu_wide(const struct pline *l)
{
    static const char *const pre[] = {"cpu_", "clock_", "irq_", "softirq_", "ipi_",
                                      "suspend_resume", NULL};
    for (int i = 0; pre[i]; i++)
        if (l->event_len >= strlen(pre[i]) && !memcmp(l->event, pre[i], strlen(pre[i])))
            return 1;
    return 0;
}

static int waking(const struct pline *l)
{
    return pline_is(l, "sched_waking") || pline_is(l, "sched_wakeup") ||
           pline_is(l, "sched_wakeup_new");
}

/* Wakes a thread kept ("comm=NAME pid=N ...")? */
static int wakes_kept(const struct pcut *c, const struct pline *l)
{
    const char *pid = find(l->body, l->body_len, " pid=");
    return pid && keeps(c, num(pid + 5, (size_t)(l->body + l->body_len - pid - 5)));
}

/* An event line of a process not kept (--process). */
static enum st_err other_line(struct pcut *c, const char *p, size_t n, const struct pline *l)
{
    if (waking(l)) {
        if (!wakes_kept(c, l))
            return ST_OK;
        c->kept++;
        return as_other(c, p, l, l->body, l->body_len);
    }
    (void)n;
    if (!cpu_wide(l))
        return ST_OK;
    c->kept++;
    return as_other(c, p, l, l->body, l->body_len);
}

/* ---- atrace marks: what is open before and within the window -------- */

static void track_mark(struct pcut *c, const char *p, size_t n, const struct pline *l,
                       int before)
{
    struct pmark m;
    char k[600];
    if (!pline_is(l, "tracing_mark_write") || pmark_parse(l->body, l->body_len, &m))
        return;
    switch (m.kind) {
    case 'B':
        pstack_push(&c->open_slices, l->tid, p, n);    /* full: the slice is not cut */
        break;
    case 'E':
        pstack_pop(&c->open_slices, l->tid);
        break;
    case 'C':       /* out of order: pcut_order_mark keeps the latest */
        if ((before && !c->w->unordered) || c->stream)
            smap_put(&c->counters, k, pcut_mark_key(k, sizeof(k), &m, 0), p, n);
        break;
    case 'S':
        smap_put(&c->async, k, pcut_mark_key(k, sizeof(k), &m, 1), p, n);
        break;
    case 'F':
        smap_del(&c->async, k, pcut_mark_key(k, sizeof(k), &m, 1));
        break;
    }
}

/* A CPU's counters (frequency, idle state) before the window: the last
 * value is set again at its start, as the atrace counters. */
static int cpu_counter(struct pcut *c, const char *p, size_t n, const struct pline *l)
{
    if (!pline_is(l, "cpu_frequency") && !pline_is(l, "cpu_idle"))
        return 0;
    const char *id = find(l->body, l->body_len, "cpu_id=");
    char k[64];
    int kn = snprintf(k, sizeof(k), "%.*s|%lld", (int)l->event_len, l->event,
                      id ? (long long)num(id + 7, (size_t)(l->body + l->body_len - id - 7))
                         : -1LL);
    if (kn <= 0 || (size_t)kn >= sizeof(k))
        return 1;
    if (l->tid && !piece_keeps(c->w, l->tid, l->tgid)) {
        if (!build_other(c, p, l, l->body, l->body_len))
            smap_put(&c->counters, k, (size_t)kn, c->tmp.data, c->tmp.len);
        return 1;
    }
    smap_put(&c->counters, k, (size_t)kn, p, n);
    return 1;
}

/* One pass: what a line changes of the state the next piece begins with
 * (open slices, async slices, counters, a CPU's counters). */
void pcut_track(struct pcut *c, const char *p, size_t n, const struct pline *l, int before)
{
    if (l->event_len == sizeof("tracing_mark_write") - 1)
        track_mark(c, p, n, l, before);
    else if (l->event_len >= 8 && l->event[0] == 'c' && l->event[3] == '_')
        cpu_counter(c, p, n, l);
}

int pcut_clock_sync(const struct pline *l)
{
    static const char marker[] = "trace_event_clock_sync";
    return pline_is(l, "tracing_mark_write") && l->body_len >= sizeof(marker) - 1 &&
           !memcmp(l->body, marker, sizeof(marker) - 1);
}

static enum st_err event_line(struct pcut *c, const char *p, size_t n, const struct pline *l)
{
    enum st_err e = ST_OK;
    if (pcut_clock_sync(l))
        return pcut_put_line(c, p, n);
    if (l->ts_ns >= c->w->lo && !c->crossed_lo) {
        c->crossed_lo = 1;
        if ((e = pcut_at_lo(c)))
            return e;
    }
    if (l->ts_ns >= c->w->hi) {
        if (!c->crossed_hi) {
            c->crossed_hi = 1;
            if (!c->w->unordered)
                e = pcut_at_hi(c);
        }
        return e;
    }
    if (c->w->unordered && l->ts_ns >= c->w->lo && (e = pcut_order_thread(c, l->tid)))
        return e;
    if (l->ts_ns < c->w->lo && cpu_counter(c, p, n, l))
        return ST_OK;
    if (!piece_keeps(c->w, l->tid, l->tgid) && l->tid) {
        if (pline_is(l, "sched_switch"))
            return l->ts_ns >= c->w->lo ? switch_line(c, p, n, l) : ST_OK;
        return l->ts_ns >= c->w->lo ? other_line(c, p, n, l) : ST_OK;
    }
    if (c->w->unordered && (e = pcut_order_mark(c, p, n, l)))
        return e;
    track_mark(c, p, n, l, l->ts_ns < c->w->lo);
    if (l->ts_ns < c->w->lo)
        return ST_OK;
    if (!c->w->all && pline_is(l, "sched_switch"))
        return switch_line(c, p, n, l);
    if (!c->w->all && waking(l) && !wakes_kept(c, l))
        return ST_OK;
    c->kept++;
    return pcut_put_line(c, p, n);
}

/* After the window only comments, noise and the clock sync stay: a line
 * that may be one of those is read in full. */
static int past_hi_kept(const char *p, size_t n)
{
    static const char sync[] = "trace_event_clock_sync";
    size_t i = 0;
    while (i < n && p[i] == ' ')
        i++;
    if (i == n || p[i] == '#' || !memchr(p + i, '[', n - i))
        return 1;
    return memmem(p, n, sync, sizeof(sync) - 1) != NULL;
}

static enum st_err text_line(void *ctx, const char *p, size_t n, int whole)
{
    struct pcut *c = ctx;
    struct pline l;
    if (c->stream)
        return c->stream_line(c, p, n, whole);
    if (!whole)     /* too long to read: kept while inside the window */
        return c->crossed_lo && !c->crossed_hi ? pcut_put_line(c, p, n) : ST_OK;
    if (c->crossed_hi && !c->w->unordered && !past_hi_kept(p, n))
        return ST_OK;   /* after the window: no need to read it (a split's pieces) */
    if (pline_parse(p, n, &l))
        return pcut_put_line(c, p, n);  /* headers, comments, noise */
    return event_line(c, p, n, &l);
}

/* ---- parts ---------------------------------------------------------- */

int pcut_begin(void *ctx, const char *part)
{
    struct pcut *c = ctx;
    if (c->stream && strcmp(part, "systemTraceEvents")) {
        c->part = C_PASS;
        return 1;               /* nothing else is written (pcut_write) */
    }
    if (!strcmp(part, "systemTraceEvents")) {
        /* the state goes on: a text part joined to the one before (a
         * page's blocks) continues its trace */
        c->part = C_TEXT;
        return 1;
    }
    if (!strcmp(part, "traceEvents")) {
        c->part = C_JSON;
        pcutj_begin(c);
        return 1;
    }
    c->part = C_PASS;
    return 0;
}

enum st_err pcut_write(void *ctx, const void *p, size_t n)
{
    struct pcut *c = ctx;
    if (c->part == C_TEXT) {
        c->chunk_lo = p;
        c->chunk_hi = (const char *)p + n;
        enum st_err e = plines_feed(&c->lines, p, n, text_line, c), e2 = pcut_flush(c);
        c->chunk_lo = c->chunk_hi = NULL;
        return e ? e : e2;
    }
    if (c->part == C_JSON)
        return pcutj_write(c, p, n);
    if (c->stream)
        return ST_OK;           /* one pass reads ftrace text only */
    return pcut_put(c, p, n);
}

enum st_err pcut_end(void *ctx)
{
    struct pcut *c = ctx;
    enum st_err e = ST_OK;
    if (c->part == C_TEXT) {
        /* text ending inside the window leaves its open slices open, as
         * the whole trace does */
        e = plines_finish(&c->lines, text_line, c);
        enum st_err e2 = pcut_flush(c);
        if (!e)
            e = e2;
        if (!e && c->w->unordered && !c->stream)
            e = pcut_order_end(c);
        if (!e && c->stream)
            e = c->stream_end(c);
    } else if (c->part == C_JSON) {
        e = pcutj_end(c);
    }
    c->part = C_PASS;
    return e;
}
