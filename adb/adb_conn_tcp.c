/*
 * struct adb_conn over a TCP socket (the adb server today; adbd's TCP port
 * later).  The socket is non-blocking; every read, write and the connect
 * itself wait in adb_wait_fd so deadlines and the cancel fd apply.  Writes
 * never raise SIGPIPE (plat.h): a peer that went away is ST_ECLOSED.
 */
#include "adb_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"
#include "lib/plat.h"

struct conn_tcp {
    struct adb_conn base;
    int fd;
};

static enum st_err tcp_read(struct adb_conn *c, void *p, size_t n, size_t *got,
                            int64_t deadline)
{
    struct conn_tcp *t = (struct conn_tcp *)c;
    *got = 0;
    for (;;) {
        enum st_err e = adb_wait_fd(t->fd, PLAT_POLLIN, deadline, c->io.cancel_fd,
                                    c->err, sizeof c->err);
        if (e)
            return e;
        ssize_t r = plat_sock_read(t->fd, p, n);
        if (r >= 0) {
            *got = (size_t)r;
            return ST_OK;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            continue;
        if (errno == ECONNRESET) {
            adb_seterr(c->err, sizeof c->err, "connection reset by peer");
            return ST_ECLOSED;
        }
        adb_seterr(c->err, sizeof c->err, "recv: %s", plat_strerror(errno));
        return ST_EIO;
    }
}

static enum st_err tcp_write(struct adb_conn *c, const void *p, size_t n,
                             int64_t deadline)
{
    struct conn_tcp *t = (struct conn_tcp *)c;
    const char *b = p;
    while (n) {
        enum st_err e = adb_wait_fd(t->fd, PLAT_POLLOUT, deadline, c->io.cancel_fd,
                                    c->err, sizeof c->err);
        if (e)
            return e;
        ssize_t r = plat_sock_write(t->fd, b, n);
        if (r < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                continue;
            if (errno == EPIPE || errno == ECONNRESET) {
                adb_seterr(c->err, sizeof c->err, "peer closed the connection");
                return ST_ECLOSED;
            }
            adb_seterr(c->err, sizeof c->err, "send: %s", plat_strerror(errno));
            return ST_EIO;
        }
        b += r;
        n -= (size_t)r;
    }
    return ST_OK;
}

static void tcp_close(struct adb_conn *c)
{
    struct conn_tcp *t = (struct conn_tcp *)c;
    plat_sock_close(t->fd);
    free(t);
}

static const struct adb_conn_ops tcp_ops = {tcp_read, tcp_write, tcp_close};

struct adb_conn *adb_conn_fd_new(int fd, const struct adb_io *io)
{
    struct conn_tcp *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    plat_sock_nonblock(fd);
    t->base.ops = &tcp_ops;
    t->base.io = *io;
    t->fd = fd;
    return &t->base;
}

/* Non-blocking connect to address i; ST_OK, or errno in *sys_err. */
static enum st_err connect_one(const struct plat_addrs *a, size_t i, const struct adb_io *io,
                               int64_t deadline, int *fd_out, int *sys_err,
                               char *err, size_t errlen)
{
    int fd = -1, pending = 0;
    if (plat_connect_start(a, i, &fd, &pending) != 0) {
        *sys_err = errno;
        return ST_ECONNECT;
    }
    if (pending) {
        enum st_err e = adb_wait_fd(fd, PLAT_POLLOUT, deadline, io->cancel_fd, err, errlen);
        if (e) {
            plat_sock_close(fd);
            return e;
        }
        int so = plat_connect_result(fd);
        if (so) {
            *sys_err = so;
            plat_sock_close(fd);
            return ST_ECONNECT;
        }
    }
    *fd_out = fd;
    return ST_OK;
}

enum st_err adb_conn_tcp_connect(const char *host, unsigned port,
                                 const struct adb_io *io, struct adb_conn **out,
                                 char *err, size_t errlen)
{
    *out = NULL;
    struct plat_addrs *res = NULL;
    char why[200];
    if (plat_resolve(host, port, &res, why, sizeof why)) {
        adb_seterr(err, errlen, "cannot resolve %s: %s", host, why);
        return ST_ECONNECT;
    }
    int64_t deadline = adb_deadline(io);
    int fd = -1, sys_err = ECONNREFUSED;
    enum st_err e = ST_ECONNECT;
    for (size_t i = 0; i < plat_addrs_count(res); i++) {
        e = connect_one(res, i, io, deadline, &fd, &sys_err, err, errlen);
        if (e != ST_ECONNECT)
            break;      /* connected, or timed out / cancelled */
    }
    plat_addrs_free(res);
    if (e == ST_ECONNECT)
        adb_seterr(err, errlen, "connect to %s:%u: %s", host, port, plat_strerror(sys_err));
    else if (e == ST_ETIMEOUT)
        adb_seterr(err, errlen, "connect to %s:%u: no answer within %d ms", host, port,
                   io->timeout_ms);
    if (e)
        return e;
    ST_DBG(DBG_ADB, "connected to %s:%u (fd %d)", host, port, fd);
    *out = adb_conn_fd_new(fd, io);
    if (!*out) {
        plat_sock_close(fd);
        return ST_ENOMEM;
    }
    return ST_OK;
}
