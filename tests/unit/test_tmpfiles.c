/* Unit tests for the list of temporary files a signal handler removes
 * (lib/tmpfiles.c): what is remembered is unlinked, what was forgotten is
 * not, a full list says so, and slots are reused after forget. */
#include "testutil.h"

#include <unistd.h>

#include "lib/plat.h"
#include "lib/tmpfiles.h"

static char dir[] = "/tmp/tmpfiles-test.XXXXXX";

static void make(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
}

static void remembered_are_removed(void **st)
{
    (void)st;
    char a[128], b[128];
    snprintf(a, sizeof(a), "%s/a.tmp", dir);
    snprintf(b, sizeof(b), "%s/b.tmp", dir);
    make(a);
    make(b);
    assert_int_equal(tmpfiles_add(a), 0);
    assert_int_equal(tmpfiles_add(b), 0);
    tmpfiles_forget(b);             /* committed: must survive */
    tmpfiles_unlink_all();
    assert_int_equal(access(a, F_OK), -1);
    assert_int_equal(access(b, F_OK), 0);
    tmpfiles_forget(a);
    unlink(b);
}

static void full_list_and_reuse(void **st)
{
    (void)st;
    char p[128];
    int added = 0;
    for (int i = 0; i < 1000; i++) {
        snprintf(p, sizeof(p), "%s/n%d", dir, i);
        if (tmpfiles_add(p) != 0)
            break;
        added++;
    }
    assert_true(added >= 64 && added < 1000);  /* bounded, and room for a CPU each */
    snprintf(p, sizeof(p), "%s/n0", dir);
    tmpfiles_forget(p);
    assert_int_equal(tmpfiles_add(p), 0);       /* the slot is free again */
    for (int i = 0; i < added; i++) {
        snprintf(p, sizeof(p), "%s/n%d", dir, i);
        tmpfiles_forget(p);
    }
    char longp[2048];
    memset(longp, 'x', sizeof(longp) - 1);
    longp[sizeof(longp) - 1] = '\0';
    assert_int_equal(tmpfiles_add(longp), -1);  /* too long to keep: said, not cut */
}

/* Last: the process ends.  A file made with plat_mkstemp_listed is on the
 * list; once closing began none is made, and the listed ones are gone. */
static void close_makes_no_more(void **st)
{
    (void)st;
    char a[128], b[128];
    snprintf(a, sizeof(a), "%s/made.XXXXXX", dir);
    int fd = plat_mkstemp_listed(a);
    assert_true(fd >= 0);
    close(fd);
    tmpfiles_close();
    assert_int_equal(access(a, F_OK), -1);
    snprintf(b, sizeof(b), "%s/late.XXXXXX", dir);
    assert_int_equal(plat_mkstemp_listed(b), -1);
    assert_int_equal(tmpfiles_hold(), -1);
}

static int setup(void **st)
{
    (void)st;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) != 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(remembered_are_removed),
        cmocka_unit_test(full_list_and_reuse),
        cmocka_unit_test(close_makes_no_more),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
