/*
 * sync: records (reference/adb-protocol.md (b), AOSP file_sync_protocol.h).
 * Requests are [id][u32 LE len][path].  Replies depend on the request:
 *   STAT  -> STAT mode size mtime                (16 bytes)
 *   STA2  -> STA2|LST2 error dev ino mode nlink uid gid size a/m/ctime (72)
 *   LIST  -> DENT mode size mtime namelen name ... DONE + 16 zero bytes
 *   RECV  -> DATA len bytes ... DONE 0
 * and FAIL len message to any of them.  Replies are not aligned to reads
 * (a DATA header can straddle two), so this is a byte-stream decoder that
 * passes DATA payload through in the pieces that arrived.  Lengths are
 * checked before use: DATA <= 64 KiB, names <= 1024, messages <= 64 KiB
 * (the first ADB_SYNC_MSG_KEEP bytes are kept).  Pure: no I/O.
 */
#include "adb_int.h"

#include <string.h>

enum { S_HEAD, S_DATA, S_NAME, S_MSG, S_END };

#define ID_STAT ADB_ID('S', 'T', 'A', 'T')
#define ID_STA2 ADB_ID('S', 'T', 'A', '2')
#define ID_LST2 ADB_ID('L', 'S', 'T', '2')
#define ID_DENT ADB_ID('D', 'E', 'N', 'T')
#define ID_DATA ADB_ID('D', 'A', 'T', 'A')
#define ID_DONE ADB_ID('D', 'O', 'N', 'E')
#define ID_FAIL ADB_ID('F', 'A', 'I', 'L')

void adb_sync_dec_init(struct adb_sync_dec *d, enum adb_sync_expect x)
{
    memset(d, 0, sizeof *d);
    d->expect = x;
    d->state = S_HEAD;
    d->need = 8;
}

int adb_sync_dec_complete(const struct adb_sync_dec *d)
{
    return d->state == S_END;
}

enum st_err adb_sync_req(uint8_t *out, size_t cap, size_t *len, uint32_t id,
                         const char *path)
{
    size_t n = strlen(path);
    if (n > ADB_SYNC_PATH_MAX)
        return ST_ETOOBIG;
    if (cap < 8 + n)
        return ST_EINVAL;
    adb_set32(out, id);
    adb_set32(out + 4, (uint32_t)n);
    memcpy(out + 8, path, n);
    *len = 8 + n;
    return ST_OK;
}

/* Size of the fixed record for id in this reply, or 0 if unexpected. */
static size_t record_size(enum adb_sync_expect x, uint32_t id)
{
    if (id == ID_FAIL)
        return 8;
    switch (x) {
    case ADB_SYNC_X_STAT:
        return id == ID_STAT ? 16 : 0;
    case ADB_SYNC_X_STAT2:
        return id == ID_STA2 || id == ID_LST2 ? 72 : 0;
    case ADB_SYNC_X_LIST:
        return id == ID_DENT || id == ID_DONE ? 20 : 0;
    case ADB_SYNC_X_RECV:
        return id == ID_DATA || id == ID_DONE ? 8 : 0;
    }
    return 0;
}

static void stat_v1(const uint8_t *r, struct adb_stat *st)
{
    st->mode = adb_get32(r + 4);
    st->size = adb_get32(r + 8);
    st->mtime = adb_get32(r + 12);
    st->error = 0;
}

static void stat_v2(const uint8_t *r, struct adb_stat *st)
{
    st->error = adb_get32(r + 4);
    st->mode = adb_get32(r + 24);
    st->size = adb_get64(r + 40);
    st->mtime = (int64_t)adb_get64(r + 56);
}

/* The fixed part of a record is complete: act on it. */
static enum st_err record_done(struct adb_sync_dec *d, struct adb_sync_ev *ev)
{
    const uint8_t *r = d->rec;
    uint32_t v = adb_get32(r + 4);
    d->have = 0;
    d->need = 8;
    d->text_len = 0;
    d->text[0] = '\0';
    if (d->id == ID_FAIL) {
        if (v > ADB_SYNC_DATA_MAX)
            return ST_EPROTO;
        d->left = v;
        d->state = S_MSG;
    } else if (d->id == ID_DATA) {
        if (v > ADB_SYNC_DATA_MAX)
            return ST_EPROTO;
        d->left = v;
        d->state = v ? S_DATA : S_HEAD;
    } else if (d->id == ID_DENT) {
        d->left = adb_get32(r + 16);    /* rec keeps the fields meanwhile */
        if (d->left > ADB_SYNC_NAME_MAX)
            return ST_EPROTO;
        d->state = S_NAME;
    } else {
        ev->type = d->id == ID_DONE ? ADB_SYNC_EV_DONE : ADB_SYNC_EV_STAT;
        if (d->id == ID_STAT)
            stat_v1(r, &ev->st);
        else if (d->id != ID_DONE)
            stat_v2(r, &ev->st);
        d->state = S_END;
    }
    return ST_OK;
}

static size_t feed_head(struct adb_sync_dec *d, const uint8_t *p, size_t n)
{
    size_t k = d->need - d->have;
    if (k > n)
        k = n;
    memcpy(d->rec + d->have, p, k);
    d->have += k;
    return k;
}

/* Collect name/message text; returns bytes used. */
static size_t feed_text(struct adb_sync_dec *d, const uint8_t *p, size_t n,
                        size_t keep)
{
    size_t k = d->left < n ? d->left : n;
    size_t room = keep > d->text_len ? keep - d->text_len : 0;
    size_t c = k < room ? k : room;
    memcpy(d->text + d->text_len, p, c);
    d->text_len += c;
    d->text[d->text_len] = '\0';
    d->left -= (uint32_t)k;
    return k;
}

static enum st_err text_done(struct adb_sync_dec *d, struct adb_sync_ev *ev)
{
    ev->name = d->text;
    ev->name_len = d->text_len;
    if (d->state == S_MSG) {
        ev->type = ADB_SYNC_EV_FAIL;
        d->state = S_END;
        return ST_OK;
    }
    if (memchr(d->text, '\0', d->text_len))
        return ST_EPROTO;
    ev->type = ADB_SYNC_EV_DENT;
    stat_v1(d->rec, &ev->st);
    d->state = S_HEAD;
    return ST_OK;
}

enum st_err adb_sync_dec_feed(struct adb_sync_dec *d, const uint8_t *p, size_t n,
                              size_t *used, struct adb_sync_ev *ev)
{
    size_t i = 0;
    enum st_err e = ST_OK;
    memset(ev, 0, sizeof *ev);
    while (i < n && ev->type == ADB_SYNC_EV_NONE && !e) {
        if (d->state == S_END) {
            e = ST_EPROTO;          /* bytes after the end of the reply */
        } else if (d->state == S_HEAD) {
            i += feed_head(d, p + i, n - i);
            if (d->have == 8 && d->need == 8) {
                d->id = adb_get32(d->rec);
                d->need = record_size(d->expect, d->id);
                if (!d->need)
                    e = ST_EPROTO;
            }
            if (!e && d->need && d->have == d->need)
                e = record_done(d, ev);
        } else if (d->state == S_DATA) {
            size_t k = d->left < n - i ? d->left : n - i;
            ev->type = ADB_SYNC_EV_DATA;
            ev->data = p + i;
            ev->len = k;
            i += k;
            d->left -= (uint32_t)k;
            if (!d->left)
                d->state = S_HEAD;
        } else {
            size_t keep = d->state == S_MSG ? ADB_SYNC_MSG_KEEP : ADB_SYNC_NAME_MAX;
            i += feed_text(d, p + i, n - i, keep);
        }
        if (!e && (d->state == S_NAME || d->state == S_MSG) && !d->left)
            e = text_done(d, ev);
    }
    *used = i;
    return e;
}
