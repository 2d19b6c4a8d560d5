/*
 * The summary after a capture or conversion (formats/summary/summary.h):
 * a few lines on stdout after "Wrote trace ..." (not with -q), and with
 * --summary=FILE the same as JSON, written atomically (lib/outfile) after
 * the page.  Hung on the result writer's tee, so it sees exactly what the
 * page holds.
 */
#ifndef SYSTRACE_SUMREPORT_H
#define SYSTRACE_SUMREPORT_H

#include "options.h"
#include "formats/summary/summary.h"

/* A summary listening to w when one is wanted (lines shown, or
 * --summary=FILE given: path, which is checked for writing first), else
 * *out = NULL.  cats: the categories asked for (n may be 0).  Prints its
 * own error; 0 or -1. */
int sumreport_open(const char *path, int show, struct tracewriter *w, char *const *cats,
                   size_t ncats, struct summary **out);

/* After the page was written: the lines on stdout (show: not quiet; each
 * starting with prefix), the JSON to path (NULL: none; device: its
 * "device" field or NULL).  An exit code (cli.h); NULL s is a no-op. */
int sumreport_commit(struct summary *s, const char *path, int show, const char *prefix,
                     const char *device);

/* JSON made by make (into a dynbuf of at most max bytes) written to path
 * in full or not at all, one error line when it cannot be: an exit code. */
int sumreport_write_json(const char *path, size_t max,
                         enum st_err (*make)(const void *ctx, struct dynbuf *o),
                         const void *ctx);

#endif
