/* Unit tests for the host tracing defaults (agents/linux/ftrace_setup.c): the
 * per-CPU buffer -b gets when not given, with and without --stream, from
 * one CPU to many. */
#include "testutil.h"

#include "agents/linux/ftrace_setup.h"

static void default_buffer(void **st)
{
    (void)st;
    assert_int_equal(ftrace_default_buf_kb(0, 2), FTRACE_DEFAULT_BUF_KB);
    assert_int_equal(ftrace_default_buf_kb(0, 256), FTRACE_DEFAULT_BUF_KB);
    assert_int_equal(ftrace_default_buf_kb(1, 1), 16384);
    assert_int_equal(ftrace_default_buf_kb(1, 2), 16384);
    assert_int_equal(ftrace_default_buf_kb(1, 16), 16384);
    assert_int_equal(ftrace_default_buf_kb(1, 32), 8192);   /* 256 MB in all */
    assert_int_equal(ftrace_default_buf_kb(1, 64), 4096);
    assert_int_equal(ftrace_default_buf_kb(1, 512), 4096);  /* never below the default */
    assert_int_equal(ftrace_default_buf_kb(1, -1), 16384);  /* sysconf failed */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
