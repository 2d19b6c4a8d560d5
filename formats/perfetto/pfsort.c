/* The windowed sort; see pfsort.h. */
#include "pfsort.h"

#include <stdlib.h>
#include <string.h>

struct pfs_rec {
    int64_t ts;
    uint64_t seq;
    uint32_t off, len;
};

struct pfsort {
    uint8_t *arena;
    size_t used, cap;
    struct pfs_rec *rec;
    size_t nrec, maxrec;
    uint64_t seq, late;
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
    s->cap = arena ? arena : PFSORT_ARENA;
    s->maxrec = recs ? recs : PFSORT_RECS;
    s->arena = malloc(s->cap);
    s->rec = malloc(s->maxrec * sizeof(*s->rec));
    s->emit = emit;
    s->ctx = ctx;
    if (!s->arena || !s->rec) {
        pfsort_free(s);
        return NULL;
    }
    return s;
}

void pfsort_free(struct pfsort *s)
{
    if (!s)
        return;
    free(s->arena);
    free(s->rec);
    free(s);
}

static int cmp(const void *a, const void *b)
{
    const struct pfs_rec *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_off(const void *a, const void *b)
{
    const struct pfs_rec *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Sort, hand on records until at least `want` bytes went, keep the rest
 * (slid to the front of the arena, in place: by offset, each moves left). */
static enum st_err flush(struct pfsort *s, size_t want)
{
    qsort(s->rec, s->nrec, sizeof(*s->rec), cmp);
    size_t i = 0, gone = 0;
    for (; i < s->nrec && (gone < want || i == 0); i++) {
        struct pfs_rec *r = &s->rec[i];
        enum st_err e = s->emit(s->ctx, r->ts, s->arena + r->off, r->len);
        if (e)
            return e;
        gone += r->len;
        s->last = r->ts;
        s->emitted = 1;
    }
    memmove(s->rec, s->rec + i, (s->nrec - i) * sizeof(*s->rec));
    s->nrec -= i;
    qsort(s->rec, s->nrec, sizeof(*s->rec), by_off);
    size_t used = 0;
    for (size_t k = 0; k < s->nrec; k++) {
        struct pfs_rec *r = &s->rec[k];
        memmove(s->arena + used, s->arena + r->off, r->len);
        r->off = (uint32_t)used;
        used += r->len;
    }
    s->used = used;
    return ST_OK;
}

enum st_err pfsort_push(struct pfsort *s, int64_t ts, const void *head, size_t hn,
                        const void *body, size_t bn)
{
    size_t n = hn + bn;
    if (n > s->cap / 4)
        return ST_ETOOBIG;
    while (s->used + n > s->cap || s->nrec == s->maxrec) {
        enum st_err e = flush(s, s->used / 2);
        if (e)
            return e;
    }
    if (s->emitted && ts < s->last)
        s->late++;
    memcpy(s->arena + s->used, head, hn);
    if (bn)
        memcpy(s->arena + s->used + hn, body, bn);
    s->rec[s->nrec++] = (struct pfs_rec){ts, s->seq++, (uint32_t)s->used, (uint32_t)n};
    s->used += n;
    return ST_OK;
}

enum st_err pfsort_finish(struct pfsort *s)
{
    return s->nrec ? flush(s, SIZE_MAX) : ST_OK;
}

uint64_t pfsort_late(const struct pfsort *s)
{
    return s->late;
}
