/*
 * Byte-stream decoder for method traces (zlib-shaped: new / feed / finish).
 *
 * Classic files: key text up to "*end\n", then a data header ("SLOW", u16
 * version 1-3, u16 offset to the records, u64 start µs, v3: u16 record
 * size) and fixed-size records to EOF.  Streaming files: the same header
 * with version 0xF2/0xF3 at offset 0, then items that start with a u16:
 * non-zero = thread id of a record, zero = packet (1 method line, 2 thread
 * name, 3 summary text).  All integers little-endian.  Spec:
 * docs/method-traces.md.
 *
 * Complete items are decoded straight from the caller's buffer; an item
 * split across feeds is completed in a carry buffer (at most one packet:
 * MT_MAX_PACKET).  Each complete record goes to sink->record with its
 * method resolved to a table index.  Errors name the byte offset.
 */
#include "mtrace_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"
#include "lib/printf.h"

enum { RS_START, RS_KEY, RS_HEADER, RS_RECORDS, RS_STREAM, RS_DONE, RS_STOP,
       RS_ERROR };

struct mt_reader {
    struct mt_tables *t;
    struct mt_sink sink;
    struct mtrace_info *info;
    int replay;
    int state;
    struct mt_keyp kp;
    struct dynbuf carry;
    uint64_t off;                   /* file offset of the next byte to parse */
    unsigned rs;                    /* record size */
    unsigned tidsz;                 /* 1 (v1) or 2 */
    enum st_err e;
    char err[256];
};

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static enum st_err fail(struct mt_reader *r, enum st_err e, const char *fmt,
                        ...) ST_PRINTF(3, 4);

static enum st_err fail(struct mt_reader *r, enum st_err e, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof(r->err), fmt, ap);
    va_end(ap);
    r->e = e;
    r->state = RS_ERROR;
    return e;
}

static void warn(struct mt_reader *r, unsigned bit, uint64_t off)
{
    if (!r->info)
        return;
    if (!(r->info->warnings & (MTRACE_W_TRUNCATED | MTRACE_W_FILL |
                               MTRACE_W_TRAILING)))
        r->info->warn_offset = off;
    r->info->warnings |= bit;
}

struct mt_reader *mt_reader_new(struct mt_tables *t, const struct mt_sink *s,
                                int replay, struct mtrace_info *info)
{
    struct mt_reader *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->t = t;
    r->sink = *s;
    r->replay = replay;
    r->info = info;
    r->kp.replay = replay;
    dynbuf_init(&r->carry, MT_MAX_PACKET + (4u << 20));
    return r;
}

void mt_reader_free(struct mt_reader *r)
{
    if (!r)
        return;
    dynbuf_free(&r->carry);
    free(r);
}

const char *mt_reader_error(const struct mt_reader *r)
{
    return r->err;
}

/* ---- start and key ---- */

static size_t do_start(struct mt_reader *r, const unsigned char *b, size_t n)
{
    if (n < 4)
        return 0;
    if (b[0] == '*') {
        r->state = RS_KEY;
    } else if (le32(b) == MT_MAGIC) {
        r->t->streaming = 1;
        r->state = RS_HEADER;
    } else {
        const char *what = mtrace_sniff_other(b, n);
        if (what)
            fail(r, ST_EUNKNOWN, "not an Android method trace: this is %s",
                 what);
        else
            fail(r, ST_EUNKNOWN, "not an Android method trace (does not "
                 "start with *version or SLOW)");
    }
    return 0;
}

static size_t do_key(struct mt_reader *r, const unsigned char *b, size_t n)
{
    size_t pos = 0;
    while (pos < n) {
        const unsigned char *nl = memchr(b + pos, '\n', n - pos);
        if (!nl) {
            if (n - pos > MT_MAX_LINE)
                fail(r, ST_ETOOBIG, "key line longer than %u bytes at "
                     "offset %llu", MT_MAX_LINE,
                     (unsigned long long)(r->off + pos));
            return pos;
        }
        size_t len = (size_t)(nl - (b + pos));
        char msg[200] = "";
        enum st_err e = mt_key_line(r->t, &r->kp, (const char *)b + pos, len,
                                    msg, sizeof(msg));
        if (e != ST_OK) {
            fail(r, e, "%s at offset %llu", msg[0] ? msg : st_strerror(e),
                 (unsigned long long)(r->off + pos));
            return pos;
        }
        pos += len + 1;
        if (r->kp.section == MT_SEC_END) {
            r->state = RS_HEADER;
            break;
        }
    }
    return pos;
}

/* ---- data header ---- */

static int is_v2_format(unsigned v)
{
    return v == 4 || v == 5 || v == 0xF4 || v == 0xF5;
}

static void header_done(struct mt_reader *r, const unsigned char *b)
{
    struct mt_tables *t = r->t;
    t->start_us = (int64_t)le64(b + 8);
    t->ncol = r->rs >= 14 ? 2 : 1;
    mt_tables_set_clocks(t);
    if (r->info) {
        r->info->version = t->version;
        r->info->streaming = t->streaming;
        r->info->dual_clock = t->ncol == 2;
        r->info->start_us = t->start_us;
    }
    r->state = t->streaming ? RS_STREAM : RS_RECORDS;
    ST_DBG(DBG_METHOD, "mtrace: version %#x, record size %u, %d column(s), "
           "start %lld", (unsigned)t->version, r->rs, t->ncol,
           (long long)t->start_us);
}

static int check_version(struct mt_reader *r, unsigned v, uint64_t at)
{
    struct mt_tables *t = r->t;
    if (is_v2_format(v)) {
        fail(r, ST_EUNSUPPORTED, "the new ART method-trace format (version "
             "%#x) is not supported, at offset %llu", v,
             (unsigned long long)at);
        return -1;
    }
    unsigned low = v & 0x0f;
    int ok = t->streaming ? (v == 0xF2 || v == 0xF3) : (v >= 1 && v <= 3);
    if (!ok) {
        if (t->streaming && v >= 1 && v <= 3)
            fail(r, ST_EFORMAT, "binary data without a key section (version "
                 "%u at offset %llu)", v, (unsigned long long)at);
        else
            fail(r, ST_EFORMAT, "unsupported data version %u (%#x) at offset "
                 "%llu: not a binary data section", v, v,
                 (unsigned long long)at);
        return -1;
    }
    if (!t->streaming && (int)v != t->key_version) {
        fail(r, ST_EFORMAT, "data version %u at offset %llu does not match "
             "the key's version %d", v, (unsigned long long)at,
             t->key_version);
        return -1;
    }
    t->version = (int)v;
    r->tidsz = low == 1 ? 1 : 2;
    r->rs = low == 1 ? 9 : 10;
    return 0;
}

static size_t do_header(struct mt_reader *r, const unsigned char *b, size_t n)
{
    uint64_t at = r->off;
    if (n < 4)
        return 0;
    if (le32(b) != MT_MAGIC) {
        fail(r, ST_EFORMAT, "no data header at offset %llu (found %02x %02x "
             "%02x %02x, expected \"SLOW\")", (unsigned long long)at,
             b[0], b[1], b[2], b[3]);
        return 0;
    }
    if (n < 16)
        return 0;
    unsigned v = le16(b + 4), hlen = le16(b + 6);
    if (check_version(r, v, at + 4) != 0)
        return 0;
    unsigned minlen = (v & 0x0f) == 3 ? 18 : 16;
    if (hlen < minlen || hlen > 4096) {
        fail(r, ST_EFORMAT, "bad record offset %u in data header at offset "
             "%llu", hlen, (unsigned long long)(at + 6));
        return 0;
    }
    if (n < hlen)
        return 0;
    if ((v & 0x0f) == 3) {
        unsigned rs = le16(b + 16);
        if (rs < 10 || rs > 64) {
            fail(r, ST_EFORMAT, "bad record size %u in data header at offset "
                 "%llu (binary data mangled?)", rs,
                 (unsigned long long)(at + 16));
            return 0;
        }
        r->rs = rs;
    }
    for (unsigned i = minlen; i < hlen; i++) {
        if (b[i]) {
            ST_DBG(DBG_METHOD, "mtrace: non-zero header padding at %llu",
                   (unsigned long long)(at + i));
            break;
        }
    }
    header_done(r, b);
    enum st_err e = r->sink.header ? r->sink.header(r->sink.ctx, r->t)
                                   : ST_OK;
    if (e != ST_OK)
        fail(r, e, "%s", st_strerror(e));
    return hlen;
}

/* ---- records ---- */

static int record(struct mt_reader *r, const unsigned char *b, uint64_t off)
{
    struct mt_rec rec;
    rec.tid = r->tidsz == 1 ? b[0] : le16(b);
    uint32_t mval = le32(b + r->tidsz);
    rec.t[0] = le32(b + r->tidsz + 4);
    rec.t[1] = r->t->ncol == 2 ? le32(b + r->tidsz + 8) : 0;
    rec.action = mval & 3;
    rec.off = off;
    uint32_t id = mval & ~3u;
    enum st_err e;
    if (id == MT_FILL_ID && mt_method_find(r->t, id) < 0) {
        warn(r, MTRACE_W_FILL, off);
        r->state = RS_STOP;
        return -1;
    }
    e = mt_method_ref(r->t, id, &rec.midx);
    if (e == ST_OK && r->info) {
        r->info->records++;
        if (rec.action == MT_A_UNROLL)
            r->info->unrolls++;
        if (r->t->m[rec.midx].flags & MT_M_UNKNOWN)
            r->info->warnings |= MTRACE_W_UNKNOWN;
    }
    if (e == ST_OK)
        e = r->sink.record(r->sink.ctx, &rec);
    if (e != ST_OK) {
        if (r->state != RS_ERROR)
            fail(r, e, "%s at offset %llu", st_strerror(e),
                 (unsigned long long)off);
        return -1;
    }
    return 0;
}

static size_t do_records(struct mt_reader *r, const unsigned char *b,
                         size_t n)
{
    size_t pos = 0, rs = r->rs;
    while (n - pos >= rs) {
        if (record(r, b + pos, r->off + pos) != 0)
            return r->state == RS_STOP ? n : pos;
        pos += rs;
    }
    return pos;
}

/* ---- streaming items ---- */

static int packet_text(struct mt_reader *r, const unsigned char *p,
                       size_t n, uint64_t off)
{
    struct mt_keyp kp = { .section = MT_SEC_NONE, .summary = 1,
                          .replay = r->replay };
    size_t pos = 0;
    while (pos < n) {
        const unsigned char *nl = memchr(p + pos, '\n', n - pos);
        size_t len = nl ? (size_t)(nl - (p + pos)) : n - pos;
        char msg[200] = "";
        enum st_err e = mt_key_line(r->t, &kp, (const char *)p + pos, len,
                                    msg, sizeof(msg));
        if (e != ST_OK) {
            fail(r, e, "%s in the summary at offset %llu",
                 msg[0] ? msg : st_strerror(e),
                 (unsigned long long)(off + pos));
            return -1;
        }
        pos += len + 1;
    }
    r->t->have_summary = 1;
    mt_tables_set_clocks(r->t);
    return 0;
}

/* One packet (u16 0 already seen at b); returns its size, 0 = need more. */
static size_t packet(struct mt_reader *r, const unsigned char *b, size_t n,
                     uint64_t off)
{
    if (n < 3)
        return 0;
    unsigned op = b[2];
    size_t hl = op == 1 ? 5 : 7;
    if (op < 1 || op > 3) {
        fail(r, ST_EFORMAT, "unknown streaming packet type %u at offset %llu",
             op, (unsigned long long)off);
        return 0;
    }
    if (n < hl)
        return 0;
    size_t len = op == 1 ? le16(b + 3) : op == 2 ? le16(b + 5) : le32(b + 3);
    if (len > MT_MAX_PACKET) {
        fail(r, ST_ETOOBIG, "streaming packet of %zu bytes at offset %llu",
             len, (unsigned long long)off);
        return 0;
    }
    if (n - hl < len)
        return 0;
    const char *p = (const char *)b + hl;
    enum st_err e = ST_OK;
    char msg[200] = "";
    if (op == 1 && !r->replay) {
        size_t l = len && p[len - 1] == '\n' ? len - 1 : len;
        e = mt_method_from_line(r->t, p, l, msg, sizeof(msg));
    } else if (op == 2 && !r->replay) {
        e = mt_thread_name(r->t, le16(b + 3), p, len, 1);
    } else if (op == 3) {
        if (packet_text(r, (const unsigned char *)p, len, off + hl) != 0)
            return 0;
        r->state = RS_DONE;
    }
    if (e != ST_OK) {
        fail(r, e, "%s in packet at offset %llu", msg[0] ? msg
             : st_strerror(e), (unsigned long long)off);
        return 0;
    }
    return hl + len;
}

static size_t do_stream(struct mt_reader *r, const unsigned char *b, size_t n)
{
    size_t pos = 0;
    while (r->state == RS_STREAM && n - pos >= 2) {
        size_t used;
        if (le16(b + pos) != 0) {
            if (n - pos < r->rs)
                break;
            if (record(r, b + pos, r->off + pos) != 0)
                return r->state == RS_STOP ? n : pos;
            used = r->rs;
        } else {
            used = packet(r, b + pos, n - pos, r->off + pos);
            if (used == 0)
                break;
        }
        pos += used;
    }
    return pos;
}

/* Decode what can be decoded; returns the bytes consumed. */
static size_t process(struct mt_reader *r, const unsigned char *b, size_t n)
{
    size_t pos = 0;
    for (;;) {
        int before = r->state;
        size_t used = 0;
        switch (r->state) {
        case RS_START: used = do_start(r, b + pos, n - pos); break;
        case RS_KEY: used = do_key(r, b + pos, n - pos); break;
        case RS_HEADER: used = do_header(r, b + pos, n - pos); break;
        case RS_RECORDS: used = do_records(r, b + pos, n - pos); break;
        case RS_STREAM: used = do_stream(r, b + pos, n - pos); break;
        case RS_DONE:
            if (n > pos)
                warn(r, MTRACE_W_TRAILING, r->off + pos);
            used = n - pos;
            break;
        case RS_STOP: used = n - pos; break;
        default: return pos;
        }
        pos += used;
        r->off += used;
        if (r->state == before || r->state == RS_ERROR)
            return pos;
    }
}

enum st_err mt_reader_feed(struct mt_reader *r, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0 && r->state != RS_ERROR) {
        if (r->carry.len == 0) {
            size_t used = process(r, b, n);
            b += used;
            n -= used;
            if (n && r->state != RS_ERROR &&
                dynbuf_add(&r->carry, b, n) != ST_OK)
                return fail(r, ST_ETOOBIG, "item too large at offset %llu",
                            (unsigned long long)r->off);
            break;
        }
        /* Complete the pending item, doubling what is added so a long
         * item costs linear time; then go back to the caller's buffer. */
        size_t take = r->carry.len < 4096 ? 4096 : r->carry.len;
        if (take > n)
            take = n;
        if (dynbuf_add(&r->carry, b, take) != ST_OK)
            return fail(r, ST_ETOOBIG, "item too large at offset %llu",
                        (unsigned long long)r->off);
        b += take;
        n -= take;
        size_t used = process(r, (const unsigned char *)r->carry.data,
                              r->carry.len);
        dynbuf_consume(&r->carry, used);
    }
    return r->state == RS_ERROR ? r->e : ST_OK;
}

enum st_err mt_reader_finish(struct mt_reader *r)
{
    if (r->state == RS_ERROR)
        return r->e;
    size_t left = r->carry.len;
    unsigned long long at = (unsigned long long)r->off;
    switch (r->state) {
    case RS_START:
        if (left == 0)
            return fail(r, ST_ENOTRACE, "empty file");
        return fail(r, ST_ENOTRACE, "too short to be a method trace (%zu "
                    "bytes)", left);
    case RS_KEY:
        return fail(r, ST_ETRUNCATED, "key section ends without *end at "
                    "offset %llu", at + left);
    case RS_HEADER:
        if (left == 0 && !r->t->streaming)
            return fail(r, ST_ENOTRACE, "key section only, no data after "
                        "*end at offset %llu", at);
        return fail(r, ST_ETRUNCATED, "truncated data header at offset %llu",
                    at);
    case RS_RECORDS:
    case RS_STREAM:
        if (left)
            warn(r, MTRACE_W_TRUNCATED, at);
        if (r->state == RS_STREAM)
            warn(r, MTRACE_W_NO_SUMMARY, at + left);
        break;
    default:
        break;
    }
    if (r->t->overflow)
        warn(r, MTRACE_W_OVERFLOW, 0);
    return ST_OK;
}
