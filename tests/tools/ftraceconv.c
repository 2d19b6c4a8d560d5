/*
 * Test and bench driver: converts saved host kernel text into a systrace
 * HTML page (or -j JSON) through the same path as --target=linux
 * (agents/linux/ftrace_conv.c); several inputs are per-CPU texts merged by time
 * as --stream's spools are (agents/linux/ftrace_merge.c).  So the conversion can
 * be timed on its own.  -w ID: the capture's clock-sync id, looked for as
 * the capture does.
 *   ftraceconv [-j] [-w ID] OUT IN [IN...]
 * Prints "events N bytes B" on stdout.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agents/linux/ftrace_conv.h"
#include "agents/linux/ftrace_merge.h"
#include "formats/html/viewer.h"

int main(int argc, char **argv)
{
    int a = 1, json = 0;
    const char *watch = NULL;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "-j"))
            json = 1;
        else if (!strcmp(argv[a], "-w") && a + 1 < argc)
            watch = argv[++a];
        else
            break;
    }
    if (argc - a < 2) {
        fprintf(stderr, "usage: ftraceconv [-j] [-w ID] OUT IN [IN...]\n");
        return 2;
    }
    const char *out = argv[a];
    char **in = argv + a + 1;
    size_t nin = (size_t)(argc - a - 1);
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
    struct fconv c = {.read = fconv_read_fd, .src = &fd, .merge = m, .norm = {.flags = 1},
                      .watch = watch};
    if (!e)
        e = tw_open(out, json ? TW_JSON : TW_HTML, &v, &w);
    if (!e)
        e = ftrace_convert(w, &c);
    if (!e)
        e = tw_commit(w);
    if (e)
        fprintf(stderr, "ftraceconv: %s: %s%s\n", st_strerror(e), c.err, why);
    else
        printf("events %llu bytes %llu%s\n", (unsigned long long)c.stats.events,
               (unsigned long long)c.bytes, watch && !c.watch_seen ? " (no watched text)" : "");
    if (fd >= 0)
        close(fd);
    fmerge_free(m);
    tw_free(w);
    viewer_free(&v);
    dynbuf_free(&err);
    return e ? 1 : 0;
}
