/*
 * Test and bench driver: converts saved host kernel text into a systrace
 * HTML page (or -j JSON) through the same path as --target=linux
 * (agents/ftrace_conv.c); several inputs are per-CPU texts merged by time
 * as --stream's spools are (agents/ftrace_merge.c).  So the conversion can
 * be timed on its own.
 *   ftraceconv [-j] OUT IN [IN...]
 * Prints "events N bytes B" on stdout.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ftrace_conv.h"
#include "ftrace_merge.h"
#include "viewer.h"

static ssize_t merge_read(void *m, char *buf, size_t n)
{
    return fmerge_read(m, buf, n);
}

int main(int argc, char **argv)
{
    int json = argc > 1 && !strcmp(argv[1], "-j");
    if (argc < 3 + json) {
        fprintf(stderr, "usage: ftraceconv [-j] OUT IN [IN...]\n");
        return 2;
    }
    const char *out = argv[1 + json];
    char **in = argv + 2 + json;
    size_t nin = (size_t)(argc - 2 - json);
    struct viewer v = {0};
    struct dynbuf err;
    dynbuf_init(&err, 4096);
    if (!json && viewer_load(NULL, &v, NULL, &err)) {
        fprintf(stderr, "ftraceconv: %s\n", dynbuf_str(&err));
        return 1;
    }
    int fd = -1;
    struct fmerge *m = NULL;
    char why[600] = "";
    enum st_err e = ST_OK;
    if (nin == 1)
        e = (fd = open(in[0], O_RDONLY | O_CLOEXEC)) < 0 ? ST_ENOENT : ST_OK;
    else
        e = fmerge_open(in, nin, &m, why, sizeof(why));
    struct tracewriter *w = NULL;
    struct fconv c = {.read = m ? merge_read : fconv_read_fd,
                      .src = m ? (void *)m : (void *)&fd, .norm = {.flags = 1}};
    if (!e)
        e = tw_open(out, json ? TW_JSON : TW_HTML, &v, &w);
    if (!e)
        e = ftrace_convert(w, &c);
    if (!e)
        e = tw_commit(w);
    if (e)
        fprintf(stderr, "ftraceconv: %s: %s%s\n", st_strerror(e), c.err, why);
    else
        printf("events %llu bytes %llu\n", (unsigned long long)c.stats.events,
               (unsigned long long)c.bytes);
    if (fd >= 0)
        close(fd);
    fmerge_free(m);
    tw_free(w);
    viewer_free(&v);
    dynbuf_free(&err);
    return e ? 1 : 0;
}
