/* Room left in the page for a part written at the end; see tracewriter.h
 * (tw_hole).  The part is rendered into memory (a process dump: a few
 * hundred KB even on a phone), then written over the room. */
#include <stdlib.h>
#include <string.h>

#include "lib/outfile.h"
#include "tracewriter_int.h"

#define HOLE_PART_MAX ((size_t)256 << 20)
#define BLANK_LINE 64   /* short lines: no line-based reader meets a long one */

/* len bytes of blank lines (spaces, each line ending "\n"). */
static void blanks(unsigned char *p, size_t len)
{
    memset(p, ' ', len);
    for (size_t i = BLANK_LINE - 1; i < len; i += BLANK_LINE)
        p[i] = '\n';
    if (len)
        p[len - 1] = '\n';
}

enum st_err tw_hole(struct tracewriter *w, size_t len, struct tw_hole *h)
{
    if (w->fmt != TW_HTML || w->in_part || w->capture)
        return ST_EUNSUPPORTED;
    /* an ftrace part left open for a join is closed: the hole parts them */
    enum st_err e = ST_OK;
    if (w->pending_close) {
        w->pending_close = 0;
        e = tw_put(w, "  </script>\n", 12);
    }
    h->at = outfile_tell(w->o);
    h->len = len;
    unsigned char line[4096];
    for (size_t done = 0; !e && done < len;) {
        size_t n = len - done < sizeof(line) ? len - done : sizeof(line);
        blanks(line, sizeof(line));
        if (done + n == len)
            line[n - 1] = '\n';
        e = tw_put(w, line, n);
        done += n;
    }
    return e;
}

enum st_err tw_hole_begin(struct tracewriter *w, const struct tw_hole *h)
{
    (void)h;
    if (w->fmt != TW_HTML || w->in_part || w->capture)
        return ST_EUNSUPPORTED;
    w->capture = malloc(sizeof(*w->capture));
    if (!w->capture)
        return ST_ENOMEM;
    dynbuf_init(w->capture, HOLE_PART_MAX);
    struct hole_saved *s = &w->saved;
    s->pending_close = w->pending_close;
    s->last_nl = w->last_nl;
    s->ftrace = w->ftrace;
    s->part_start = w->part_start;
    s->part_bytes = w->part_bytes;
    w->pending_close = 0;       /* the part in the hole closes nothing */
    return ST_OK;
}

/* Everything after the room moves up by the part's excess. */
static enum st_err grow(struct tracewriter *w, const struct tw_hole *h, size_t need)
{
    uint64_t more = need - h->len;
    enum st_err e = outfile_insert(w->o, h->at + h->len, more);
    size_t n = w->bounds.len / sizeof(uint64_t);
    uint64_t *x = (uint64_t *)(void *)w->bounds.data;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= h->at + h->len)
            x[i] += more;
    return e;
}

/* The part's bytes followed by blank lines up to the room's size. */
static enum st_err pad(struct dynbuf *b, size_t pad)
{
    unsigned char line[4096];
    enum st_err e = ST_OK;
    for (size_t done = 0; !e && done < pad;) {
        size_t n = pad - done < sizeof(line) ? pad - done : sizeof(line);
        blanks(line, n);
        e = dynbuf_add(b, line, n);
        done += n;
    }
    return e;
}

enum st_err tw_hole_end(struct tracewriter *w, const struct tw_hole *h)
{
    struct dynbuf *b = w->capture;
    if (!b || w->in_part)
        return ST_EINVAL;
    w->capture = NULL;
    struct hole_saved *s = &w->saved;
    w->pending_close = s->pending_close;
    w->last_nl = s->last_nl;
    w->ftrace = s->ftrace;
    w->part_start = s->part_start;
    w->part_bytes = s->part_bytes;
    enum st_err e = w->capture_err;
    w->capture_err = ST_OK;
    size_t len = b->len;
    if (!e && len < h->len)
        e = pad(b, (size_t)h->len - len);
    if (!e && len > h->len)
        e = grow(w, h, len);
    if (!e && b->len)
        e = outfile_pwrite(w->o, h->at, b->data, b->len);
    dynbuf_free(b);
    free(b);
    return e;
}
