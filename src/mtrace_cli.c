/*
 * Method-trace commands for the CLI (see mtrace_cli.h): run the engine in
 * formats/mtrace/mtrace.h on one input, report errors and warnings on stderr, and
 * write output files atomically (temp file in the same directory, renamed
 * into place only when complete; removed on failure).
 */
#include "mtrace_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/outfile.h"

void mtrace_cli_defaults(struct mtrace_cli_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->fmt = MTRACE_FMT_TEXT;
    o->clock = MTRACE_CLOCK_DEFAULT;
    o->threshold = 20.0;
}

int mtrace_cli_parse_fmt(const char *s, enum mtrace_fmt *out)
{
    if (strcmp(s, "text") == 0)
        *out = MTRACE_FMT_TEXT;
    else if (strcmp(s, "tsv") == 0)
        *out = MTRACE_FMT_TSV;
    else
        return -1;
    return 0;
}

int mtrace_cli_parse_clock(const char *s, enum mtrace_clock *out)
{
    if (strcmp(s, "default") == 0)
        *out = MTRACE_CLOCK_DEFAULT;
    else if (strcmp(s, "cpu") == 0 || strcmp(s, "thread-cpu") == 0)
        *out = MTRACE_CLOCK_CPU;
    else if (strcmp(s, "wall") == 0)
        *out = MTRACE_CLOCK_WALL;
    else
        return -1;
    return 0;
}

int mtrace_cli_parse_threshold(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= 0.0 && v <= 100.0))
        return -1;
    *out = v;
    return 0;
}

static void warn_line(void *ctx, const char *msg)
{
    fprintf(stderr, "systrace: %s: warning: %s\n", (const char *)ctx, msg);
}

static int finish(const char *input, enum st_err e, const char *err,
                  const struct mtrace_info *info)
{
    if (e != ST_OK) {
        fprintf(stderr, "systrace: %s: %s\n", input,
                err[0] ? err : st_strerror(e));
        return EXIT_ERROR;
    }
    mtrace_warnings(info, warn_line, (void *)input);
    if (info->warnings & (MTRACE_W_TRUNCATED | MTRACE_W_NO_SUMMARY))
        return EXIT_PARTIAL;
    return EXIT_OK;
}

/* An output file being written: through an outfile (lib/outfile.h: temp
 * file and rename, modes, non-regular targets), seen as a FILE so the
 * engine's printers can use stdio.  Without -o (or with -): stdout. */
struct out_file {
    FILE *f;
    struct outfile *o;
    const char *path;
};

static int out_open(struct out_file *o, const char *path)
{
    memset(o, 0, sizeof(*o));
    o->path = path;
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    if (outfile_open(path, &o->o) || !(o->f = outfile_stdio(o->o))) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", path,
                o->o ? outfile_errtext(o->o) : strerror(errno));
        outfile_free(o->o);
        o->o = NULL;
        return -1;
    }
    return 0;
}

/* Keep (rename into place) or drop the output; returns 0 if kept. */
static int out_close(struct out_file *o, int keep)
{
    if (!o->o)
        return fflush(stdout) == 0 || !keep ? 0 : -1;
    int rc = 0, failed = fclose(o->f) != 0;
    if (keep && !failed)
        failed = outfile_commit(o->o) != ST_OK;
    if (keep && failed) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", o->path, outfile_errtext(o->o));
        rc = -1;
    }
    outfile_free(o->o);     /* removes the temporary file unless committed */
    return rc;
}

static int run_file(const struct mtrace_cli_opts *o, int graph)
{
    struct out_file out;
    struct mtrace_info info;
    struct mtrace_src src = { .path = o->input };
    char err[300] = "";
    if (out_open(&out, o->output) != 0)
        return EXIT_ERROR;
    enum st_err e = graph
        ? mtrace_callgraph_src(&src, out.f, o->threshold, o->clock, &info,
                               err, sizeof(err))
        : mtrace_profile_src(&src, out.f, o->fmt, o->clock, &info, err,
                             sizeof(err));
    int rc = finish(o->input, e, err, &info);
    if (out_close(&out, e == ST_OK) != 0 && rc != EXIT_ERROR)
        rc = EXIT_ERROR;
    return rc;
}

int mtrace_cli_profile(const struct mtrace_cli_opts *o)
{
    return run_file(o, 0);
}

int mtrace_cli_callgraph(const struct mtrace_cli_opts *o)
{
    if (!o->output) {
        fprintf(stderr, "systrace: --call-graph needs an output file\n");
        return EXIT_USAGE;
    }
    return run_file(o, 1);
}

static int write_file(void *ctx, const void *p, size_t n)
{
    return fwrite(p, 1, n, ctx) == n ? 0 : -1;
}

int mtrace_cli_json(const struct mtrace_cli_opts *o)
{
    struct out_file out;
    struct mtrace_info info;
    struct mtrace_src src = { .path = o->input };
    char err[300] = "";
    if (out_open(&out, o->output) != 0)
        return EXIT_ERROR;
    enum st_err e = mtrace_to_trace_events_src(&src, o->json, write_file,
                                               out.f, &info, err, sizeof(err));
    int rc = finish(o->input, e, err, &info);
    if (out_close(&out, e == ST_OK) != 0 && rc != EXIT_ERROR)
        rc = EXIT_ERROR;
    return rc;
}
