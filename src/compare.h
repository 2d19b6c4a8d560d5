/*
 * `systrace compare`: two sets of runs, metric by metric (compare.c),
 * and the report in three forms (compare_out.c).  A metric is a named
 * number of a run's summary (formats/summary/sumread.h); each side keeps
 * one value per run that has it.  The statistics are lib/stats.h's.
 */
#ifndef SYSTRACE_COMPARE_H
#define SYSTRACE_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "lib/dynbuf.h"
#include "lib/error.h"

#define CMP_METRICS_MAX 200000
#define CMP_RUNS_MAX 10000      /* per side */
#define CMP_ALPHA 0.05          /* significant: p below this */
#define CMP_CHANGE_MIN_PCT 0.05 /* and a change of at least this (prints as 0.1%) */
#define CMP_GATES_MAX 64

struct cmp_metric {
    char *name;
    double *v[2];
    size_t n[2], cap[2];
    unsigned last_run[2];   /* the run that gave the last value (one per run) */
    /* cmp_compute */
    double med[2];
    double change;          /* percent, B against A (valid: has_change) */
    double ci_low, ci_high; /* valid: has_ci */
    double p, effect;       /* Mann-Whitney p; Cliff's delta of B against A */
    int has_change, has_ci, significant;
    int worse_up;           /* higher is slower or worse (durations, CPU, jank) */
};

struct cmp_set {
    struct cmp_metric *m;
    size_t n, cap;
    size_t *hash;           /* index + 1, open addressing */
    size_t hcap;
    unsigned runs[2];
    size_t one_sided;       /* metrics only one side has (cmp_compute) */
};

/* A comparison gate of --fail-on: METRIC>+N% or METRIC<-N%; METRIC may
 * hold '*' (any characters). */
struct cmp_gate {
    char text[300];
    char pattern[256];
    char op;                /* '>' or '<' */
    double pct;
    size_t matched, tripped;
};

void cmp_init(struct cmp_set *s);
void cmp_free(struct cmp_set *s);
/* A new run on side (0: A, 1: B); values added until the next call
 * belong to it. */
void cmp_next_run(struct cmp_set *s, int side);
enum st_err cmp_add(struct cmp_set *s, int side, const char *name, double v);
/* Statistics of every metric both sides have; the others are counted in
 * one_sided and removed.  Sorted by name. */
enum st_err cmp_compute(struct cmp_set *s);

/* "what got slower": indexes of significant changes for the worse,
 * largest effect first (|Cliff's delta|, then the change); *n of them. */
size_t *cmp_slower(const struct cmp_set *s, size_t *n);

/* Parses one --fail-on; 0 or -1 with err. */
int cmp_gate_parse(const char *text, struct cmp_gate *g, char *err, size_t errn);
/* Whether metric name matches the gate's pattern. */
int cmp_gate_match(const char *pattern, const char *name);
/* Applies the gates; how many tripped. */
size_t cmp_gates_apply(const struct cmp_set *s, struct cmp_gate *g, size_t ng);

enum cmp_format { CMP_TEXT, CMP_MARKDOWN, CMP_JSON };
/* The report (compare_out.c). */
enum st_err cmp_report(const struct cmp_set *s, const struct cmp_gate *g, size_t ng,
                       enum cmp_format f, struct dynbuf *out);

#endif
