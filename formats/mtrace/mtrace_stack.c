/*
 * Per-thread call stacks of a method trace and its 32-bit clocks.
 *
 * Record times are unsigned 32-bit µs that wrap after 71.6 minutes.  Each
 * value is unwrapped to the 64-bit time closest to a reference: for a
 * thread-CPU column the thread's previous time (each thread has its own
 * base), for a wall column the previous wall time in the file (threads
 * share it, and a thread's first record may come after a wrap).  Times
 * are then kept monotonic per thread, so every slice has end >= start.
 * Without wraps or backward steps the values equal the raw ones, which is
 * what keeps profiles identical to dmtracedump's.
 *
 * Each frame remembers how often its profile key occurs below it
 * (dmtracedump's recursion count), found with a 64-bit bloom mask so
 * non-recursive pushes do not scan the stack.
 */
#include "mtrace_int.h"

#include <stdlib.h>
#include <string.h>

enum st_err mt_threads_init(struct mt_threads *ts)
{
    memset(ts, 0, sizeof(*ts));
    return ST_OK;
}

void mt_threads_setup(struct mt_threads *ts, const struct mt_tables *t)
{
    ts->ncol = t->ncol;
    ts->clk[0] = t->col_clock[0];
    ts->clk[1] = t->ncol == 2 ? t->col_clock[1] : MT_CLK_UNKNOWN;
}

void mt_threads_free(struct mt_threads *ts)
{
    for (uint32_t k = 0; k < ts->n; k++) {
        struct mt_thread *th = mt_thread_at(ts, ts->ids[k]);
        free(th->f);
        free(th->orph);
        free(th);
    }
    for (int i = 0; i < 256; i++)
        free(ts->pg[i]);
    free(ts->ids);
    memset(ts, 0, sizeof(*ts));
}

struct mt_thread *mt_thread_at(const struct mt_threads *ts, uint32_t id)
{
    struct mt_thread **pg = ts->pg[(id >> 8) & 255];
    return pg ? pg[id & 255] : NULL;
}

static enum st_err new_thread(struct mt_threads *ts, uint32_t id,
                              struct mt_thread **out)
{
    struct mt_thread ***pg = &ts->pg[id >> 8];
    if (!*pg && !(*pg = calloc(256, sizeof(**pg))))
        return ST_ENOMEM;
    if (ts->n == ts->capids) {
        uint32_t cap = ts->capids ? ts->capids * 2 : 16;
        uint32_t *ids = realloc(ts->ids, cap * sizeof(*ids));
        if (!ids)
            return ST_ENOMEM;
        ts->ids = ids;
        ts->capids = cap;
    }
    struct mt_thread *th = calloc(1, sizeof(*th));
    if (!th)
        return ST_ENOMEM;
    th->id = id;
    (*pg)[id & 255] = th;
    ts->ids[ts->n++] = id;
    *out = th;
    return ST_OK;
}

enum st_err mt_thread_get(struct mt_threads *ts, uint32_t tid,
                          struct mt_thread **out)
{
    uint32_t id = tid & (MT_NTHREADS - 1);
    struct mt_thread **pg = ts->pg[id >> 8];
    if (pg && pg[id & 255]) {
        *out = pg[id & 255];
        return ST_OK;
    }
    return new_thread(ts, id, out);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void mt_threads_sort(struct mt_threads *ts)
{
    if (ts->n)      /* qsort's base may not be NULL, even for 0 items */
        qsort(ts->ids, ts->n, sizeof(*ts->ids), cmp_u32);
}

static int64_t unwrap(int64_t ref, uint32_t v)
{
    int64_t x = ref + (int32_t)(v - (uint32_t)ref);
    if (x < 0)
        x += (int64_t)1 << 32;
    return x;
}

void mt_thread_times(struct mt_threads *ts, struct mt_thread *th,
                     const uint32_t raw[2], int64_t out[2])
{
    out[1] = 0;
    for (int c = 0; c < ts->ncol; c++) {
        int64_t x;
        if (ts->clk[c] == MT_CLK_WALL) {
            x = ts->have_wall_ref ? unwrap(ts->wall_ref, raw[c]) : raw[c];
            ts->wall_ref = x;
            ts->have_wall_ref = 1;
        } else {
            x = th->nrec ? unwrap(th->last[c], raw[c]) : raw[c];
        }
        if (th->nrec && x < th->last[c])
            x = th->last[c];
        out[c] = x;
    }
    if (th->nrec) {
        if (out[0] == th->last[0])
            th->same_ts++;
    } else {
        th->first[0] = out[0];
        th->first[1] = out[1];
    }
    th->last[0] = out[0];
    th->last[1] = out[1];
    th->nrec++;
}

static uint64_t key_bit(uint32_t key)
{
    return 1ull << ((key * 0x9E3779B1u) >> 26);
}

enum st_err mt_push(struct mt_thread *th, uint32_t midx, uint32_t key,
                    const int64_t t[2])
{
    if (th->depth == th->cap) {
        if (th->cap >= MTRACE_MAX_DEPTH)
            return ST_ETOOBIG;
        uint32_t cap = th->cap ? th->cap * 2 : 64;
        if (cap > MTRACE_MAX_DEPTH)
            cap = MTRACE_MAX_DEPTH;
        struct mt_frame *f = realloc(th->f, cap * sizeof(*f));
        if (!f)
            return ST_ENOMEM;
        th->f = f;
        th->cap = cap;
    }
    uint64_t bit = key_bit(key), below = th->depth ? th->f[th->depth - 1].mask
                                                   : 0;
    uint32_t rec = 0;
    if (below & bit) {
        for (uint32_t j = th->depth; j-- > 0;) {
            if (th->f[j].key == key) {
                rec = th->f[j].rec + 1;
                break;
            }
        }
    }
    struct mt_frame *f = &th->f[th->depth++];
    if (th->depth > th->maxdepth)
        th->maxdepth = th->depth;
    f->midx = midx;
    f->key = key;
    f->rec = rec;
    f->flags = 0;
    f->mask = below | bit;
    f->t[0] = t[0];
    f->t[1] = t[1];
    return ST_OK;
}

long mt_find(const struct mt_thread *th, uint32_t midx)
{
    for (uint32_t j = th->depth; j-- > 0;) {
        if (th->f[j].midx == midx)
            return (long)j;
    }
    return -1;
}

void mt_stack_info(const struct mt_threads *ts, struct mtrace_info *info)
{
    if (!info)
        return;
    uint64_t nrec = 0, same = 0;
    info->threads = ts->n;
    for (uint32_t k = 0; k < ts->n; k++) {
        const struct mt_thread *th = mt_thread_at(ts, ts->ids[k]);
        nrec += th->nrec;
        same += th->same_ts;
        info->open_at_end += th->depth;
        if (th->maxdepth > info->max_depth)
            info->max_depth = th->maxdepth;
    }
    /* Sampling traces repeat a timestamp for every frame that changed
     * between two samples (93-95% of records in the corpus; instrumented
     * Dalvik traces with a coarse clock reach 86%) and never unroll. */
    info->sampling = nrec >= 100 && same * 10 >= nrec * 9 && !info->unrolls;
}
