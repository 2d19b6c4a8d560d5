/*
 * libFuzzer target: the host side of the wire protocol fed arbitrary
 * device bytes: handshake (CNXN/AUTH with no keys at all),
 * then two streams opened and read while packets for both, unknown
 * streams, CLSEs and garbage arrive.  Input: the device's byte stream.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb_wire.h"

struct fz {
    struct adb_ptrans base;
    const uint8_t *p;
    size_t n, pos;
};

static enum st_err fz_read(struct adb_ptrans *t, void *p, size_t n, size_t *got,
                           int64_t deadline)
{
    struct fz *f = (struct fz *)t;
    (void)deadline;
    size_t k = f->n - f->pos;
    if (k > n)
        k = n;
    if (k > 7 && (f->pos & 1))
        k = 7;      /* odd splits */
    memcpy(p, f->p + f->pos, k);
    f->pos += k;
    *got = k;
    return ST_OK;
}

static enum st_err fz_send(struct adb_ptrans *t, const uint8_t hdr[ADB_HDR_LEN],
                           const void *data, size_t n, int64_t deadline)
{
    (void)t;
    (void)hdr;
    (void)data;
    (void)n;
    (void)deadline;
    return ST_OK;
}

static void fz_close(struct adb_ptrans *t)
{
    free(t);
}

static const struct adb_ptrans_ops fz_ops = {fz_read, fz_send, fz_close};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz *f = calloc(1, sizeof *f);
    if (!f)
        return 0;
    f->base.ops = &fz_ops;
    f->base.io.timeout_ms = 0;
    f->base.io.cancel_fd = -1;
    f->p = data;
    f->n = size;
    struct adb_wire_auth auth = {.home = "", .vendor_keys = ""};
    struct adb_wire *w;
    char err[256];
    if (adb_wire_connect(&f->base, &auth, &w, err, sizeof err))
        return 0;
    struct adb_io io = {0, -1};
    struct adb_stream *a = NULL, *b = NULL;
    adb_wire_open(w, &io, "shell:x", &a, err, sizeof err);
    adb_wire_open(w, &io, "sync:", &b, err, sizeof err);
    char buf[300];
    for (int i = 0; i < 64; i++) {
        size_t got = 0;
        struct adb_stream *s = (i & 1) ? b : a;
        if (!s)
            continue;
        if (s->ops->read(s, buf, sizeof buf, &got, -1) || !got)
            break;
        if (i % 5 == 0)
            s->ops->write(s, "hello", 5, -1);
    }
    if (a)
        a->ops->close(a);
    if (b)
        b->ops->close(b);
    adb_wire_free(w);
    return 0;
}
