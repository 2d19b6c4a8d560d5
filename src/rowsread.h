/*
 * Reading --rows output back (rows.h) for `systrace compare`: each trace
 * of a rows file is one run.  JSON Lines (one object a line; keys in any
 * order, others ignored) or CSV with a header (RFC 4180; columns found by
 * name).  Rows with an error, or without a metric or value, are skipped;
 * a trace's rows are expected together (as --rows writes them): a trace
 * seen again later counts as another run.
 */
#ifndef SYSTRACE_ROWSREAD_H
#define SYSTRACE_ROWSREAD_H

#include <stddef.h>
#include <stdio.h>

#include "lib/error.h"

#define ROWSREAD_LINE_MAX ((size_t)1 << 20)

/* Whether a file's start p[0, n) is rows: 1 JSON Lines, 2 CSV, else 0. */
int rowsread_sniff(const char *p, size_t n);

struct rowsread_cb {
    void (*run)(void *ctx, const char *trace);      /* a new trace begins */
    void (*metric)(void *ctx, const char *name, double v);
    void *ctx;
};

/* ST_EFORMAT with err ("line N: what") on a malformed row. */
enum st_err rowsread(FILE *f, int kind, const struct rowsread_cb *cb, char *err, size_t errn);

#endif
