/* Unit tests for pieces (formats/piece/): the cutter of pages (pcut.c,
 * pcutj.c) on ftrace text and trace-event JSON, at any chunking: lines
 * and events kept by time and process, slices open at the window's start
 * begun again as cut, open ones ended at its end, counters set again,
 * other processes' CPU time as "other", the clock sync kept; and the
 * ftrace line reader (pline.c) on the line forms atrace writes. */
#include "testutil.h"

#include "formats/piece/pcut.h"
#include "formats/piece/pline.h"

static const size_t chunks[] = {1, 2, 3, 7, 64, 1 << 20};

#define S(x) ((int64_t)(x) * 1000000000)
#define HDR "# tracer: nop\n#\n"
#define L(who, ts, body) "    " who " [000] ...1 " ts ": " body "\n"

static enum st_err to_buf(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

/* part's payload cut by w, fed in each chunk size: the same every time */
static void expect(const struct piece_window *w, const char *part, const char *in,
                   const char *want, uint64_t kept)
{
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        struct dynbuf b;
        dynbuf_init(&b, 1 << 20);
        struct pcut *c = pcut_new(w, to_buf, &b);
        assert_non_null(c);
        assert_int_equal(pcut_begin(c, part), 1);
        size_t n = strlen(in);
        for (size_t off = 0; off < n; off += chunks[i])
            assert_int_equal(pcut_write(c, in + off, n - off < chunks[i] ? n - off : chunks[i]),
                             ST_OK);
        assert_int_equal(pcut_end(c), ST_OK);
        dynbuf_addc(&b, 0);
        if (strcmp(b.data, want) || pcut_kept(c) != kept)
            fail_msg("chunk %zu: got (%llu kept)\n%s\nwant (%llu)\n%s", chunks[i],
                     (unsigned long long)pcut_kept(c), b.data, (unsigned long long)kept, want);
        pcut_free(c);
        dynbuf_free(&b);
    }
}

static struct piece_window window(int64_t lo, int64_t hi)
{
    struct piece_window w;
    memset(&w, 0, sizeof(w));
    w.lo = lo;
    w.hi = hi;
    w.all = 1;
    return w;
}

static void text_range(void **st)
{
    (void)st;
    struct piece_window w = window(S(10), S(20));
    expect(&w, "systemTraceEvents",
           HDR
           L("app-7 (    7)", "1.000000", "tracing_mark_write: trace_event_clock_sync: parent_ts=1.0")
           L("app-7 (    7)", "5.000000", "tracing_mark_write: B|7|outer")
           L("app-7 (    7)", "6.000000", "tracing_mark_write: B|7|done")
           L("app-7 (    7)", "7.000000", "tracing_mark_write: E|7")
           L("app-7 (    7)", "8.000000", "tracing_mark_write: C|7|q|3")
           L("app-7 (    7)", "9.000000", "tracing_mark_write: C|7|q|4")
           L("app-7 (    7)", "9.500000", "tracing_mark_write: S|7|load|42")
           L("app-7 (    7)", "11.000000", "tracing_mark_write: B|7|inner")
           L("app-7 (    7)", "12.000000", "tracing_mark_write: E|7")
           L("app-7 (    7)", "13.000000", "tracing_mark_write: B|7|late")
           L("app-7 (    7)", "25.000000", "tracing_mark_write: E|7")
           L("app-7 (    7)", "26.000000", "tracing_mark_write: E|7"),
           HDR
           L("app-7 (    7)", "1.000000", "tracing_mark_write: trace_event_clock_sync: parent_ts=1.0")
           L("app-7 (    7)", "10.000000", "tracing_mark_write: C|7|q|4")
           L("app-7 (    7)", "10.000000", "tracing_mark_write: S|7|load|42")
           L("app-7 (    7)", "10.000000", "tracing_mark_write: B|7|outer (cut)")
           L("app-7 (    7)", "11.000000", "tracing_mark_write: B|7|inner")
           L("app-7 (    7)", "12.000000", "tracing_mark_write: E|7")
           L("app-7 (    7)", "13.000000", "tracing_mark_write: B|7|late")
           L("app-7 (    7)", "20.000000", "tracing_mark_write: E|7")
           L("app-7 (    7)", "20.000000", "tracing_mark_write: E|7")
           L("app-7 (    7)", "20.000000", "tracing_mark_write: F|7|load|42"), 3);
}

static void text_process(void **st)
{
    (void)st;
    struct imap tg;
    imap_init(&tg, 64);
    imap_put(&tg, 8, 7);        /* thread 8 is app's (7), 9 another's */
    imap_put(&tg, 9, 9);
    struct piece_window w = window(INT64_MIN, INT64_MAX);
    w.all = 0;
    w.pids[w.npids++] = 7;
    w.tgid = &tg;
    expect(&w, "systemTraceEvents",
           L("app-8 (    7)", "1.000000", "sched_switch: prev_comm=app prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=db next_pid=9 next_prio=120")
           L("db-9 (    9)", "2.000000", "sched_switch: prev_comm=db prev_pid=9 prev_prio=120 prev_state=S ==> next_comm=srv pid=10 next_pid=10 next_prio=120")
           L("db-9 (    9)", "3.000000", "sched_wakeup: comm=app pid=8 prio=120 target_cpu=000")
           L("db-9 (    9)", "3.500000", "sched_wakeup: comm=db pid=9 prio=120 target_cpu=000")
           L("db-9 (    9)", "4.000000", "tracing_mark_write: B|9|db work")
           L("db-9 (    9)", "4.500000", "cpu_frequency: state=300000 cpu_id=0")
           L("<idle>-0 (-----)", "5.000000", "cpu_idle: state=1 cpu_id=0")
           "   a line of noise\n",
           L("app-8 (    7)", "1.000000", "sched_switch: prev_comm=app prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=other next_pid=4194304 next_prio=120")
           "           other-4194304 (4194304) [000] ...1 3.000000: sched_wakeup: comm=app pid=8 prio=120 target_cpu=000\n"
           "           other-4194304 (4194304) [000] ...1 4.500000: cpu_frequency: state=300000 cpu_id=0\n"
           L("<idle>-0 (-----)", "5.000000", "cpu_idle: state=1 cpu_id=0")
           "   a line of noise\n", 4);
    imap_free(&tg);
}

static void json_range(void **st)
{
    (void)st;
    struct piece_window w = window(S(10), S(20));
    expect(&w, "traceEvents",
           "{\"traceEvents\": [\n"
           "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"p\"}},\n"
           "{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":2,\"ts\":5000000},\n"
           "{\"ph\":\"X\",\"name\":\"x\",\"pid\":1,\"tid\":3,\"ts\":9000000,\"dur\":2000000},\n"
           "{\"ph\":\"X\",\"name\":\"y\",\"pid\":1,\"tid\":3,\"ts\":19000000,\"dur\":2000000},\n"
           "{\"ph\":\"X\",\"name\":\"gone\",\"pid\":1,\"tid\":3,\"ts\":1000000,\"dur\":5},\n"
           "{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"ts\":8000000,\"args\":{\"v\":1}},\n"
           "{\"ph\":\"i\",\"name\":\"now\",\"pid\":1,\"tid\":2,\"ts\":15000000},\n"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":30000000}\n"
           "], \"displayTimeUnit\": \"ns\"}",
           "{\"traceEvents\": ["
           "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"p\"}},\n"
           "{\"ph\":\"X\",\"name\":\"x (cut)\",\"pid\":1,\"tid\":3,\"ts\":10000000,\"dur\":1000000},\n"
           "{\"ph\":\"X\",\"name\":\"y\",\"pid\":1,\"tid\":3,\"ts\":19000000,\"dur\":1000000},\n"
           "{\"ph\":\"B\",\"name\":\"open (cut)\",\"pid\":1,\"tid\":2,\"ts\":10000000},\n"
           "{\"ph\":\"i\",\"name\":\"now\",\"pid\":1,\"tid\":2,\"ts\":15000000},\n"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":20000000},\n"
           "{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"ts\":10000000,\"args\":{\"v\":1}}"
           "], \"displayTimeUnit\": \"ns\"}", 3);
}

static void line_forms(void **st)
{
    (void)st;
    struct pline l;
    const char *a = "  Binder:12_3-45   ( 12) [003] d..3 123.456789: sched_waking: comm=x pid=1";
    assert_int_equal(pline_parse(a, strlen(a), &l), 0);
    assert_int_equal(l.tid, 45);
    assert_int_equal(l.tgid, 12);
    assert_int_equal(l.ts_ns, 123456789000LL);
    assert_true(pline_is(&l, "sched_waking"));
    assert_int_equal(l.task_len, 11);
    const char *b = "GL updater-1-77 [000] 5.5: tracing_mark_write: E|1";     /* no flags, tgid */
    assert_int_equal(pline_parse(b, strlen(b), &l), 0);
    assert_int_equal(l.tid, 77);
    assert_int_equal(l.tgid, -1);
    assert_int_equal(l.ts_ns, 5500000000LL);
    const char *c = "<...>-9 (-----) [001] .... 1.000000001: print: x";
    assert_int_equal(pline_parse(c, strlen(c), &l), 0);
    assert_int_equal(l.tgid, -1);
    assert_int_equal(l.tgid_col, 1);
    assert_int_equal(l.ts_ns, 1000000001LL);
    /* the kernel's layout is read in one go; lines near it the general way
     * give the same answer: a '[' in the task, flags that look like a time,
     * nine decimals, a CR LF end */
    const char *d = "  a[012] b-33 (   12) [002] d..3   99.000001: sched_switch: x\r\n";
    assert_int_equal(pline_parse(d, strlen(d), &l), 0);
    assert_int_equal(l.tid, 33);
    assert_int_equal(l.task_len, 8);
    assert_int_equal(l.cpu_off, 22);
    assert_int_equal(l.ts_ns, 99000001000LL);
    assert_int_equal(l.body_len, 1);
    const char *e = "x-5 (5) [001] 1.2: 7.000000: ev: b";  /* the first time is the time */
    assert_int_equal(pline_parse(e, strlen(e), &l), 0);
    assert_int_equal(l.ts_ns, 1200000000LL);
    assert_true(pline_is(&l, "7.000000"));
    const char *f = "x-5 (5) [001] d..1 1.123456789: ev: b";
    assert_int_equal(pline_parse(f, strlen(f), &l), 0);
    assert_int_equal(l.ts_ns, 1123456789LL);
    struct pline g;
    assert_int_equal(pline_glance(f, strlen(f), &g), 0);
    assert_int_equal(g.ts_ns, 1123456789LL);
    assert_memory_equal(g.event, "ev: b", 5);
    assert_int_equal(pline_parse_rest(f, strlen(f), &g), 0);
    assert_int_equal(g.tid, 5);
    assert_int_equal(g.body_len, 1);
    assert_int_equal(pline_glance(b, strlen(b), &g), -1);     /* not that layout */
    assert_int_equal(pline_glance("# x-1 (1) [001] d..1 1.000000: e: b", 35, &g), -1);
    /* seven digits on both sides, the ':' the last byte: read, nothing past it */
    char *edge = malloc(35);     /* exactly: a read past it is ASan's */
    memcpy(edge, "x-5 (5) [001] d..1 1234567.1234567:", 35);
    assert_int_equal(pline_glance(edge, 35, &g), -1);
    free(edge);
    /* seconds with no room in ns: not a time (read the long way, refused) */
    const char *huge = "x-5 (5) [001] d..1 555555555552.000001: ev: b";
    assert_int_equal(pline_parse(huge, strlen(huge), &l), -1);
    /* a glance reads the event as a full reading does: no event, no line */
    const char *noev = " app-7 (    7) [000] d..1 50.1000: p-7 k_write: E|3\n";
    assert_int_equal(pline_glance(noev, strlen(noev), &g), -1);
    assert_int_equal(pline_parse(noev, strlen(noev), &l), -1);
    const char *two = " app-7 (    7) [000] d..1 50.100000:  tracing_mark_write: E|3\n";
    assert_int_equal(pline_glance(two, strlen(two), &g), 0);
    assert_true(pline_is(&g, "tracing_mark_write"));
    /* times read eight bytes at a time agree with the long way */
    static const char *const times[] = {"0.000000", "1.5", "7.1234567", "12345678.000001",
                                        "9999999.999999", "1234567.12345678", "42.000000001"};
    for (size_t i = 0; i < sizeof(times) / sizeof(*times); i++) {
        char line[128];
        int64_t want;
        int k = snprintf(line, sizeof(line), "   x-5 (    5) [001] d..1 %s: ev: body of it\n",
                         times[i]);
        assert_int_equal(pline_secs_ns(times[i], strlen(times[i]), &want), 0);
        assert_int_equal(pline_glance(line, (size_t)k, &g), 0);
        assert_true(g.ts_ns == want);
        assert_int_equal(pline_parse(line, (size_t)k, &l), 0);
        assert_true(l.ts_ns == want);
    }
    const char *bad[] = {"# tracer: nop", "", "  ", "x-1 [a] 1.0: e: b", "x [001] 1.0: e: b",
                         "x-1 [001] 1.0 e: b", "x-1 [001] ...1 e: b",
                         "# x-1 (1) [001] d..1 1.000000: e: b", "x-1 (1) [001] d..1 1.000000:"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
        assert_int_equal(pline_parse(bad[i], strlen(bad[i]), &l), -1);
    struct pmark m;
    assert_int_equal(pmark_parse("C|7|a|b|12", 10, &m), 0);
    assert_int_equal(m.kind, 'C');
    assert_int_equal(m.name_len, 3);        /* "a|b": the value is the last field */
    assert_int_equal(m.last_len, 2);
    assert_int_equal(pmark_parse("E", 1, &m), 0);
    assert_int_equal(pmark_parse("X|1|y", 5, &m), -1);
    int64_t ns;
    assert_int_equal(pline_us_ns("1.5", 3, &ns), 0);
    assert_int_equal(ns, 1500);
    assert_int_equal(pline_us_ns("12", 2, &ns), 0);
    assert_int_equal(ns, 12000);
    assert_int_equal(pline_us_ns("1x", 2, &ns), -1);
    /* times past int64 ns are no times (found by fuzz/pcut) */
    assert_int_equal(pline_us_ns("42222222222222222", 17, &ns), -1);
    assert_int_equal(pline_secs_ns("99999999999.5", 13, &ns), -1);
    assert_int_equal(pline_secs_ns("9000000000.5", 12, &ns), 0);
    assert_int_equal(ns, 9000000000500000000LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_range),
        cmocka_unit_test(text_process),
        cmocka_unit_test(json_range),
        cmocka_unit_test(line_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
