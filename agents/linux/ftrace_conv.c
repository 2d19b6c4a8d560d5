/* Kernel text to the result's ftrace part; see ftrace_conv.h. */
#include "ftrace_conv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftrace_merge.h"
#include "formats/atrace/linecut.h"
#include "formats/atrace/repair.h"

#define READ_CHUNK (1u << 20)

ssize_t fconv_read_fd(void *src, char *buf, size_t n)
{
    return read(*(int *)src, buf, n);
}

/* One chunk of text, normalised, into the repair stage: the merge
 * normalises while it copies; other text goes through fnorm_feed. */
static ssize_t next_chunk(struct fconv *c, struct fnorm *n, struct repair *rep, char *buf,
                          enum st_err *e)
{
    ssize_t r = c->merge ? fmerge_read_norm(c->merge, n, buf, READ_CHUNK)
                         : c->read(c->src, buf, READ_CHUNK);
    if (r > 0)
        *e = c->merge ? repair_feed(rep, buf, (size_t)r) : fnorm_feed(n, buf, (size_t)r);
    return r;
}

static enum st_err pump(struct fnorm *n, struct repair *rep, struct fconv *c)
{
    char *buf = malloc(READ_CHUNK);
    if (!buf)
        return ST_ENOMEM;
    enum st_err e = ST_OK;
    for (;;) {
        if (c->cancel && c->cancel(c->ctx)) {
            e = ST_EINTR;
            break;
        }
        ssize_t r = next_chunk(c, n, rep, buf, &e);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(c->err, sizeof(c->err), "reading the trace failed: %s", strerror(errno));
            e = ST_EIO;
            break;
        }
        if (r == 0 || e)
            break;
        c->bytes += (uint64_t)r;
        if (c->progress)
            c->progress(c->ctx, c->bytes);
    }
    free(buf);
    return e;
}

enum st_err ftrace_convert(struct tracewriter *w, struct fconv *c)
{
    struct text_sink ts, cs;
    tw_text_sink(w, &ts);
    /* the stream's pipes have no ring buffer to wrap around */
    struct repair_opts ro = {.circular = !c->merge, .add_header = 1, .coverage = !c->merge};
    c->norm.watch = c->watch;
    struct lcut *cut = lcut_new(&ts, 0);
    if (cut)
        lcut_sink(cut, &cs);
    struct repair *rep = cut ? repair_new(&ro, &cs) : NULL;
    struct fnorm *n = rep ? fnorm_new(&c->norm, repair_write, rep) : NULL;
    enum st_err e = n ? tw_begin(w, "systemTraceEvents") : ST_ENOMEM;
    if (!e)
        e = pump(n, rep, c);
    if (!e)
        e = fnorm_finish(n);
    if (!e)
        e = repair_finish(rep);
    if (!e)
        e = tw_end(w);
    if (!e) {
        c->stats = *fnorm_stats(n);
        c->watch_seen = c->stats.watch_seen;
        c->cov = *repair_coverage(rep);
        c->cut_lines = lcut_lines(cut);
    }
    fnorm_free(n);
    repair_free(rep);
    lcut_free(cut);
    return e;
}
