/* The cutter: trace-event JSON parts; see pcut.h. */
#include <stdio.h>
#include <string.h>

#include "pcut_int.h"

static enum st_err elem(void *ctx, const char *p, size_t n);
static enum st_err array_end(void *ctx);

static enum st_err pass(void *ctx, const void *p, size_t n)
{
    struct pcut *c = ctx;
    return n ? c->out(c->out_ctx, p, n) : ST_OK;
}

void pcutj_begin(struct pcut *c)
{
    struct pjson_cb cb = {pass, c, elem, array_end, c};
    pcutj_free(c);
    pjson_init(&c->js, &cb);
    pstack_init(&c->jopen, CUT_KEYS_MAX);
    imap_init(&c->jcross, CUT_KEYS_MAX);
    smap_init(&c->jcounters, CUT_COUNTERS_MAX);
    smap_init(&c->jasync, CUT_COUNTERS_MAX);
}

void pcutj_free(struct pcut *c)
{
    pjson_free(&c->js);
    pstack_free(&c->jopen);
    imap_free(&c->jcross);
    smap_free(&c->jcounters);
    smap_free(&c->jasync);
}

enum st_err pcutj_write(struct pcut *c, const void *p, size_t n)
{
    return pjson_feed(&c->js, p, n);
}

enum st_err pcutj_end(struct pcut *c)
{
    (void)c;
    return ST_OK;
}

static int64_t thread_key(const struct pevent *ev)
{
    return (int64_t)(((uint64_t)ev->pid_v << 32) ^ (uint64_t)ev->tid_v);   /* pids < 0 too */
}

struct repl {
    size_t off, len;
    char text[40];
};

/* The element with ts (and dur, when dur_ns >= 0) set, its name marked
 * as cut if asked: the spans rewritten in order. */
static enum st_err rewritten(struct pcut *c, const char *p, size_t n, const struct pevent *ev,
                             int64_t ts, int64_t dur_ns, int cut)
{
    struct repl r[3];
    int nr = 0;
    if (ev->ts.len) {
        r[nr].off = ev->ts.off;
        r[nr].len = ev->ts.len;
        pline_fmt_us(r[nr++].text, sizeof(r[0].text), ts);
    }
    if (dur_ns >= 0 && ev->dur.len) {
        r[nr].off = ev->dur.off;
        r[nr].len = ev->dur.len;
        pline_fmt_us(r[nr++].text, sizeof(r[0].text), dur_ns);
    }
    if (cut && ev->name.len >= 2 && p[ev->name.off] == '"') {
        r[nr].off = ev->name.off + ev->name.len - 1;    /* before the closing quote */
        r[nr].len = 0;
        snprintf(r[nr++].text, sizeof(r[0].text), "%s", CUT_SUFFIX);
    }
    for (int i = 0; i < nr; i++)        /* in order of offset */
        for (int j = i + 1; j < nr; j++)
            if (r[j].off < r[i].off) {
                struct repl t = r[i];
                r[i] = r[j];
                r[j] = t;
            }
    dynbuf_reset(&c->tmp);
    size_t at = 0;
    enum st_err e = ST_OK;
    for (int i = 0; i < nr && !e; i++) {
        e = dynbuf_add(&c->tmp, p + at, r[i].off - at);
        if (!e)
            e = dynbuf_addstr(&c->tmp, r[i].text);
        at = r[i].off + r[i].len;
    }
    if (!e)
        e = dynbuf_add(&c->tmp, p + at, n - at);
    return e ? e : pjson_emit(&c->js, c->tmp.data, c->tmp.len);
}

static enum st_err reopen(struct pcut *c, int64_t key)
{
    size_t at = 0, n;
    const char *r;
    enum st_err e = ST_OK;
    while (!e && (r = pstack_walk(&c->jopen, key, &at, &n))) {
        struct pevent ev;
        if (!pevent_parse(r, n, &ev))
            e = rewritten(c, r, n, &ev, c->w->lo, -1, 1);
    }
    return e;
}

static enum st_err close_at_hi(struct pcut *c, int64_t key)
{
    size_t n;
    const char *r;
    enum st_err e = ST_OK;
    char t[40], buf[200];
    pline_fmt_us(t, sizeof(t), c->w->hi);
    while (!e && (r = pstack_top(&c->jopen, key, &n))) {
        struct pevent ev;
        if (!pevent_parse(r, n, &ev)) {
            int k = snprintf(buf, sizeof(buf), "{\"ph\":\"E\",\"pid\":%lld,\"tid\":%lld,"
                             "\"ts\":%s}", (long long)ev.pid_v, (long long)ev.tid_v, t);
            e = pjson_emit(&c->js, buf, (size_t)k);
        }
        pstack_pop(&c->jopen, key);
    }
    return e;
}

/* A thread's first event at or after lo, or hi. */
static enum st_err crossings(struct pcut *c, const struct pevent *ev)
{
    int64_t key = thread_key(ev), f = 0;
    enum st_err e = ST_OK;
    imap_get(&c->jcross, key, &f);
    if (ev->ts_ns >= c->w->lo && !(f & 1)) {
        f |= 1;
        e = reopen(c, key);
    }
    if (!e && ev->ts_ns >= c->w->hi && !(f & 2)) {
        f |= 2;
        e = close_at_hi(c, key);
    }
    imap_put(&c->jcross, key, f);
    return e;
}

static size_t counter_key(char *k, size_t kn, const char *p, const struct pevent *ev)
{
    int w = snprintf(k, kn, "%lld|%.*s|%.*s", (long long)ev->pid_v, (int)ev->name.len,
                     p + ev->name.off, (int)ev->id.len, p + ev->id.off);
    return w > 0 && (size_t)w < kn ? (size_t)w : kn - 1;
}

/* A counter's value: before lo remembered; the first in the window
 * brings the remembered one along at lo. */
static enum st_err counter(struct pcut *c, const char *p, size_t n, const struct pevent *ev)
{
    char k[600];
    size_t kn = counter_key(k, sizeof(k), p, ev), vn;
    const char *v = smap_get(&c->jcounters, k, kn, &vn);
    if (ev->ts_ns < c->w->lo) {
        struct dynbuf b;
        dynbuf_init(&b, PJSON_ELEM_MAX);
        if (!dynbuf_addc(&b, 0) && !dynbuf_add(&b, p, n))
            smap_put(&c->jcounters, k, kn, b.data, b.len);
        dynbuf_free(&b);
        return ST_OK;
    }
    enum st_err e = ST_OK;
    if (v && !v[0]) {
        struct pevent last;
        struct dynbuf b;
        dynbuf_init(&b, PJSON_ELEM_MAX);
        e = dynbuf_add(&b, v + 1, vn - 1);
        smap_put(&c->jcounters, k, kn, "\1", 1);
        if (!e && !pevent_parse(b.data, b.len, &last))
            e = rewritten(c, b.data, b.len, &last, c->w->lo, -1, 0);
        dynbuf_free(&b);
    } else if (!v) {
        smap_put(&c->jcounters, k, kn, "\1", 1);
    }
    if (e || ev->ts_ns >= c->w->hi)
        return e;
    c->kept++;
    return pjson_emit(&c->js, p, n);
}

static enum st_err complete(struct pcut *c, const char *p, size_t n, const struct pevent *ev)
{
    int64_t end = ev->ts_ns + (ev->has_dur ? ev->dur_ns : 0);
    if (end < c->w->lo || ev->ts_ns >= c->w->hi)
        return ST_OK;
    c->kept++;
    int cut = ev->ts_ns < c->w->lo;
    int64_t ts = cut ? c->w->lo : ev->ts_ns;
    if (end > c->w->hi)
        end = c->w->hi;
    if (!cut && end == ev->ts_ns + (ev->has_dur ? ev->dur_ns : 0))
        return pjson_emit(&c->js, p, n);
    return rewritten(c, p, n, ev, ts, end - ts, cut);
}

static size_t async_key(char *k, size_t kn, const char *p, const struct pevent *ev)
{
    int w = snprintf(k, kn, "%lld|%.*s|%.*s|%.*s|%.*s", (long long)ev->pid_v,
                     (int)ev->cat.len, p + ev->cat.off, (int)ev->id.len, p + ev->id.off,
                     (int)ev->scope.len, p + ev->scope.off, (int)ev->name.len,
                     p + ev->name.off);
    return w > 0 && (size_t)w < kn ? (size_t)w : kn - 1;
}

/* Stores flag + element under k. */
static void async_put(struct pcut *c, const char *k, size_t kn, char flag, const char *p,
                      size_t n)
{
    struct dynbuf b;
    dynbuf_init(&b, PJSON_ELEM_MAX);
    if (!dynbuf_addc(&b, flag) && !dynbuf_add(&b, p, n))
        smap_put(&c->jasync, k, kn, b.data, b.len);
    dynbuf_free(&b);
}

/* The stored element of k again at time ts. */
static enum st_err async_again(struct pcut *c, const char *v, size_t vn, int64_t ts)
{
    struct pevent ev;
    struct dynbuf b;
    dynbuf_init(&b, PJSON_ELEM_MAX);
    enum st_err e = dynbuf_add(&b, v + 1, vn - 1);
    if (!e && !pevent_parse(b.data, b.len, &ev))
        e = rewritten(c, b.data, b.len, &ev, ts, -1, 0);
    dynbuf_free(&b);
    return e;
}

/* Nestable async slices (b/e, matched by their id, category and name):
 * one begun before lo and ended in the window begins again at lo; one
 * still open at hi ends there; an end without its begin is left out. */
static enum st_err async(struct pcut *c, const char *p, size_t n, const struct pevent *ev)
{
    char k[800];
    size_t kn = async_key(k, sizeof(k), p, ev), vn;
    const char *v = smap_get(&c->jasync, k, kn, &vn);
    enum st_err e = ST_OK;
    if (ev->phase == 'b') {
        if (ev->ts_ns < c->w->hi)
            async_put(c, k, kn, ev->ts_ns < c->w->lo ? 'p' : 'o', p, n);
        if (ev->ts_ns < c->w->lo || ev->ts_ns >= c->w->hi)
            return ST_OK;
    } else {
        if (!v || ev->ts_ns < c->w->lo) {
            if (v)
                smap_del(&c->jasync, k, kn);
            return ST_OK;
        }
        if (v[0] == 'p')
            e = async_again(c, v, vn, c->w->lo);
        if (!e && ev->ts_ns >= c->w->hi) {
            struct dynbuf b;
            struct pevent end;
            dynbuf_init(&b, PJSON_ELEM_MAX);
            e = dynbuf_add(&b, p, n);
            if (!e && !pevent_parse(b.data, b.len, &end))
                e = rewritten(c, b.data, b.len, &end, c->w->hi, -1, 0);
            dynbuf_free(&b);
            smap_del(&c->jasync, k, kn);
            return e;
        }
        smap_del(&c->jasync, k, kn);
        if (e)
            return e;
    }
    c->kept++;
    return pjson_emit(&c->js, p, n);
}

static enum st_err elem(void *ctx, const char *p, size_t n)
{
    struct pcut *c = ctx;
    struct pevent ev;
    if (pevent_parse(p, n, &ev) || ev.phase == 'M' || !ev.has_ts)
        return pjson_emit(&c->js, p, n);
    if (ev.has_pid && !c->w->all && !piece_keeps(c->w, ev.has_tid ? ev.tid_v : ev.pid_v,
                                                 ev.pid_v))
        return ST_OK;
    enum st_err e = crossings(c, &ev);
    if (e)
        return e;
    switch (ev.phase) {
    case 'B':
    case 'E':
        if (ev.ts_ns >= c->w->hi)
            return ST_OK;
        if (ev.phase == 'B')
            pstack_push(&c->jopen, thread_key(&ev), p, n);
        else
            pstack_pop(&c->jopen, thread_key(&ev));
        break;
    case 'X':
        return complete(c, p, n, &ev);
    case 'C':
        return counter(c, p, n, &ev);
    case 'b':
    case 'e':
        return async(c, p, n, &ev);
    default:
        break;
    }
    if (ev.ts_ns < c->w->lo || ev.ts_ns >= c->w->hi)
        return ST_OK;
    c->kept++;
    return pjson_emit(&c->js, p, n);
}

/* The array ends: slices open before lo on threads silent since, and
 * counters set before lo and never since, appear at lo. */
static enum st_err array_end(void *ctx)
{
    struct pcut *c = ctx;
    size_t i = 0, kn, vn;
    int64_t key, f;
    const char *k, *v;
    enum st_err e = ST_OK;
    while (!e && pstack_next(&c->jopen, &i, &key))
        if (!imap_get(&c->jcross, key, &f) || !(f & 1))
            e = reopen(c, key);
    i = 0;
    while (!e && smap_next(&c->jasync, &i, &k, &kn, &v, &vn))
        if (v[0] == 'p')
            e = async_again(c, v, vn, c->w->lo);
    i = 0;
    while (!e && smap_next(&c->jcounters, &i, &k, &kn, &v, &vn)) {
        struct pevent last;
        if (vn > 1 && !v[0] && !pevent_parse(v + 1, vn - 1, &last))
            e = rewritten(c, v + 1, vn - 1, &last, c->w->lo, -1, 0);
    }
    return e;
}
