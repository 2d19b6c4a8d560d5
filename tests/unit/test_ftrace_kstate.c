/* Unit tests for the kernel-state restore list (agents/linux/ftrace_kstate.c):
 * what each tracefs file's text turns into when written back, and the
 * save-first/restore-newest-first behaviour on ordinary files. */
#include "testutil.h"

#include <errno.h>
#include <unistd.h>

#include "agents/linux/ftrace_kstate.h"

static void value_is(enum kval_kind k, const char *text, const char *want)
{
    struct dynbuf out;
    dynbuf_init(&out, 1u << 20);
    assert_int_equal(kstate_value(k, text, strlen(text), &out), ST_OK);
    assert_string_equal(dynbuf_str(&out), want);
    dynbuf_free(&out);
}

static void value_bad(enum kval_kind k, const char *text)
{
    struct dynbuf out;
    dynbuf_init(&out, 1u << 20);
    assert_int_equal(kstate_value(k, text, strlen(text), &out), ST_EFORMAT);
    dynbuf_free(&out);
}

static void kinds(void **st)
{
    (void)st;
    assert_int_equal(kstate_kind("buffer_size_kb"), KV_BUFSIZE);
    assert_int_equal(kstate_kind("trace_clock"), KV_CHOICE);
    assert_int_equal(kstate_kind("set_ftrace_filter"), KV_FILTER);
    assert_int_equal(kstate_kind("set_graph_function"), KV_FILTER);
    assert_int_equal(kstate_kind("events/sched/sched_switch/enable"), KV_ENABLE);
    assert_int_equal(kstate_kind("options/record-tgid"), KV_PLAIN);
    assert_int_equal(kstate_kind("tracing_on"), KV_PLAIN);
    assert_int_equal(kstate_kind("current_tracer"), KV_PLAIN);
}

static void values(void **st)
{
    (void)st;
    /* as read on kernel 6.18 before anything traced */
    value_is(KV_BUFSIZE, "7 (expanded: 1408)\n", "1408");
    value_is(KV_BUFSIZE, "4096\n", "4096");
    value_bad(KV_BUFSIZE, "X\n");
    value_is(KV_CHOICE, "[local] global counter uptime perf mono mono_raw boot\n", "local");
    value_is(KV_CHOICE, "local global [mono] boot\n", "mono");
    value_is(KV_FILTER, "#### all functions enabled ####\n", "");
    value_is(KV_FILTER, "do_sys_open\nvfs_read [ext4]\n", "do_sys_open\nvfs_read [ext4]\n");
    value_is(KV_ENABLE, "0\n", "0");
    value_is(KV_ENABLE, "1*\n", "1");
    value_bad(KV_ENABLE, "X\n");
    value_is(KV_PLAIN, "nop\n", "nop");
    value_is(KV_PLAIN, "1\n", "1");
}

static char *slurp(const char *path)
{
    size_t n;
    char *s = tu_read(path, &n);
    assert_non_null(s);
    return s;
}

static void restore_order(void **st)
{
    (void)st;
    char dir[] = "/tmp/kstate-test.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[64], b[64];
    snprintf(a, sizeof(a), "%s/a", dir);
    snprintf(b, sizeof(b), "%s/b", dir);
    assert_int_equal(kstate_write_file(a, "A0", 2), ENOENT);   /* not created */
    FILE *f = fopen(a, "w");
    fclose(f);
    f = fopen(b, "w");
    fclose(f);

    struct kstate k;
    kstate_init(&k);
    assert_int_equal(kstate_add(&k, a, "orig-a", 6), ST_OK);
    assert_int_equal(kstate_add(&k, b, "orig-b", 6), ST_OK);
    assert_int_equal(kstate_add(&k, a, "later", 5), ST_OK);    /* first value kept */
    assert_true(kstate_has(&k, a));
    assert_int_equal(kstate_write_file(a, "changed", 7), 0);
    assert_int_equal(kstate_restore(&k, NULL, 0), 0);
    char *s = slurp(a);
    assert_string_equal(s, "orig-a");
    free(s);
    s = slurp(b);
    assert_string_equal(s, "orig-b");
    free(s);
    /* done items are not written again */
    assert_int_equal(kstate_write_file(a, "new", 3), 0);
    assert_int_equal(kstate_restore(&k, NULL, 0), 0);
    s = slurp(a);
    assert_string_equal(s, "new");
    free(s);
    kstate_free(&k);

    /* a failing write is counted and named */
    kstate_init(&k);
    char gone[80];
    snprintf(gone, sizeof(gone), "%s/missing/x", dir);
    assert_int_equal(kstate_add(&k, gone, "1", 1), ST_OK);
    assert_int_equal(kstate_add(&k, b, "back", 4), ST_OK);
    char fp[128] = "";
    assert_int_equal(kstate_restore(&k, fp, sizeof(fp)), 1);
    assert_string_equal(fp, gone);
    s = slurp(b);
    assert_string_equal(s, "back");
    free(s);
    kstate_free(&k);
    unlink(a);
    unlink(b);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds),
        cmocka_unit_test(values),
        cmocka_unit_test(restore_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
