/*
 * A sync: session over any struct adb_stream (AOSP docs/dev/sync.md):
 * STAT or STA2 (with stat_v2), LIST, RECV; QUIT when done.  One request
 * at a time; bytes are read in chunks and fed to the record decoder
 * (adb_sync_codec.c), so DATA blocks need not line up with reads and file
 * size does not matter.  After a FAIL reply adbd ends the session, and
 * after an aborted transfer the rest of the reply is still in flight:
 * either way the session is marked dead and later calls say so.
 */
#include "adb_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

#define BUF_SIZE (64u * 1024)

enum st_err adb_sync_open(struct adb_device *d, struct adb_sync **out)
{
    *out = NULL;
    struct adb_sync *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = malloc(BUF_SIZE))) {
        free(s);
        return ST_ENOMEM;
    }
    enum st_err e = adb_stream_open(d, "sync:", &s->st);
    if (e) {
        free(s->buf);
        free(s);
        return e;
    }
    s->v2 = adb_device_has_feature(d, "stat_v2");
    *out = s;
    return ST_OK;
}

void adb_sync_free(struct adb_sync *s)
{
    if (!s)
        return;
    if (!s->dead) {
        uint8_t q[8];
        size_t n;
        if (!adb_sync_req(q, sizeof q, &n, ADB_ID('Q', 'U', 'I', 'T'), ""))
            adb_stream_write(s->st, q, n);
    }
    adb_stream_free(s->st);
    free(s->buf);
    free(s);
}

const char *adb_sync_error(const struct adb_sync *s)
{
    return s->err;
}

static enum st_err usable(struct adb_sync *s)
{
    if (!s->dead)
        return ST_OK;
    adb_seterr(s->err, sizeof s->err, "the sync session ended after an error; "
               "open a new one");
    return ST_ECLOSED;
}

static enum st_err send_req(struct adb_sync *s, uint32_t id, const char *path)
{
    uint8_t req[8 + ADB_SYNC_PATH_MAX];
    size_t n = 0;
    enum st_err e = adb_sync_req(req, sizeof req, &n, id, path);
    if (e) {
        adb_seterr(s->err, sizeof s->err, "device path longer than %u bytes",
                   ADB_SYNC_PATH_MAX);
        return e;
    }
    st_debug_hex(DBG_SYNC, "sync request", req, n);
    e = adb_stream_write(s->st, req, n);
    if (e) {
        adb_copyerr(s->err, sizeof s->err, adb_stream_error(s->st));
        s->dead = 1;
    }
    return e;
}

/* Next decoder event, reading from the stream when the buffer is empty. */
static enum st_err next_event(struct adb_sync *s, struct adb_sync_dec *dec,
                              struct adb_sync_ev *ev)
{
    for (;;) {
        if (s->pos == s->len) {
            size_t got = 0;
            enum st_err e = adb_stream_read(s->st, s->buf, BUF_SIZE, &got);
            if (!e && !got) {
                adb_seterr(s->err, sizeof s->err, "device closed the sync session "
                           "in the middle of a reply");
                e = ST_ECLOSED;
            } else if (e) {
                adb_copyerr(s->err, sizeof s->err, adb_stream_error(s->st));
            }
            if (e)
                return e;
            s->pos = 0;
            s->len = got;
        }
        size_t used = 0;
        enum st_err e = adb_sync_dec_feed(dec, s->buf + s->pos, s->len - s->pos,
                                          &used, ev);
        s->pos += used;
        if (e) {
            adb_seterr(s->err, sizeof s->err, "malformed sync reply from the device");
            return e;
        }
        if (ev->type != ADB_SYNC_EV_NONE)
            return ST_OK;
    }
}

/* Run one request; every event goes to fn until the reply is complete. */
static enum st_err transact(struct adb_sync *s, uint32_t id, const char *path,
                            enum adb_sync_expect x,
                            enum st_err (*fn)(void *ctx, const struct adb_sync_ev *ev),
                            void *ctx)
{
    enum st_err e = usable(s);
    if (!e)
        e = send_req(s, id, path);
    struct adb_sync_dec dec;
    adb_sync_dec_init(&dec, x);
    while (!e && !adb_sync_dec_complete(&dec)) {
        struct adb_sync_ev ev;
        e = next_event(s, &dec, &ev);
        if (!e && ev.type == ADB_SYNC_EV_FAIL) {
            adb_seterr(s->err, sizeof s->err, "%s: %s", path, ev.name);
            e = ST_EDEVICE;
        } else if (!e) {
            e = fn(ctx, &ev);
        }
    }
    if (e)
        s->dead = 1;
    return e;
}

static enum st_err take_stat(void *ctx, const struct adb_sync_ev *ev)
{
    if (ev->type == ADB_SYNC_EV_STAT)
        *(struct adb_stat *)ctx = ev->st;
    return ST_OK;
}

enum st_err adb_sync_stat(struct adb_sync *s, const char *path, struct adb_stat *st)
{
    memset(st, 0, sizeof *st);
    uint32_t id = s->v2 ? ADB_ID('S', 'T', 'A', '2') : ADB_ID('S', 'T', 'A', 'T');
    enum st_err e = transact(s, id, path, s->v2 ? ADB_SYNC_X_STAT2 : ADB_SYNC_X_STAT,
                             take_stat, st);
    if (e)
        return e;
    ST_DBG(DBG_SYNC, "stat %s: mode %o size %llu error %u", path, st->mode,
           (unsigned long long)st->size, st->error);
    if (st->error) {
        adb_seterr(s->err, sizeof s->err, "%s: %s", path, strerror((int)st->error));
        return st->error == ENOENT ? ST_ENOENT : ST_EDEVICE;
    }
    if (st->mode == 0) {
        adb_seterr(s->err, sizeof s->err, "%s: no such file on the device", path);
        return ST_ENOENT;
    }
    return ST_OK;
}

struct pull_ctx {
    const struct adb_sink *sink;
    uint64_t done, total;
};

static enum st_err pull_event(void *ctx, const struct adb_sync_ev *ev)
{
    struct pull_ctx *pc = ctx;
    if (ev->type != ADB_SYNC_EV_DATA)
        return ST_OK;
    enum st_err e = pc->sink && pc->sink->out ? pc->sink->out(pc->sink->ctx, ev->data,
                                                              ev->len) : ST_OK;
    pc->done += ev->len;
    if (!e && pc->sink && pc->sink->progress)
        pc->sink->progress(pc->sink->ctx, pc->done, pc->total);
    return e;
}

enum st_err adb_sync_pull(struct adb_sync *s, const char *path,
                          const struct adb_sink *sink)
{
    struct adb_stat st;
    enum st_err e = adb_sync_stat(s, path, &st);
    if (e)
        return e;
    if ((st.mode & 0170000) == 0040000) {     /* the device's S_IFDIR (Linux) */
        adb_seterr(s->err, sizeof s->err, "%s is a directory", path);
        return ST_EINVAL;
    }
    struct pull_ctx pc = {.sink = sink, .total = st.size};
    s->err[0] = '\0';
    e = transact(s, ADB_ID('R', 'E', 'C', 'V'), path, ADB_SYNC_X_RECV, pull_event, &pc);
    if (e && !s->err[0])
        adb_seterr(s->err, sizeof s->err, "pull %s stopped by the receiver: %s",
                   path, st_strerror(e));
    ST_DBG(DBG_SYNC, "pull %s: %s, %llu bytes", path, st_errname(e),
           (unsigned long long)pc.done);
    return e;
}

struct list_ctx {
    enum st_err (*cb)(void *ctx, const char *name, const struct adb_stat *st);
    void *ctx;
};

static enum st_err list_event(void *ctx, const struct adb_sync_ev *ev)
{
    struct list_ctx *lc = ctx;
    if (ev->type != ADB_SYNC_EV_DENT || !strcmp(ev->name, ".") ||
        !strcmp(ev->name, ".."))
        return ST_OK;
    return lc->cb(lc->ctx, ev->name, &ev->st);
}

enum st_err adb_sync_list(struct adb_sync *s, const char *path,
                          enum st_err (*cb)(void *ctx, const char *name,
                                            const struct adb_stat *st),
                          void *ctx)
{
    struct list_ctx lc = {cb, ctx};
    s->err[0] = '\0';
    enum st_err e = transact(s, ADB_ID('L', 'I', 'S', 'T'), path, ADB_SYNC_X_LIST,
                             list_event, &lc);
    if (e && !s->err[0])
        adb_seterr(s->err, sizeof s->err, "list %s stopped by the receiver: %s",
                   path, st_strerror(e));
    return e;
}
