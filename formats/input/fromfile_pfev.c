/*
 * A Perfetto trace's non-ftrace data (formats/perfetto/pftev.h) in the
 * page: a traceEvents part, {"traceEvents":[...],"metadata":{...}}, after
 * the ftrace text,
 * read by the classic viewer beside it and carried into --trace-events.
 * Parts are written one after another and the text part is open while the
 * trace is read, so the events are spooled to a temporary file (gone when
 * done) and copied in at the end: memory stays bounded whatever the trace
 * holds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pftrace.h"
#include "fromfile_int.h"
#include "lib/plat.h"

#define SPOOL_CHUNK ((size_t)256 << 10)

static enum st_err spool_flush(struct ff *f)
{
    const char *p = f->pfev_buf.data;
    size_t n = f->pfev_buf.len;
    while (n) {
        ssize_t w = write(f->pfev_fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(f->res->detail, sizeof(f->res->detail), "cannot write the trace "
                     "events to a temporary file: %s", strerror(w < 0 ? errno : ENOSPC));
            return ST_EIO;
        }
        p += w;
        n -= (size_t)w;
    }
    dynbuf_reset(&f->pfev_buf);
    return ST_OK;
}

static enum st_err spool_write(void *ctx, const void *p, size_t n)
{
    struct ff *f = ctx;
    enum st_err e = ST_OK;
    if (f->pfev_buf.len + n > SPOOL_CHUNK)
        e = spool_flush(f);
    f->pfev_bytes += n;
    return e ? e : dynbuf_add(&f->pfev_buf, p, n);
}

enum st_err ff_pfev_open(struct ff *f, struct pftrace *pf)
{
    f->pfev_fd = plat_tmpfile_open(f->pfev_path, sizeof(f->pfev_path));
    if (f->pfev_fd < 0) {
        snprintf(f->res->detail, sizeof(f->res->detail), "cannot open a temporary file for "
                 "the trace events: %s", strerror(errno));
        return ST_EIO;
    }
    f->pfev_open = 1;
    dynbuf_init(&f->pfev_buf, 2 * SPOOL_CHUNK + PFTEV_EV_BYTES);
    return pftrace_set_events(pf, spool_write, f);
}

static enum st_err copy_back(struct ff *f)
{
    char *buf = malloc(SPOOL_CHUNK);
    enum st_err e = buf ? ST_OK : ST_ENOMEM;
    if (!e && plat_seek(f->pfev_fd, 0))
        e = ST_EIO;
    while (!e) {
        ssize_t r = read(f->pfev_fd, buf, SPOOL_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            e = ST_EIO;
        if (r <= 0)
            break;
        e = ff_verbatim_write(f, buf, (size_t)r);
    }
    free(buf);
    if (e == ST_EIO)
        snprintf(f->res->detail, sizeof(f->res->detail), "cannot read the trace events back "
                 "from their temporary file: %s", strerror(errno));
    return e;
}

/* The classic viewer imports the ftrace text in the LINUX_FTRACE_GLOBAL
 * clock domain and a JSON trace in its own unless the metadata names one:
 * without this it refuses the page (no clock sync markers between them).
 * The timestamps are the trace's, as the ftrace text's are. */
static const char tail[] = "\n],\n\"metadata\":{\"clock-domain\":\"LINUX_FTRACE_GLOBAL\"}}\n";

enum st_err ff_pfev_part(struct ff *f)
{
    if (!f->pfev_open || !f->pfev_bytes)
        return ST_OK;
    enum st_err e = spool_flush(f);
    if (!e)
        e = ff_verbatim_begin(f, "traceEvents");
    if (!e)
        e = ff_verbatim_write(f, "{\"traceEvents\":[", 16);
    if (!e)
        e = copy_back(f);
    if (!e)
        e = ff_verbatim_write(f, tail, sizeof(tail) - 1);
    return e ? e : ff_verbatim_end(f);
}

void ff_pfev_free(struct ff *f)
{
    if (f->pfev_open)
        plat_tmpfile_done(f->pfev_fd, f->pfev_path);
    f->pfev_open = 0;
    dynbuf_free(&f->pfev_buf);
}
