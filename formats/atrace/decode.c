/*
 * atrace dump decoder; see decode.h.  The stages run in catapult's order,
 * each written as a function that takes a chunk and passes on what it can
 * decide so far:
 *
 *   marker -> head (notice, CR LF mode) -> crlf -> lead (one LF, "# tracer"
 *   sniff) -> inflate or copy -> text (CR removal, leading LFs) -> out
 *
 * Lookahead is at most a few dozen bytes, so memory does not grow with the
 * trace.  Deviation from catapult: a truncated zlib stream keeps what
 * decoded (catapult discards everything) and reports ST_ETRUNCATED.
 */
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/esctext.h"

#define MARKER "TRACE:"
#define MARKER_LEN 6
#define NOTICE_DONE "capturing trace... done"
#define NOTICE "capturing trace..."
#define HEAD_NEED 32        /* enough for the notice and a CR CR LF */
#define TRACER "# tracer"
#define ZCHUNK (256 * 1024)

enum phase { PH_MARKER, PH_HEAD, PH_BODY };

struct decoder {
    enum decode_mode mode;
    st_write_fn out;
    void *ctx;
    enum phase ph;
    size_t mk;                  /* bytes of MARKER matched so far */
    char pre[256];              /* start of what came before the marker */
    size_t prelen;
    unsigned char head[HEAD_NEED];
    size_t headlen;
    int crlf;                   /* 0 none, 1 CR LF, 2 CR CR LF */
    unsigned char hold[2];      /* CRs that may start a CR LF */
    size_t holdlen;
    unsigned char lead[16];     /* for the "# tracer" sniff */
    size_t leadlen;
    int lead_done, lead_nl_checked;
    int compressed;
    z_stream z;
    int zinit, zend;
    unsigned char *zbuf;
    int text_started;           /* a non-LF byte has been written */
    uint64_t in, outn, zin;
    char detail[256];
};

struct decoder *decoder_new(enum decode_mode mode, st_write_fn out, void *ctx)
{
    struct decoder *d = calloc(1, sizeof(*d));
    if (!d)
        return NULL;
    d->mode = mode;
    d->out = out;
    d->ctx = ctx;
    d->ph = mode == DECODE_TEXT ? PH_BODY : PH_MARKER;
    d->lead_done = mode == DECODE_TEXT;
    return d;
}

void decoder_free(struct decoder *d)
{
    if (!d)
        return;
    if (d->zinit)
        inflateEnd(&d->z);
    free(d->zbuf);
    free(d);
}

/* Last stage: drop every CR and the LFs before the first other byte. */
static enum st_err text_out(struct decoder *d, const unsigned char *p, size_t n)
{
    while (n) {
        if (!d->text_started) {
            while (n && (*p == '\n' || *p == '\r')) {
                p++;
                n--;
            }
            if (!n)
                break;
            d->text_started = 1;
        }
        const unsigned char *cr = memchr(p, '\r', n);
        size_t run = cr ? (size_t)(cr - p) : n;
        if (run) {
            enum st_err e = d->out(d->ctx, p, run);
            if (e)
                return e;
            d->outn += run;
        }
        if (!cr)
            break;
        p += run + 1;
        n -= run + 1;
    }
    return ST_OK;
}

static enum st_err inflate_chunk(struct decoder *d, const unsigned char *p, size_t n)
{
    if (d->zend)
        return ST_OK;   /* bytes after the zlib stream are ignored */
    if (!d->zinit) {
        d->zbuf = malloc(ZCHUNK);
        if (!d->zbuf || inflateInit(&d->z) != Z_OK)
            return ST_ENOMEM;
        d->zinit = 1;
    }
    d->z.next_in = (unsigned char *)p;
    d->z.avail_in = (uInt)n;
    while (d->z.avail_in && !d->zend) {
        d->z.next_out = d->zbuf;
        d->z.avail_out = ZCHUNK;
        uInt before = d->z.avail_in;
        int r = inflate(&d->z, Z_NO_FLUSH);
        d->zin += before - d->z.avail_in;
        if (r == Z_STREAM_END)
            d->zend = 1;
        else if (r != Z_OK && r != Z_BUF_ERROR) {
            snprintf(d->detail, sizeof(d->detail),
                     "corrupt compressed trace (zlib: %s) at compressed byte %llu",
                     d->z.msg ? d->z.msg : "error", (unsigned long long)d->zin);
            return r == Z_MEM_ERROR ? ST_ENOMEM : ST_EZLIB;
        }
        enum st_err e = text_out(d, d->zbuf, ZCHUNK - d->z.avail_out);
        if (e)
            return e;
    }
    return ST_OK;
}

static enum st_err body_out(struct decoder *d, const unsigned char *p, size_t n)
{
    return d->compressed ? inflate_chunk(d, p, n) : text_out(d, p, n);
}

/* catapult inflates whatever does not start with "# tracer"; we also take
 * text that cannot be a zlib header (event lines without the ftrace
 * header) as text instead of failing on it. */
static int plain_text_lead(const unsigned char *p, size_t n)
{
    if (n < 2)
        return 0;
    if ((p[0] & 0x0f) == 8 && ((unsigned)p[0] * 256 + p[1]) % 31 == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\t' && p[i] != '\r')
            return 0;
    return 1;
}

/* Drop one leading LF, then decide between text and zlib. */
static enum st_err lead_stage(struct decoder *d, const unsigned char *p, size_t n,
                              int final)
{
    if (d->lead_done)
        return body_out(d, p, n);
    if (!d->lead_nl_checked && n) {
        d->lead_nl_checked = 1;
        if (*p == '\n') {
            p++;
            n--;
        }
    }
    size_t take = sizeof(TRACER) - 1 - d->leadlen;
    if (take > n)
        take = n;
    if (take)
        memcpy(d->lead + d->leadlen, p, take);
    d->leadlen += take;
    p += take;
    n -= take;
    if (d->leadlen < sizeof(TRACER) - 1 && !final)
        return ST_OK;
    d->lead_done = 1;
    d->compressed = (d->leadlen < sizeof(TRACER) - 1 ||
                     memcmp(d->lead, TRACER, sizeof(TRACER) - 1) != 0) &&
                    !plain_text_lead(d->lead, d->leadlen);
    enum st_err e = body_out(d, d->lead, d->leadlen);
    return e ? e : body_out(d, p, n);
}

/* Replace CR LF (or CR CR LF) by LF across chunk boundaries. */
static enum st_err crlf_stage(struct decoder *d, const unsigned char *p, size_t n,
                              int final)
{
    if (!d->crlf)
        return lead_stage(d, p, n, final);
    size_t ncr = (size_t)d->crlf;    /* CRs before the LF */
    unsigned char tmp[4096];
    size_t t = 0;
    enum st_err e;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == '\r' && d->holdlen < ncr) {
            d->hold[d->holdlen++] = c;
            continue;
        }
        if (c == '\n' && d->holdlen == ncr) {
            d->holdlen = 0;
        } else {
            /* not a full CR..LF: the held CRs are ordinary bytes */
            size_t keep = d->holdlen;
            if (c == '\r') {        /* hold is full: oldest CR goes out */
                keep = 1;
            }
            for (size_t k = 0; k < keep; k++)
                tmp[t++] = '\r';
            d->holdlen -= keep;
            if (c == '\r') {
                d->hold[d->holdlen++] = c;
                goto maybe_flush;
            }
        }
        tmp[t++] = c;
    maybe_flush:
        if (t > sizeof(tmp) - 4) {
            if ((e = lead_stage(d, tmp, t, 0)))
                return e;
            t = 0;
        }
    }
    if (final) {
        for (size_t k = 0; k < d->holdlen; k++)
            tmp[t++] = '\r';
        d->holdlen = 0;
    }
    return lead_stage(d, tmp, t, final);
}

static int starts(const unsigned char *p, size_t n, const char *s)
{
    size_t l = strlen(s);
    return n >= l && !memcmp(p, s, l);
}

/* Collect the first bytes after the marker, drop the capture notice and
 * pick the line-ending rule, then stream on. */
static enum st_err head_stage(struct decoder *d, const unsigned char *p, size_t n,
                              int final)
{
    if (d->ph == PH_BODY)
        return crlf_stage(d, p, n, final);
    size_t take = HEAD_NEED - d->headlen;
    if (take > n)
        take = n;
    if (take)
        memcpy(d->head + d->headlen, p, take);
    d->headlen += take;
    p += take;
    n -= take;
    if (d->headlen < HEAD_NEED && !final)
        return ST_OK;
    d->ph = PH_BODY;
    const unsigned char *h = d->head;
    size_t hl = d->headlen;
    if (starts(h, hl, NOTICE_DONE)) {
        h += strlen(NOTICE_DONE);
        hl -= strlen(NOTICE_DONE);
    } else if (starts(h, hl, NOTICE)) {
        h += strlen(NOTICE);
        hl -= strlen(NOTICE);
    }
    if (starts(h, hl, "\r\n"))
        d->crlf = 1;
    else if (starts(h, hl, "\r\r\n"))
        d->crlf = 2;
    enum st_err e = crlf_stage(d, h, hl, final && !n);
    return e ? e : crlf_stage(d, p, n, final);
}

static void keep_preamble(struct decoder *d, const unsigned char *p, size_t n)
{
    size_t room = sizeof(d->pre) - 1 - d->prelen;
    if (n > room)
        n = room;
    memcpy(d->pre + d->prelen, p, n);
    d->prelen += n;
    d->pre[d->prelen] = '\0';
}

static enum st_err marker_stage(struct decoder *d, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == (unsigned char)MARKER[d->mk]) {
            if (++d->mk == MARKER_LEN) {
                d->ph = PH_HEAD;
                return head_stage(d, p + i + 1, n - i - 1, 0);
            }
        } else {
            d->mk = p[i] == (unsigned char)MARKER[0] ? 1 : 0;
        }
    }
    keep_preamble(d, p, n);
    return ST_OK;
}

enum st_err decoder_feed(struct decoder *d, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    d->in += n;
    switch (d->ph) {
    case PH_MARKER:
        return marker_stage(d, p, n);
    case PH_HEAD:
        return head_stage(d, p, n, 0);
    default:
        return d->mode == DECODE_TEXT ? text_out(d, p, n) : crlf_stage(d, p, n, 0);
    }
}

static void describe_preamble(struct decoder *d)
{
    /* Say what came instead of a trace: often atrace's own error. */
    char *s = d->pre;
    while (*s == '\n' || *s == '\r' || *s == ' ')
        s++;
    size_t l = strcspn(s, "\r\n");
    if (l > 160)
        l = 160;
    char shown[200];    /* outside bytes: no terminal controls */
    esc_text(shown, sizeof(shown), s, l, 0);
    if (l)
        snprintf(d->detail, sizeof(d->detail),
                 "no TRACE: marker in the data; it starts with \"%s\"", shown);
    else
        snprintf(d->detail, sizeof(d->detail), "no TRACE: marker in the data");
}

enum st_err decoder_finish(struct decoder *d)
{
    enum st_err e = ST_OK;
    if (d->ph == PH_MARKER) {
        describe_preamble(d);
        return ST_ENOTRACE;
    }
    if (d->mode == DECODE_ATRACE)
        e = head_stage(d, (const unsigned char *)"", 0, 1);
    if (e)
        return e;
    if (d->compressed && !d->zend) {
        if (d->outn == 0 && d->zin == 0) {
            snprintf(d->detail, sizeof(d->detail), "no trace data after the TRACE: marker");
            return ST_ENOTRACE;
        }
        snprintf(d->detail, sizeof(d->detail),
                 "compressed trace is truncated after %llu bytes; "
                 "kept the %llu bytes of text that decoded",
                 (unsigned long long)d->zin, (unsigned long long)d->outn);
        return ST_ETRUNCATED;
    }
    if (d->outn == 0) {
        snprintf(d->detail, sizeof(d->detail), "the trace is empty");
        return ST_ENOTRACE;
    }
    return ST_OK;
}

const char *decoder_detail(const struct decoder *d)
{
    return d->detail;
}

int decoder_compressed(const struct decoder *d)
{
    return d->compressed;
}

uint64_t decoder_bytes_in(const struct decoder *d)
{
    return d->in;
}

uint64_t decoder_bytes_out(const struct decoder *d)
{
    return d->outn;
}
