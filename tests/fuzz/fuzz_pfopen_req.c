/* libFuzzer target: --open=perfetto's request heads (src/pfopen_req.c),
 * which any local process (or a page in a browser) can send.  The input,
 * cut at its first NUL, as the server holds it (at most 8 KB): the head's
 * end is found or not, a complete head is split, and Host is checked
 * against two ports.  Properties: the head's end is within the input and
 * is a blank line; every field points into the buffer; a Host that is
 * accepted is exactly 127.0.0.1:PORT or localhost:PORT. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/pfopen_req.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void inside(const char *p, const char *buf, size_t n)
{
    if (p && (p < buf || p > buf + n))
        __builtin_trap();
}

static void check_host(const struct pfreq *r, int port)
{
    if (!pfreq_host_ok(r, port))
        return;
    char a[32], b[32];
    snprintf(a, sizeof(a), "127.0.0.1:%d", port);
    snprintf(b, sizeof(b), "localhost:%d", port);
    if (strcmp(r->host, a) && strcasecmp(r->host, b))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[8192];
    size_t n = size < sizeof(buf) - 1 ? size : sizeof(buf) - 1;
    memcpy(buf, data, n);
    buf[n] = '\0';
    n = strlen(buf);
    size_t head = pfreq_head_len(buf, n);
    if (head > n || (head && buf[head - 1] != '\n'))
        __builtin_trap();
    if (!head)
        return 0;
    buf[head] = '\0';
    struct pfreq r;
    if (pfreq_parse(buf, &r))
        return 0;
    if (!r.method || !r.path)
        __builtin_trap();
    inside(r.method, buf, head);
    inside(r.path, buf, head);
    inside(r.host, buf, head);
    inside(r.origin, buf, head);
    check_host(&r, 9001);
    check_host(&r, 1);
    return 0;
}
