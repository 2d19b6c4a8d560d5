/*
 * Kernel ftrace text (a file, or the merged --stream spools) into the result's
 * systemTraceEvents part: read in large chunks, normalised
 * (ftrace_norm.h), cut and given a header (repair.h, as the atrace path),
 * over-long lines cut (linecut.h, as every path), HTML/JSON-escaped by
 * the tracewriter.  Memory is one read buffer plus
 * the stages' bounded line carries, whatever the trace's size.  Used by
 * the ftrace agent after a capture, and by the bench tool on a saved
 * --stream spool.
 */
#ifndef SYSTRACE_FTRACE_CONV_H
#define SYSTRACE_FTRACE_CONV_H

#include <stdint.h>
#include <sys/types.h>

#include "lib/error.h"
#include "ftrace_merge.h"
#include "formats/atrace/coverage.h"
#include "formats/atrace/ftrace_norm.h"
#include "formats/html/tracewriter.h"

struct fconv {
    /* the kernel's text: read(2)-like (fconv_read_fd with src = &fd, or
     * fmerge_read with an fmerge) */
    ssize_t (*read)(void *src, char *buf, size_t n);
    void *src;
    struct fmerge *merge;           /* instead of read: the --stream spools */
    struct fnorm_opts norm;
    const char *watch;              /* note whether a line holds this */
    /* polled between chunks; nonzero stops with ST_EINTR (may be NULL) */
    int (*cancel)(void *ctx);
    void (*progress)(void *ctx, uint64_t bytes);     /* may be NULL */
    void *ctx;
    /* results */
    struct fnorm_stats stats;
    struct coverage cov;            /* time the kept text covers (not --stream) */
    int watch_seen;
    uint64_t cut_lines;             /* over-long lines cut (linecut.h) */
    uint64_t bytes;
    char err[256];                  /* detail for ST_EIO */
};

enum st_err ftrace_convert(struct tracewriter *w, struct fconv *c);

/* read(2) on *(int *)src. */
ssize_t fconv_read_fd(void *src, char *buf, size_t n);

#endif
