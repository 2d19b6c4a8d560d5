/*
 * The Perfetto cutter's lowest layer (pfcut.h): its error line, which
 * piece a time falls in, packets written to pieces (each piece's bytes
 * buffered and handed to its write callback in chunks), the copy of a
 * message without some fields, sequences and the scan's byte counts.
 */
#include "pfcut_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "pbw.h"

enum st_err pfcut_fail(struct pfcut *c, enum st_err e, const char *what)
{
    if (!c->err) {
        c->err = e;
        if (e == ST_EFORMAT)
            snprintf(c->detail, sizeof(c->detail), "malformed Perfetto trace: %s in packet "
                     "%llu (at byte %llu)", what, (unsigned long long)c->st.packets,
                     (unsigned long long)c->pkt_start);
        else
            snprintf(c->detail, sizeof(c->detail), "%s", what);
    }
    return c->err;
}

int64_t pfcut_ftrace_time(struct pfcut *c, uint64_t raw)
{
    int64_t ts;
    return pfclk_boot_to_trace(&c->clk, raw, &ts) ? INT64_MIN : ts;
}

int pfcut_piece_of(const struct pfcut *c, int64_t ts, uint32_t *pos)
{
    size_t lo = 0, hi = c->nout;
    while (lo < hi) {           /* the first piece starting after ts */
        size_t mid = lo + (hi - lo) / 2;
        if (c->out[mid].p.start <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (pos)
        *pos = (uint32_t)lo;
    return lo && ts < c->out[lo - 1].p.end ? (int)lo - 1 : -1;
}

int pfcut_at_start(const struct pfcut *c, int64_t ts)
{
    int i = pfcut_piece_of(c, ts, NULL);
    return i >= 0 && c->out[i].p.start == ts;
}

static enum st_err flush_one(struct pfcut *c, struct pfcut_out *o)
{
    if (!o->buf.len)
        return ST_OK;
    enum st_err e = o->p.write(o->p.ctx, o->buf.data, o->buf.len);
    o->bytes += o->buf.len;
    dynbuf_reset(&o->buf);
    return e ? pfcut_fail(c, e, "cannot write the piece") : ST_OK;
}

static enum st_err write_one(struct pfcut *c, struct pfcut_out *o, const uint8_t *p, size_t n)
{
    uint8_t hdr[11];
    size_t h = 0;
    hdr[h++] = 0x0a;
    for (uint64_t v = n; ; v >>= 7) {
        hdr[h++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        if (v <= 0x7f)
            break;
    }
    if (dynbuf_add(&o->buf, hdr, h) || dynbuf_add(&o->buf, p, n))
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    return o->buf.len >= PFCUT_OUT_CHUNK ? flush_one(c, o) : ST_OK;
}

enum st_err pfcut_write(struct pfcut *c, int i, const uint8_t *p, size_t n)
{
    enum st_err e = ST_OK;
    if (i >= 0) {
        c->got[i] = 1;
        return write_one(c, &c->out[i], p, n);
    }
    for (size_t j = 0; j < c->nout && !e; j++) {
        c->got[j] = 1;
        e = write_one(c, &c->out[j], p, n);
    }
    return e;
}

enum st_err pfcut_flush(struct pfcut *c)
{
    enum st_err e = ST_OK;
    for (size_t j = 0; j < c->nout && !e; j++)
        e = flush_one(c, &c->out[j]);
    return e;
}

enum st_err pfcut_copy(struct dynbuf *to, const uint8_t *p, size_t n, const uint64_t drop[2])
{
    struct pb_iter it;
    struct pb_field f;
    const uint8_t *from = p;
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        const uint8_t *next = it.p;
        if (f.num < 128 && (drop[f.num >> 6] >> (f.num & 63) & 1)) {
            from = next;
            continue;
        }
        if (dynbuf_add(to, from, (size_t)(next - from)))
            return ST_ENOMEM;
        from = next;
    }
    return k ? ST_EFORMAT : ST_OK;
}

enum st_err pfcut_repacket(struct pfcut *c, int i, const uint8_t *pkt, size_t pn,
                           uint32_t num, const uint8_t *data, size_t dn, int64_t ts,
                           int timed)
{
    uint64_t drop[2] = {0};
    drop[0] |= 1ull << 8;
    drop[58 >> 6] |= 1ull << (58 & 63);
    if (num && num < 128)
        drop[num >> 6] |= 1ull << (num & 63);
    dynbuf_reset(&c->d);
    enum st_err e = pfcut_copy(&c->d, pkt, pn, drop);
    if (!e && timed && !(e = pbw_uint(&c->d, 8, ts < 0 ? 0 : (uint64_t)ts)))
        e = pbw_uint(&c->d, 58, c->clk.trace_clock);
    if (!e && data)
        e = pbw_bytes(&c->d, num, data, dn);
    if (e == ST_EFORMAT)
        return pfcut_fail(c, e, "a packet");
    if (e)
        return pfcut_fail(c, e, "out of memory");
    return pfcut_write(c, i, (const uint8_t *)c->d.data, c->d.len);
}

static int seqs_grow(struct pfcut *c)
{
    size_t cap = c->seqcap * 2;
    if (cap > PFCUT_SEQS_MAX * 2)
        return -1;
    struct pfcut_seq *n = calloc(cap, sizeof(*n));
    if (!n)
        return -1;
    for (size_t i = 0; i < c->seqcap; i++) {
        if (!c->seqs[i].id)
            continue;
        size_t j = (c->seqs[i].id * 2654435761u) & (cap - 1);
        while (n[j].id)
            j = (j + 1) & (cap - 1);
        n[j] = c->seqs[i];
    }
    free(c->seqs);
    c->seqs = n;
    c->seqcap = cap;
    return 0;
}

/* A sequence's state, added when new (the table grows then, so a
 * pointer held stays good only until a new sequence is added). */
struct pfcut_seq *pfcut_seq(struct pfcut *c, uint32_t id)
{
    uint32_t key = id ? id : 1u << 31;
    for (int grown = 0;; grown = 1) {
        size_t i = (key * 2654435761u) & (c->seqcap - 1);
        while (c->seqs[i].id && c->seqs[i].id != key)
            i = (i + 1) & (c->seqcap - 1);
        if (c->seqs[i].id)
            return &c->seqs[i];
        if (!grown && (c->nseqs + 1) * 2 > c->seqcap) {
            if (seqs_grow(c))
                return NULL;
            continue;
        }
        c->nseqs++;
        c->seqs[i].id = key;
        return &c->seqs[i];
    }
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return a % b < 0 ? q - 1 : q;
}

/* The histogram's bucket of ts; coarser when it would grow too long. */
static int hist_add(struct pfcut_hist *h, int64_t ts, uint64_t bytes)
{
    for (;;) {
        int64_t idx = floor_div(ts, h->w);
        if (!h->n) {
            h->b = calloc(1, sizeof(*h->b));
            if (!h->b)
                return -1;
            h->n = 1;
            h->lo = idx;
        }
        int64_t lo = idx < h->lo ? idx : h->lo;
        int64_t hi = idx >= h->lo + (int64_t)h->n ? idx + 1 : h->lo + (int64_t)h->n;
        if ((uint64_t)hi - (uint64_t)lo > PFCUT_HIST_MAX) {
            /* twice as wide: bucket i goes to i / 2 */
            int64_t nlo = floor_div(h->lo, 2);
            for (size_t i = 0; i < h->n; i++) {
                int64_t k = h->lo + (int64_t)i;
                int64_t to = floor_div(k, 2) - nlo;
                uint64_t v = h->b[i];
                h->b[i] = 0;
                h->b[to] += v;
            }
            int64_t last = h->lo + (int64_t)h->n - 1;
            h->n = (size_t)(floor_div(last, 2) - nlo + 1);
            h->lo = nlo;
            h->w *= 2;
            continue;
        }
        if (lo < h->lo || hi > h->lo + (int64_t)h->n) {
            size_t n = (size_t)(hi - lo), shift = (size_t)(h->lo - lo);
            /* grow by half again, so a trace read backwards is not quadratic */
            uint64_t *b = realloc(h->b, n * sizeof(*b));
            if (!b)
                return -1;
            memmove(b + shift, b, h->n * sizeof(*b));
            memset(b, 0, shift * sizeof(*b));
            memset(b + shift + h->n, 0, (n - shift - h->n) * sizeof(*b));
            h->b = b;
            h->n = n;
            h->lo = lo;
        }
        h->b[idx - h->lo] += bytes;
        return 0;
    }
}

void pfcut_seen(struct pfcut *c, int64_t ts, size_t bytes)
{
    if (ts < c->span.first)
        c->span.first = ts;
    if (ts > c->span.last)
        c->span.last = ts;
    if (hist_add(&c->hist, ts, bytes) && !c->err)
        pfcut_fail(c, ST_ENOMEM, "out of memory");
}

size_t pfcut_bounds(const struct pfcut *c, uint64_t bytes, int64_t *starts, size_t max)
{
    const struct pfcut_hist *h = &c->hist;
    uint64_t want = bytes > c->span.state_bytes * 2 ? bytes - c->span.state_bytes : bytes / 2;
    want -= want / 8;           /* room for what is begun again, framing, estimates */
    uint64_t acc = 0;
    size_t n = 0;
    if (c->span.first > c->span.last || !max)
        return 0;
    starts[n++] = c->span.first;
    for (size_t i = 0; i < h->n; i++) {
        if (acc && acc + h->b[i] > want) {
            if (n == max)
                return 0;
            starts[n++] = (h->lo + (int64_t)i) * h->w;
            acc = 0;
        }
        acc += h->b[i];
    }
    return n;
}

/* An ftrace event at ts (on the trace's clock) in a bundle of its own, on
 * its bundle's sequence (for its kernel symbols): FtraceEventBundle { cpu,
 * event { timestamp, pid, FIELD { ... } } }.  The bundle is made apart from body (which may be
 * the scratch c->c): it held the body's bytes before, read by Perfetto as
 * one more, broken, event. */
enum st_err pfcut_ftrace_packet(struct pfcut *c, int piece, uint32_t cpu, uint32_t seq,
                                uint32_t tid, int64_t ts, uint32_t field, struct dynbuf *body)
{
    struct dynbuf *p = &c->d;
    struct dynbuf fe, ev;
    dynbuf_init(&fe, PFCUT_BEGIN_MAX * 2);
    dynbuf_init(&ev, PFCUT_BEGIN_MAX * 2 + 32);
    dynbuf_reset(p);
    int64_t boot = ts;          /* written on the ftrace clock, read back as ts */
    if (pfclk_from_trace(&c->clk, PFCLK_BOOTTIME, ts, &boot))
        boot = ts;
    enum st_err e = pbw_uint(&fe, 1, boot < 0 ? 0 : (uint64_t)boot);
    if (!e && !(e = pbw_uint(&fe, 2, tid)) && !(e = pbw_msg(&fe, field, body)))
        if (!(e = pbw_uint(&ev, 1, cpu)) && !(e = pbw_msg(&ev, 2, &fe)))
            if (!(e = pbw_msg(p, 1, &ev)) && seq)
                e = pbw_uint(p, 10, seq);
    dynbuf_free(&fe);
    dynbuf_free(&ev);
    if (e)
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    c->st.cut++;
    return pfcut_write(c, piece, (const uint8_t *)p->data, p->len);
}

enum st_err pfcut_timed_packet(struct pfcut *c, int piece, uint32_t seq, int64_t ts,
                               uint32_t field, struct dynbuf *msg)
{
    struct dynbuf *p = &c->d;
    dynbuf_reset(p);
    enum st_err e = pbw_uint(p, 10, seq);
    if (!e && !(e = pbw_uint(p, 8, ts < 0 ? 0 : (uint64_t)ts)))
        e = pbw_uint(p, 58, c->clk.trace_clock);
    if (!e)
        e = pbw_msg(p, field, msg);
    if (e)
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    c->st.cut++;
    return pfcut_write(c, piece, (const uint8_t *)p->data, p->len);
}
