/*
 * Medians, the Mann-Whitney U test and the bootstrap interval (stats.h).
 * The exact null distribution of U is counted as the coefficients of the
 * Gaussian binomial [m+n choose m] (polynomial in q, degree m n), built
 * by m multiplications by (1 - q^(n+i)) and divisions by (1 - q^i), in
 * doubles: the counts reach C(38, 8) ~ 5e7 for m = 8, n = 30, exact.
 */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median(double *x, size_t n)
{
    if (!n)
        return 0;
    qsort(x, n, sizeof(*x), cmp_double);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

struct ranked {
    double v;
    int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
    return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* x's rank sum (mid-ranks for ties) and the tie term sum(t^3 - t). */
static enum st_err rank_sum(const double *x, size_t nx, const double *y, size_t ny,
                            double *rx, double *ties)
{
    size_t n = nx + ny;
    struct ranked *r = malloc(n * sizeof(*r));
    if (!r)
        return ST_ENOMEM;
    for (size_t i = 0; i < n; i++)
        r[i] = (struct ranked){i < nx ? x[i] : y[i - nx], i < nx};
    qsort(r, n, sizeof(*r), cmp_ranked);
    *rx = *ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && r[j].v == r[i].v)
            j++;
        double t = (double)(j - i), mid = (double)(i + 1 + j) / 2;  /* ranks i+1..j */
        for (size_t k = i; k < j; k++)
            *rx += r[k].from_x ? mid : 0;
        *ties += t * t * t - t;
        i = j;
    }
    free(r);
    return ST_OK;
}

/* P(U >= k) for samples of m and n values without ties, counted. */
static enum st_err exact_sf(size_t m, size_t n, double k, double *sf)
{
    size_t deg = m * n;
    double *c = calloc(deg + 1, sizeof(*c));
    if (!c)
        return ST_ENOMEM;
    c[0] = 1;
    for (size_t i = 1; i <= m; i++) {
        for (size_t j = deg; j >= n + i && j <= deg; j--)
            c[j] -= c[j - n - i];           /* times (1 - q^(n+i)) */
        for (size_t j = i; j <= deg; j++)
            c[j] += c[j - i];               /* over (1 - q^i) */
    }
    double all = 0, tail = 0;
    for (size_t j = 0; j <= deg; j++) {
        all += c[j];
        if ((double)j >= k)
            tail += c[j];
    }
    free(c);
    *sf = tail / all;
    return ST_OK;
}

enum st_err stats_mwu(const double *x, size_t nx, const double *y, size_t ny, struct mwu *r)
{
    if (!nx || !ny || nx > STATS_N_MAX || ny > STATS_N_MAX)
        return ST_EINVAL;
    double rx, ties;
    enum st_err e = rank_sum(x, nx, y, ny, &rx, &ties);
    if (e)
        return e;
    double n1 = (double)nx, n2 = (double)ny, n = n1 + n2;
    r->u = rx - n1 * (n1 + 1) / 2;
    double big = fmax(r->u, n1 * n2 - r->u);
    r->exact = ties == 0 && (nx <= STATS_EXACT_MAX || ny <= STATS_EXACT_MAX);
    if (r->exact) {
        double sf;
        if ((e = exact_sf(nx < ny ? nx : ny, nx < ny ? ny : nx, big, &sf)))
            return e;
        r->p = fmin(1, 2 * sf);
        return ST_OK;
    }
    double s = sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))));
    double z = s > 0 ? (big - n1 * n2 / 2 - 0.5) / s : -INFINITY;
    r->p = fmin(1, erfc(z / sqrt(2)));     /* 2 * the normal tail above z */
    return ST_OK;
}

double stats_cliff(double u, size_t nx, size_t ny)
{
    /* x's U counts pairs where x > y; y growing means U small */
    return 1 - 2 * u / ((double)nx * (double)ny);
}

/* splitmix64: small, fast, and the same sequence on every platform */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double resampled_median(const double *x, size_t n, double *tmp, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = x[(size_t)((double)(next_rand(seed) >> 11) * 0x1p-53 * (double)n)];
    return stats_median(tmp, n);
}

/* numpy's default (linear) percentile of sorted v[0, n) */
static double percentile(const double *v, size_t n, double q)
{
    double at = q / 100 * (double)(n - 1);
    size_t lo = (size_t)at;
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (v[lo + 1] - v[lo]) * (at - (double)lo);
}

enum st_err stats_boot_ci(const double *x, size_t nx, const double *y, size_t ny,
                          unsigned rounds, uint64_t seed, struct boot_ci *ci)
{
    if (!nx || !ny || !rounds || nx > STATS_N_MAX || ny > STATS_N_MAX)
        return ST_EINVAL;
    double *tmp = malloc((nx > ny ? nx : ny) * sizeof(*tmp));
    double *d = malloc(rounds * sizeof(*d));
    if (!tmp || !d) {
        free(tmp);
        free(d);
        return ST_ENOMEM;
    }
    ci->valid = 1;
    for (unsigned i = 0; i < rounds && ci->valid; i++) {
        double mx = resampled_median(x, nx, tmp, &seed);
        double my = resampled_median(y, ny, tmp, &seed);
        ci->valid = mx != 0;
        d[i] = ci->valid ? 100 * (my / mx - 1) : 0;
    }
    if (ci->valid) {
        qsort(d, rounds, sizeof(*d), cmp_double);
        ci->low = percentile(d, rounds, 2.5);
        ci->high = percentile(d, rounds, 97.5);
    }
    free(tmp);
    free(d);
    return ST_OK;
}
