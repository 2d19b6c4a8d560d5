/*
 * Packet transport to adbd over TCP (`adb tcpip` devices, emulators):
 * struct adb_ptrans on top of the TCP conn (adb_conn_tcp.c).  A packet
 * goes out in one write when small (header and payload in one segment),
 * else as two.  The cancel fd is checked before a packet, never inside
 * one, so an interrupted send never leaves half a packet on the wire.
 */
#include "adb_wire.h"

#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

struct tcp_ptrans {
    struct adb_ptrans base;
    struct adb_conn *c;
};

static enum st_err tp_read(struct adb_ptrans *t, void *p, size_t n, size_t *got,
                           int64_t deadline)
{
    struct tcp_ptrans *tp = (struct tcp_ptrans *)t;
    tp->c->io = t->io;
    enum st_err e = adb_conn_read(tp->c, p, n, got, deadline);
    if (e)
        adb_copyerr(t->err, sizeof t->err, tp->c->err);
    return e;
}

static enum st_err tp_send(struct adb_ptrans *t, const uint8_t hdr[ADB_HDR_LEN],
                           const void *data, size_t n, int64_t deadline)
{
    struct tcp_ptrans *tp = (struct tcp_ptrans *)t;
    if (t->io.cancel_fd >= 0) {
        struct plat_pollfd pf = {t->io.cancel_fd, PLAT_POLLIN, 0};
        if (plat_poll(&pf, 1, 0) > 0) {
            adb_seterr(t->err, sizeof t->err, "interrupted");
            return ST_EINTR;
        }
    }
    tp->c->io = t->io;
    tp->c->io.cancel_fd = -1;
    enum st_err e;
    uint8_t small[ADB_HDR_LEN + 4096];
    if (n <= sizeof small - ADB_HDR_LEN) {
        memcpy(small, hdr, ADB_HDR_LEN);
        if (n)
            memcpy(small + ADB_HDR_LEN, data, n);
        e = adb_conn_write(tp->c, small, ADB_HDR_LEN + n, deadline);
    } else {
        e = adb_conn_write(tp->c, hdr, ADB_HDR_LEN, deadline);
        if (!e)
            e = adb_conn_write(tp->c, data, n, deadline);
    }
    if (e)
        adb_copyerr(t->err, sizeof t->err, tp->c->err);
    return e;
}

static void tp_close(struct adb_ptrans *t)
{
    struct tcp_ptrans *tp = (struct tcp_ptrans *)t;
    adb_conn_close(tp->c);
    free(tp);
}

static const struct adb_ptrans_ops tcp_ptrans_ops = {tp_read, tp_send, tp_close};

enum st_err adb_ptrans_tcp_connect(const char *host, unsigned port,
                                   const struct adb_io *io,
                                   struct adb_ptrans **out, char *err,
                                   size_t errlen)
{
    *out = NULL;
    struct tcp_ptrans *tp = calloc(1, sizeof *tp);
    if (!tp)
        return ST_ENOMEM;
    enum st_err e = adb_conn_tcp_connect(host, port, io, &tp->c, err, errlen);
    if (e) {
        free(tp);
        return e;
    }
    tp->base.ops = &tcp_ptrans_ops;
    tp->base.io = *io;
    *out = &tp->base;
    return ST_OK;
}
