/* A capture's result files; see result.h. */
#include "result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "controller.h"
#include "lib/outfile.h"
#include "lib/plat.h"
#include "lib/tmpfiles.h"
#include "outname.h"
#include "piececut.h"
#include "sumreport.h"

/* trace.html -> trace<ext>; for an output written in place (stdout,
 * /dev/null, a FIFO) trace<ext> in the working directory, not beside it. */
static char *raw_path_for(const char *out, const char *ext)
{
    struct plat_stat st;
    if (!strcmp(out, "-") || (plat_stat(out, &st) == 0 && st.kind != PLAT_FILE))
        out = "trace";
    size_t n = strlen(out);
    const char *slash = strrchr(out, '/');
    const char *dot = strrchr(out, '.');
    if (dot && (!slash || dot > slash + 1))
        n = (size_t)(dot - out);
    size_t len = n + strlen(ext) + 1;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%.*s%s", (int)n, out, ext);
    return p;
}

int result_open(const struct st_options *o, const char *raw_ext, struct result *r)
{
    return result_open_viewer(o, raw_ext, NULL, -1, r);
}

/* A piece of the capture: the whole of it into a temporary JSON result
 * beside the output (TRACE.whole.json.tmp.XXXXXX, where a failed cut keeps
 * it as TRACE.whole.json), cut at the end (piececut.h); the tees hang on
 * the piece's writer. */
static int open_piece(const struct st_options *o, struct result *r)
{
    char why[512];
    /* where the piece goes is checked before tracing, as for a whole page */
    if (outfile_check(r->out, 0, why, sizeof(why))) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->out, why);
        return EXIT_ERROR;
    }
    char *whole = raw_path_for(r->out, ".whole.json");
    size_t n = whole ? strlen(whole) + 16 : 0;
    r->piece_tmp = whole ? malloc(n) : NULL;
    if (!r->piece_tmp) {
        fprintf(stderr, "systrace: out of memory\n");
        free(whole);
        return EXIT_ERROR;
    }
    snprintf(r->piece_tmp, n, "%s.tmp.XXXXXX", whole);
    free(whole);
    int fd = plat_mkstemp_listed(r->piece_tmp);
    if (fd < 0) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->piece_tmp, strerror(errno));
        free(r->piece_tmp);
        r->piece_tmp = NULL;
        return EXIT_ERROR;
    }
    close(fd);
    enum st_err e = tw_open(r->piece_tmp, TW_JSON, NULL, &r->w);
    if (e) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->piece_tmp,
                r->w ? tw_errtext(r->w) : st_strerror(e));
        return EXIT_ERROR;
    }
    (void)o;
    return EXIT_OK;
}


int result_open_viewer(const struct st_options *o, const char *raw_ext,
                       const struct viewer *v, int show_summary, struct result *r)
{
    memset(r, 0, sizeof(*r));
    r->out = options_output_path(o);
    r->raw = r->out ? raw_path_for(r->out, raw_ext) : NULL;
    if (!r->out || !r->raw) {
        fprintf(stderr, "systrace: out of memory\n");
        return EXIT_ERROR;
    }
    if (v && !o->json) {
        r->v = *v;
        r->shared_viewer = 1;
    } else if (!o->json && open_viewer(o, &r->v)) {
        return EXIT_ERROR;
    }
    int piece = piece_active(&o->piece) && !o->pf_out;
    if (piece && open_piece(o, r))
        return EXIT_ERROR;
    enum st_err e = piece ? ST_OK : tw_open(r->out, o->json ? TW_JSON : TW_HTML, &r->v, &r->w);
    if (e) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->out,
                r->w ? tw_errtext(r->w) : st_strerror(e));
        return EXIT_ERROR;
    }
    char err[300];
    if (outfile_check(r->raw, OUTFILE_NOREPLACE, err, sizeof(err))) {
        /* where a failed collection keeps its data: checked before tracing */
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->raw, err);
        return EXIT_ERROR;
    }
    r->sum_show = show_summary >= 0 ? show_summary : !o->quiet;
    if (piece)
        return EXIT_OK;     /* the summary and --trace-events come with the piece */
    /* --rows: a summary for the rows, its lines shown only as asked */
    if (sumreport_open(o->summary, r->sum_show || o->rows, r->w, o->categories, o->ncategories,
                       &r->sum))
        return EXIT_ERROR;
    return open_trace_events(o, r->w, &r->te) ? EXIT_ERROR : EXIT_OK;
}

/* The piece could not be made: the whole capture stays beside the output
 * under the first free name of TRACE.whole.json, said. */
static void keep_whole(struct result *r)
{
    struct outname name;
    char err[300];
    char *def = raw_path_for(r->out, ".whole.json");
    const char *at = r->piece_tmp;
    int named = def && !outname_free_of(def, ".json", &name, err, sizeof(err));
    if (named && !plat_rename_noreplace(r->piece_tmp, name.path))
        at = name.path;
    tmpfiles_forget(r->piece_tmp);
    fprintf(stderr, "systrace: the whole capture is kept in %s (--from-file converts it)\n",
            at);
    if (named)
        outname_free(&name);
    free(r->piece_tmp);
    r->piece_tmp = NULL;
}

/* PATH (written through w) could not be written after the capture was
 * collected: said in one line with where the capture's agents kept its
 * raw data (a reader that went away asked for none). */
static int commit_failed(struct result *r, const char *path, const struct tracewriter *w)
{
    struct dynbuf kept;
    dynbuf_init(&kept, 8192);
    ctl_keep(r->ctl, tw_error(w) == ST_EPIPE, &kept);
    fprintf(stderr, "systrace: %s: cannot write: %s%s\n", path, tw_errtext(w),
            dynbuf_str(&kept));
    dynbuf_free(&kept);
    return EXIT_ERROR;
}

/* The capture is whole in r->piece_tmp: the piece from it; if that
 * fails, the capture stays where it is and the user is told. */
static int commit_piece(const struct st_options *o, struct result *r)
{
    if (tw_commit(r->w))
        return commit_failed(r, r->piece_tmp, r->w);
    int reader_left = 0;
    struct piece_dev dev = {r->sum_prefix, r->device, r->model, r->release, r->sum_show};
    int rc = piece_of_result(o, r->piece_tmp, r->out, &dev, &reader_left);
    /* kept unless a reader that went away (head -c1) asked for no file, as
     * without a piece */
    if (rc && !reader_left)
        keep_whole(r);
    return rc;
}

int result_commit(const struct st_options *o, struct result *r)
{
    if (!o->quiet)
        printf("Outputting Systrace results...\n");
    if (r->piece_tmp)
        return commit_piece(o, r);
    if (tw_commit(r->w))
        return commit_failed(r, r->out, r->w);
    report_splits(o, r->w);
    report_written(o, r->out);
    int rc = commit_trace_events(o, r->te);
    if (sumreport_commit(r->sum, o->summary, r->sum_show, r->sum_prefix, r->device))
        rc = EXIT_ERROR;
    open_result(o, r->out);
    return rc;
}

void result_free(struct result *r)
{
    tw_free(r->w);
    tevents_free(r->te);
    summary_free(r->sum);
    if (!r->shared_viewer)
        viewer_free(&r->v);
    free(r->out);
    free(r->raw);
    if (r->piece_tmp) {
        plat_unlink(r->piece_tmp);
        tmpfiles_forget(r->piece_tmp);
        free(r->piece_tmp);
    }
    memset(r, 0, sizeof(*r));
}

void result_report_error(const struct result *r, const char *who, const char *detail)
{
    if (r->w && tw_error(r->w))
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->out, tw_errtext(r->w));
    fprintf(stderr, "systrace: %s: %s\n", who, detail);
}
