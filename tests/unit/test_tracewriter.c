/* Unit tests for the result writer's block splitting (formats/html/tracewriter.c):
 * ftrace parts fed through the real repair stage (circular-buffer cut
 * included) in several chunk and split sizes must read back, with the
 * split tags and replayed headers taken out, exactly as the unsplit
 * output; blocks stay near the split size; splits happen only at line
 * ends and never inside the header; consecutive ftrace parts are joined;
 * the tee sees every part and byte; JSON output is never split; a part
 * restarted after a failed first try (a dump fetched again) reads as if
 * the first try never happened, in the file and in the tee. */
#include "testutil.h"

#include <unistd.h>

#include "formats/atrace/repair.h"
#include "formats/html/tracewriter.h"

#define OPEN "  <script class=\"trace-data\" type=\"application/text\">\n"
#define SPLIT "# </SCRIPT>" OPEN
#define CLOSE "  </script>\n"

static char tmpdir[64];

static int setup(void **st)
{
    (void)st;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_tw.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char p[128];
    snprintf(p, sizeof(p), "%s/out.html", tmpdir);
    unlink(p);
    return rmdir(tmpdir);
}

static struct viewer fake_viewer(void)
{
    struct viewer v;
    memset(&v, 0, sizeof(v));
    v.html = "<!-- viewer -->";
    v.html_len = strlen(v.html);
    v.js = "/* js */";
    v.js_len = strlen(v.js);
    return v;
}

struct part {
    const char *name;
    const char *text;
    int repair;         /* through the repair stage (ftrace parts) */
    const char *first_try;  /* written first, then tw_restart_part */
};

struct teelog {
    struct dynbuf names, bytes;
    int begins, ends, restarts;
    size_t part_at;     /* bytes.len when the part began */
};

static void tee_begin(void *ctx, const char *name)
{
    struct teelog *t = ctx;
    t->begins++;
    t->part_at = t->bytes.len;
    dynbuf_printf(&t->names, "%s;", name);
}

static void tee_restart(void *ctx)
{
    struct teelog *t = ctx;
    t->restarts++;
    t->bytes.len = t->part_at;
}

static void tee_write(void *ctx, const void *p, size_t n)
{
    dynbuf_add(&((struct teelog *)ctx)->bytes, p, n);
}

static void tee_end(void *ctx)
{
    ((struct teelog *)ctx)->ends++;
}

/* Write the parts; returns the text between BEGIN TRACE and END TRACE. */
static char *write_parts(const struct part *parts, int n, enum tw_format fmt,
                         uint64_t split, size_t chunk, int *splits, struct teelog *tee)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/out.html", tmpdir);
    struct viewer v = fake_viewer();
    struct tracewriter *w;
    assert_int_equal(tw_open(path, fmt, &v, &w), ST_OK);
    tw_set_split(w, split);
    struct tw_tee t = {tee_begin, tee_write, tee_end, tee_restart, tee, NULL};
    if (tee)
        tw_set_tee(w, &t);
    for (int i = 0; i < n; i++) {
        assert_int_equal(tw_begin(w, parts[i].name), ST_OK);
        struct text_sink s;
        tw_text_sink(w, &s);
        struct repair_opts ro = {.circular = 1, .add_header = 1};
        if (parts[i].first_try) {
            struct repair *r0 = repair_new(&ro, &s);
            assert_int_equal(repair_feed(r0, parts[i].first_try,
                                         strlen(parts[i].first_try)), ST_OK);
            repair_free(r0);        /* the try broke off: never finished */
            assert_int_equal(tw_restart_part(w), ST_OK);
        }
        struct repair *r = parts[i].repair ? repair_new(&ro, &s) : NULL;
        size_t len = strlen(parts[i].text);
        for (size_t off = 0; off < len; off += chunk) {
            size_t k = len - off < chunk ? len - off : chunk;
            if (r)
                assert_int_equal(repair_feed(r, parts[i].text + off, k), ST_OK);
            else
                assert_int_equal(tw_write(w, parts[i].text + off, k), ST_OK);
        }
        if (r)
            assert_int_equal(repair_finish(r), ST_OK);
        repair_free(r);
        assert_int_equal(tw_end(w), ST_OK);
    }
    if (splits)
        *splits = tw_splits(w);
    assert_int_equal(tw_commit(w), ST_OK);
    tw_free(w);
    size_t len;
    char *all = tu_read(path, &len);
    assert_non_null(all);
    if (fmt == TW_JSON)
        return all;
    char *b = strstr(all, "<!-- BEGIN TRACE -->\n");
    char *e = strstr(all, "<!-- END TRACE -->\n");
    assert_non_null(b);
    assert_non_null(e);
    b += strlen("<!-- BEGIN TRACE -->\n");
    char *out = strndup(b, (size_t)(e - b));
    free(all);
    return out;
}

static size_t count(const char *s, const char *pat)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, pat)); p += strlen(pat))
        n++;
    return n;
}

/* Remove every split tag and the header replayed after it; the largest
 * block and the smallest one that a split ended. */
static char *desplit(const char *s, const char *header, size_t *blocks_max,
                     size_t *split_min)
{
    struct dynbuf b;
    dynbuf_init(&b, 1u << 30);
    size_t big = 0, small = SIZE_MAX;
    const char *p = s;
    for (;;) {
        const char *q = strstr(p, SPLIT);
        const char *end = q ? q : p + strlen(p);
        if ((size_t)(end - p) > big)
            big = (size_t)(end - p);
        if (q && (size_t)(end - p) < small)
            small = (size_t)(end - p);
        dynbuf_add(&b, p, (size_t)(end - p));
        if (!q)
            break;
        p = q + strlen(SPLIT);
        size_t hl = strlen(header);
        if (strncmp(p, header, hl))
            fail_msg("no replayed header after a split tag:\n%.200s", p);
        p += hl;
    }
    if (blocks_max)
        *blocks_max = big;
    if (split_min)
        *split_min = small;
    char *out = dynbuf_take(&b, NULL);
    return out;
}

static const char header[] =
    "# tracer: nop\n"
    "#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

/* A deterministic trace: events with a `</script>` and `<!--` now and
 * then, CPU buffer-started markers, comments, a long line. */
static char *gen_trace(unsigned seed, int lines, int markers)
{
    struct dynbuf b;
    dynbuf_init(&b, 1u << 26);
    dynbuf_addstr(&b, header);
    unsigned x = seed * 2654435761u + 1;
    for (int i = 0; i < lines; i++) {
        x = x * 1103515245u + 12345u;
        unsigned r = (x >> 8) % 100;
        if (markers && r < 4)
            dynbuf_printf(&b, "##### CPU %u buffer started ####\n", r);
        else if (r < 6)
            dynbuf_printf(&b, "# a comment %d\n", i);
        else if (r < 8)
            dynbuf_printf(&b, "   app-%d ( %d) [001] ...1 %d.%06d: tracing_mark_write: "
                              "B|%d|</script><!--x-->\\\n", 100 + i % 7, 100, 10 + i, i, 100);
        else if (r < 9)
            dynbuf_printf(&b, "   app-1 ( 1) [000] ...1 %d.000000: tracing_mark_write: "
                              "B|1|%0300d\n", 10 + i, i);
        else
            dynbuf_printf(&b, "   app-%d ( %d) [00%u] ...1 %d.%06d: sched_wakeup: pid=%u\n",
                          100 + i % 7, 100, r % 4, 10 + i, i, r);
    }
    return dynbuf_take(&b, NULL);
}

/* Only what could end the script or open a comment is escaped, wherever
 * the chunks split it; `<idle>` and the like pass unchanged. */
static void escape_exact(void **st)
{
    (void)st;
    static const char in[] = "a <idle> b </script> c <!-- d <\\ e </SCRIPT <x <";
    static const char want[] = "a <idle> b <\\/script> c <\\!-- d <\\\\ e <\\/SCRIPT <x <";
    for (size_t chunk = 1; chunk <= sizeof(in); chunk++) {
        struct part p = {"systemTraceEvents", in, 1, NULL};
        char *got = write_parts(&p, 1, TW_HTML, 0, chunk, NULL, NULL);
        if (!strstr(got, want))
            fail_msg("chunk %zu:\n%s", chunk, got);
        free(got);
    }
}

static void split_matches_unsplit(void **st)
{
    (void)st;
    static const uint64_t splits[] = {1, 7, 60, 333, 5000};
    static const size_t chunks[] = {1, 3, 64, 4096, 1 << 20};
    for (unsigned seed = 1; seed <= 6; seed++) {
        char *text = gen_trace(seed, 400, seed % 2);
        struct part p = {"systemTraceEvents", text, 1, NULL};
        char *want = write_parts(&p, 1, TW_HTML, 0, 1 << 20, NULL, NULL);
        assert_int_equal(count(want, "</SCRIPT>"), 0);
        for (size_t i = 0; i < sizeof(splits) / sizeof(*splits); i++) {
            for (size_t c = 0; c < sizeof(chunks) / sizeof(*chunks); c++) {
                int n = -1;
                char *got = write_parts(&p, 1, TW_HTML, splits[i], chunks[c], &n, NULL);
                size_t biggest, smallest;
                char *flat = desplit(got, header, &biggest, &smallest);
                if (strcmp(flat, want))
                    fail_msg("seed %u split %llu chunk %zu: differs from unsplit", seed,
                             (unsigned long long)splits[i], chunks[c]);
                assert_int_equal((size_t)n, count(got, SPLIT));
                /* (with markers the cut may take every boundary away) */
                if (!n && !(seed % 2))
                    fail_msg("seed %u split %llu chunk %zu: no split", seed,
                             (unsigned long long)splits[i], chunks[c]);
                /* a block: its split size, the rest of a line (<= 400), tags */
                assert_true(biggest <= splits[i] + 400 + strlen(OPEN) + strlen(header) +
                                           strlen("# ") + 64);
                /* a block is ended only once it holds the split size; the
                 * cut may shorten the first one (here 2 marker lines) */
                if (smallest < splits[i] && !(seed % 2))
                    fail_msg("seed %u split %llu chunk %zu: a block of %zu bytes was split",
                             seed, (unsigned long long)splits[i], chunks[c], smallest);
                free(flat);
                free(got);
            }
        }
        free(want);
        free(text);
    }
}

/* Splits happen at line ends only, after the header, and each block
 * opens with the replayed header. */
static void split_layout(void **st)
{
    (void)st;
    const char *text = "# tracer: nop\n# TASK-PID x\n"
                       "a-1 [000] 1.0: x: 1\na-1 [000] 2.0: x: 2\na-1 [000] 3.0: x: 3\n";
    struct part p = {"systemTraceEvents", text, 0, NULL};
    char *got = write_parts(&p, 1, TW_HTML, 1, 5, NULL, NULL);
    const char *want = OPEN "# tracer: nop\n# TASK-PID x\na-1 [000] 1.0: x: 1\n"
                       SPLIT "# tracer: nop\n# TASK-PID x\na-1 [000] 2.0: x: 2\n"
                       SPLIT "# tracer: nop\n# TASK-PID x\na-1 [000] 3.0: x: 3\n" CLOSE;
    if (strcmp(got, want))
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    free(got);
    /* a header without "# tracer:" gets one in continuation blocks */
    p.text = "#  TASK-PID\nb-2 [000] 1.0: x: 1\nb-2 [000] 2.0: x: 2\n";
    got = write_parts(&p, 1, TW_HTML, 10, 7, NULL, NULL);
    assert_non_null(strstr(got, SPLIT "# tracer: nop\n#  TASK-PID\nb-2"));
    free(got);
    /* no header at all: the standard one */
    p.text = "c-3 [000] 1.0: x: 1\nc-3 [000] 2.0: x: 2\n";
    got = write_parts(&p, 1, TW_HTML, 10, 64, NULL, NULL);
    char *expect = NULL;
    assert_true(asprintf(&expect, SPLIT "%sc-3 [000] 2.0", header) > 0);
    assert_non_null(strstr(got, expect));
    free(expect);
    free(got);
}

/* Process dump, two ftrace parts, controller: the ftrace parts are
 * joined by a split tag (HTML) or into one string (JSON), the others
 * closed as usual. */
static void join_parts(void **st)
{
    (void)st;
    struct part p[] = {
        {"androidProcessDump", "PROCESS DUMP\nUSER PID\n", 0, NULL},
        {"systemTraceEvents", "# tracer: nop\na-1 [000] 1.0: x: 1\n", 0, NULL},
        {"systemTraceEvents", "# tracer: nop\nb-2 [000] 2.0: x: 2", 0, NULL},
        {"systraceController", "{}", 0, NULL},
    };
    char *got = write_parts(p, 4, TW_HTML, 1u << 20, 64, NULL, NULL);
    const char *want = OPEN "PROCESS DUMP\nUSER PID\n" CLOSE
                       OPEN "# tracer: nop\na-1 [000] 1.0: x: 1\n"
                       SPLIT "# tracer: nop\nb-2 [000] 2.0: x: 2" CLOSE
                       OPEN "{}" CLOSE;
    if (strcmp(got, want))
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    free(got);
    /* splitting off: the ftrace parts are still joined (Perfetto reads
     * only the first ftrace section) */
    got = write_parts(p, 4, TW_HTML, 0, 64, NULL, NULL);
    if (strcmp(got, want))
        fail_msg("split off, got:\n%s\nwant:\n%s", got, want);
    free(got);
    /* JSON: one systemTraceEvents string (keys must be unique) */
    got = write_parts(p, 4, TW_JSON, 1u << 20, 64, NULL, NULL);
    want = "{\"androidProcessDump\": \"PROCESS DUMP\\nUSER PID\\n\", "
           "\"systemTraceEvents\": \"# tracer: nop\\na-1 [000] 1.0: x: 1\\n"
           "# tracer: nop\\nb-2 [000] 2.0: x: 2\", \"systraceController\": \"{}\", "
           "\"controllerTraceDataKey\": \"systraceController\"}";
    if (strcmp(got, want))
        fail_msg("JSON, got:\n%s\nwant:\n%s", got, want);
    free(got);
    /* an ftrace part without a final newline gains one before the next */
    p[1].text = "# tracer: nop\na-1 [000] 1.0: x: 1";
    got = write_parts(p, 4, TW_JSON, 1u << 20, 64, NULL, NULL);
    assert_non_null(strstr(got, "x: 1\\n# tracer: nop\\nb-2"));
    free(got);
}

static void tee_sees_everything(void **st)
{
    (void)st;
    struct teelog t;
    memset(&t, 0, sizeof(t));
    dynbuf_init(&t.names, 4096);
    dynbuf_init(&t.bytes, 1u << 20);
    char *text = gen_trace(3, 100, 0);
    struct part p[] = {
        {"androidProcessDump", "PROCESS DUMP\n", 0, NULL},
        {"systemTraceEvents", text, 0, NULL},
    };
    char *got = write_parts(p, 2, TW_HTML, 100, 17, NULL, &t);
    assert_string_equal(dynbuf_str(&t.names), "androidProcessDump;systemTraceEvents;");
    assert_int_equal(t.begins, 2);
    assert_int_equal(t.ends, 2);
    assert_int_equal(t.bytes.len, strlen("PROCESS DUMP\n") + strlen(text));
    assert_memory_equal(t.bytes.data + 13, text, strlen(text));
    free(got);
    free(text);
    dynbuf_free(&t.names);
    dynbuf_free(&t.bytes);
}

/* A dump that broke off and was fetched again: the first try's bytes,
 * split tags and tee bytes are all gone, in HTML (split or not) and JSON. */
static void restart_part(void **st)
{
    (void)st;
    char *text = gen_trace(3, 300, 0);
    char *partial = gen_trace(2, 120, 0);
    partial[strlen(partial) / 2 + 3] = '\0';  /* cut inside a line */
    static const enum tw_format fmts[] = {TW_HTML, TW_JSON};
    static const uint64_t splits[] = {0, 200, 1u << 20};
    for (size_t f = 0; f < 2; f++)
        for (size_t k = 0; k < 3; k++) {
            struct part clean[] = {
                {"androidProcessDump", "PROCESS DUMP\n", 0, NULL},
                {"systemTraceEvents", text, 1, NULL},
            };
            struct part again[] = {
                {"androidProcessDump", "PROCESS DUMP\n", 0, NULL},
                {"systemTraceEvents", text, 1, partial},
            };
            struct teelog t;
            memset(&t, 0, sizeof(t));
            dynbuf_init(&t.names, 4096);
            dynbuf_init(&t.bytes, 1u << 20);
            char *want = write_parts(clean, 2, fmts[f], splits[k], 61, NULL, NULL);
            char *got = write_parts(again, 2, fmts[f], splits[k], 61, NULL, &t);
            if (strcmp(got, want))
                fail_msg("fmt %zu split %zu:\ngot:\n%.600s\nwant:\n%.600s", f, k, got, want);
            assert_int_equal(t.restarts, 1);
            assert_int_equal(t.bytes.len, strlen("PROCESS DUMP\n") + strlen(text));
            assert_memory_equal(t.bytes.data + 13, text, strlen(text));
            free(got);
            free(want);
            dynbuf_free(&t.names);
            dynbuf_free(&t.bytes);
        }
    free(text);
    free(partial);
}

static void json_never_split(void **st)
{
    (void)st;
    char *text = gen_trace(2, 200, 0);
    struct part p = {"systemTraceEvents", text, 0, NULL};
    int n = -1;
    char *got = write_parts(&p, 1, TW_JSON, 10, 64, &n, NULL);
    assert_int_equal(n, 0);
    assert_null(strstr(got, "SCRIPT"));
    assert_true(got[0] == '{');
    free(got);
    free(text);
}

/* A part written into room kept before the text: in place when it fits
 * (the rest blank lines), the page moved up when it does not; the text
 * after it untouched either way, the tee told of the part when written. */
static char *with_hole(size_t room, const char *dump, struct teelog *tee, size_t *blank)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/out.html", tmpdir);
    struct viewer v = fake_viewer();
    struct tracewriter *w;
    assert_int_equal(tw_open(path, TW_HTML, &v, &w), ST_OK);
    struct tw_tee t = {tee_begin, tee_write, tee_end, tee_restart, tee, NULL};
    tw_set_tee(w, &t);
    struct tw_hole h;
    assert_int_equal(tw_hole(w, room, &h), ST_OK);
    assert_int_equal(tw_begin(w, "systemTraceEvents"), ST_OK);
    static const char ev[] = "# tracer: nop\n a-1 [000] 1.0: x\n";
    assert_int_equal(tw_write(w, ev, strlen(ev)), ST_OK);
    assert_int_equal(tw_end(w), ST_OK);
    assert_int_equal(tw_hole_begin(w, &h), ST_OK);
    assert_int_equal(tw_begin(w, "androidProcessDump"), ST_OK);
    assert_int_equal(tw_write(w, dump, strlen(dump)), ST_OK);
    assert_int_equal(tw_end(w), ST_OK);
    assert_int_equal(tw_hole_end(w, &h), ST_OK);
    assert_int_equal(tw_commit(w), ST_OK);
    tw_free(w);
    size_t len;
    char *all = tu_read(path, &len);
    assert_non_null(all);
    char *b = strstr(all, "<!-- BEGIN TRACE -->\n");
    assert_non_null(b);
    char *out = strdup(b + strlen("<!-- BEGIN TRACE -->\n"));
    free(all);
    *blank = 0;
    for (const char *p = out; *p; p++)
        *blank += *p == ' ' || *p == '\n';
    return out;
}

static void hole_part(void **st)
{
    (void)st;
    static const char dump[] = "PROCESS DUMP\nUSER PID NAME\nroot 1 init </script>\n";
    const char *part = "  <script class=\"trace-data\" type=\"application/text\">\n"
                       "PROCESS DUMP\nUSER PID NAME\nroot 1 init <\\/script>\n  </script>\n";
    const char *text = "  <script class=\"trace-data\" type=\"application/text\">\n"
                       "# tracer: nop\n a-1 [000] 1.0: x\n  </script>\n<!-- END TRACE -->";
    size_t sizes[] = {4096, 200, 0};
    for (int i = 0; i < 3; i++) {
        struct teelog tee;
        memset(&tee, 0, sizeof(tee));
        dynbuf_init(&tee.names, 4096);
        dynbuf_init(&tee.bytes, 4096);
        size_t blank;
        char *out = with_hole(sizes[i], dump, &tee, &blank);
        /* the part first, blank lines (short ones) up to the room's size, the text */
        assert_memory_equal(out, part, strlen(part));
        const char *after = out + strlen(part);
        size_t pad = sizes[i] > strlen(part) ? sizes[i] - strlen(part) : 0;
        for (size_t k = 0; k < pad; k++)
            assert_true(after[k] == ' ' || after[k] == '\n');
        assert_true(pad == 0 || after[pad - 1] == '\n');
        assert_null(memchr(after, 'x', pad));
        assert_memory_equal(after + pad, text, strlen(text));
        const char *nl = after;
        for (size_t k = 0; k < pad; k++)
            if (after[k] == '\n') {
                assert_true(after + k - nl < 64);
                nl = after + k + 1;
            }
        assert_string_equal(dynbuf_str(&tee.names), "systemTraceEvents;androidProcessDump;");
        assert_int_equal(tee.ends, 2);
        free(out);
        dynbuf_free(&tee.names);
        dynbuf_free(&tee.bytes);
    }
    /* JSON has no room between members */
    char path[128];
    snprintf(path, sizeof(path), "%s/out.json", tmpdir);
    struct tracewriter *w;
    struct tw_hole h;
    assert_int_equal(tw_open(path, TW_JSON, NULL, &w), ST_OK);
    assert_int_equal(tw_hole(w, 100, &h), ST_EUNSUPPORTED);
    tw_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escape_exact),
        cmocka_unit_test(split_matches_unsplit),
        cmocka_unit_test(split_layout),
        cmocka_unit_test(join_parts),
        cmocka_unit_test(tee_sees_everything),
        cmocka_unit_test(json_never_split),
        cmocka_unit_test(restart_part),
        cmocka_unit_test(hole_part),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
