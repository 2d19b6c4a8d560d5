/*
 * `systrace --from-file F` (F may be "-", standard input): picks the output
 * name (outname.h: an existing default-named file is kept and a free name
 * used instead), opens the viewer and the output, runs the conversion
 * (formats/input/fromfile.c) and reports.  No output file appears unless
 * the conversion finished; a truncated input keeps what decoded, says so,
 * and exits with EXIT_PARTIAL.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "browser.h"
#include "cli.h"
#include "commands.h"
#include "lib/dynbuf.h"
#include "lib/plat.h"
#include "formats/input/fromfile.h"
#include "formats/atrace/linecut.h"
#include "formats/tevents/tevents.h"
#include "lib/signals.h"
#include "formats/html/tracewriter.h"
#include "formats/html/viewer.h"
#include "outname.h"
#include "pfopen.h"
#include "piececut.h"
#include "sumreport.h"

void report_written(const struct st_options *o, const char *path)
{
    if (o->quiet)
        return;
    char link[PATH_MAX + 16];
    browser_file_link(path, link, sizeof(link));
    printf("\nWrote trace %s file: %s\n\n", o->json ? "JSON" : "HTML", link);
    fflush(stdout);
}

void open_result(const struct st_options *o, const char *path)
{
    struct plat_stat st;
    if (o->open != BROWSER_PAGE)
        return;     /* none, or --open=perfetto: the caller serves the trace (pfopen.h) */
    if (o->json) {
        fprintf(stderr, "systrace: warning: --open: -j writes JSON, which a browser does "
                        "not show as a trace; open %s in https://ui.perfetto.dev or "
                        "chrome://tracing (or use --open=perfetto)\n", path);
        return;
    }
    char warn[PATH_MAX + 200];
    if (plat_stat(path, &st) != 0 || st.kind != PLAT_FILE)
        fprintf(stderr, "systrace: warning: --open: %s is not a file a browser can open\n",
                path);
    else if (browser_open(path, warn, sizeof(warn)))
        fprintf(stderr, "systrace: warning: %s\n", warn);
}

void open_in_perfetto(const struct st_options *o, const char *path, int sigfd)
{
    struct plat_stat st;
    if (plat_stat(path, &st) != 0 || st.kind != PLAT_FILE) {
        fprintf(stderr, "systrace: warning: --open=perfetto: %s is not a file that can be "
                        "served\n", path);
        return;
    }
    sig_serving();  /* the output is written: a Ctrl-C now only ends serving */
    pfopen_serve(&path, 1, o->quiet, sigfd);
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

int open_trace_events(const struct st_options *o, struct tracewriter *w, struct tevents **t)
{
    *t = NULL;
    if (!o->trace_events)
        return 0;
    enum st_err e = tevents_open_file(o->trace_events, t);
    if (e) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", o->trace_events,
                *t ? tevents_errtext(*t) : st_strerror(e));
        return -1;
    }
    struct tw_tee tee;
    tevents_tee(*t, &tee);
    tw_add_tee(w, &tee);
    return 0;
}

int commit_trace_events(const struct st_options *o, struct tevents *t)
{
    if (!t)
        return EXIT_OK;
    if (tevents_commit(t)) {
        fprintf(stderr, "systrace: %s: %s\n", o->trace_events, tevents_errtext(t));
        return EXIT_ERROR;
    }
    const struct tevents_stats *st = tevents_stats(t);
    if (!st->lines && !st->events && !o->quiet)
        fprintf(stderr, "systrace: warning: %s: no ftrace text to convert; it holds no "
                        "events\n", o->trace_events);
    if (st->dropped && !o->quiet)
        fprintf(stderr, "systrace: warning: %s: %llu items beyond the converter's memory "
                        "bounds were left out\n", o->trace_events,
                (unsigned long long)st->dropped);
    if (!o->quiet) {
        char link[PATH_MAX + 16];
        browser_file_link(o->trace_events, link, sizeof(link));
        printf("Wrote trace events JSON file: %s (%llu events)\n\n", link,
               (unsigned long long)st->events);
        fflush(stdout);
    }
    return EXIT_OK;
}

/* A note when a huge ftrace part was split into several blocks. */
void report_splits(const struct st_options *o, const struct tracewriter *w)
{
    if (o->quiet || !tw_splits(w))
        return;
    fprintf(stderr, "systrace: note: the trace text (%.0f MB) is written as %d trace-data "
                    "blocks so the classic viewer can load it; Perfetto UI reads all of "
                    "them\n", (double)tw_max_part_bytes(w) / 1e6, tw_splits(w) + 1);
}

/* Messages name the input; standard input has no name of its own. */
static const char *input_name(const struct st_options *o)
{
    return outname_is_stdin(o->from_file) ? "stdin" : o->from_file;
}

static void report_renamed(const struct st_options *o, const struct outname *n)
{
    if (n->taken && !o->quiet)
        fprintf(stderr, "systrace: note: %s already exists and was left alone; the result "
                        "went to %s (-o names the output)\n", n->taken, n->path);
}

/* The conversion into the open writer; an exit code. */
static int convert(const struct st_options *o, struct tracewriter *w, const char *out,
                   int *partial, enum ff_kind *kind)
{
    struct ff_result res;
    enum st_err e = fromfile_convert(o->from_file, w, &res);
    *kind = res.kind;
    if (e && e != ST_ETRUNCATED && tw_error(w)) {
        /* the output failed (a full disk), not the input */
        fprintf(stderr, "systrace: %s: cannot write: %s\n", out, tw_errtext(w));
        return EXIT_ERROR;
    }
    if (e && e != ST_ETRUNCATED) {
        fprintf(stderr, "systrace: %s: %s\n", input_name(o),
                res.detail[0] ? res.detail : st_strerror(e));
        return EXIT_ERROR;
    }
    if (tw_commit(w)) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", out, tw_errtext(w));
        return EXIT_ERROR;
    }
    if (e == ST_ETRUNCATED)
        fprintf(stderr, "systrace: %s: %s\n", input_name(o), res.detail);
    if (res.cut_lines) {
        char cut[200];
        lcut_message(cut, sizeof(cut), res.cut_lines);
        fprintf(stderr, "systrace: warning: %s: %s\n", input_name(o), cut);
    }
    if (res.note[0] && !o->quiet)
        fprintf(stderr, "systrace: note: %s: %s\n", input_name(o), res.note);
    *partial = e == ST_ETRUNCATED;
    return EXIT_OK;
}

int cmd_from_file(const struct st_options *o)
{
    if (o->pf_out)
        return cmd_pf_cut(o);          /* a Perfetto trace out (issue 35) */
    if (piece_active(&o->piece))
        return piece_from_file(o);     /* a piece (issue 35) */
    struct viewer v = {0};
    struct outname name;
    char err[512];
    if (outname_pick(o, &name, err, sizeof(err))) {
        fprintf(stderr, "systrace: %s\n", err);
        return EXIT_ERROR;
    }
    const char *out = name.path;
    if (!o->json && open_viewer(o, &v)) {
        outname_free(&name);
        return EXIT_ERROR;
    }
    struct tracewriter *w = NULL;
    struct tevents *te = NULL;
    struct summary *sum = NULL;
    enum st_err e = tw_open(out, o->json ? TW_JSON : TW_HTML, &v, &w);
    int rc = EXIT_OK, partial = 0;
    enum ff_kind kind = FF_UNKNOWN;
    if (e) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", out,
                w ? tw_errtext(w) : st_strerror(e));
        rc = EXIT_ERROR;
        goto done;
    }
    if (open_trace_events(o, w, &te) ||
        sumreport_open(o->summary, !o->quiet, w, NULL, 0, &sum)) {
        rc = EXIT_ERROR;
        goto done;
    }
    /* nothing on a device to clean up: Ctrl-C ends the conversion at once,
     * removing the unfinished output */
    int sigfd = sig_install();
    sig_exit_first();
    if ((rc = convert(o, w, out, &partial, &kind)))
        goto done;
    if (partial)
        rc = EXIT_PARTIAL;
    report_renamed(o, &name);
    report_splits(o, w);
    report_written(o, out);
    open_result(o, out);
    if (commit_trace_events(o, te))
        rc = EXIT_ERROR;
    if (sumreport_commit(sum, o->summary, !o->quiet, NULL, NULL))
        rc = EXIT_ERROR;
    if (o->open == BROWSER_PERFETTO)
        open_in_perfetto(o, kind == FF_PERFETTO && !outname_is_stdin(o->from_file) ?
                         o->from_file : out, sigfd);
done:
    sig_restore();
    tw_free(w);
    tevents_free(te);
    summary_free(sum);
    viewer_free(&v);
    outname_free(&name);
    return rc;
}
