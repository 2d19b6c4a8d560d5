/*
 * The pure pieces of an Android --stream capture (formats/atrace/
 * streamtext.h): the pid line at the head of the stream (every split, CR
 * LF, garbage), joining --async_dump outputs (the first header kept,
 * later ones dropped, buffer-started lines kept, a missing last LF added,
 * the kernel's overwritten events summed from entries-in-buffer/
 * entries-written, long lines either way), and counting what is spooled
 * (events, LOST lines summed and turned into comments), at every chunk
 * size.
 */
#include "testutil.h"

#include "formats/atrace/streamtext.h"

static void test_head(void **state)
{
    (void)state;
    static const char s[] = "12345\nsurfaceflinger-500 ...";
    for (size_t split = 1; split < sizeof(s) - 1; split++) {
        struct stext_head h = {0};
        size_t used = 0, total = 0;
        long pid = 0;
        int r = stext_head_feed(&h, s, split, &used, &pid);
        total += used;
        if (!r) {
            assert_int_equal(used, split);
            r = stext_head_feed(&h, s + split, sizeof(s) - 1 - split, &used, &pid);
            total += used;
        }
        assert_int_equal(r, 1);
        assert_int_equal(pid, 12345);
        assert_int_equal(total, 6);     /* the trace starts right after the LF */
    }
    struct stext_head h = {0};
    size_t used;
    long pid = 0;
    assert_int_equal(stext_head_feed(&h, "77\r\n", 4, &used, &pid), 1);   /* PTY */
    assert_int_equal(pid, 77);
    static const char *const bad[] = {"abc\n", "\n", "0\n", "12 34\n",
                                      "1234567890123456789012345678\n", "-5\n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct stext_head b = {0};
        assert_int_equal(stext_head_feed(&b, bad[i], strlen(bad[i]), &used, &pid), -1);
    }
}

static void test_entries(void **state)
{
    (void)state;
    uint64_t a, b;
    static const char l[] = "# entries-in-buffer/entries-written: 1200/1350   #P:4";
    assert_int_equal(stext_entries(l, strlen(l), &a, &b), 1);
    assert_int_equal(a, 1200);
    assert_int_equal(b, 1350);
    assert_int_equal(stext_entries(l, 40, &a, &b), 0);      /* cut before B */
    assert_int_equal(stext_entries("# tracer: nop", 13, &a, &b), 0);
    static const char x[] = "# entries-in-buffer/entries-written: x/3";
    assert_int_equal(stext_entries(x, strlen(x), &a, &b), 0);
}

#define H1 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 10/15   #P:4\n" \
           "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
#define E1 "  a-1 (1) [000] d..2 1.000001: sched_switch: x\n" \
           "  a-1 (1) [001] d..2 1.000002: sched_switch: y\n"
#define H2 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 3/3   #P:4\n"
#define B2 "##### CPU 1 buffer started ####\n"
#define E2 "  b-2 (2) [001] d..2 2.000001: sched_switch: z"

static void join(const char *const *dumps, size_t n, size_t chunk, struct memsink *m,
                 uint64_t *lost)
{
    struct djoin *d = djoin_new(ms_write, m);
    assert_non_null(d);
    for (size_t i = 0; i < n; i++) {
        djoin_next(d);
        size_t len = strlen(dumps[i]);
        for (size_t off = 0; off < len; off += chunk) {
            size_t k = len - off < chunk ? len - off : chunk;
            assert_int_equal(djoin_write(d, dumps[i] + off, k), ST_OK);
        }
        assert_int_equal(djoin_end(d), ST_OK);
    }
    assert_int_equal(djoin_dumps(d), n);
    *lost = djoin_lost(d);
    djoin_free(d);
}

static void test_join(void **state)
{
    (void)state;
    static const char *const dumps[] = {H1 E1, H2 B2 E2, H2};
    static const char want[] = H1 E1 B2 E2 "\n";
    for (size_t chunk = 1; chunk < 200; chunk += chunk < 8 ? 1 : 13) {
        struct memsink m;
        dynbuf_init(&m.b, 1 << 20);
        uint64_t lost = 0;
        join(dumps, 3, chunk, &m, &lost);
        assert_string_equal(dynbuf_str(&m.b), want);
        assert_int_equal(lost, 5);
        dynbuf_free(&m.b);
    }
}

/* Header lines longer than the carry: a later dump's is still dropped, an
 * event line in header position still passes whole. */
static void test_join_long(void **state)
{
    (void)state;
    size_t big = 3 * STEXT_LINE_MAX;
    char *hdr = malloc(big + 2), *ev = malloc(big + 2);
    memset(hdr, 'h', big);
    hdr[0] = '#';
    hdr[big] = '\n';
    hdr[big + 1] = '\0';
    memset(ev, 'e', big);
    ev[big] = '\n';
    ev[big + 1] = '\0';
    struct dynbuf d2, want;
    dynbuf_init(&d2, 1 << 20);
    dynbuf_init(&want, 1 << 20);
    dynbuf_addstr(&d2, "# tracer: nop\n");
    dynbuf_addstr(&d2, hdr);
    dynbuf_addstr(&d2, ev);
    dynbuf_addstr(&want, H1 E1);
    dynbuf_addstr(&want, ev);
    const char *dumps[] = {H1 E1, dynbuf_str(&d2)};
    for (size_t chunk = 1; chunk < 2000; chunk += 97) {
        struct memsink m;
        dynbuf_init(&m.b, 1 << 20);
        uint64_t lost;
        join(dumps, 2, chunk, &m, &lost);
        assert_int_equal(m.b.len, want.len);
        assert_memory_equal(m.b.data, want.data, want.len);
        dynbuf_free(&m.b);
    }
    /* the first dump keeps even a long header line */
    const char *first[] = {hdr};
    struct memsink m;
    dynbuf_init(&m.b, 1 << 20);
    uint64_t lost;
    join(first, 1, 100, &m, &lost);
    assert_string_equal(dynbuf_str(&m.b), hdr);
    dynbuf_free(&m.b);
    dynbuf_free(&d2);
    dynbuf_free(&want);
    free(hdr);
    free(ev);
}

static void test_lost_line(void **state)
{
    (void)state;
    assert_int_equal(stext_lost("CPU:3 [LOST 1234 EVENTS]", 24), 1234);
    assert_int_equal(stext_lost("CPU:0 [LOST EVENTS]", 19), 0);
    assert_int_equal(stext_lost("CPU:0 [LOST 12", 14), -1);
    assert_int_equal(stext_lost("CPU: [LOST 1 EVENTS]", 20), -1);
    assert_int_equal(stext_lost("  a-1 (1) [000] d..2 1.0: x", 27), -1);
    assert_int_equal(stext_lost("CPU:1 [LOST 99999999999999999999999 EVENTS]", 43), -1);
}

static void test_slines(void **state)
{
    (void)state;
    static const char in[] =
        "CPU:2 [LOST 7 EVENTS]\n"
        "  a-1 (1) [000] d..2 1.000001: sched_switch: x\n"
        "# a comment\n"
        "\n"
        "CPU:0 [LOST EVENTS]\n"
        "  b-2 (2) [001] d..2 2.000001: tracing_mark_write: B|2|"
        "a name long enough to run past the head of the line, and then some more\n"
        "CPU:1 [LOST 100 EVENTS]\n"
        "  c-3 (3) [002] d..2 3.000001: sched_switch: z";
    static const char want[] =
        "# CPU:2 [LOST 7 EVENTS]\n"
        "  a-1 (1) [000] d..2 1.000001: sched_switch: x\n"
        "# a comment\n"
        "\n"
        "# CPU:0 [LOST EVENTS]\n"
        "  b-2 (2) [001] d..2 2.000001: tracing_mark_write: B|2|"
        "a name long enough to run past the head of the line, and then some more\n"
        "# CPU:1 [LOST 100 EVENTS]\n"
        "  c-3 (3) [002] d..2 3.000001: sched_switch: z";
    for (size_t chunk = 1; chunk < sizeof(in); chunk++) {
        struct memsink m;
        dynbuf_init(&m.b, 1 << 20);
        struct slines *l = slines_new(ms_write, &m);
        size_t len = sizeof(in) - 1;
        for (size_t off = 0; off < len; off += chunk)
            assert_int_equal(slines_write(l, in + off, len - off < chunk ? len - off : chunk),
                             ST_OK);
        assert_int_equal(slines_finish(l), ST_OK);
        assert_string_equal(dynbuf_str(&m.b), want);
        assert_int_equal(slines_events(l), 3);
        assert_int_equal(slines_lost(l), 107);
        assert_int_equal(slines_lost_lines(l), 3);
        slines_free(l);
        dynbuf_free(&m.b);
    }
}

static void test_header_text(void **state)
{
    (void)state;
    assert_memory_equal(stext_header, "# tracer: nop\n", 14);
    assert_non_null(strstr(stext_header, "TASK-PID    TGID   CPU#"));
    assert_int_equal(stext_header[strlen(stext_header) - 1], '\n');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_head),
        cmocka_unit_test(test_entries),
        cmocka_unit_test(test_join),
        cmocka_unit_test(test_join_long),
        cmocka_unit_test(test_header_text),
        cmocka_unit_test(test_lost_line),
        cmocka_unit_test(test_slines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
