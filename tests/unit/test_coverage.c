/* Unit tests for the time a trace covers (formats/atrace/coverage.c): the
 * ftrace timestamp of a line (task names with colons, tgid columns, the
 * old format without them, anything else), the first and last kept event
 * as the repair stage's circular cut keeps them (fed through the real
 * repair in every chunk size), and the "clearly less" rule with the -b
 * that would have held the time. */
#include "testutil.h"

#include "formats/atrace/coverage.h"
#include "formats/atrace/repair.h"

static void line_timestamps(void **st)
{
    (void)st;
    static const struct {
        const char *line;
        int ok;
        uint64_t ns;
    } cases[] = {
        {"  <idle>-0     (-----) [000] d..3  5660.760835: sched_waking: comm=x", 1,
         5660760835000ull},
        {"kworker/0:1-44 ( 44) [001] ...1 12.5: workqueue_execute_start: w", 1,
         12500000000ull},
        {"Binder:12_3-99 [002] .... 0.000001: binder_transaction: x", 1, 1000},
        {"  app-1 ( 1) [000] ...1 7.123456789: tracing_mark_write: B|1|a: 1.5: z", 1,
         7123456789ull},
        {"sh-1 [000] 3.25:", 1, 3250000000ull},
        {"a-1 [000] d..1 1700000000.000001: x: y", 1, 1700000000000001000ull},
        {"# tracer: nop", 0, 0},
        {"", 0, 0},
        {"no timestamp: here", 0, 0},
        {"a-1 [000] 12:34: x", 0, 0},
        {"a-1 [000] 1.2.3: x", 0, 0},
        {"a-1 [000] .5: x", 0, 0},
        {"a-1 [000] 5.: x", 0, 0},
        {"a-1 [000] 1.1234567890: x", 0, 0},
        {"a-1 [000]1.5: x", 0, 0},
        {"a-1 [000] 1234567890123.5: x", 0, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        uint64_t ns = 0;
        int r = coverage_line_ts(cases[i].line, strlen(cases[i].line), &ns);
        if ((r == 0) != cases[i].ok || (cases[i].ok && ns != cases[i].ns))
            fail_msg("case %zu '%s': r %d ns %llu", i, cases[i].line, r,
                     (unsigned long long)ns);
    }
}

#define HDR "# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"

/* Through the repair with the cut on, in chunks of every size. */
static void through_repair(const char *text, int want_have, double want_s, int want_cut)
{
    for (size_t chunk = 1; chunk <= strlen(text); chunk = chunk * 3 + 1) {
        struct memsink m;
        struct text_sink s;
        ms_init(&m, &s);
        struct repair_opts o = {.circular = 1, .coverage = 1};
        struct repair *r = repair_new(&o, &s);
        for (size_t off = 0; off < strlen(text); off += chunk) {
            size_t k = strlen(text) - off < chunk ? strlen(text) - off : chunk;
            assert_int_equal(repair_feed(r, text + off, k), ST_OK);
        }
        assert_int_equal(repair_finish(r), ST_OK);
        const struct coverage *cv = repair_coverage(r);
        assert_int_equal(cv->have, want_have);
        assert_int_equal(cv->cut, want_cut);
        double got = coverage_seconds(cv);
        if (got < want_s - 1e-9 || got > want_s + 1e-9)
            fail_msg("chunk %zu: %.9f s, want %.9f", chunk, got, want_s);
        repair_free(r);
        dynbuf_free(&m.b);
    }
}

static void kept_span(void **st)
{
    (void)st;
    /* CPUs interleave: the earliest and latest event count */
    through_repair(HDR
                   "  a-1 [001] ...1 10.000100: x: 1\n"
                   "  a-1 [000] ...1 10.000050: x: 2\n"
                   "  a-1 [002] ...1 12.500000: x: 3\n", 1, 2.49995, 0);
    /* the cut keeps what follows the last buffer-started line */
    through_repair(HDR
                   "  a-1 [000] ...1 1.0: x: lost\n"
                   "##### CPU 2 buffer started ####\n"
                   "  a-1 [002] ...1 2.0: x: lost\n"
                   "##### CPU 1 buffer started ####\n"
                   "  a-1 [001] ...1 2.75: x: kept\n"
                   "  a-1 [001] ...1 3.0: x: kept\n", 1, 0.25, 1);
    /* a marker before any event (in the header) changes nothing */
    through_repair("# tracer: nop\n##### CPU 1 buffer started ####\n"
                   "  a-1 [001] ...1 4.0: x: 1\n  a-1 [001] ...1 5.0: x: 1", 1, 1.0, 0);
    through_repair(HDR "no events here\n", 0, 0, 0);
}

static void short_rule(void **st)
{
    (void)st;
    int kb = 0;
    /* -b 16 -t 3 keeping 120 ms: 16 * 25 * 1.25 = 500 -> 512 */
    assert_true(coverage_short(0.12, 3.0, 16, &kb));
    assert_int_equal(kb, 512);
    /* a circular cut keeping 70 %: at least twice the buffer */
    assert_true(coverage_short(1.4, 2.0, 4096, &kb));
    assert_int_equal(kb, 8192);
    assert_true(coverage_short(2.0, 10.0, 4096, &kb));
    assert_int_equal(kb, 32768);
    /* nothing kept at all: the largest */
    assert_true(coverage_short(0, 2.0, 2048, &kb));
    assert_int_equal(kb, COVERAGE_SUGGEST_MAX);
    assert_true(coverage_short(0.001, 100.0, 65536, &kb));
    assert_int_equal(kb, COVERAGE_SUGGEST_MAX);
    /* close enough, too short a capture to judge, or nonsense */
    assert_false(coverage_short(2.5, 3.0, 16, &kb));
    assert_false(coverage_short(0.2, 0.6, 16, &kb));
    assert_false(coverage_short(0.12, 0, 16, &kb));
    assert_false(coverage_short(0.12, 3.0, 0, &kb));
    assert_false(coverage_short(-1, 3.0, 16, &kb));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_timestamps),
        cmocka_unit_test(kept_span),
        cmocka_unit_test(short_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
