/*
 * `systrace --from-file F`: opens the viewer and the output, runs the
 * conversion (agents/fromfile.c) and reports.  No output file appears
 * unless the conversion finished; a truncated input keeps what decoded,
 * says so, and exits with EXIT_PARTIAL.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "dynbuf.h"
#include "fromfile.h"
#include "tracewriter.h"
#include "viewer.h"

void report_written(const struct st_options *o, const char *path)
{
    if (o->quiet)
        return;
    char abs[PATH_MAX];
    if (!realpath(path, abs))
        snprintf(abs, sizeof(abs), "%s", path);
    printf("\nWrote trace %s file: file://%s\n\n", o->json ? "JSON" : "HTML", abs);
    fflush(stdout);
}

/* Load the viewer for HTML output; prints its own error. */
int open_viewer(const struct st_options *o, struct viewer *v)
{
    struct dynbuf warn, err;
    dynbuf_init(&warn, 4096);
    dynbuf_init(&err, 4096);
    enum st_err e = viewer_load(o->viewer, v, &warn, &err);
    if (warn.len && !o->quiet)
        fprintf(stderr, "systrace: warning: %s", dynbuf_str(&warn));
    if (e)
        fprintf(stderr, "systrace: %s\n", dynbuf_str(&err));
    dynbuf_free(&warn);
    dynbuf_free(&err);
    return e ? -1 : 0;
}

int cmd_from_file(const struct st_options *o)
{
    struct viewer v = {0};
    char *out = options_output_path(o);
    if (!out) {
        fprintf(stderr, "systrace: out of memory\n");
        return EXIT_ERROR;
    }
    if (!o->json && open_viewer(o, &v)) {
        free(out);
        return EXIT_ERROR;
    }
    struct tracewriter *w = NULL;
    enum st_err e = tw_open(out, o->json ? TW_JSON : TW_HTML, &v, &w);
    int rc = EXIT_OK;
    if (e) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", out,
                w ? tw_errtext(w) : st_strerror(e));
        rc = EXIT_ERROR;
        goto done;
    }
    struct ff_result res;
    e = fromfile_convert(o->from_file, w, &res);
    if (e && e != ST_ETRUNCATED) {
        fprintf(stderr, "systrace: %s: %s\n", o->from_file,
                res.detail[0] ? res.detail : st_strerror(e));
        rc = EXIT_ERROR;
        goto done;
    }
    if (tw_commit(w)) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", out, tw_errtext(w));
        rc = EXIT_ERROR;
        goto done;
    }
    if (e == ST_ETRUNCATED) {
        fprintf(stderr, "systrace: %s: %s\n", o->from_file, res.detail);
        rc = EXIT_PARTIAL;
    }
    report_written(o, out);
done:
    tw_free(w);
    viewer_free(&v);
    free(out);
    return rc;
}
