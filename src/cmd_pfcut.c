/*
 * `--from-file T.pftrace` with a Perfetto trace as the output
 * (--output-format=perfetto, -o X.perfetto-trace): a piece of the trace
 * (--time-range), or the whole in pieces (--split), each a Perfetto trace
 * that loads alone (formats/perfetto/pfcut.h).  Two passes over the file:
 * the first finds the trace's extent (and, for pieces of a size, how its
 * bytes spread over time), the second cuts.  Each piece goes to a
 * temporary file renamed into place once all are complete; any error
 * (a range outside the trace, a corrupt input) is one line, exit 1, and
 * no piece is left.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "cli.h"
#include "commands.h"
#include "formats/input/fromfile.h"
#include "formats/perfetto/pfcut.h"
#include "lib/outfile.h"
#include "lib/plat.h"
#include "lib/signals.h"
#include "outname.h"

#define READ_CHUNK ((size_t)1 << 20)

/* Feed the whole file to the cutter; an error line printed. */
static int run_pass(const char *path, struct pfcut *c, uint8_t *buf)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "systrace: %s: cannot read: %s\n", path, strerror(errno));
        return -1;
    }
    enum st_err e = ST_OK;
    size_t n;
    while (!e && (n = fread(buf, 1, READ_CHUNK, f)) > 0)
        e = pfcut_feed(c, buf, n);
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        fprintf(stderr, "systrace: %s: cannot read\n", path);
        return -1;
    }
    if (!e)
        e = pfcut_finish(c);
    if (e) {
        fprintf(stderr, "systrace: %s: %s\n", path, pfcut_detail(c)[0] ? pfcut_detail(c)
                                                                       : st_strerror(e));
        return -1;
    }
    return 0;
}

/* The input must be a Perfetto trace (not gzipped, not text). */
static int check_input(const struct st_options *o)
{
    if (outname_is_stdin(o->from_file)) {
        fprintf(stderr, "systrace: --output-format=perfetto needs a Perfetto trace file as "
                        "the input (it is read twice), not standard input\n");
        return -1;
    }
    unsigned char head[4096];
    FILE *f = fopen(o->from_file, "rb");
    if (!f) {
        fprintf(stderr, "systrace: %s: cannot read: %s\n", o->from_file, strerror(errno));
        return -1;
    }
    size_t n = fread(head, 1, sizeof(head), f);
    int eof = feof(f), err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) {      /* a directory opens, and then reads as EISDIR */
        fprintf(stderr, "systrace: %s: %s\n", o->from_file,
                err == EISDIR ? "is a directory" : strerror(err));
        return -1;
    }
    enum ff_kind k = fromfile_sniff(head, n, eof);
    if (k == FF_PERFETTO)
        return 0;
    if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
        fprintf(stderr, "systrace: --output-format=perfetto needs a Perfetto trace as the "
                        "input; %s is gzip-compressed (gunzip it first)\n", o->from_file);
        return -1;
    }
    fprintf(stderr, "systrace: --output-format=perfetto needs a Perfetto trace as the input; "
                    "%s is %s\n", o->from_file, !n ? "empty" : k == FF_UNKNOWN ?
                    "not a trace systrace knows" : fromfile_kind_name(k));
    return -1;
}

static void secs(char *s, size_t n, int64_t ns)
{
    snprintf(s, n, "%s%" PRId64 ".%03d s", ns < 0 ? "-" : "", (ns < 0 ? -ns : ns) / 1000000000,
             (int)((ns < 0 ? -ns : ns) % 1000000000 / 1000000));
}

/* ns as seconds, exactly (what --time-range=ts: takes) */
static const char *ts_text(int64_t ns, char *s, size_t n)
{
    uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(s, n, "%s%" PRIu64 ".%09u", ns < 0 ? "-" : "", u / 1000000000u,
             (unsigned)(u % 1000000000u));
    return s;
}

/* The range asked for on the trace's clock: 0, or -1 with the reason. */
static int range_of(const struct st_options *o, const struct pfcut *scan, int64_t *start,
                    int64_t *end)
{
    const struct pfcut_span *sp = pfcut_span(scan);
    const struct piece_spec *ps = &o->piece;
    *start = sp->first;
    *end = piece_sat_add(sp->last, 1);
    if (ps->range == PIECE_SLICE) {
        int64_t b, e;
        uint64_t count;
        if (pfcut_found(scan, &b, &e, &count)) {
            fprintf(stderr, "systrace: --time-range=slice:%s#%u: %s has %llu slice%s called "
                            "%s\n", ps->slice, ps->slice_nth, o->from_file,
                    (unsigned long long)count, count == 1 ? "" : "s", ps->slice);
            return -1;
        }
        *start = piece_sat_add(b, -ps->margin_ns);
        *end = piece_sat_add(piece_sat_add(e, ps->margin_ns), 1);
    } else if (piece_empty(ps)) {
        fprintf(stderr, "systrace: --time-range: the range is empty (its end is not after "
                        "its start)\n");
        return -1;
    } else if (ps->range == PIECE_REL) {
        *start = piece_sat_add(sp->first, ps->start_ns);
        if (ps->end_ns != INT64_MAX)
            *end = piece_sat_add(sp->first, ps->end_ns);
    } else if (ps->range == PIECE_TS) {
        *start = ps->start_ns;
        if (ps->end_ns != INT64_MAX)
            *end = ps->end_ns;
    }
    if (*start < sp->first)
        *start = sp->first;
    if (*end > piece_sat_add(sp->last, 1))
        *end = piece_sat_add(sp->last, 1);
    if (*start < *end)
        return 0;
    char a[48], b[48], c[48];
    secs(a, sizeof(a), (int64_t)((uint64_t)sp->last - (uint64_t)sp->first));
    fprintf(stderr, "systrace: --time-range: outside the trace: %s spans 0 s .. %s from its "
                    "start (ts:%s..%s)\n", o->from_file, a, ts_text(sp->first, b, sizeof(b)),
            ts_text(sp->last, c, sizeof(c)));
    return -1;
}

/* The pieces' starts within [start, end). */
static size_t starts_of(const struct st_options *o, const struct pfcut *scan, int64_t start,
                        int64_t end, int64_t *st)
{
    size_t n = 0;
    if (o->piece.split_ns) {
        for (int64_t t = start; t < end; t = piece_sat_add(t, o->piece.split_ns)) {
            if (n == PFCUT_PIECES_MAX)
                return 0;
            st[n++] = t;
            if (t == INT64_MAX)
                break;
        }
        return n;
    }
    if (!o->piece.split_bytes) {
        st[0] = start;
        return 1;
    }
    int64_t *all = calloc(PFCUT_PIECES_MAX * 4, sizeof(*all));
    size_t m = all ? pfcut_bounds(scan, o->piece.split_bytes, all, PFCUT_PIECES_MAX * 4) : 0;
    st[n++] = start;
    for (size_t i = 0; i < m && n; i++)
        if (all[i] > start && all[i] < end) {
            if (n == PFCUT_PIECES_MAX)
                n = 0;      /* too many */
            else
                st[n++] = all[i];
        }
    free(all);
    return m ? n : 0;
}

/* One piece: NAME itself; several: NAME.001.perfetto-trace ..., one
 * already there left alone for the first free name (said). */
static char *piece_name(const struct st_options *o, const char *out, size_t i, size_t n)
{
    if (n == 1)
        return strdup(out);
    struct outname nm;
    char err[PATH_MAX + 100];
    if (outname_piece(out, (unsigned)i + 1, &nm, err, sizeof(err))) {
        fprintf(stderr, "systrace: %s\n", err);
        return NULL;
    }
    if (nm.taken && !o->quiet)
        fprintf(stderr, "systrace: note: %s already exists and was left alone; that piece "
                        "goes to %s\n", nm.taken, nm.path);
    free(nm.taken);
    return nm.path;
}

static enum st_err write_out(void *ctx, const void *p, size_t n)
{
    return outfile_write(ctx, p, n);
}

/* The output name: -o, else INPUT minus its extension + .piece.perfetto-trace
 * (the first free one; a split's pieces find free names of their own). */
static char *out_name(const struct st_options *o, int split, char *err, size_t errlen)
{
    struct plat_stat st;
    size_t on = o->output ? strlen(o->output) : 0;
    /* a split into a directory: the default name's last component in it */
    int into = split && on && (o->output[on - 1] == '/' ||
                               (!plat_stat(o->output, &st) && st.kind == PLAT_DIR));
    if (o->output && !into)
        return strdup(o->output);
    const char *in = o->from_file;
    const char *ext = strrchr(in, '.'), *slash = plat_last_sep(in);
    if (!ext || (slash && ext < slash))
        ext = in + strlen(in);
    const char *from = into && slash ? slash + 1 : in;
    size_t len = on + strlen(in) + 32;
    char *def = malloc(len);
    if (!def)
        return NULL;
    snprintf(def, len, "%s%s%.*s.piece.perfetto-trace", into ? o->output : "",
             into && o->output[on - 1] != '/' ? "/" : "", (int)(ext - from), from);
    if (split)
        return def;
    struct outname nm;
    if (outname_free_of(def, ".perfetto-trace", &nm, err, errlen))
        return NULL;
    free(nm.taken);
    return nm.path;
}

/* What the pieces lack, worth a line. */
static void notes(const struct st_options *o, const struct pfcut *c)
{
    const struct pfcut_stats *st = pfcut_stats(c);
    if (o->quiet)
        return;
    if (st->unconverted)
        fprintf(stderr, "systrace: note: %s: %llu timestamps on a clock no clock snapshot "
                        "leads from are in no piece (Perfetto cannot place them either)\n",
                o->from_file, (unsigned long long)st->unconverted);
    if (st->saved_over)
        fprintf(stderr, "systrace: note: %s: %llu slices or names past the cutter's bounds "
                        "(64 open a track, 8 MB of begins) are not begun again in a later "
                        "piece\n", o->from_file, (unsigned long long)st->saved_over);
}

static int cut(const struct st_options *o, struct pfcut *scan, const int64_t *st,
               size_t n, int64_t end, uint8_t *buf, int sigfd)
{
    char err[512] = "out of memory";
    char *out = out_name(o, n > 1, err, sizeof(err));
    struct outfile **of = calloc(n, sizeof(*of));
    struct pfcut_piece *pc = calloc(n, sizeof(*pc));
    char **names = calloc(n, sizeof(*names));
    int rc = EXIT_ERROR;
    struct pfcut *c = NULL;
    if (!out || !of || !pc || !names) {
        fprintf(stderr, "systrace: %s\n", err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(names[i] = piece_name(o, out, i, n)))
            goto done;          /* said */
        if (outfile_open(names[i], &of[i])) {
            fprintf(stderr, "systrace: %s: cannot write: %s\n", names[i],
                    of[i] ? outfile_errtext(of[i]) : "out of memory");
            goto done;
        }
        pc[i] = (struct pfcut_piece){st[i], i + 1 < n ? st[i + 1] : end, write_out, of[i]};
    }
    c = pfcut_new(pc, n);
    if (!c) {
        fprintf(stderr, "systrace: out of memory\n");
        goto done;
    }
    pfcut_set_last(c, pfcut_span(scan)->last);
    pfcut_take_procs(c, scan);
    if (run_pass(o->from_file, c, buf))
        goto done;
    for (size_t i = 0; i < n; i++)
        if (outfile_commit(of[i])) {
            fprintf(stderr, "systrace: %s: cannot write: %s\n", names[i],
                    outfile_errtext(of[i]));
            goto done;
        }
    if (!o->quiet) {
        char a[40], b[40];
        for (size_t i = 0; i < n; i++)
            printf("Wrote Perfetto trace: %s (ts:%s..%s, %.3f s, %llu bytes)\n", names[i],
                   ts_text(pc[i].start, a, sizeof(a)), ts_text(pc[i].end, b, sizeof(b)),
                   (double)(pc[i].end - pc[i].start) / 1e9,
                   (unsigned long long)outfile_tell(of[i]));
        fflush(stdout);
    }
    if (o->open == BROWSER_PERFETTO && n == 1)
        open_in_perfetto(o, names[0], sigfd);
    notes(o, c);
    rc = EXIT_OK;
done:
    pfcut_free(c);
    for (size_t i = 0; of && i < n; i++) {
        outfile_free(of[i]);    /* an uncommitted one is removed */
        if (names)
            free(names[i]);
    }
    free(of);
    free(pc);
    free(names);
    free(out);
    return rc;
}

static int refused(const struct st_options *o)
{
    if (o->piece.range == PIECE_SLICE && o->piece.slice_nth > PFCUT_NTH_MAX) {
        fprintf(stderr, "systrace: --time-range=slice:%s#%u: at most the %uth slice of a name\n",
                o->piece.slice, o->piece.slice_nth, PFCUT_NTH_MAX);
        return 1;
    }
    if (o->piece.deps) {
        fprintf(stderr, "systrace: --process-and-deps is not yet supported with a Perfetto "
                        "trace as the output (--process is)\n");
        return 1;
    }
    if (o->trace_events || o->summary || o->json) {
        fprintf(stderr, "systrace: --output-format=perfetto writes only the Perfetto trace "
                        "(no -j, --trace-events or --summary beside it)\n");
        return 1;
    }
    if (o->open == BROWSER_PAGE) {
        fprintf(stderr, "systrace: --open: a Perfetto trace does not open as a page; "
                        "--open=perfetto opens it in ui.perfetto.dev\n");
        return 1;
    }
    return 0;
}

/* --process: names and pids to the scan; 0, or -1 out of memory. */
static int want_procs(const struct st_options *o, struct pfcut *scan)
{
    const char *names[PIECE_PROCS_MAX];
    int64_t pids[PIECE_PROCS_MAX];
    size_t nn = 0, np = 0;
    for (size_t i = 0; i < o->piece.nprocs; i++) {
        if (o->piece.procs[i].name)
            names[nn++] = o->piece.procs[i].name;
        else
            pids[np++] = o->piece.procs[i].pid;
    }
    return o->piece.nprocs && pfcut_want_procs(scan, names, nn, pids, np) ? -1 : 0;
}

int cmd_pf_cut(const struct st_options *o)
{
    if (refused(o) || check_input(o))
        return EXIT_ERROR;
    uint8_t *buf = malloc(READ_CHUNK);
    struct pfcut *scan = pfcut_new(NULL, 0);
    int64_t *st = calloc(PFCUT_PIECES_MAX, sizeof(*st));
    int rc = EXIT_ERROR;
    if (!buf || !scan || !st) {
        fprintf(stderr, "systrace: out of memory\n");
        goto done;
    }
    if ((o->piece.range == PIECE_SLICE &&
         pfcut_find_slice(scan, o->piece.slice, o->piece.slice_nth)) ||
        want_procs(o, scan)) {
        fprintf(stderr, "systrace: out of memory\n");
        goto done;
    }
    int sigfd = sig_install();
    sig_exit_first();   /* nothing on a device: Ctrl-C ends it, temporary files removed */
    if (run_pass(o->from_file, scan, buf))
        goto done;
    const struct pfcut_span *sp = pfcut_span(scan);
    if (sp->first > sp->last) {
        fprintf(stderr, "systrace: %s: no timestamped events to cut\n", o->from_file);
        goto done;
    }
    char pid[32];
    const char *missing = pfcut_procs_missing(scan, pid, sizeof(pid));
    if (missing) {
        fprintf(stderr, "systrace: --process: %s: no such process in %s\n", missing,
                o->from_file);
        goto done;
    }
    int64_t start, end;
    if (range_of(o, scan, &start, &end))
        goto done;
    size_t n = starts_of(o, scan, start, end, st);
    if (!n) {
        fprintf(stderr, "systrace: --split: more than %d pieces; ask for bigger ones\n",
                PFCUT_PIECES_MAX);
        goto done;
    }
    rc = cut(o, scan, st, n, end, buf, sigfd);
done:
    sig_restore();
    pfcut_free(scan);
    free(st);
    free(buf);
    return rc;
}
