/* Unit tests for the atrace dump decoder (formats/atrace/decode.c) against
 * catapult's expected outputs from the corpus and hand-made inputs, fed
 * in every chunk size so boundaries cannot hide bugs. */
#include "testutil.h"

#include <zlib.h>

#include "formats/atrace/decode.h"

static enum st_err run(enum decode_mode mode, const char *in, size_t n, size_t chunk,
                       struct dynbuf *out, char *detail)
{
    struct memsink m;
    struct text_sink s;
    ms_init(&m, &s);
    struct decoder *d = decoder_new(mode, ms_write, &m);
    enum st_err e = ST_OK;
    for (size_t off = 0; off < n && !e; off += chunk)
        e = decoder_feed(d, in + off, n - off < chunk ? n - off : chunk);
    if (!e)
        e = decoder_finish(d);
    if (detail)
        snprintf(detail, 256, "%s", decoder_detail(d));
    decoder_free(d);
    *out = m.b;
    return e;
}

static void expect(enum decode_mode mode, const char *in, size_t n, const char *want,
                   size_t wn)
{
    static const size_t chunks[] = {1, 2, 3, 7, 64, 4096, 1 << 20};
    for (size_t i = 0; i < sizeof(chunks) / sizeof(*chunks); i++) {
        struct dynbuf out;
        assert_int_equal(run(mode, in, n, chunks[i], &out, NULL), ST_OK);
        assert_int_equal(out.len, wn);
        assert_memory_equal(out.data, want, wn);
        dynbuf_free(&out);
    }
}

static char *cat2(const char *a, size_t an, const char *b, size_t bn, size_t *n)
{
    char *p = malloc(an + bn + 1);
    memcpy(p, a, an);
    memcpy(p + an, b, bn);
    *n = an + bn;
    return p;
}

static void corpus_pair(const char *prefix, const char *in_rel, const char *want_rel)
{
    const char *ip = tu_corpus(in_rel);
    if (!ip)
        skip();
    size_t rn, wn, n;
    char *raw = tu_read(ip, &rn);
    char *want = tu_read(tu_corpus(want_rel), &wn);
    char *in = cat2(prefix, strlen(prefix), raw, rn, &n);
    expect(DECODE_ATRACE, in, n, want, wn);
    free(raw);
    free(want);
    free(in);
}

/* catapult's test: atrace_data_raw -> atrace_data_stripped */
static void raw_lf(void **s)
{
    (void)s;
    corpus_pair("TRACE:", "atrace/systrace_test_data/atrace_data_raw",
                "atrace/systrace_test_data/atrace_data_stripped");
}

/* old Windows adb: every line ends CR CR LF */
static void raw_crcrlf(void **s)
{
    (void)s;
    corpus_pair("capturing trace... done\nTRACE:",
                "atrace/aosp_marshmallow_test_data/atrace_data_raw",
                "atrace/systrace_test_data/atrace_data_stripped");
}

/* atrace -z output as stored by catapult's tests */
static void compressed(void **s)
{
    (void)s;
    corpus_pair("", "atrace/systrace_test_data/compressed_atrace_data.txt",
                "atrace/systrace_test_data/decompressed_atrace_data.txt");
}

static char *deflate_str(const char *text, size_t *n)
{
    uLongf zn = compressBound(strlen(text));
    char *z = malloc(zn);
    compress((Bytef *)z, &zn, (const Bytef *)text, strlen(text));
    *n = zn;
    return z;
}

/* zlib data that went through a PTY: every LF became CR LF */
static void compressed_crlf(void **s)
{
    (void)s;
    const char *text = "# tracer: nop\n#\n  a-1 [000] 1.000000: x: y\n";
    size_t zn;
    char *z = deflate_str(text, &zn);
    struct dynbuf in;
    dynbuf_init(&in, 1 << 20);
    dynbuf_addstr(&in, "TRACE:\r\n");
    for (size_t i = 0; i < zn; i++) {
        if (z[i] == '\n')
            dynbuf_addc(&in, '\r');
        dynbuf_addc(&in, z[i]);
    }
    expect(DECODE_ATRACE, in.data, in.len, text, strlen(text));
    dynbuf_free(&in);
    free(z);
}

static void trailing_garbage_ignored(void **s)
{
    (void)s;
    const char *text = "# tracer: nop\nline\n";
    size_t zn, n;
    char *z = deflate_str(text, &zn);
    char *in = cat2("TRACE:\n", 7, z, zn, &n);
    char *in2 = cat2(in, n, "junk after the stream", 21, &n);
    expect(DECODE_ATRACE, in2, n, text, strlen(text));
    free(z);
    free(in);
    free(in2);
}

static void truncated_keeps_prefix(void **s)
{
    (void)s;
    struct dynbuf t;
    dynbuf_init(&t, 1 << 24);
    dynbuf_addstr(&t, "# tracer: nop\n");
    for (int i = 0; i < 20000; i++)
        dynbuf_printf(&t, "  task-%d [000] %d.000000: print: line %d\n", i, i, i * 7919);
    size_t zn, n;
    char *z = deflate_str(t.data, &zn);
    char *in = cat2("TRACE:\n", 7, z, zn / 2, &n);
    struct dynbuf out;
    char detail[256];
    assert_int_equal(run(DECODE_ATRACE, in, n, 4096, &out, detail), ST_ETRUNCATED);
    assert_true(out.len > 0 && out.len < t.len);
    assert_memory_equal(out.data, t.data, out.len);
    assert_non_null(strstr(detail, "truncated"));
    dynbuf_free(&out);
    dynbuf_free(&t);
    free(z);
    free(in);
}

static void corrupt_zlib(void **s)
{
    (void)s;
    struct dynbuf out;
    char detail[256];
    const char *in = "TRACE:\n\x78\x9c\xff\xff\xff\xff\xff\xff\xff";
    assert_int_equal(run(DECODE_ATRACE, in, strlen(in), 3, &out, detail), ST_EZLIB);
    assert_non_null(strstr(detail, "corrupt"));
    dynbuf_free(&out);
}

static void no_marker_quotes_device_output(void **s)
{
    (void)s;
    struct dynbuf out;
    char detail[256];
    const char *in = "error: tracing_on: Permission denied\nmore\n";
    assert_int_equal(run(DECODE_ATRACE, in, strlen(in), 5, &out, detail), ST_ENOTRACE);
    assert_non_null(strstr(detail, "Permission denied"));
    dynbuf_free(&out);
}

static void marker_then_nothing(void **s)
{
    (void)s;
    struct dynbuf out;
    assert_int_equal(run(DECODE_ATRACE, "TRACE:\n", 7, 1, &out, NULL), ST_ENOTRACE);
    dynbuf_free(&out);
}

/* marker split across chunks, text after it not starting with # tracer */
static void plain_event_lines_after_marker(void **s)
{
    (void)s;
    const char *in = "TRACE:\n  a-1 [000] 1.0: print: x\n";
    expect(DECODE_ATRACE, in, strlen(in), "  a-1 [000] 1.0: print: x\n", 26);
}

static void text_mode_strips_cr_and_leading_newlines(void **s)
{
    (void)s;
    const char *in = "\n\r\n# tracer: nop\r\nx\r\n";
    expect(DECODE_TEXT, in, strlen(in), "# tracer: nop\nx\n", 16);
}

/* A CR run that is not a line end passes through the CR LF rule and is
 * removed by the final CR removal, as in catapult. */
static void crlf_mode_odd_crs(void **s)
{
    (void)s;
    const char *in = "TRACE:\r\n# tracer: nop\r\r\r\na\rb\r\n";
    expect(DECODE_ATRACE, in, strlen(in), "# tracer: nop\nab\n", 17);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(raw_lf),
        cmocka_unit_test(raw_crcrlf),
        cmocka_unit_test(compressed),
        cmocka_unit_test(compressed_crlf),
        cmocka_unit_test(trailing_garbage_ignored),
        cmocka_unit_test(truncated_keeps_prefix),
        cmocka_unit_test(corrupt_zlib),
        cmocka_unit_test(no_marker_quotes_device_output),
        cmocka_unit_test(marker_then_nothing),
        cmocka_unit_test(plain_event_lines_after_marker),
        cmocka_unit_test(text_mode_strips_cr_and_leading_newlines),
        cmocka_unit_test(crlf_mode_odd_crs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
