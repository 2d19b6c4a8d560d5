/*
 * Unit tests of the method-trace engine (agents/mtrace*): key-line
 * parsers, content sniffing, the decoder fed in pieces of every size,
 * time unwrapping, JSON escaping, the atrace text form, limits and error
 * offsets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/dynbuf.h"
#include "formats/mtrace/mtrace.h"
#include "formats/mtrace/mtrace_int.h"
#include "formats/mtrace/mtrace_jw.h"

/* ---- building traces in memory ---- */

static void put_le(struct dynbuf *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        assert_int_equal(dynbuf_addc(b, (char)(v >> (8 * i))), ST_OK);
}

static void key(struct dynbuf *b, const char *methods)
{
    dynbuf_init(b, 1u << 28);
    assert_int_equal(dynbuf_printf(b, "*version\n3\nclock=dual\nvm=dalvik\n"
                                   "*threads\n1\tmain\n2\twork er\n"
                                   "*methods\n%s*end\n", methods), ST_OK);
}

static void header(struct dynbuf *b, unsigned version, unsigned rs)
{
    put_le(b, MT_MAGIC, 4);
    put_le(b, version, 2);
    put_le(b, 32, 2);
    put_le(b, 1000, 8);
    put_le(b, rs, 2);
    for (int i = 18; i < 32; i++)
        put_le(b, 0, 1);
}

static void rec(struct dynbuf *b, unsigned tid, uint32_t mv, uint32_t cpu,
                uint32_t wall)
{
    put_le(b, tid, 2);
    put_le(b, mv, 4);
    put_le(b, cpu, 4);
    put_le(b, wall, 4);
}

static const char methods3[] =
    "0x100\tcom/a/A\tfoo\t()V\tA.java\t10\n"
    "0x104\tcom/a/A\tbar\t(I)I\tA.java\t20\n"
    "0x108\tcom.a.B\tbaz\t()V\t\n";

static void sample_trace(struct dynbuf *b)
{
    key(b, methods3);
    header(b, 3, 14);
    rec(b, 1, 0x100, 0, 0);
    rec(b, 1, 0x104, 2, 3);
    rec(b, 2, 0x108, 1, 4);
    rec(b, 1, 0x105, 5, 9);
    rec(b, 2, 0x109, 2, 10);
    rec(b, 1, 0x101, 9, 12);
}

/* Profile text of a memory trace fed in pieces of `chunk` bytes. */
static char *profile_of(const struct dynbuf *b, size_t chunk,
                        enum mtrace_fmt fmt, enum st_err *e, char *err,
                        size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct mtrace_src src = { .data = b->data, .len = b->len,
                              .chunk = chunk };
    struct mtrace_info info;
    *e = mtrace_profile_src(&src, out, fmt, MTRACE_CLOCK_DEFAULT, &info, err,
                            errlen);
    fclose(out);
    return text;
}

/* ---- tests ---- */

static void test_method_lines(void **state)
{
    (void)state;
    struct mt_mline m;
    const char *dalvik = "0x62830738\tandroid/graphics/Bitmap\taccess$100\t"
                         "(I)V\tBitmapF.java\t29";
    assert_int_equal(mt_parse_method_line(dalvik, strlen(dalvik), &m), 0);
    assert_int_equal(m.id, 0x62830738u);
    assert_int_equal(m.nf, 5);
    assert_int_equal(m.n[4], 2);
    assert_memory_equal(m.f[2], "(I)V", 4);

    const char *art = "0x1c\tcom.x.Y\tfoo\t()V\t";
    assert_int_equal(mt_parse_method_line(art, strlen(art), &m), 0);
    assert_int_equal(m.id, 0x1c);
    assert_int_equal(m.nf, 4);
    assert_int_equal(m.n[3], 0);            /* empty source file */

    assert_int_equal(mt_parse_method_line("0\tmain", 6, &m), 0);
    assert_int_equal(m.id, 0);
    assert_int_equal(m.nf, 1);

    assert_int_equal(mt_parse_method_line("010\tx", 5, &m), 0);
    assert_int_equal(m.id, 8);              /* strtoul base 0: octal */
    assert_int_equal(mt_parse_method_line("0x\tx", 4, &m), -1);
    assert_int_equal(mt_parse_method_line("12z\tx", 5, &m), -1);
    assert_int_equal(mt_parse_method_line("0x100", 5, &m), -1);
    assert_int_equal(mt_parse_method_line("0x100000000\tx", 13, &m), -1);
}

static void test_thread_lines(void **state)
{
    (void)state;
    uint32_t id;
    const char *name;
    size_t n;
    assert_int_equal(mt_parse_thread_line("13705\tmain thread", 17, &id,
                                          &name, &n), 0);
    assert_int_equal(id, 13705);
    assert_int_equal(n, 11);
    assert_memory_equal(name, "main thread", 11);
    assert_int_equal(mt_parse_thread_line("7", 1, &id, &name, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(mt_parse_thread_line("x\tmain", 6, &id, &name, &n), -1);
    assert_int_equal(mt_parse_thread_line("\tmain", 5, &id, &name, &n), -1);
}

static void test_detect(void **state)
{
    (void)state;
    assert_true(mtrace_detect("*version\n3\n", 11));
    assert_false(mtrace_detect("*versionX", 9));
    assert_true(mtrace_detect("SLOW\xf3\x00", 6));
    assert_true(mtrace_detect("SLOW\x03\x00", 6));
    assert_false(mtrace_detect("SLOW\x0a\x64", 6));
    assert_false(mtrace_detect("SLO", 3));
    assert_false(mtrace_detect("# tracer: nop\n", 14));
    assert_string_equal(mtrace_sniff_other("SIMPLEPERF", 10),
                        "a simpleperf recording");
    assert_string_equal(mtrace_sniff_other("# tracer: nop", 13),
                        "an atrace/ftrace text capture");
    assert_null(mtrace_sniff_other("hello", 5));
    /* a text file that starts with a blank line (a --method-profile
     * report) is not a Perfetto trace; protobuf bytes are */
    assert_null(mtrace_sniff_other("\n=====\nTotal cycles: 300\n", 25));
    assert_non_null(mtrace_sniff_other("\n\x02\x08\x01\n\x00", 6));
}

/* Every split of the input gives the same output. */
static void test_feed_any_split(void **state)
{
    (void)state;
    struct dynbuf b;
    char err[200];
    enum st_err e;
    sample_trace(&b);
    char *whole = profile_of(&b, 0, MTRACE_FMT_TSV, &e, err, sizeof(err));
    assert_int_equal(e, ST_OK);
    assert_non_null(strstr(whole, "method\t1\t\t1\t0\t9\t"));
    for (size_t chunk = 1; chunk < 40; chunk++) {
        char *part = profile_of(&b, chunk, MTRACE_FMT_TSV, &e, err,
                                sizeof(err));
        assert_int_equal(e, ST_OK);
        assert_string_equal(part, whole);
        free(part);
    }
    free(whole);
    dynbuf_free(&b);
}

static void test_profile_numbers(void **state)
{
    (void)state;
    struct dynbuf b;
    char err[200];
    enum st_err e;
    sample_trace(&b);
    char *text = profile_of(&b, 0, MTRACE_FMT_TEXT, &e, err, sizeof(err));
    assert_int_equal(e, ST_OK);
    /* thread 1: 9 µs, thread 2: 1 µs */
    assert_non_null(strstr(text, "Total cycles: 10\n"));
    /* bar: 2..5 inclusive 3, exclusive 3; its ART-style sibling clean */
    assert_non_null(strstr(text, "        3   30.00"));
    assert_non_null(strstr(text, "com.a.B.baz ()V\n"));
    free(text);
    dynbuf_free(&b);
}

static void test_unwrap(void **state)
{
    (void)state;
    struct mt_threads ts;
    struct mt_tables t = { .ncol = 2, .col_clock = { MT_CLK_CPU,
                                                     MT_CLK_WALL } };
    struct mt_thread *a, *c;
    int64_t out[2];
    assert_int_equal(mt_threads_init(&ts), ST_OK);
    mt_threads_setup(&ts, &t);
    assert_int_equal(mt_thread_get(&ts, 1, &a), ST_OK);
    assert_int_equal(mt_thread_get(&ts, 40000, &c), ST_OK);
    uint32_t r1[2] = { 0xFFFFFFF0u, 0xFFFFFF00u };
    mt_thread_times(&ts, a, r1, out);
    assert_int_equal(out[0], 0xFFFFFFF0ll);
    uint32_t r2[2] = { 0x10, 0x20 };            /* both wrapped */
    mt_thread_times(&ts, a, r2, out);
    assert_int_equal(out[0], 0x100000010ll);
    assert_int_equal(out[1], 0x100000020ll);
    /* another thread's first wall time after the wrap joins the epoch */
    uint32_t r3[2] = { 5, 0x30 };
    mt_thread_times(&ts, c, r3, out);
    assert_int_equal(out[0], 5);                /* own CPU base */
    assert_int_equal(out[1], 0x100000030ll);
    /* a small step back is clamped, not unwrapped forward */
    uint32_t r4[2] = { 4, 0x2f };
    mt_thread_times(&ts, c, r4, out);
    assert_int_equal(out[0], 5);
    assert_int_equal(out[1], 0x100000030ll);
    mt_threads_free(&ts);
}

struct sink_buf {
    struct dynbuf b;
    int fail_after;
};

static int sink_write(void *ctx, const void *p, size_t n)
{
    struct sink_buf *s = ctx;
    if (s->fail_after >= 0 && s->b.len + n > (size_t)s->fail_after)
        return -1;
    return dynbuf_add(&s->b, p, n) == ST_OK ? 0 : -1;
}

static void test_json_escape(void **state)
{
    (void)state;
    struct dynbuf b;
    dynbuf_init(&b, 1024);
    const char in[] = "a\"b\\c\n\x01\xc3\xa9\xff\xe2\x80\xa1\xed\xa0\x80<i>";
    assert_int_equal(mt_json_escape(&b, in, sizeof(in) - 1), ST_OK);
    assert_string_equal(dynbuf_str(&b), "a\\\"b\\\\c\\n\\u0001\xc3\xa9"
                        "\\ufffd\xe2\x80\xa1\\ufffd\\ufffd\\ufffd\\u003ci>");
    dynbuf_free(&b);
}

static void test_json_events(void **state)
{
    (void)state;
    struct dynbuf t;
    struct sink_buf s = { .fail_after = -1 };
    char err[200];
    sample_trace(&t);
    dynbuf_init(&s.b, 1u << 20);
    struct mtrace_src src = { .data = t.data, .len = t.len, .chunk = 5 };
    struct mtrace_json_opts o = { .pid = 77, .tid_base = 1000 };
    assert_int_equal(mtrace_to_trace_events_src(&src, &o, sink_write, &s,
                                                NULL, err, sizeof(err)),
                     ST_OK);
    const char *j = dynbuf_str(&s.b);
    assert_non_null(strstr(j, "{\"ph\":\"M\",\"pid\":77,\"tid\":1002,"
                           "\"name\":\"thread_name\",\"args\":{\"name\":"
                           "\"work er\"}}"));
    assert_non_null(strstr(j, "{\"ph\":\"B\",\"pid\":77,\"tid\":1001,"
                           "\"ts\":1003,\"tts\":2,\"cat\":\"art_method\","
                           "\"name\":\"A.bar\",\"args\":{\"class\":"
                           "\"com/a/A\",\"signature\":\"(I)I\",\"file\":"
                           "\"A.java\",\"line\":20}}"));
    assert_non_null(strstr(j, "{\"ph\":\"E\",\"pid\":77,\"tid\":1002,"
                           "\"ts\":1010,\"tts\":2}"));
    assert_non_null(strstr(j, "\"displayTimeUnit\":\"ms\""));
    /* depth limit, no args, relative and shifted time, names */
    dynbuf_reset(&s.b);
    struct mtrace_json_opts o2 = { .max_depth = 1, .no_args = 1,
                                   .relative = 1, .ts_shift_us = -1,
                                   .process_name = "app",
                                   .thread_suffix = " (methods)" };
    assert_int_equal(mtrace_to_trace_events_src(&src, &o2, sink_write, &s,
                                                NULL, err, sizeof(err)),
                     ST_OK);
    j = dynbuf_str(&s.b);
    assert_non_null(strstr(j, "\"args\":{\"name\":\"app\"}"));
    assert_non_null(strstr(j, "\"args\":{\"name\":\"main (methods)\"}"));
    assert_non_null(strstr(j, "{\"ph\":\"B\",\"pid\":1,\"tid\":1,"
                           "\"ts\":-1,\"tts\":0,\"cat\":\"art_method\","
                           "\"name\":\"A.foo\"}"));
    assert_null(strstr(j, "A.bar"));        /* depth 2: left out */
    assert_null(strstr(j, "signature"));
    /* a failing writer ends the run with ST_EIO and a message */
    dynbuf_reset(&s.b);
    s.fail_after = 100;
    assert_int_equal(mtrace_to_trace_events_src(&src, NULL, sink_write, &s,
                                                NULL, err, sizeof(err)),
                     ST_EIO);
    assert_string_equal(err, "cannot write the output");
    dynbuf_free(&s.b);
    dynbuf_free(&t);
}

struct part_log {
    struct sink_buf *s;
    char names[64];
};

static int part_sink(void *ctx, const char *name)
{
    struct part_log *l = ctx;
    size_t n = strlen(l->names);
    snprintf(l->names + n, sizeof(l->names) - n, "%s;", name);
    return dynbuf_addstr(&l->s->b, "|PART|") != ST_OK;
}

static int part_write(void *ctx, const void *p, size_t n)
{
    struct part_log *l = ctx;
    return sink_write(l->s, p, n);
}

/* The atrace text form: a process dump, the ftrace header, B/E lines on
 * each thread's track; names that would break a line are made safe; a
 * shift before 0 is clamped and counted. */
static void test_atrace_text(void **state)
{
    (void)state;
    struct dynbuf t;
    struct sink_buf s = { .fail_after = -1 };
    struct part_log l = { .s = &s };
    struct mtrace_info info;
    char err[200];
    key(&t, "0x100\tcom/a/A\tf|o\\n\t()V\tA.java\t10\n"
            "0x104\tcom/a/A\tb\xe2\x80\xa8r\x01\xff\t(I)I\tA.java\t20\n"
            "0x108\tcom.a.B\tbaz\t()V\t\n");
    header(&t, 3, 14);
    rec(&t, 1, 0x100, 0, 0);
    rec(&t, 1, 0x104, 2, 3);
    rec(&t, 2, 0x108, 1, 4);
    rec(&t, 1, 0x105, 5, 9);
    rec(&t, 2, 0x109, 2, 10);
    rec(&t, 1, 0x101, 9, 2000012);
    dynbuf_init(&s.b, 1u << 20);
    struct mtrace_src src = { .data = t.data, .len = t.len, .chunk = 7 };
    struct mtrace_json_opts o = { .pid = 77, .tid_base = 1000,
                                  .process_name = "com.x app",
                                  .thread_suffix = " (methods)" };
    assert_int_equal(mtrace_to_atrace_src(&src, &o, part_sink, part_write, &l,
                                          &info, err, sizeof(err)), ST_OK);
    assert_string_equal(l.names, "androidProcessDump;systemTraceEvents;");
    const char *x = dynbuf_str(&s.b);
    assert_true(!strncmp(x, "|PART|PROCESS DUMP\nUSER ", 24));
    assert_non_null(strstr(x, "\napp       77     0       0      0 0                 0 S "
                              "com.x-app com.x-app\n|PART|# tracer: nop\n"));
    assert_non_null(strstr(x, "\nmain (methods)-1001 (77) [000] ...1 0.001000: "
                              "tracing_mark_write: B|77|A.f\xc2\xa6o\\n\n"));
    assert_non_null(strstr(x, "\nmain (methods)-1001 (77) [000] ...1 0.001003: "
                              "tracing_mark_write: B|77|A.b\xef\xbf\xbdr"
                              "\xef\xbf\xbd\xef\xbf\xbd\n"));
    assert_non_null(strstr(x, "\nwork er (methods)-1002 (77) [000] ...1 0.001004: "
                              "tracing_mark_write: B|77|B.baz\n"));
    assert_non_null(strstr(x, "\nwork er (methods)-1002 (77) [000] ...1 0.001010: "
                              "tracing_mark_write: E|77\n"));
    assert_non_null(strstr(x, "\nmain (methods)-1001 (77) [000] ...1 2.001012: "
                              "tracing_mark_write: E|77\n"));
    assert_int_equal(info.clamped, 0);
    /* no part callback: the text alone; times before 0 become 0 */
    dynbuf_reset(&s.b);
    struct mtrace_json_opts o2 = { .ts_shift_us = -1005 };
    assert_int_equal(mtrace_to_atrace_src(&src, &o2, NULL, sink_write, &s,
                                          &info, err, sizeof(err)), ST_OK);
    x = dynbuf_str(&s.b);
    assert_true(!strncmp(x, "# tracer: nop\n#\n", 16));
    assert_non_null(strstr(x, "\nmain-1 (1) [000] ...1 0.000000: "
                              "tracing_mark_write: B|1|A.f\xc2\xa6o\\n\n"));
    assert_non_null(strstr(x, "\nwork er-2 (1) [000] ...1 0.000000: "
                              "tracing_mark_write: B|1|B.baz\n"));
    assert_non_null(strstr(x, "\nwork er-2 (1) [000] ...1 0.000005: "
                              "tracing_mark_write: E|1\n"));
    assert_int_equal(info.clamped, 3);
    assert_true(info.warnings & MTRACE_W_CLAMPED);
    dynbuf_free(&s.b);
    dynbuf_free(&t);
}

static void expect_error(struct dynbuf *b, enum st_err want, const char *msg)
{
    char err[200];
    enum st_err e;
    char *text = profile_of(b, 3, MTRACE_FMT_TEXT, &e, err, sizeof(err));
    assert_int_equal(e, want);
    assert_string_equal(err, msg);
    free(text);
}

static void test_errors(void **state)
{
    (void)state;
    struct dynbuf b;
    key(&b, methods3);
    size_t klen = b.len;
    char msg[120];
    snprintf(msg, sizeof(msg), "key section only, no data after *end at "
             "offset %zu", klen);
    expect_error(&b, ST_ENOTRACE, msg);
    header(&b, 2, 14);
    snprintf(msg, sizeof(msg), "data version 2 at offset %zu does not match "
             "the key's version 3", klen + 4);
    expect_error(&b, ST_EFORMAT, msg);
    b.len = klen;
    header(&b, 3, 9);
    snprintf(msg, sizeof(msg), "bad record size 9 in data header at offset "
             "%zu (binary data mangled?)", klen + 16);
    expect_error(&b, ST_EFORMAT, msg);
    b.len = klen + 10;
    snprintf(msg, sizeof(msg), "truncated data header at offset %zu", klen);
    expect_error(&b, ST_ETRUNCATED, msg);
    dynbuf_free(&b);

    dynbuf_init(&b, 100);
    assert_int_equal(dynbuf_addstr(&b, "*version\n3\n*bogus\n"), ST_OK);
    expect_error(&b, ST_EFORMAT, "unknown key section '*bogus' at offset 11");
    dynbuf_free(&b);
}

static void test_depth_limit(void **state)
{
    (void)state;
    struct dynbuf b;
    key(&b, methods3);
    header(&b, 3, 14);
    size_t first = b.len;
    for (uint32_t i = 0; i <= MTRACE_MAX_DEPTH; i++)
        rec(&b, 1, 0x100, i, i);
    char msg[120];
    snprintf(msg, sizeof(msg), "call stack deeper than %u frames on thread 1 "
             "at offset %zu", MTRACE_MAX_DEPTH,
             first + 14 * (size_t)MTRACE_MAX_DEPTH);
    char err[200];
    enum st_err e;
    free(profile_of(&b, 0, MTRACE_FMT_TEXT, &e, err, sizeof(err)));
    assert_int_equal(e, ST_ETOOBIG);
    assert_string_equal(err, msg);
    dynbuf_free(&b);
}

static void test_unknown_and_fill(void **state)
{
    (void)state;
    struct dynbuf b;
    char err[200];
    enum st_err e;
    key(&b, methods3);
    header(&b, 3, 14);
    rec(&b, 1, 0x200, 0, 0);                /* not in the table */
    rec(&b, 1, 0x201, 4, 4);
    size_t fill = b.len;
    rec(&b, 0xEEEE, 0xEEEEEEEE, 0xEEEEEEEE, 0xEEEEEEEE);
    rec(&b, 1, 0x100, 5, 5);                /* after the fill: ignored */
    struct mtrace_info info;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct mtrace_src src = { .data = b.data, .len = b.len };
    e = mtrace_profile_src(&src, out, MTRACE_FMT_TEXT, MTRACE_CLOCK_WALL,
                           &info, err, sizeof(err));
    fclose(out);
    assert_int_equal(e, ST_OK);
    assert_int_equal(info.records, 2);
    assert_true(info.warnings & MTRACE_W_FILL);
    assert_true(info.warnings & MTRACE_W_UNKNOWN);
    assert_int_equal(info.warn_offset, fill);
    assert_non_null(strstr(text, "[1] (unknown)\n"));
    free(text);
    (void)profile_of;
    dynbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_method_lines),
        cmocka_unit_test(test_thread_lines),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_feed_any_split),
        cmocka_unit_test(test_profile_numbers),
        cmocka_unit_test(test_unwrap),
        cmocka_unit_test(test_json_escape),
        cmocka_unit_test(test_json_events),
        cmocka_unit_test(test_atrace_text),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_unknown_and_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
