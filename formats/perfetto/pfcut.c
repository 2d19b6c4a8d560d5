/*
 * The Perfetto cutter (pfcut.h): the file's framing, compressed packets
 * (their packets are written one by one, uncompressed), and each packet
 * sorted into what every piece keeps (sequence state, descriptors,
 * clocks), what one piece keeps (timestamped data: by its time on the
 * trace's clock) and what is split event by event (pfcut_ftrace.c).
 * Times of other clocks are converted as Perfetto's clock tracker does
 * (pfclk.h), in file order, so incremental clocks stay right; a packet
 * without a clock is on the one the snapshots named (pfclk.h: the trace's
 * primary clock, not BOOTTIME, when it says so), ftrace events on BOOTTIME.
 */
#include "pfcut_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "pbw.h"
#include "pftrace.h"

struct pfcut *pfcut_new(const struct pfcut_piece *pieces, size_t n)
{
    if (n > PFCUT_PIECES_MAX)
        return NULL;
    struct pfcut *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->nout = n;
    c->scanning = !n;
    c->last = INT64_MAX;
    c->span.first = INT64_MAX;
    c->span.last = INT64_MIN;
    c->hist.w = 1000000;        /* 1 ms, wider as the trace needs */
    c->out = calloc(n ? n : 1, sizeof(*c->out));
    c->got = calloc(n ? n : 1, 1);
    c->cpus = calloc(PFCUT_CPUS, sizeof(*c->cpus));
    c->seqcap = 1024;
    c->seqs = calloc(c->seqcap, sizeof(*c->seqs));
    if (!c->out || !c->got || !c->cpus || !c->seqs) {
        pfcut_free(c);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        c->out[i].p = pieces[i];
        dynbuf_init(&c->out[i].buf, PFCUT_OUT_CHUNK + PFTRACE_PACKET_MAX + 16);
    }
    dynbuf_init(&c->pkt, PFTRACE_PACKET_MAX);
    dynbuf_init(&c->infl, PFTRACE_INFLATE_MAX);
    dynbuf_init(&c->a, PFTRACE_PACKET_MAX * 2);
    dynbuf_init(&c->b, PFTRACE_PACKET_MAX * 2);
    dynbuf_init(&c->c, PFTRACE_PACKET_MAX * 2);
    dynbuf_init(&c->d, PFTRACE_PACKET_MAX * 4);
    for (int i = 0; i < 11; i++)
        dynbuf_init(&c->cols[i], PFTRACE_PACKET_MAX);
    pfclk_init(&c->clk);
    if (n && pfcut_slices_init(c)) {
        pfcut_free(c);
        return NULL;
    }
    return c;
}

void pfcut_free(struct pfcut *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nout; i++)
        dynbuf_free(&c->out[i].buf);
    if (c->z_init)
        inflateEnd(&c->z);
    dynbuf_free(&c->pkt);
    dynbuf_free(&c->infl);
    dynbuf_free(&c->a);
    dynbuf_free(&c->b);
    dynbuf_free(&c->c);
    dynbuf_free(&c->d);
    for (int i = 0; i < 11; i++)
        dynbuf_free(&c->cols[i]);
    pfclk_free(&c->clk);
    pfcut_slices_free(c);
    pfcut_frames_free(c);
    pfcut_counters_free(c);
    pfcut_procs_free(c);
    free(c->hist.b);
    free(c->istr);
    free(c->ilen);
    free(c->out);
    free(c->got);
    free(c->cpus);
    free(c->seqs);
    free(c);
}

void pfcut_set_last(struct pfcut *c, int64_t last)
{
    c->last = last;
}

const char *pfcut_detail(const struct pfcut *c)
{
    return c->detail;
}

const struct pfcut_span *pfcut_span(const struct pfcut *c)
{
    return &c->span;
}

const struct pfcut_stats *pfcut_stats(const struct pfcut *c)
{
    return &c->st;
}

/* ---- packets ------------------------------------------------------------ */

/* Data that later packets need and that no piece can do without. */
static int always_kept(uint32_t num)
{
    static const uint8_t nums[] = {2, 6, 33, 34, 35, 36, 43, 44, 45, 47, 48, 51, 60, 61, 64,
                                   67, 69, 70, 72, 82, 86, 89, 123, 124, 125, 126, 128};
    for (size_t i = 0; i < sizeof(nums); i++)
        if (nums[i] == num)
            return 1;
    return 0;
}

struct pkt {
    uint64_t ts, flags;
    uint32_t seq, clock, data;
    int has_ts, state;
    const uint8_t *dp;
    size_t dn;
};

static enum st_err packet(struct pfcut *c, const uint8_t *p, size_t n, int depth);

static enum st_err compressed(struct pfcut *c, const uint8_t *p, size_t n, int depth)
{
    if (depth)
        return pfcut_fail(c, ST_EFORMAT, "compressed packets inside compressed packets");
    if (!c->z_init) {
        memset(&c->z, 0, sizeof(c->z));
        if (inflateInit(&c->z) != Z_OK)
            return pfcut_fail(c, ST_ENOMEM, "out of memory");
        c->z_init = 1;
    } else
        inflateReset(&c->z);
    dynbuf_reset(&c->infl);
    c->z.next_in = (unsigned char *)p;
    c->z.avail_in = (uInt)n;
    unsigned char buf[16384];
    int r;
    do {
        c->z.next_out = buf;
        c->z.avail_out = sizeof(buf);
        r = inflate(&c->z, Z_NO_FLUSH);
        if (r != Z_OK && r != Z_STREAM_END)
            return pfcut_fail(c, ST_EFORMAT, r == Z_BUF_ERROR ? "compressed packets cut short"
                                                              : "corrupt compressed packets");
        if (dynbuf_add(&c->infl, buf, sizeof(buf) - c->z.avail_out))
            return pfcut_fail(c, ST_EFORMAT, "compressed packets inflating past 16 MB");
    } while (r != Z_STREAM_END);
    /* the packets refer into infl, which stays until the next compressed
     * packet, and compressed packets do not nest */
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    int k;
    pb_iter_init(&it, (const uint8_t *)c->infl.data, c->infl.len);
    while (!e && (k = pb_next(&it, &f)) == 1)
        if (f.num == 1 && f.wire == PB_LEN)
            e = packet(c, f.p, f.len, 1);
    return e ? e : k ? pfcut_fail(c, ST_EFORMAT, "compressed packets (what they inflate to)")
                     : ST_OK;
}

static void defaults(struct pfcut_seq *s, const uint8_t *p, size_t n)
{
    pfclk_packet_defaults(p, n, &s->def_clock, &s->def_track);
}

static enum st_err read_packet(struct pfcut *c, const uint8_t *p, size_t n, struct pkt *k,
                               const uint8_t **defs, size_t *dfn)
{
    struct pb_iter it;
    struct pb_field f;
    int r;
    pb_iter_init(&it, p, n);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.wire == PB_VARINT) {
            if (f.num == 8)
                k->ts = f.v, k->has_ts = 1;
            else if (f.num == 58)
                k->clock = (uint32_t)f.v;
            else if (f.num == 10)
                k->seq = (uint32_t)f.v;
            else if (f.num == 13)
                k->flags = f.v;
            else if ((f.num == 41 || f.num == 87) && f.v)
                k->state |= f.num == 41 ? 2 : 1;
            continue;
        }
        if (f.wire != PB_LEN)
            continue;
        if (f.num == 12)
            k->state |= 1;
        else if (f.num == 59) {
            k->state |= 1;
            *defs = f.p;
            *dfn = f.len;
        } else if (!k->data) {
            k->data = f.num;
            k->dp = f.p;
            k->dn = f.len;
        }
    }
    if (r)
        return pfcut_fail(c, ST_EFORMAT, "a packet");
    if (k->flags & 1)
        k->state |= 2;
    return ST_OK;
}

/* The packet's sequence state (interned data, defaults, flags) for every
 * piece its data did not go to. */
static enum st_err state_elsewhere(struct pfcut *c, const uint8_t *p, size_t n,
                                   const struct pkt *k)
{
    enum st_err e = ST_OK;
    for (size_t j = 0; j < c->nout && !e; j++)
        if (!c->got[j]) {
            e = pfcut_repacket(c, (int)j, p, n, k->data, NULL, 0, 0, 0);
            c->st.stripped++;
        }
    return e;
}

/* A scan looking for a slice: the names its interned data gives. */
static enum st_err want_interned(struct pfcut *c, struct pfcut_seq *s, const uint8_t *p,
                                 size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 12 && f.wire == PB_LEN)
            pfcut_want_interned(c, s, f.p, f.len);
    return ST_OK;
}

/* ThreadDescriptor.reference_timestamp_us (6) */
static int64_t reference_us(const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    int64_t us = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 6 && f.wire == PB_VARINT)
            us = (int64_t)f.v;
    return us;
}

/* A legacy track event (no packet time: timestamp_delta_us 1 or
 * timestamp_absolute_us 16 from its sequence's thread descriptor's
 * reference_timestamp_us 6, on MONOTONIC as Perfetto reads them): its
 * time on the trace's clock, and in c->b the event with its time made
 * absolute, so it stays right when the events before it are left out. */
static int legacy_time(struct pfcut *c, struct pfcut_seq *s, uint32_t seq, const uint8_t *p,
                       size_t n, int64_t *ts)
{
    static const uint64_t drop[2] = {1ull << 1 | 1ull << 16 | 1ull << 2 | 1ull << 17, 0};
    struct pb_iter it;
    struct pb_field f;
    int timed = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            s->legacy_us += (int64_t)f.v, timed = 1;
        else if (f.num == 16 && f.wire == PB_VARINT)
            s->legacy_us = (int64_t)f.v, timed = 1;
    }
    dynbuf_reset(&c->b);
    if (!timed || pfclk_convert(&c->clk, seq, PFCLK_MONOTONIC,
                                (uint64_t)s->legacy_us * 1000u, ts) ||
        pfcut_copy(&c->b, p, n, drop) || pbw_uint(&c->b, 16, (uint64_t)s->legacy_us))
        return -1;
    return 0;
}

/* --process: is a track event on a kept process's track? */
static int te_kept(const struct pfcut *c, const struct pfcut_seq *s, uint32_t seq,
                   const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t uuid = s->def_track;
    if (!c->procs.active)
        return 1;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 11 && f.wire == PB_VARINT)
            uuid = f.v;
    return pfcut_track_kept(c, seq, uuid);
}

/* --process: process stats of the kept processes only (their last ones
 * set again at a later piece's start, pfcut_counters.c). */
static enum st_err stats_kept(struct pfcut *c, const uint8_t *p, size_t n, const struct pkt *k,
                              int64_t ts)
{
    static const uint64_t drop[2] = {1ull << 9, 0};
    size_t kept;
    int i = pfcut_piece_of(c, ts, NULL);
    enum st_err e = pfcut_procs_stats(c, k->dp, k->dn, &c->a, &kept);
    if (e)
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    if (!kept)
        return ST_OK;
    dynbuf_reset(&c->b);
    if ((e = pfcut_copy(&c->b, p, n, drop)) ||
        (e = pbw_bytes(&c->b, 9, (const uint8_t *)c->a.data, c->a.len)))
        return pfcut_fail(c, e == ST_EFORMAT ? e : ST_ENOMEM,
                          e == ST_EFORMAT ? "a packet" : "out of memory");
    if (k->has_ts && (e = pfcut_stats_packet(c, k->seq, 9, ts, (const uint8_t *)c->b.data,
                                             c->b.len)))
        return e;
    return i >= 0 ? pfcut_repacket(c, i, p, n, 9, (const uint8_t *)c->a.data, c->a.len, ts, 1)
                  : ST_OK;
}

static enum st_err packet(struct pfcut *c, const uint8_t *p, size_t n, int depth)
{
    struct pkt k = {0};
    const uint8_t *defs = NULL;
    size_t dfn = 0;
    enum st_err e = read_packet(c, p, n, &k, &defs, &dfn);
    if (e)
        return e;
    c->st.packets++;
    c->span.bytes += n;
    struct pfcut_seq *s = pfcut_seq(c, k.seq);
    if (!s)
        return pfcut_fail(c, ST_EFORMAT, "more than 65536 packet sequences");
    if (k.state & 2)
        s->def_clock = 0, s->def_track = 0, s->nwant = 0;
    if (c->find.name && (k.state & 1) && (e = want_interned(c, s, p, n)))
        return e;
    if (defs)
        defaults(s, defs, dfn);
    if (k.data == 2 || k.data == 43 || k.data == 44 || k.data == 60)
        pfcut_procs_packet(c, k.seq, k.data, k.dp, k.dn);
    if (k.data == 44)
        s->legacy_us = reference_us(k.dp, k.dn);
    if (k.data == 6)
        pfclk_snapshot(&c->clk, k.seq, k.dp, k.dn);
    if (k.data == 50)
        return compressed(c, k.dp, k.dn, depth);
    /* the time on the trace's clock: every timed packet, in file order
     * (an incremental clock counts from the one before); a packet on no
     * clock, neither its own nor its sequence's default, is on the one the
     * snapshots named (pfclk.h), or (0) on the trace's as it is */
    uint32_t clock = k.clock ? k.clock : s->def_clock ? s->def_clock
                                                      : (uint32_t)c->clk.default_clock;
    int64_t ts = (int64_t)k.ts;
    int lost = 0;               /* a time no clock snapshot leads from */
    if (k.has_ts && clock && k.data != 6 &&
        pfclk_convert(&c->clk, k.seq, clock, k.ts, &ts)) {
        c->st.unconverted++;
        lost = 1;
    }
    int same = !clock || clock == c->clk.trace_clock;
    const uint8_t *dp = k.dp;   /* the data as written */
    size_t dn = k.dn;
    if (k.data == 11 && !k.has_ts && !legacy_time(c, s, k.seq, k.dp, k.dn, &ts)) {
        k.has_ts = 1;           /* written with the packet time and the absolute one */
        same = 0;
        dp = (const uint8_t *)c->b.data;
        dn = c->b.len;
    }
    int whole = !k.data || always_kept(k.data) || (!k.has_ts && k.data != 1 && k.data != 39);
    /* timed data Perfetto cannot place either: in no piece (its state in all) */
    int nowhere = lost && !whole && k.data != 1 && k.data != 39;
    if (c->scanning) {
        if (whole || k.state)   /* sequence state goes to every piece */
            c->span.state_bytes += n + 4;
        if (whole || nowhere)
            return ST_OK;
        if (k.data == 1)
            e = pfcut_bundle(c, k.seq, p, n, k.dp, k.dn);
        else if (k.data == 39)
            e = pfcut_log(c, k.seq, p, n, k.dp, k.dn);
        else
            pfcut_seen(c, ts, n + 4);
        int none = -1;
        if (!e && k.data == 11 && c->find.name)
            e = pfcut_track_event(c, k.seq, ts, &none, k.dp, k.dn);
        return e;
    }
    memset(c->got, 0, c->nout);
    if (whole && (!k.has_ts || same || lost))
        return pfcut_write(c, -1, p, n);
    if (whole)     /* written with its time on the trace's clock */
        return pfcut_repacket(c, -1, p, n, k.data, k.dp, k.dn, ts, 1);
    if (nowhere)
        ;
    else if (k.data == 1)
        e = pfcut_bundle(c, k.seq, p, n, k.dp, k.dn);
    else if (k.data == 39)
        e = pfcut_log(c, k.seq, p, n, k.dp, k.dn);
    else if (k.data == 11 && !te_kept(c, s, k.seq, k.dp, k.dn))
        ;   /* another process's (--process): only its sequence state is kept */
    else if (k.data == 9 && c->procs.active)
        e = stats_kept(c, p, n, &k, ts);
    else {
        if (k.has_ts)
            e = pfcut_stats_packet(c, k.seq, k.data, ts, p, n);
        int i = pfcut_piece_of(c, ts, NULL);
        if (!e && k.data == 11)
            e = pfcut_track_event(c, k.seq, ts, &i, k.dp, k.dn);
        else if (!e && k.data == 76)
            e = pfcut_frame(c, k.seq, ts, &i, k.dp, k.dn);
        if (!e && i >= 0 && (same || !k.has_ts))
            e = pfcut_write(c, i, p, n);
        else if (!e && i >= 0)
            e = pfcut_repacket(c, i, p, n, k.data, dp, dn, ts, 1);
        if (i >= 0)
            c->st.kept++;
    }
    if (!e && k.state)
        e = state_elsewhere(c, p, n, &k);
    return e;
}

/* ---- framing ------------------------------------------------------------ */

static enum st_err top_varint(struct pfcut *c, uint64_t v)
{
    switch (c->fs) {
    case PC_TAG: {
        unsigned wire = (unsigned)(v & 7);
        c->field = (uint32_t)(v >> 3);
        if (!c->field || v >> 32 || (wire != 0 && wire != 1 && wire != 2 && wire != 5)) {
            char what[160];
            snprintf(what, sizeof(what), "not a Perfetto trace (or a corrupt one): no packet "
                     "starts at byte %llu", (unsigned long long)c->pkt_start);
            return pfcut_fail(c, ST_EUNKNOWN, what);
        }
        c->fs = wire == 2 ? PC_LEN : wire == 0 ? PC_SKIPVAR : PC_SKIP;
        c->want = wire == 1 ? 8 : 4;
        return ST_OK;
    }
    case PC_LEN:
        c->want = v;
        if (c->field == 1 && v > PFTRACE_PACKET_MAX)
            return pfcut_fail(c, ST_ETOOBIG, "a packet over 8 MB, which the cutter does not "
                              "keep");
        c->fs = c->field == 1 ? PC_BODY : PC_SKIP;
        dynbuf_reset(&c->pkt);
        if (!v && c->fs == PC_BODY)
            return packet(c, (const uint8_t *)"", 0, 0);
        return ST_OK;
    default:
        c->fs = PC_TAG;
        return ST_OK;
    }
}

enum st_err pfcut_feed(struct pfcut *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    enum st_err e = c->err;
    while (n && !e) {
        if (c->fs == PC_TAG || c->fs == PC_LEN || c->fs == PC_SKIPVAR) {
            if (c->fs == PC_TAG && !c->vlen)
                c->pkt_start = c->offset;
            c->vbuf[c->vlen++] = *p++;
            n--;
            c->offset++;
            if (c->vbuf[c->vlen - 1] & 0x80) {
                if (c->vlen >= sizeof(c->vbuf))
                    e = pfcut_fail(c, ST_EFORMAT, "a varint longer than 10 bytes");
                continue;
            }
            uint64_t v;
            const uint8_t *q = c->vbuf;
            pb_varint(&q, c->vbuf + c->vlen, &v);
            c->vlen = 0;
            e = top_varint(c, v);
            if ((c->fs == PC_BODY || c->fs == PC_SKIP) && !c->want)
                c->fs = PC_TAG;
            continue;
        }
        size_t take = n < c->want ? n : (size_t)c->want;
        const uint8_t *chunk = p;
        p += take;
        n -= take;
        c->offset += take;
        c->want -= take;
        if (c->fs == PC_BODY && !c->want && !c->pkt.len)
            e = packet(c, chunk, take, 0);      /* whole in this chunk: no copy */
        else if (c->fs == PC_BODY && !(e = dynbuf_add(&c->pkt, chunk, take)) && !c->want)
            e = packet(c, (const uint8_t *)c->pkt.data, c->pkt.len, 0);
        if (!c->want)
            c->fs = PC_TAG;
    }
    if (e && !c->err)
        pfcut_fail(c, e, st_strerror(e));
    return c->err;
}

enum st_err pfcut_finish(struct pfcut *c)
{
    if (c->err)
        return c->err;
    if (c->fs != PC_TAG || c->vlen) {
        char what[160];
        snprintf(what, sizeof(what), "the trace is cut short inside a packet at byte %llu",
                 (unsigned long long)c->pkt_start);
        return pfcut_fail(c, ST_ETRUNCATED, what);
    }
    enum st_err e = c->scanning && !c->find.name ? ST_OK : pfcut_slices_finish(c);
    if (!e && !c->scanning)
        e = pfcut_frames_finish(c);
    if (!e && !c->scanning)
        e = pfcut_counters_finish(c);
    return e ? e : pfcut_flush(c);
}
