/* Pieces of ftrace text in one pass; see piecepass.h. */
#include "piecepass.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "cli.h"
#include "commands.h"
#include "formats/atrace/linecut.h"
#include "formats/html/tracewriter.h"
#include "formats/input/fromfile.h"
#include "formats/piece/pcut.h"
#include "formats/piece/pline.h"
#include "formats/tevents/tevents.h"
#include "lib/plat.h"
#include "lib/tmpfiles.h"
#include "outname.h"
#include "sumreport.h"

#define PIECES_MAX 999

struct written {
    struct outname name;
    int64_t lo, hi;
};

struct pass {
    const struct st_options *o;
    const struct viewer *v;
    const char *out;
    int split;
    struct tracewriter *w;      /* the piece being written (or, alone, done) */
    struct tevents *te;
    struct summary *sum;
    struct outname cur;         /* its name, in a split */
    struct written done[PIECES_MAX];
    size_t ndone;
    int said;                   /* an error was said already */
};

void piece_report(const struct st_options *o, const char *path, int64_t lo, int64_t hi,
                  int64_t first)
{
    char link[PATH_MAX + 16], a[32], b[32], ta[32], tb[32];
    if (o->quiet)
        return;
    browser_file_link(path, link, sizeof(link));
    pline_fmt_secs(a, sizeof(a), lo - first);
    pline_fmt_secs(b, sizeof(b), hi - first);
    pline_fmt_secs(ta, sizeof(ta), lo);
    pline_fmt_secs(tb, sizeof(tb), hi);
    printf("Wrote trace %s file: %s (%s..%s s, ts:%s..%s)\n", o->json ? "JSON" : "HTML", link,
           a, b, ta, tb);
}

void piece_no_events(const struct st_options *o, const char *what, int64_t lo, int64_t hi,
                     int64_t first, int64_t last)
{
    char a[32], b[32];
    pline_fmt_secs(a, sizeof(a), lo > first ? lo - first : 0);
    pline_fmt_secs(b, sizeof(b), (hi < last ? hi : last) - first);
    fprintf(stderr, "systrace: %s: the piece holds no events (%s..%s s from the trace's "
                    "start%s)\n", what, a, b, o->piece.nprocs ? ", of the chosen processes" : "");
}

int piecepass_fits(const struct st_options *o)
{
    struct plat_stat st;
    const struct piece_spec *s = &o->piece;
    if (s->nprocs || s->range == PIECE_SLICE || outname_is_stdin(o->from_file))
        return 0;
    return plat_stat(o->from_file, &st) == 0 && st.kind == PLAT_FILE;
}

static const char *input_name(const struct st_options *o)
{
    return o->from_file;
}

static enum st_err out_error(struct pass *s, const char *path, const char *why)
{
    fprintf(stderr, "systrace: %s: cannot write: %s\n", path, why);
    s->said = 1;
    return ST_EIO;
}

/* Every piece so far removed (a failure, or a circular-buffer cut). */
static void drop_all(struct pass *s)
{
    tw_free(s->w);
    s->w = NULL;
    tevents_free(s->te);
    s->te = NULL;
    summary_free(s->sum);
    s->sum = NULL;
    outname_free(&s->cur);
    for (size_t i = 0; i < s->ndone; i++) {
        plat_unlink(s->done[i].name.path);
        tmpfiles_forget(s->done[i].name.path);
        outname_free(&s->done[i].name);
    }
    s->ndone = 0;
}

static enum st_err piece_open(void *ctx, unsigned n, int64_t lo, st_write_fn *out,
                              void **out_ctx)
{
    struct pass *s = ctx;
    const struct st_options *o = s->o;
    const char *path = s->out;
    char err[PATH_MAX + 100];
    (void)lo;
    if (s->split) {
        if (n >= PIECES_MAX) {
            fprintf(stderr, "systrace: --split: more than %d pieces; ask for bigger ones\n",
                    PIECES_MAX);
            s->said = 1;
            return ST_ETOOBIG;
        }
        if (outname_piece(s->out, n + 1, &s->cur, err, sizeof(err))) {
            fprintf(stderr, "systrace: %s\n", err);
            s->said = 1;
            return ST_EIO;
        }
        if (s->cur.taken && !o->quiet)
            fprintf(stderr, "systrace: note: %s already exists and was left alone; that "
                            "piece goes to %s\n", s->cur.taken, s->cur.path);
        path = s->cur.path;
    }
    enum st_err e = tw_open(path, o->json ? TW_JSON : TW_HTML, s->v, &s->w);
    if (e)
        return out_error(s, path, s->w ? tw_errtext(s->w) : st_strerror(e));
    if (!s->split && (open_trace_events(o, s->w, &s->te) ||
                      sumreport_open(o->summary, !o->quiet, s->w, NULL, 0, &s->sum))) {
        s->said = 1;
        return ST_EIO;
    }
    *out = tw_write_kept;
    *out_ctx = s->w;
    return tw_begin(s->w, "systemTraceEvents");
}

static enum st_err piece_close(void *ctx, unsigned n, int64_t lo, int64_t hi, uint64_t kept)
{
    struct pass *s = ctx;
    (void)n;
    (void)kept;
    enum st_err e = tw_end(s->w);
    if (e || tw_error(s->w))
        return out_error(s, tw_path(s->w), tw_errtext(s->w));
    if (!s->split) {
        s->done[0].lo = lo;
        s->done[0].hi = hi;
        return ST_OK;           /* committed at the end, with its tees */
    }
    /* listed before it appears: an interrupted split leaves no piece, even
     * one renamed into place an instant before (its name was free) */
    tmpfiles_add(s->cur.path);
    if (tw_commit(s->w)) {
        tmpfiles_forget(s->cur.path);
        return out_error(s, s->cur.path, tw_errtext(s->w));
    }
    tw_free(s->w);
    s->w = NULL;
    struct written *d = &s->done[s->ndone++];
    d->name = s->cur;
    memset(&s->cur, 0, sizeof(s->cur));
    d->lo = lo;
    d->hi = hi;
    return ST_OK;
}

static enum st_err piece_restart(void *ctx)
{
    drop_all(ctx);
    return ST_OK;
}

/* Why there is no piece at all. */
static void no_piece(struct pass *s, const struct pcut *c)
{
    int64_t first, last, lo, hi;
    char span[200], a[32], b[32];
    pcut_span(c, &first, &last, &lo, &hi);
    pline_fmt_secs(a, sizeof(a), first);
    pline_fmt_secs(b, sizeof(b), last);
    snprintf(span, sizeof(span), "the trace spans 0.0..%.3f s (ts:%s..%s)",
             (double)(last - first) / 1e9, a, b);
    if (piece_empty(&s->o->piece))
        fprintf(stderr, "systrace: %s: --time-range: the range is empty; %s\n",
                input_name(s->o), span);
    else if (lo >= hi || lo > last || hi <= first)
        fprintf(stderr, "systrace: %s: --time-range: the range is outside the trace; %s\n",
                input_name(s->o), span);
    else
        piece_no_events(s->o, input_name(s->o), lo, hi, first, last);
}

/* The run's end: the piece (with its tees) or the pieces, said. */
static int finish(struct pass *s, const struct pcut *c)
{
    const struct st_options *o = s->o;
    int64_t first, last, lo, hi;
    pcut_span(c, &first, &last, &lo, &hi);
    if (!s->split) {
        if (tw_commit(s->w)) {
            out_error(s, s->out, tw_errtext(s->w));
            return EXIT_ERROR;
        }
        report_splits(o, s->w);
        report_written(o, s->out);
        int rc = commit_trace_events(o, s->te);
        if (sumreport_commit(s->sum, o->summary, !o->quiet, NULL, NULL))
            rc = EXIT_ERROR;
        if (!rc)
            open_result(o, s->out);
        return rc;
    }
    if (!o->quiet)
        printf("\n");
    for (size_t i = 0; i < s->ndone; i++) {
        piece_report(o, s->done[i].name.path, s->done[i].lo, s->done[i].hi, first);
        tmpfiles_forget(s->done[i].name.path);
        outname_free(&s->done[i].name);
    }
    s->ndone = 0;
    if (!o->quiet)
        printf("\n");
    fflush(stdout);
    return EXIT_OK;
}

/* What the conversion said: a line, and whether to go on. */
static int converted(struct pass *s, enum st_err e, const struct ff_result *res)
{
    const struct st_options *o = s->o;
    if (e && e != ST_ETRUNCATED) {
        if (!s->said)
            fprintf(stderr, "systrace: %s: %s\n", input_name(o),
                    res->detail[0] ? res->detail : st_strerror(e));
        return EXIT_ERROR;
    }
    if (e == ST_ETRUNCATED)
        fprintf(stderr, "systrace: %s: %s\n", input_name(o), res->detail);
    if (res->cut_lines) {
        char cut[200];
        lcut_message(cut, sizeof(cut), res->cut_lines);
        fprintf(stderr, "systrace: warning: %s: %s\n", input_name(o), cut);
    }
    if (res->note[0] && !o->quiet)
        fprintf(stderr, "systrace: note: %s: %s\n", input_name(o), res->note);
    return EXIT_OK;
}

int piecepass_run(const struct st_options *o, const struct viewer *v, const char *out,
                  int sigfd)
{
    struct pass *s = calloc(1, sizeof(*s));
    struct pcut *c = NULL;
    struct tracewriter *nowhere = NULL;
    struct ff_result res;
    int rc = EXIT_ERROR;
    if (!s) {
        fprintf(stderr, "systrace: out of memory\n");
        return EXIT_ERROR;
    }
    *s = (struct pass){.o = o, .v = v, .out = out,
                       .split = o->piece.split_bytes || o->piece.split_ns};
    struct pcut_pieces ops = {piece_open, piece_close, piece_restart, s};
    enum st_err e = (c = pcut_new_pieces(&o->piece, &ops)) ? tw_open(NULL, TW_JSON, NULL, &nowhere)
                                                          : ST_ENOMEM;
    if (e) {
        fprintf(stderr, "systrace: %s\n", st_strerror(e));
        goto done;
    }
    struct tw_filter f = {pcut_begin, pcut_write, pcut_end, c};
    tw_set_filter(nowhere, &f);
    e = fromfile_convert_flags(o->from_file, nowhere, FF_NO_CUT | FF_TEXT_ONLY, &res);
    if (e == ST_EUNSUPPORTED && (res.not_text || pcut_unordered(c))) {
        rc = -1;
        goto done;
    }
    if ((rc = converted(s, e, &res)))
        goto done;
    if (!pcut_pieces_begun(c)) {
        no_piece(s, c);
        rc = EXIT_ERROR;
        goto done;
    }
    rc = finish(s, c);
    if (!rc && !s->split && o->open == BROWSER_PERFETTO)
        open_in_perfetto(o, out, sigfd);
    if (!rc && e == ST_ETRUNCATED)
        rc = EXIT_PARTIAL;
done:
    if (rc && rc != EXIT_PARTIAL)
        drop_all(s);
    tw_free(s->w);
    tevents_free(s->te);
    summary_free(s->sum);
    outname_free(&s->cur);
    tw_free(nowhere);
    pcut_free(c);
    free(s);
    return rc;
}
