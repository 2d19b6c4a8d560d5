/*
 * The sorted records' way to the lines (pftrace_int.h): the sort hands
 * each record to a stage thread (lib/astage.h) that formats it (pfemit.c),
 * so reading and sorting take one core and formatting the other.  A
 * record goes as (ts, length, bytes) in the stage's byte stream; one cut
 * by the end of a stage buffer is gathered whole before it is formatted.
 *
 * The formatting side owns the thread table, the CPUs' tasks and the
 * output; the reading side changes only two things that side reads, the
 * kernel's version (system_info) and interned kernel symbols, and drains
 * the stage first (pfstage_drain: both come rarely, at a trace's start).
 * An error on the formatting side has its own text (edetail) and comes
 * back from a later push or the finish.
 *
 * The packets of other data (track events, logcat, frame timeline,
 * counters: pftev.h) go the same way, unsorted, and are converted on that
 * thread too: pftev's state and its outputs (the spools, the frame facts)
 * are that thread's alone until the finish.  That JSON was a third of the
 * reader's time on a mixed trace.
 */
#include "pftrace_int.h"

#include <string.h>

#include "lib/astage.h"

#define HEAD 12     /* int64 ts, uint32 length */
#define STAGE_BUF ((size_t)256 << 10)  /* 1 MB in all: records are small */
#define TEV_HEAD (sizeof(struct pfrec) + sizeof(struct pftev_pkt))
/* the biggest record gathered whole: a sorted one or a packet */
#define REC_MAX (HEAD + TEV_HEAD + \
                 (PFSORT_ARENA / 4 > PFTRACE_PACKET_MAX ? PFSORT_ARENA / 4 : PFTRACE_PACKET_MAX))

static enum st_err from_stage(void *ctx, const void *buf, size_t n);

static enum st_err start(struct pftrace *t)
{
    if (t->estage)
        return ST_OK;
    dynbuf_init(&t->erec, REC_MAX);
    return (t->estage = astage_new_sized(from_stage, t, STAGE_BUF)) ? ST_OK : ST_ENOMEM;
}

/* A record's head, then its `nb` parts. */
static enum st_err put(struct pftrace *t, int64_t ts, const void *const *b, const size_t *bn,
                       int nb)
{
    enum st_err e = start(t);
    uint8_t head[HEAD];
    size_t n = 0;
    for (int i = 0; i < nb; i++)
        n += bn[i];
    uint32_t len = (uint32_t)n;
    memcpy(head, &ts, 8);
    memcpy(head + 8, &len, 4);
    if (!e)
        e = astage_write(t->estage, head, HEAD);
    for (int i = 0; i < nb && !e; i++)
        e = astage_write(t->estage, b[i], bn[i]);
    t->estage_failed |= e != ST_OK;
    return e;
}

enum st_err pfstage_push(void *ctx, int64_t ts, const uint8_t *p, size_t n)
{
    const void *b[1] = {p};
    size_t bn[1] = {n};
    return put(ctx, ts, b, bn, 1);
}

enum st_err pfstage_push_tev(struct pftrace *t, const struct pftev_pkt *k, const uint8_t *p,
                             size_t n)
{
    struct pfrec r = {.kind = PFR_TEV};
    const void *b[3] = {&r, k, p};
    size_t bn[3] = {sizeof(r), sizeof(*k), n};
    return put(t, (int64_t)k->ts, b, bn, 3);
}

static uint32_t rec_len(const uint8_t *head)
{
    uint32_t len;
    memcpy(&len, head + 8, 4);
    return len;
}

static enum st_err emit(struct pftrace *t, const uint8_t *rec)
{
    int64_t ts;
    memcpy(&ts, rec, 8);
    return pf_emit(t, ts, rec + HEAD, rec_len(rec));
}

/* The stage's side: whole records from the stream. */
static enum st_err from_stage(void *ctx, const void *buf, size_t n)
{
    struct pftrace *t = ctx;
    const uint8_t *p = buf;
    enum st_err e = ST_OK;
    while (n && !e) {
        if (!t->erec.len && n >= HEAD && n - HEAD >= rec_len(p)) {
            size_t k = HEAD + rec_len(p);
            e = emit(t, p);
            p += k;
            n -= k;
            continue;
        }
        /* cut by the buffer's end: its head, then the rest of it */
        const uint8_t *have = (const uint8_t *)t->erec.data;
        size_t want = t->erec.len < HEAD ? HEAD - t->erec.len
                                         : HEAD + rec_len(have) - t->erec.len;
        size_t k = want < n ? want : n;
        if ((e = dynbuf_add(&t->erec, p, k)))
            break;
        p += k;
        n -= k;
        have = (const uint8_t *)t->erec.data;
        if (t->erec.len >= HEAD && t->erec.len == HEAD + rec_len(have)) {
            e = emit(t, have);
            dynbuf_reset(&t->erec);
        }
    }
    return e;
}

enum st_err pfstage_drain(struct pftrace *t)
{
    enum st_err e = t->estage ? astage_drain(t->estage) : ST_OK;
    t->estage_failed |= e != ST_OK;
    return e;
}

enum st_err pfstage_finish(struct pftrace *t)
{
    enum st_err e = t->estage ? astage_finish(t->estage) : ST_OK;
    t->estage_failed |= e != ST_OK;
    return e;
}

void pfstage_free(struct pftrace *t)
{
    astage_free(t->estage);
    t->estage = NULL;
    dynbuf_free(&t->erec);
}
