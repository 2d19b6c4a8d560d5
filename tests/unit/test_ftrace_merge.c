/* Unit tests for the per-CPU spool merge (agents/linux/ftrace_merge.c): time
 * order across sources, stable ties, lines without a timestamp staying
 * with their predecessor, a line longer than the source buffer, no final
 * newline, an empty source, small read sizes, fmerge_to_file, and
 * normalising while merging. */
#include "testutil.h"

#include <unistd.h>

#include "agents/linux/ftrace_merge.h"

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
    char *kept = NULL;
    assert_int_equal(fmerge_to_file(p, 3, outp, &kept), 0);
    assert_string_equal(kept, outp);
    size_t n;
    char *got = tu_read(outp, &n);
    assert_int_equal(n, want_n);
    assert_memory_equal(got, want, n);
    free(got);
    free(kept);
    /* a second merge never replaces the first: it takes the next free name */
    assert_int_equal(fmerge_to_file(p, 3, outp, &kept), 0);
    char second[160];
    snprintf(second, sizeof(second), "%s-1", outp);
    assert_string_equal(kept, second);
    free(kept);
    got = tu_read(outp, &n);
    assert_int_equal(n, want_n);
    free(got);
    unlink(second);
    free(want);
    free(c0);
}

static enum st_err to_buf(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

/* Normalising while merging gives what normalising the merged text gives:
 * the same bytes and the same counts. */
static void check_norm(char **paths, size_t n, const struct fnorm_opts *o, size_t cap)
{
    size_t plain_n;
    char *plain = merge_all(paths, n, 1u << 20, &plain_n);
    struct dynbuf want, got;
    dynbuf_init(&want, 1u << 26);
    dynbuf_init(&got, 1u << 26);
    struct fnorm *a = fnorm_new(o, to_buf, &want), *b = fnorm_new(o, to_buf, &got);
    assert_int_equal(fnorm_feed(a, plain, plain_n), ST_OK);
    assert_int_equal(fnorm_finish(a), ST_OK);
    struct fmerge *m;
    char err[256];
    assert_int_equal(fmerge_open(paths, n, &m, err, sizeof(err)), ST_OK);
    char *buf = malloc(cap);
    ssize_t r;
    while ((r = fmerge_read_norm(m, b, buf, cap)) > 0)
        assert_int_equal(dynbuf_add(&got, buf, (size_t)r), ST_OK);
    assert_int_equal(r, 0);
    size_t wn, gn;
    char *w = dynbuf_take(&want, &wn), *g = dynbuf_take(&got, &gn);
    if (wn != gn || memcmp(w, g, wn))
        fail_msg("cap %zu:\n--- got:\n%.*s\n--- want:\n%.*s", cap, (int)(gn < 2000 ? gn : 2000),
                 g, (int)(wn < 2000 ? wn : 2000), w);
    assert_memory_equal(fnorm_stats(a), fnorm_stats(b), sizeof(struct fnorm_stats));
    free(w);
    free(g);
    free(buf);
    free(plain);
    fmerge_free(m);
    fnorm_free(a);
    fnorm_free(b);
}

static void normalised_merge(void **st)
{
    (void)st;
    char *p[3];
    static const char c0[] = L(0, "10.000001", "a: x") L(0, "10.000005", "d: y")
        "CPU:0 [LOST 3 EVENTS]\n" "   bash-12 [000] dB.2. 10.000007: sched_switch: z\n"
        L(0, "10.000009", "tracing_mark_write: trace_event_clock_sync: name=42");
    p[0] = put("n0", c0, sizeof(c0) - 1);
    static const char c1[] = "   bash-13 [001] d..2. 10.000002: do_sys_open <-x\n"
        "# a comment\n\n" L(1, "10.000005", "e: w");
    p[1] = put("n1", c1, sizeof(c1) - 1);
    size_t big = FMERGE_BUF + 99;
    static const char head[] = "   bash-12 [002] d..2. 10.000003: tracing_mark_write: ";
    char *c2 = malloc(sizeof(head) + big + 1);
    memcpy(c2, head, sizeof(head) - 1);
    memset(c2 + sizeof(head) - 1, 'y', big);
    c2[sizeof(head) - 1 + big] = '\n';
    p[2] = put("n2", c2, sizeof(head) + big);
    struct tgid_map *tg = tgid_map_new();
    static const char listing[] = "/proc/7/task/12 /proc/7/task/13";
    assert_int_equal(tgid_map_parse(tg, listing, sizeof(listing) - 1), ST_OK);
    struct fnorm_opts plain = {.flags = 1, .watch = "name=42"};
    struct fnorm_opts all = {.flags = 1, .func_events = 1, .tgids = tg, .watch = "name=43"};
    static const size_t caps[] = {FNORM_LINE_MAX + FNORM_GROW + 1, 8192, 1u << 20};
    for (size_t i = 0; i < sizeof(caps) / sizeof(*caps); i++) {
        check_norm(p, 3, &plain, caps[i]);
        check_norm(p, 3, &all, caps[i]);
    }
    tgid_map_free(tg);
    free(c2);
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
        cmocka_unit_test(normalised_merge),
        cmocka_unit_test(missing_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
