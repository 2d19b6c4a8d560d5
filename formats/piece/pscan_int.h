/*
 * Internals of the first pass (pscan.c: what it learns; pwindow.c: the
 * window and processes a piece keeps, from it).  Not a public header.
 */
#ifndef SYSTRACE_PSCAN_INT_H
#define SYSTRACE_PSCAN_INT_H

#include "formats/atrace/psdump.h"
#include "pjson.h"
#include "pline.h"
#include "pscan.h"

#define THREADS_MAX (1u << 22)
#define NAMES_MAX (1u << 20)
#define EDGES_MAX (1u << 20)
#define SAMPLES_MAX 4096
#define NAME_MAX_BYTES 256

enum part { P_OTHER, P_TEXT, P_DUMP, P_JSON };

struct pscan {
    const struct piece_spec *spec;
    enum part part;
    struct plines lines;
    struct psdump ps;
    struct pjson js;
    int64_t first, last;
    int any, failed;
    int64_t text_max;           /* the latest ftrace event time so far */
    int text_any, unordered;    /* an event came before an earlier one's time */
    struct imap tgid;           /* tid -> tgid */
    struct imap count;          /* tgid -> events */
    struct imap edges;          /* (a << 32 | b): a woke or called b */
    struct smap names;          /* decimal pid -> process name */
    /* --time-range=slice: */
    unsigned seen;              /* slices so called so far */
    int found, ended;
    int64_t slice_at, slice_end, slice_key;
    size_t slice_depth;
    struct imap depth;          /* thread -> open slices */
    /* --split=SIZE: (time, text bytes so far) every `gran` bytes */
    uint64_t text_bytes, gran;
    int64_t sample_ts[SAMPLES_MAX];
    uint64_t sample_bytes[SAMPLES_MAX];
    size_t nsamples;
};

/* A thread's process (itself when unknown). */
static inline int64_t tgid_of(const struct pscan *s, int64_t tid)
{
    int64_t g;
    return imap_get(&s->tgid, tid, &g) ? g : tid;
}

#endif
