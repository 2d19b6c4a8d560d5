/* Unit tests for the per-CPU spool merge (agents/ftrace_merge.c): time
 * order across sources, stable ties, lines without a timestamp staying
 * with their predecessor, a line longer than the source buffer, no final
 * newline, an empty source, small read sizes, and fmerge_to_file. */
#include "testutil.h"

#include <unistd.h>

#include "ftrace_merge.h"

static char dir[] = "/tmp/fmerge-test.XXXXXX";

static char *put(const char *name, const char *text, size_t n)
{
    static char paths[8][128];
    static int k;
    char *p = paths[k++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fwrite(text, 1, n, f);
    fclose(f);
    return p;
}

static char *merge_all(char **paths, size_t n, size_t cap, size_t *len)
{
    struct fmerge *m;
    char err[256];
    assert_int_equal(fmerge_open(paths, n, &m, err, sizeof(err)), ST_OK);
    struct dynbuf out;
    dynbuf_init(&out, 1u << 26);
    char *buf = malloc(cap);
    ssize_t r;
    while ((r = fmerge_read(m, buf, cap)) > 0)
        assert_int_equal(dynbuf_add(&out, buf, (size_t)r), ST_OK);
    assert_int_equal(r, 0);
    free(buf);
    fmerge_free(m);
    return dynbuf_take(&out, len);
}

#define L(cpu, ts, what) "  app-1 (    1) [00" #cpu "] d..2.  " ts ": " what "\n"

static void order(void **st)
{
    (void)st;
    char *p[3];
    static const char c0[] = L(0, "10.000001", "a") L(0, "10.000005", "d")
        "CPU:0 [LOST 3 EVENTS]\n" L(0, "10.000009", "g");
    p[0] = put("c0", c0, sizeof(c0) - 1);
    static const char c1[] = L(1, "10.000002", "b") L(1, "10.000005", "e")
        L(1, "11.000000", "h");
    p[1] = put("c1", c1, sizeof(c1) - 1);
    static const char c2[] = L(2, "10.000003", "c") L(2, "10.000006", "f")
        "  x-2 (    2) [002] d..2.  12.000000: no final newline";
    p[2] = put("c2", c2, sizeof(c2) - 1);
    static const char want[] =
        L(0, "10.000001", "a") L(1, "10.000002", "b") L(2, "10.000003", "c")
        L(0, "10.000005", "d") "CPU:0 [LOST 3 EVENTS]\n" L(1, "10.000005", "e")
        L(2, "10.000006", "f") L(0, "10.000009", "g") L(1, "11.000000", "h")
        "  x-2 (    2) [002] d..2.  12.000000: no final newline";
    static const size_t caps[] = {1, 7, 64, 4096, 1u << 20};
    for (size_t i = 0; i < sizeof(caps) / sizeof(*caps); i++) {
        size_t n;
        char *out = merge_all(p, 3, caps[i], &n);
        if (n != sizeof(want) - 1 || memcmp(out, want, n))
            fail_msg("cap %zu:\n%.*s", caps[i], (int)n, out);
        free(out);
    }
}

static void long_line_and_empty(void **st)
{
    (void)st;
    size_t big = FMERGE_BUF * 2 + 77;
    size_t head = strlen("  app-1 (    1) [000] d..2.  20.000000: tracing_mark_write: ");
    size_t n0 = head + big + 1 + strlen(L(0, "30.000000", "after"));
    char *c0 = malloc(n0 + 1);
    memcpy(c0, "  app-1 (    1) [000] d..2.  20.000000: tracing_mark_write: ", head);
    memset(c0 + head, 'x', big);
    c0[head + big] = '\n';
    memcpy(c0 + head + big + 1, L(0, "30.000000", "after"), strlen(L(0, "30.000000", "after")));
    char *p[3];
    p[0] = put("big", c0, n0);
    static const char c1[] = L(1, "25.000000", "mid");
    p[1] = put("mid", c1, sizeof(c1) - 1);
    p[2] = put("empty", "", 0);
    size_t want_n = n0 + sizeof(c1) - 1;
    char *want = malloc(want_n);
    memcpy(want, c0, head + big + 1);
    memcpy(want + head + big + 1, c1, sizeof(c1) - 1);
    memcpy(want + head + big + 1 + sizeof(c1) - 1, L(0, "30.000000", "after"),
           strlen(L(0, "30.000000", "after")));
    static const size_t caps[] = {100, 1u << 20};
    for (size_t i = 0; i < 2; i++) {
        size_t n;
        char *out = merge_all(p, 3, caps[i], &n);
        assert_int_equal(n, want_n);
        assert_memory_equal(out, want, n);
        free(out);
    }
    char outp[128];
    snprintf(outp, sizeof(outp), "%s/merged", dir);
    assert_int_equal(fmerge_to_file(p, 3, outp), 0);
    size_t n;
    char *got = tu_read(outp, &n);
    assert_int_equal(n, want_n);
    assert_memory_equal(got, want, n);
    free(got);
    free(want);
    free(c0);
}

static void missing_file(void **st)
{
    (void)st;
    char missing[128];
    snprintf(missing, sizeof(missing), "%s/none", dir);
    char *p[] = {missing};
    struct fmerge *m = NULL;
    char err[256];
    assert_int_equal(fmerge_open(p, 1, &m, err, sizeof(err)), ST_EIO);
    assert_null(m);
    assert_non_null(strstr(err, "none"));
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
        cmocka_unit_test(order),
        cmocka_unit_test(long_line_and_empty),
        cmocka_unit_test(missing_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
