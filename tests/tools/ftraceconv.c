/*
 * Test and bench driver: converts saved host kernel text (a --stream spool
 * kept with SYSTRACE_KEEP_RAW=1, or any ftrace text) into a systrace HTML
 * page (or -j JSON) through the same path as --target=linux
 * (agents/ftrace_conv.c), so the conversion can be timed on its own.
 *   ftraceconv [-j] IN OUT
 * Prints "events N bytes B" on stdout.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ftrace_conv.h"
#include "viewer.h"

int main(int argc, char **argv)
{
    int json = argc > 1 && !strcmp(argv[1], "-j");
    if (argc != 3 + json) {
        fprintf(stderr, "usage: ftraceconv [-j] IN OUT\n");
        return 2;
    }
    const char *in = argv[1 + json], *out = argv[2 + json];
    struct viewer v = {0};
    struct dynbuf err;
    dynbuf_init(&err, 4096);
    if (!json && viewer_load(NULL, &v, NULL, &err)) {
        fprintf(stderr, "ftraceconv: %s\n", dynbuf_str(&err));
        return 1;
    }
    int fd = open(in, O_RDONLY | O_CLOEXEC);
    struct tracewriter *w = NULL;
    struct fconv c = {.norm = {.flags = 1}};
    enum st_err e = fd < 0 ? ST_ENOENT : tw_open(out, json ? TW_JSON : TW_HTML, &v, &w);
    if (!e)
        e = ftrace_convert(fd, w, &c);
    if (!e)
        e = tw_commit(w);
    if (e)
        fprintf(stderr, "ftraceconv: %s: %s\n", st_strerror(e), c.err);
    else
        printf("events %llu bytes %llu\n", (unsigned long long)c.stats.events,
               (unsigned long long)c.bytes);
    if (fd >= 0)
        close(fd);
    tw_free(w);
    viewer_free(&v);
    dynbuf_free(&err);
    return e ? 1 : 0;
}
