/*
 * The head of an HTTP/1.x request (RFC 9112): a request line, header
 * lines ending in CRLF (a bare LF is taken too), a blank line.  Only
 * Host and Origin are read; header names are case-insensitive, values
 * lose the spaces around them.  Two Host headers make the request
 * unanswerable (RFC 9112 3.2 says reject it).
 */
#include "pfopen_req.h"

#include <stdio.h>
#include <string.h>

size_t pfreq_head_len(const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != '\n')
            continue;
        if (i + 1 < len && buf[i + 1] == '\n')
            return i + 2;
        if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

static int ieq(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] - 'A' + 'a') : a[i];
        char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] - 'A' + 'a') : b[i];
        if (x != y)
            return 0;
    }
    return 1;
}

/* One header line (its end already cut): Host or Origin noted. */
static void header(char *line, struct pfreq *r, int *hosts)
{
    char *colon = strchr(line, ':');
    if (!colon)
        return;
    size_t n = (size_t)(colon - line);
    char *v = colon + 1;
    v += strspn(v, " \t");
    size_t vl = strlen(v);
    while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
        v[--vl] = '\0';
    if (n == 4 && ieq(line, "host", 4)) {
        r->host = ++*hosts == 1 ? v : NULL;
    } else if (n == 6 && ieq(line, "origin", 6)) {
        r->origin = v;
    }
}

int pfreq_parse(char *head, struct pfreq *r)
{
    memset(r, 0, sizeof(*r));
    int hosts = 0;
    char *line = head;
    for (int first = 1; *line; first = 0) {
        char *end = strchr(line, '\n');
        char *next = end ? end + 1 : line + strlen(line);
        if (end) {
            *end = '\0';
            if (end > line && end[-1] == '\r')
                end[-1] = '\0';
        }
        if (first) {
            char *sp = strchr(line, ' ');
            char *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
            if (!sp || !sp2 || sp == line || sp2 == sp + 1)
                return -1;
            *sp = *sp2 = '\0';
            r->method = line;
            sp[1 + strcspn(sp + 1, "?#")] = '\0';
            r->path = sp + 1;
        } else if (*line) {
            header(line, r, &hosts);
        }
        line = next;
    }
    return r->method ? 0 : -1;
}

int pfreq_host_ok(const struct pfreq *r, int port)
{
    if (!r->host)
        return 0;
    char want[32];
    snprintf(want, sizeof(want), ":%d", port);
    const char *colon = strrchr(r->host, ':');
    if (!colon || strcmp(colon, want))
        return 0;
    size_t n = (size_t)(colon - r->host);
    return (n == 9 && !memcmp(r->host, "127.0.0.1", 9)) || (n == 9 && ieq(r->host, "localhost", 9));
}
