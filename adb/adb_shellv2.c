/*
 * Shell protocol v2 framing (reference/adb-protocol.md (b)): every message
 * is [u8 id][u32 LE length][payload].  Frames are not aligned to reads: a
 * read may hold several frames, and a frame may span many reads, so the
 * decoder is a byte-stream state machine that hands stdout/stderr payload
 * out in whatever pieces arrived (no buffering).  Ids the host does not
 * expect (stdin, close-stdin, window size, invalid, unknown) are skipped.
 * The exit frame must carry exactly one byte.  Pure: no I/O.
 */
#include "adb_int.h"

#include <string.h>

void adb_shv2_init(struct adb_shv2_dec *d)
{
    memset(d, 0, sizeof *d);
}

void adb_shv2_header(uint8_t out[ADB_SHV2_HDR], uint8_t id, uint32_t len)
{
    out[0] = id;
    adb_set32(out + 1, len);
}

/* A complete header is in d->hdr: check it and enter the frame. */
static enum st_err start_frame(struct adb_shv2_dec *d)
{
    d->id = d->hdr[0];
    d->left = adb_get32(d->hdr + 1);
    d->have = 0;
    if (d->left > ADB_SHV2_MAX_FRAME)
        return ST_EPROTO;
    if (d->id == ADB_SHV2_EXIT && d->left != 1)
        return ST_EPROTO;
    d->in_frame = 1;
    return ST_OK;
}

enum st_err adb_shv2_feed(struct adb_shv2_dec *d, const uint8_t *p, size_t n,
                          size_t *used, struct adb_shv2_ev *ev)
{
    size_t i = 0;
    ev->type = ADB_SHV2_EV_NONE;
    ev->p = NULL;
    ev->n = 0;
    while (i < n) {
        if (!d->in_frame) {
            size_t k = ADB_SHV2_HDR - d->have;
            if (k > n - i)
                k = n - i;
            memcpy(d->hdr + d->have, p + i, k);
            d->have += k;
            i += k;
            if (d->have < ADB_SHV2_HDR)
                break;
            enum st_err e = start_frame(d);
            if (e) {
                *used = i;
                return e;
            }
            if (d->left == 0)
                d->in_frame = 0;
            continue;
        }
        size_t k = d->left < n - i ? d->left : n - i;
        const uint8_t *data = p + i;
        i += k;
        d->left -= (uint32_t)k;
        if (!d->left)
            d->in_frame = 0;
        if (d->id == ADB_SHV2_STDOUT || d->id == ADB_SHV2_STDERR) {
            ev->type = d->id == ADB_SHV2_STDOUT ? ADB_SHV2_EV_OUT : ADB_SHV2_EV_ERR;
            ev->p = data;
            ev->n = k;
            break;
        }
        if (d->id == ADB_SHV2_EXIT) {
            ev->type = ADB_SHV2_EV_EXIT;
            ev->code = data[0];
            break;
        }
    }
    *used = i;
    return ST_OK;
}

enum st_err adb_shv2_finish(const struct adb_shv2_dec *d)
{
    return d->in_frame || d->have ? ST_ETRUNCATED : ST_OK;
}
