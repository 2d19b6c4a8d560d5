/*
 * `--from-file` conversion; see fromfile.h.  One read loop (fromfile_read.c)
 * feeds a chain chosen after sniffing the first SNIFF_MAX bytes:
 *
 *   input -> [gunzip] -> sniff -> decoder -> repair -> guard -> tracewriter part
 *                              -> htmlx -> per block: [decoder -> repair] -> guard
 *                                          -> part, or the block as it is
 *                              -> JSON scanner (fromfile_json.c) -> part(s)
 *                              -> Perfetto reader (fromfile_pf.c) -> dump, text parts
 *
 * At the end, a result without one trace event (an ftrace event line, a
 * trace-event JSON element, a method call) is refused: it would open as a
 * blank page.
 */
#include "fromfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/astage.h"
#include "decode.h"
#include "lib/dynbuf.h"
#include "fromfile_int.h"
#include "ftrace_norm.h"
#include "htmlextract.h"
#include "formats/mtrace/mtrace.h"
#include "formats/perfetto/pftrace.h"
#include "repair.h"

#define SNIFF_MAX (64 * 1024)
#define READ_CHUNK (1024 * 1024)
#define BLOCK_HEAD 256

static const struct repair_opts file_repair = {.circular = 1, .add_header = 1};

static int starts(const unsigned char *p, size_t n, const char *s)
{
    size_t l = strlen(s);
    return n >= l && !memcmp(p, s, l);
}

static int is_zlib_header(const unsigned char *p, size_t n)
{
    return n >= 2 && (p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 &&
           ((unsigned)p[0] * 256 + p[1]) % 31 == 0;
}

static int control_bytes(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t')
            return 1;
    return 0;
}

enum ff_kind fromfile_sniff(const unsigned char *p, size_t n, int at_eof)
{
    (void)at_eof;
    if (!n)
        return FF_UNKNOWN;
    if (starts(p, n, "*version") || starts(p, n, "SLOW"))
        return FF_METHODTRACE;
    if (pftrace_sniff(p, n) && control_bytes(p, n < 512 ? n : 512))
        return FF_PERFETTO;
    if (is_zlib_header(p, n))
        return FF_ZLIB;
    size_t i = starts(p, n, "\xef\xbb\xbf") ? 3 : 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    const unsigned char *q = p + i;
    size_t qn = n - i;
    if (qn && q[0] == '<')
        return FF_HTML;
    /* before the event-line test: a one-line JSON file holds event lines
     * (catapult's -j form); JSON text has no control bytes but blanks */
    if (qn && (q[0] == '{' || q[0] == '[') && !control_bytes(q, qn))
        return FF_JSON;
    const unsigned char *nl = memchr(q, '\n', qn);
    size_t line = nl ? (size_t)(nl - q) : qn;
    if (qn && (q[0] == '#' || tguard_is_event_line(q, line)))
        return FF_TEXT;
    for (size_t k = 0; k + 6 <= n; k++)
        if (p[k] == 'T' && !memcmp(p + k, "TRACE:", 6))
            return FF_ATRACE;
    if (memchr(p, '\0', n))
        return FF_BINARY;
    return FF_UNKNOWN;
}

const char *fromfile_kind_name(enum ff_kind k)
{
    static const char *const names[] = {
        "unknown", "atrace dump", "zlib-compressed atrace text", "ftrace text",
        "systrace HTML", "JSON trace", "method trace", "binary data", "Perfetto trace",
    };
    return (unsigned)k < sizeof(names) / sizeof(*names) ? names[k] : "?";
}

/* ---- atrace / text chain ------------------------------------------ */

enum st_err ff_chain_new(struct ff *f, int text)
{
    static const struct fnorm_opts auto_flags = {.flags = FNORM_AUTO};
    f->text_parts++;
    tguard_begin(f->guard, 1);
    f->rep = repair_new(&file_repair, &f->gts);
    f->norm = f->rep ? fnorm_new(&auto_flags, repair_write, f->rep) : NULL;
    f->as = f->norm ? astage_new(fnorm_write, f->norm) : NULL;
    f->dec = f->as ? decoder_new(text ? DECODE_TEXT : DECODE_ATRACE, astage_write, f->as)
                   : NULL;
    return f->dec ? ST_OK : ST_ENOMEM;
}

void ff_chain_free(struct ff *f)
{
    decoder_free(f->dec);
    astage_free(f->as);     /* its thread still calls into norm and rep */
    fnorm_free(f->norm);
    repair_free(f->rep);
    f->dec = NULL;
    f->as = NULL;
    f->norm = NULL;
    f->rep = NULL;
}

/* The guard's word on an over-long line wins: it is why the chain stopped. */
static enum st_err chain_error(struct ff *f, enum st_err e)
{
    if (e == ST_ETOOBIG && tguard_detail(f->guard)[0])
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", tguard_detail(f->guard));
    return e;
}

static enum st_err chain_end(struct ff *f)
{
    enum st_err e = decoder_finish(f->dec), e2;
    if ((!e || e == ST_ETRUNCATED) && (e2 = astage_finish(f->as)))
        return chain_error(f, e2);
    if (e && e != ST_ETRUNCATED) {
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", decoder_detail(f->dec));
        return e;
    }
    if (e == ST_ETRUNCATED) {
        f->res->truncated = 1;
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", decoder_detail(f->dec));
    }
    f->res->text_bytes += decoder_bytes_out(f->dec);
    if ((e2 = fnorm_finish(f->norm)) || (e2 = repair_finish(f->rep)))
        return chain_error(f, e2);
    tguard_end(f->guard);
    return tw_end(f->w);
}

enum st_err ff_chain_finish(struct ff *f)
{
    enum st_err e = chain_end(f);
    ff_chain_free(f);
    return e;
}

enum st_err ff_chain_feed(struct ff *f, const void *p, size_t n)
{
    return chain_error(f, decoder_feed(f->dec, p, n));
}

/* ---- parts copied as they are --------------------------------------- */

static int is_json_part(const char *name)
{
    return !strcmp(name, "traceEvents") || !strcmp(name, "systraceController");
}

enum st_err ff_verbatim_begin(struct ff *f, const char *name)
{
    enum st_err e = tw_begin(f->w, name);
    if (e)
        return e;
    f->res->parts++;
    f->vguard = !is_json_part(name);
    if (f->vguard)
        tguard_begin(f->guard, 0);
    if (!strcmp(name, "traceEvents") && !(f->vcount = jscan_new(JSCAN_COUNT, NULL)))
        return ST_ENOMEM;
    return ST_OK;
}

enum st_err ff_verbatim_write(struct ff *f, const void *p, size_t n)
{
    f->res->text_bytes += n;
    /* the page held this part as it is: count its events, do not judge it */
    if (f->vcount && jscan_feed(f->vcount, p, n)) {
        f->json_events += jscan_events(f->vcount);
        jscan_free(f->vcount);
        f->vcount = NULL;
    }
    if (f->vguard)
        return chain_error(f, tguard_write(f->guard, p, n));
    return tw_write(f->w, p, n);
}

enum st_err ff_verbatim_end(struct ff *f)
{
    if (f->vcount) {
        jscan_finish(f->vcount);
        f->json_events += jscan_events(f->vcount);
        jscan_free(f->vcount);
        f->vcount = NULL;
    }
    if (f->vguard)
        tguard_end(f->guard);
    f->vguard = 0;
    return tw_end(f->w);
}

/* ---- HTML blocks ---------------------------------------------------- */

static const char *block_name(const unsigned char *p, size_t n, int *verbatim)
{
    *verbatim = 1;
    if (starts(p, n, "PROCESS DUMP"))
        return "androidProcessDump";
    const unsigned char *nl = memchr(p, '\n', n);
    if (nl && starts(nl + 1, n - (size_t)(nl + 1 - p), "CGROUP DUMP"))
        return "cgroupDump";
    if (n && (p[0] == '{' || p[0] == '[')) {
        for (size_t i = 0; i + 12 <= n; i++)
            if (!memcmp(p + i, "clock-domain", 12))
                return "systraceController";
        return "traceEvents";
    }
    *verbatim = 0;
    return "systemTraceEvents";
}

static enum st_err block_begin(void *ctx)
{
    struct ff *f = ctx;
    dynbuf_reset(&f->bhead);
    f->bdecided = 0;
    return ST_OK;
}

static enum st_err block_decide(struct ff *f)
{
    f->bdecided = 1;
    const char *name = block_name((const unsigned char *)dynbuf_str(&f->bhead),
                                  f->bhead.len, &f->bverbatim);
    if (f->bverbatim) {
        enum st_err e = ff_verbatim_begin(f, name);
        return e ? e : ff_verbatim_write(f, f->bhead.data, f->bhead.len);
    }
    f->res->parts++;
    enum st_err e = tw_begin(f->w, name);
    if (!e)
        e = ff_chain_new(f, 1);
    return e ? e : ff_chain_feed(f, f->bhead.data, f->bhead.len);
}

static enum st_err block_data(void *ctx, const void *p, size_t n)
{
    struct ff *f = ctx;
    if (!f->bdecided) {
        size_t take = BLOCK_HEAD - f->bhead.len;
        if (take > n)
            take = n;
        enum st_err e = dynbuf_add(&f->bhead, p, take);
        if (e || f->bhead.len < BLOCK_HEAD)
            return e;
        if ((e = block_decide(f)))
            return e;
        p = (const char *)p + take;
        n -= take;
    }
    if (f->bverbatim)
        return ff_verbatim_write(f, p, n);
    return ff_chain_feed(f, p, n);
}

static enum st_err block_end(void *ctx)
{
    struct ff *f = ctx;
    enum st_err e = ST_OK;
    if (!f->bdecided) {
        if (!f->bhead.len)
            return ST_OK;   /* an empty block adds nothing */
        if ((e = block_decide(f)))
            return e;
    }
    f->bdecided = 0;
    if (f->bverbatim)
        return ff_verbatim_end(f);
    e = ff_chain_finish(f);
    /* a block of nothing but blank lines is not worth failing for */
    return e == ST_ENOTRACE ? tw_end(f->w) : e;
}

/* ---- dispatch ------------------------------------------------------- */

static int blank_only(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
            return 0;
    return 1;
}

static enum st_err unknown(struct ff *f, const unsigned char *p)
{
    const char *other = mtrace_sniff_other(p, f->sniff.len);
    if (blank_only(p, f->sniff.len)) {
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "it is empty apart from blank lines");
        return ST_ENOTRACE;
    }
    if (other && p[0] == 0x0a)
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "malformed Perfetto trace: its first packet cannot be read");
    else if (other)
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "unknown format: this is %s, which systrace does not read", other);
    else
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "unknown format: not atrace output (no TRACE: marker), ftrace text, "
                 "a systrace HTML page, JSON, a Perfetto trace or a method trace");
    return ST_EUNKNOWN;
}

static enum st_err decide(struct ff *f, int at_eof)
{
    const unsigned char *p = (const unsigned char *)dynbuf_str(&f->sniff);
    enum ff_kind k = fromfile_sniff(p, f->sniff.len, at_eof);
    f->res->kind = k;
    f->decided = 1;
    enum st_err e = ST_OK;
    switch (k) {
    case FF_ATRACE:
    case FF_TEXT:
    case FF_ZLIB:
        f->res->parts = 1;
        if ((e = tw_begin(f->w, "systemTraceEvents")) || (e = ff_chain_new(f, k == FF_TEXT)))
            return e;
        if (k == FF_ZLIB)
            e = decoder_feed(f->dec, "TRACE:\n", 7);
        return e;
    case FF_HTML: {
        struct htmlx_cb cb = {block_begin, block_data, block_end, f};
        f->hx = htmlx_new(&cb);
        return f->hx ? ST_OK : ST_ENOMEM;
    }
    case FF_JSON:
        return ff_json_begin(f, p, f->sniff.len);
    case FF_PERFETTO:
        return ff_pf_begin(f);
    case FF_METHODTRACE:
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "a compressed method trace: decompress it first (gunzip)");
        return ST_EUNSUPPORTED;
    default:
        return unknown(f, p);
    }
}

static enum st_err route(struct ff *f, const void *p, size_t n)
{
    if (f->hx)
        return htmlx_feed(f->hx, p, n);
    if (f->js)
        return ff_json_feed(f, p, n);
    if (f->pf)
        return ff_pf_feed(f, p, n);
    return ff_chain_feed(f, p, n);
}

static enum st_err data_in(void *ctx, const void *p, size_t n)
{
    struct ff *f = ctx;
    if (f->decided)
        return route(f, p, n);
    size_t take = SNIFF_MAX - f->sniff.len;
    if (take > n)
        take = n;
    enum st_err e = dynbuf_add(&f->sniff, p, take);
    if (e || f->sniff.len < SNIFF_MAX)
        return e;
    if ((e = decide(f, 0)) || (e = route(f, f->sniff.data, f->sniff.len)))
        return e;
    return route(f, (const char *)p + take, n - take);
}

/* ---- gunzip (also concatenated members) ------------------------------ */

static enum st_err gunzip(struct ff *f, const unsigned char *p, size_t n)
{
    if (!f->gz_init) {
        f->gzbuf = malloc(READ_CHUNK);
        if (!f->gzbuf || inflateInit2(&f->gz, 15 + 16) != Z_OK)
            return ST_ENOMEM;
        f->gz_init = 1;
    }
    f->gz.next_in = (unsigned char *)p;
    f->gz.avail_in = (uInt)n;
    while (f->gz.avail_in) {
        if (f->gz_end) {        /* another gzip member follows */
            if (f->gz.next_in[0] != 0x1f)
                return ST_OK;   /* trailing garbage, as gzip -d ignores */
            f->gz_base += f->gz.total_in;     /* inflateReset zeroes total_in */
            inflateReset(&f->gz);
            f->gz_end = 0;
        }
        f->gz.next_out = f->gzbuf;
        f->gz.avail_out = READ_CHUNK;
        int r = inflate(&f->gz, Z_NO_FLUSH);
        if (r == Z_STREAM_END)
            f->gz_end = 1;
        else if (r != Z_OK && r != Z_BUF_ERROR) {
            snprintf(f->res->detail, sizeof(f->res->detail),
                     "corrupt gzip data (zlib: %s) at byte %llu",
                     f->gz.msg ? f->gz.msg : "error",
                     (unsigned long long)(f->gz_base + f->gz.total_in));
            return ST_EZLIB;
        }
        enum st_err e = data_in(f, f->gzbuf, READ_CHUNK - f->gz.avail_out);
        if (e)
            return e;
    }
    return ST_OK;
}

static enum st_err input(struct ff *f, const unsigned char *p, size_t n)
{
    int first = f->res->bytes_in == 0;
    f->res->bytes_in += n;
    if (first && n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        f->gz_on = f->res->gzipped = 1;
    return f->gz_on ? gunzip(f, p, n) : data_in(f, p, n);
}

/* ---- the end ------------------------------------------------------------ */

/* A trace without a single event would open as a blank page. */
static enum st_err check_events(struct ff *f)
{
    if (tguard_events(f->guard) || f->json_events)
        return ST_OK;
    const char *other = tguard_other_line(f->guard);
    char *d = f->res->detail;
    size_t dn = sizeof(f->res->detail);
    if (f->text_parts && other[0])
        snprintf(d, dn, "no trace events found: no line of the trace text is an ftrace "
                        "event (the first that is not a comment: \"%s\")", other);
    else if (f->text_parts && !tguard_bytes(f->guard))
        snprintf(d, dn, "no trace events found: the trace text is empty");
    else if (f->text_parts)
        snprintf(d, dn, "no trace events found: the trace text holds only its header "
                        "and comments");
    else if (f->res->kind == FF_JSON)
        snprintf(d, dn, "no trace events found: the JSON has no traceEvents list, or an "
                        "empty one, and no systemTraceEvents text");
    else
        snprintf(d, dn, "no trace events found: the trace blocks hold no events");
    return ST_ENOTRACE;
}

static enum st_err finish_html(struct ff *f)
{
    enum st_err e = htmlx_finish(f->hx);
    if (e == ST_ENOTRACE)
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "HTML file without trace data (no trace-data or linuxPerfData block)");
    if (e == ST_ETRUNCATED) {
        f->res->truncated = 1;
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "HTML ends inside a trace block; kept what was there");
        e = ST_OK;
    }
    if (!e && f->res->parts == 0) {
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "HTML file whose trace blocks are all empty");
        e = ST_ENOTRACE;
    }
    return e;
}

static enum st_err finish(struct ff *f)
{
    enum st_err e = ST_OK;
    if (f->res->bytes_in == 0) {
        snprintf(f->res->detail, sizeof(f->res->detail), "it is empty");
        return ST_ENOTRACE;
    }
    if (f->gz_on && !f->gz_end) {
        f->res->truncated = 1;
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "gzip data is truncated; kept what decoded");
    }
    if (!f->decided && (e = decide(f, 1)))
        return e;
    if (f->sniff.len < SNIFF_MAX && f->sniff.len &&
        (e = route(f, f->sniff.data, f->sniff.len)))
        return e;
    if (f->hx)
        e = finish_html(f);
    else if (f->js)
        e = ff_json_finish(f);
    else if (f->pf)
        e = ff_pf_finish(f);
    else if (f->dec)
        e = ff_chain_finish(f);
    return e ? e : check_events(f);
}

static void ff_free(struct ff *f)
{
    if (f->gz_init)
        inflateEnd(&f->gz);
    free(f->gzbuf);
    ff_chain_free(f);
    htmlx_free(f->hx);
    ff_json_free(f);
    ff_pf_free(f);
    jscan_free(f->vcount);
    tguard_free(f->guard);
    dynbuf_free(&f->sniff);
    dynbuf_free(&f->bhead);
}

static enum st_err ff_init(struct ff *f, const char *path, struct tracewriter *w,
                          struct ff_result *res)
{
    memset(res, 0, sizeof(*res));
    memset(f, 0, sizeof(*f));
    f->w = w;
    f->res = res;
    f->path = path;
    tw_text_sink(w, &f->ts);
    dynbuf_init(&f->sniff, SNIFF_MAX);
    dynbuf_init(&f->bhead, BLOCK_HEAD);
    f->guard = tguard_new(&f->ts, 0);
    if (!f->guard)
        return ST_ENOMEM;
    tguard_sink(f->guard, &f->gts);
    return ST_OK;
}

/* The end of a conversion: what it kept, and cut input said. */
static enum st_err ff_done(struct ff *f, enum st_err e)
{
    f->res->cut_lines = tguard_cut_lines(f->guard);
    if (!e && f->res->truncated)
        e = ST_ETRUNCATED;
    return e;
}

enum st_err fromfile_convert(const char *path, struct tracewriter *w,
                             struct ff_result *res)
{
    struct ff f;
    enum st_err e = ff_init(&f, path, w, res);
    if (e)
        return e;
    struct ff_input in = {.f = &f, .input = input};
    e = ff_read(path, &in);
    if (!e && !in.method)
        e = finish(&f);
    e = ff_done(&f, e);
    ff_free(&f);
    return e;
}

struct ff_push {
    struct ff f;
    struct ff_result res;
    enum st_err err;
};

enum st_err ff_push_new(struct tracewriter *w, int flags, struct ff_push **out)
{
    struct ff_push *p = calloc(1, sizeof(*p));
    *out = p;
    if (!p)
        return ST_ENOMEM;
    enum st_err e = ff_init(&p->f, NULL, w, &p->res);
    p->f.pf_live = !!(flags & FF_PUSH_HOLE);
    return e;
}

enum st_err ff_push(struct ff_push *p, const void *data, size_t n)
{
    if (!p->err && n)
        p->err = input(&p->f, data, n);
    return p->err;
}

enum st_err ff_push_finish(struct ff_push *p)
{
    if (!p->err)
        p->err = finish(&p->f);
    return ff_done(&p->f, p->err);
}

const struct ff_result *ff_push_result(const struct ff_push *p)
{
    return &p->res;
}

void ff_push_free(struct ff_push *p)
{
    if (!p)
        return;
    ff_free(&p->f);
    free(p);
}
