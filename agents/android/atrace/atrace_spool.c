/*
 * The spool of an Android --stream capture: the trace text as it arrives,
 * written beside the output through an outfile (a temporary file on the
 * tmpfiles list, so even an exit at once removes it), after the ftrace
 * header trace_pipe lacks, counted on the way (events; LOST lines summed
 * and made comments: streamtext.h).  At the end it is read back through the same
 * chain as `--from-file` of the same text (decoder, a thread, flags
 * normalisation, repairs, the cut of over-long lines) plus the TGID fix
 * from the device's /proc listing, into the result.  After a failure it is committed under the
 * first free name of the raw-dump path (trace.atrace, trace-1.atrace, ...)
 * and the message says how to convert it.  Memory: the chain's fixed
 * buffers, whatever the spool's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astream_int.h"
#include "lib/astage.h"
#include "lib/outfile.h"
#include "lib/plat.h"
#include "lib/signals.h"

#define READ_CHUNK (1u << 20)
#define UI_EVERY_US 250000

static enum st_err to_file(void *ctx, const void *p, size_t n)
{
    struct astream *s = ctx;
    enum st_err e = outfile_write(s->spool, p, n);
    if (e)
        snprintf(s->why, sizeof(s->why), "writing the spool failed: %s",
                 outfile_errtext(s->spool));
    return e;
}

enum st_err spool_open(struct astream *s, int header)
{
    struct capture *c = s->c;
    outfile_free(s->spool);
    s->spool = NULL;
    slines_free(s->lines);
    if (!(s->lines = slines_new(to_file, s)))
        return ST_ENOMEM;
    /* a full disk keeps what reached the spool (a rename needs no space) */
    enum st_err e = c->raw_path ? outfile_open_flags(c->raw_path,
                                                     OUTFILE_NOREPLACE | OUTFILE_KEEP_WRITTEN,
                                                     &s->spool)
                                : ST_EINVAL;
    if (!e && header)
        e = outfile_write(s->spool, stext_header, strlen(stext_header));
    if (e) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "--stream: cannot spool the trace beside the output (%s): %s",
                      c->raw_path ? c->raw_path : "no path",
                      s->spool ? outfile_errtext(s->spool) : st_strerror(e));
    }
    return e;
}

enum st_err spool_add(struct astream *s, const void *p, size_t n)
{
    enum st_err e = slines_write(s->lines, p, n);
    if (e)
        return e;
    s->bytes += n;
    double now = capture_now_us();
    if (now - s->t_ui >= UI_EVERY_US && s->c->ui.stream) {
        s->t_ui = now;
        s->c->ui.stream(s->c->ui.ctx, s->bytes, slines_events(s->lines));
    }
    return ST_OK;
}

enum st_err spool_end(struct astream *s)
{
    return s->lines ? slines_finish(s->lines) : ST_OK;
}

uint64_t spool_events(const struct astream *s)
{
    return s->lines ? slines_events(s->lines) : 0;
}

enum st_err spool_write(void *s, const void *p, size_t n)
{
    return spool_add(s, p, n);
}

const char *spool_keep(struct astream *s)
{
    /* a spool without one event would only be refused by --from-file */
    if (!s->kept && (!s->spool || !s->bytes || !spool_events(s) || outfile_commit(s->spool)))
        return NULL;
    s->kept = 1;
    return outfile_path(s->spool);
}

enum st_err astream_failed(struct astream *s, enum st_err e, const char *what)
{
    struct capture *c = s->c;
    struct dynbuf d;
    dynbuf_init(&d, 4096);
    dynbuf_addstr(&d, what);
    const char *kept = sig_terminated() ? NULL : spool_keep(s);
    if (kept && outfile_error(s->spool))    /* the spool's own write failed */
        dynbuf_printf(&d, "; the %llu bytes written before that are kept in %s (convert "
                          "them later with: systrace --from-file %s)",
                      (unsigned long long)outfile_tell(s->spool), kept, kept);
    else if (kept)
        dynbuf_printf(&d, "; the %llu bytes received are kept in %s (convert them later "
                          "with: systrace --from-file %s)",
                      (unsigned long long)s->bytes, kept, kept);
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, dynbuf_str(&d));
    dynbuf_free(&d);
    return e;
}

int astream_abandoned(void)
{
    return sig_terminated() || sig_interrupts() >= 2 || sig_alarmed();
}

/* The reader of a stream or of the periodic dumps. */
enum st_err astream_thread(struct astream *s, void *(*fn)(void *))
{
    s->th_started = !plat_thread_start(&s->th, fn, s);
    if (s->th_started)
        return ST_OK;
    dynbuf_reset(&s->c->err);
    dynbuf_addstr(&s->c->err, "--stream: no thread could be started to read the trace");
    return ST_ENOMEM;
}

/* ---- conversion --------------------------------------------------------- */

struct chain {
    struct lcut *cut;
    struct repair *rep;
    struct fnorm *norm;
    struct astage *as;
    struct decoder *dec;
};

static enum st_err chain_new(struct astream *s, struct tracewriter *w,
                             const struct tgid_map *m, struct chain *ch)
{
    struct capture *c = s->c;
    struct text_sink ts, cs;
    tw_text_sink(w, &ts);
    /* a pipe has no ring buffer to wrap around: no circular cut */
    struct repair_opts ro = {.tgids = m, .add_header = 1,
                             .watch = c->sync_written ? c->sync_id : NULL,
                             .observe = c->line_observer, .observe_ctx = c->observer_ctx};
    static const struct fnorm_opts auto_flags = {.flags = FNORM_AUTO};
    if (!(ch->cut = lcut_new(&ts, 0)))
        return ST_ENOMEM;
    lcut_sink(ch->cut, &cs);
    ch->rep = repair_new(&ro, &cs);
    ch->norm = ch->rep ? fnorm_new(&auto_flags, repair_write, ch->rep) : NULL;
    ch->as = ch->norm ? astage_new(fnorm_write, ch->norm) : NULL;
    ch->dec = ch->as ? decoder_new(DECODE_TEXT, astage_write, ch->as) : NULL;
    return ch->dec ? ST_OK : ST_ENOMEM;
}

static void chain_free(struct chain *ch)
{
    decoder_free(ch->dec);
    astage_free(ch->as);    /* its thread still calls into norm and rep */
    fnorm_free(ch->norm);
    repair_free(ch->rep);
    lcut_free(ch->cut);
}

static enum st_err pump(int fd, struct chain *ch, char *buf)
{
    for (;;) {
        if (astream_abandoned())
            return ST_EINTR;
        ssize_t r = read(fd, buf, READ_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return ST_EIO;
        if (!r)
            return ST_OK;
        enum st_err e = decoder_feed(ch->dec, buf, (size_t)r);
        if (e)
            return e;
    }
}

static enum st_err finish(struct chain *ch, struct tracewriter *w)
{
    enum st_err e = decoder_finish(ch->dec);
    enum st_err e2 = astage_finish(ch->as);
    if (!e)
        e = e2;
    if (!e)
        e = fnorm_finish(ch->norm);
    if (!e)
        e = repair_finish(ch->rep);
    return e ? e : tw_end(w);
}

enum st_err spool_convert(struct astream *s, struct tracewriter *w, const struct tgid_map *m)
{
    struct chain ch = {0};
    enum st_err e = outfile_flush(s->spool);
    int fd = e ? -1 : plat_open(outfile_tmppath(s->spool), O_RDONLY, 0);
    char *buf = malloc(READ_CHUNK);
    if (!e && fd < 0)
        e = ST_EIO;
    if (!e)
        e = buf ? chain_new(s, w, m, &ch) : ST_ENOMEM;
    if (!e)
        e = tw_begin(w, "systemTraceEvents");
    if (!e)
        e = pump(fd, &ch, buf);
    if (!e)
        e = finish(&ch, w);
    if (!e) {
        s->c->sync_seen = repair_watch_seen(ch.rep);
        s->cut_lines = lcut_lines(ch.cut);
    }
    if (e == ST_EIO && !tw_error(w))
        snprintf(s->why, sizeof(s->why), "reading the spool failed: %s", strerror(errno));
    chain_free(&ch);
    free(buf);
    if (fd >= 0)
        close(fd);
    return e;
}
