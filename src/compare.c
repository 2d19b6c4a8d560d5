/*
 * The metrics of `systrace compare` (compare.h): a table by name of each
 * side's values, their statistics (medians, change, bootstrap interval,
 * Mann-Whitney p, Cliff's delta), the ranking of what got slower, and
 * the --fail-on gates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "lib/stats.h"

void cmp_init(struct cmp_set *s)
{
    memset(s, 0, sizeof(*s));
}

void cmp_free(struct cmp_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->m[i].name);
        free(s->m[i].v[0]);
        free(s->m[i].v[1]);
    }
    free(s->m);
    free(s->hash);
    cmp_init(s);
}

void cmp_next_run(struct cmp_set *s, int side)
{
    s->runs[side]++;
}

static size_t hash_name(const char *p)
{
    size_t h = 5381;
    for (; *p; p++)
        h = h * 33 + (unsigned char)*p;
    return h;
}

static enum st_err rehash(struct cmp_set *s, size_t cap)
{
    size_t *h = calloc(cap, sizeof(*h));
    if (!h)
        return ST_ENOMEM;
    for (size_t i = 0; i < s->n; i++) {
        size_t k = hash_name(s->m[i].name) & (cap - 1);
        while (h[k])
            k = (k + 1) & (cap - 1);
        h[k] = i + 1;
    }
    free(s->hash);
    s->hash = h;
    s->hcap = cap;
    return ST_OK;
}

/* The metric of name, added when new; NULL beyond the bounds. */
static struct cmp_metric *metric(struct cmp_set *s, const char *name)
{
    if (s->hcap) {
        for (size_t k = hash_name(name) & (s->hcap - 1); s->hash[k]; k = (k + 1) & (s->hcap - 1))
            if (!strcmp(s->m[s->hash[k] - 1].name, name))
                return &s->m[s->hash[k] - 1];
    }
    if (s->n == CMP_METRICS_MAX)
        return NULL;
    if ((s->n + 1) * 2 > s->hcap && rehash(s, s->hcap ? s->hcap * 2 : 256))
        return NULL;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct cmp_metric *m = realloc(s->m, cap * sizeof(*m));
        if (!m)
            return NULL;
        s->m = m;
        s->cap = cap;
    }
    struct cmp_metric *m = &s->m[s->n];
    memset(m, 0, sizeof(*m));
    if (!(m->name = strdup(name)))
        return NULL;
    size_t k = hash_name(name) & (s->hcap - 1);
    while (s->hash[k])
        k = (k + 1) & (s->hcap - 1);
    s->hash[k] = ++s->n;
    return m;
}

enum st_err cmp_add(struct cmp_set *s, int side, const char *name, double v)
{
    struct cmp_metric *m = metric(s, name);
    if (!m)
        return ST_ENOMEM;
    if (m->last_run[side] == s->runs[side] || !isfinite(v))
        return ST_OK;   /* one value per run: the first (the biggest item) */
    if (m->n[side] == m->cap[side]) {
        size_t cap = m->cap[side] ? m->cap[side] * 2 : 16;
        double *p = realloc(m->v[side], cap * sizeof(*p));
        if (!p)
            return ST_ENOMEM;
        m->v[side] = p;
        m->cap[side] = cap;
    }
    m->v[side][m->n[side]++] = v;
    m->last_run[side] = s->runs[side];
    return ST_OK;
}

static int ends(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

/* Durations, CPU time and jank: more is worse.  Counts (frames, slices)
 * say nothing by themselves. */
static int worse_up(const char *n)
{
    return !strncmp(n, "cpu.", 4) || !strcmp(n, "cpu_busy_pct") || !strncmp(n, "startup.", 8) ||
           ends(n, "_ms") || ends(n, ".janky") || strstr(n, ".dur_p") || ends(n, ".dur");
}

static enum st_err stats_of(struct cmp_metric *m)
{
    struct mwu u;
    struct boot_ci ci;
    enum st_err e = stats_mwu(m->v[0], m->n[0], m->v[1], m->n[1], &u);
    if (!e)
        e = stats_boot_ci(m->v[0], m->n[0], m->v[1], m->n[1], STATS_BOOT_ROUNDS,
                          STATS_BOOT_SEED, &ci);
    if (e)
        return e;
    /* stats_median sorts: after the test, which wants them as given */
    m->med[0] = stats_median(m->v[0], m->n[0]);
    m->med[1] = stats_median(m->v[1], m->n[1]);
    m->has_change = m->med[0] != 0;
    m->change = m->has_change ? 100 * (m->med[1] / m->med[0] - 1) : 0;
    m->has_ci = ci.valid;
    m->ci_low = ci.low;
    m->ci_high = ci.high;
    m->p = u.p;
    m->effect = stats_cliff(u.u, m->n[0], m->n[1]);
    /* one run on a side says nothing of the noise: never significant; nor
     * is a change the report would print as 0.0% (a capture's CPU time
     * differs in its last digit from run to run, and with many metrics
     * such a difference passes the test by chance) */
    int visible = m->has_change ? fabs(m->change) >= CMP_CHANGE_MIN_PCT
                                : m->med[0] != m->med[1];
    m->significant = u.p < CMP_ALPHA && visible && m->n[0] > 1 && m->n[1] > 1;
    m->worse_up = worse_up(m->name);
    return ST_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct cmp_metric *)a)->name, ((const struct cmp_metric *)b)->name);
}

enum st_err cmp_compute(struct cmp_set *s)
{
    size_t o = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct cmp_metric *m = &s->m[i];
        if (!m->n[0] || !m->n[1]) {
            s->one_sided++;
            free(m->name);
            free(m->v[0]);
            free(m->v[1]);
            continue;
        }
        enum st_err e = stats_of(m);
        if (e)
            return e;
        s->m[o++] = *m;
    }
    s->n = o;
    free(s->hash);      /* indexes changed; nothing is added any more */
    s->hash = NULL;
    s->hcap = 0;
    qsort(s->m, s->n, sizeof(*s->m), by_name);
    return ST_OK;
}

static int by_effect(const void *a, const void *b)
{
    const struct cmp_metric *x = *(const struct cmp_metric *const *)a;
    const struct cmp_metric *y = *(const struct cmp_metric *const *)b;
    double ex = fabs(x->effect), ey = fabs(y->effect);
    if (ex != ey)
        return ex < ey ? 1 : -1;
    if (fabs(x->change) != fabs(y->change))
        return fabs(x->change) < fabs(y->change) ? 1 : -1;
    return strcmp(x->name, y->name);
}

size_t *cmp_slower(const struct cmp_set *s, size_t *n)
{
    size_t k = s->n ? s->n : 1;
    const struct cmp_metric **r = malloc(k * sizeof(*r));
    size_t *v = malloc(k * sizeof(*v));
    *n = 0;
    if (!r || !v) {
        free(r);
        free(v);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++)
        if (s->m[i].significant && s->m[i].worse_up && s->m[i].med[1] > s->m[i].med[0])
            r[(*n)++] = &s->m[i];
    qsort(r, *n, sizeof(*r), by_effect);
    for (size_t i = 0; i < *n; i++)
        v[i] = (size_t)(r[i] - s->m);
    free(r);
    return v;
}

int cmp_gate_match(const char *pat, const char *name)
{
    if (!*pat)
        return !*name;
    if (*pat == '*') {
        for (const char *p = name;; p++) {
            if (cmp_gate_match(pat + 1, p))
                return 1;
            if (!*p)
                return 0;
        }
    }
    return *name == *pat && cmp_gate_match(pat + 1, name + 1);
}

int cmp_gate_parse(const char *text, struct cmp_gate *g, char *err, size_t errn)
{
    const char *op = strpbrk(text, "<>");
    memset(g, 0, sizeof(*g));
    size_t tl = strlen(text), pl = op ? (size_t)(op - text) : 0;
    if (!op || !pl || pl >= sizeof(g->pattern) || tl >= sizeof(g->text)) {
        snprintf(err, errn, "--fail-on=%s: expected METRIC>+N%% or METRIC<-N%% (e.g. "
                            "'startup.dur_ms>+5%%')", text);
        return -1;
    }
    memcpy(g->text, text, tl + 1);
    memcpy(g->pattern, text, pl);
    g->pattern[pl] = '\0';
    g->op = *op;
    char *end;
    g->pct = strtod(op + 1, &end);
    if (end == op + 1 || strcmp(end, "%") || !isfinite(g->pct)) {
        snprintf(err, errn, "--fail-on=%s: the threshold must be a percentage such as +5%%",
                 text);
        return -1;
    }
    return 0;
}

size_t cmp_gates_apply(const struct cmp_set *s, struct cmp_gate *g, size_t ng)
{
    size_t tripped = 0;
    for (size_t i = 0; i < ng; i++) {
        for (size_t j = 0; j < s->n; j++) {
            const struct cmp_metric *m = &s->m[j];
            if (!cmp_gate_match(g[i].pattern, m->name))
                continue;
            g[i].matched++;
            if (m->significant && m->has_change &&
                (g[i].op == '>' ? m->change > g[i].pct : m->change < g[i].pct))
                g[i].tripped++;
        }
        tripped += g[i].tripped;
    }
    return tripped;
}
