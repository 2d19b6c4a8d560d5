/*
 * Slices by name and frame-duration percentiles for the trace summary
 * (summary.h), what `systrace compare` needs besides CPU time and frame
 * counts.  A thread's open atrace slices are kept on a small stack (its
 * depth mirrors the summary's nesting count, so an end closes the slice
 * Perfetto would close); an ended slice adds its duration to its name's
 * entry.  Frame durations go into a histogram per thread and kind (0.1 ms
 * bins up to 200 ms), merged per process at the end.  A name's trailing
 * " NUMBER" is dropped, so per-frame ids do not make a name each.  Everything is
 * allocated only for threads that have slices or frames, and bounded
 * (summary_int.h: SUM_STACK_DEPTH, SUM_SLICES_MAX, SUM_FBINS).
 */
#include <stdlib.h>
#include <string.h>

#include "summary_int.h"

static uint32_t name_hash(const char *p, size_t n)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

/* the entry of name (cut to SUM_SLICE_NAME - 1), added when new; index + 1,
 * 0 when the table is full or memory ran out */
static uint32_t slice_id(struct summary *s, const char *p, size_t n)
{
    /* "Choreographer#doFrame 123456": a trailing number (a vsync or frame
     * id) names one slice, not a kind of them */
    size_t cut = n;
    while (cut && p[cut - 1] >= '0' && p[cut - 1] <= '9')
        cut--;
    if (cut < n && cut > 1 && p[cut - 1] == ' ')
        n = cut - 1;
    if (n >= SUM_SLICE_NAME)
        n = SUM_SLICE_NAME - 1;
    if (!s->sl && !(s->sl = calloc(1, sizeof(*s->sl))))
        return 0;
    struct sum_slicetab *tb = s->sl;
    uint32_t mask = SUM_SLICES_MAX * 2 - 1, k = name_hash(p, n) & mask;
    for (; tb->hash[k]; k = (k + 1) & mask) {
        const struct sum_slice *e = &tb->v[tb->hash[k] - 1];
        if (!strncmp(e->name, p, n) && !e->name[n])
            return tb->hash[k];
    }
    if (tb->n == SUM_SLICES_MAX)
        return 0;
    if (tb->n == tb->cap) {
        uint32_t cap = tb->cap ? tb->cap * 2 : 64;
        struct sum_slice *v = realloc(tb->v, cap * sizeof(*v));
        if (!v)
            return 0;
        tb->v = v;
        tb->cap = cap;
    }
    struct sum_slice *e = &tb->v[tb->n];
    memset(e, 0, sizeof(*e));
    memcpy(e->name, p, n);     /* n < SUM_SLICE_NAME; the JSON escapes it */
    e->name[n] = '\0';
    tb->hash[k] = ++tb->n;
    return tb->n;
}

void sum_slice_push(struct summary *s, struct sum_thread *t, const char *name, size_t n,
                    uint64_t ts)
{
    if (t->depth >= SUM_STACK_DEPTH)
        return;
    if (!t->stk && !(t->stk = calloc(1, sizeof(*t->stk)))) {
        s->t.dropped++;
        return;
    }
    uint32_t id = slice_id(s, name, n);
    if (!id)
        s->t.dropped++;
    t->stk->name[t->depth] = id;
    t->stk->ts[t->depth] = ts;
}

void sum_slice_pop(struct summary *s, struct sum_thread *t, uint64_t ts)
{
    if (t->depth >= SUM_STACK_DEPTH || !t->stk || !t->stk->name[t->depth])
        return;
    struct sum_slice *e = &s->sl->v[t->stk->name[t->depth] - 1];
    uint64_t begun = t->stk->ts[t->depth], dur = ts >= begun ? ts - begun : 0;
    t->stk->name[t->depth] = 0;
    e->count++;
    e->total_ns += dur;
    if (dur > e->max_ns)
        e->max_ns = dur;
}

void sum_frame_dur(struct summary *s, struct sum_thread *t, int kind, uint64_t dur)
{
    if (!t->fh[kind] && !(t->fh[kind] = calloc(SUM_FBINS, sizeof(uint32_t)))) {
        s->t.dropped++;
        return;
    }
    uint64_t bin = dur / SUM_FBIN_NS;
    t->fh[kind][bin < SUM_FBINS ? bin : SUM_FBINS - 1]++;
}

/* the bin holding the q-th quantile (nearest rank), as its middle */
static uint64_t quantile(const uint64_t *h, uint64_t total, double q, uint64_t worst)
{
    uint64_t rank = (uint64_t)(q * (double)total + 0.999999), seen = 0;
    if (!rank)
        rank = 1;
    for (unsigned i = 0; i < SUM_FBINS; i++) {
        seen += h[i];
        if (seen >= rank)
            return i + 1 < SUM_FBINS ? i * SUM_FBIN_NS + SUM_FBIN_NS / 2 : worst;
    }
    return worst;
}

void sum_frame_pcts(const struct summary *s, int64_t pid, int kind, struct summary_frames *f)
{
    uint64_t h[SUM_FBINS] = {0}, total = 0;
    for (uint32_t i = 0; i < s->nth; i++) {
        const struct sum_thread *t = &s->th[i];
        int64_t tp = t->tgid > 0 ? t->tgid : (int64_t)t->tid;
        if (tp != pid || !t->fh[kind])
            continue;
        for (unsigned b = 0; b < SUM_FBINS; b++) {
            h[b] += t->fh[kind][b];
            total += t->fh[kind][b];
        }
    }
    if (!total)
        return;
    f->p50_ns = quantile(h, total, 0.50, f->worst_ns);
    f->p90_ns = quantile(h, total, 0.90, f->worst_ns);
    f->p99_ns = quantile(h, total, 0.99, f->worst_ns);
}

static int by_total(const void *a, const void *b)
{
    const struct summary_slice *x = a, *y = b;
    if (x->total_ns != y->total_ns)
        return x->total_ns < y->total_ns ? 1 : -1;
    return strcmp(x->name, y->name);
}

enum st_err sum_collect_slices(struct summary *s)
{
    uint32_t n = s->sl ? s->sl->n : 0;
    struct summary_slice *v = calloc(n ? n : 1, sizeof(*v));
    if (!v)
        return ST_ENOMEM;
    size_t o = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct sum_slice *e = &s->sl->v[i];
        if (e->count)
            v[o++] = (struct summary_slice){e->name, e->count, e->total_ns, e->max_ns};
    }
    qsort(v, o, sizeof(*v), by_total);
    s->slices = v;
    s->nslices = o;
    return ST_OK;
}

void sum_slices_reset(struct summary *s)
{
    for (uint32_t i = 0; s->th && i < s->nth; i++) {
        struct sum_thread *t = &s->th[i];
        free(t->stk);
        t->stk = NULL;
        for (int k = 0; k < FK_COUNT; k++) {
            free(t->fh[k]);
            t->fh[k] = NULL;
        }
    }
    if (s->sl)
        free(s->sl->v);
    free(s->sl);
    s->sl = NULL;
}

const struct summary_slice *summary_slices(const struct summary *s, size_t *n)
{
    *n = s->nslices;
    return s->slices;
}
