/*
 * Statistics for comparing two sets of runs (systrace compare): medians,
 * the Mann-Whitney U test and a bootstrap confidence interval of the
 * change in median.  Pure functions, no I/O.
 *
 * The U test follows scipy.stats.mannwhitneyu(x, y) with its defaults
 * (alternative='two-sided', use_continuity=True, method='auto'): U is
 * x's statistic (its rank sum minus nx(nx+1)/2, ties given mid-ranks);
 * the p-value is exact (the null distribution counted) when there are no
 * ties and one side has at most 8 values, else the normal approximation
 * with the tie correction and the continuity correction; two-sided p
 * is twice the tail of max(U, nx*ny - U), at most 1.
 * The bootstrap resamples each side with replacement from a fixed seed,
 * so a comparison prints the same interval every time.
 */
#ifndef SYSTRACE_STATS_H
#define SYSTRACE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define STATS_N_MAX 100000      /* values per side */
#define STATS_EXACT_MAX 8       /* exact p when min(nx, ny) <= this, no ties */

/* The median of x[0, n) (the mean of the middle two for even n); x is
 * sorted in place.  0 for n == 0. */
double stats_median(double *x, size_t n);

struct mwu {
    double u;           /* x's U statistic */
    double p;           /* two-sided p-value */
    int exact;          /* 1: counted, 0: normal approximation */
};

/* The U test of x[0, nx) against y[0, ny) (both >= 1 value, at most
 * STATS_N_MAX each); ST_EINVAL for other sizes, ST_ENOMEM. */
enum st_err stats_mwu(const double *x, size_t nx, const double *y, size_t ny, struct mwu *r);

/* Cliff's delta of y against x: P(y > x) - P(y < x), from -1 to 1; the
 * effect size by which changes are ranked (U / (nx ny) rescaled). */
double stats_cliff(double u, size_t nx, size_t ny);

struct boot_ci {
    double low, high;   /* percent change of the median, y against x */
    int valid;          /* 0: a resampled x median was 0 */
};

#define STATS_BOOT_ROUNDS 2000
#define STATS_BOOT_SEED 0x5157a7cedull

/* The 95% percentile interval of 100 (median(y*) / median(x*) - 1) over
 * `rounds` resamples; ST_EINVAL for empty sides, ST_ENOMEM. */
enum st_err stats_boot_ci(const double *x, size_t nx, const double *y, size_t ny,
                          unsigned rounds, uint64_t seed, struct boot_ci *ci);

#endif
