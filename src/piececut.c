/* Pieces of a trace as pages; see piececut.h. */
#include "piececut.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "cli.h"
#include "commands.h"
#include "formats/atrace/linecut.h"
#include "formats/html/tracewriter.h"
#include "formats/html/viewer.h"
#include "formats/input/fromfile.h"
#include "formats/piece/pcut.h"
#include "formats/piece/pline.h"
#include "formats/piece/pscan.h"
#include "formats/tevents/tevents.h"
#include "lib/plat.h"
#include "lib/signals.h"
#include "lib/tmpfiles.h"
#include "outname.h"
#include "piecefan.h"
#include "piecepass.h"
#include "sumreport.h"

#define PIECES_MAX 999

struct run {
    const struct st_options *o;
    char tmp[PATH_MAX];         /* the whole result, as JSON */
    int have_tmp;
    struct pscan *scan;
    struct viewer v;
    struct piece_window win;
    int reader_left;            /* an output's reader went away (| head -c1) */
    int sigfd;                  /* --from-file: to serve a piece to Perfetto; else -1 */
    struct piece_dev dev;       /* a live capture's device, for the summary */
};

/* An output that cannot be written: said; a reader that went away is
 * remembered, so that a live capture is not kept for it (a full disk
 * keeps it). */
static void out_error(struct run *r, const char *path, enum st_err e, const char *why)
{
    fprintf(stderr, "systrace: %s: cannot write: %s\n", path, why);
    r->reader_left |= e == ST_EPIPE;
}

static const char *input_name(const struct st_options *o)
{
    return outname_is_stdin(o->from_file) ? "stdin" : o->from_file;
}

static int make_tmp(struct run *r)
{
    snprintf(r->tmp, sizeof(r->tmp), "%s/systrace-piece-XXXXXX", plat_tmpdir());
    int fd = plat_mkstemp_listed(r->tmp);
    if (fd < 0) {
        fprintf(stderr, "systrace: %s: cannot write a temporary file\n", plat_tmpdir());
        return -1;
    }
    close(fd);
    r->have_tmp = 1;
    return 0;
}

static void run_free(struct run *r)
{
    if (r->have_tmp) {
        plat_unlink(r->tmp);
        tmpfiles_forget(r->tmp);
    }
    pscan_free(r->scan);
    viewer_free(&r->v);
}

/* The first pass: the input converted whole into r->tmp, scanned. */
static int whole(struct run *r, int *partial)
{
    const struct st_options *o = r->o;
    struct tracewriter *w = NULL;
    struct ff_result res;
    if (make_tmp(r))
        return EXIT_ERROR;
    /* a page without a viewer: cheaper to write and read again than JSON
     * (no string escapes), and its bytes stay as they came */
    static char empty[1];
    struct viewer none = {.html = empty, .js = empty};     /* nothing substituted */
    enum st_err e = tw_open(r->tmp, TW_HTML, &none, &w);
    if (!e) {
        struct tw_tee tee = {pscan_begin, pscan_write, pscan_end, NULL, r->scan, NULL};
        tw_add_tee(w, &tee);
        e = fromfile_convert(o->from_file, w, &res);
        if (e && e != ST_ETRUNCATED && !tw_error(w)) {
            fprintf(stderr, "systrace: %s: %s\n", input_name(o),
                    res.detail[0] ? res.detail : st_strerror(e));
            tw_free(w);
            return EXIT_ERROR;
        }
        *partial = e == ST_ETRUNCATED;
        if (*partial)
            fprintf(stderr, "systrace: %s: %s\n", input_name(o), res.detail);
        if (res.cut_lines) {
            char cut[200];
            lcut_message(cut, sizeof(cut), res.cut_lines);
            fprintf(stderr, "systrace: warning: %s: %s\n", input_name(o), cut);
        }
        if (res.note[0] && !o->quiet)
            fprintf(stderr, "systrace: note: %s: %s\n", input_name(o), res.note);
        e = tw_error(w) ? tw_error(w) : tw_commit(w);
    }
    if (e)
        fprintf(stderr, "systrace: %s: cannot write: %s\n", r->tmp,
                w ? tw_errtext(w) : st_strerror(e));
    tw_free(w);
    if (!e && pscan_failed(r->scan)) {
        fprintf(stderr, "systrace: out of memory while reading the trace's names\n");
        return EXIT_ERROR;
    }
    return e ? EXIT_ERROR : EXIT_OK;
}

/* The scan as a filter that keeps nothing: for a result already whole. */
static int scan_only(void *s, const char *part)
{
    pscan_begin(s, part);
    return 1;
}

static enum st_err scan_write(void *s, const void *p, size_t n)
{
    pscan_write(s, p, n);
    return ST_OK;
}

static enum st_err scan_end(void *s)
{
    pscan_end(s);
    return ST_OK;
}

static int scan_file(struct run *r, const char *path)
{
    struct tracewriter *w = NULL;
    struct ff_result res;
    enum st_err e = tw_open(plat_null_device(), TW_JSON, NULL, &w);
    if (!e) {
        struct tw_filter f = {scan_only, scan_write, scan_end, r->scan};
        tw_set_filter(w, &f);
        e = fromfile_convert_flags(path, w, FF_NO_CUT, &res);
    }
    tw_free(w);
    if (e && e != ST_ETRUNCATED) {
        fprintf(stderr, "systrace: %s: %s\n", path, st_strerror(e));
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

/* The second pass: r->tmp through the cutter into w (open, tees hung). */
static int cut_into(struct run *r, const struct piece_window *win, struct tracewriter *w,
                    const char *out, uint64_t *kept)
{
    struct pcut *c = pcut_new(win, tw_write_kept, w);
    struct ff_result res;
    if (!c) {
        fprintf(stderr, "systrace: out of memory\n");
        return EXIT_ERROR;
    }
    struct tw_filter f = {pcut_begin, pcut_write, pcut_end, c};
    tw_set_filter(w, &f);
    enum st_err e = fromfile_convert_flags(r->tmp, w, FF_NO_CUT, &res);
    *kept = pcut_kept(c);
    tw_set_filter(w, NULL);
    pcut_free(c);
    if (e && e != ST_ETRUNCATED) {
        if (tw_error(w))
            out_error(r, out, tw_error(w), tw_errtext(w));
        else
            fprintf(stderr, "systrace: %s: %s\n", r->tmp,
                    res.detail[0] ? res.detail : st_strerror(e));
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

static void no_events(const struct run *r, const char *what)
{
    int64_t first, last;
    pscan_span(r->scan, &first, &last);
    piece_no_events(r->o, what, r->win.lo, r->win.hi, first, last);
}

/* One piece into out, with the tees of o. */
static int one_piece(struct run *r, const char *out)
{
    const struct st_options *o = r->o;
    struct tracewriter *w = NULL;
    struct tevents *te = NULL;
    struct summary *sum = NULL;
    uint64_t kept = 0;
    int rc = EXIT_ERROR;
    enum st_err e = tw_open(out, o->json ? TW_JSON : TW_HTML, &r->v, &w);
    if (e) {
        out_error(r, out, e, w ? tw_errtext(w) : st_strerror(e));
        goto done;
    }
    if (open_trace_events(o, w, &te) ||
        sumreport_open(o->summary, r->dev.show, w, NULL, 0, &sum))
        goto done;
    if (sum && r->dev.model)
        summary_set_device(sum, r->dev.model, r->dev.release);
    if (cut_into(r, &r->win, w, out, &kept))
        goto done;
    if (!kept) {
        no_events(r, o->from_file ? input_name(o) : out);
        goto done;
    }
    if (tw_commit(w)) {
        out_error(r, out, tw_error(w), tw_errtext(w));
        goto done;
    }
    report_splits(o, w);
    report_written(o, out);
    rc = commit_trace_events(o, te);
    if (sumreport_commit(sum, o->summary, r->dev.show, r->dev.prefix, r->dev.device))
        rc = EXIT_ERROR;
done:
    tw_free(w);
    tevents_free(te);
    summary_free(sum);
    return rc;
}

/* The pieces' bounds within the window: n + 1 times. */
static size_t split_bounds(const struct run *r, int64_t *at, size_t max)
{
    const struct piece_spec *s = &r->o->piece;
    int64_t first, last;
    pscan_span(r->scan, &first, &last);
    int64_t lo = r->win.lo > first ? r->win.lo : first;
    int64_t hi = r->win.hi <= last ? r->win.hi : last + 1;
    size_t n = 0;
    at[n++] = lo;
    if (s->split_ns) {
        for (int64_t t = lo + s->split_ns; t < hi && n < max - 1; t += s->split_ns)
            at[n++] = t;
    } else {
        int64_t b[PIECES_MAX];
        size_t nb = pscan_size_bounds(r->scan, s->split_bytes, b, PIECES_MAX);
        for (size_t i = 0; i < nb && n < max - 1; i++)
            if (b[i] > at[n - 1] && b[i] < hi)
                at[n++] = b[i];
    }
    at[n++] = hi;
    return n;
}

static void report_piece(const struct run *r, const char *path, int64_t lo, int64_t hi)
{
    int64_t first, last;
    pscan_span(r->scan, &first, &last);
    piece_report(r->o, path, lo, hi, first);
}

/* Pieces first..first+n-1 of the windows at[] in one read; the numbers of
 * those written (with events) go to done[] (*k of them so far). */
static int fan_pass(struct run *r, const struct outname *names, const int64_t *at,
                    size_t first, size_t n, size_t *done, size_t *k)
{
    struct piece_out p[PIECEFAN_MAX];
    const char *path;
    struct ff_result res;
    int rc = EXIT_OK;
    memset(p, 0, sizeof(p));
    for (size_t i = 0; i < n && !rc; i++) {
        p[i].win = r->win;
        p[i].win.lo = at[first + i];
        p[i].win.hi = at[first + i + 1];
        path = names[first + i].path;
        enum st_err e = tw_open(path, r->o->json ? TW_JSON : TW_HTML, &r->v, &p[i].w);
        if (e) {
            out_error(r, path, e, p[i].w ? tw_errtext(p[i].w) : st_strerror(e));
            rc = EXIT_ERROR;
        }
    }
    enum st_err e = rc ? ST_OK : piecefan_run(r->tmp, p, n, &res);
    for (size_t i = 0; i < n && !rc; i++) {
        path = names[first + i].path;
        if (tw_error(p[i].w)) {
            out_error(r, path, tw_error(p[i].w), tw_errtext(p[i].w));
            rc = EXIT_ERROR;
        }
    }
    if (!rc && e) {
        fprintf(stderr, "systrace: %s: %s\n", r->tmp, res.detail[0] ? res.detail
                                                                   : st_strerror(e));
        rc = EXIT_ERROR;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        if (!p[i].kept)
            continue;           /* a window without events: no piece */
        path = names[first + i].path;
        tmpfiles_add(path);     /* an interrupted split leaves no piece (pieces()) */
        if (tw_commit(p[i].w)) {
            tmpfiles_forget(path);
            out_error(r, path, tw_error(p[i].w), tw_errtext(p[i].w));
            rc = EXIT_ERROR;
        } else {
            done[(*k)++] = first + i;
        }
    }
    for (size_t i = 0; i < n; i++)
        tw_free(p[i].w);
    return rc;
}

/* The pieces' names, NAME.001.html ...: one already there is left alone
 * and the piece takes the first free NAME.001-1.html (said). */
static int piece_names(const struct run *r, const char *out, struct outname *names,
                       size_t n)
{
    char err[PATH_MAX + 100];
    for (size_t i = 0; i < n; i++) {
        if (outname_piece(out, (unsigned)i + 1, &names[i], err, sizeof(err))) {
            fprintf(stderr, "systrace: %s\n", err);
            return -1;
        }
        if (names[i].taken && !r->o->quiet)
            fprintf(stderr, "systrace: note: %s already exists and was left alone; that "
                            "piece goes to %s\n", names[i].taken, names[i].path);
    }
    return 0;
}

/* The pieces, PIECEFAN_MAX per read of the whole result, each renamed
 * into place when complete; if one fails, those written go again. */
static int pieces(struct run *r, const char *out)
{
    int64_t at[PIECES_MAX + 1];
    size_t done[PIECES_MAX], k = 0;
    size_t n = split_bounds(r, at, PIECES_MAX + 1) - 1;
    struct outname *names = calloc(n, sizeof(*names));
    int rc = !names || piece_names(r, out, names, n) ? EXIT_ERROR : EXIT_OK;
    if (!names)
        fprintf(stderr, "systrace: out of memory\n");
    for (size_t i = 0; i < n && !rc; i += PIECEFAN_MAX)
        rc = fan_pass(r, names, at, i, n - i < PIECEFAN_MAX ? n - i : PIECEFAN_MAX, done, &k);
    for (size_t i = 0; i < k; i++)
        tmpfiles_forget(names[done[i]].path);   /* complete: ours to keep or remove */
    if (rc || !k) {             /* nothing half-written */
        for (size_t i = 0; i < k; i++)
            plat_unlink(names[done[i]].path);
        if (!rc)
            no_events(r, input_name(r->o));
        rc = EXIT_ERROR;
    } else {
        if (!r->o->quiet)
            printf("\n");
        for (size_t i = 0; i < k; i++)
            report_piece(r, names[done[i]].path, at[done[i]], at[done[i] + 1]);
        if (!r->o->quiet)
            printf("\n");
        fflush(stdout);
    }
    for (size_t i = 0; names && i < n; i++)
        outname_free(&names[i]);
    free(names);
    return rc;
}

static int split_refused(const struct st_options *o)
{
    if (!(o->piece.split_bytes || o->piece.split_ns))
        return 0;
    if (o->output && !strcmp(o->output, "-")) {
        fprintf(stderr, "systrace: --split writes several files; standard output (-o -) "
                        "takes one: name them with -o NAME.html\n");
        return 1;
    }
    if (!o->trace_events && !o->summary)
        return 0;
    fprintf(stderr, "systrace: --split writes several pieces; %s would describe only one: "
                    "write it from the whole trace, or from a --time-range\n",
            o->trace_events ? "--trace-events" : "--summary");
    return 1;
}

/* The window, the pieces; the run's first pass is done. */
static int write_pieces(struct run *r, const char *out)
{
    char err[800];
    if (pscan_window(r->scan, &r->o->piece, &r->win, err, sizeof(err))) {
        if (r->o->from_file)
            fprintf(stderr, "systrace: %s: %s\n", input_name(r->o), err);
        else
            fprintf(stderr, "systrace: %s\n", err);
        return EXIT_ERROR;
    }
    if (r->o->piece.split_bytes || r->o->piece.split_ns)
        return pieces(r, out);
    int rc = one_piece(r, out);
    if (!rc)
        open_result(r->o, out);
    if (!rc && r->o->open == BROWSER_PERFETTO && r->sigfd >= 0)
        open_in_perfetto(r->o, out, r->sigfd);
    return rc;
}

int piece_from_file(const struct st_options *o)
{
    struct run r = {.o = o, .dev = {.show = !o->quiet}};
    struct outname name = {0};
    char err[512];
    int rc = EXIT_ERROR, partial = 0;
    if (split_refused(o))
        return EXIT_ERROR;
    if (outname_pick(o, &name, err, sizeof(err))) {
        fprintf(stderr, "systrace: %s\n", err);
        return EXIT_ERROR;
    }
    if ((!o->json && open_viewer(o, &r.v)) || !(r.scan = pscan_new(&o->piece)))
        goto done;
    /* nothing on a device: Ctrl-C ends at once, removing the temporary
     * result and the unfinished pieces (tmpfiles.h) */
    r.sigfd = sig_install();
    sig_exit_first();
    if (piecepass_fits(o) && (rc = piecepass_run(o, &r.v, name.path, r.sigfd)) != -1)
        goto done;
    if ((rc = whole(&r, &partial)))
        goto done;
    rc = write_pieces(&r, name.path);
    if (!rc && partial)
        rc = EXIT_PARTIAL;
done:
    sig_restore();
    if (!r.scan && rc == EXIT_ERROR && (o->json || r.v.html))
        fprintf(stderr, "systrace: out of memory\n");
    run_free(&r);
    outname_free(&name);
    return rc;
}

int piece_of_result(const struct st_options *o, const char *tmp_json, const char *out,
                    const struct piece_dev *dev, int *reader_left)
{
    struct run r = {.o = o, .sigfd = -1, .dev = *dev};  /* the capture opens what it wrote */
    int rc = EXIT_ERROR;
    if (split_refused(o))
        return EXIT_ERROR;
    snprintf(r.tmp, sizeof(r.tmp), "%s", tmp_json);
    if ((!o->json && open_viewer(o, &r.v)) || !(r.scan = pscan_new(&o->piece)))
        goto done;
    if (!(rc = scan_file(&r, tmp_json)))
        rc = write_pieces(&r, out);
done:
    *reader_left = r.reader_left;
    run_free(&r);
    return rc;
}
