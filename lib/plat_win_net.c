/*
 * Sockets, pipes and waiting on Windows (Winsock 2); see plat.h.
 *
 * Windows waits on sockets only, so plat_pipe is a connected pair of
 * loopback TCP sockets and standard input is copied into one by a thread;
 * plat_poll is select(), which also reports a failed non-blocking connect
 * (in the exception set) where WSAPoll did not on older Windows.  Socket
 * handles are small integers in practice and are passed around as int.
 */
#include "plat.h"

#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plat_net.h"
#include "plat_win.h"

int win_sock_errno(int wsa)
{
    switch (wsa) {
    case WSAEWOULDBLOCK:
        return EAGAIN;
    case WSAEINPROGRESS:
    case WSAEALREADY:
        return EINPROGRESS;
    case WSAEINTR:
        return EINTR;
    case WSAECONNREFUSED:
        return ECONNREFUSED;
    case WSAECONNRESET:
    case WSAENETRESET:
        return ECONNRESET;
    case WSAECONNABORTED:
        return ECONNABORTED;
    case WSAESHUTDOWN:
        return EPIPE;
    case WSAETIMEDOUT:
        return ETIMEDOUT;
    case WSAENOTSOCK:
        return ENOTSOCK;
    case WSAEADDRINUSE:
        return EADDRINUSE;
    case WSAEADDRNOTAVAIL:
        return EADDRNOTAVAIL;
    case WSAENETUNREACH:
    case WSAENETDOWN:
        return ENETUNREACH;
    case WSAEHOSTUNREACH:
        return EHOSTUNREACH;
    case WSAEACCES:
        return EACCES;
    case WSAENOBUFS:
        return ENOBUFS;
    default:
        return EIO;
    }
}

static int fail(void)
{
    errno = win_sock_errno(WSAGetLastError());
    return -1;
}

const char *plat_strerror(int err)
{
    switch (err) {
    case ECONNREFUSED:
        return "Connection refused";
    case ECONNRESET:
        return "Connection reset by peer";
    case ECONNABORTED:
        return "Software caused connection abort";
    case ETIMEDOUT:
        return "Connection timed out";
    case EADDRINUSE:
        return "Address already in use";
    case EADDRNOTAVAIL:
        return "Cannot assign requested address";
    case ENETUNREACH:
        return "Network is unreachable";
    case EHOSTUNREACH:
        return "No route to host";
    case EINPROGRESS:
        return "Operation now in progress";
    case ENOTSOCK:
        return "Socket operation on non-socket";
    case ENOBUFS:
        return "No buffer space available";
    default:
        return strerror(err);
    }
}

int plat_sock_nonblock(int fd)
{
    u_long on = 1;
    return ioctlsocket((SOCKET)fd, FIONBIO, &on) == 0 ? 0 : fail();
}

int plat_poll(struct plat_pollfd *p, size_t n, int timeout_ms)
{
    if (n > PLAT_POLL_MAX || n > FD_SETSIZE) {
        errno = EINVAL;
        return -1;
    }
    fd_set rd, wr, ex;
    FD_ZERO(&rd);
    FD_ZERO(&wr);
    FD_ZERO(&ex);
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        p[i].revents = 0;
        if (p[i].fd < 0)
            continue;
        any = 1;
        if (p[i].events & PLAT_POLLIN)
            FD_SET((SOCKET)p[i].fd, &rd);
        if (p[i].events & PLAT_POLLOUT)
            FD_SET((SOCKET)p[i].fd, &wr);
        FD_SET((SOCKET)p[i].fd, &ex);
    }
    if (!any) {     /* select() needs a socket: only the timeout is left */
        Sleep(timeout_ms < 0 ? INFINITE : (DWORD)timeout_ms);
        return 0;
    }
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    int r = select(0, &rd, &wr, &ex, timeout_ms < 0 ? NULL : &tv);
    if (r == SOCKET_ERROR)
        return fail();
    int ready = 0;
    for (size_t i = 0; r > 0 && i < n; i++) {
        if (p[i].fd < 0)
            continue;
        SOCKET s = (SOCKET)p[i].fd;
        p[i].revents = (short)((FD_ISSET(s, &rd) ? PLAT_POLLIN : 0) |
                               (FD_ISSET(s, &wr) ? PLAT_POLLOUT : 0) |
                               (FD_ISSET(s, &ex) ? PLAT_POLLERR : 0));
        ready += p[i].revents != 0;
    }
    return ready;
}

/* A connected pair of loopback sockets, made through a listener of its own. */
int plat_pipe(int fd[2])
{
    SOCKET l = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP), a = INVALID_SOCKET,
           b = INVALID_SOCKET;
    struct sockaddr_in addr;
    int len = sizeof(addr);
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (l == INVALID_SOCKET || bind(l, (struct sockaddr *)&addr, sizeof(addr)) ||
        getsockname(l, (struct sockaddr *)&addr, &len) || listen(l, 1) ||
        (a = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)) == INVALID_SOCKET ||
        connect(a, (struct sockaddr *)&addr, sizeof(addr)) ||
        (b = accept(l, NULL, NULL)) == INVALID_SOCKET) {
        int e = win_sock_errno(WSAGetLastError());
        if (a != INVALID_SOCKET)
            closesocket(a);
        if (l != INVALID_SOCKET)
            closesocket(l);
        errno = e;
        return -1;
    }
    closesocket(l);
    int one = 1;
    setsockopt(a, IPPROTO_TCP, TCP_NODELAY, (const char *)&one, sizeof(one));
    fd[0] = (int)b;
    fd[1] = (int)a;
    plat_sock_nonblock(fd[0]);
    plat_sock_nonblock(fd[1]);
    return 0;
}

ssize_t plat_sock_read(int fd, void *p, size_t n)
{
    int r = recv((SOCKET)fd, p, n > 0x40000000 ? 0x40000000 : (int)n, 0);
    return r == SOCKET_ERROR ? fail() : r;
}

ssize_t plat_sock_write(int fd, const void *p, size_t n)
{
    int r = send((SOCKET)fd, p, n > 0x40000000 ? 0x40000000 : (int)n, 0);
    return r == SOCKET_ERROR ? fail() : r;
}

void plat_sock_close(int fd)
{
    if (fd >= 0)
        closesocket((SOCKET)fd);
}

/* Standard input, copied into a socket pair by a thread: what plat_poll
 * can watch.  The thread ends at the input's end and closes its side. */
static int stdin_pair[2] = {-1, -1};

static DWORD WINAPI stdin_pump(void *arg)
{
    (void)arg;
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    char buf[4096];
    DWORD got;
    while (ReadFile(in, buf, sizeof(buf), &got, NULL) && got > 0) {
        for (DWORD off = 0; off < got;) {
            int w = send((SOCKET)stdin_pair[1], buf + off, (int)(got - off), 0);
            if (w == SOCKET_ERROR && WSAGetLastError() == WSAEWOULDBLOCK) {
                Sleep(10);
                continue;
            }
            if (w == SOCKET_ERROR)
                return 0;
            off += (DWORD)w;
        }
    }
    shutdown((SOCKET)stdin_pair[1], SD_SEND);
    return 0;
}

int plat_stdin_fd(void)
{
    if (stdin_pair[0] < 0) {
        int p[2];
        if (plat_pipe(p))
            return -1;
        stdin_pair[1] = p[1];
        HANDLE t = CreateThread(NULL, 0, stdin_pump, NULL, 0, NULL);
        if (!t) {
            plat_sock_close(p[0]);
            plat_sock_close(p[1]);
            stdin_pair[1] = -1;
            return -1;
        }
        CloseHandle(t);
        stdin_pair[0] = p[0];
    }
    return stdin_pair[0];
}

ssize_t plat_stdin_read(void *p, size_t n)
{
    int fd = plat_stdin_fd();
    return fd < 0 ? -1 : plat_sock_read(fd, p, n);
}

int plat_connect_start(const struct plat_addrs *a, size_t i, int *fd, int *pending)
{
    const struct addrinfo *ai = plat_addrs_at(a, i);
    if (!ai) {
        errno = EINVAL;
        return -1;
    }
    SOCKET s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (s == INVALID_SOCKET)
        return fail();
    plat_sock_nonblock((int)s);
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, (const char *)&one, sizeof one);
    *pending = 0;
    if (connect(s, ai->ai_addr, (int)ai->ai_addrlen) == SOCKET_ERROR) {
        int e = WSAGetLastError();
        if (e != WSAEWOULDBLOCK && e != WSAEINPROGRESS) {
            closesocket(s);
            errno = win_sock_errno(e);
            return -1;
        }
        *pending = 1;
    }
    *fd = (int)s;
    return 0;
}

int plat_connect_result(int fd)
{
    int so = 0, sl = sizeof so;
    if (getsockopt((SOCKET)fd, SOL_SOCKET, SO_ERROR, (char *)&so, &sl) == SOCKET_ERROR)
        return win_sock_errno(WSAGetLastError());
    return so ? win_sock_errno(so) : 0;
}

int plat_listen_loopback(int port)
{
    SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET)
        return fail();
    /* Windows' SO_REUSEADDR would let two listeners share the port */
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, (const char *)&one, sizeof(one));
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((u_short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 8)) {
        int e = win_sock_errno(WSAGetLastError());
        closesocket(s);
        errno = e;
        return -1;
    }
    return (int)s;
}

int plat_accept(int lfd)
{
    SOCKET c = accept((SOCKET)lfd, NULL, NULL);
    return c == INVALID_SOCKET ? fail() : (int)c;
}
