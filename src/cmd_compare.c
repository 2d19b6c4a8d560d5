/*
 * `systrace compare [options] A... -- B...`: two sets of runs, each a
 * summary written by --summary, a trace of any form --from-file reads
 * (converted here, in the same bounded memory as a conversion, to its
 * summary; the converted output goes to a temporary file that is always
 * removed), or a directory of them (its summaries, or when it holds none,
 * its traces).  Prints the comparison (compare.h) and exits 1 when a
 * --fail-on gate trips.  An input that cannot be read ends the run with
 * one line naming it and exit 4, so that CI tells a broken job from a
 * slowdown: a comparison missing a run would mislead.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "formats/summary/sumread.h"
#include "lib/plat.h"
#include "lib/signals.h"
#include "rowsread.h"
#include "trsum.h"

#define SUMMARY_MAX ((size_t)64 << 20)  /* a summary file's most bytes */
#define SNIFF_BYTES 4096
#define DIR_ENTRIES_MAX 100000

struct cmp_opts {
    enum cmp_format format;
    struct cmp_gate gates[CMP_GATES_MAX];
    size_t ngates;
    int quiet;
};

struct feed {
    struct cmp_set *set;
    int side;
    enum st_err err;
};

static void on_metric(void *ctx, const char *name, double v)
{
    struct feed *f = ctx;
    enum st_err e = cmp_add(f->set, f->side, name, v);
    if (e && !f->err)
        f->err = e;
}

static int load_metrics(struct cmp_set *set, int side, const char *path, const char *p,
                        size_t n)
{
    char err[200];
    struct feed f = {set, side, ST_OK};
    cmp_next_run(set, side);
    if (sumread_metrics(p, n, on_metric, &f, err, sizeof(err))) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path, err);
        return -1;
    }
    if (f.err) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path, st_strerror(f.err));
        return -1;
    }
    return 0;
}

/* The whole file (a summary), NUL-ended; -1 with the message printed. */
static int read_file(const char *path, struct dynbuf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char chunk[65536];
    size_t k;
    enum st_err e = ST_OK;
    while (!e && (k = fread(chunk, 1, sizeof(chunk), f)) > 0)
        e = dynbuf_add(b, chunk, k);
    int bad = ferror(f);
    fclose(f);
    if (bad || e) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path,
                bad ? "cannot be read" : e == ST_ETOOBIG ? "too big for a summary (64 MB)"
                                                         : st_strerror(e));
        return -1;
    }
    if (!b->data && dynbuf_add(b, "", 0))
        return -1;
    return 0;
}

static int sniff_summary(const char *path, int *is_summary)
{
    char head[SNIFF_BYTES];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t n = fread(head, 1, sizeof(head), f);
    fclose(f);
    /* 1: a summary, 2: rows of --rows (both read as they are) */
    *is_summary = sumread_sniff(head, n) ? 1 : rowsread_sniff(head, n) ? 2 : 0;
    return 0;
}

struct rows_feed {
    struct feed f;
    const char *path;
    int over;
};

static void on_run(void *ctx, const char *trace)
{
    struct rows_feed *r = ctx;
    (void)trace;
    if (r->f.set->runs[r->f.side] >= CMP_RUNS_MAX)
        r->over = 1;
    else
        cmp_next_run(r->f.set, r->f.side);
}

static void on_row(void *ctx, const char *name, double v)
{
    struct rows_feed *r = ctx;
    if (!r->over)
        on_metric(&r->f, name, v);
}

/* A rows file of --rows: each trace in it one run. */
static int load_rows(struct cmp_set *set, int side, const char *path)
{
    char head[SNIFF_BYTES], err[200];
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t n = fread(head, 1, sizeof(head), fp);
    rewind(fp);
    struct rows_feed r = {{set, side, ST_OK}, path, 0};
    struct rowsread_cb cb = {on_run, on_row, &r};
    enum st_err e = rowsread(fp, rowsread_sniff(head, n), &cb, err, sizeof(err));
    int bad = ferror(fp);
    fclose(fp);
    if (e || bad || r.f.err || r.over) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path,
                e ? err : bad ? "cannot be read" : r.over ? "more than 10000 runs on a side (CMP_RUNS_MAX)"
                                                        : st_strerror(r.f.err));
        return -1;
    }
    return 0;
}

/* A trace converted in passing: its summary's JSON into out. */
static int trace_summary(const char *path, struct dynbuf *out)
{
    struct trsum_info info;
    if (trsum_convert(path, out, &info)) {
        fprintf(stderr, "systrace: compare: %s\n", info.err);
        return -1;
    }
    if (info.warn[0])
        fprintf(stderr, "systrace: compare: warning: %s\n", info.warn);
    return 0;
}

static int load_file(struct cmp_set *set, int side, const char *path)
{
    int is_summary, rc;
    struct dynbuf b;
    dynbuf_init(&b, SUMMARY_MAX);
    if (sniff_summary(path, &is_summary))
        return -1;
    if (is_summary == 2)
        return load_rows(set, side, path);
    if (is_summary)
        rc = read_file(path, &b);
    else
        rc = trace_summary(path, &b);
    if (!rc)
        rc = load_metrics(set, side, path, b.data, b.len);
    dynbuf_free(&b);
    return rc;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's regular files (not hidden), sorted: *names (free each). */
static int list_dir(const char *dir, char ***names, size_t *n)
{
    struct plat_dir *d = plat_opendir(dir);
    if (!d) {
        fprintf(stderr, "systrace: compare: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    const char *e;
    *names = NULL;
    *n = 0;
    while ((e = plat_readdir(d)) && *n < DIR_ENTRIES_MAX) {
        char path[PATH_MAX];
        struct plat_stat st;
        if (e[0] == '.' || (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e) >= sizeof(path) ||
            plat_stat(path, &st) || st.kind != PLAT_FILE)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            char **v = realloc(*names, cap * sizeof(*v));
            if (!v)
                break;
            *names = v;
        }
        if (!((*names)[*n] = strdup(path)))
            break;
        (*n)++;
    }
    plat_closedir(d);
    if (*n)
        qsort(*names, *n, sizeof(**names), by_str);
    return 0;
}

static int load_dir(struct cmp_set *set, int side, const char *dir)
{
    char **names;
    size_t n, summaries = 0;
    if (list_dir(dir, &names, &n))
        return -1;
    int rc = 0, *is = calloc(n ? n : 1, sizeof(*is));
    for (size_t i = 0; is && !rc && i < n; i++)
        if (!(rc = sniff_summary(names[i], &is[i])))
            summaries += (size_t)!!is[i];
    if (!is) {
        fprintf(stderr, "systrace: compare: %s: out of memory\n", dir);
        rc = -1;
    } else if (!rc && !n) {
        fprintf(stderr, "systrace: compare: %s: no files in the directory\n", dir);
        rc = -1;
    }
    /* summaries beside the traces they came from: the summaries alone */
    for (size_t i = 0; !rc && i < n; i++)
        if (!summaries || is[i])
            rc = load_file(set, side, names[i]);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(is);
    return rc;
}

static int load(struct cmp_set *set, int side, const char *path)
{
    struct plat_stat st;
    if (plat_stat(path, &st)) {
        fprintf(stderr, "systrace: compare: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (set->runs[side] >= CMP_RUNS_MAX) {
        fprintf(stderr, "systrace: compare: %s: more than %d runs on a side\n", path,
                CMP_RUNS_MAX);
        return -1;
    }
    return st.kind == PLAT_DIR ? load_dir(set, side, path) : load_file(set, side, path);
}

void compare_usage(FILE *f)
{
    fputs("Usage: systrace compare [options] A... -- B...\n\n"
          "Compares two sets of runs metric by metric: startup, frames, janky frames,\n"
          "frame-duration percentiles, CPU time per process, slice durations by name.\n"
          "Each run is a --summary JSON file, a trace of any form --from-file reads, or a\n"
          "directory of them; a --rows file gives one run per trace it holds.  For each\n"
          "metric: the median of each side, the change, its 95% bootstrap interval and\n"
          "a Mann-Whitney U p-value; then what got slower (significant at p < 0.05,\n"
          "largest effect first).\n\n"
          "Options:\n"
          "  --format=text|markdown|json   the report's form (default text)\n"
          "  --fail-on=METRIC>+N%          exit 1 when a significant change of METRIC (may\n"
          "                                hold '*') passes N%; METRIC<-N% for a drop;\n"
          "                                several allowed\n"
          "  -q, --quiet                   only the report, no notes on stderr\n"
          "  -h, --help                    this help\n\n"
          "Exit: 0; 1 when a --fail-on gate tripped; 2 for a bad command line; 4 when\n"
          "an input could not be read or the report not written (no verdict).\n", f);
}

static int usage_error(const char *msg)
{
    fprintf(stderr, "Usage: systrace compare [options] A... -- B...\n\n"
                    "systrace: compare: error: %s\n", msg);
    return EXIT_USAGE;
}

/* An option; 1: handled, 0: not an option, -1: bad (message printed). */
static int option(struct cmp_opts *o, const char *a, const char *next, int *used_next)
{
    char err[400];
    const char *v = NULL;
    *used_next = 0;
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
        o->quiet = 1;
        return 1;
    }
    if (!strncmp(a, "--format", 8) || !strncmp(a, "--fail-on", 9)) {
        const char *eq = strchr(a, '=');
        v = eq ? eq + 1 : next;
        *used_next = !eq;
        if (!v)
            return usage_error("an option needs a value"), -1;
    } else {
        return a[0] == '-' && a[1] ? (usage_error("unknown option"), -1) : 0;
    }
    if (!strncmp(a, "--format", 8) && (a[8] == '=' || !a[8])) {
        if (!strcmp(v, "text"))
            o->format = CMP_TEXT;
        else if (!strcmp(v, "markdown"))
            o->format = CMP_MARKDOWN;
        else if (!strcmp(v, "json"))
            o->format = CMP_JSON;
        else
            return usage_error("--format: one of text, markdown, json"), -1;
        return 1;
    }
    if (strncmp(a, "--fail-on", 9) || (a[9] != '=' && a[9]))
        return usage_error("unknown option"), -1;
    if (o->ngates == CMP_GATES_MAX)
        return usage_error("too many --fail-on gates (64)"), -1;
    if (cmp_gate_parse(v, &o->gates[o->ngates], err, sizeof(err)))
        return usage_error(err), -1;
    o->ngates++;
    return 1;
}

/* Options and the two sides' arguments (indexes into argv). */
static int parse(int argc, char **argv, struct cmp_opts *o, int *sides, int *nside, int *help)
{
    int dash = 0;
    nside[0] = nside[1] = 0;
    for (int i = 1; i < argc; i++) {
        int used;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            *help = 1;
            return 0;
        }
        if (!strcmp(argv[i], "--") && !dash) {
            dash = 1;
            continue;
        }
        int r = option(o, argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used);
        if (r < 0)
            return EXIT_USAGE;
        if (r) {
            i += used;
            continue;
        }
        sides[dash * argc + nside[dash]++] = i;
    }
    if (!dash)
        return usage_error("'--' must separate the runs before (A) from those after (B)");
    if (!nside[0] || !nside[1])
        return usage_error("each side needs at least one run");
    return 0;
}

static int run(const struct cmp_opts *o, struct cmp_set *set, struct cmp_gate *gates)
{
    struct dynbuf out;
    dynbuf_init(&out, (size_t)1 << 30);
    enum st_err e = cmp_compute(set);
    size_t tripped = e ? 0 : cmp_gates_apply(set, gates, o->ngates);
    if (!e)
        e = cmp_report(set, gates, o->ngates, o->format, &out);
    if (e) {
        fprintf(stderr, "systrace: compare: %s\n", st_strerror(e));
        dynbuf_free(&out);
        return EXIT_NO_VERDICT;
    }
    fwrite(out.data, 1, out.len, stdout);
    dynbuf_free(&out);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "systrace: compare: cannot write the report: %s\n", strerror(errno));
        return EXIT_NO_VERDICT;
    }
    if (!set->n && !o->quiet)
        fprintf(stderr, "systrace: compare: warning: the two sides have no metric in "
                        "common\n");
    return tripped ? EXIT_ERROR : EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
    struct cmp_opts o;
    memset(&o, 0, sizeof(o));
    int *sides = calloc((size_t)argc * 2, sizeof(*sides)), nside[2], help = 0;
    if (!sides)
        return EXIT_NO_VERDICT;
    int rc = parse(argc, argv, &o, sides, nside, &help);
    if (help) {
        compare_usage(stdout);
        free(sides);
        return EXIT_OK;
    }
    if (rc) {
        free(sides);
        return rc;
    }
    struct cmp_set set;
    cmp_init(&set);
    /* a conversion's temporary output goes at Ctrl-C too */
    sig_install();
    sig_exit_first();
    for (int s = 0; s < 2 && !rc; s++)
        for (int i = 0; i < nside[s] && !rc; i++)
            if (load(&set, s, argv[sides[s * argc + i]]))
                rc = EXIT_NO_VERDICT;
    sig_restore();
    if (!rc)
        rc = run(&o, &set, o.gates);
    cmp_free(&set);
    free(sides);
    return rc;
}
