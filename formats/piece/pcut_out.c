/*
 * What the cutter writes (pcut.c, pcut_order.c, pcut_stream.c): kept
 * lines handed on in runs, and the lines a window's edges make from stored
 * ones (open slices and async slices begun again at its start with their
 * time set there, ended at its end; counters' last values set again).
 */
#include <stdio.h>
#include <string.h>

#include "lib/numfmt.h"
#include "pcut_int.h"

/* Kept input lines next to each other in the caller's chunk go on as one
 * write (a write per line costs the writer more than the line). */
enum st_err pcut_flush(struct pcut *c)
{
    size_t n = c->run_len;
    c->run_len = 0;
    return n ? c->out(c->out_ctx, c->run, n) : ST_OK;
}

enum st_err pcut_put(struct pcut *c, const void *p, size_t n)
{
    enum st_err e = pcut_flush(c);
    return e || !n ? e : c->out(c->out_ctx, p, n);
}

enum st_err pcut_put_line(struct pcut *c, const char *p, size_t n)
{
    if (p < c->chunk_lo || p + n > c->chunk_hi)
        return pcut_put(c, p, n);    /* a line assembled across chunks */
    if (c->run_len && c->run + c->run_len == p) {
        c->run_len += n;
        return ST_OK;
    }
    enum st_err e = pcut_flush(c);
    c->run = p;
    c->run_len = n;
    return e;
}

/* ---- lines made from stored ones ------------------------------------ */

/* line with its time set to ts, up to `upto` (the line's end if 0),
 * without its line end; then tail and LF. */
enum st_err pcut_retimed(struct pcut *c, const char *p, size_t n, int64_t ts, size_t upto,
                         const char *tail)
{
    struct pline l;
    if (pline_parse(p, n, &l))
        return ST_OK;
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
        n--;
    if (upto && upto < n)
        n = upto;
    char t[32];
    size_t tn = pline_fmt_secs(t, sizeof(t), ts);
    dynbuf_reset(&c->tmp);
    enum st_err e = dynbuf_add(&c->tmp, p, l.ts_off);
    if (!e)
        e = dynbuf_add(&c->tmp, t, tn);
    if (!e)
        e = dynbuf_add(&c->tmp, p + l.ts_off + l.ts_len, n - l.ts_off - l.ts_len);
    if (!e)
        e = dynbuf_addstr(&c->tmp, tail);
    if (!e)
        e = dynbuf_addc(&c->tmp, '\n');
    return e ? e : pcut_put(c, c->tmp.data, c->tmp.len);
}

enum st_err pcut_reopen(struct pcut *c, int64_t key)
{
    size_t at = 0, n;
    const char *r;
    enum st_err e = ST_OK;
    while (!e && (r = pstack_walk(&c->open_slices, key, &at, &n)))
        e = pcut_retimed(c, r, n, c->w->lo, 0, CUT_SUFFIX);
    return e;
}

/* The window begins: what was open or set before it, again at lo. */
enum st_err pcut_at_lo(struct pcut *c)
{
    int64_t lo = c->w->lo, key;
    size_t i = 0, kn, vn;
    const char *k, *v;
    enum st_err e = ST_OK;
    if (c->w->unordered && !c->stream)
        return ST_OK;   /* each key and thread at its own time (pcut_order.c) */
    while (!e && smap_next(&c->counters, &i, &k, &kn, &v, &vn))
        e = pcut_retimed(c, v, vn, lo, 0, "");
    i = 0;
    while (!e && smap_next(&c->async, &i, &k, &kn, &v, &vn))
        e = pcut_retimed(c, v, vn, lo, 0, "");
    i = 0;
    while (!e && pstack_next(&c->open_slices, &i, &key))
        e = pcut_reopen(c, key);
    if (!c->stream)
        smap_free(&c->counters);    /* no longer needed: the window writes its own */
    return e;
}

/* An E line for the open slice r, at hi. */
static enum st_err end_line(struct pcut *c, const char *r, size_t n, int64_t hi)
{
    struct pline l;
    struct pmark m;
    char tail[64];
    if (pline_parse(r, n, &l) || pmark_parse(l.body, l.body_len, &m))
        return ST_OK;
    snprintf(tail, sizeof(tail), "E|%lld", (long long)m.pid);
    return pcut_retimed(c, r, n, hi, l.body_off, tail);
}

/* The window ends: what is open ends at hi (and in one pass stays open
 * for the next piece). */
enum st_err pcut_at_hi(struct pcut *c)
{
    int64_t hi = c->w->hi, key;
    size_t i = 0, kn, vn, n, at;
    const char *k, *v, *r;
    enum st_err e = ST_OK;
    while (!e && pstack_next(&c->open_slices, &i, &key)) {
        if (c->stream) {
            for (at = 0; !e && (r = pstack_walk(&c->open_slices, key, &at, &n));)
                e = end_line(c, r, n, hi);
            continue;
        }
        while (!e && (r = pstack_top(&c->open_slices, key, &n))) {
            e = end_line(c, r, n, hi);
            pstack_pop(&c->open_slices, key);
        }
    }
    i = 0;
    struct dynbuf f;
    dynbuf_init(&f, PLINE_MAX);
    while (!e && smap_next(&c->async, &i, &k, &kn, &v, &vn)) {
        struct pline l;
        if (pline_parse(v, vn, &l) || !l.body_len)
            continue;
        /* "F" and the rest of the S line's body: the same name and cookie */
        dynbuf_reset(&f);
        e = dynbuf_addc(&f, 'F');
        if (!e)
            e = dynbuf_add(&f, l.body + 1, l.body_len - 1);
        if (!e)
            e = pcut_retimed(c, v, vn, hi, l.body_off, f.data);
    }
    dynbuf_free(&f);
    if (!c->stream)
        smap_free(&c->async);
    return e;
}


/* "pid|name" or "pid|name|cookie", cut to kn - 1 bytes (without printf:
 * one per counter line). */
size_t pcut_mark_key(char *k, size_t kn, const struct pmark *m, int cookie)
{
    char num[NUMFMT_MAX];
    size_t nn = numfmt_i64(num, m->pid), w = nn < kn - 1 ? nn : kn - 1;
    memcpy(k, num, w);
    const char *parts[3] = {m->name, m->last, NULL};
    size_t lens[3] = {m->name_len, cookie ? m->last_len : 0, 0};
    for (int i = 0; i < 1 + !!cookie; i++) {
        if (w < kn - 1)
            k[w++] = '|';
        size_t t = lens[i] < kn - 1 - w ? lens[i] : kn - 1 - w;
        memcpy(k + w, parts[i], t);
        w += t;
    }
    k[w] = 0;
    return w;
}
