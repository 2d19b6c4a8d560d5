/*
 * sync: service (AOSP docs/dev/sync.md; adb-protocol.md section b).
 * Requests are [id][u32 LE len][path]; paths longer than 1024 bytes end
 * the session with FAIL.  Supported: STAT (v1, zeros for a missing
 * file), STA2/LST2 (72-byte replies with an errno), LIST (DENT ... DONE),
 * LIS2 (DNT2 ... DONE), RECV (DATA chunks of at most 64 KiB, DONE; FAIL
 * "open failed: ..." ends the session), SEND (path,mode then DATA..DONE,
 * answered OKAY or FAIL), QUIT.  Requests and replies are byte streams:
 * nothing relies on WRTE boundaries in either direction.
 */
#include "sim_sync.h"
#include "sim_perfetto.h"
#include "sim_fs.h"
#include "sim_shell.h"
#include "sim_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SYNC_DATA_MAX 65536
#define SYNC_PATH_MAX 1024

#define ID(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | \
                        (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

struct sync {
    struct sim_stream *s;
    struct sim_device *dev;
};

static int send_id(struct sync *y, uint32_t id, uint32_t v)
{
    unsigned char b[8];
    le32(b, id);
    le32(b + 4, v);
    return sim_stream_write(y->s, b, 8);
}

static int send_fail(struct sync *y, const char *msg)
{
    size_t n = strlen(msg);
    return send_id(y, ID('F', 'A', 'I', 'L'), (uint32_t)n) ||
           sim_stream_write(y->s, msg, n) ? -1 : 0;
}

/* The 68-byte stat body of STA2/LST2/DNT2. */
static void stat2_body(unsigned char *b, int err, const struct sim_stat *st)
{
    memset(b, 0, 68);
    le32(b, (uint32_t)err);
    if (err)
        return;
    le64(b + 4, 0xfd00u);
    le64(b + 12, st->ino);
    le32(b + 20, st->mode);
    le32(b + 24, st->nlink);
    le32(b + 28, st->uid);
    le32(b + 32, st->gid);
    le64(b + 36, st->size);
    le64(b + 44, (uint64_t)st->mtime);
    le64(b + 52, (uint64_t)st->mtime);
    le64(b + 60, (uint64_t)st->mtime);
}

static int do_stat(struct sync *y, uint32_t id, const char *path)
{
    struct sim_stat st;
    int e = sim_fs_stat(y->dev->fs, path, &st);
    if (id == ID('S', 'T', 'A', 'T')) {
        unsigned char b[16];
        le32(b, id);
        le32(b + 4, e ? 0 : st.mode);
        le32(b + 8, e ? 0 : (uint32_t)st.size);
        le32(b + 12, e ? 0 : (uint32_t)st.mtime);
        return sim_stream_write(y->s, b, 16);
    }
    unsigned char b[72];
    le32(b, id);
    stat2_body(b + 4, e ? -e : 0, &st);
    return sim_stream_write(y->s, b, 72);
}

struct list_walk {
    struct sync *y;
    int v2;
    int rc;
};

static int list_entry(void *arg, const char *name, const struct sim_stat *st)
{
    struct list_walk *w = arg;
    size_t n = strlen(name);
    unsigned char b[76];
    if (w->v2) {
        le32(b, ID('D', 'N', 'T', '2'));
        stat2_body(b + 4, 0, st);
        le32(b + 72, (uint32_t)n);
        w->rc = sim_stream_write(w->y->s, b, 76);
    } else {
        le32(b, ID('D', 'E', 'N', 'T'));
        le32(b + 4, st->mode);
        le32(b + 8, (uint32_t)st->size);
        le32(b + 12, (uint32_t)st->mtime);
        le32(b + 16, (uint32_t)n);
        w->rc = sim_stream_write(w->y->s, b, 20);
    }
    if (!w->rc)
        w->rc = sim_stream_write(w->y->s, name, n);
    return w->rc;
}

static int do_list(struct sync *y, int v2, const char *path)
{
    struct list_walk w = {y, v2, 0};
    struct sim_stat st;
    if (!sim_fs_stat(y->dev->fs, path, &st) && st.type == SIM_F_DIR) {
        list_entry(&w, ".", &st);
        list_entry(&w, "..", &st);
        sim_fs_list(y->dev->fs, path, list_entry, &w);
    }
    if (w.rc)
        return -1;
    unsigned char done[76] = {0};
    le32(done, ID('D', 'O', 'N', 'E'));
    return sim_stream_write(y->s, done, v2 ? 76 : 20);
}

static int do_recv(struct sync *y, const char *path)
{
    struct sim_reader *r;
    int e = sim_pf_read_refused(y->dev, path, 1);
    if (!e)
        e = sim_fs_open_read(y->dev->fs, path, &r);
    if (e) {
        char msg[256];
        snprintf(msg, sizeof(msg), "open failed: %s", sim_errstr(e));
        send_fail(y, msg);
        return -1;  /* adbd ends the session after a failed RECV */
    }
    unsigned char *buf = malloc(8 + SYNC_DATA_MAX);
    int rc = buf ? 0 : -1;
    long n;
    uint64_t sent = 0, limit = sim_drop_armed(y->dev) ? y->dev->opt.disconnect_pull_after : 0;
    while (!rc && (n = r->read(r, buf + 8, SYNC_DATA_MAX)) > 0) {
        le32(buf, ID('D', 'A', 'T', 'A'));
        le32(buf + 4, (uint32_t)n);
        size_t k = 8 + (size_t)n;
        if (limit && sent + k >= limit) {   /* --disconnect-pull-after */
            sim_stream_write(y->s, buf, (size_t)(limit - sent));
            sim_drop_here(y->dev, y->s, limit);
            rc = -1;
            break;
        }
        sent += k;
        rc = sim_stream_write(y->s, buf, k);
    }
    r->close(r);
    free(buf);
    if (rc)
        return -1;
    return send_id(y, ID('D', 'O', 'N', 'E'), 0);
}

/* SEND "path,mode": DATA chunks then DONE(mtime). */
static int do_send(struct sync *y, char *spec)
{
    char *comma = strrchr(spec, ',');
    if (comma)
        *comma = '\0';
    struct sim_sink *out = NULL;
    int e = sim_fs_open_write(y->dev->fs, spec, 0, 0, &out);
    unsigned char *buf = malloc(SYNC_DATA_MAX);
    int rc = buf ? 0 : -1, failed = e != 0;
    for (;;) {
        unsigned char h[8];
        if (rc || sim_stream_read_full(y->s, h, 8)) {
            rc = -1;
            break;
        }
        uint32_t id = get32(h), len = get32(h + 4);
        if (id == ID('D', 'O', 'N', 'E'))
            break;
        if (id != ID('D', 'A', 'T', 'A') || len > SYNC_DATA_MAX ||
            sim_stream_read_full(y->s, buf, len)) {
            send_fail(y, "invalid data message");
            rc = -1;
            break;
        }
        if (!failed && sink_write(out, buf, len))
            failed = 1;
    }
    if (out && out->close && out->close(out))
        failed = 1;
    free(buf);
    if (rc)
        return -1;
    if (failed) {
        char msg[256];
        snprintf(msg, sizeof(msg), "couldn't create file: %s",
                 sim_errstr(e ? e : -EIO));
        return send_fail(y, msg);
    }
    return send_id(y, ID('O', 'K', 'A', 'Y'), 0);
}

static const char *req_name(uint32_t id, char buf[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)(id >> (8 * i));
        buf[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    buf[4] = '\0';
    return buf;
}

void sim_sync_serve(struct sim_stream *s)
{
    struct sync y = {s, sim_stream_device(s)};
    char path[SYNC_PATH_MAX + 1];
    for (;;) {
        unsigned char h[8];
        if (sim_stream_read_full(s, h, 8))
            return;
        uint32_t id = get32(h), len = get32(h + 4);
        if (id == ID('Q', 'U', 'I', 'T'))
            return;
        if (len > SYNC_PATH_MAX) {
            send_fail(&y, "path too long");
            return;
        }
        if (sim_stream_read_full(s, path, len))
            return;
        path[len] = '\0';
        char name[5], line[SYNC_PATH_MAX + 16];
        snprintf(line, sizeof(line), "%s %s", req_name(id, name), path);
        sim_log(y.dev, "sync", line);
        int rc;
        if (id == ID('S', 'T', 'A', 'T') || id == ID('S', 'T', 'A', '2') ||
            id == ID('L', 'S', 'T', '2'))
            rc = do_stat(&y, id, path);
        else if (id == ID('L', 'I', 'S', 'T') || id == ID('L', 'I', 'S', '2'))
            rc = do_list(&y, id == ID('L', 'I', 'S', '2'), path);
        else if (id == ID('R', 'E', 'C', 'V'))
            rc = do_recv(&y, path);
        else if (id == ID('S', 'E', 'N', 'D'))
            rc = do_send(&y, path);
        else {
            send_fail(&y, "unknown sync request");
            rc = -1;
        }
        if (rc)
            return;
    }
}
