/*
 * Waiting with a deadline and a cancel fd, detail messages, and the
 * generic conn helpers (exact reads).  Every blocking step of the library
 * ends up in adb_wait_fd: poll() on the fd plus the cancel fd, so Ctrl-C
 * (a signal handler writing to a self-pipe) and timeouts are noticed
 * promptly whatever the transport.
 */
#include "adb_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/plat.h"

int64_t adb_now_ms(void)
{
    return plat_now_ms();
}

int64_t adb_deadline(const struct adb_io *io)
{
    if (io->timeout_ms <= 0)
        return -1;
    return adb_now_ms() + io->timeout_ms;
}

void adb_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void adb_copyerr(char *dst, size_t dstlen, const char *src)
{
    if (!dst || !dstlen || dst == src)
        return;
    snprintf(dst, dstlen, "%s", src ? src : "");
}

static int poll_timeout(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - adb_now_ms();
    if (left <= 0)
        return 0;
    return left > 60000 ? 60000 : (int)left;
}

enum st_err adb_wait_fd(int fd, short events, int64_t deadline, int cancel_fd,
                        char *err, size_t errlen)
{
    for (;;) {
        struct plat_pollfd p[2] = {{.fd = fd, .events = events},
                                   {.fd = cancel_fd, .events = PLAT_POLLIN}};
        size_t n = cancel_fd >= 0 ? 2 : 1;
        int tmo = poll_timeout(deadline);
        int r = plat_poll(p, n, tmo);
        if (r < 0) {
            if (errno == EINTR)
                continue;   /* a signal; its handler wrote the cancel fd */
            adb_seterr(err, errlen, "poll: %s", plat_strerror(errno));
            return ST_EIO;
        }
        if (n == 2 && p[1].revents) {
            adb_seterr(err, errlen, "interrupted");
            return ST_EINTR;
        }
        if (p[0].revents)
            return ST_OK;   /* ready, or an error/hangup the I/O call reports */
        if (tmo == 0) {
            adb_seterr(err, errlen, "no answer within the timeout");
            return ST_ETIMEOUT;
        }
    }
}

enum st_err adb_conn_read(struct adb_conn *c, void *p, size_t n, size_t *got,
                          int64_t deadline)
{
    return c->ops->read(c, p, n, got, deadline);
}

enum st_err adb_conn_read_full(struct adb_conn *c, void *p, size_t n,
                               int64_t deadline)
{
    size_t done = 0;
    while (done < n) {
        size_t got = 0;
        enum st_err e = c->ops->read(c, (char *)p + done, n - done, &got, deadline);
        if (e)
            return e;
        if (got == 0) {
            adb_seterr(c->err, sizeof c->err,
                       "connection closed after %zu of %zu expected bytes", done, n);
            return ST_ECLOSED;
        }
        done += got;
    }
    return ST_OK;
}

enum st_err adb_conn_write(struct adb_conn *c, const void *p, size_t n,
                           int64_t deadline)
{
    return c->ops->write(c, p, n, deadline);
}

void adb_conn_close(struct adb_conn *c)
{
    if (c)
        c->ops->close(c);
}

enum st_err adb_nap(const struct adb_io *io, int64_t deadline, int poll_ms,
                    char *err, size_t errlen)
{
    int64_t now = adb_now_ms();
    if (deadline >= 0 && now >= deadline)
        return ST_ETIMEOUT;
    int64_t until = now + poll_ms;
    if (deadline >= 0 && deadline < until)
        until = deadline;
    enum st_err e = adb_wait_fd(-1, PLAT_POLLIN, until, io->cancel_fd, err, errlen);
    if (e != ST_ETIMEOUT)
        return e;
    return deadline >= 0 && until >= deadline ? ST_ETIMEOUT : ST_OK;
}
