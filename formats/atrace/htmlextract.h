/*
 * Pulls the trace out of an existing systrace HTML file, streamed:
 *  - modern pages: the text of every <script class="trace-data" ...>
 *    element, minus the newline after the opening tag (as the viewer reads
 *    it), minus the indentation before the closing tag, with our own
 *    `<\` payload escape undone (see tracewriter.h);
 *  - 2012-era pages: the JavaScript string `var linuxPerfData = "\` whose
 *    lines end in `\n\`, up to the closing `";`, unescaped.
 * Each block is reported as begin / data... / end.  Outside blocks nothing
 * is buffered but a few bytes of pattern state; inside, at most one line of
 * a legacy block (HTMLX_LINE_MAX).
 */
#ifndef SYSTRACE_HTMLEXTRACT_H
#define SYSTRACE_HTMLEXTRACT_H

#include <stddef.h>
#include "lib/error.h"
#include "lib/sink.h"

#define HTMLX_LINE_MAX (16u << 20)

struct htmlx_cb {
    enum st_err (*begin)(void *ctx);
    st_write_fn data;
    enum st_err (*end)(void *ctx);
    void *ctx;
};

struct htmlx;
struct htmlx *htmlx_new(const struct htmlx_cb *cb);
void htmlx_free(struct htmlx *x);
enum st_err htmlx_feed(struct htmlx *x, const void *p, size_t n);
/* ST_ENOTRACE: no trace block at all; ST_ETRUNCATED: the file ended inside
 * a block (what was read of it has been passed on and ended). */
enum st_err htmlx_finish(struct htmlx *x);
int htmlx_blocks(const struct htmlx *x);

#endif
