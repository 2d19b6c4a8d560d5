/* Unit tests for the cut of over-long lines (formats/atrace/linecut.c):
 * lines past the bound keep their start and their LF, at any chunking;
 * lines up to it pass unchanged; the count and where the cut line starts;
 * the default 64 MB bound in megabyte writes; and the circular-buffer
 * repair's tell/keep through the stage. */
#include "testutil.h"

#include "formats/atrace/linecut.h"
#include "formats/atrace/repair.h"

static const size_t chunks[] = {1, 2, 3, 7, 17, 4096};

static void expect_cut(const char *in, uint64_t max, const char *want, uint64_t lines)
{
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        struct memsink m;
        struct text_sink s;
        ms_init(&m, &s);
        struct lcut *c = lcut_new(&s, max);
        assert_non_null(c);
        size_t n = strlen(in);
        for (size_t off = 0; off < n; off += chunks[i])
            assert_int_equal(lcut_write(c, in + off, n - off < chunks[i] ? n - off : chunks[i]),
                             ST_OK);
        dynbuf_add(&m.b, "", 1);
        if (strcmp(m.b.data, want) || lcut_lines(c) != lines)
            fail_msg("chunk %zu, max %llu: \"%s\" gave \"%s\" (%llu cut), want \"%s\" (%llu)",
                     chunks[i], (unsigned long long)max, in, m.b.data,
                     (unsigned long long)lcut_lines(c), want, (unsigned long long)lines);
        lcut_free(c);
        dynbuf_free(&m.b);
    }
}

static void cut_lines(void **st)
{
    (void)st;
    expect_cut("", 5, "", 0);
    expect_cut("12345\n1234\n12345", 5, "12345\n1234\n12345", 0);
    expect_cut("12345\n123456\n", 5, "12345\n12345\n", 1);
    expect_cut("123456", 5, "12345", 1);                    /* the last line, no LF */
    expect_cut("123456789\n", 5, "12345\n", 1);             /* the first line */
    expect_cut("1\n123456789\n1\n", 5, "1\n12345\n1\n", 1);
    expect_cut("abcdefgh\n\nijklmnopq\nr\n", 3, "abc\n\nijk\nr\n", 2);
    expect_cut("\n\n\n\n\n\n\n\n", 1, "\n\n\n\n\n\n\n\n", 0);
    expect_cut("xy\nxyz\n", 1, "x\nx\n", 2);
}

static void cut_where(void **st)
{
    (void)st;
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct lcut *c = lcut_new(&s, 5);
    assert_int_equal(lcut_write(c, "ab\ncdefgh", 9), ST_OK);
    assert_int_equal(lcut_line_at(c), 3);
    assert_int_equal(lcut_write(c, "ij\nk", 4), ST_OK);
    assert_int_equal(lcut_line_at(c), 12);
    lcut_begin(c);      /* a new part: "k" did not end, yet a line starts */
    assert_int_equal(lcut_write(c, "12345", 5), ST_OK);
    assert_int_equal(lcut_lines(c), 1);
    assert_int_equal(lcut_line_at(c), 13);
    lcut_free(c);
    dynbuf_add(&m.b, "", 1);
    assert_string_equal(m.b.data, "ab\ncdefg\nk12345");
    dynbuf_free(&m.b);
    char msg[200];
    lcut_message(msg, sizeof(msg), 1);
    assert_non_null(strstr(msg, "1 line longer than 64 MB was cut to its first 64 MB"));
    lcut_message(msg, sizeof(msg), 3);
    assert_non_null(strstr(msg, "3 lines longer than 64 MB were cut to their first 64 MB"));
}

/* What comes out, measured rather than kept: 64 MB lines. */
struct linestat {
    uint64_t bytes, cur, longest, lines;
    char last[8];
};

static enum st_err ls_write(void *ctx, const void *p, size_t n)
{
    struct linestat *st = ctx;
    const char *b = p, *end = b + n, *nl;
    while ((nl = memchr(b, '\n', (size_t)(end - b)))) {
        st->cur += (uint64_t)(nl - b);
        st->longest = st->cur > st->longest ? st->cur : st->longest;
        st->lines++;
        st->cur = 0;
        b = nl + 1;
    }
    st->cur += (uint64_t)(end - b);
    st->longest = st->cur > st->longest ? st->cur : st->longest;
    st->bytes += n;
    size_t k = n < 7 ? n : 7;
    memcpy(st->last, (const char *)p + n - k, k);
    st->last[k] = 0;
    return ST_OK;
}

/* The default bound: a line of LCUT_MAX passes whole, a longer one keeps
 * LCUT_MAX bytes and its LF; the lines around it are untouched, in
 * megabyte writes and in odd ones. */
static void default_bound(void **st)
{
    (void)st;
    static const size_t sizes[] = {1u << 20, 4093};
    char *buf = malloc(1u << 20);
    assert_non_null(buf);
    memset(buf, 'x', 1u << 20);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
        struct linestat ls = {0};
        struct text_sink s = {ls_write, NULL, NULL, &ls};
        struct lcut *c = lcut_new(&s, 0);
        assert_int_equal(lcut_write(c, "a-1 [000] 1.0: x\n", 17), ST_OK);
        for (uint64_t done = 0; done < LCUT_MAX;) {
            size_t n = LCUT_MAX - done < sizes[k] ? (size_t)(LCUT_MAX - done) : sizes[k];
            assert_int_equal(lcut_write(c, buf, n), ST_OK);
            done += n;
        }
        assert_int_equal(lcut_write(c, "\n", 1), ST_OK);
        assert_int_equal(lcut_lines(c), 0);     /* 64 MB exactly: a line */
        uint64_t over = LCUT_MAX + 300000;
        for (uint64_t done = 0; done < over;) {
            size_t n = over - done < sizes[k] ? (size_t)(over - done) : sizes[k];
            assert_int_equal(lcut_write(c, buf, n), ST_OK);
            done += n;
        }
        assert_int_equal(lcut_write(c, "\nb\n", 3), ST_OK);
        assert_int_equal(lcut_lines(c), 1);
        assert_int_equal(ls.lines, 4);
        assert_int_equal(ls.longest, LCUT_MAX);
        assert_int_equal(ls.bytes, 17 + 2 * (LCUT_MAX + 1) + 2);
        assert_string_equal(ls.last, "\nb\n");
        lcut_free(c);
    }
    free(buf);
}

/* The circular-buffer cut rewrites the part's tail through the stage:
 * the offsets it takes (tell) are the output's, after a header line was
 * cut. */
static void repair_through(void **st)
{
    (void)st;
    static const char in[] =
        "# tracer: nop\n"
        "# this header comment is longer than the bound of forty-four bytes\n"
        "#  TASK-PID  CPU#  TIMESTAMP  FUNCTION\n"
        "  a-1 [000] 1.0: tracing_mark_write: B|1|x\n"
        "##### CPU 1 buffer started ####\n"
        "  b-2 [001] 2.0: sched_switch: x\n";
    static const char want[] =
        "# tracer: nop\n"
        "# this header comment is longer than the bou\n"
        "#  TASK-PID  CPU#  TIMESTAMP  FUNCTION\n"
        "##### CPU 1 buffer started ####\n"
        "  b-2 [001] 2.0: sched_switch: x\n";
    struct memsink m;
    struct text_sink s, cs;
    ms_init(&m, &s);
    struct lcut *c = lcut_new(&s, 44);
    lcut_sink(c, &cs);
    struct repair_opts o = {.circular = 1};
    struct repair *r = repair_new(&o, &cs);
    assert_int_equal(repair_feed(r, in, sizeof(in) - 1), ST_OK);
    assert_int_equal(repair_finish(r), ST_OK);
    assert_int_equal(lcut_lines(c), 1);
    dynbuf_add(&m.b, "", 1);
    assert_string_equal(m.b.data, want);
    repair_free(r);
    lcut_free(c);
    dynbuf_free(&m.b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cut_lines),
        cmocka_unit_test(cut_where),
        cmocka_unit_test(default_bound),
        cmocka_unit_test(repair_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
