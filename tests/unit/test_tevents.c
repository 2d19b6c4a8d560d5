/* Unit tests for the trace-event converter (formats/tevents/tevents*.c): the line
 * tokenizer against Perfetto's grammar (a table of accepted and refused
 * lines), atrace payloads, sched_switch args, JSON escaping, and whole
 * conversions (slices, counters, async pairs, CPU slices, names from the
 * trace and the process dump, circular-buffer rewinds) fed in several
 * chunk sizes. */
#include "testutil.h"

#include "formats/tevents/tevents.h"
#include "formats/tevents/tevents_int.h"

static void line_table(void **st)
{
    (void)st;
    static const struct {
        const char *line;
        int ok;
        const char *task;
        uint32_t tid;
        int64_t tgid;
        uint32_t cpu;
        uint64_t ts;
        const char *event;
        const char *args;
    } cases[] = {
        {"  surfaceflinger-598   ( 598) [001] d..2 1234.567890: sched_switch: prev_comm=a",
         1, "surfaceflinger", 598, 598, 1, 1234567890000ull, "sched_switch", "prev_comm=a"},
        {"<...>-18926 (-----) [000] ...1 683202.104223: tracing_mark_write: S|1|x|2",
         1, "<...>", 18926, -1, 0, 683202104223000ull, "tracing_mark_write", "S|1|x|2"},
        /* no TGID column, no flags (old kernels) */
        {"  app-7 [003] 5.000001: cpu_idle: state=1 cpu_id=3", 1, "app", 7, -1, 3,
         5000001000ull, "cpu_idle", "state=1 cpu_id=3"},
        /* five-character flags, nanoseconds, task with spaces and dashes */
        {" Binder Thread-12-34 ( 12) [002] dNh2. 1.123456789: irq_handler_entry: irq=5",
         1, "Binder Thread-12", 34, 12, 2, 1123456789ull, "irq_handler_entry", "irq=5"},
        /* the event name is the token up to its last ':' */
        {"a-1 [000] ...1 2.5: foo:bar: x", 1, "a", 1, -1, 0, 2500000000ull, "foo:bar", "x"},
        /* the old-kernel marker event is named "0" */
        {"a-1 ( 1) [000] ...1 2.000000: 0: B|1|x", 1, "a", 1, 1, 0, 2000000000ull, "0",
         "B|1|x"},
        {"# tracer: nop", 0, NULL, 0, 0, 0, 0, NULL, NULL},
        {"CPU:3 [LOST 42 EVENTS]", 0, NULL, 0, 0, 0, 0, NULL, NULL},
        {"a-1 [000] ...1 2.000000 tracing_mark_write: x", 0, NULL, 0, 0, 0, 0, NULL, NULL},
        {"a-1 [x] ...1 2.000000: e: x", 0, NULL, 0, 0, 0, 0, NULL, NULL},
        {"a-99999999999 [000] 2.0: e: x", 0, NULL, 0, 0, 0, 0, NULL, NULL},
        {"a-1 [000] 2.0: :", 0, NULL, 0, 0, 0, 0, NULL, NULL},
        {"", 0, NULL, 0, 0, 0, 0, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct tev_line l;
        int ok = tev_parse_line(cases[i].line, strlen(cases[i].line), &l);
        if (ok != cases[i].ok)
            fail_msg("case %zu (%s): ok %d", i, cases[i].line, ok);
        if (!ok)
            continue;
        assert_int_equal(l.task_len, strlen(cases[i].task));
        assert_memory_equal(l.task, cases[i].task, l.task_len);
        assert_int_equal(l.tid, cases[i].tid);
        assert_int_equal(l.tgid, cases[i].tgid);
        assert_int_equal(l.cpu, cases[i].cpu);
        assert_int_equal(l.ts_ns, cases[i].ts);
        assert_int_equal(l.event_len, strlen(cases[i].event));
        assert_memory_equal(l.event, cases[i].event, l.event_len);
        assert_int_equal(l.args_len, strlen(cases[i].args));
        assert_memory_equal(l.args, cases[i].args, l.args_len);
    }
}

static int same_line(const struct tev_line *a, const struct tev_line *b)
{
    return a->task == b->task && a->task_len == b->task_len && a->tid == b->tid &&
           a->tgid == b->tgid && a->cpu == b->cpu && a->ts_ns == b->ts_ns &&
           a->event == b->event && a->event_len == b->event_len && a->args == b->args &&
           a->args_len == b->args_len;
}

/* Where the fast path answers, the general tokenizer gives the same fields. */
static void check_agree(const char *p, size_t n, int *fast)
{
    struct tev_line a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    if (!tev_parse_line_std(p, n, &a))
        return;
    (*fast)++;
    if (!tev_parse_line_general(p, n, &b) || !same_line(&a, &b))
        fail_msg("the fast tokenizer differs on \"%.*s\"", (int)n, p);
}

/* Every usual shape, and each with every byte replaced by, and with, a
 * byte that matters to the grammar, and with every byte deleted. */
static void fast_agrees(void **st)
{
    (void)st;
    static const char *const lines[] = {
        "  surfaceflinger-598   ( 598) [001] d..2 1234.567890: sched_switch: prev_comm=a",
        "<...>-18926 (-----) [000] ...1 683202.104223: tracing_mark_write: S|1|x|2",
        "  app-7 [003] 5.000001: cpu_idle: state=1 cpu_id=3",
        " Binder Thread-12-34 ( 12) [002] dNh2. 1.123456789: irq_handler_entry: irq=5",
        "a-1 [000] ...1 2.5: foo:bar: x",
        "a-1 ( 1) [000] ...1 2.000000: 0: B|1|x",
        "     kworker/1:2-1003  ( 1003) [003] d..2 1000.000039: sched_switch: a=1",
        "  x-1 ( 1) [000] d..2    50.000001: e:  \t args\r",
        "  x-1 ( 1) [000] d..2 1.5: e:",
        "  x-123456789 (123456789) [123456789] d..2 1234567890.5: e: a",
        "  x-1234567890 ( 1) [000] d..2 1.5: e: a",
        "  x-1 ( 1) [000] d..2 12345678901.5: e: a",
        "  x-1 ( 1) [000] d..2 1.5: \xc3\xa9v\x7f: a",
    };
    static const char subst[] = {' ', '\t', '\n', '\r', '-', '(', ')', '[', ']', ':', '.', '0',
                                 '9', 'a', 'f', 'g', 'Z', '\0', '\x01', '\x80', '|'};
    char buf[256];
    int fast = 0, base = 0;
    for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
        size_t n = strlen(lines[i]);
        assert_true(n < sizeof(buf) - 2);
        check_agree(lines[i], n, &base);
        for (size_t k = 0; k < n; k++) {
            for (size_t c = 0; c < sizeof(subst); c++) {
                memcpy(buf, lines[i], n);
                buf[k] = subst[c];
                check_agree(buf, n, &fast);
                memcpy(buf, lines[i], k);
                buf[k] = subst[c];
                memcpy(buf + k + 1, lines[i] + k, n - k);
                check_agree(buf, n + 1, &fast);
            }
            memcpy(buf, lines[i], k);
            memcpy(buf + k, lines[i] + k + 1, n - k - 1);
            check_agree(buf, n - 1, &fast);
            check_agree(lines[i], k, &fast);     /* every prefix */
        }
    }
    /* the usual shapes take the fast path (all but the two with a
     * number too long for it and the one with a ':' inside the event) */
    assert_int_equal(base, (int)(sizeof(lines) / sizeof(*lines)) - 3);
    assert_true(fast > 1000);
}

static void mark_table(void **st)
{
    (void)st;
    struct tev_mark m;
    assert_true(tev_parse_mark("B|12|a|b", 8, &m));
    assert_int_equal(m.phase, 'B');
    assert_int_equal(m.tgid, 12);
    assert_int_equal(m.name_len, 3);
    assert_memory_equal(m.name, "a|b", 3);
    assert_true(tev_parse_mark("E", 1, &m));
    assert_int_equal(m.tgid, -1);
    assert_true(tev_parse_mark("E|5\n", 4, &m));
    assert_int_equal(m.tgid, 5);
    assert_true(tev_parse_mark("C|3|mem|-42|cat", 15, &m));
    assert_int_equal(m.num, -42);
    assert_int_equal(m.name_len, 3);
    assert_false(tev_parse_mark("C|3|mem|4x", 10, &m));
    assert_false(tev_parse_mark("C|3|mem", 7, &m));
    assert_true(tev_parse_mark("S|3|a|b|77", 10, &m));
    assert_int_equal(m.name_len, 3);
    assert_int_equal(m.value_len, 2);
    assert_memory_equal(m.value, "77", 2);
    assert_false(tev_parse_mark("B|x|name", 8, &m));
    assert_false(tev_parse_mark("trace_event_clock_sync: x", 25, &m));
    assert_false(tev_parse_mark("X|1|a", 5, &m));

    struct tev_switch s;
    const char *sw = "prev_comm=Binder 1 prev_pid=12 prev_prio=120 prev_state=S ==> "
                     "next_comm=my next_pid=99 task next_pid=34 next_prio=120";
    assert_true(tev_parse_switch(sw, strlen(sw), &s));
    assert_int_equal(s.prev_pid, 12);
    assert_int_equal(s.next_pid, 34);
    assert_int_equal(s.next_comm_len, strlen("my next_pid=99 task"));
    assert_int_equal(s.prev_comm_len, strlen("Binder 1"));
    assert_memory_equal(s.prev_comm, "Binder 1", s.prev_comm_len);
    assert_false(tev_parse_switch("prev_pid=1", 10, &s));
    const char *sw2 = "prev_pid=12 prev_prio=120 ==> next_comm=b next_pid=3 next_prio=1";
    assert_true(tev_parse_switch(sw2, strlen(sw2), &s));
    assert_int_equal(s.prev_comm_len, 0);
    const char *wk = "comm=usb ffs open pid=2501 prio=120 target_cpu=001", *comm;
    size_t cl;
    uint32_t pid;
    assert_true(tev_parse_wakeup(wk, strlen(wk), &comm, &cl, &pid));
    assert_int_equal(pid, 2501);
    assert_int_equal(cl, strlen("usb ffs open"));
    assert_memory_equal(comm, "usb ffs open", cl);
    assert_true(tev_parse_wakeup("comm= pid=7", 11, &comm, &cl, &pid));
    assert_int_equal(cl, 0);
    assert_int_equal(pid, 7);
    assert_false(tev_parse_wakeup("comm=a pid=x", 12, &comm, &cl, &pid));
    assert_false(tev_parse_wakeup("pid=7 comm=a", 12, &comm, &cl, &pid));
    uint64_t v;
    assert_true(tev_arg_u64("state=4294967295 cpu_id=2", 25, "cpu_id", &v));
    assert_int_equal(v, 2);
    assert_false(tev_arg_u64("xstate=1", 8, "state", &v));
}

static void json_text(void **st)
{
    (void)st;
    struct dynbuf b;
    dynbuf_init(&b, 4096);
    assert_int_equal(tj_str(&b, "a\"\\\n\x01\xff\xc3\xa9", 8), ST_OK);
    assert_string_equal(dynbuf_str(&b), "\"a\\\"\\\\\\u000a\\u0001\\ufffd\xc3\xa9\"");
    dynbuf_reset(&b);
    tj_us(&b, 1234567);
    dynbuf_addc(&b, ' ');
    tj_us(&b, 5000);
    assert_string_equal(dynbuf_str(&b), "1234.567 5");
    dynbuf_free(&b);
}

/* Convert parts (name, text) fed in chunks; returns the JSON. */
static char *convert(const char *const *parts, size_t chunk, struct tevents_stats *st)
{
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct tevents *t = tevents_new(&s);
    for (size_t i = 0; parts[i]; i += 2) {
        tevents_begin_part(t, parts[i]);
        size_t n = strlen(parts[i + 1]);
        for (size_t off = 0; off < n; off += chunk)
            assert_int_equal(tevents_feed(t, parts[i + 1] + off,
                                          n - off < chunk ? n - off : chunk), ST_OK);
        tevents_end_part(t);
    }
    assert_int_equal(tevents_finish(t), ST_OK);
    if (st)
        *st = *tevents_stats(t);
    tevents_free(t);
    return dynbuf_take(&m.b, NULL);
}

static const size_t chunks[] = {1, 2, 7, 100, 1 << 20};

static size_t count_of(const char *s, const char *pat)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, pat)); p += strlen(pat))
        n++;
    return n;
}

static void expect_lines(const char *const *parts, const char *const *want)
{
    for (size_t c = 0; c < sizeof(chunks) / sizeof(*chunks); c++) {
        char *got = convert(parts, chunks[c], NULL);
        for (size_t i = 0; want[i]; i++)
            if (!strstr(got, want[i]))
                fail_msg("chunk %zu: no\n  %s\nin:\n%s", chunks[c], want[i], got);
        free(got);
    }
}

#define HDR "# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"

static void slices_and_names(void **st)
{
    (void)st;
    const char *parts[] = {
        "androidProcessDump",
        "PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN PC S NAME COMM\n"
        "u0_a1 100 1 0 0 0 0 S com.example.app app\n"
        "USER PID TID CMD\nu0_a1 100 101 RenderThread\n",
        "systemTraceEvents",
        HDR
        "   main-100  ( 100) [000] ...1 1.000001: tracing_mark_write: B|100|outer\n"
        "   main-100  ( 100) [000] ...1 1.000002: tracing_mark_write: B|100|inner \"q\"\n"
        "   main-100  ( 100) [000] ...1 1.000010: tracing_mark_write: E|100\n"
        "   main-100  ( 100) [000] ...1 1.000020: tracing_mark_write: E|100\n"
        "   main-100  ( 100) [000] ...1 1.000021: tracing_mark_write: E|100\n"
        "   <...>-101   (-----) [001] ...1 1.000030: tracing_mark_write: B|100|draw\n"
        "   main-100  ( 100) [000] ...1 1.000040: tracing_mark_write: C|100|queue|7\n"
        "   main-100  ( 100) [000] ...1 1.000050: tracing_mark_write: I|100|tick\n",
        NULL,
    };
    const char *want[] = {
        "{\"name\":\"inner \\\"q\\\"\",\"ph\":\"X\",\"cat\":\"atrace\",\"ts\":1000002,"
        "\"dur\":8,\"pid\":100,\"tid\":100}",
        "{\"name\":\"outer\",\"ph\":\"X\",\"cat\":\"atrace\",\"ts\":1000001,\"dur\":19,"
        "\"pid\":100,\"tid\":100}",
        /* unclosed: a B event at the end */
        "{\"name\":\"draw\",\"ph\":\"B\",\"cat\":\"atrace\",\"ts\":1000030,\"pid\":100,"
        "\"tid\":101}",
        "{\"name\":\"queue\",\"ph\":\"C\",\"ts\":1000040,\"pid\":100,\"tid\":100,"
        "\"args\":{\"value\":7}}",
        "{\"name\":\"tick\",\"ph\":\"i\",\"s\":\"t\",\"ts\":1000050,\"pid\":100,\"tid\":100}",
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":100,\"tid\":100,"
        "\"args\":{\"name\":\"com.example.app\"}}",
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":101,"
        "\"args\":{\"name\":\"RenderThread\"}}",
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":100,"
        "\"args\":{\"name\":\"main\"}}",
        NULL,
    };
    expect_lines(parts, want);
    struct tevents_stats s;
    free(convert(parts, 3, &s));
    assert_int_equal(s.slices, 2);
    assert_int_equal(s.unmatched_end, 1);
    assert_int_equal(s.unclosed, 1);
    assert_int_equal(s.counters, 1);
    assert_int_equal(s.instants, 1);
    assert_int_equal(s.lines, 8);
}

/* Every thread and process the trace or the process dump names gets its
 * M record, with events or not: task columns (not "<...>"), sched_switch
 * and sched_wakeup/waking comms (the latest name counts), the dump's
 * thread and process forms (the latest dump counts). */
static void names_from_everywhere(void **st)
{
    (void)st;
    const char *parts[] = {
        "androidProcessDump",
        "PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN PC S NAME COMM\n"
        "u0_a1 100 1 0 0 0 0 S com.example.app app\n"
        "root 300 1 0 0 0 0 S idle.daemon d\n"
        "USER PID TID CMD\nu0_a1 100 101 RenderThread\nu0_a1 100 102 Binder:100_1\n"
        "root 300 301 worker pool\n",
        "systemTraceEvents",
        HDR
        "   <...>-101   (-----) [001] ...1 1.000030: tracing_mark_write: B|100|draw\n"
        "   <...>-103   (  100) [001] ...1 1.000031: tracing_mark_write: B|100|x\n"
        "   <idle>-0    (-----) [000] d..3 1.000040: sched_waking: comm=Thread 5 pid=103 "
        "prio=120 target_cpu=000\n"
        "   <idle>-0    (-----) [000] d..2 1.000041: sched_switch: prev_comm=swapper/0 "
        "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/0:1 next_pid=40 "
        "next_prio=120\n"
        "   kworker/0:1-40 (-----) [000] d..2 1.000050: sched_switch: prev_comm=kworker/0:1 "
        "prev_pid=40 prev_prio=120 prev_state=S ==> next_comm=Decoder next_pid=103 "
        "next_prio=120\n",
        /* the dump after tracing: a process renamed meanwhile */
        "androidProcessDump",
        "PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN PC S NAME COMM\n"
        "root 300 1 0 0 0 0 S idle.daemon2 d\n",
        NULL,
    };
    const char *want[] = {
        /* the dump's name: the task column said "<...>" */
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":101,"
        "\"args\":{\"name\":\"RenderThread\"}}",
        /* renamed: the latest sched name */
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":103,"
        "\"args\":{\"name\":\"Decoder\"}}",
        /* only in sched events, process unknown */
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":40,\"tid\":40,"
        "\"args\":{\"name\":\"kworker/0:1\"}}",
        /* only in the dump */
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":102,"
        "\"args\":{\"name\":\"Binder:100_1\"}}",
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":300,\"tid\":301,"
        "\"args\":{\"name\":\"worker pool\"}}",
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":300,\"tid\":300,"
        "\"args\":{\"name\":\"idle.daemon2\"}}",
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":100,\"tid\":100,"
        "\"args\":{\"name\":\"com.example.app\"}}",
        NULL,
    };
    expect_lines(parts, want);
    char *got = convert(parts, 5, NULL);
    assert_null(strstr(got, "\"tid\":0,"));          /* the idle task is no thread */
    assert_null(strstr(got, "<...>"));
    assert_null(strstr(got, "Thread 5"));
    /* and the CPU pseudo process with its "CPU 0" */
    assert_int_equal(count_of(got, "\"process_name\""), 3);
    assert_int_equal(count_of(got, "\"thread_name\""), 6);
    free(got);
}

static void async_and_cpu(void **st)
{
    (void)st;
    const char *parts[] = {
        "systemTraceEvents",
        HDR
        "   a-5  ( 5) [000] ...1 2.000000: tracing_mark_write: S|5|load|1\n"
        "   a-5  ( 5) [000] ...1 2.000001: tracing_mark_write: S|5|load|1\n"
        "   a-5  ( 5) [000] ...1 2.000002: tracing_mark_write: S|6|load|1\n"
        "   a-5  ( 5) [000] ...1 2.000003: tracing_mark_write: F|5|load|1\n"
        "   a-5  ( 5) [000] ...1 2.000004: tracing_mark_write: F|5|other|1\n"
        "   a-5  ( 5) [000] d..2 3.000000: sched_switch: prev_comm=a prev_pid=5 "
        "prev_prio=120 prev_state=S ==> next_comm=b c next_pid=7 next_prio=120\n"
        "   b c-7  ( 7) [000] d..2 3.000500: sched_switch: prev_comm=b c prev_pid=7 "
        "prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
        "   <idle>-0  (-----) [001] d..2 3.000600: cpu_frequency: state=300000 cpu_id=1\n"
        "   <idle>-0  (-----) [001] d..2 3.000700: cpu_idle: state=4294967295 cpu_id=1\n",
        NULL,
    };
    const char *want[] = {
        /* three S get ids 1..3; F pops the latest of its key (id 2) */
        "\"name\":\"load\",\"ph\":\"b\",\"cat\":\"atrace\",\"id\":\"0x1\",\"ts\":2000000,"
        "\"pid\":5,\"tid\":5,\"args\":{\"cookie\":\"1\"}}",
        "\"name\":\"load\",\"ph\":\"b\",\"cat\":\"atrace\",\"id\":\"0x3\",\"ts\":2000002,"
        "\"pid\":6,",
        "\"name\":\"load\",\"ph\":\"e\",\"cat\":\"atrace\",\"id\":\"0x2\",\"ts\":2000003,",
        "{\"name\":\"b c\",\"ph\":\"X\",\"cat\":\"sched\",\"ts\":3000000,\"dur\":500,"
        "\"pid\":1000000000,\"tid\":1000000001,\"args\":{\"tid\":7}}",
        "{\"name\":\"CPU 1 frequency\",\"ph\":\"C\",\"ts\":3000600,\"pid\":1000000000,"
        "\"tid\":1000000000,\"args\":{\"value\":300000}}",
        "{\"name\":\"CPU 1 idle\",\"ph\":\"C\",\"ts\":3000700,\"pid\":1000000000,"
        "\"tid\":1000000000,\"args\":{\"value\":-1}}",
        "\"args\":{\"name\":\"CPUs\"}",
        "\"tid\":1000000001,\"args\":{\"name\":\"CPU 0\"}",
        NULL,
    };
    expect_lines(parts, want);
    struct tevents_stats s;
    char *got = convert(parts, 5, &s);
    assert_int_equal(s.async_begin, 3);
    assert_int_equal(s.async_end, 1);
    assert_int_equal(s.unmatched_end, 1);
    assert_int_equal(s.cpu_slices, 1);
    assert_int_equal(s.cpu_counters, 2);
    assert_null(strstr(got, "swapper"));
    free(got);
}

/* A CPU buffer-started line after events drops what came before it, as
 * the repair's cut does in the HTML; one in the header does nothing. */
static void circular_rewind(void **st)
{
    (void)st;
    const char *parts[] = {
        "systemTraceEvents",
        HDR
        "##### CPU 2 buffer started ####\n"
        "   a-1  ( 1) [000] ...1 1.0: tracing_mark_write: B|1|lost\n"
        "   a-1  ( 1) [000] ...1 1.1: tracing_mark_write: C|1|lostctr|1\n"
        "##### CPU 1 buffer started ####\n"
        "   a-1  ( 1) [000] ...1 1.2: tracing_mark_write: E|1\n"
        "   a-1  ( 1) [000] ...1 1.3: tracing_mark_write: B|1|kept\n"
        "   a-1  ( 1) [000] ...1 1.4: tracing_mark_write: E|1\n",
        NULL,
    };
    for (size_t c = 0; c < sizeof(chunks) / sizeof(*chunks); c++) {
        struct tevents_stats s;
        char *got = convert(parts, chunks[c], &s);
        assert_null(strstr(got, "lost"));
        assert_non_null(strstr(got, "\"name\":\"kept\",\"ph\":\"X\""));
        assert_int_equal(s.resets, 1);
        assert_int_equal(s.slices, 1);
        assert_int_equal(s.counters, 0);
        assert_int_equal(s.unmatched_end, 1);
        assert_string_equal(got + strlen(got) - 2, "}\n");
        assert_true(!strncmp(got, "{\"traceEvents\":[\n{", 18));
        free(got);
    }
}

/* A part that starts over (a dump fetched again after the link dropped):
 * what the first try produced is taken back, not counted as a reset, and
 * the second try converts as if it were the only one. */
static void restart_part(void **st)
{
    (void)st;
    const char *body =
        HDR
        "   a-1  ( 1) [000] ...1 1.3: tracing_mark_write: B|1|kept\n"
        "   a-1  ( 1) [000] ...1 1.4: tracing_mark_write: E|1\n";
    const char *parts[] = {"systemTraceEvents", body, NULL};
    char *want = convert(parts, 1 << 20, NULL);
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct tevents *t = tevents_new(&s);
    tevents_begin_part(t, "systemTraceEvents");
    const char *first = HDR
        "   a-1  ( 1) [000] ...1 1.3: tracing_mark_write: B|1|kept\n"
        "   a-1  ( 1) [000] ...1 1.35: tracing_mark_write: B|1|partial\n"
        "   a-1  ( 1) [000] ...1 1.36: tracing_mark_write: E|1\n"
        "   a-1  ( 1) [000] ...1 1.4: tracing_mar";
    assert_int_equal(tevents_feed(t, first, strlen(first)), ST_OK);
    tevents_restart_part(t);
    assert_int_equal(tevents_feed(t, body, strlen(body)), ST_OK);
    tevents_end_part(t);
    assert_int_equal(tevents_finish(t), ST_OK);
    assert_int_equal(tevents_stats(t)->resets, 0);
    assert_int_equal(tevents_stats(t)->slices, 1);
    tevents_free(t);
    char *got = dynbuf_take(&m.b, NULL);
    assert_null(strstr(got, "partial"));
    assert_string_equal(got, want);
    free(got);
    free(want);
}

/* Threads that leave slices open (130 threads, 510 begins each) keep at
 * most TEV_OPEN_MAX open in all: memory stays flat however long such a
 * trace is.  The begins over the bound are dropped, counted (the user's
 * warning), and their ends too, so the thread that crossed the bound
 * still closes the slices it holds; closing frees room for later begins. */
static void open_bound(void **st)
{
    (void)st;
    enum { NTHR = 130, DEPTH = 510, CROSS = TEV_OPEN_MAX / DEPTH };
    struct dynbuf text;
    char line[160];
    unsigned us = 0;
    dynbuf_init(&text, 16u << 20);
    assert_int_equal(dynbuf_addstr(&text, HDR), ST_OK);
    for (unsigned th = 0; th < NTHR; th++) {
        for (unsigned d = 0; d < DEPTH; d++, us++) {
            snprintf(line, sizeof line, "   t-%u  ( 100) [000] ...1 %u.%06u: "
                     "tracing_mark_write: B|100|s%u\n", 1000 + th, 1 + us / 1000000,
                     us % 1000000, d);
            assert_int_equal(dynbuf_addstr(&text, line), ST_OK);
        }
    }
    for (unsigned d = 0; d < DEPTH; d++, us++) {
        snprintf(line, sizeof line, "   t-%u  ( 100) [000] ...1 %u.%06u: "
                 "tracing_mark_write: E|100\n", 1000 + CROSS, 1 + us / 1000000,
                 us % 1000000);
        assert_int_equal(dynbuf_addstr(&text, line), ST_OK);
    }
    snprintf(line, sizeof line, "   t-9  ( 100) [000] ...1 %u.%06u: "
             "tracing_mark_write: B|100|late\n", 1 + us / 1000000, us % 1000000);
    assert_int_equal(dynbuf_addstr(&text, line), ST_OK);
    const char *parts[] = {"systemTraceEvents", dynbuf_str(&text), NULL};
    struct tevents_stats s;
    char *got = convert(parts, 1 << 20, &s);
    unsigned kept = TEV_OPEN_MAX - CROSS * DEPTH;   /* the crossing thread's */
    assert_int_equal(s.slices, kept);
    assert_int_equal(s.dropped, NTHR * DEPTH - TEV_OPEN_MAX);
    assert_int_equal(s.unclosed, TEV_OPEN_MAX - kept + 1);
    assert_non_null(strstr(got, "{\"name\":\"late\",\"ph\":\"B\""));
    free(got);
    dynbuf_free(&text);
}

/* No ftrace part (a JSON input): still a valid, empty trace. */
static void empty(void **st)
{
    (void)st;
    const char *parts[] = {"traceEvents", "{\"traceEvents\":[]}", NULL};
    struct tevents_stats s;
    char *got = convert(parts, 64, &s);
    assert_true(!strncmp(got, "{\"traceEvents\":[\n],", 19));
    assert_int_equal(s.events, 0);
    free(got);
}

/* A traceEvents part as the Perfetto reader writes it (formats/input/
 * fromfile_pfev.c): the events told as a trusted run (TW_FACT_EVENT_RUN)
 * are copied unread and give the bytes the scan gives, with and without
 * events before them, in any chunking; a run told out of place is
 * ignored. */
static char *convert_run(const char *ftrace, const char *head, const char *events,
                         const char *rest, size_t chunk, int tell, struct tevents_stats *st)
{
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct tevents *t = tevents_new(&s);
    struct tw_tee tee;
    tevents_tee(t, &tee);
    if (ftrace) {
        tee.begin(t, "systemTraceEvents");
        tee.write(t, ftrace, strlen(ftrace));
        tee.end(t);
    }
    tee.begin(t, "traceEvents");
    const char *bits[] = {head, events, rest};
    for (int b = 0; b < 3; b++) {
        size_t n = strlen(bits[b]);
        if (b == tell) {    /* 1: where the writer tells it; 0, 2: out of place */
            struct tw_fact f = {.kind = TW_FACT_EVENT_RUN, .count = 3, .bytes = strlen(events)};
            tee.fact(t, &f);
        }
        for (size_t off = 0; off < n; off += chunk)
            tee.write(t, bits[b] + off, n - off < chunk ? n - off : chunk);
    }
    tee.end(t);
    assert_int_equal(tevents_finish(t), ST_OK);
    *st = *tevents_stats(t);
    tevents_free(t);
    return dynbuf_take(&m.b, NULL);
}

static void event_run(void **st)
{
    (void)st;
    const char *ftrace = HDR "   a-5  ( 5) [000] ...1 2.000000: tracing_mark_write: B|5|x\n";
    const char *head = "{\"traceEvents\":[";
    const char *events = "\n{\"ph\":\"i\",\"name\":\"a,]\\\"\",\"ts\":1.000,\"pid\":1,\"tid\":1}"
                         ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"args\":{\"name\":\"[}\"}}"
                         ",\n{\"ph\":\"C\",\"name\":\"c\",\"ts\":2.000,\"args\":{\"value\":3}}";
    const char *rest = "\n],\n\"stackFrames\":{\n\"1\":{\"name\":\"f\"}\n},\n\"samples\":[\n"
                       "{\"name\":\"s\",\"sf\":\"1\"}\n],\n\"metadata\":{\"clock-domain\":"
                       "\"LINUX_FTRACE_GLOBAL\"}}\n";
    for (int before = 0; before < 2; before++)
        for (size_t c = 0; c < sizeof(chunks) / sizeof(*chunks); c++)
            for (int tell = 0; tell < 3; tell++) {
                struct tevents_stats s1, s2;
                const char *ft = before ? ftrace : NULL;
                char *scanned = convert_run(ft, head, events, rest, chunks[c], -1, &s1);
                char *told = convert_run(ft, head, events, rest, chunks[c], tell, &s2);
                if (strcmp(scanned, told))
                    fail_msg("before %d, chunk %zu, told at %d:\n%s\n--- scanned:\n%s",
                             before, chunks[c], tell, told, scanned);
                assert_int_equal(s1.events, s2.events);
                assert_true(s2.events >= 3);
                free(scanned);
                free(told);
            }
}

/* Threads whose tids share the lookup cache's slot (TEV_THCACHE apart)
 * keep their own names and slices, lines of one between the other's. */
static void thread_cache_collisions(void **st)
{
    (void)st;
    const char *parts[] = {
        "systemTraceEvents",
        HDR
        "   one-100  ( 100) [000] ...1 1.000001: tracing_mark_write: B|100|a\n"
        "   two-356  ( 356) [001] ...1 1.000002: tracing_mark_write: B|356|b\n"
        "   three-612  ( 612) [001] ...1 1.000003: tracing_mark_write: B|612|c\n"
        "   one-100  ( 100) [000] ...1 1.000004: tracing_mark_write: E|100\n"
        "   two-356  ( 356) [001] ...1 1.000006: tracing_mark_write: E|356\n"
        "   three-612  ( 612) [001] ...1 1.000009: tracing_mark_write: E|612\n",
        NULL,
    };
    const char *want[] = {
        "{\"name\":\"a\",\"ph\":\"X\",\"cat\":\"atrace\",\"ts\":1000001,\"dur\":3,"
        "\"pid\":100,\"tid\":100}",
        "{\"name\":\"b\",\"ph\":\"X\",\"cat\":\"atrace\",\"ts\":1000002,\"dur\":4,"
        "\"pid\":356,\"tid\":356}",
        "{\"name\":\"c\",\"ph\":\"X\",\"cat\":\"atrace\",\"ts\":1000003,\"dur\":6,"
        "\"pid\":612,\"tid\":612}",
        "\"pid\":100,\"tid\":100,\"args\":{\"name\":\"one\"}}",
        "\"pid\":356,\"tid\":356,\"args\":{\"name\":\"two\"}}",
        "\"pid\":612,\"tid\":612,\"args\":{\"name\":\"three\"}}",
        NULL,
    };
    expect_lines(parts, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_table),
        cmocka_unit_test(fast_agrees),
        cmocka_unit_test(mark_table),
        cmocka_unit_test(json_text),
        cmocka_unit_test(slices_and_names),
        cmocka_unit_test(names_from_everywhere),
        cmocka_unit_test(async_and_cpu),
        cmocka_unit_test(circular_rewind),
        cmocka_unit_test(restart_part),
        cmocka_unit_test(open_bound),
        cmocka_unit_test(empty),
        cmocka_unit_test(event_run),
        cmocka_unit_test(thread_cache_collisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
