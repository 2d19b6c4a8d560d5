/*
 * Shared by the socket files of the platform layer (plat_*_net.c): the
 * resolved addresses of plat_resolve (plat_addrs.c), by index.
 */
#ifndef SYSTRACE_PLAT_NET_H
#define SYSTRACE_PLAT_NET_H

#include <stddef.h>

struct addrinfo;
struct plat_addrs;

/* The i-th address, or NULL past the end. */
const struct addrinfo *plat_addrs_at(const struct plat_addrs *a, size_t i);

#endif
