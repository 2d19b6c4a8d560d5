/*
 * The part of cmocka's API the unit tests use, for the Windows build,
 * where Debian has no cmocka: a failed assertion prints where and why and
 * ends the test (longjmp), the group reports failures, and skip() counts
 * as passed.  Only tests/windows/unit.c's driver and the unit tests include
 * this (through tests/unit/testutil.h and -Itests/windows).
 */
#ifndef SYSTRACE_WIN_CMOCKA_H
#define SYSTRACE_WIN_CMOCKA_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/printf.h"

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);
struct CMUnitTest {
    const char *name;
    CMUnitTestFunction test_func;
    CMFixtureFunction setup_func, teardown_func;
    void *initial_state;
};

#define cmocka_unit_test(f) {#f, f, NULL, NULL, NULL}
#define cmocka_unit_test_setup_teardown(f, s, t) {#f, f, s, t, NULL}
#define cmocka_run_group_tests(g, s, t) \
    wcm_run(#g, g, sizeof(g) / sizeof((g)[0]), s, t)

int wcm_run(const char *name, const struct CMUnitTest *t, size_t n, CMFixtureFunction setup,
            CMFixtureFunction teardown);
void wcm_fail(const char *file, int line, const char *fmt, ...) ST_PRINTF(3, 4)
    __attribute__((noreturn));
void wcm_skip(void) __attribute__((noreturn));
void print_message(const char *fmt, ...) ST_PRINTF(1, 2);

#define WCM_FAIL(...) wcm_fail(__FILE__, __LINE__, __VA_ARGS__)
#define assert_true(c) \
    do { if (!(c)) WCM_FAIL("%s is false", #c); } while (0)
#define assert_false(c) \
    do { if (c) WCM_FAIL("%s is true", #c); } while (0)
#define assert_null(p) \
    do { if ((uintptr_t)(p) != 0) WCM_FAIL("%s is not NULL", #p); } while (0)
#define assert_non_null(p) \
    do { if ((uintptr_t)(p) == 0) WCM_FAIL("%s is NULL", #p); } while (0)
#define assert_ptr_equal(a, b) \
    do { if ((const void *)(a) != (const void *)(b)) WCM_FAIL("%s != %s", #a, #b); } while (0)
#define assert_int_equal(a, b) \
    do { \
        intmax_t wcm_a = (intmax_t)(a), wcm_b = (intmax_t)(b); \
        if (wcm_a != wcm_b) \
            WCM_FAIL("%jd != %jd (%s, %s)", wcm_a, wcm_b, #a, #b); \
    } while (0)
#define assert_int_not_equal(a, b) \
    do { if ((intmax_t)(a) == (intmax_t)(b)) WCM_FAIL("%s == %s", #a, #b); } while (0)
#define assert_string_equal(a, b) \
    do { \
        const char *wcm_s = (a), *wcm_t = (b); \
        if (!wcm_s || !wcm_t || strcmp(wcm_s, wcm_t)) \
            WCM_FAIL("\"%s\" != \"%s\"", wcm_s ? wcm_s : "(null)", wcm_t ? wcm_t : "(null)"); \
    } while (0)
#define assert_memory_equal(a, b, n) \
    do { if (memcmp((a), (b), (n))) WCM_FAIL("%s and %s differ", #a, #b); } while (0)
#define fail_msg(...) WCM_FAIL(__VA_ARGS__)
#define skip() wcm_skip()

#endif
