/*
 * `--from-file`'s router; see fromfile.h.  One read loop (fromfile_read.c)
 * feeds the reader chosen after sniffing the first SNIFF_MAX bytes, each
 * called through one interface (struct ff_reader):
 *
 *   input -> [gunzip] -> sniff -> text (fromfile_html.c): the ftrace chain
 *                              -> HTML (fromfile_html.c): per block the
 *                                 chain, or the block as it is
 *                              -> JSON (fromfile_json.c): part(s)
 *                              -> Perfetto (fromfile_pf.c): dump, text parts
 *
 * The readers write through fromfile_parts.c (the ftrace chain, parts as
 * they are) and know nothing of the router.  Method traces have a reader
 * of their own (formats/mtrace), which the read loop hands the file to.
 * At the end, a result without one trace event (an ftrace event line, a
 * trace-event JSON element, a method call) is refused: it would open as a
 * blank page.
 */
#include "fromfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats/mtrace/mtrace.h"
#include "formats/perfetto/pftrace.h"
#include "fromfile_int.h"
#include "lib/dynbuf.h"

#define SNIFF_MAX (64 * 1024)
#define READ_CHUNK (1024 * 1024)

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
    const struct ff_reader *r = NULL;
    if (f->text_only && k != FF_ATRACE && k != FF_TEXT && k != FF_ZLIB)
        return ff_not_text(f);
    switch (k) {
    case FF_ATRACE:
    case FF_TEXT:
    case FF_ZLIB:
        r = &ff_text_reader;
        break;
    case FF_HTML:
        r = &ff_html_reader;
        break;
    case FF_JSON:
        r = &ff_json_reader;
        break;
    case FF_PERFETTO:
        r = &ff_pf_reader;
        break;
    case FF_METHODTRACE:
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "a compressed method trace: decompress it first (gunzip)");
        return ST_EUNSUPPORTED;
    default:
        return unknown(f, p);
    }
    f->reader = r;
    return r->begin(f, p, f->sniff.len);
}

static enum st_err route(struct ff *f, const void *p, size_t n)
{
    return f->reader ? f->reader->feed(f, p, n) : ST_EUNKNOWN;  /* refused at decide */
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
    if (!f->reader)
        return ST_EUNKNOWN;
    if ((e = f->reader->finish(f)))
        return e;
    return check_events(f);
}

static void ff_free(struct ff *f)
{
    if (f->gz_init)
        inflateEnd(&f->gz);
    free(f->gzbuf);
    if (f->reader)
        f->reader->free(f);
    ff_chain_free(f);       /* a part a reader left open */
    jscan_free(f->vcount);
    tguard_free(f->guard);
    dynbuf_free(&f->sniff);
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
    f->guard = tguard_new(&f->ts, 0);
    if (!f->guard)
        return ST_ENOMEM;
    tguard_sink(f->guard, &f->gts);
    return ST_OK;
}

/* The end of a conversion: what it kept, and cut input said.  A chain an
 * error left running is stopped first: its thread counts the guard's cut
 * lines. */
static enum st_err ff_done(struct ff *f, enum st_err e)
{
    ff_chain_free(f);
    f->res->cut_lines = tguard_cut_lines(f->guard);
    if (!e && f->res->truncated)
        e = ST_ETRUNCATED;
    return e;
}

enum st_err fromfile_convert(const char *path, struct tracewriter *w,
                             struct ff_result *res)
{
    return fromfile_convert_flags(path, w, 0, res);
}

enum st_err fromfile_convert_flags(const char *path, struct tracewriter *w, int flags,
                                   struct ff_result *res)
{
    struct ff f;
    enum st_err e = ff_init(&f, path, w, res);
    f.no_cut = !!(flags & FF_NO_CUT);
    f.text_only = !!(flags & FF_TEXT_ONLY);
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
