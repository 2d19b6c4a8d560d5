/*
 * Name resolution for plat.h, the same on both sides: getaddrinfo is in
 * POSIX and in Winsock 2 (ws2tcpip.h; plat_init has started Winsock).
 */
#include "plat.h"

#if PLAT_WINDOWS
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <netdb.h>
#include <sys/socket.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "plat_net.h"

struct plat_addrs {
    struct addrinfo *res;
    size_t n;
};

int plat_resolve(const char *host, unsigned port, struct plat_addrs **out, char *err,
                 size_t errlen)
{
    char svc[16];
    snprintf(svc, sizeof svc, "%u", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    struct plat_addrs *a = calloc(1, sizeof(*a));
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int gai = getaddrinfo(host, svc, &hints, &a->res);
    if (gai) {
        snprintf(err, errlen, "%s", gai_strerror(gai));
        free(a);
        return -1;
    }
    for (struct addrinfo *ai = a->res; ai; ai = ai->ai_next)
        a->n++;
    *out = a;
    return 0;
}

size_t plat_addrs_count(const struct plat_addrs *a)
{
    return a->n;
}

const struct addrinfo *plat_addrs_at(const struct plat_addrs *a, size_t i)
{
    const struct addrinfo *ai = a->res;
    while (ai && i--)
        ai = ai->ai_next;
    return ai;
}

void plat_addrs_free(struct plat_addrs *a)
{
    if (a) {
        freeaddrinfo(a->res);
        free(a);
    }
}
