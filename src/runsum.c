/* --runs=N's one summary; see runsum.h. */
#include "runsum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sumreport.h"

#define RUNS_MAX 100                /* --runs' bound (options.c) */
#define JSON_MAX (16u << 20)
#define NNUM 32                     /* numbers per startup: 2 + 4 + the slices */
#define NSLICES 16

struct run {
    char *trace;
    struct dynbuf startups;         /* the run's startups[] as JSON */
    int found;                      /* the launched package's startup is in it */
    int full;                       /* ... with a to_full_display */
    double num[NNUM];               /* its numbers, in key order (ms) */
    char type[8];
};

struct runsum {
    char pkg[256];
    size_t n;
    struct run runs[RUNS_MAX];
};

struct runsum *runsum_new(const char *launch)
{
    struct runsum *r = calloc(1, sizeof(*r));
    if (r)
        snprintf(r->pkg, sizeof(r->pkg), "%.*s", (int)strcspn(launch, "/"), launch);
    return r;
}

void runsum_free(struct runsum *r)
{
    for (size_t i = 0; r && i < r->n; i++) {
        free(r->runs[i].trace);
        dynbuf_free(&r->runs[i].startups);
    }
    free(r);
}

/* A startup's numbers in ms: first frame, full display, the main
 * thread's four states, then the slices. */
static void numbers(const struct summary_startup *u, double *num)
{
    num[0] = u->to_first_frame_ns / 1e6;
    num[1] = u->to_full_display_ns / 1e6;
    num[2] = u->running_ns / 1e6;
    num[3] = u->runnable_ns / 1e6;
    num[4] = u->uninterruptible_ns / 1e6;
    num[5] = u->sleeping_ns / 1e6;
    for (size_t j = 0; summary_startup_slice(j) && 6 + j < NNUM; j++)
        num[6 + j] = u->slice_ns[j] / 1e6;
}

enum st_err runsum_add(struct runsum *r, const char *trace, const struct summary *s)
{
    if (r->n == RUNS_MAX)
        return ST_ETOOBIG;
    struct run *k = &r->runs[r->n++];
    dynbuf_init(&k->startups, JSON_MAX);
    if (!(k->trace = strdup(trace)))
        return ST_ENOMEM;
    struct summary_startup u;
    size_t n = s ? summary_startups(s) : 0;
    dynbuf_addstr(&k->startups, "[");
    for (size_t i = 0; i < n && summary_startup(s, i, &u); i++) {
        dynbuf_addstr(&k->startups, i ? ",\n      " : "\n      ");
        summary_startup_json(&k->startups, &u);
        if (!k->found && u.package && !strcmp(u.package, r->pkg)) {
            k->found = 1;
            k->full = u.to_full_display_ns > 0;
            snprintf(k->type, sizeof(k->type), "%s", u.type ? u.type : "");
            numbers(&u, k->num);
        }
    }
    return dynbuf_addstr(&k->startups, n ? "\n    ]" : "]");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Number j across the runs that found the startup (full display: those
 * with one), sorted; how many. */
static size_t column(const struct runsum *r, size_t j, double *v)
{
    size_t m = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->runs[i].found && (j != 1 || r->runs[i].full))
            v[m++] = r->runs[i].num[j];
    qsort(v, m, sizeof(*v), cmp_double);
    return m;
}

/* stat 0 median (the mean of the middle two for an even count), 1 min,
 * 2 max; -1 when no run has it. */
static double stat_of(const struct runsum *r, size_t j, int stat)
{
    double v[RUNS_MAX];
    size_t m = column(r, j, v);
    if (!m)
        return -1;
    if (stat)
        return stat == 1 ? v[0] : v[m - 1];
    return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

static void num_out(struct dynbuf *o, double x)
{
    if (x < 0)
        dynbuf_addstr(o, "null");
    else
        dynbuf_printf(o, "%.6f", x);
}

/* The numbers of one stat, as startups[]' keys (after "package"...). */
static void stat_out(struct dynbuf *o, const struct runsum *r, int stat)
{
    static const char *const threads[] = {"running", "runnable", "uninterruptible", "sleeping"};
    dynbuf_addstr(o, "\"to_first_frame_ms\": ");
    num_out(o, stat_of(r, 0, stat));
    dynbuf_addstr(o, ", \"to_full_display_ms\": ");
    num_out(o, stat_of(r, 1, stat));
    dynbuf_addstr(o, ",\n      \"main_thread_ms\": {");
    for (size_t j = 0; j < 4; j++) {
        dynbuf_printf(o, "%s\"%s\": ", j ? ", " : "", threads[j]);
        num_out(o, stat_of(r, 2 + j, stat));
    }
    dynbuf_addstr(o, "},\n      \"slices_ms\": {");
    const char *k;
    for (size_t j = 0; (k = summary_startup_slice(j)) && 6 + j < NNUM; j++) {
        dynbuf_printf(o, "%s\"%s\": ", j ? ", " : "", k);
        num_out(o, stat_of(r, 6 + j, stat));
    }
    dynbuf_addstr(o, "}");
}

static size_t found_runs(const struct runsum *r, const char **type)
{
    size_t m = 0;
    *type = NULL;
    for (size_t i = 0; i < r->n; i++)
        if (r->runs[i].found && m++ == 0)
            *type = r->runs[i].type;
    return m;
}

static enum st_err json(const struct runsum *r, struct dynbuf *o)
{
    dynbuf_addstr(o, "{\n  \"runs\": [");
    for (size_t i = 0; i < r->n; i++) {
        dynbuf_printf(o, "%s{\"run\": %zu, \"trace\": ", i ? ",\n    " : "\n    ", i + 1);
        dynbuf_add_jstr(o, r->runs[i].trace);
        dynbuf_addstr(o, ", \"startups\": ");
        dynbuf_add(o, r->runs[i].startups.data, r->runs[i].startups.len);
        dynbuf_addstr(o, "}");
    }
    const char *type;
    size_t m = found_runs(r, &type);
    dynbuf_addstr(o, r->n ? "\n  ],\n  \"startups\": [" : "],\n  \"startups\": [");
    if (m) {
        dynbuf_addstr(o, "\n    {\"package\": ");
        dynbuf_add_jstr(o, r->pkg);
        dynbuf_addstr(o, ", \"type\": ");
        if (*type)
            dynbuf_add_jstr(o, type);
        else
            dynbuf_addstr(o, "null");
        dynbuf_printf(o, ", \"runs\": %zu, ", m);
        stat_out(o, r, 0);
        dynbuf_addstr(o, ",\n      \"min\": {");
        stat_out(o, r, 1);
        dynbuf_addstr(o, "},\n      \"max\": {");
        stat_out(o, r, 2);
        dynbuf_addstr(o, "}}\n  ");
    }
    return dynbuf_addstr(o, "]\n}\n");
}

static enum st_err make_json(const void *ctx, struct dynbuf *o)
{
    return json(ctx, o);
}

static int write_json(const struct runsum *r, const char *path)
{
    return sumreport_write_json(path, JSON_MAX, make_json, r);
}

int runsum_commit(const struct runsum *r, const char *path, int show)
{
    const char *type;
    size_t m = found_runs(r, &type);
    if (show && m)
        printf("Startup of %s (%s) over %zu runs: median %.1f ms, min %.1f, max %.1f\n",
               r->pkg, *type ? type : "unknown", m, stat_of(r, 0, 0), stat_of(r, 0, 1),
               stat_of(r, 0, 2));
    else if (show)
        printf("Startup of %s: found in none of the %zu runs\n", r->pkg, r->n);
    fflush(stdout);
    return path ? write_json(r, path) : EXIT_OK;
}
