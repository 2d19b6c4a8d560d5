/* Unit tests of the trace summary (formats/summary): CPU time from
 * sched_switch intervals (idle and the still-running slice left out),
 * frames and janky frames per app (doFrame, DrawFrame only for apps
 * without doFrame, unended and unmatched slices), thread bindings and
 * names from the process dump, LOST notices, the circular-buffer cut,
 * empty categories, lines split across writes, slices by name and
 * frame-duration percentiles (for compare), and the same numbers
 * from the fast reader of whole lines and the line-at-a-time one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "formats/summary/summary.h"

static const char dump[] =
    "PROCESS DUMP\n"
    "USER PID PPID VSZ RSS WCHAN ADDR S NAME COMM\n"
    "u0_a1 100 1 0 0 0 0 S com.example.app app\n"
    "system 200 1 0 0 0 0 S system_server system_server\n"
    "USER PID TID CMD\n"
    "u0_a1 100 100 app\n"
    "u0_a1 100 101 RenderThread\n"
    "system 200 201 binder:200_1\n";

#define HDR "# tracer: nop\n# entries-in-buffer/entries-written: 9/9   #P:8\n" \
            "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
#define SW(task, tid, cpu, ts, prev, ppid, next, npid)                                  \
    "  " task "-" #tid " (-----) [00" #cpu "] d..2 " ts ": sched_switch: prev_comm=" prev \
    " prev_pid=" #ppid " prev_prio=120 prev_state=S ==> next_comm=" next " next_pid=" #npid \
    " next_prio=120\n"
#define MARK(task, tid, ts, what) "  " task "-" #tid " (-----) [001] ...1 " ts \
    ": tracing_mark_write: " what "\n"

static const char text[] = HDR
    SW("<idle>", 0, 0, "10.000000", "swapper", 0, "app", 100)
    SW("app", 100, 0, "10.004000", "app", 100, "binder:200_1", 201)
    SW("binder:200_1", 201, 0, "10.010000", "binder:200_1", 201, "swapper", 0)
    SW("<idle>", 0, 1, "10.001000", "swapper", 0, "RenderThread", 101)
    SW("RenderThread", 101, 1, "10.003000", "RenderThread", 101, "app", 100)
    /* app frames: 10 ms, 20 ms (janky), one not ended */
    MARK("app", 100, "10.100000", "B|100|Choreographer#doFrame")
    MARK("app", 100, "10.102000", "B|100|traversal")
    MARK("app", 100, "10.105000", "E|100")
    MARK("app", 100, "10.110000", "E|100")
    MARK("app", 100, "10.200000", "B|100|Choreographer#doFrame 123456")
    MARK("app", 100, "10.220000", "E|100")
    MARK("app", 100, "10.300000", "E|100")          /* no begin: ignored */
    MARK("RenderThread", 101, "10.301000", "B|100|DrawFrame")
    MARK("RenderThread", 101, "10.341000", "E|100")
    MARK("app", 100, "10.400000", "B|100|Choreographer#doFrame")
    /* another app with DrawFrame only: 2 frames, one janky */
    MARK("RenderThread", 301, "10.500000", "B|300|DrawFrames 77")
    MARK("RenderThread", 301, "10.510000", "E|300")
    MARK("RenderThread", 301, "10.600000", "B|300|DrawFrame")
    MARK("RenderThread", 301, "10.630000", "E|300")
    "# CPU:1 [LOST 7 EVENTS]\n"
    "  kworker/0:1-50 (50) [002] ...1 11.000000: workqueue_execute_start: work\n";

static struct summary *run(const char *const *cats, size_t ncats, size_t chunk)
{
    struct summary *s = summary_new();
    assert_non_null(s);
    assert_int_equal(summary_set_categories(s, (char *const *)cats, ncats), ST_OK);
    summary_begin_part(s, "androidProcessDump");
    summary_feed(s, dump, sizeof(dump) - 1);
    summary_end_part(s);
    summary_begin_part(s, "systemTraceEvents");
    for (size_t i = 0; i < sizeof(text) - 1; i += chunk) {
        size_t k = sizeof(text) - 1 - i < chunk ? sizeof(text) - 1 - i : chunk;
        summary_feed(s, text + i, k);
    }
    summary_end_part(s);
    summary_begin_part(s, "systraceController");
    summary_feed(s, "{\"x\": 1}", 8);
    summary_end_part(s);
    assert_int_equal(summary_finish(s), ST_OK);
    return s;
}

static void check(struct summary *s)
{
    const struct summary_totals *t = summary_totals(s);
    assert_int_equal(t->events, 5 + 14 + 1);
    assert_int_equal(t->lost, 7);
    assert_int_equal(t->cpus, 8);
    assert_int_equal(t->sched_switches, 5);
    assert_int_equal(t->first_ns, 10000000000ull);
    assert_int_equal(t->last_ns, 11000000000ull);
    size_t n;
    const struct summary_proc *p = summary_procs(s, &n);
    /* app: 4 ms on CPU 0 (its slice on CPU 1 never ends); its
     * RenderThread 2 ms; system_server's binder thread 6 ms */
    assert_int_equal(n, 2);
    assert_int_equal(p[0].pid, 100);
    assert_string_equal(p[0].name, "com.example.app");
    assert_int_equal(p[0].cpu_ns, 6000000);
    assert_int_equal(p[1].pid, 200);
    assert_string_equal(p[1].name, "system_server");
    assert_int_equal(p[1].cpu_ns, 6000000);
    assert_int_equal(t->busy_ns, 12000000);
    const struct summary_frames *f = summary_frames(s, &n);
    assert_int_equal(n, 2);
    assert_int_equal(f[0].pid, 100);
    assert_string_equal(f[0].source, "Choreographer#doFrame");
    assert_int_equal(f[0].frames, 3);
    assert_int_equal(f[0].janky, 1);
    assert_int_equal(f[0].worst_ns, 20000000);
    assert_int_equal(f[0].worst_at_ns, 200000000);
    assert_int_equal(f[1].pid, 300);
    assert_string_equal(f[1].source, "DrawFrame");
    assert_int_equal(f[1].frames, 2);
    assert_int_equal(f[1].janky, 1);
    assert_int_equal(f[1].worst_ns, 30000000);
    /* frame-duration percentiles, to the 0.1 ms bin's middle */
    assert_int_equal(f[0].p50_ns, 10050000);
    assert_int_equal(f[0].p90_ns, 20050000);
    assert_int_equal(f[0].p99_ns, 20050000);
    assert_int_equal(f[1].p50_ns, 10050000);
    assert_int_equal(f[1].p90_ns, 30050000);
    /* slices by name, longest total first; a trailing number dropped,
     * unended slices and ends without a begin not counted */
    const struct summary_slice *sl = summary_slices(s, &n);
    assert_int_equal(n, 4);
    assert_string_equal(sl[0].name, "DrawFrame");
    assert_int_equal(sl[0].count, 2);
    assert_int_equal(sl[0].total_ns, 70000000);
    assert_int_equal(sl[0].max_ns, 40000000);
    assert_string_equal(sl[1].name, "Choreographer#doFrame");
    assert_int_equal(sl[1].count, 2);
    assert_int_equal(sl[1].total_ns, 30000000);
    assert_string_equal(sl[2].name, "DrawFrames");
    assert_int_equal(sl[2].total_ns, 10000000);
    assert_string_equal(sl[3].name, "traversal");
    assert_int_equal(sl[3].total_ns, 3000000);
}

/* A trace whose VSYNC counter (name) flips every period_us, with an idle
 * gap, and frames of 10, 5 and 20 ms. */
static struct summary *vsync_run(const char *name, unsigned period_us)
{
    char buf[16384];
    size_t o = 0;
    unsigned long long us = 20000000;
    o += (size_t)snprintf(buf + o, sizeof(buf) - o, "# tracer: nop\n");
    for (int i = 0; name && i < 40; i++) {
        /* an idle stretch is no vsync gap; period 0: flips at random times */
        us += i == 20 ? 200000 : period_us ? period_us : 4000 + (unsigned)(i * 7919) % 40000;
        o += (size_t)snprintf(buf + o, sizeof(buf) - o,
                              "  surfaceflinger-50 ( 50) [000] ...1 %llu.%06llu: "
                              "tracing_mark_write: C|50|%s|%d\n", us / 1000000, us % 1000000,
                              name, i & 1);
    }
    static const unsigned dur_ms[] = {10, 5, 20};
    for (int i = 0; i < 3; i++) {
        us += 100000;
        o += (size_t)snprintf(buf + o, sizeof(buf) - o,
                              "  app-100 ( 100) [001] ...1 %llu.%06llu: tracing_mark_write: "
                              "B|100|Choreographer#doFrame\n", us / 1000000, us % 1000000);
        us += dur_ms[i] * 1000;
        o += (size_t)snprintf(buf + o, sizeof(buf) - o,
                              "  app-100 ( 100) [001] ...1 %llu.%06llu: tracing_mark_write: "
                              "E|100\n", us / 1000000, us % 1000000);
    }
    assert_true(o < sizeof(buf) - 1);
    struct summary *s = summary_new();
    assert_non_null(s);
    summary_begin_part(s, "systemTraceEvents");
    summary_feed(s, buf, o);
    summary_end_part(s);
    assert_int_equal(summary_finish(s), ST_OK);
    return s;
}

static void expect_budget(const char *name, unsigned period_us, unsigned hz, uint64_t janky,
                          const char *json_budget)
{
    struct summary *s = vsync_run(name, period_us);
    assert_int_equal(summary_totals(s)->display_hz, hz);
    size_t n;
    const struct summary_frames *f = summary_frames(s, &n);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].frames, 3);
    if (f[0].janky != janky)
        fail_msg("%s at %u us: %llu janky", name ? name : "-", period_us,
                 (unsigned long long)f[0].janky);
    struct dynbuf j;
    dynbuf_init(&j, 1 << 20);
    assert_int_equal(summary_json(s, NULL, &j), ST_OK);
    assert_int_equal(dynbuf_addc(&j, 0), ST_OK);
    if (!strstr(j.data, json_budget))
        fail_msg("%s at %u us: no %s in %s", name ? name : "-", period_us, json_budget, j.data);
    dynbuf_free(&j);
    summary_free(s);
}

/* The frame budget follows the display rate the VSYNC counters show, and
 * only when it is above 60 Hz. */
static void test_display_rate(void **st)
{
    (void)st;
    expect_budget(NULL, 0, 60, 1, "\"frame_budget_ms\": 16.667");
    expect_budget("VSYNC-app", 16667, 60, 1, "\"frame_budget_ms\": 16.667");
    expect_budget("VSYNC-app", 8333, 120, 2, "\"frame_budget_ms\": 8.333");
    expect_budget("VSYNC-sf", 11111, 90, 1, "\"display_hz\": 90");     /* 10 ms fits */
    expect_budget("VSYNC-sf", 4167, 240, 3, "\"display_hz\": 240");
    /* 30 Hz (slower) and an odd period: the 60 Hz budget stays */
    expect_budget("VSYNC-app", 33333, 60, 1, "\"vsync_period_ms\": 33.");
    expect_budget("VSYNC-app", 12500, 60, 1, "\"display_hz\": 60");
    /* flips at random times are no display */
    expect_budget("VSYNC-app", 0, 60, 1, "\"vsync_period_ms\": null");
    /* another counter is not a vsync */
    expect_budget("VSYNC-appx", 8333, 60, 1, "\"vsync_period_ms\": null");
}

/* The device named in the Trace line and the JSON, cleaned of control
 * characters; a conversion names none. */
static void test_device(void **st)
{
    (void)st;
    struct summary *s = run(NULL, 0, 4096);
    struct dynbuf o;
    dynbuf_init(&o, 1 << 20);
    assert_int_equal(summary_text(s, "", &o), ST_OK);
    assert_int_equal(dynbuf_addc(&o, 0), ST_OK);
    assert_non_null(strstr(o.data, " lost\n"));
    summary_set_device(s, "Pixel\x1b[2J 7 ", "14");
    dynbuf_reset(&o);
    assert_int_equal(summary_text(s, "", &o), ST_OK);
    assert_int_equal(dynbuf_addc(&o, 0), ST_OK);
    assert_non_null(strstr(o.data, " lost (Pixel[2J 7, Android 14)\n"));
    dynbuf_reset(&o);
    assert_int_equal(summary_json(s, "emulator-5554", &o), ST_OK);
    assert_int_equal(dynbuf_addc(&o, 0), ST_OK);
    assert_non_null(strstr(o.data, "\"device_model\": \"Pixel[2J 7\""));
    assert_non_null(strstr(o.data, "\"android_version\": \"14\""));
    summary_set_device(s, NULL, "9");
    dynbuf_reset(&o);
    assert_int_equal(summary_text(s, "", &o), ST_OK);
    assert_int_equal(dynbuf_addc(&o, 0), ST_OK);
    assert_non_null(strstr(o.data, " lost (Android 9)\n"));
    dynbuf_free(&o);
    summary_free(s);
}

static void test_whole(void **st)
{
    (void)st;
    struct summary *s = run(NULL, 0, 1 << 20);
    check(s);
    summary_free(s);
}

static void test_bytewise(void **st)
{
    (void)st;
    struct summary *s = run(NULL, 0, 1);
    check(s);
    summary_free(s);
}

/* The JSON of text fed whole (the fast reader takes the lines it can)
 * or a byte at a time (every line goes through the tokenizer). */
static void json_of(const char *p, size_t n, size_t chunk, struct dynbuf *out)
{
    struct summary *s = summary_new();
    assert_non_null(s);
    summary_begin_part(s, "systemTraceEvents");
    for (size_t i = 0; i < n; i += chunk)
        summary_feed(s, p + i, n - i < chunk ? n - i : chunk);
    summary_end_part(s);
    assert_int_equal(summary_finish(s), ST_OK);
    dynbuf_reset(out);
    assert_int_equal(summary_json(s, NULL, out), ST_OK);
    assert_int_equal(dynbuf_addc(out, 0), ST_OK);
    summary_free(s);
}

/* Every usual shape, and each with every byte replaced by, and with, a
 * byte that matters to the grammar, and with every byte deleted: the
 * fast reader and the tokenizer count the same. */
static void test_fast_agrees(void **st)
{
    (void)st;
    static const char *const lines[] = {
        "  surfaceflinger-598   ( 598) [001] d..2 1234.567890: sched_switch: prev_comm=a "
        "prev_pid=598 prev_prio=120 prev_state=S ==> next_comm=b c next_pid=77 next_prio=120",
        "<...>-18926 (-----) [000] ...1 683202.104223: tracing_mark_write: S|1|x|2",
        "  app-7 [003] 5.000001: cpu_idle: state=1 cpu_id=3",
        " Binder Thread-12-34 ( 12) [002] dNh2. 1.123456789: irq_handler_entry: irq=5",
        "   com.example.app-100   (  100) [001] ...1 100.003000: tracing_mark_write: "
        "B|100|Choreographer#doFrame 3",
        "   com.example.app-100   (  100) [001] ...1 100.030000: tracing_mark_write: E|100",
        "   RenderThread-101   (  100) [001] ...1 100.031000: print: B|100|DrawFrame 12",
        "  surfaceflinger-50    (   50) [000] ...1 100.008333: 0: C|50|VSYNC-app|1",
        "  x-1 ( 1) [000] d..2    50.000001: e:  \t args\r",
        "  x-123456789 (123456789) [123456789] d..2 1234567890.5: e: a",
        "  x-1 ( 1) [000] d..2 1.1234567891: sched_waking: comm=y pid=9",
    };
    static const char subst[] = {' ', '\t', '\n', '\r', '-', '(', ')', '[', ']', ':', '.', '0',
                                 '9', 'a', 'f', 'g', 'Z', '\0', '\x80', '|', '#', 'B', 'E'};
    struct dynbuf v, a, b;
    dynbuf_init(&v, 1 << 24);
    dynbuf_init(&a, 1 << 24);
    dynbuf_init(&b, 1 << 24);
    for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
        const char *l = lines[i];
        size_t n = strlen(l);
        dynbuf_reset(&v);
        for (size_t k = 0; k < n; k++) {
            for (size_t c = 0; c < sizeof(subst); c++) {
                /* replaced, then inserted */
                assert_int_equal(dynbuf_add(&v, l, k), ST_OK);
                assert_int_equal(dynbuf_addc(&v, subst[c]), ST_OK);
                assert_int_equal(dynbuf_add(&v, l + k + 1, n - k - 1), ST_OK);
                assert_int_equal(dynbuf_addc(&v, '\n'), ST_OK);
                assert_int_equal(dynbuf_add(&v, l, k), ST_OK);
                assert_int_equal(dynbuf_addc(&v, subst[c]), ST_OK);
                assert_int_equal(dynbuf_add(&v, l + k, n - k), ST_OK);
                assert_int_equal(dynbuf_addc(&v, '\n'), ST_OK);
            }
            assert_int_equal(dynbuf_add(&v, l, k), ST_OK);      /* deleted */
            assert_int_equal(dynbuf_add(&v, l + k + 1, n - k - 1), ST_OK);
            assert_int_equal(dynbuf_addc(&v, '\n'), ST_OK);
            assert_int_equal(dynbuf_add(&v, l, n), ST_OK);      /* intact */
            assert_int_equal(dynbuf_addc(&v, '\n'), ST_OK);
        }
        json_of(v.data, v.len, v.len, &a);
        json_of(v.data, v.len, 1, &b);
        if (strcmp(a.data, b.data))
            fail_msg("whole and bytewise differ for the variants of \"%s\":\n%s\n%s", l, a.data,
                     b.data);
    }
    dynbuf_free(&v);
    dynbuf_free(&a);
    dynbuf_free(&b);
}

static void test_categories(void **st)
{
    (void)st;
    const char *cats[] = {"sched", "workq", "memreclaim", "gfx", "sync"};
    struct summary *s = run(cats, 5, 4096);
    size_t n;
    const char *const *e = summary_empty_categories(s, &n);
    assert_int_equal(n, 2);     /* gfx: markers appeared, cannot be known */
    assert_string_equal(e[0], "memreclaim");
    assert_string_equal(e[1], "sync");
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    assert_int_equal(summary_text(s, "X: ", &b), ST_OK);
    assert_non_null(strstr(b.data, "X: Trace: 1.0 s, 8 CPUs, 20 events, 7 lost\n"));
    assert_non_null(strstr(b.data, "X: Frames: com.example.app 3, 1 janky (> 16.7 ms), "
                                   "worst 20 ms at 0.20 s\n"));
    assert_non_null(strstr(b.data, "X: No events from: memreclaim, sync\n"));
    dynbuf_reset(&b);
    assert_int_equal(summary_json(s, "dev\"1", &b), ST_OK);
    assert_non_null(strstr(b.data, "\"device\": \"dev\\\"1\""));
    assert_non_null(strstr(b.data, "\"categories_without_events\": [\"memreclaim\", \"sync\"]"));
    dynbuf_free(&b);
    summary_free(s);
}

/* userspace categories: named only when no app marker appeared at all */
static void test_no_markers(void **st)
{
    (void)st;
    static const char t2[] = HDR SW("<idle>", 0, 0, "1.000000", "swapper", 0, "a", 5);
    const char *cats[] = {"sched", "gfx", "view"};
    struct summary *s = summary_new();
    summary_set_categories(s, (char *const *)cats, 3);
    summary_begin_part(s, "systemTraceEvents");
    summary_feed(s, t2, sizeof(t2) - 1);
    summary_end_part(s);
    assert_int_equal(summary_finish(s), ST_OK);
    size_t n;
    const char *const *e = summary_empty_categories(s, &n);
    assert_int_equal(n, 2);
    assert_string_equal(e[0], "gfx");
    assert_string_equal(e[1], "view");
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    summary_text(s, "", &b);
    /* one switch and the slice never ends: no CPU time, said so */
    assert_non_null(strstr(b.data, "CPU: no sched_switch events"));
    dynbuf_free(&b);
    summary_free(s);
}

/* what the repair cuts (before the last CPU buffer start) is forgotten;
 * a part fetched again starts over */
static void test_cut_and_restart(void **st)
{
    (void)st;
    static const char t3[] = HDR
        SW("<idle>", 0, 0, "1.000000", "swapper", 0, "a", 5)
        SW("a", 5, 0, "1.500000", "a", 5, "b", 6)
        "##### CPU 1 buffer started ####\n"
        SW("<idle>", 0, 0, "2.000000", "swapper", 0, "a", 5)
        SW("a", 5, 0, "2.001000", "a", 5, "b", 6);
    struct summary *s = summary_new();
    summary_begin_part(s, "systemTraceEvents");
    summary_feed(s, "junk line\n", 10);
    summary_restart_part(s);
    summary_feed(s, t3, sizeof(t3) - 1);
    summary_end_part(s);
    assert_int_equal(summary_finish(s), ST_OK);
    const struct summary_totals *t = summary_totals(s);
    assert_int_equal(t->events, 2);
    assert_int_equal(t->first_ns, 2000000000ull);
    size_t n;
    const struct summary_proc *p = summary_procs(s, &n);
    assert_int_equal(n, 1);
    assert_int_equal(p[0].pid, 5);
    assert_int_equal(p[0].cpu_ns, 1000000);
    summary_free(s);
}

static void test_empty(void **st)
{
    (void)st;
    struct summary *s = summary_new();
    assert_int_equal(summary_finish(s), ST_OK);
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    assert_int_equal(summary_text(s, "", &b), ST_OK);
    assert_string_equal(b.data, "Trace: no events, 0 lost\n");
    dynbuf_reset(&b);
    assert_int_equal(summary_json(s, NULL, &b), ST_OK);
    assert_non_null(strstr(b.data, "\"processes\": [],"));
    dynbuf_free(&b);
    summary_free(s);
    summary_free(NULL);
}

/* Event names of 8 to 31 characters are compared a word at a time: two
 * names of each length that differ in one byte only (and so share the
 * hash's slot: the same length, first, middle and last byte), at each
 * position, are still counted apart. */
static void test_long_names(void **st)
{
    (void)st;
    char name[32], text_[512];
    for (size_t n = 8; n < 32; n++) {
        for (size_t at = 1; at + 1 < n; at++) {
            if (at == n / 2)
                continue;
            struct summary *s = summary_new();
            assert_non_null(s);
            summary_begin_part(s, "systemTraceEvents");
            size_t len = 0;
            for (int i = 0; i < 3; i++) {
                memset(name, 'a', n);
                name[n] = '\0';
                if (i == 1)
                    name[at] = 'b';     /* one of the second kind between two */
                len += (size_t)snprintf(text_ + len, sizeof(text_) - len,
                                        "  x-1 ( 1) [000] d..2 1.00000%d: %s: a=1\n", i, name);
            }
            /* in one write, with blank lines after them: the fast reader's */
            memset(text_ + len, '\n', 8);
            summary_feed(s, text_, len + 8);
            summary_end_part(s);
            assert_int_equal(summary_finish(s), ST_OK);
            assert_int_equal(summary_event_names(s), 2);
            uint64_t c0 = 0, c1 = 0;
            summary_event_name(s, 0, &c0);
            summary_event_name(s, 1, &c1);
            if (!((c0 == 2 && c1 == 1) || (c0 == 1 && c1 == 2)))
                fail_msg("names of %zu bytes differing at %zu: counted %llu and %llu", n, at,
                         (unsigned long long)c0, (unsigned long long)c1);
            summary_free(s);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_display_rate), cmocka_unit_test(test_device),
        cmocka_unit_test(test_whole),          cmocka_unit_test(test_bytewise),
        cmocka_unit_test(test_categories),     cmocka_unit_test(test_no_markers),
        cmocka_unit_test(test_cut_and_restart), cmocka_unit_test(test_empty),
        cmocka_unit_test(test_fast_agrees),    cmocka_unit_test(test_long_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
