/*
 * The cutter (pcut.c) on ftrace text out of time order across threads
 * (piece_window.unordered, found by the first pass): each thread's lines
 * come in its own time order, not in each other's, as a method trace's
 * threads do.  Cut as sorted text is, a thread's lines that come after
 * another's first line past the window's end were lost, and what was open
 * at its start was set from lines that had not all come yet.
 *
 * So the window begins and ends for each thread, counter and async slice
 * on its own: a thread's slices begin again at lo when its first line in
 * the window comes (its lines before lo, however late, counted first); an
 * async slice begun before lo is set at lo when it first shows in the
 * window, or at the text's end; a counter's latest value before lo (by
 * time, not by when it came) is set at lo at the text's end; lines after
 * hi are left out, and what is open ends at hi once the text has ended.  (A page's next ftrace block would continue
 * the text: out of order and in blocks, each block is cut as a whole.)
 */
#include "pcut_int.h"

#include <string.h>

enum st_err pcut_order_thread(struct pcut *c, int64_t tid)
{
    int64_t f;
    if (imap_get(&c->cross, tid, &f))
        return ST_OK;
    enum st_err e = imap_put(&c->cross, tid, 1);
    return e ? e : pcut_reopen(c, tid);
}

/* A counter's value before lo: the latest, whichever came last. */
static enum st_err counter(struct pcut *c, const char *p, size_t n, const char *k, size_t kn,
                           int64_t ts)
{
    size_t vn;
    struct pline had;
    const char *v = smap_get(&c->counters, k, kn, &vn);
    if (v && !pline_parse(v, vn, &had) && had.ts_ns > ts)
        return ST_OK;
    return smap_put(&c->counters, k, kn, p, n);
}

/* What m holds at key k, set at lo (and then no longer held). */
static enum st_err at_lo(struct pcut *c, struct smap *m, const char *k, size_t kn)
{
    size_t vn;
    const char *v = smap_get(m, k, kn, &vn);
    enum st_err e = v ? pcut_retimed(c, v, vn, c->w->lo, 0, "") : ST_OK;
    if (v)
        smap_del(m, k, kn);
    return e;
}

/* A mark of a kept thread before hi, ahead of pcut.c's own tracking. */
enum st_err pcut_order_mark(struct pcut *c, const char *p, size_t n, const struct pline *l)
{
    struct pmark m;
    char k[600];
    if (!pline_is(l, "tracing_mark_write") || pmark_parse(l->body, l->body_len, &m))
        return ST_OK;
    int before = l->ts_ns < c->w->lo;
    if (m.kind == 'C' && before)
        return counter(c, p, n, k, pcut_mark_key(k, sizeof(k), &m, 0), l->ts_ns);
    if (m.kind != 'S' && m.kind != 'F')
        return ST_OK;
    size_t kn = pcut_mark_key(k, sizeof(k), &m, 1);
    if (m.kind == 'S')
        return before ? smap_put(&c->async_lo, k, kn, p, n) : ST_OK;
    if (before) {
        smap_del(&c->async_lo, k, kn);
        return ST_OK;
    }
    return at_lo(c, &c->async_lo, k, kn);     /* it began before lo */
}

enum st_err pcut_order_end(struct pcut *c)
{
    int64_t key, f;
    size_t i = 0, kn, vn;
    const char *k, *v;
    enum st_err e = ST_OK;
    if (!c->crossed_lo)
        return ST_OK;       /* the window begins after the text */
    while (!e && pstack_next(&c->open_slices, &i, &key))
        if (!imap_get(&c->cross, key, &f))
            e = pcut_reopen(c, key);    /* threads silent since before lo */
    i = 0;
    while (!e && smap_next(&c->counters, &i, &k, &kn, &v, &vn))
        e = pcut_retimed(c, v, vn, c->w->lo, 0, "");
    i = 0;
    while (!e && smap_next(&c->async_lo, &i, &k, &kn, &v, &vn))
        e = pcut_retimed(c, v, vn, c->w->lo, 0, "");
    smap_free(&c->counters);
    smap_free(&c->async_lo);
    return !e && c->crossed_hi ? pcut_at_hi(c) : e;
}
