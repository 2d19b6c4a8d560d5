/*
 * Alignment math for app method traces against atrace (align.h): the
 * clock-sync estimate, and the refinement by Trace-begin calls paired
 * with B lines.  Pure functions over bounded arrays; nothing prints.
 */
#include "align.h"

#include <stdlib.h>
#include <string.h>

/* Dalvik start times are epoch µs (> ~1e15, 2001+); ART's are uptime. */
#define REALTIME_MIN_US 1000000000000000LL

void align_set_init(struct align_set *s)
{
    memset(s, 0, sizeof(*s));
}

void align_set_free(struct align_set *s)
{
    free(s->v);
    align_set_init(s);
}

int align_set_add(struct align_set *s, int64_t tid, int64_t ts_us)
{
    if (s->n == ALIGN_MAX_EVENTS) {
        s->dropped++;
        return 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        struct align_ev *v = realloc(s->v, cap * sizeof(*v));
        if (!v) {
            s->dropped++;
            return -1;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n].tid = tid;
    s->v[s->n++].ts_us = ts_us;
    return 0;
}

void align_note_line(const struct align_line *l, int64_t pid, struct align_marks *m,
                     struct align_set *begins)
{
    switch (l->kind) {
    case ALIGN_L_BEGIN:
        if (pid <= 0 || l->pid == pid)
            align_set_add(begins, l->tid, l->ts_us);
        break;
    case ALIGN_L_PARENT_TS:
        if (!m->have_parent) {
            m->have_parent = 1;
            m->parent_s = l->parent_s;
            m->parent_line_us = l->ts_us;
        }
        break;
    case ALIGN_L_REALTIME_TS:
        if (!m->have_realtime) {
            m->have_realtime = 1;
            m->realtime_ms = l->realtime_ms;
            m->realtime_line_us = l->ts_us;
        }
        break;
    default:
        break;
    }
}

/* Saturating a + b and |a - b|: timestamps from outside bytes may be
 * anything, and the search must not overflow on them. */
static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static uint64_t dist(int64_t a, int64_t b)
{
    return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

int64_t align_float_error_us(double parent_s)
{
    if (!(parent_s > 0) || parent_s > 1e12)
        return 1;
    /* a float has 24 significant bits: with 2^k <= x < 2^(k+1), its
     * ulp is 2^(k-23) s (no libm: the power found by doubling) */
    double p = 1.0;
    while (p * 2 <= parent_s)
        p *= 2;
    while (p > parent_s)
        p /= 2;
    double half_ulp_us = p / 16777216.0 * 1e6;
    return (int64_t)half_ulp_us + 2;
}

void align_estimate(const struct align_marks *m, int64_t start_us, struct align_estimate *out)
{
    memset(out, 0, sizeof(*out));
    if (start_us >= REALTIME_MIN_US) {
        if (!m->have_realtime || m->realtime_ms < 0 || m->realtime_ms > 10000000000000LL)
            return;     /* no marker, or not a date (year > 2286) */
        /* realtime_ts is truncated to the ms: the middle of that ms */
        out->basis = ALIGN_REALTIME_TS;
        out->offset_us = sat_add(m->realtime_line_us, -(m->realtime_ms * 1000 + 500));
        out->window_us = 2000;
        return;
    }
    if (!m->have_parent || !(m->parent_s >= 0 && m->parent_s < 1e9))
        return;
    out->basis = ALIGN_PARENT_TS;
    out->offset_us = sat_add(m->parent_line_us, -(int64_t)(m->parent_s * 1e6 + 0.5));
    int64_t w = 2 * align_float_error_us(m->parent_s) + 1000;
    out->window_us = w > 2000 ? w : 2000;
}


static int cmp_ev(const void *a, const void *b)
{
    const struct align_ev *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return (x->ts_us > y->ts_us) - (x->ts_us < y->ts_us);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* First index in sorted s with (tid, ts) >= (tid, ts). */
static size_t lower(const struct align_set *s, int64_t tid, int64_t ts)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct align_ev *e = &s->v[mid];
        if (e->tid < tid || (e->tid == tid && e->ts_us < ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Candidate differences (B ts - call ts) within est +- window (all of a
 * thread's with ALIGN_NONE; bounded by ALIGN_MAX_PAIRS). */
static size_t candidates(const struct align_set *calls, const struct align_set *begins,
                         const struct align_estimate *est, int64_t **out)
{
    size_t n = 0, cap = 0;
    int64_t *d = NULL;
    int all = est->basis == ALIGN_NONE;
    for (size_t i = 0; i < calls->n && n < ALIGN_MAX_PAIRS; i++) {
        const struct align_ev *c = &calls->v[i];
        int64_t at = sat_add(c->ts_us, est->offset_us);
        int64_t lo = all ? INT64_MIN : sat_add(at, -est->window_us);
        int64_t hi = all ? INT64_MAX : sat_add(at, est->window_us);
        for (size_t k = lower(begins, c->tid, lo);
             k < begins->n && begins->v[k].tid == c->tid && begins->v[k].ts_us <= hi &&
             n < ALIGN_MAX_PAIRS; k++) {
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 1024;
                int64_t *nd = realloc(d, nc * sizeof(*nd));
                if (!nd)
                    break;
                d = nd;
                cap = nc;
            }
            d[n++] = sat_add(begins->v[k].ts_us, c->ts_us == INT64_MIN ? INT64_MAX
                                                                      : -c->ts_us);
        }
    }
    *out = d;
    return n;
}

/* Centre of the densest window of width 2 * ALIGN_TOLERANCE_US in the
 * sorted differences, and how many it holds. */
static size_t vote(const int64_t *d, size_t n, int64_t *centre)
{
    size_t best = 0, lo = 0;
    for (size_t hi = 0; hi < n; hi++) {
        while (d[hi] - d[lo] > 2 * ALIGN_TOLERANCE_US)
            lo++;
        if (hi - lo + 1 > best) {
            best = hi - lo + 1;
            *centre = d[lo + (hi - lo) / 2];
        }
    }
    return best;
}

static int64_t median(int64_t *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp_i64);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* Each call's nearest B line to centre (within tolerance): differences. */
static size_t pairs(const struct align_set *calls, const struct align_set *begins,
                    int64_t centre, int64_t *d)
{
    size_t n = 0;
    for (size_t i = 0; i < calls->n; i++) {
        const struct align_ev *c = &calls->v[i];
        int64_t want = sat_add(c->ts_us, centre);
        size_t k = lower(begins, c->tid, sat_add(want, -ALIGN_TOLERANCE_US));
        int64_t best = INT64_MAX;
        for (; k < begins->n && begins->v[k].tid == c->tid &&
               begins->v[k].ts_us <= sat_add(want, ALIGN_TOLERANCE_US); k++) {
            int64_t diff = sat_add(begins->v[k].ts_us, c->ts_us == INT64_MIN ? INT64_MAX : -c->ts_us);
            if (best == INT64_MAX ||
                dist(diff, centre) < dist(best, centre))
                best = diff;
        }
        if (best != INT64_MAX)
            d[n++] = best;
    }
    return n;
}

/* One attempt: vote within est's window, then pair around the vote. */
static size_t try_refine(const struct align_set *calls, const struct align_set *begins,
                         const struct align_estimate *est, int64_t *d, int64_t *centre)
{
    int64_t *cand = NULL;
    size_t nc = candidates(calls, begins, est, &cand);
    if (!nc) {
        free(cand);
        return 0;
    }
    qsort(cand, nc, sizeof(*cand), cmp_i64);
    vote(cand, nc, centre);
    free(cand);
    return pairs(calls, begins, *centre, d);
}

/* Median offset and residual of n pairs; 1 if they look real: enough
 * pairs (a fifth of the calls at least) and a residual well inside the
 * tolerance (pairs found by chance spread over all of it). */
static int judge(int64_t *d, size_t n, size_t ncalls, size_t min_matched, int64_t *off,
                 double *resid)
{
    if (!n || n < min_matched || n * 5 < ncalls)
        return 0;
    *off = median(d, n);
    for (size_t i = 0; i < n; i++)
        d[i] = llabs(d[i] - *off);
    *resid = (double)median(d, n);
    return *resid * 4 <= ALIGN_TOLERANCE_US;
}

void align_refine(struct align_set *calls, struct align_set *begins,
                  const struct align_estimate *est, size_t min_matched,
                  struct align_result *out)
{
    memset(out, 0, sizeof(*out));
    out->offset_us = est->offset_us;
    out->calls = calls->n;
    if (!calls->n || !begins->n)
        return;
    qsort(calls->v, calls->n, sizeof(*calls->v), cmp_ev);
    qsort(begins->v, begins->n, sizeof(*begins->v), cmp_ev);
    int64_t *d = malloc(calls->n * sizeof(*d)), centre = 0;
    if (!d)
        return;
    if (min_matched < 1)
        min_matched = 1;
    size_t n = try_refine(calls, begins, est, d, &centre);
    int64_t off = 0;
    double resid = 0;
    int ok = judge(d, n, calls->n, min_matched, &off, &resid);
    if (!ok && est->basis != ALIGN_NONE) {
        /* the app's clock is not the one the marker knows (ART's 2023
         * timestamp counter): search everywhere, accept a clear majority */
        struct align_estimate any = {ALIGN_NONE, 0, 0};
        size_t n2 = try_refine(calls, begins, &any, d, &centre);
        if (n2 * 2 >= calls->n && judge(d, n2, calls->n, min_matched, &off, &resid)) {
            ok = out->unbounded = 1;
            n = n2;
        }
    }
    if (ok) {
        out->residual_us = resid;
        out->offset_us = off;
        out->correction_us = off - est->offset_us;
        out->refined = 1;
    } else {
        n = 0;
    }
    out->matched = n;
    free(d);
}

int64_t align_outside(int64_t lo, int64_t hi, int64_t offset, int64_t flo, int64_t fhi)
{
    int64_t a = sat_add(lo, offset), b = sat_add(hi, offset);
    if (a < sat_add(flo, -ALIGN_SLACK_US))
        return sat_add(a, flo == INT64_MIN ? INT64_MAX : -flo);
    if (b > sat_add(fhi, ALIGN_SLACK_US))    /* from its start if all of it is after */
        return sat_add(a > fhi ? a : b, fhi == INT64_MIN ? INT64_MAX : -fhi);
    return 0;
}
