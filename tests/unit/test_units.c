/* Unit tests for numbers with units (src/units.c): -t and -b values as a
 * user types them, catapult's plain numbers, and every way to get one
 * wrong. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "src/units.h"

static void durations(void **st)
{
    (void)st;
    struct { const char *in; long ms; } ok[] = {
        {"10", 10000}, {"0", 0}, {"10s", 10000}, {"1.5s", 1500}, {"500ms", 500},
        {"500MS", 500}, {"2m", 120000}, {"2min", 120000}, {"1h", 3600000},
        {"0.25", 250}, {"3sec", 3000},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
        long v = -1;
        char err[128] = "";
        if (units_duration_ms(ok[i].in, &v, err, sizeof(err)))
            fail_msg("'%s': %s", ok[i].in, err);
        assert_int_equal(v, ok[i].ms);
    }
    struct { const char *in; const char *msg; } bad[] = {
        {"", "not a duration"}, {"s", "not a duration"}, {"-1", "not a duration"},
        {"5x", "unknown unit 'x'"}, {"1.", "not a duration"}, {"1.2345s", "not a duration"},
        {"0.5ms", "finer"}, {"10 s", "unknown unit ' s'"}, {"99999999999", "too large"}, {"99999999999999999999", "not a duration"},
        {"9999999h", "too large"}, {"+3", "not a duration"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        long v = -1;
        char err[128] = "";
        assert_int_equal(units_duration_ms(bad[i].in, &v, err, sizeof(err)), -1);
        if (!strstr(err, bad[i].msg) || !strstr(err, bad[i].in))
            fail_msg("'%s': '%s' lacks '%s'", bad[i].in, err, bad[i].msg);
        assert_int_equal(v, -1);
    }
}

static void sizes(void **st)
{
    (void)st;
    struct { const char *in; long kb; } ok[] = {
        {"4096", 4096}, {"4096k", 4096}, {"4096KB", 4096}, {"32mb", 32768}, {"64MiB", 65536},
        {"32m", 32768}, {"1g", 1048576}, {"1.5m", 1536}, {"2GiB", 2097152},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
        long v = -1;
        char err[128] = "";
        if (units_size_kb(ok[i].in, &v, err, sizeof(err)))
            fail_msg("'%s': %s", ok[i].in, err);
        assert_int_equal(v, ok[i].kb);
    }
    struct { const char *in; const char *msg; } bad[] = {
        {"32x", "unknown unit 'x'"}, {"0.5", "finer"}, {"mb", "not a size"},
        {"4096 kb", "unknown unit"}, {"4096t", "unknown unit 't'"}, {"99999g", "too large"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        long v = -1;
        char err[128] = "";
        assert_int_equal(units_size_kb(bad[i].in, &v, err, sizeof(err)), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("'%s': '%s' lacks '%s'", bad[i].in, err, bad[i].msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(durations),
        cmocka_unit_test(sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
