/* Unit tests for the app-profile alignment (agents/android/align*.c): the ftrace
 * line parser, the clock-sync estimate (ART parent_ts with float
 * rounding, Dalvik realtime_ts), and the refinement by sections with
 * noise, missing lines, a far-off clock and no usable pairs. */
#include "testutil.h"

#include "agents/android/align.h"

static enum align_kind parse(const char *s, struct align_line *l)
{
    return align_parse_line(s, strlen(s), l);
}

static void parse_lines(void **state)
{
    (void)state;
    struct align_line l;
    assert_int_equal(parse("  droid.launcher3-2000  (-----) [001] ...1  3165.379072: "
                           "tracing_mark_write: B|2000|Choreographer#doFrame", &l),
                     ALIGN_L_BEGIN);
    assert_int_equal(l.tid, 2000);
    assert_int_equal(l.pid, 2000);
    assert_int_equal(l.ts_us, 3165379072LL);
    /* task names with spaces and dashes; TGID filled in; no flags */
    assert_int_equal(parse("shell svc-x 2502-2510 ( 2502) [003] 12.5: tracing_mark_write: "
                           "B|2502|a|b", &l), ALIGN_L_BEGIN);
    assert_int_equal(l.tid, 2510);
    assert_int_equal(l.ts_us, 12500000);
    assert_int_equal(parse("RenderThread-2010 [000] 1.000000001: tracing_mark_write: B|2000|x",
                           &l), ALIGN_L_BEGIN);
    assert_int_equal(l.tid, 2010);
    assert_int_equal(l.ts_us, 1000000);
    assert_int_equal(parse("atrace-99 (-----) [000] ...1 100.000100: tracing_mark_write: "
                           "trace_event_clock_sync: parent_ts=99.998001", &l),
                     ALIGN_L_PARENT_TS);
    assert_true(l.parent_s > 99.998 && l.parent_s < 99.9981);
    assert_int_equal(l.ts_us, 100000100);
    assert_int_equal(parse("atrace-99 (-----) [000] ...1 100.000118: tracing_mark_write: "
                           "trace_event_clock_sync: realtime_ts=1700000000123", &l),
                     ALIGN_L_REALTIME_TS);
    assert_int_equal(l.realtime_ms, 1700000000123LL);
    /* not these */
    assert_int_equal(parse("a-1 (-----) [000] ...1 1.0: tracing_mark_write: E|1", &l),
                     ALIGN_L_OTHER);
    assert_int_equal(parse("a-1 (-----) [000] ...1 1.0: sched_switch: B|1|x", &l),
                     ALIGN_L_OTHER);
    assert_int_equal(parse("a-1 (-----) [000] ...1 1.0: tracing_mark_write: B|x|y", &l),
                     ALIGN_L_OTHER);
    assert_int_equal(parse("nodash (-----) [000] ...1 1.0: tracing_mark_write: B|1|y", &l),
                     ALIGN_L_OTHER);
    assert_int_equal(parse("a-1 (-----) [000] ...1 1.2.3: tracing_mark_write: B|1|y", &l),
                     ALIGN_L_OTHER);
    assert_int_equal(parse("a-1 (-----) [000] ...1 : tracing_mark_write: B|1|y", &l),
                     ALIGN_L_OTHER);
    assert_int_equal(parse("", &l), ALIGN_L_OTHER);
}

static void estimate(void **state)
{
    (void)state;
    struct align_marks m = {0};
    struct align_estimate e;
    align_estimate(&m, 5000000, &e);
    assert_int_equal(e.basis, ALIGN_NONE);
    /* ART (monotonic start): ftrace = mono + (line ts - parent_ts) */
    m.have_parent = 1;
    m.parent_s = 3000.5;
    m.parent_line_us = 3000500000LL + 42;
    align_estimate(&m, 3000000000LL, &e);
    assert_int_equal(e.basis, ALIGN_PARENT_TS);
    assert_int_equal(e.offset_us, 42);
    /* float rounding at ~3000 s: half ulp 122 us; window covers twice */
    assert_int_equal(align_float_error_us(3000.5), 124);
    assert_true(e.window_us >= 2 * 122);
    assert_true(align_float_error_us(100000.0) >= 3900);   /* ~1 day: ms */
    /* Dalvik (epoch start): realtime_ts, middle of its ms */
    align_estimate(&m, 1500000000000000LL, &e);
    assert_int_equal(e.basis, ALIGN_NONE);   /* no realtime marker */
    m.have_realtime = 1;
    m.realtime_ms = 1500000000000LL;
    m.realtime_line_us = 3000500018LL;
    align_estimate(&m, 1500000000000000LL, &e);
    assert_int_equal(e.basis, ALIGN_REALTIME_TS);
    assert_int_equal(e.offset_us, 3000500018LL - 1500000000000500LL);
}

/* Calls every ~6 ms on two threads; B lines at call + true_off + 5,
 * plus unrelated B lines; some calls have no line. */
static void make_sets(struct align_set *calls, struct align_set *begins, int64_t true_off,
                      int noise, int missing_every)
{
    align_set_init(calls);
    align_set_init(begins);
    uint32_t rng = 12345;
    for (int k = 0; k < 300; k++) {
        int64_t tid = k % 3 == 2 ? 2010 : 2000;
        int64_t t = 1000000 + k * 6000 + (k * k * 7919 + k * 104729) % 2000;
        align_set_add(calls, tid, t);
        if (!missing_every || k % missing_every)
            align_set_add(begins, tid, t + true_off + 5);
    }
    for (int i = 0; i < noise; i++) {
        rng = rng * 1103515245u + 12345u;
        align_set_add(begins, i % 2 ? 2000 : 2010,
                      1000000 + true_off + (int64_t)(rng % 1800000));
    }
}

static void refine_clean(void **state)
{
    (void)state;
    struct align_set c, b;
    make_sets(&c, &b, -1500, 0, 0);
    struct align_estimate e = {ALIGN_PARENT_TS, -200, 2000};
    struct align_result r;
    align_refine(&c, &b, &e, 3, &r);
    assert_true(r.refined);
    assert_int_equal(r.offset_us, -1495);
    assert_int_equal(r.correction_us, -1295);
    assert_int_equal(r.matched, 300);
    assert_true(r.residual_us == 0);
    assert_false(r.unbounded);
    align_set_free(&c);
    align_set_free(&b);
}

static void refine_noise_and_gaps(void **state)
{
    (void)state;
    struct align_set c, b;
    make_sets(&c, &b, 700, 2000, 4);    /* 2000 stray B lines, 1/4 missing */
    struct align_estimate e = {ALIGN_REALTIME_TS, 0, 2000};
    struct align_result r;
    align_refine(&c, &b, &e, 3, &r);
    assert_true(r.refined);
    assert_int_equal(r.offset_us, 705);
    assert_true(r.matched >= 225);
    assert_true(r.residual_us <= 1);
    align_set_free(&c);
    align_set_free(&b);
}

static void refine_far_clock(void **state)
{
    (void)state;
    struct align_set c, b;
    make_sets(&c, &b, 250000, 200, 0);
    struct align_estimate e = {ALIGN_PARENT_TS, 0, 2000};
    struct align_result r;
    align_refine(&c, &b, &e, 3, &r);
    assert_true(r.refined);
    assert_true(r.unbounded);
    assert_int_equal(r.offset_us, 250005);
    align_set_free(&c);
    align_set_free(&b);
}

static void refine_nothing(void **state)
{
    (void)state;
    struct align_set c, b;
    /* only stray lines: the estimate stays */
    make_sets(&c, &b, 0, 300, 1);
    struct align_estimate e = {ALIGN_PARENT_TS, 77, 2000};
    struct align_result r;
    align_refine(&c, &b, &e, 3, &r);
    assert_false(r.refined);
    assert_int_equal(r.offset_us, 77);
    align_set_free(&c);
    align_set_free(&b);
    /* no calls at all */
    align_set_init(&c);
    align_set_init(&b);
    align_refine(&c, &b, &e, 3, &r);
    assert_false(r.refined);
    assert_int_equal(r.calls, 0);
    align_set_free(&b);
}

static void set_bounded(void **state)
{
    (void)state;
    struct align_set s;
    align_set_init(&s);
    for (uint32_t i = 0; i < ALIGN_MAX_EVENTS + 10; i++)
        align_set_add(&s, 1, i);
    assert_int_equal(s.n, ALIGN_MAX_EVENTS);
    assert_int_equal(s.dropped, 10);
    align_set_free(&s);
}

/* An aligned method trace inside the capture (with slack) fits; one of
 * another session is told apart, with how far off it is. */
static void outside(void **state)
{
    (void)state;
    const int64_t s = 1000000;
    /* capture 100..110 s; trace 101..109 s app time, offset 0 */
    assert_int_equal(align_outside(101 * s, 109 * s, 0, 100 * s, 110 * s), 0);
    /* just within the slack on both sides */
    assert_int_equal(align_outside(99 * s, 111 * s, 0, 100 * s, 110 * s), 0);
    /* 18 hours of uptime against a capture at 6500 s */
    assert_int_equal(align_outside(64800 * s, 64801 * s, 20, 6500 * s, 6502 * s),
                     64800 * s + 20 - 6502 * s);
    /* an epoch-dated Dalvik trace shifted by a realtime marker of today */
    assert_true(align_outside(1275380398 * s, 1275380403 * s, -1795544481344639,
                              6536 * s, 6537 * s) < 0);
    /* ends well after the capture, starts inside */
    assert_int_equal(align_outside(105 * s, 200 * s, 0, 100 * s, 110 * s), 90 * s);
    /* extremes saturate instead of overflowing */
    assert_true(align_outside(INT64_MAX, INT64_MAX, INT64_MAX, 0, 1) > 0);
    assert_true(align_outside(INT64_MIN, INT64_MIN, INT64_MIN, INT64_MAX, INT64_MAX) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_lines),
        cmocka_unit_test(estimate),
        cmocka_unit_test(refine_clean),
        cmocka_unit_test(refine_noise_and_gaps),
        cmocka_unit_test(refine_far_clock),
        cmocka_unit_test(refine_nothing),
        cmocka_unit_test(set_bounded),
        cmocka_unit_test(outside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
