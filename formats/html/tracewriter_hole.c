/* Room left in the page for a part written at the end; see tracewriter.h
 * (tw_hole).  The part is rendered into memory (a process dump: a few
 * hundred KB even on a phone), then written over the room. */
#include <stdlib.h>
#include <string.h>

#include "lib/outfile.h"
#include "tracewriter_int.h"

#define HOLE_PART_MAX ((size_t)256 << 20)
#define BLANK_LINE 64   /* short lines: no line-based reader meets a long one */

/* len bytes of blank lines (spaces, each line at most BLANK_LINE bytes
 * and ending "\n") through tw_put: into the page, or into the part being
 * rendered while w->capture is set. */
static enum st_err put_blanks(struct tracewriter *w, size_t len)
{
    unsigned char line[64 * BLANK_LINE];
    memset(line, ' ', sizeof(line));
    for (size_t i = BLANK_LINE - 1; i < sizeof(line); i += BLANK_LINE)
        line[i] = '\n';
    enum st_err e = ST_OK;
    for (size_t done = 0; !e && done < len;) {
        size_t n = len - done < sizeof(line) ? len - done : sizeof(line);
        unsigned char last = line[n - 1];
        line[n - 1] = '\n';
        e = tw_put(w, line, n);
        line[n - 1] = last;
        done += n;
    }
    return e;
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
    return e ? e : put_blanks(w, len);
}

/* What a part written into the hole must not disturb: the state of the
 * page around it (saved, or put back). */
static void hole_state(struct tracewriter *w, int restore)
{
    struct hole_saved now = {w->pending_close, w->last_nl, w->ftrace, w->part_start,
                             w->part_bytes};
    if (!restore) {
        w->saved = now;
        w->pending_close = 0;   /* the part in the hole closes nothing */
        return;
    }
    w->pending_close = w->saved.pending_close;
    w->last_nl = w->saved.last_nl;
    w->ftrace = w->saved.ftrace;
    w->part_start = w->saved.part_start;
    w->part_bytes = w->saved.part_bytes;
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
    hole_state(w, 0);
    return ST_OK;
}

enum st_err tw_hole_end(struct tracewriter *w, const struct tw_hole *h)
{
    struct dynbuf *b = w->capture;
    if (!b || w->in_part)
        return ST_EINVAL;
    size_t len = b->len;
    if (len < h->len)
        put_blanks(w, (size_t)h->len - len);   /* a failure is in capture_err */
    w->capture = NULL;
    hole_state(w, 1);
    enum st_err e = w->capture_err;
    w->capture_err = ST_OK;
    /* a bigger part moves everything after the room up (no split tags
     * to move: the hole is filled between parts) */
    if (!e && len > h->len)
        e = outfile_insert(w->o, h->at + h->len, len - h->len);
    if (!e && b->len)
        e = outfile_pwrite(w->o, h->at, b->data, b->len);
    dynbuf_free(b);
    free(b);
    return e;
}
