/* Unit tests for the line repairs (formats/atrace/repair.c, tgidmap.c): catapult's
 * TGID fixture from the corpus, the circular-buffer cut including its
 * corner cases, and the watched text, each fed in several chunk sizes. */
#include "testutil.h"

#include "formats/atrace/repair.h"

static char *repair_all(const struct repair_opts *o, const char *in, size_t n,
                        size_t chunk, size_t *outlen)
{
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct repair *r = repair_new(o, &s);
    for (size_t off = 0; off < n; off += chunk)
        assert_int_equal(repair_feed(r, in + off, n - off < chunk ? n - off : chunk), ST_OK);
    assert_int_equal(repair_finish(r), ST_OK);
    repair_free(r);
    return dynbuf_take(&m.b, outlen);
}

static void expect(const struct repair_opts *o, const char *in, const char *want)
{
    static const size_t chunks[] = {1, 2, 5, 13, 4096};
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        size_t n;
        char *out = repair_all(o, in, strlen(in), chunks[i], &n);
        if (n != strlen(want) || memcmp(out, want, n))
            fail_msg("chunk %zu:\n--- got:\n%.*s\n--- want:\n%s", chunks[i], (int)n, out,
                     want);
        free(out);
    }
}

static struct tgid_map *corpus_map(void)
{
    const char *p = tu_corpus("atrace/systrace_test_data/atrace_procfs_dump");
    if (!p)
        return NULL;
    size_t n;
    char *s = tu_read(p, &n);
    for (size_t i = 0; i < n; i++)      /* the fixture has one path per line */
        if (s[i] == '\n')
            s[i] = ' ';
    struct tgid_map *m = tgid_map_new();
    assert_int_equal(tgid_map_parse(m, s, n), ST_OK);
    free(s);
    return m;
}

static void tgid_corpus(void **st)
{
    (void)st;
    struct tgid_map *m = corpus_map();
    if (!m)
        skip();
    /* the first item lacks its leading '/', catapult ignores it */
    assert_int_equal(tgid_map_get(m, 1), 0);
    size_t in_n, want_n;
    char *in = tu_read(tu_corpus("atrace/systrace_test_data/atrace_missing_tgids"), &in_n);
    char *want = tu_read(tu_corpus("atrace/systrace_test_data/atrace_fixed_tgids"), &want_n);
    struct repair_opts o = {.tgids = m};
    static const size_t chunks[] = {1, 7, 100, 1 << 20};
    for (size_t i = 0; i < 4; i++) {
        size_t n;
        char *out = repair_all(&o, in, in_n, chunks[i], &n);
        assert_int_equal(n, want_n);
        assert_memory_equal(out, want, n);
        free(out);
    }
    free(in);
    free(want);
    tgid_map_free(m);
}

static void tgid_rules(void **st)
{
    (void)st;
    struct tgid_map *m = tgid_map_new();
    const char *listing = "/proc/100/task/100 /proc/100/task/101 junk /proc/7/task/8x\n"
                          "/proc/9/task/9";
    assert_int_equal(tgid_map_parse(m, listing, strlen(listing)), ST_OK);
    assert_int_equal(tgid_map_get(m, 101), 100);
    assert_int_equal(tgid_map_get(m, 8), 7);      /* regex only anchors the start */
    assert_int_equal(tgid_map_get(m, 9), 0);      /* only line 0 counts */
    struct repair_opts o = {.tgids = m};
    expect(&o,
           "# tracer\n"
           "   Binder-101  (-----) [001] ...1 5.0: x\n"     /* fixed, indent lost */
           "\n  \n"
           "  a-b-100 (-----) [001] 5.1: y\n"              /* blank lines swallowed */
           "  <idle>-101 (-----) [000] 5.2: z\n"           /* <idle> kept */
           "  t-0 (-----) [000] 5.3: z\n"                  /* tid 0 kept */
           "  t-555 (-----) [000] 5.4: z\n"                /* unknown tid kept */
           "  t-101 ( 100) [000] 5.5: z\n"                 /* already set */
           "  t-101 (-------) [000] 5.6: z\n"              /* 7 dashes: not fixed */
           "\n"
           "  t-999 (-----) [000] 5.7: z\n",               /* blank kept: no fix */
           "# tracer\n"
           "Binder-101 ( 100) [001] ...1 5.0: x\n"
           "a-b-100 ( 100) [001] 5.1: y\n"
           "  <idle>-101 (-----) [000] 5.2: z\n"
           "  t-0 (-----) [000] 5.3: z\n"
           "  t-555 (-----) [000] 5.4: z\n"
           "  t-101 ( 100) [000] 5.5: z\n"
           "  t-101 (-------) [000] 5.6: z\n"
           "\n"
           "  t-999 (-----) [000] 5.7: z\n");
    tgid_map_free(m);
}

static const struct repair_opts circ = {.circular = 1};

static void circular_cut(void **st)
{
    (void)st;
    expect(&circ,
           "# tracer: nop\n#\n"
           "  a-1 [000] 1.0: old\n"
           "##### CPU 1 buffer started ####\n"
           "  a-1 [001] 2.0: mid\n"
           "##### CPU 0 buffer started ####\n"
           "  a-1 [000] 3.0: new\n",
           "# tracer: nop\n#\n"
           "##### CPU 0 buffer started ####\n"
           "  a-1 [000] 3.0: new\n");
}

/* Only a '#' that starts a line can be a marker: the hop from '#' to '#'
 * must pass over those inside event text, and over a marker's look-alike
 * that is not at a line start. */
static void circular_hash_inside_lines(void **st)
{
    (void)st;
    const char *in =
           "# tracer: nop\n#\n"
           "  a-1 [000] 1.0: tracing_mark_write: B|1|a#b\n"
           "##### CPU 1 buffer started ####\n"
           "  a-1 [001] 2.0: mid #\n"
           "#\n"
           "  a-1 [000] 2.5: tracing_mark_write: E|1 ##\n"
           "##### CPU 0 buffer started ####\n"
           "  a-1 [000] 3.0: new # \n"
           "  a-1 [000] 3.1: x ##### CPU 1 buffer started ####\n";
    const char *want =
           "# tracer: nop\n#\n"
           "##### CPU 0 buffer started ####\n"
           "  a-1 [000] 3.0: new # \n"
           "  a-1 [000] 3.1: x ##### CPU 1 buffer started ####\n";
    /* every chunk size: the hop runs on lines whole in a later chunk */
    for (size_t chunk = 1; chunk <= strlen(in); chunk++) {
        size_t n;
        char *out = repair_all(&circ, in, strlen(in), chunk, &n);
        if (n != strlen(want) || memcmp(out, want, n))
            fail_msg("chunk %zu:\n%.*s", chunk, (int)n, out);
        free(out);
    }
}

static void circular_none(void **st)
{
    (void)st;
    const char *t = "# tracer: nop\n  a-1 [000] 1.0: x\n  a-1 [000] 2.0: y";
    expect(&circ, t, t);
}

/* catapult's slicing repeats a marker that sits inside the header */
static void circular_marker_in_header(void **st)
{
    (void)st;
    expect(&circ,
           "# tracer: nop\n##### CPU 1 buffer started ####\n  a-1 [001] 1.0: x\n",
           "# tracer: nop\n##### CPU 1 buffer started ####\n"
           "##### CPU 1 buffer started ####\n  a-1 [001] 1.0: x\n");
}

/* a marker on the very first line is never found (search starts at 1) */
static void circular_marker_first_line(void **st)
{
    (void)st;
    const char *t = "## CPU 3 buffer started\n  a-1 [001] 1.0: x\n";
    expect(&circ, t, t);
}

/* an empty line ends the header */
static void circular_empty_line_ends_header(void **st)
{
    (void)st;
    expect(&circ,
           "# h\n\n# x\n  a-1 [0] 1.0: e\n# CPU 2 buffer started\n  b-2 [2] 2.0: f\n",
           "# h\n# CPU 2 buffer started\n  b-2 [2] 2.0: f\n");
}

static void header_added_to_bare_events(void **st)
{
    (void)st;
    struct repair_opts o = {.circular = 1, .add_header = 1};
    size_t n;
    const char *in = "  app-42 ( 42) [000] 1.0: tracing_mark_write: B|42|work\n";
    char *out = repair_all(&o, in, strlen(in), 3, &n);
    assert_true(n > strlen(in));
    assert_memory_equal(out, "# tracer: nop\n", 14);
    assert_non_null(strstr(out, "TASK-PID"));
    assert_memory_equal(out + n - strlen(in), in, strlen(in));
    free(out);
}

/* A header without the column line (only `# tracer: nop`, as traceconv
 * writes) gets it before the first event, matching the event's columns;
 * comments first get `# tracer: nop` above them; a full header is kept. */
#define COLS_TGID "#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n" \
                  "#              | |        |      |   ||||       |         |\n"
#define COLS_PLAIN "#\n#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n" \
                   "#              | |       |   ||||       |         |\n"
#define EV_TGID "  app-42 ( 42) [000] ...1 1.0: tracing_mark_write: B|42|work\n"
#define EV_PLAIN "  app-42 [000] ...1 1.0: tracing_mark_write: B|42|work\n"
static void column_header_added(void **st)
{
    (void)st;
    struct repair_opts o = {.circular = 1, .add_header = 1};
    expect(&o, "# tracer: nop\n" EV_TGID, "# tracer: nop\n" COLS_TGID EV_TGID);
    expect(&o, "# tracer: nop\n#\n\n" EV_PLAIN, "# tracer: nop\n#\n\n" COLS_PLAIN EV_PLAIN);
    expect(&o, "# a script's note\n" EV_TGID,
           "# tracer: nop\n# a script's note\n" COLS_TGID EV_TGID);
    const char *full = "# tracer: nop\n" COLS_TGID EV_TGID "# tracer: later\n" EV_TGID;
    expect(&o, full, full);
    struct repair_opts keep = {.circular = 1};
    expect(&keep, "# tracer: nop\n" EV_TGID, "# tracer: nop\n" EV_TGID);
}

/* lines longer than the examined prefix stream through intact */
static void long_lines(void **st)
{
    (void)st;
    size_t big = REPAIR_PREFIX_MAX * 3 + 17;
    char *in = malloc(big + 64);
    memcpy(in, "# tracer\n", 9);
    memset(in + 9, 'x', big);
    memcpy(in + 9 + big, "\n# CPU 1 buffer started\nz\n", 27);
    struct repair_opts o = {.circular = 1};
    size_t n;
    char *out = repair_all(&o, in, strlen(in), 1000, &n);
    assert_string_equal(out, "# tracer\n# CPU 1 buffer started\nz\n");
    free(out);
    in[9 + big] = '\0';
    out = repair_all(&o, in, strlen(in), 999, &n);
    assert_int_equal(n, 9 + big);
    free(out);
    free(in);
}

/* The watched text is found wherever the chunks happen to split it, and
 * only when it is really there. */
static void watch_across_chunks(void **st)
{
    (void)st;
    static const char in[] =
        "# tracer: nop\n#\n"
        "  a-1 [000] d..2  1.000000: tracing_mark_write: trace_event_clock_sync: name=0f1e2d3c\n"
        "  a-1 [000] d..2  1.000001: e: x\n";
    struct repair_opts o = {.watch = "name=0f1e2d3c"};
    struct repair_opts miss = {.watch = "name=0f1e2d3d"};
    for (size_t chunk = 1; chunk <= sizeof(in); chunk++) {
        struct memsink m;
        struct text_sink s;
        ms_init(&m, &s);
        struct repair *r = repair_new(&o, &s), *r2 = repair_new(&miss, &s);
        for (size_t off = 0; off < sizeof(in) - 1; off += chunk) {
            size_t k = sizeof(in) - 1 - off < chunk ? sizeof(in) - 1 - off : chunk;
            assert_int_equal(repair_feed(r, in + off, k), ST_OK);
            assert_int_equal(repair_feed(r2, in + off, k), ST_OK);
        }
        if (!repair_watch_seen(r) || repair_watch_seen(r2))
            fail_msg("chunk %zu: seen %d, the other %d", chunk, repair_watch_seen(r),
                     repair_watch_seen(r2));
        repair_free(r);
        repair_free(r2);
        size_t n;
        free(dynbuf_take(&m.b, &n));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tgid_corpus),
        cmocka_unit_test(tgid_rules),
        cmocka_unit_test(circular_cut),
        cmocka_unit_test(circular_hash_inside_lines),
        cmocka_unit_test(circular_none),
        cmocka_unit_test(circular_marker_in_header),
        cmocka_unit_test(circular_marker_first_line),
        cmocka_unit_test(circular_empty_line_ends_header),
        cmocka_unit_test(header_added_to_bare_events),
        cmocka_unit_test(column_header_added),
        cmocka_unit_test(long_lines),
        cmocka_unit_test(watch_across_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
