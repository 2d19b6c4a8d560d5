/*
 * The cutter in one pass (pcut.h pcut_new_pieces): ftrace text, every
 * process, the window and the pieces found while the text streams by.
 *
 * The lines before the first event (the ftrace header) are kept and
 * begin every piece again, and so does the clock sync marker once seen.
 * The whole window is fixed at the first event; a piece begins at the
 * first event in it, is cut as pcut.c cuts a window (its start sets the
 * open slices, async slices and counters again, its end ends what is
 * open) and ends at its window's end: a duration, or the first event
 * after its text reached the size (a later time, so that events of one
 * time stay together).  A "CPU N buffer started" line after events is
 * the circular-buffer cut (repair.h): all before it is void, the owner
 * is told, and the count starts again at the next event.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/atrace/coverage.h"
#include "pcut_int.h"

#define HEAD_MAX (64 * 1024)    /* a longer header is not replayed */

unsigned pcut_pieces_begun(const struct pcut *c)
{
    return c->pieces;
}

int pcut_unordered(const struct pcut *c)
{
    return c->unordered;
}

/* Text out of time order (a method trace's threads) cannot be cut as it
 * streams: an event may belong to a piece already written.  The cut
 * stops; the caller cuts it again in two passes (pcut.c, unordered). */
static enum st_err out_of_order(struct pcut *c)
{
    c->unordered = 1;
    return ST_EUNSUPPORTED;
}

int pcut_span(const struct pcut *c, int64_t *first, int64_t *last, int64_t *lo, int64_t *hi)
{
    *first = c->seen ? c->first : 0;
    *last = c->seen ? c->last : 0;
    *lo = c->lo_all;
    *hi = c->hi_all;
    return c->seen;
}

/* The first event: the whole window in the trace's clock. */
static void whole_window(struct pcut *c, int64_t ts)
{
    const struct piece_spec *s = &c->spec;
    c->seen = 1;
    c->first = c->last = ts;
    c->head_base = c->head.len;
    c->lo_all = INT64_MIN;
    c->hi_all = INT64_MAX;
    if (s->range == PIECE_REL) {
        c->lo_all = piece_sat_add(ts, s->start_ns);
        c->hi_all = s->end_ns == INT64_MAX ? INT64_MAX : piece_sat_add(ts, s->end_ns);
    } else if (s->range == PIECE_TS) {
        c->lo_all = s->start_ns;
        c->hi_all = s->end_ns;
    }
    c->past = c->lo_all >= c->hi_all;   /* empty: nothing is written */
}

static enum st_err begin_piece(struct pcut *c, int64_t ts)
{
    const struct piece_spec *s = &c->spec;
    int64_t base = c->lo_all > c->first ? c->lo_all : c->first, lo = base;
    int64_t hi = c->hi_all;
    if (s->split_ns) {
        lo = base + (ts - base) / s->split_ns * s->split_ns;
        if (lo <= INT64_MAX - s->split_ns && lo + s->split_ns < hi)
            hi = lo + s->split_ns;
    } else if (s->split_bytes && c->pieces) {
        lo = ts;
    }
    st_write_fn out;
    void *ctx;
    enum st_err e = c->ops.open(c->ops.ctx, c->pieces, lo, &out, &ctx);
    if (e)
        return e;
    c->out = out;
    c->out_ctx = ctx;
    c->pw.lo = lo;
    c->pw.hi = hi;
    c->open = 1;
    c->pieces++;
    c->piece_bytes = c->piece_kept = 0;
    if (c->head.len)
        e = c->out(c->out_ctx, c->head.data, c->head.len);
    if (!e && c->sync.len)
        e = c->out(c->out_ctx, c->sync.data, c->sync.len);
    return e ? e : pcut_at_lo(c);
}

/* The piece ends; at its window's end (cut), what is open ends there. */
static enum st_err end_piece(struct pcut *c, int cut)
{
    enum st_err e = cut ? pcut_at_hi(c) : ST_OK, e2 = pcut_flush(c);
    int64_t hi = cut || c->pw.hi <= c->last ? c->pw.hi : c->last + 1;
    c->open = 0;
    if (!e)
        e = e2;
    e2 = c->ops.close(c->ops.ctx, c->pieces - 1, c->pw.lo, hi, c->piece_kept);
    return e ? e : e2;
}

/* A buffer-started line after events: what came before is void. */
static enum st_err restart(struct pcut *c, const char *p, size_t n)
{
    c->run_len = 0;
    c->open = c->seen = c->past = 0;
    c->pieces = 0;
    pstack_free(&c->open_slices);
    pstack_init(&c->open_slices, CUT_KEYS_MAX);
    smap_free(&c->counters);
    smap_free(&c->async);
    dynbuf_reset(&c->sync);
    c->head.len = c->head_base;
    if (c->head.len + n <= HEAD_MAX)
        dynbuf_add(&c->head, p, n);
    return c->ops.restart(c->ops.ctx);
}

static int cpu_marker(const char *p, size_t n)
{
    return n && p[0] == '#' && coverage_cpu_marker(p, n);
}

/* A line that is no event. */
static enum st_err other_line(struct pcut *c, const char *p, size_t n)
{
    if (c->seen && cpu_marker(p, n))
        return restart(c, p, n);
    if (!c->seen)
        return c->head.len + n <= HEAD_MAX ? dynbuf_add(&c->head, p, n) : ST_OK;
    return c->open ? pcut_put_line(c, p, n) : ST_OK;
}

/* An event line at ts (l: read in full; NULL: one that changes nothing
 * a piece carries over). */
static enum st_err event(struct pcut *c, const char *p, size_t n, int64_t ts,
                         const struct pline *l)
{
    enum st_err e = ST_OK;
    if (!c->seen)
        whole_window(c, ts);
    if (ts < c->last)
        return out_of_order(c);
    if (ts > c->last)
        c->last = ts;
    if (c->past)
        return ST_OK;
    if (ts >= c->hi_all) {
        c->past = 1;
        return c->open ? end_piece(c, 1) : ST_OK;
    }
    if (ts < c->lo_all) {
        if (l)
            pcut_track(c, p, n, l, 1);
        return ST_OK;
    }
    if (c->open && ts >= c->pw.hi) {
        if (c->spec.split_bytes && c->pw.hi < c->hi_all)
            c->pw.hi = ts;          /* the piece ends where the next begins */
        e = end_piece(c, 1);
    }
    if (!e && !c->open)
        e = begin_piece(c, ts);
    if (e)
        return e;
    if (l)
        pcut_track(c, p, n, l, 0);
    c->kept++;
    c->piece_kept++;
    c->piece_bytes += n;
    /* full: the next later event begins the next piece (a time out of
     * order cannot end it before it began) */
    int64_t next = ts >= c->pw.lo ? ts + 1 : c->pw.lo + 1;
    if (c->spec.split_bytes && c->piece_bytes >= c->spec.split_bytes && c->pw.hi > next)
        c->pw.hi = next;
    return pcut_put_line(c, p, n);
}

/* Most lines are sched events that change nothing a piece carries over
 * (marks and a CPU's counters do): their time is all that is needed. */
static int glance_only(const struct pline *l)
{
    const char *ev = l->event;
    return ev[0] != 't' && !(ev[0] == 'c' && l->event_len >= 4 && !memcmp(ev, "cpu_", 4));
}

static enum st_err stream_line(void *ctx, const char *p, size_t n, int whole)
{
    struct pcut *c = ctx;
    struct pline l;
    if (!whole)         /* too long to read: kept in a piece being written */
        return c->open ? pcut_put_line(c, p, n) : ST_OK;
    int rc;
    if (c->past) {      /* only a time before the window's end matters */
        if (cpu_marker(p, n))
            return restart(c, p, n);
        rc = pline_glance(p, n, &l) ? pline_parse(p, n, &l) : 0;
        if (!rc && l.ts_ns > c->last)
            c->last = l.ts_ns;      /* the trace's span, for a range refused */
        return !rc && l.ts_ns >= c->lo_all && l.ts_ns < c->hi_all ? out_of_order(c) : ST_OK;
    }
    if (c->seen && !pline_glance(p, n, &l)) {
        if (glance_only(&l))
            return event(c, p, n, l.ts_ns, NULL);
        rc = pline_parse_rest(p, n, &l);
    } else {
        rc = pline_parse(p, n, &l);
    }
    if (rc)
        return other_line(c, p, n);
    enum st_err e = event(c, p, n, l.ts_ns, &l);
    /* the clock sync begins the pieces after this one (this one has it) */
    if (pcut_clock_sync(&l) && !c->sync.len && n <= PLINE_MAX)
        dynbuf_add(&c->sync, p, n);
    return e;
}

/* The text ends inside the window: its open slices stay open, as in the
 * whole trace. */
static enum st_err stream_end(struct pcut *c)
{
    return c->open ? end_piece(c, 0) : ST_OK;
}

static void stream_free(struct pcut *c)
{
    dynbuf_free(&c->head);
    dynbuf_free(&c->sync);
}

struct pcut *pcut_new_pieces(const struct piece_spec *s, const struct pcut_pieces *ops)
{
    struct pcut *c = pcut_new(NULL, NULL, NULL);
    if (!c)
        return NULL;
    c->stream = 1;
    c->stream_line = stream_line;
    c->stream_end = stream_end;
    c->stream_free = stream_free;
    c->ops = *ops;
    c->spec = *s;
    c->w = &c->pw;
    c->pw.all = 1;
    dynbuf_init(&c->head, HEAD_MAX);
    dynbuf_init(&c->sync, PLINE_MAX);
    return c;
}
