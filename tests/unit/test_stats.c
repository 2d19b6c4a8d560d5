/* Unit tests for compare's statistics (lib/stats.c): medians, the
 * Mann-Whitney U test against values worked out by hand and with SciPy
 * 1.10 (e2e/compare_scipy checks many more), Cliff's delta, and the
 * bootstrap interval's reproducibility. */
#include <math.h>

#include "testutil.h"

#include "lib/stats.h"

static void median(void **st)
{
    (void)st;
    double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2}, c[] = {7};
    assert_true(stats_median(a, 3) == 3);
    assert_true(stats_median(b, 4) == 2.5);
    assert_true(stats_median(c, 1) == 7);
    assert_true(stats_median(c, 0) == 0);
}

/* scipy.stats.mannwhitneyu([1,2,3], [4,5,6]): U 0, p 0.1 (exact: 1 of
 * C(6,3) = 20 orders each way) */
static void exact_small(void **st)
{
    (void)st;
    double x[] = {1, 2, 3}, y[] = {4, 5, 6};
    struct mwu r;
    assert_int_equal(stats_mwu(x, 3, y, 3, &r), ST_OK);
    assert_true(r.exact);
    assert_true(r.u == 0);
    assert_true(fabs(r.p - 0.1) < 1e-12);
    assert_int_equal(stats_mwu(y, 3, x, 3, &r), ST_OK);
    assert_true(r.u == 9);
    assert_true(fabs(r.p - 0.1) < 1e-12);
    /* one value each: p 1 */
    assert_int_equal(stats_mwu(x, 1, y, 1, &r), ST_OK);
    assert_true(r.p == 1);
}

/* ties: the normal approximation with tie and continuity corrections;
 * scipy.stats.mannwhitneyu([1,2,2,3], [2,3,4,5]) -> U 2.5,
 * p 0.1366582477381475 */
static void ties_normal(void **st)
{
    (void)st;
    double x[] = {1, 2, 2, 3}, y[] = {2, 3, 4, 5};
    struct mwu r;
    assert_int_equal(stats_mwu(x, 4, y, 4, &r), ST_OK);
    assert_false(r.exact);
    assert_true(r.u == 2.5);
    assert_true(fabs(r.p - 0.1366582477381475) < 1e-12);
    /* all equal: no evidence at all */
    double z[] = {1, 1, 1};
    assert_int_equal(stats_mwu(z, 3, z, 3, &r), ST_OK);
    assert_true(r.p == 1);
}

/* large, no ties: normal approximation; scipy gives p 0.00018267179110955 for
 * 0..9 against 10..19 (n 10 each: U 0) */
static void normal_large(void **st)
{
    (void)st;
    double x[10], y[10];
    for (int i = 0; i < 10; i++) {
        x[i] = i;
        y[i] = 10 + i;
    }
    struct mwu r;
    assert_int_equal(stats_mwu(x, 10, y, 10, &r), ST_OK);
    assert_false(r.exact);
    assert_true(r.u == 0);
    assert_true(fabs(r.p - 0.00018267179110955002) < 1e-12);
    assert_true(stats_cliff(r.u, 10, 10) == 1);
}

static void bad_sizes(void **st)
{
    (void)st;
    double x[] = {1};
    struct mwu r;
    struct boot_ci ci;
    assert_int_equal(stats_mwu(x, 0, x, 1, &r), ST_EINVAL);
    assert_int_equal(stats_boot_ci(x, 1, x, 0, 100, 1, &ci), ST_EINVAL);
}

static void bootstrap(void **st)
{
    (void)st;
    double x[10], y[10];
    for (int i = 0; i < 10; i++) {
        x[i] = 100 + i;
        y[i] = 120 + 1.2 * i;
    }
    struct boot_ci a, b;
    assert_int_equal(stats_boot_ci(x, 10, y, 10, 2000, STATS_BOOT_SEED, &a), ST_OK);
    assert_int_equal(stats_boot_ci(x, 10, y, 10, 2000, STATS_BOOT_SEED, &b), ST_OK);
    assert_true(a.valid);
    assert_true(a.low == b.low && a.high == b.high);    /* reproducible */
    assert_true(a.low > 10 && a.low < 20);              /* the change is 20% */
    assert_true(a.high > 20 && a.high < 30);
    double zero[] = {0, 0};
    assert_int_equal(stats_boot_ci(zero, 2, y, 10, 100, 1, &a), ST_OK);
    assert_false(a.valid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median),      cmocka_unit_test(exact_small),
        cmocka_unit_test(ties_normal), cmocka_unit_test(normal_large),
        cmocka_unit_test(bad_sizes),   cmocka_unit_test(bootstrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
