/*
 * The windowed sort; see pfsort.h.  Records live in blocks of the arena
 * (PFS_BLOCK bytes, allocated as needed up to the bound); a block is used
 * again once every record in it has been handed on, so nothing is ever
 * moved.  Records too big for a block get their own allocation, counted in
 * the same bound.  The index keeps the records not yet handed on, from
 * `start`: a sorted run (what a flush left) and the records pushed since,
 * which a flush merge-sorts and merges into the run's tail: only from
 * where the first of them goes (a buffer of the index's size; no
 * allocation per flush).  Records are handed on from the run's front by
 * moving `start`; the index moves down only when its end is reached.
 */
#include "pfsort.h"

#include <stdlib.h>
#include <string.h>

#define PFS_BLOCK ((size_t)64 << 10)

struct pfs_rec {
    int64_t ts;
    uint64_t seq;
    uint8_t *p;
    uint32_t len;
    int32_t blk;            /* -1: its own allocation */
};

struct pfs_blk {
    uint8_t *mem;
    size_t used;
    uint32_t live;
};

struct pfsort {
    struct pfs_blk *blk;
    size_t nblk, maxblk, bsize, cur;
    size_t bytes, max;      /* bytes held in blocks and big records */
    size_t big;             /* bytes of big records */
    struct pfs_rec *rec, *tmp;
    size_t start, nrec, nsorted, caprec, maxrec;   /* rec[start, start + nrec) */
    uint64_t seq, late;
    size_t step;            /* eager: hand on once half the bound + step are held */
    int64_t last;
    int emitted;
    pfsort_emit_fn emit;
    void *ctx;
};

struct pfsort *pfsort_new(size_t arena, size_t recs, pfsort_emit_fn emit, void *ctx)
{
    struct pfsort *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->max = arena ? arena : PFSORT_ARENA;
    s->maxrec = recs ? recs : PFSORT_RECS;
    s->bsize = s->max / 8 < PFS_BLOCK ? s->max / 8 : PFS_BLOCK;
    s->maxblk = s->max / s->bsize;
    s->blk = calloc(s->maxblk, sizeof(*s->blk));
    s->emit = emit;
    s->ctx = ctx;
    s->cur = SIZE_MAX;
    if (!s->blk) {
        free(s);
        return NULL;
    }
    return s;
}

void pfsort_free(struct pfsort *s)
{
    if (!s)
        return;
    for (size_t i = s->start; i < s->start + s->nrec; i++)
        if (s->rec[i].blk < 0)
            free(s->rec[i].p);
    for (size_t i = 0; i < s->nblk; i++)
        free(s->blk[i].mem);
    free(s->blk);
    free(s->rec);
    free(s->tmp);
    free(s);
}

static int before(const struct pfs_rec *x, const struct pfs_rec *y)
{
    return x->ts < y->ts || (x->ts == y->ts && x->seq < y->seq);
}

static void merge(const struct pfs_rec *a, size_t na, const struct pfs_rec *b, size_t nb,
                  struct pfs_rec *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = before(&b[j], &a[i]) ? b[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

/* Sorts a[0, n) using tmp[0, n). */
static void msort(struct pfs_rec *a, struct pfs_rec *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    msort(a, tmp, h);
    msort(a + h, tmp, n - h);
    if (!before(&a[h], &a[h - 1]))
        return;     /* already in order: common, a CPU at a time */
    memcpy(tmp, a, h * sizeof(*a));
    merge(tmp, h, a + h, n - h, a);
}

static void release(struct pfsort *s, const struct pfs_rec *r)
{
    s->bytes -= r->len;
    if (r->blk < 0) {
        s->big -= r->len;
        free(r->p);
        return;
    }
    struct pfs_blk *b = &s->blk[r->blk];
    if (!--b->live && (size_t)r->blk != s->cur)
        b->used = 0;
}

/* The first of a[0, n) that x goes before. */
static size_t upper(const struct pfs_rec *a, size_t n, const struct pfs_rec *x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(x, &a[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Sort, hand on records until at least `want` bytes went or only `keep`
 * records are left.  The new records are sorted, then merged with the
 * run's tail from where the first of them goes (Perfetto's bundles are
 * recent: the tail is short), so each flush costs what it hands on and
 * what came since, not the whole window (an eager sort flushes every
 * PF_SORT_STEP records). */
static enum st_err flush(struct pfsort *s, size_t want, size_t keep)
{
    struct pfs_rec *a = s->rec + s->start, *b = a + s->nsorted;
    size_t na = s->nsorted, nb = s->nrec - s->nsorted, done = 0, gone = 0;
    msort(b, s->tmp, nb);
    if (na && nb && before(&b[0], &a[na - 1])) {
        size_t p = upper(a, na, &b[0]);
        merge(a + p, na - p, b, nb, s->tmp);
        memcpy(a + p, s->tmp, (na - p + nb) * sizeof(*a));
    }
    s->nsorted = s->nrec;
    enum st_err e = ST_OK;
    while (done < s->nrec && !e && (gone < want || !done) && s->nrec - done > keep) {
        const struct pfs_rec *r = &a[done++];
        e = s->emit(s->ctx, r->ts, r->p, r->len);
        gone += r->len;
        s->last = r->ts;
        s->emitted = 1;
        release(s, r);
    }
    s->start += done;
    s->nrec -= done;
    s->nsorted -= done;
    if (!s->nrec)
        s->start = 0;
    return e;
}

/* The index's records to its front, for room at its end. */
static void compact(struct pfsort *s)
{
    if (!s->start)
        return;
    memmove(s->rec, s->rec + s->start, s->nrec * sizeof(*s->rec));
    s->start = 0;
}

static enum st_err grow_index(struct pfsort *s)
{
    compact(s);
    size_t cap = s->caprec ? s->caprec * 2 : 1024;
    if (cap > s->maxrec)
        cap = s->maxrec;
    struct pfs_rec *r = realloc(s->rec, cap * sizeof(*r));
    if (r)
        s->rec = r;
    struct pfs_rec *t = r ? realloc(s->tmp, cap * sizeof(*t)) : NULL;
    if (!t)
        return ST_ENOMEM;
    s->tmp = t;
    s->caprec = cap;
    return ST_OK;
}

/* A block with room for n bytes: the current one, an empty one, a new one;
 * else flush until one empties. */
static enum st_err room(struct pfsort *s, size_t n)
{
    for (;;) {
        if (s->cur != SIZE_MAX && s->blk[s->cur].used + n <= s->bsize)
            return ST_OK;
        if (s->cur != SIZE_MAX && !s->blk[s->cur].live)
            s->blk[s->cur].used = 0;
        for (size_t i = 0; i < s->nblk; i++)
            if (!s->blk[i].live && i != s->cur) {
                s->blk[i].used = 0;
                s->cur = i;
                return ST_OK;
            }
        if (s->nblk < s->maxblk && (s->nblk + 1) * s->bsize + s->big <= s->max) {
            if (!(s->blk[s->nblk].mem = malloc(s->bsize)))
                return ST_ENOMEM;
            s->cur = s->nblk++;
            return ST_OK;
        }
        enum st_err e = flush(s, s->bytes / 2, 0);
        if (e)
            return e;
    }
}

/* Would a big record (its own allocation) take blocks and big records
 * past the bound? */
static int over(const struct pfsort *s, size_t n)
{
    return n > s->bsize / 4 && s->nblk * s->bsize + s->big + n > s->max;
}

/* Frees the empty blocks at the end of the arena, for a big record once
 * flushing cannot free more: with every record handed on, blocks still
 * held the bound (they are kept for reuse), and the flush loop spun. */
static void shed(struct pfsort *s)
{
    while (s->nblk && !s->blk[s->nblk - 1].live) {
        s->nblk--;
        free(s->blk[s->nblk].mem);
        s->blk[s->nblk] = (struct pfs_blk){0};
        if (s->cur == s->nblk)
            s->cur = SIZE_MAX;
    }
}

void pfsort_set_eager(struct pfsort *s, size_t step)
{
    s->step = step < s->maxrec / 2 ? step : s->maxrec / 2;
}

enum st_err pfsort_push(struct pfsort *s, int64_t ts, const void *head, size_t hn,
                        const void *body, size_t bn)
{
    size_t n = hn + bn;
    if (n > s->max / 4)
        return ST_ETOOBIG;
    enum st_err e = ST_OK;
    if (s->start + s->nrec == s->caprec)
        compact(s);
    if (s->nrec == s->caprec && s->caprec < s->maxrec && (e = grow_index(s)))
        return e;
    /* blocks made so far plus big records stay within the bound: each
     * round hands on a record, or frees the blocks once none is left */
    if (over(s, n))
        shed(s);
    while (!e && (s->nrec == s->caprec || over(s, n))) {
        if (!s->nrec) {
            shed(s);    /* every block empty: all freed, n fits */
            break;
        }
        e = flush(s, s->bytes / 2, 0);
        shed(s);
    }
    if (!e && s->step && s->nrec >= s->maxrec / 2 + s->step)
        e = flush(s, SIZE_MAX, s->maxrec / 2);
    if (s->start + s->nrec == s->caprec)
        compact(s);     /* the flushes above moved start */
    struct pfs_rec r = {ts, s->seq++, NULL, (uint32_t)n, -1};
    if (!e && n > s->bsize / 4) {
        e = (r.p = malloc(n)) ? ST_OK : ST_ENOMEM;
        s->big += e ? 0 : n;
    }
    else if (!e && !(e = room(s, n))) {
        struct pfs_blk *b = &s->blk[s->cur];
        r.p = b->mem + b->used;
        r.blk = (int32_t)s->cur;
        b->used += n;
        b->live++;
    }
    if (e)
        return e;
    if (s->emitted && ts < s->last)
        s->late++;
    memcpy(r.p, head, hn);
    if (bn)
        memcpy(r.p + hn, body, bn);
    s->bytes += n;
    s->rec[s->start + s->nrec++] = r;
    return ST_OK;
}

enum st_err pfsort_finish(struct pfsort *s)
{
    return s->nrec ? flush(s, SIZE_MAX, 0) : ST_OK;
}

uint64_t pfsort_late(const struct pfsort *s)
{
    return s->late;
}
