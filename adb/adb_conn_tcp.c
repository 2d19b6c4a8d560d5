/*
 * struct adb_conn over a TCP socket (the adb server today; adbd's TCP port
 * later).  The socket is non-blocking; every read, write and the connect
 * itself wait in adb_wait_fd so deadlines and the cancel fd apply.  Writes
 * use MSG_NOSIGNAL: a peer that went away is ST_ECLOSED, never SIGPIPE.
 */
#include "adb_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/debug.h"

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
        enum st_err e = adb_wait_fd(t->fd, POLLIN, deadline, c->io.cancel_fd,
                                    c->err, sizeof c->err);
        if (e)
            return e;
        ssize_t r = recv(t->fd, p, n, 0);
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
        adb_seterr(c->err, sizeof c->err, "recv: %s", strerror(errno));
        return ST_EIO;
    }
}

static enum st_err tcp_write(struct adb_conn *c, const void *p, size_t n,
                             int64_t deadline)
{
    struct conn_tcp *t = (struct conn_tcp *)c;
    const char *b = p;
    while (n) {
        enum st_err e = adb_wait_fd(t->fd, POLLOUT, deadline, c->io.cancel_fd,
                                    c->err, sizeof c->err);
        if (e)
            return e;
        ssize_t r = send(t->fd, b, n, MSG_NOSIGNAL);
        if (r < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                continue;
            if (errno == EPIPE || errno == ECONNRESET) {
                adb_seterr(c->err, sizeof c->err, "peer closed the connection");
                return ST_ECLOSED;
            }
            adb_seterr(c->err, sizeof c->err, "send: %s", strerror(errno));
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
    close(t->fd);
    free(t);
}

static const struct adb_conn_ops tcp_ops = {tcp_read, tcp_write, tcp_close};

struct adb_conn *adb_conn_fd_new(int fd, const struct adb_io *io)
{
    struct conn_tcp *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    t->base.ops = &tcp_ops;
    t->base.io = *io;
    t->fd = fd;
    return &t->base;
}

/* Non-blocking connect to one address; ST_OK, or errno in *sys_err. */
static enum st_err connect_one(const struct addrinfo *ai, const struct adb_io *io,
                               int64_t deadline, int *fd_out, int *sys_err,
                               char *err, size_t errlen)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                    ai->ai_protocol);
    if (fd < 0) {
        *sys_err = errno;
        return ST_ECONNECT;
    }
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
        if (errno != EINPROGRESS) {
            *sys_err = errno;
            close(fd);
            return ST_ECONNECT;
        }
        enum st_err e = adb_wait_fd(fd, POLLOUT, deadline, io->cancel_fd, err, errlen);
        if (e) {
            close(fd);
            return e;
        }
        int so = 0;
        socklen_t sl = sizeof so;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) < 0)
            so = errno;
        if (so) {
            *sys_err = so;
            close(fd);
            return ST_ECONNECT;
        }
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd_out = fd;
    return ST_OK;
}

enum st_err adb_conn_tcp_connect(const char *host, unsigned port,
                                 const struct adb_io *io, struct adb_conn **out,
                                 char *err, size_t errlen)
{
    *out = NULL;
    char svc[16];
    snprintf(svc, sizeof svc, "%u", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    int gai = getaddrinfo(host, svc, &hints, &res);
    if (gai) {
        adb_seterr(err, errlen, "cannot resolve %s: %s", host, gai_strerror(gai));
        return ST_ECONNECT;
    }
    int64_t deadline = adb_deadline(io);
    int fd = -1, sys_err = ECONNREFUSED;
    enum st_err e = ST_ECONNECT;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        e = connect_one(ai, io, deadline, &fd, &sys_err, err, errlen);
        if (e != ST_ECONNECT)
            break;      /* connected, or timed out / cancelled */
    }
    freeaddrinfo(res);
    if (e == ST_ECONNECT)
        adb_seterr(err, errlen, "connect to %s:%u: %s", host, port, strerror(sys_err));
    else if (e == ST_ETIMEOUT)
        adb_seterr(err, errlen, "connect to %s:%u: no answer within %d ms", host, port,
                   io->timeout_ms);
    if (e)
        return e;
    ST_DBG(DBG_ADB, "connected to %s:%u (fd %d)", host, port, fd);
    *out = adb_conn_fd_new(fd, io);
    if (!*out) {
        close(fd);
        return ST_ENOMEM;
    }
    return ST_OK;
}
