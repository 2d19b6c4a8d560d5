/* Unit tests for integers as text without printf (lib/numfmt.c): the
 * same text as snprintf's %llu, %lld, %llx and "%llu.%03llu" on edge
 * values (0, negatives, INT64_MIN/MAX, UINT64_MAX, nanosecond times near
 * the powers of ten) and on a sweep of values of every length. */
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>

#include "lib/numfmt.h"

static void same_u(uint64_t v)
{
    char want[64], got[NUMFMT_MAX];
    snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
    assert_int_equal(numfmt_u64(got, v), strlen(want));
    assert_string_equal(got, want);
    snprintf(want, sizeof(want), "%llx", (unsigned long long)v);
    assert_int_equal(numfmt_hex(got, v), strlen(want));
    assert_string_equal(got, want);
    snprintf(want, sizeof(want), "%llu.%03llu", (unsigned long long)(v / 1000),
             (unsigned long long)(v % 1000));
    assert_int_equal(numfmt_us(got, v, 0), strlen(want));
    assert_string_equal(got, want);
    if (!(v % 1000))
        snprintf(want, sizeof(want), "%llu", (unsigned long long)(v / 1000));
    assert_int_equal(numfmt_us(got, v, 1), strlen(want));
    assert_string_equal(got, want);
}

static void same_i(int64_t v)
{
    char want[64], got[NUMFMT_MAX];
    snprintf(want, sizeof(want), "%lld", (long long)v);
    assert_int_equal(numfmt_i64(got, v), strlen(want));
    assert_string_equal(got, want);
}

static void edges(void **st)
{
    (void)st;
    static const uint64_t u[] = {0, 1, 9, 10, 99, 100, 101, 999, 1000, 1001, 1999, 10000,
                                 123456789, 1000000000, 999999999999, 1700000000123456789ull,
                                 UINT32_MAX, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1,
                                 UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
        same_u(u[i]);
    static const int64_t s[] = {0, 1, -1, 9, -9, 10, -10, 99, -100, INT32_MIN, INT32_MAX,
                                -1700000000123456789ll, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
        same_i(s[i]);
}

/* Every length, both sides of each power of ten and sixteen. */
static void sweep(void **st)
{
    (void)st;
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t v = x >> (i % 64);
        same_u(v);
        same_i((int64_t)v);
        same_i(-(int64_t)(v >> 1));
    }
    for (uint64_t p = 1; p && p <= UINT64_MAX / 10; p *= 10) {
        same_u(p - 1);
        same_u(p);
        same_u(p + 1);
        same_i(-(int64_t)p);
    }
    for (int b = 0; b < 64; b++) {
        same_u((uint64_t)1 << b);
        same_u(((uint64_t)1 << b) - 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edges),
        cmocka_unit_test(sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
