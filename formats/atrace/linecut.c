/*
 * Over-long lines cut to their start; see linecut.h.
 *
 * Most writes hold no line that could pass the bound: a line inside a
 * write is shorter than the write, so only the line running in from the
 * writes before (its length so far is kept) and, for a write longer than
 * the bound, each of its lines need measuring.
 */
#include "linecut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

struct lcut {
    struct text_sink out;
    uint64_t max;
    uint64_t cur;               /* bytes of the current line so far */
    int cutting;                /* it passed max: the rest up to its LF goes */
    uint64_t lines;             /* lines cut */
    uint64_t total;             /* bytes written to the stage */
    uint64_t line_at;           /* where the current line starts */
};

struct lcut *lcut_new(const struct text_sink *out, uint64_t max)
{
    struct lcut *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->out = *out;
    c->max = max ? max : LCUT_MAX;
    return c;
}

void lcut_free(struct lcut *c)
{
    free(c);
}

/* 1 when no line of [p, p+n) gets past the bound; *last: its last LF. */
static int all_short(const struct lcut *c, const char *p, size_t n, const char **last)
{
    *last = memrchr(p, '\n', n);
    if (c->cutting)
        return 0;
    if (!*last)
        return c->cur + n <= c->max;
    const char *first = memchr(p, '\n', n);
    return n <= c->max && c->cur + (uint64_t)(first - p) <= c->max;
}

/* Line by line: each line's bytes past the bound are left out of the
 * runs written on. */
static enum st_err measured(struct lcut *c, const char *p, size_t n)
{
    const char *start = p, *end = p + n, *run = p;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        uint64_t len = (uint64_t)(stop - p);
        if (!c->cutting && c->cur + len > c->max) {
            const char *upto = p + (c->max - c->cur);
            enum st_err e = run < upto ? c->out.write(c->out.ctx, run, (size_t)(upto - run))
                                       : ST_OK;
            if (e)
                return e;
            c->cutting = 1;
            c->lines++;
        }
        if (c->cutting)
            run = stop;     /* the LF itself goes on */
        c->cur += len;
        if (!nl)
            break;
        p = nl + 1;
        c->cur = 0;
        c->cutting = 0;
        c->line_at = c->total + (uint64_t)(p - start);
    }
    c->total += n;
    return run < end ? c->out.write(c->out.ctx, run, (size_t)(end - run)) : ST_OK;
}

enum st_err lcut_write(void *ctx, const void *buf, size_t n)
{
    struct lcut *c = ctx;
    const char *p = buf, *last;
    if (!n)
        return ST_OK;
    if (!all_short(c, p, n, &last))
        return measured(c, p, n);
    if (last) {
        c->cur = (uint64_t)(p + n - last - 1);
        c->line_at = c->total + (uint64_t)(last + 1 - p);
    } else {
        c->cur += n;
    }
    c->total += n;
    return c->out.write(c->out.ctx, p, n);
}

static uint64_t cut_tell(void *ctx)
{
    struct lcut *c = ctx;
    return c->out.tell(c->out.ctx);
}

static enum st_err cut_keep(void *ctx, uint64_t a, uint64_t b)
{
    struct lcut *c = ctx;
    return c->out.keep(c->out.ctx, a, b);
}

void lcut_sink(struct lcut *c, struct text_sink *s)
{
    s->write = lcut_write;
    s->tell = cut_tell;
    s->keep = cut_keep;
    s->ctx = c;
}

void lcut_begin(struct lcut *c)
{
    c->cur = 0;
    c->cutting = 0;
    c->line_at = c->total;
}

uint64_t lcut_lines(const struct lcut *c)
{
    return c->lines;
}

uint64_t lcut_line_at(const struct lcut *c)
{
    return c->line_at;
}

void lcut_message(char *buf, size_t n, uint64_t lines)
{
    snprintf(buf, n, "%llu line%s longer than %llu MB %s cut to %s first %llu MB (the rest "
                     "of %s dropped; no trace event is that long)",
             (unsigned long long)lines, lines == 1 ? "" : "s",
             (unsigned long long)(LCUT_MAX >> 20), lines == 1 ? "was" : "were",
             lines == 1 ? "its" : "their", (unsigned long long)(LCUT_MAX >> 20),
             lines == 1 ? "it was" : "each was");
}
