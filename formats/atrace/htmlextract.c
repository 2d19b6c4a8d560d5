/* systrace HTML trace extraction; see htmlextract.h. */
#include "htmlextract.h"

#include <stdlib.h>
#include <string.h>

#include "lib/dynbuf.h"

static const char pat_block[] = "<script class=\"trace-data\"";
static const char pat_legacy[] = "var linuxPerfData = \"";
static const char pat_close[] = "</script";

enum state { OUT, TAG, FIRSTNL, IN, CLOSETAG, LEGACY_START, LEGACY };

struct htmlx {
    struct htmlx_cb cb;
    enum state st;
    size_t mb, ml;              /* matched prefix of pat_block / pat_legacy */
    int line_blank;             /* only blanks so far on this line */
    int mb_at_start, ml_at_start;   /* the match began a line */
    unsigned char carry[16];    /* undecided bytes after a '<' in a block */
    size_t carrylen;
    size_t spaces;              /* held back trailing blanks in a block */
    struct dynbuf line;         /* one line of a legacy block */
    int blocks;
};

struct htmlx *htmlx_new(const struct htmlx_cb *cb)
{
    struct htmlx *x = calloc(1, sizeof(*x));
    if (!x)
        return NULL;
    x->cb = *cb;
    x->line_blank = 1;
    dynbuf_init(&x->line, HTMLX_LINE_MAX);
    return x;
}

void htmlx_free(struct htmlx *x)
{
    if (!x)
        return;
    dynbuf_free(&x->line);
    free(x);
}

static int lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Does p (n bytes) start with pat, ignoring case?  -1: too short to say. */
static int ci_starts(const unsigned char *p, size_t n, const char *pat)
{
    for (size_t i = 0; pat[i]; i++) {
        if (i >= n)
            return -1;
        if (lower(p[i]) != (unsigned char)pat[i])
            return 0;
    }
    return 1;
}

static enum st_err data(struct htmlx *x, const void *p, size_t n)
{
    static const char blanks[64] = "                                "
                                   "                                ";
    enum st_err e = ST_OK;
    if (!n)
        return ST_OK;
    while (x->spaces && !e) {
        size_t k = x->spaces < sizeof(blanks) ? x->spaces : sizeof(blanks);
        e = x->cb.data(x->cb.ctx, blanks, k);
        x->spaces -= k;
    }
    return e ? e : x->cb.data(x->cb.ctx, p, n);
}

/* Pass block text on, holding back trailing blanks (the indentation of
 * the closing tag, which is not part of the payload). */
static enum st_err block_text(struct htmlx *x, const unsigned char *p, size_t n)
{
    size_t k = n;
    while (k && p[k - 1] == ' ')
        k--;
    enum st_err e = data(x, p, k);
    x->spaces += n - k;
    return e;
}

static enum st_err begin_block(struct htmlx *x)
{
    x->blocks++;
    x->spaces = 0;
    return x->cb.begin(x->cb.ctx);
}

static enum st_err end_block(struct htmlx *x)
{
    x->spaces = 0;
    x->st = OUT;
    x->mb = x->ml = 0;
    return x->cb.end(x->cb.ctx);
}

/* Inside a modern block: p[0] == '<'.  Returns bytes consumed, 0 if more
 * input is needed to decide. */
static size_t at_lt(struct htmlx *x, const unsigned char *p, size_t n, int final,
                    enum st_err *e)
{
    int c = ci_starts(p, n, pat_close);
    if (c > 0) {
        *e = end_block(x);
        x->st = CLOSETAG;
        return strlen(pat_close);
    }
    if (n >= 2 && p[1] == '\\') {
        static const char *const esc[] = {"/script", "!--", "\\"};
        int undecided = 0;
        for (int i = 0; i < 3; i++) {
            int m = ci_starts(p + 2, n - 2, esc[i]);
            if (m > 0) {
                *e = block_text(x, p, 1);   /* '<' without the backslash */
                return 2;
            }
            undecided |= m < 0;
        }
        if (undecided && !final)
            return 0;
    } else if ((c < 0 || n < 2) && !final) {
        return 0;
    }
    *e = block_text(x, p, 1);
    return 1;
}

static enum st_err in_block(struct htmlx *x, const unsigned char *p, size_t n,
                            size_t *used, int final)
{
    size_t i = 0;
    enum st_err e = ST_OK;
    while (i < n && x->st == IN && !e) {
        const unsigned char *lt = memchr(p + i, '<', n - i);
        size_t run = lt ? (size_t)(lt - (p + i)) : n - i;
        if ((e = block_text(x, p + i, run)))
            break;
        i += run;
        if (!lt)
            break;
        size_t k = at_lt(x, p + i, n - i, final, &e);
        if (!k) {
            memcpy(x->carry, p + i, n - i);
            x->carrylen = n - i;
            i = n;
            break;
        }
        i += k;
    }
    *used = i;
    return e;
}

/* JavaScript string unescape of one legacy line, then pass it on. */
static enum st_err legacy_line(struct htmlx *x, char *s, size_t n)
{
    int last = 0;
    size_t end = n;
    while (end && (s[end - 1] == ' ' || s[end - 1] == '\t'))
        end--;
    if (end >= 2 && s[end - 2] == '"' && s[end - 1] == ';') {
        last = 1;
        end -= 2;
    } else if (end && s[end - 1] == '\\') {
        end--;      /* line continuation */
    }
    size_t o = 0;
    for (size_t i = 0; i < end; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 < end) {
            c = s[++i];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        }
        s[o++] = c;
    }
    enum st_err e = data(x, s, o);
    return e ? e : last ? end_block(x) : ST_OK;
}

static enum st_err in_legacy(struct htmlx *x, const unsigned char *p, size_t n,
                             size_t *used)
{
    size_t i = 0;
    enum st_err e = ST_OK;
    while (i < n && x->st == LEGACY && !e) {
        const unsigned char *nl = memchr(p + i, '\n', n - i);
        size_t k = nl ? (size_t)(nl - (p + i)) : n - i;
        if ((e = dynbuf_add(&x->line, p + i, k)))
            break;
        i += k;
        if (!nl)
            break;
        i++;
        e = legacy_line(x, x->line.data ? x->line.data : (char *)"", x->line.len);
        dynbuf_reset(&x->line);
    }
    *used = i;
    return e;
}

/* Outside blocks: byte matcher for the two openings.  Neither pattern
 * repeats its first character, so a mismatch can restart at 0 or 1.  The
 * openings only count at the start of a line, or right after a block's
 * close tag (our split boundary, tracewriter.h): the viewer's own code
 * quotes both inside regular expressions. */
static size_t outside(struct htmlx *x, const unsigned char *p, size_t n, enum st_err *e)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == (unsigned char)pat_block[x->mb]) {
            if (!x->mb)
                x->mb_at_start = x->line_blank;
            x->mb++;
        } else {
            x->mb = c == pat_block[0];
            x->mb_at_start = x->line_blank;
        }
        if (c == (unsigned char)pat_legacy[x->ml]) {
            if (!x->ml)
                x->ml_at_start = x->line_blank;
            x->ml++;
        } else {
            x->ml = c == pat_legacy[0];
            x->ml_at_start = x->line_blank;
        }
        x->line_blank = c == '\n' || ((c == ' ' || c == '\t') && x->line_blank);
        if (x->mb == sizeof(pat_block) - 1 && x->mb_at_start) {
            x->st = TAG;
            *e = begin_block(x);
            return i + 1;
        }
        if (x->mb == sizeof(pat_block) - 1)
            x->mb = 0;      /* quoted mid-line: not an opening */
        if (x->ml == sizeof(pat_legacy) - 1 && !x->ml_at_start)
            x->ml = 0;
        if (x->ml == sizeof(pat_legacy) - 1) {
            x->st = LEGACY_START;
            *e = begin_block(x);
            return i + 1;
        }
    }
    return n;
}

static enum st_err step(struct htmlx *x, const unsigned char *p, size_t n, int final)
{
    enum st_err e = ST_OK;
    while (n && !e) {
        size_t used = n;
        const unsigned char *q;
        switch (x->st) {
        case OUT:
            used = outside(x, p, n, &e);
            break;
        case TAG:
            q = memchr(p, '>', n);
            used = q ? (size_t)(q - p) + 1 : n;
            if (q)
                x->st = FIRSTNL;
            break;
        case FIRSTNL:
            used = *p == '\n' ? 1 : 0;
            x->st = IN;
            break;
        case CLOSETAG:  /* a block's close tag: the next may open on its line */
            q = memchr(p, '>', n);
            used = q ? (size_t)(q - p) + 1 : n;
            if (q) {
                x->st = OUT;
                x->line_blank = 1;
            }
            break;
        case LEGACY_START:  /* the rest of the opening line is `\` */
            if (*p != '\\') {     /* not the 2012 layout after all */
                x->blocks--;
                x->st = OUT;
                x->ml = 0;
                if ((e = x->cb.end(x->cb.ctx)))
                    break;
                used = 0;
                break;
            }
            q = memchr(p, '\n', n);
            used = q ? (size_t)(q - p) + 1 : n;
            if (q)
                x->st = LEGACY;
            break;
        case IN:
            e = in_block(x, p, n, &used, final);
            break;
        case LEGACY:
            e = in_legacy(x, p, n, &used);
            break;
        }
        p += used;
        n -= used;
    }
    return e;
}

enum st_err htmlx_feed(struct htmlx *x, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (x->carrylen && n) {
        /* decide the '<' left over from the last chunk with a few more bytes */
        unsigned char tmp[32];
        size_t cl = x->carrylen, take = n < 16 ? n : 16, used = 0;
        memcpy(tmp, x->carry, cl);
        memcpy(tmp + cl, p, take);
        x->carrylen = 0;
        enum st_err e = in_block(x, tmp, cl + take, &used, 0);
        if (e)
            return e;
        if (x->carrylen) {      /* a new undecided '<' at tmp's end */
            p += take;
            n -= take;
            continue;
        }
        /* the carry never holds a whole "</script", so used >= cl */
        p += used - cl;
        n -= used - cl;
        break;
    }
    return step(x, p, n, 0);
}

enum st_err htmlx_finish(struct htmlx *x)
{
    enum st_err e = ST_OK;
    if (x->carrylen) {
        size_t used;
        size_t cl = x->carrylen;
        x->carrylen = 0;
        e = in_block(x, x->carry, cl, &used, 1);
    }
    if (!e && x->st == LEGACY && x->line.len)
        e = legacy_line(x, x->line.data, x->line.len);
    if (e)
        return e;
    if (x->st != OUT && x->st != CLOSETAG) {
        e = end_block(x);
        return e ? e : ST_ETRUNCATED;
    }
    return x->blocks ? ST_OK : ST_ENOTRACE;
}

int htmlx_blocks(const struct htmlx *x)
{
    return x->blocks;
}
