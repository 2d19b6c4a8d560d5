/*
 * `--from-file` conversion; see fromfile.h.  One read loop feeds a chain
 * chosen after sniffing the first SNIFF_MAX bytes:
 *
 *   file -> [gunzip] -> sniff -> decoder -> repair -> tracewriter part
 *                             -> htmlx -> per block: [decoder -> repair] -> part
 *                             -> part (JSON, verbatim)
 */
#include "fromfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/astage.h"
#include "decode.h"
#include "lib/dynbuf.h"
#include "ftrace_norm.h"
#include "htmlextract.h"
#include "formats/mtrace/mtrace.h"
#include "repair.h"

#define SNIFF_MAX (64 * 1024)
#define READ_CHUNK (1024 * 1024)
#define BLOCK_HEAD 256

struct ff {
    struct tracewriter *w;
    struct ff_result *res;
    struct text_sink ts;
    struct dynbuf sniff;
    int decided;
    /* gunzip */
    z_stream gz;
    int gz_on, gz_init, gz_end;
    unsigned char *gzbuf;
    /* atrace/text chain */
    struct decoder *dec;
    struct astage *as;      /* what follows the decoder, on its own thread */
    struct fnorm *norm;     /* 5-column flags of kernels >= 5.18, when present */
    struct repair *rep;
    /* html */
    struct htmlx *hx;
    struct dynbuf bhead;
    int bdecided, bverbatim;
};

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

static int digits(const unsigned char *p, size_t n, size_t *i)
{
    size_t s = *i;
    while (*i < n && p[*i] >= '0' && p[*i] <= '9')
        (*i)++;
    return *i > s;
}

/* `task-PID [ (TGID) ] [CPU] ... SEC.USEC: event:` — the shape the
 * viewer's and Perfetto's tokenizers accept. */
static int looks_like_event(const unsigned char *p, size_t n)
{
    for (size_t b = 1; b < n; b++) {
        if (p[b] != '[')
            continue;
        size_t i = b + 1;
        if (!digits(p, n, &i) || i >= n || p[i] != ']')
            continue;
        size_t j = b;       /* walk back over blanks and a (TGID) group */
        while (j && p[j - 1] == ' ')
            j--;
        if (j && p[j - 1] == ')') {
            while (j && p[j - 1] != '(')
                j--;
            if (!j)
                continue;
            j--;
            while (j && p[j - 1] == ' ')
                j--;
        }
        size_t d = j;
        while (d && p[d - 1] >= '0' && p[d - 1] <= '9')
            d--;
        if (d == j || d < 2 || p[d - 1] != '-')
            continue;
        for (size_t k = i; k + 2 < n; k++) {
            size_t m = k;
            if (digits(p, n, &m) && m < n && p[m] == '.' && (m++, digits(p, n, &m)) &&
                m + 1 < n && p[m] == ':' && p[m + 1] == ' ')
                return 1;
        }
        return 0;
    }
    return 0;
}

enum ff_kind fromfile_sniff(const unsigned char *p, size_t n, int at_eof)
{
    (void)at_eof;
    if (!n)
        return FF_UNKNOWN;
    if (starts(p, n, "*version") || starts(p, n, "SLOW"))
        return FF_METHODTRACE;
    if (is_zlib_header(p, n))
        return FF_ZLIB;
    size_t i = starts(p, n, "\xef\xbb\xbf") ? 3 : 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    const unsigned char *q = p + i;
    size_t qn = n - i;
    if (qn && q[0] == '<')
        return FF_HTML;
    const unsigned char *nl = memchr(q, '\n', qn);
    size_t line = nl ? (size_t)(nl - q) : qn;
    if (qn && (q[0] == '#' || looks_like_event(q, line)))
        return FF_TEXT;
    for (size_t k = 0; k + 6 <= n; k++)
        if (p[k] == 'T' && !memcmp(p + k, "TRACE:", 6))
            return FF_ATRACE;
    if (qn && (q[0] == '{' || q[0] == '['))
        return FF_JSON;
    if (memchr(p, '\0', n))
        return FF_BINARY;
    return FF_UNKNOWN;
}

const char *fromfile_kind_name(enum ff_kind k)
{
    static const char *const names[] = {
        "unknown", "atrace dump", "zlib-compressed atrace text", "ftrace text",
        "systrace HTML", "JSON trace", "method trace", "binary data",
    };
    return (unsigned)k < sizeof(names) / sizeof(*names) ? names[k] : "?";
}

/* ---- atrace / text chain ------------------------------------------ */

static enum st_err chain_new(struct ff *f, enum decode_mode mode)
{
    static const struct fnorm_opts auto_flags = {.flags = FNORM_AUTO};
    f->rep = repair_new(&file_repair, &f->ts);
    f->norm = f->rep ? fnorm_new(&auto_flags, repair_write, f->rep) : NULL;
    f->as = f->norm ? astage_new(fnorm_write, f->norm) : NULL;
    f->dec = f->as ? decoder_new(mode, astage_write, f->as) : NULL;
    return f->dec ? ST_OK : ST_ENOMEM;
}

/* Finish the chain; a truncated input still ends the part. */
static enum st_err chain_finish(struct ff *f)
{
    enum st_err e = decoder_finish(f->dec), e2;
    if ((!e || e == ST_ETRUNCATED) && (e2 = astage_finish(f->as)))
        return e2;
    if (e && e != ST_ETRUNCATED) {
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", decoder_detail(f->dec));
        return e;
    }
    if (e == ST_ETRUNCATED) {
        f->res->truncated = 1;
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", decoder_detail(f->dec));
    }
    f->res->text_bytes += decoder_bytes_out(f->dec);
    if ((e2 = fnorm_finish(f->norm)) || (e2 = repair_finish(f->rep)) || (e2 = tw_end(f->w)))
        return e2;
    decoder_free(f->dec);
    astage_free(f->as);
    fnorm_free(f->norm);
    repair_free(f->rep);
    f->dec = NULL;
    f->as = NULL;
    f->norm = NULL;
    f->rep = NULL;
    return ST_OK;
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
    enum st_err e = tw_begin(f->w, name);
    if (!e && !f->bverbatim)
        e = chain_new(f, DECODE_TEXT);
    if (e)
        return e;
    f->res->parts++;
    if (f->bverbatim) {
        f->res->text_bytes += f->bhead.len;
        return tw_write(f->w, f->bhead.data, f->bhead.len);
    }
    return decoder_feed(f->dec, f->bhead.data, f->bhead.len);
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
    if (f->bverbatim) {
        f->res->text_bytes += n;
        return tw_write(f->w, p, n);
    }
    return decoder_feed(f->dec, p, n);
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
        return tw_end(f->w);
    e = chain_finish(f);
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
        if ((e = tw_begin(f->w, "systemTraceEvents")) ||
            (e = chain_new(f, k == FF_TEXT ? DECODE_TEXT : DECODE_ATRACE)))
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
        f->res->parts = 1;
        return tw_begin(f->w, "traceEvents");
    case FF_METHODTRACE:
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "a compressed method trace: decompress it first (gunzip)");
        return ST_EUNSUPPORTED;
    case FF_BINARY:
    case FF_UNKNOWN:
    default:
        if (blank_only(p, f->sniff.len)) {
            snprintf(f->res->detail, sizeof(f->res->detail),
                     "the file is empty apart from blank lines");
            return ST_ENOTRACE;
        }
        if (mtrace_sniff_other(p, f->sniff.len)) {
            snprintf(f->res->detail, sizeof(f->res->detail),
                     "unknown format: this looks like %s, which systrace does not read",
                     mtrace_sniff_other(p, f->sniff.len));
            return ST_EUNKNOWN;
        }
        snprintf(f->res->detail, sizeof(f->res->detail),
                 "unknown format: not atrace output (no TRACE: marker), ftrace text, "
                 "a systrace HTML page, JSON or a method trace");
        return ST_EUNKNOWN;
    }
}

static enum st_err route(struct ff *f, const void *p, size_t n)
{
    if (f->hx)
        return htmlx_feed(f->hx, p, n);
    if (f->dec)
        return decoder_feed(f->dec, p, n);
    f->res->text_bytes += n;
    return tw_write(f->w, p, n);
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
                     (unsigned long long)f->gz.total_in);
            return ST_EZLIB;
        }
        enum st_err e = data_in(f, f->gzbuf, READ_CHUNK - f->gz.avail_out);
        if (e)
            return e;
    }
    return ST_OK;
}

static enum st_err input(struct ff *f, const unsigned char *p, size_t n, int first)
{
    if (first && n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        f->gz_on = f->res->gzipped = 1;
    return f->gz_on ? gunzip(f, p, n) : data_in(f, p, n);
}

static enum st_err open_input(const char *path, int *fd, struct ff_result *res)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    int err = errno;

    if (*fd < 0) {
        snprintf(res->detail, sizeof(res->detail), "%s",
                 err == ENOENT ? "no such file" : strerror(err));
        return err == ENOENT ? ST_ENOENT : err == EACCES ? ST_EPERM : ST_EIO;
    }
    return ST_OK;
}

static enum st_err read_all(struct ff *f, int fd)
{
    unsigned char *buf = malloc(READ_CHUNK);
    if (!buf)
        return ST_ENOMEM;
    enum st_err e = ST_OK;
    int first = 1;
    for (;;) {
        ssize_t r = read(fd, buf, READ_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(f->res->detail, sizeof(f->res->detail), "read failed: %s",
                     strerror(errno));
            e = errno == EISDIR ? ST_EINVAL : ST_EIO;
            if (errno == EISDIR)
                snprintf(f->res->detail, sizeof(f->res->detail), "is a directory");
            break;
        }
        if (r == 0)
            break;
        f->res->bytes_in += (uint64_t)r;
        if ((e = input(f, buf, (size_t)r, first)))
            break;
        first = 0;
    }
    free(buf);
    return e;
}

static enum st_err finish(struct ff *f)
{
    enum st_err e = ST_OK;
    if (f->res->bytes_in == 0) {
        snprintf(f->res->detail, sizeof(f->res->detail), "the file is empty");
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
    if (f->hx) {
        e = htmlx_finish(f->hx);
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
    if (f->dec)
        return chain_finish(f);
    return tw_end(f->w);
}

struct mtrace_parts {
    struct tracewriter *w;
    int open;
};

static int mtrace_out(void *ctx, const void *p, size_t n)
{
    struct mtrace_parts *m = ctx;
    return tw_write(m->w, p, n) != ST_OK;
}

/* The converter's pieces become parts: a process dump, then the text. */
static int mtrace_part(void *ctx, const char *name)
{
    struct mtrace_parts *m = ctx;
    enum st_err e = m->open ? tw_end(m->w) : ST_OK;
    m->open = !e;
    return (e ? e : tw_begin(m->w, name)) != ST_OK;
}

/* Method traces are read by their own reader (twice, by path): their
 * calls become atrace text (B/E lines on each thread) that the classic
 * viewer and Perfetto both read, after a process dump naming the
 * process. */
static enum st_err method_trace(const char *path, struct tracewriter *w,
                                struct ff_result *res)
{
    res->kind = FF_METHODTRACE;
    res->parts = 2;
    struct mtrace_src src = {.path = path};
    struct mtrace_parts m = {w, 0};
    enum st_err e = mtrace_to_atrace_src(&src, NULL, mtrace_part, mtrace_out, &m, NULL,
                                         res->detail, sizeof(res->detail));
    if (e == ST_ETRUNCATED)
        res->truncated = 1;
    if (e && e != ST_ETRUNCATED)
        return e;
    enum st_err e2 = m.open ? tw_end(w) : ST_OK;
    return e2 ? e2 : e;
}

static int is_method_trace(int fd)
{
    unsigned char head[64];
    ssize_t n = pread(fd, head, sizeof(head), 0);
    return n > 0 && mtrace_detect(head, (size_t)n);
}

enum st_err fromfile_convert(const char *path, struct tracewriter *w,
                             struct ff_result *res)
{
    memset(res, 0, sizeof(*res));
    struct ff f;
    memset(&f, 0, sizeof(f));
    f.w = w;
    f.res = res;
    tw_text_sink(w, &f.ts);
    dynbuf_init(&f.sniff, SNIFF_MAX);
    dynbuf_init(&f.bhead, BLOCK_HEAD);
    int fd;
    enum st_err e = open_input(path, &fd, res);
    int method = !e && is_method_trace(fd);
    if (!e && method) {
        close(fd);
        e = method_trace(path, w, res);
    } else if (!e) {
        e = read_all(&f, fd);
        close(fd);
        if (!e)
            e = finish(&f);
    }
    if (!e && res->truncated)
        e = ST_ETRUNCATED;
    if (f.gz_init)
        inflateEnd(&f.gz);
    free(f.gzbuf);
    decoder_free(f.dec);
    astage_free(f.as);     /* its thread still calls into norm and rep */
    fnorm_free(f.norm);
    repair_free(f.rep);
    htmlx_free(f.hx);
    dynbuf_free(&f.sniff);
    dynbuf_free(&f.bhead);
    return e;
}
