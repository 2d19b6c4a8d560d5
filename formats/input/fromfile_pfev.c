/*
 * A Perfetto trace's non-ftrace data (formats/perfetto/pftev.h) in the
 * page: a traceEvents part, {"traceEvents":[...],"stackFrames":{...},
 * "samples":[...],"metadata":{...}} (the last two only with CPU samples),
 * after the ftrace text, read by the classic viewer beside it and carried
 * into --trace-events.  Parts are written one after another and the text
 * part is open while the trace is read, so the events, frames and samples
 * are spooled to a temporary file each (gone when done) and copied in at
 * the end: memory stays bounded whatever the trace holds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pftrace.h"
#include "fromfile_int.h"
#include "lib/plat.h"

#define SPOOL_CHUNK ((size_t)256 << 10)

enum { SP_EVENTS, SP_FRAMES, SP_SAMPLES };

static enum st_err spool_flush(struct ff_spool *sp)
{
    const char *p = sp->buf.data;
    size_t n = sp->buf.len;
    while (n) {
        ssize_t w = write(sp->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(sp->f->res->detail, sizeof(sp->f->res->detail), "cannot write the "
                     "trace events to a temporary file: %s", strerror(w < 0 ? errno : ENOSPC));
            return ST_EIO;
        }
        p += w;
        n -= (size_t)w;
    }
    dynbuf_reset(&sp->buf);
    return ST_OK;
}

static enum st_err spool_add(struct ff_spool *sp, const void *p, size_t n)
{
    enum st_err e = ST_OK;
    if (sp->buf.len + n > SPOOL_CHUNK)
        e = spool_flush(sp);
    sp->bytes += n;
    return e ? e : dynbuf_add(&sp->buf, p, n);
}

static enum st_err events_write(void *ctx, const void *p, size_t n)
{
    return spool_add(&((struct ff *)ctx)->pfev[SP_EVENTS], p, n);
}

static enum st_err frames_write(void *ctx, const void *p, size_t n)
{
    return spool_add(&((struct ff *)ctx)->pfev[SP_FRAMES], p, n);
}

static enum st_err samples_write(void *ctx, const void *p, size_t n)
{
    return spool_add(&((struct ff *)ctx)->pfev[SP_SAMPLES], p, n);
}

enum st_err ff_pfev_open(struct ff *f, struct pftrace *pf)
{
    for (int i = 0; i < FF_SPOOLS; i++) {
        struct ff_spool *sp = &f->pfev[i];
        sp->f = f;
        sp->fd = plat_tmpfile_open(sp->path, sizeof(sp->path));
        if (sp->fd < 0) {
            snprintf(f->res->detail, sizeof(f->res->detail), "cannot open a temporary file "
                     "for the trace events: %s", strerror(errno));
            return ST_EIO;
        }
        sp->open = 1;
        dynbuf_init(&sp->buf, 2 * SPOOL_CHUNK + PFTEV_EV_BYTES);
    }
    enum st_err e = pftrace_set_events(pf, events_write, f);
    return e ? e : pftrace_set_samples(pf, frames_write, samples_write, f);
}

static enum st_err copy_back(struct ff_spool *sp)
{
    struct ff *f = sp->f;
    char *buf = malloc(SPOOL_CHUNK);
    enum st_err e = buf ? spool_flush(sp) : ST_ENOMEM;
    if (!e && plat_seek(sp->fd, 0))
        e = ST_EIO;
    while (!e) {
        ssize_t r = read(sp->fd, buf, SPOOL_CHUNK);
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
 * The timestamps are the trace's, as the ftrace text's are.  Its
 * importer takes the samples and their frames from the top-level
 * "samples" and "stackFrames" of the same object. */
static const char *const heads[FF_SPOOLS] = {
    "{\"traceEvents\":[", "\n],\n\"stackFrames\":{", "\n},\n\"samples\":["};
static const char tail[] = "\n],\n\"metadata\":{\"clock-domain\":\"LINUX_FTRACE_GLOBAL\"}}\n";

/* The events are counted and separated by their writer (pftev), so
 * neither the page's count nor the --trace-events converter (told by a
 * TW_FACT_EVENT_RUN) reads them again: that second reading was an eighth
 * of a mixed trace's conversion. */
enum st_err ff_pfev_part(struct ff *f)
{
    struct ff_spool *ev = &f->pfev[SP_EVENTS];
    if (!ev->open || !ev->bytes)
        return ST_OK;
    uint64_t n = pftev_stats(pftrace_events(f->pf))->events;
    enum st_err e = ff_verbatim_begin_counted(f, "traceEvents", n);
    for (int i = 0; !e && i < FF_SPOOLS; i++) {
        if (i && !f->pfev[SP_SAMPLES].bytes)
            break;      /* no samples: no empty keys */
        e = ff_verbatim_write(f, heads[i], strlen(heads[i]));
        if (!e && i == SP_EVENTS) {
            struct tw_fact run = {.kind = TW_FACT_EVENT_RUN, .count = n, .bytes = ev->bytes};
            tw_fact(f->w, &run);
        }
        if (!e)
            e = copy_back(&f->pfev[i]);
    }
    if (!e)
        e = ff_verbatim_write(f, tail, sizeof(tail) - 1);
    return e ? e : ff_verbatim_end(f);
}

void ff_pfev_free(struct ff *f)
{
    for (int i = 0; i < FF_SPOOLS; i++) {
        struct ff_spool *sp = &f->pfev[i];
        if (sp->open)
            plat_tmpfile_done(sp->fd, sp->path);
        sp->open = 0;
        dynbuf_free(&sp->buf);
    }
}
