/* A --perfetto recording read while the device writes it; see pflive.h. */
#include "pflive.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb.h"
#include "agents/android/devcmd.h"
#include "lib/debug.h"
#include "lib/fairlock.h"
#include "lib/outfile.h"
#include "lib/plat.h"
#include "pffetch.h"

#define SLICE_MS 50             /* one read while holding the device */
#define CHUNK_MAX ((size_t)4 << 20)
#define STALL_MS 3000           /* the file's end not arriving: fetch it instead */
#define PACKET_TAG 0x0a         /* Trace.packet (field 1, bytes): every trace's first byte */

struct pflive {
    struct capture *c;
    char path[128];
    struct outfile *o;          /* the kept trace */
    struct ff_push *conv;
    struct adb_cmd *cmd;
    int wake[2];                /* ends the thread's read */
    pthread_t th;
    int th_started;
    struct dynbuf chunk;        /* what one read brought (thread only) */
    /* shared with the thread */
    pthread_mutex_t m;
    uint64_t got;               /* bytes kept and pushed */
    int ended;                  /* the thread stopped (the stream ended or broke) */
    atomic_int abort;
    atomic_int conv_failed;     /* the conversion refused what came */
    char errtext[256];          /* tail's stderr */
    size_t nerr;
};

static enum st_err on_out(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(&((struct pflive *)ctx)->chunk, p, n);
}

static enum st_err on_err(void *ctx, const void *p, size_t n)
{
    struct pflive *l = ctx;
    dev_keep_text(l->errtext, sizeof(l->errtext), &l->nerr, p, n);
    return ST_OK;
}

/* Bytes of the file from offset l->got on: kept, then converted (a
 * conversion error is sticky in conv and said at the end; the trace is
 * kept whatever it holds).  Bytes that do not start as a trace does are
 * not the file (a shell without shell protocol v2 mixes in what tail or
 * the shell printed): nothing is taken, following ends and the file is
 * fetched whole. */
static enum st_err take(struct pflive *l, const void *p, size_t n)
{
    if (!l->got && *(const unsigned char *)p != PACKET_TAG) {
        ST_DBG(DBG_ATRACE, "perfetto: tail's first byte is 0x%02x, not a trace's",
               *(const unsigned char *)p);
        return ST_EFORMAT;
    }
    enum st_err e = outfile_write(l->o, p, n);
    if (!e && ff_push(l->conv, p, n))
        atomic_store(&l->conv_failed, 1);
    pthread_mutex_lock(&l->m);
    l->got += n;
    pthread_mutex_unlock(&l->m);
    return e;
}

static void *reader(void *arg)
{
    struct pflive *l = arg;
    struct adb_sink sink = {on_out, on_err, NULL, l};
    enum st_err e = ST_OK;
    while (!e && !atomic_load(&l->abort)) {
        fairlock_acquire(l->c->dev_lock);
        e = adb_cmd_read(l->cmd, &sink, SLICE_MS);
        fairlock_release(l->c->dev_lock);
        if (e == ST_ETIMEOUT)
            e = ST_OK;
        if (!e && l->chunk.len)
            e = take(l, l->chunk.data, l->chunk.len);
        dynbuf_reset(&l->chunk);
        if (!e && adb_cmd_ended(l->cmd))
            break;
    }
    ST_DBG(DBG_ATRACE, "perfetto: following ended after %llu bytes (%s)%s%s",
           (unsigned long long)l->got, e ? st_strerror(e) : "the stream ended",
           l->nerr ? ": " : "", l->errtext);
    pthread_mutex_lock(&l->m);
    l->ended = 1;
    pthread_mutex_unlock(&l->m);
    return NULL;
}

static void stop_thread(struct pflive *l)
{
    if (!l->th_started)
        return;
    atomic_store(&l->abort, 1);
    char b = 1;
    if (plat_sock_write(l->wake[1], &b, 1) < 0) {
        /* full: readable already */
    }
    pthread_join(l->th, NULL);
    l->th_started = 0;
    adb_cmd_free(l->cmd);       /* adbd hangs up on tail */
    l->cmd = NULL;
}

enum st_err pflive_start(struct capture *c, const char *path, struct tracewriter *w,
                         struct pflive **out)
{
    *out = NULL;
    struct pflive *l = calloc(1, sizeof(*l));
    if (!l)
        return ST_ENOMEM;
    l->c = c;
    l->wake[0] = l->wake[1] = -1;
    snprintf(l->path, sizeof(l->path), "%s", path);
    dynbuf_init(&l->chunk, CHUNK_MAX);
    pthread_mutex_init(&l->m, NULL);
    enum st_err e = c->raw_path ? outfile_open_flags(c->raw_path, OUTFILE_NOREPLACE, &l->o)
                                 : ST_EINVAL;
    if (!e)
        e = ff_push_new(w, FF_PUSH_HOLE, &l->conv);
    if (!e && plat_pipe(l->wake) != 0)
        e = ST_ENOMEM;
    struct dynbuf cmd;
    dynbuf_init(&cmd, 512);
    const char *argv[] = {"tail", "-c", "+1", "-f", path, NULL};
    if (!e)
        e = adb_quote_argv(&cmd, argv);
    if (!e)     /* without shell protocol v2 its stderr would be mixed into the file */
        e = dynbuf_addstr(&cmd, " 2>/dev/null");
    if (!e) {
        fairlock_acquire(c->dev_lock);
        e = adb_cmd_start(c->dev, dev_dump_mode(c), dynbuf_str(&cmd), &l->cmd);
        fairlock_release(c->dev_lock);
    }
    ST_DBG(DBG_ATRACE, "perfetto: following %s: %s", dynbuf_str(&cmd),
           e ? st_strerror(e) : "started");
    dynbuf_free(&cmd);
    if (!e) {
        adb_cmd_set_cancel_fd(l->cmd, l->wake[0]);
        l->th_started = !plat_thread_start(&l->th, reader, l);
        e = l->th_started ? ST_OK : ST_ENOMEM;
    }
    if (e) {
        pflive_free(l);
        return e;
    }
    *out = l;
    return ST_OK;
}

/* The file's size now (the session is gone: its final size); 0 and
 * ST_EUNSUPPORTED-like codes when adbd will not say. */
static enum st_err file_size(struct pflive *l, uint64_t *size)
{
    struct adb_sync *sy = NULL;
    struct adb_stat st;
    fairlock_acquire(l->c->dev_lock);
    enum st_err e = adb_sync_open(l->c->dev, &sy);
    if (!e)
        e = adb_sync_stat(sy, l->path, &st);
    adb_sync_free(sy);
    fairlock_release(l->c->dev_lock);
    if (!e && (!st.mode || st.error))
        e = ST_ENOENT;
    *size = e ? 0 : st.size;
    return e;
}

/* Until the thread has delivered size bytes, stopped, or stalled (looked
 * at every few ms: only while the session's last piece comes in). */
static uint64_t wait_for(struct pflive *l, uint64_t size)
{
    uint64_t last = UINT64_MAX, got;
    double quiet_since = 0;
    for (;;) {
        pthread_mutex_lock(&l->m);
        got = l->got;
        int ended = l->ended;
        pthread_mutex_unlock(&l->m);
        double now = capture_now_us();
        if (got >= size || ended)
            break;
        if (got != last) {
            last = got;
            quiet_since = now;
        } else if (now - quiet_since > STALL_MS * 1e3) {
            break;
        }
        plat_sleep_ms(2);
    }
    return got;
}

struct tap {
    struct pflive *l;
    uint64_t pushed;            /* bytes the conversion has */
};

/* A fetch of the whole file (from byte 0, maybe more than once): what is
 * past the bytes converted goes on into the conversion. */
static void tap(void *ctx, uint64_t off, const void *p, size_t n)
{
    struct tap *t = ctx;
    if (off + n <= t->pushed || off > t->pushed)
        return;
    size_t skip = (size_t)(t->pushed - off);
    ff_push(t->l->conv, (const char *)p + skip, n - skip);
    t->pushed += n - skip;
}

enum st_err pflive_fetch(struct pflive *l, char *why, size_t n)
{
    uint64_t size = 0;
    enum st_err e = file_size(l, &size);
    uint64_t got = e ? 0 : wait_for(l, size);
    stop_thread(l);
    got = l->got;
    if (!e && got == size) {
        ST_DBG(DBG_ATRACE, "perfetto: all %llu bytes arrived while recording",
               (unsigned long long)size);
        return outfile_error(l->o);
    }
    ST_DBG(DBG_ATRACE, "perfetto: %llu of %llu bytes followed (%s); fetching the file",
           (unsigned long long)got, (unsigned long long)size, e ? st_strerror(e) : "short");
    if (!e && got > size) {
        snprintf(why, n, "the trace file on the device shrank while it was read (%llu bytes "
                 "read, %llu now)", (unsigned long long)got, (unsigned long long)size);
        return ST_EDEVICE;
    }
    struct tap t = {l, got};
    return pffetch_tap(l->c, l->path, l->o, tap, &t, why, n);
}

struct outfile *pflive_outfile(struct pflive *l)
{
    return l->o;
}

int pflive_conversion_failed(struct pflive *l)
{
    return atomic_load(&l->conv_failed);
}

enum st_err pflive_convert_end(struct pflive *l, struct ff_result *res)
{
    enum st_err e = ff_push_finish(l->conv);
    *res = *ff_push_result(l->conv);
    return e;
}

void pflive_free(struct pflive *l)
{
    if (!l)
        return;
    stop_thread(l);
    adb_cmd_free(l->cmd);
    ff_push_free(l->conv);
    outfile_free(l->o);
    for (int i = 0; i < 2; i++)
        plat_sock_close(l->wake[i]);
    dynbuf_free(&l->chunk);
    pthread_mutex_destroy(&l->m);
    free(l);
}
