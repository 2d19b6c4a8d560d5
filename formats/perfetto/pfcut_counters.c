/*
 * Counters' last values at the start of each piece (pfcut.h): a piece
 * that begins between two values of a counter gets the earlier one again
 * at its start, as the page cutter sets them (docs/pieces.md), so a
 * counter track does not start empty in a later piece.  Followed: the
 * ftrace counters a system trace is made of, a CPU's frequency and idle
 * state (cpu_frequency, cpu_idle, by cpu_id) and atrace counters (print
 * "C|tgid|name|value", by tgid and name), each written again as an ftrace
 * event of its own on its CPU and sequence at the piece's start.  They
 * come through the prints' sort (pfcut_slices.c), in time order within
 * its window (a value older than the last one seen is not carried).  And
 * the polled counters' packets (process stats, system stats, battery
 * counters): a sequence's last packet of each kind again at the piece's
 * start, its time moved, without sequence state.  Memory:
 * PFCUT_COUNTERS_MAX counters, each its last event (PFCUT_BEGIN_MAX).
 */
#include "pfcut_int.h"

#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "pbw.h"

#define KEY_PRINT (1ull << 63)
#define KEY_PACKET (1ull << 62)
#define PACKET 1000                 /* field: a TracePacket of data field - PACKET */

/* A saved packet at ts, without its time, clock and sequence state
 * (sequence flags, interned data, defaults, the two cleared flags). */
static enum st_err packet_at(struct pfcut *c, int piece, const uint8_t *p, size_t n, int64_t ts)
{
    static const uint64_t drop[2] = {1ull << 8 | 1ull << 12 | 1ull << 13 | 1ull << 41 |
                                     1ull << 58 | 1ull << 59, 1ull << (87 - 64)};
    dynbuf_reset(&c->d);
    enum st_err e = pfcut_copy(&c->d, p, n, drop);
    if (!e && !(e = pbw_uint(&c->d, 8, ts < 0 ? 0 : (uint64_t)ts)))
        e = pbw_uint(&c->d, 58, c->clk.trace_clock);
    if (e)
        return pfcut_fail(c, e == ST_EFORMAT ? e : ST_ENOMEM,
                          e == ST_EFORMAT ? "a packet" : "out of memory");
    c->st.cut++;
    return pfcut_write(c, piece, (const uint8_t *)c->d.data, c->d.len);
}

static size_t slot(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static int grow(struct pfcut *c)
{
    size_t cap = c->ctrcap ? c->ctrcap * 2 : 256;
    struct pfcut_counter *t = calloc(cap, sizeof(*t));
    if (!t)
        return -1;
    for (size_t i = 0; i < c->ctrcap; i++) {
        if (!c->ctrs[i].key)
            continue;
        size_t j = slot(c->ctrs[i].key, cap);
        while (t[j].key)
            j = (j + 1) & (cap - 1);
        t[j] = c->ctrs[i];
    }
    free(c->ctrs);
    c->ctrs = t;
    c->ctrcap = cap;
    return 0;
}

/* The counter of key, made if new; NULL when there are too many. */
static struct pfcut_counter *counter(struct pfcut *c, uint64_t key)
{
    if ((c->nctrs + 1) * 2 > c->ctrcap && (c->nctrs >= PFCUT_COUNTERS_MAX || grow(c)))
        return NULL;
    size_t i = slot(key, c->ctrcap);
    while (c->ctrs[i].key && c->ctrs[i].key != key)
        i = (i + 1) & (c->ctrcap - 1);
    if (!c->ctrs[i].key) {
        c->ctrs[i].key = key;
        c->nctrs++;
    }
    return &c->ctrs[i];
}

/* Its last value again at the start of pieces [v->pos, to). */
static enum st_err carry(struct pfcut *c, struct pfcut_counter *v, uint32_t to)
{
    enum st_err e = ST_OK;
    struct dynbuf body;
    dynbuf_init(&body, PFCUT_BEGIN_MAX * 2);
    for (; v->pos < to && !e; v->pos++) {
        if (!v->ev)
            continue;
        if (v->field >= PACKET) {
            e = packet_at(c, (int)v->pos, v->ev, v->n, c->out[v->pos].p.start);
            continue;
        }
        dynbuf_reset(&body);
        if (v->field == 3 ? pbw_bytes(&body, 2, v->ev, v->n) : dynbuf_add(&body, v->ev, v->n))
            e = pfcut_fail(c, ST_ENOMEM, "out of memory");
        else
            e = pfcut_ftrace_packet(c, (int)v->pos, v->cpu, v->seq, v->tid,
                                    c->out[v->pos].p.start, v->field, &body);
    }
    dynbuf_free(&body);
    return e;
}

/* "C|tgid|name|value": the key of tgid and name (FNV-1a), or 0. */
static uint64_t print_key(const uint8_t *buf, size_t n)
{
    if (n < 4 || buf[0] != 'C' || buf[1] != '|')
        return 0;
    size_t end = n;
    while (end > 2 && buf[end - 1] != '|')
        end--;
    if (end <= 3)
        return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 2; i < end - 1; i++)
        h = (h ^ buf[i]) * 0x100000001b3ull;
    return (h | KEY_PRINT) & ~(1ull << 62);
}

static uint64_t cpu_key(uint32_t field, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 2 && f.wire == PB_VARINT)
            return (uint64_t)field << 32 | (f.v & 0xffffffffu);
    return (uint64_t)field << 32 | 0xffffffffu;
}

enum st_err pfcut_counter(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid, int64_t ts,
                          uint32_t field, const uint8_t *p, size_t n)
{
    uint64_t key = field == 3 ? (pfcut_tid_kept(c, tid) ? print_key(p, n) : 0)
                 : field == 11 || field == 13 ? cpu_key(field, p, n)
                 : field >= PACKET ? KEY_PACKET | (uint64_t)(field - PACKET) << 32 | seq : 0;
    if (!key || c->scanning || ts == INT64_MIN)
        return ST_OK;
    struct pfcut_counter *v = counter(c, key);
    if (!v) {
        c->st.saved_over++;         /* not carried over */
        return ST_OK;
    }
    if (v->ev && ts < v->ts)
        return ST_OK;               /* older than the last value: not carried */
    uint32_t before, upto;
    pfcut_piece_of(c, ts - 1, &before);     /* pieces starting before ts */
    enum st_err e = carry(c, v, before);
    pfcut_piece_of(c, ts, &upto);
    v->pos = upto;
    if (e || n > PFCUT_BEGIN_MAX * 4)
        return e;
    uint8_t *ev = realloc(v->ev, n ? n : 1);
    if (!ev)
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    memcpy(ev, p, n);
    v->ev = ev;
    v->n = n;
    v->ts = ts;
    v->cpu = cpu;
    v->seq = seq;
    v->tid = tid;
    v->field = field;
    return ST_OK;
}

enum st_err pfcut_stats_packet(struct pfcut *c, uint32_t seq, uint32_t data, int64_t ts,
                               const uint8_t *p, size_t n)
{
    if (data != 7 && data != 9 && data != 38)
        return ST_OK;
    return n > PFCUT_BEGIN_MAX * 4 ? ST_OK : pfcut_counter(c, 0, seq, 0, ts, PACKET + data, p, n);
}

enum st_err pfcut_counters_finish(struct pfcut *c)
{
    enum st_err e = ST_OK;
    for (size_t i = 0; i < c->ctrcap && !e; i++)
        if (c->ctrs[i].key)
            e = carry(c, &c->ctrs[i], (uint32_t)c->nout);
    return e;
}

void pfcut_counters_free(struct pfcut *c)
{
    for (size_t i = 0; i < c->ctrcap; i++)
        free(c->ctrs[i].ev);
    free(c->ctrs);
    c->ctrs = NULL;
    c->ctrcap = c->nctrs = 0;
}
