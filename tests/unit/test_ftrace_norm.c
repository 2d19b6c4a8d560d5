/* Unit tests for the host ftrace line normalisation (formats/atrace/ftrace_norm.c):
 * the five-column flags of modern kernels become the four the classic
 * viewer's regex accepts, unknown flag letters are mapped, lost-event
 * lines become comments, function tracer lines get an event name, a TGID
 * column is added from a map; each case fed in several chunk sizes. */
#include "testutil.h"

#include "formats/atrace/ftrace_norm.h"

static enum st_err to_buf(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

static char *norm_all(const struct fnorm_opts *o, const char *in, size_t chunk,
                      struct fnorm_stats *st)
{
    struct dynbuf out;
    dynbuf_init(&out, 1u << 24);
    struct fnorm *f = fnorm_new(o, to_buf, &out);
    size_t n = strlen(in);
    char *copy = malloc(n + 1);
    memcpy(copy, in, n + 1);    /* fnorm edits in place */
    for (size_t off = 0; off < n; off += chunk)
        assert_int_equal(fnorm_feed(f, copy + off, n - off < chunk ? n - off : chunk), ST_OK);
    assert_int_equal(fnorm_finish(f), ST_OK);
    if (st)
        *st = *fnorm_stats(f);
    fnorm_free(f);
    free(copy);
    size_t len;
    return dynbuf_take(&out, &len);
}

static void expect(const struct fnorm_opts *o, const char *in, const char *want)
{
    static const size_t chunks[] = {1, 2, 7, 33, 4096, 1u << 20};
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        char *out = norm_all(o, in, chunks[i], NULL);
        if (strcmp(out, want))
            fail_msg("chunk %zu:\n--- got:\n%s\n--- want:\n%s", chunks[i], out, want);
        free(out);
    }
}

static const struct fnorm_opts flags_only = {.flags = 1};

static void five_columns(void **st)
{
    (void)st;
    /* kernel 6.18 output, as read from tracefs on the test machine */
    expect(&flags_only,
           "            bash-21793   (  21793) [001] d..2.  1223.546459: sched_switch: "
           "prev_comm=bash ==> next_comm=rcu_preempt\n"
           "     rcu_preempt-15      (     15) [001] dNs3.  1223.546466: sched_waking: "
           "comm=x pid=1\n",
           "            bash-21793   (  21793) [001] d..2   1223.546459: sched_switch: "
           "prev_comm=bash ==> next_comm=rcu_preempt\n"
           "     rcu_preempt-15      (     15) [001] dNs3   1223.546466: sched_waking: "
           "comm=x pid=1\n");
}

static void four_columns_untouched(void **st)
{
    (void)st;
    const char *in =
        "# tracer: nop\n"
        "#\n"
        "          <idle>-0     (-----) [000] d..3 12.000001: sched_switch: a\n"
        "\n"
        "  surfaceflinger-500   ( 500) [001] ...1 12.000002: tracing_mark_write: B|500|x\n";
    expect(&flags_only, in, in);
    struct fnorm_stats s;
    free(norm_all(&flags_only, in, 5, &s));
    assert_int_equal(s.events, 2);
    assert_int_equal(s.flags_fixed, 0);
}

static void letters_mapped(void **st)
{
    (void)st;
    /* D: irqs and BH off; B: need-resched + lazy + preempt; Z: NMI in hardirq;
     * b: BH off only; l: lazy; z: NMI */
    expect(&flags_only, "a-1 [000] DBZ1. 1.000000: e: x\n"
                        "a-1 [000] blz.2 1.000001: e: x\n"
                        "a-1 [000] XLh. 1.000002: e: x\n",
           "a-1 [000] dNH1  1.000000: e: x\n"
           "a-1 [000] .nh.  1.000001: e: x\n"
           "a-1 [000] XNh. 1.000002: e: x\n");
}

static void no_flags_column(void **st)
{
    (void)st;
    const char *in = "  bash-5 [000] 1.000000: e: x\n  bash-5 [000]   2.5: e: y\n";
    expect(&flags_only, in, in);
}

static void tricky_task_names(void **st)
{
    (void)st;
    /* a task name holding "[1] " and a dash, and one with spaces */
    expect(&flags_only, " a [1] b-12     (     12) [000] d..2.   5.000000: e: a\n"
                        "   my task [x]-7 [001] .N.1.   6.000000: e: b\n",
           " a [1] b-12     (     12) [000] d..2    5.000000: e: a\n"
           "   my task [x]-7 [001] .N.1    6.000000: e: b\n");
}

static void not_event_lines(void **st)
{
    (void)st;
    const char *in = "#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
                     "garbage [1] d..2. without timestamp\n"
                     "x-1 [1] d..2. 12: no fraction\n"
                     "[000] d..2. 1.0: no task\n";
    /* comments, no timestamp, a bad timestamp, no task: left alone */
    expect(&flags_only, in, in);
}

static void lost_events(void **st)
{
    (void)st;
    const char *in = "a-1 [000] d..2. 1.000000: e: x\n"
                     "CPU:1 [LOST 1234 EVENTS]\n"
                     "a-1 [001] d..2. 1.000001: e: x\n"
                     "CPU:0 [LOST 6 EVENTS]\n";
    expect(&flags_only, in,
           "a-1 [000] d..2  1.000000: e: x\n"
           "# CPU:1 [LOST 1234 EVENTS]\n"
           "a-1 [001] d..2  1.000001: e: x\n"
           "# CPU:0 [LOST 6 EVENTS]\n");
    struct fnorm_stats s;
    free(norm_all(&flags_only, in, 3, &s));
    assert_int_equal(s.lost, 1240);
    assert_int_equal(s.lost_lines, 2);
    assert_int_equal(s.events, 2);
    assert_int_equal(s.flags_fixed, 2);
}

static void function_lines(void **st)
{
    (void)st;
    struct fnorm_opts o = {.flags = 1, .func_events = 1};
    expect(&o,
           "  <idle>-0       [001] d..2.  1234.560000: do_idle <-cpu_startup_entry\n"
           "  bash-9 [000] ...1.  1234.560001: tracing_mark_write: hello\n",
           "  <idle>-0       [001] d..2   1234.560000: function: do_idle <-cpu_startup_entry\n"
           "  bash-9 [000] ...1   1234.560001: tracing_mark_write: hello\n");
}

static void tgid_column(void **st)
{
    (void)st;
    struct tgid_map *m = tgid_map_new();
    static const char listing[] = "/proc/100/task/100 /proc/100/task/101";
    assert_int_equal(tgid_map_parse(m, listing, sizeof(listing) - 1), ST_OK);
    struct fnorm_opts o = {.flags = 1, .tgids = m};
    expect(&o,
           "           bash-101     [000] d..2.  5.000000: e: x\n"
           "         <idle>-0       [001] d..2.  5.000001: e: x\n"
           "          other-999     [001] d..2.  5.000002: e: x\n"
           "           bash-101     (    100) [000] d..2.  5.000003: e: has one\n",
           "           bash-101     (    100) [000] d..2   5.000000: e: x\n"
           "         <idle>-0       (      0) [001] d..2   5.000001: e: x\n"
           "          other-999     (-------) [001] d..2   5.000002: e: x\n"
           "           bash-101     (    100) [000] d..2   5.000003: e: has one\n");
    tgid_map_free(m);
}

/* The clock-sync id counts only on a trace_marker line. */
static void watch_marker(void **st)
{
    (void)st;
    static const size_t chunks[] = {1, 7, 4096};
    struct fnorm_opts o = {.flags = 1, .watch = "name=9a"};
    for (size_t i = 0; i < 3; i++) {
        struct fnorm_stats s;
        free(norm_all(&o, "  a-1 [000] d..2.  1.000000: sched_switch: name=9a\n", chunks[i], &s));
        assert_int_equal(s.watch_seen, 0);
        free(norm_all(&o, "  a-1 [000] d..2.  1.000000: tracing_mark_write: "
                          "trace_event_clock_sync: name=9a\n", chunks[i], &s));
        assert_int_equal(s.watch_seen, 1);
        free(norm_all(&o, "  a-1 [000] d..2.  1.000000: tracing_mark_write: "
                          "trace_event_clock_sync: name=9b\n", chunks[i], &s));
        assert_int_equal(s.watch_seen, 0);
    }
}

static void long_line_streams(void **st)
{
    (void)st;
    size_t big = 3 * FNORM_LINE_MAX;
    char *in = malloc(big + 200), *want = malloc(big + 200);
    int k = snprintf(in, 200, "  app-3 [000] d..2.  7.000000: tracing_mark_write: ");
    memset(in + k, 'x', big);
    memcpy(in + k + big, "\nb-1 [000] d..2. 8.000000: e: y\n", 33);
    memcpy(want, in, strlen(in) + 1);
    want[strstr(in, "d..2.") - in + 4] = ' ';     /* the fifth flags */
    want[strstr(in + k + big, "d..2.") - in + 4] = ' ';
    expect(&flags_only, in, want);
    free(in);
    free(want);
}

static void fix_flags_api(void **st)
{
    (void)st;
    char line[] = "x-1 (    1) [003] d.h2. 9.5: e: z";
    assert_int_equal(fnorm_fix_flags(line, strlen(line)), 1);
    assert_string_equal(line, "x-1 (    1) [003] d.h2  9.5: e: z");
    assert_int_equal(fnorm_fix_flags(line, strlen(line)), 0);
}

static void const_writer(void **st)
{
    (void)st;
    /* fnorm_write copies: the caller's bytes stay as they were */
    static const char in[] = "a-1 [000] d..2. 1.000000: e: x\n";
    struct dynbuf out;
    dynbuf_init(&out, 4096);
    struct fnorm *f = fnorm_new(&flags_only, to_buf, &out);
    assert_int_equal(fnorm_write(f, in, sizeof(in) - 1), ST_OK);
    assert_int_equal(fnorm_finish(f), ST_OK);
    assert_string_equal(dynbuf_str(&out), "a-1 [000] d..2  1.000000: e: x\n");
    assert_string_equal(in, "a-1 [000] d..2. 1.000000: e: x\n");
    fnorm_free(f);
    dynbuf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(five_columns),       cmocka_unit_test(four_columns_untouched),
        cmocka_unit_test(letters_mapped),     cmocka_unit_test(no_flags_column),
        cmocka_unit_test(tricky_task_names),  cmocka_unit_test(not_event_lines),
        cmocka_unit_test(lost_events),        cmocka_unit_test(function_lines),
        cmocka_unit_test(tgid_column),        cmocka_unit_test(long_line_streams),
        cmocka_unit_test(watch_marker),
        cmocka_unit_test(fix_flags_api),      cmocka_unit_test(const_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
