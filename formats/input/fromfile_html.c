/*
 * Two `--from-file` readers (fromfile_int.h's struct ff_reader): atrace
 * and ftrace text (also a bare zlib stream of it), straight into the
 * ftrace chain; and a systrace page, whose trace blocks (htmlextract.h)
 * become parts again: ftrace text through the chain, a process dump or
 * JSON block as it is, decided from the block's first BLOCK_HEAD bytes.
 */
#include <stdio.h>
#include <string.h>

#include "formats/atrace/decode.h"
#include "formats/atrace/htmlextract.h"
#include "fromfile_int.h"

#define BLOCK_HEAD 256

/* ---- text ----------------------------------------------------------- */

static enum st_err text_begin(struct ff *f, const unsigned char *p, size_t n)
{
    (void)p;
    (void)n;
    enum ff_kind k = f->res->kind;
    f->res->parts = 1;
    enum st_err e = tw_begin(f->w, "systemTraceEvents");
    if (!e)
        e = ff_chain_new(f, k == FF_TEXT);
    if (!e && k == FF_ZLIB)
        e = decoder_feed(f->dec, "TRACE:\n", 7);
    return e;
}

static enum st_err text_finish(struct ff *f)
{
    return f->dec ? ff_chain_finish(f) : ST_OK;
}

const struct ff_reader ff_text_reader = {
    .begin = text_begin,
    .feed = ff_chain_feed,
    .finish = text_finish,
    .free = ff_chain_free,
};

/* ---- HTML blocks ---------------------------------------------------- */

static int starts(const unsigned char *p, size_t n, const char *s)
{
    size_t l = strlen(s);
    return n >= l && !memcmp(p, s, l);
}

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

static enum st_err html_begin(struct ff *f, const unsigned char *p, size_t n)
{
    (void)p;
    (void)n;
    struct htmlx_cb cb = {block_begin, block_data, block_end, f};
    dynbuf_init(&f->bhead, BLOCK_HEAD);
    f->hx = htmlx_new(&cb);
    return f->hx ? ST_OK : ST_ENOMEM;
}

static enum st_err html_feed(struct ff *f, const void *p, size_t n)
{
    return htmlx_feed(f->hx, p, n);
}

static void html_free(struct ff *f)
{
    htmlx_free(f->hx);
    f->hx = NULL;
    dynbuf_free(&f->bhead);
}

const struct ff_reader ff_html_reader = {
    .begin = html_begin,
    .feed = html_feed,
    .finish = finish_html,
    .free = html_free,
};
