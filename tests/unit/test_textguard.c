/* Unit tests for the text guard of --from-file (formats/atrace/textguard.c):
 * which lines count as ftrace events, the first other line kept for the
 * message, over-long lines cut (or, before any event line, refused) across
 * writes and within one big write, and that text passes through
 * unchanged, in several chunk sizes. */
#include "testutil.h"

#include "formats/atrace/textguard.h"

static const size_t chunks[] = {1, 3, 17, 4096};

struct run {
    enum st_err e;
    int events;
    char other[TGUARD_SHOW + 1];
    char detail[200];
    int same;           /* the output equals the input */
};

static void guard(const char *in, size_t n, size_t chunk, uint64_t max, int look,
                  struct run *r)
{
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct tguard *g = tguard_new(&s, max);
    tguard_begin(g, look);
    r->e = ST_OK;
    for (size_t off = 0; off < n && !r->e; off += chunk)
        r->e = tguard_write(g, in + off, n - off < chunk ? n - off : chunk);
    tguard_end(g);
    r->events = tguard_events(g);
    snprintf(r->other, sizeof(r->other), "%s", tguard_other_line(g));
    snprintf(r->detail, sizeof(r->detail), "%s", tguard_detail(g));
    r->same = m.b.len == n && (!n || !memcmp(m.b.data, in, n));
    tguard_free(g);
    dynbuf_free(&m.b);
}

static void expect_events(const char *in, int want, const char *other)
{
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        struct run r;
        guard(in, strlen(in), chunks[i], 0, 1, &r);
        assert_int_equal(r.e, ST_OK);
        assert_true(r.same);
        if (r.events != want || strcmp(r.other, other))
            fail_msg("chunk %zu: %s\nevents %d other \"%s\", want %d \"%s\"", chunks[i], in,
                     r.events, r.other, want, other);
    }
}

static void event_lines(void **st)
{
    (void)st;
    static const char hdr[] = "# tracer: nop\n#\n#   TASK-PID  CPU#  TIMESTAMP  FUNCTION\n";
    expect_events(hdr, 0, "");
    expect_events("", 0, "");
    expect_events("\n\n   \n# x\n", 0, "");
    /* the shapes catapult and Perfetto read: with and without TGID and flags */
    expect_events("  app-1 ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|x\n", 1, "");
    expect_events("<idle>-0 [001] d..3 5.5: sched_switch: prev_comm=a\n", 1, "");
    expect_events("  kworker/0:1-12 [000] 10.000001: cpu_idle: state=1\n", 1, "");
    expect_events("  a b-7 (-----) [002] d..2. 3.25: x: y", 1, "");  /* no LF at the end */
    /* not events */
    expect_events("error: something went wrong\n  a-1 [000] no time here\n", 0,
                  "error: something went wrong");
    expect_events("# tracer: nop\n  \tcapturing\ttrace\x01\n", 0, "capturing?trace?");
    expect_events("x[1] 1.0: y\n", 0, "x[1] 1.0: y");
    /* the first event ends the watch: later lines are not looked at */
    expect_events("junk\n  a-1 [000] 1.0: e: f\nmore junk\n", 1, "junk");
}

static void long_line_kept_short(void **st)
{
    (void)st;
    /* the other line is cut to TGUARD_SHOW bytes */
    char in[300];
    memset(in, 'z', sizeof(in) - 2);
    in[sizeof(in) - 2] = '\n';
    in[sizeof(in) - 1] = '\0';
    struct run r;
    guard(in, strlen(in), 7, 0, 1, &r);
    assert_int_equal(strlen(r.other), TGUARD_SHOW);
}

/* Over-long lines are cut (linecut.h); in trace text before any event
 * line (the cut line's own start judged first) they refuse the input. */
static void cut(const char *in, uint64_t max, int look, enum st_err want, const char *out)
{
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        struct memsink m;
        struct text_sink s;
        ms_init(&m, &s);
        struct tguard *g = tguard_new(&s, max);
        tguard_begin(g, look);
        enum st_err e = ST_OK;
        size_t n = strlen(in);
        for (size_t off = 0; off < n && !e; off += chunks[i])
            e = tguard_write(g, in + off, n - off < chunks[i] ? n - off : chunks[i]);
        tguard_end(g);
        dynbuf_add(&m.b, "", 1);
        if (e != want || (!want && strcmp(m.b.data, out)))
            fail_msg("chunk %zu, max %llu: %s: %s \"%s\", want %s \"%s\"", chunks[i],
                     (unsigned long long)max, in, st_errname(e), m.b.data, st_errname(want),
                     out);
        if (want)
            assert_non_null(strstr(tguard_detail(g), "before any trace event"));
        else
            assert_int_equal(tguard_cut_lines(g), strcmp(in, out) ? 1 : 0);
        tguard_free(g);
        dynbuf_free(&m.b);
    }
}

static void line_cut(void **st)
{
    (void)st;
    cut("12345\n1234\n", 5, 0, ST_OK, "12345\n1234\n");
    cut("12345\n123456\n", 5, 0, ST_OK, "12345\n12345\n");     /* a process dump */
    cut("1\n123456\n1\n", 5, 0, ST_OK, "1\n12345\n1\n");
    cut("123456", 5, 1, ST_ETOOBIG, "");                      /* no event before */
    cut("# x\nyyyyyyyyy\n", 5, 1, ST_ETOOBIG, "");
    /* after an event line, or an event line itself: cut */
    cut("a-1 [0] 1.0: e\nxxxxxxxxxxxxxxxxxxxxxxxx\nb\n", 15, 1, ST_OK,
        "a-1 [0] 1.0: e\nxxxxxxxxxxxxxxx\nb\n");
    cut("a-1 [0] 1.0: tracing_mark_write: B|1|xxxxxxxx\nb\n", 30, 1, ST_OK,
        "a-1 [0] 1.0: tracing_mark_writ\nb\n");
    /* the message says where the line starts */
    struct run r;
    guard("ab\ncdefgh", 9, 4096, 5, 1, &r);
    assert_int_equal(r.e, ST_ETOOBIG);
    assert_non_null(strstr(r.detail, "from byte 3 of it"));
}

/* The default bound in megabyte writes: a line of LCUT_MAX passes, a
 * longer one that is not an event, before any, refuses the text. */
static uint64_t dropped;

static enum st_err drop(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    (void)p;
    dropped += n;
    return ST_OK;
}

static void default_bound(void **st)
{
    (void)st;
    size_t chunk = 1u << 20;
    char *buf = malloc(chunk);
    memset(buf, 'x', chunk);
    struct text_sink s = {drop, NULL, NULL, NULL};
    struct tguard *g = tguard_new(&s, 0);
    tguard_begin(g, 1);
    for (uint64_t k = 0; k < LCUT_MAX / chunk; k++)
        assert_int_equal(tguard_write(g, buf, chunk), ST_OK);
    assert_int_equal(tguard_write(g, "\n", 1), ST_OK);   /* 64 MB exactly: a line */
    for (uint64_t k = 0; k < LCUT_MAX / chunk; k++)
        assert_int_equal(tguard_write(g, buf, chunk), ST_OK);
    assert_int_equal(tguard_write(g, "x", 1), ST_ETOOBIG);
    assert_non_null(strstr(tguard_detail(g), "more than 64 MB"));
    assert_int_equal(tguard_events(g), 0);
    assert_int_equal(dropped, 2 * LCUT_MAX + 1);    /* not a byte past the bound */
    tguard_free(g);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(event_lines), cmocka_unit_test(long_line_kept_short),
        cmocka_unit_test(line_cut), cmocka_unit_test(default_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
