/*
 * A command read piece by piece (adb.h, adb_cmd_*): the same services as
 * adb_shell.c (shell v2 with its framing decoded, legacy shell, exec), but
 * the caller pulls one read at a time with its own wait, instead of one
 * call running the command to its end under the per-step timeout.  That
 * is what a trace streamed for hours needs: quiet minutes are not an
 * error, and the reader can stop between reads (to let another thread use
 * the device, or to end the command).  Nothing is buffered beyond one
 * read; a shell v2 frame split across reads is decoded as it comes.
 */
#include "adb_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

#define READ_CHUNK (64u * 1024)

struct adb_cmd {
    struct adb_stream *st;
    int v2;
    int ended;
    int exit_code;
    uint64_t done;
    struct adb_shv2_dec dec;
    uint8_t *buf;
    char err[ADB_ERRLEN];
};

enum st_err adb_cmd_start(struct adb_device *d, enum adb_mode mode, const char *script,
                          struct adb_cmd **out)
{
    *out = NULL;
    d->err[0] = '\0';
    struct adb_cmd *c = calloc(1, sizeof(*c));
    if (!c || !(c->buf = malloc(READ_CHUNK))) {
        free(c);
        return ST_ENOMEM;
    }
    c->exit_code = ADB_EXIT_UNKNOWN;
    adb_shv2_init(&c->dec);
    struct dynbuf svc;
    dynbuf_init(&svc, ADB_REQUEST_MAX);
    enum st_err e = adb_shell_service(d, mode, script, &svc, &c->v2);
    if (!e)
        e = adb_stream_open(d, dynbuf_str(&svc), &c->st);
    dynbuf_free(&svc);
    if (!e && c->v2) {
        uint8_t hdr[ADB_SHV2_HDR];
        adb_shv2_header(hdr, ADB_SHV2_CLOSE_STDIN, 0);
        e = adb_stream_write(c->st, hdr, sizeof hdr);
        if (e)
            adb_copyerr(d->err, sizeof d->err, c->st->err);
    }
    if (e) {
        adb_cmd_free(c);
        return e;
    }
    ST_DBG(DBG_ADB, "command started (%s): %.200s", c->v2 ? "shell v2" : "raw", script);
    *out = c;
    return ST_OK;
}

static enum st_err deliver(struct adb_cmd *c, const struct adb_sink *s, int is_err,
                           const void *p, size_t n)
{
    enum st_err (*cb)(void *, const void *, size_t) = is_err ? s->err : s->out;
    c->done += n;
    return cb && n ? cb(s->ctx, p, n) : ST_OK;
}

/* One read's worth of shell v2 bytes; what follows the exit frame is
 * ignored (adbd sends nothing after it). */
static enum st_err feed_v2(struct adb_cmd *c, const struct adb_sink *s, const uint8_t *p,
                           size_t n)
{
    while (n && !c->ended) {
        struct adb_shv2_ev ev;
        size_t used = 0;
        enum st_err e = adb_shv2_feed(&c->dec, p, n, &used, &ev);
        if (e) {
            adb_seterr(c->err, sizeof c->err, "malformed shell protocol frame after %llu "
                       "bytes", (unsigned long long)c->done);
            return e;
        }
        p += used;
        n -= used;
        if (ev.type == ADB_SHV2_EV_EXIT) {
            c->exit_code = ev.code;
            c->ended = 1;
        } else if (ev.type != ADB_SHV2_EV_NONE) {
            e = deliver(c, s, ev.type == ADB_SHV2_EV_ERR, ev.p, ev.n);
        }
        if (e)
            return e;
    }
    return ST_OK;
}

/* The stream ended: fine for a raw channel; a v2 one owes an exit frame. */
static enum st_err at_end(struct adb_cmd *c)
{
    c->ended = 1;
    if (!c->v2)
        return ST_OK;
    enum st_err e = adb_shv2_finish(&c->dec);
    adb_seterr(c->err, sizeof c->err, e ? "shell stream ended inside a frame"
               : "shell stream ended without an exit status");
    return e ? e : ST_ECLOSED;
}

enum st_err adb_cmd_read(struct adb_cmd *c, const struct adb_sink *sink, int wait_ms)
{
    if (c->ended)
        return ST_OK;
    size_t got = 0;
    int64_t deadline = adb_now_ms() + (wait_ms > 0 ? wait_ms : 0);
    enum st_err e = c->st->ops->read(c->st, c->buf, READ_CHUNK, &got, deadline);
    if (e) {
        adb_copyerr(c->err, sizeof c->err, c->st->err);
        return e;
    }
    if (!got)
        return at_end(c);
    e = c->v2 ? feed_v2(c, sink, c->buf, got) : deliver(c, sink, 0, c->buf, got);
    if (e && !c->err[0])
        adb_seterr(c->err, sizeof c->err, "stopped by the receiver: %s", st_strerror(e));
    if (!e && sink->progress)
        sink->progress(sink->ctx, c->done, 0);
    return e;
}

int adb_cmd_ended(const struct adb_cmd *c)
{
    return c->ended;
}

int adb_cmd_exit_code(const struct adb_cmd *c)
{
    return c->exit_code;
}

void adb_cmd_set_cancel_fd(struct adb_cmd *c, int fd)
{
    c->st->io.cancel_fd = fd;
}

const char *adb_cmd_error(const struct adb_cmd *c)
{
    return c->err;
}

void adb_cmd_free(struct adb_cmd *c)
{
    if (!c)
        return;
    adb_stream_free(c->st);
    free(c->buf);
    free(c);
}
