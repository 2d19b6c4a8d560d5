/*
 * Internals of the cutter (pcut.c: the parts and ftrace text; pcutj.c:
 * trace-event JSON).  Not a public header.
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
    struct pstack open;         /* tid -> its open B lines */
    struct smap counters;       /* "tgid|name" -> the last C line before lo */
    struct smap async;          /* "pid|name|cookie" -> its S line */
    /* trace-event JSON */
    struct pjson js;
    struct pstack jopen;        /* thread -> its open B elements */
    struct imap jcross;         /* thread -> 1: crossed lo, 2: hi */
    struct smap jcounters;      /* counter -> flag byte + last element before lo */
    struct smap jasync;         /* nestable async b: 'p' before lo, 'o' open in it */
};

/* pcutj.c */
void pcutj_begin(struct pcut *c);
enum st_err pcutj_write(struct pcut *c, const void *p, size_t n);
enum st_err pcutj_end(struct pcut *c);
void pcutj_free(struct pcut *c);

#endif
