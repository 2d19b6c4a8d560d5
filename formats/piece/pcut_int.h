/*
 * Internals of the cutter (pcut.c: the parts and ftrace text; pcut_out.c:
 * what it writes; pcut_order.c: text out of time order; pcut_stream.c: one
 * pass; pcutj.c: trace-event JSON).  Not a public header.
 */
#ifndef SYSTRACE_PCUT_INT_H
#define SYSTRACE_PCUT_INT_H

#include "lib/dynbuf.h"
#include "pcut.h"
#include "pjson.h"
#include "pline.h"
#include "pmap.h"

#define CUT_KEYS_MAX (1u << 20)     /* threads with open slices */
#define CUT_COUNTERS_MAX (1u << 16)
#define CUT_SUFFIX " (cut)"

enum cut_part { C_PASS, C_TEXT, C_JSON };

struct pcut {
    const struct piece_window *w;
    st_write_fn out;
    void *out_ctx;
    enum cut_part part;
    uint64_t kept;
    struct dynbuf tmp;          /* a line or element being built */
    /* ftrace text */
    struct plines lines;
    int crossed_lo, crossed_hi;
    struct pstack open_slices;  /* tid -> its open B lines */
    struct smap counters;       /* "tgid|name" -> the last C line before lo */
    struct smap async;          /* "pid|name|cookie" -> its S line */
    struct imap cross;          /* text out of order: thread -> 1, its window began */
    struct smap async_lo;       /* text out of order: S lines before lo, not yet at lo */
    /* trace-event JSON */
    struct pjson js;
    struct pstack jopen;        /* thread -> its open B elements */
    struct imap jcross;         /* thread -> 1: crossed lo, 2: hi */
    struct smap jcounters;      /* counter -> flag byte + last element before lo */
    struct smap jasync;         /* nestable async b: 'p' before lo, 'o' open in it */
    /* kept input lines not yet handed on (pcut_put_line) */
    const char *chunk_lo, *chunk_hi;    /* the chunk being cut */
    const char *run;
    size_t run_len;
    /* one pass (pcut_stream.c): the window moves from piece to piece;
     * its hooks take the text's lines, its end and the freeing */
    int stream;
    pline_fn stream_line;
    enum st_err (*stream_end)(struct pcut *c);
    void (*stream_free)(struct pcut *c);
    struct pcut_pieces ops;
    struct piece_spec spec;
    struct piece_window pw;     /* the current piece's window (c->w) */
    int64_t lo_all, hi_all;     /* the whole window, once the first event is seen */
    int64_t first, last;        /* event times */
    int seen;                   /* an event line went by (since the last restart) */
    int past;                   /* past the whole window: nothing more to write */
    int unordered;              /* an event came before an earlier one's time */
    int open;                   /* a piece is being written */
    unsigned pieces;            /* pieces begun */
    uint64_t piece_bytes, piece_kept;
    struct dynbuf head;         /* the lines before the first event, replayed */
    size_t head_base;           /* its length at the first event */
    struct dynbuf sync;         /* the clock sync line, replayed */
};

/* pcut_out.c: what is written */
enum st_err pcut_flush(struct pcut *c);
enum st_err pcut_put(struct pcut *c, const void *p, size_t n);
enum st_err pcut_put_line(struct pcut *c, const char *p, size_t n);
/* line with its time set to ts, up to `upto` (the line's end if 0), then tail and LF */
enum st_err pcut_retimed(struct pcut *c, const char *p, size_t n, int64_t ts, size_t upto,
                         const char *tail);
/* A thread's slices open at lo begin again there. */
enum st_err pcut_reopen(struct pcut *c, int64_t key);
enum st_err pcut_at_lo(struct pcut *c);
enum st_err pcut_at_hi(struct pcut *c);
/* "pid|name" (or "pid|name|cookie") of a mark, at most kn - 1 bytes */
size_t pcut_mark_key(char *k, size_t kn, const struct pmark *m, int cookie);

/* pcut.c, for pcut_stream.c */
void pcut_track(struct pcut *c, const char *p, size_t n, const struct pline *l, int before);
int pcut_clock_sync(const struct pline *l);

/* pcut_order.c: text out of time order across threads (unordered) */
enum st_err pcut_order_thread(struct pcut *c, int64_t tid);
enum st_err pcut_order_mark(struct pcut *c, const char *p, size_t n, const struct pline *l);
enum st_err pcut_order_end(struct pcut *c);

/* pcutj.c */
void pcutj_begin(struct pcut *c);
enum st_err pcutj_write(struct pcut *c, const void *p, size_t n);
enum st_err pcutj_end(struct pcut *c);
void pcutj_free(struct pcut *c);

#endif
