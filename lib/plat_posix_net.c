/*
 * Sockets, pipes and poll on POSIX systems; see plat.h.  Every descriptor
 * made here is close-on-exec and non-blocking where the caller waits in
 * plat_poll; sends never raise SIGPIPE (MSG_NOSIGNAL where there is one,
 * SO_NOSIGPIPE on macOS, and systrace ignores SIGPIPE anyway).
 */
#include "plat.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "plat_net.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

static void cloexec(int fd)
{
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

int plat_sock_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int plat_poll(struct plat_pollfd *p, size_t n, int timeout_ms)
{
    struct pollfd v[PLAT_POLL_MAX];
    if (n > sizeof(v) / sizeof(v[0])) {
        errno = EINVAL;
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        v[i].fd = p[i].fd;
        v[i].events = (short)((p[i].events & PLAT_POLLIN ? POLLIN : 0) |
                              (p[i].events & PLAT_POLLOUT ? POLLOUT : 0));
        v[i].revents = 0;
    }
    int r = poll(v, (nfds_t)n, timeout_ms);
    for (size_t i = 0; i < n; i++) {
        short re = r > 0 ? v[i].revents : 0;
        p[i].revents = (short)((re & POLLIN ? PLAT_POLLIN : 0) |
                               (re & POLLOUT ? PLAT_POLLOUT : 0) |
                               (re & (POLLERR | POLLNVAL) ? PLAT_POLLERR : 0) |
                               (re & POLLHUP ? PLAT_POLLHUP : 0));
    }
    return r;
}

int plat_pipe(int fd[2])
{
    if (pipe(fd) != 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        plat_sock_nonblock(fd[i]);
        cloexec(fd[i]);
    }
    return 0;
}

ssize_t plat_sock_read(int fd, void *p, size_t n)
{
    return read(fd, p, n);
}

ssize_t plat_sock_write(int fd, const void *p, size_t n)
{
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == ENOTSOCK)
        w = write(fd, p, n);    /* a pipe */
    return w;
}

void plat_sock_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

int plat_stdin_fd(void)
{
    return STDIN_FILENO;
}

ssize_t plat_stdin_read(void *p, size_t n)
{
    return read(STDIN_FILENO, p, n);
}

int plat_connect_start(const struct plat_addrs *a, size_t i, int *fd, int *pending)
{
    const struct addrinfo *ai = plat_addrs_at(a, i);
    if (!ai) {
        errno = EINVAL;
        return -1;
    }
    int s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (s < 0)
        return -1;
    cloexec(s);
    plat_sock_nonblock(s);
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SO_NOSIGPIPE
    setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    *pending = 0;
    if (connect(s, ai->ai_addr, ai->ai_addrlen) < 0) {
        if (errno != EINPROGRESS) {
            int e = errno;
            close(s);
            errno = e;
            return -1;
        }
        *pending = 1;
    }
    *fd = s;
    return 0;
}

int plat_connect_result(int fd)
{
    int so = 0;
    socklen_t sl = sizeof so;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) < 0)
        so = errno;
    return so;
}

int plat_listen_loopback(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    cloexec(fd);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 8) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int plat_accept(int lfd)
{
    int c = accept(lfd, NULL, NULL);
    if (c >= 0)
        cloexec(c);
#ifdef SO_NOSIGPIPE
    /* macOS: no MSG_NOSIGNAL, and the option is the socket's own */
    int one = 1;
    if (c >= 0)
        setsockopt(c, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    return c;
}

const char *plat_strerror(int err)
{
    return strerror(err);
}
