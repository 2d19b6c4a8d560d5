/*
 * htmlblocks FILE N|count|check: the payload of trace-data block N
 * (1-based) of a systrace HTML page as the viewer reads it (the newline
 * after the opening tag dropped, the closing tag's indentation dropped,
 * systrace's `<\` escape undone); `count` prints how many blocks there are,
 * `check` validates the page's layout and prints "ok".
 *
 * Independent of systrace's own code on purpose: tests compare its view of
 * a page with the text they expect.  A C tool, not a script: the tests ask
 * it a few hundred times a run, on pages of up to hundreds of MB, and a
 * Python start cost more than the work.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char OPEN[] = "  <script class=\"trace-data\" type=\"application/text\">\n";
static const char BEGIN[] = "<!-- BEGIN TRACE -->\n";
static const char END[] = "<!-- END TRACE -->\n";
static const char *path;

static void die(const char *what)
{
    fprintf(stderr, "htmlblocks: %s: %s\n", path, what);
    exit(1);
}

static const char *find(const char *d, size_t n, size_t from, const char *s)
{
    size_t k = strlen(s);
    return from <= n ? memmem(d + from, n - from, s, k) : NULL;
}

/* "</script", any case, from byte `from` on */
static const char *find_close(const char *d, size_t n, size_t from)
{
    for (const char *p = d + from; (p = memmem(p, (size_t)(d + n - p), "</", 2)); p += 2)
        if ((size_t)(d + n - p) >= 8 && !strncasecmp(p + 2, "script", 6))
            return p;
    return NULL;
}

/* block `want`'s payload (want 0: count them); returns how many it saw */
static long blocks(const char *d, size_t n, long want, size_t *start, size_t *end)
{
    const char *b = find(d, n, 0, BEGIN);
    if (!b)
        return 0;
    size_t pos = (size_t)(b - d);
    long i = 0;
    for (const char *o; (o = find(d, n, pos, OPEN));) {
        size_t j = (size_t)(o - d) + sizeof(OPEN) - 1;
        const char *k = find_close(d, n, j);
        if (!k) {
            char msg[80];
            snprintf(msg, sizeof(msg), "block at byte %zu is never closed", (size_t)(o - d));
            die(msg);
        }
        size_t e = (size_t)(k - d);
        if (e >= j + 2 && d[e - 1] == ' ' && d[e - 2] == ' ')
            e -= 2;
        if (++i == want) {
            *start = j, *end = e;
            return i;
        }
        pos = (size_t)(k - d) + 8;
    }
    return i;
}

static int escaped(const char *p, size_t left)
{
    if (left >= 7 && p[0] == '/' && !strncasecmp(p + 1, "script", 6))
        return 1;
    return (left >= 3 && !memcmp(p, "!--", 3)) || (left >= 1 && p[0] == '\\');
}

static void payload(const char *d, size_t start, size_t end)
{
    size_t from = start;
    for (const char *p = d + start; (p = memmem(p, (size_t)(d + end - p), "<\\", 2));) {
        size_t at = (size_t)(p - d);
        if (escaped(p + 2, end - at - 2)) {
            fwrite(d + from, 1, at + 1 - from, stdout);     /* up to the '<' */
            from = at + 2;
        }
        p += 2;
    }
    fwrite(d + from, 1, end - from, stdout);
}

static void check(const char *d, size_t n)
{
    if (n < 15 || memcmp(d, "<!DOCTYPE html>", 15))
        die("doctype not at byte 0");
    if (!find(d, n, 0, END))
        die("no END TRACE");
    size_t e = n;
    while (e > 0 && n - e < 4096 && strchr(" \t\r\n\f\v", d[e - 1]))
        e--;
    if (n - e >= 4096 || e < 7 || memcmp(d + e - 7, "</html>", 7))
        die("suffix missing");
    puts("ok");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: htmlblocks FILE N|count|check\n");
        return 2;
    }
    path = argv[1];
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0)
        die("cannot open");
    size_t n = (size_t)st.st_size;
    const char *d = "";
    if (n && (d = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
        die("cannot map");
    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof(out));
    size_t start = 0, end = 0;
    if (!strcmp(argv[2], "count")) {
        printf("%ld\n", blocks(d, n, 0, &start, &end));
    } else if (!strcmp(argv[2], "check")) {
        check(d, n);
    } else {
        char *rest;
        long want = strtol(argv[2], &rest, 10);
        if (*rest || want < 1)
            die("N must be a block number (1-based), count or check");
        if (blocks(d, n, want, &start, &end) != want)
            die("no such block");
        payload(d, start, end);
    }
    return fflush(stdout) ? 1 : 0;
}
