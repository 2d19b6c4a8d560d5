/* Unit tests for --process's name rule (lib/procname.c): whole names,
 * comms cut to 15 bytes at either end, path basenames, and near misses. */
#include "testutil.h"

#include "lib/procname.h"

static int m(const char *name, const char *want)
{
    return procname_matches(name, strlen(name), want);
}

static void matches(void **st)
{
    (void)st;
    assert_true(m("surfaceflinger", "surfaceflinger"));
    assert_true(m("/system/bin/surfaceflinger", "surfaceflinger"));
    assert_true(m("com.android.syst", "com.android.systemui") == 0);     /* 16 bytes */
    assert_true(m("com.android.sys", "com.android.systemui"));           /* the head */
    assert_true(m("ndroid.systemui", "com.android.systemui"));           /* the tail */
    assert_true(m("/data/app/ndroid.systemui", "com.android.systemui"));
    assert_true(m("/system/bin/surfaceflinger", "/system/bin/surfaceflinger"));
}

static void misses(void **st)
{
    (void)st;
    assert_false(m("surfaceflinger", "surfaceflinge"));
    assert_false(m("surfaceflinge", "surfaceflinger"));    /* 13 bytes: no cut comm */
    assert_false(m("ndroid.systemuX", "com.android.systemui"));
    assert_false(m("com.android.systemui", "ndroid.systemui"));
    assert_false(m("/system/bin/", "surfaceflinger"));
    assert_false(m("bin/surfaceflinger/", "surfaceflinger"));
    assert_false(m("", "x"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches),
        cmocka_unit_test(misses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
