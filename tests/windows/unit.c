/*
 * The unit tests built for Windows, in one executable so Wine starts once:
 * each tests/unit/test_NAME.c is compiled with its main renamed
 * (-Dmain=unit_NAME, listed in the generated units.h), and this driver
 * runs them all with the cmocka subset of tests/windows/cmocka.h.
 * Exit status: the number of failed tests (0: all passed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka.h"
#include "lib/plat.h"

static jmp_buf wcm_jump;
static int wcm_skipped;

void print_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void wcm_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    printf("    %s:%d: ", file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    longjmp(wcm_jump, 1);
}

void wcm_skip(void)
{
    wcm_skipped = 1;
    longjmp(wcm_jump, 2);
}

/* One test: 0 passed (or skipped), 1 failed.  Its own frame for setjmp. */
static int run_one(const struct CMUnitTest *t, void *group)
{
    void *state = t->initial_state ? t->initial_state : group;
    wcm_skipped = 0;
    if (t->setup_func && t->setup_func(&state))
        return 1;
    volatile int r = setjmp(wcm_jump);
    if (!r)
        t->test_func(&state);
    if (t->teardown_func)
        t->teardown_func(&state);
    return r == 1;
}

int wcm_run(const char *name, const struct CMUnitTest *t, size_t n, CMFixtureFunction setup,
            CMFixtureFunction teardown)
{
    int failed = 0;
    void *group = NULL;
    if (setup && setup(&group)) {
        printf("[  FAILED  ] %s: group setup\n", name);
        return (int)n;
    }
    for (size_t i = 0; i < n; i++) {
        if (run_one(&t[i], group)) {
            printf("[  FAILED  ] %s\n", t[i].name);
            failed++;
        }
    }
    if (teardown)
        teardown(&group);
    return failed;
}

#include "units.h"

int main(int argc, char **argv)
{
    plat_init(&argc, &argv);
    int failed = 0, run = 0;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (argc > 1 && strcmp(argv[1], units[i].name))
            continue;
        int f = units[i].fn();
        printf("%s %s\n", f ? "FAIL" : "PASS", units[i].name);
        fflush(stdout);
        failed += f != 0;
        run++;
    }
    printf("%d of %d unit test programs passed\n", run - failed, run);
    return failed;
}
