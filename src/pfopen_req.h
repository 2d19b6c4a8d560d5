/*
 * --open=perfetto's HTTP requests (pfopen.c): the head of one request split
 * in place into what the server decides on.  Pure: no I/O.
 */
#ifndef SYSTRACE_PFOPEN_REQ_H
#define SYSTRACE_PFOPEN_REQ_H

#include <stddef.h>

struct pfreq {
    const char *method;
    const char *path;       /* without its query or fragment */
    const char *host;       /* the Host header's value; NULL: none, or two */
    const char *origin;     /* the Origin header's value; NULL: none */
};

/* The length of the head in buf[0, len) with its blank line, 0 while it is
 * not complete. */
size_t pfreq_head_len(const char *buf, size_t len);

/* Split a complete head (NUL-terminated) in place; -1 when its request
 * line is not METHOD SP TARGET SP VERSION. */
int pfreq_parse(char *head, struct pfreq *r);

/* Whether Host names this server (127.0.0.1:PORT or localhost:PORT): a
 * page that reached 127.0.0.1 under another name (DNS rebinding) is not
 * answered, since the browser would let it read the reply. */
int pfreq_host_ok(const struct pfreq *r, int port);

#endif
