/* Unit tests for the JSON scanner of --from-file (formats/atrace/jsonscan.c):
 * event counts, what each mode hands on (whole text; members with their
 * strings unescaped), the closing of cut documents, and refusals with the
 * byte offset, each fed in several chunk sizes.  Closed documents are
 * scanned again: they must be valid JSON. */
#include "testutil.h"

#include "formats/atrace/jsonscan.h"

static const size_t chunks[] = {1, 2, 3, 7, 4096};
#define NCHUNKS (sizeof(chunks) / sizeof(*chunks))

/* What a MEMBERS scan hands on: "key=" or "key:" (string or not), the
 * data, and "|" at each member end. */
struct rec {
    struct dynbuf b;
};

static enum st_err rec_member(void *ctx, const char *key, int is_string)
{
    struct rec *r = ctx;
    dynbuf_addstr(&r->b, key);
    return dynbuf_addstr(&r->b, is_string ? "=" : ":");
}

static enum st_err rec_data(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(&((struct rec *)ctx)->b, p, n);
}

static enum st_err rec_end(void *ctx)
{
    return dynbuf_addstr(&((struct rec *)ctx)->b, "|");
}

struct result {
    enum st_err feed, fin;
    uint64_t events, done;
    enum jscan_shape shape;
    char out[4096];
    char detail[256];
};

static void scan(enum jscan_mode mode, const char *in, size_t n, size_t chunk,
                 struct result *res)
{
    struct rec r;
    dynbuf_init(&r.b, 1u << 20);
    struct jscan_cb cb = {rec_member, rec_data, rec_end, &r};
    struct jscan *s = jscan_new(mode, &cb);
    assert_non_null(s);
    res->feed = ST_OK;
    for (size_t off = 0; off < n && !res->feed; off += chunk)
        res->feed = jscan_feed(s, in + off, n - off < chunk ? n - off : chunk);
    res->fin = res->feed ? res->feed : jscan_finish(s);
    res->events = jscan_events_complete(s);
    res->done = jscan_events(s);
    res->shape = jscan_shape(s);
    snprintf(res->out, sizeof(res->out), "%s", dynbuf_str(&r.b));
    snprintf(res->detail, sizeof(res->detail), "%s", jscan_detail(s));
    jscan_free(s);
    dynbuf_free(&r.b);
}

/* Same outcome for every chunk size. */
static void expect(enum jscan_mode mode, const char *in, enum st_err want_e,
                   const char *want_out, int64_t want_events)
{
    for (size_t i = 0; i < NCHUNKS; i++) {
        struct result r;
        scan(mode, in, strlen(in), chunks[i], &r);
        if (r.fin != want_e)
            fail_msg("%s (chunk %zu): %s, want %s (%s)", in, chunks[i], st_errname(r.fin),
                     st_errname(want_e), r.detail);
        if (want_out && strcmp(r.out, want_out))
            fail_msg("%s (chunk %zu): handed on\n%s\nwant\n%s", in, chunks[i], r.out,
                     want_out);
        if (want_events >= 0 && r.events != (uint64_t)want_events)
            fail_msg("%s (chunk %zu): %llu events, want %lld", in, chunks[i],
                     (unsigned long long)r.events, (long long)want_events);
    }
}

static void counts(void **st)
{
    (void)st;
    expect(JSCAN_COUNT, "[]", ST_OK, "", 0);
    expect(JSCAN_COUNT, " [ {\"ph\":\"X\"}, {\"a\":[1,2,{}]} , 3 ]\n", ST_OK, "", 3);
    expect(JSCAN_COUNT, "{\"traceEvents\":[{},{},{}],\"metadata\":{\"x\":[1]}}", ST_OK, "", 3);
    /* only the root's own traceEvents member counts */
    expect(JSCAN_COUNT, "{\"a\":{\"traceEvents\":[{},{}]}}", ST_OK, "", 0);
    expect(JSCAN_COUNT, "{\"traceEvents\":\"[{}]\"}", ST_OK, "", 0);
    expect(JSCAN_COUNT, "{}", ST_OK, "", 0);
    expect(JSCAN_COUNT, "\xef\xbb\xbf{\"traceEvents\":[{}]}", ST_OK, "", 1);
    expect(JSCAN_COUNT, "-1.5e+3", ST_OK, "", 0);
    expect(JSCAN_COUNT, "[true,false,null,\"\\u00e9\\ud83d\\ude00\\\"\"]", ST_OK, "", 4);
}

static void shapes(void **st)
{
    (void)st;
    static const struct { const char *in; enum jscan_shape want; } t[] = {
        {"[1]", JSCAN_SHAPE_ARRAY}, {"{}", JSCAN_SHAPE_EMPTY},
        {"{\"a\":\"x\",\"b\":[]}", JSCAN_SHAPE_STRINGS},
        {"{\"a\":[],\"b\":\"x\"}", JSCAN_SHAPE_OBJECT}, {"12", JSCAN_SHAPE_SCALAR},
        {"{\"a\"", JSCAN_SHAPE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
        struct result r;
        scan(JSCAN_COUNT, t[i].in, strlen(t[i].in), 1, &r);
        assert_int_equal(r.shape, t[i].want);
    }
}

static void whole(void **st)
{
    (void)st;
    /* the root value's bytes, without a BOM or blanks around it */
    expect(JSCAN_WHOLE, "\xef\xbb\xbf \n{\"traceEvents\": [ {\"a\":\"\\n\"} ]}\n\n", ST_OK,
           "{\"traceEvents\": [ {\"a\":\"\\n\"} ]}", 1);
    expect(JSCAN_WHOLE, "[1, 2]", ST_OK, "[1, 2]", 2);
    expect(JSCAN_WHOLE, " 42 ", ST_OK, "42", 0);
}

static void members(void **st)
{
    (void)st;
    /* catapult's -j form: strings unescaped, other values as their text */
    expect(JSCAN_MEMBERS,
           "{\"systemTraceEvents\": \"# tracer: nop\\n  a-1 [000] 1.0: x\\n\", "
           "\"traceEvents\" : [{\"ph\": \"X\"}, {}], \"n\": 1.5, \"k\\u00e9y\": \"a\\\"b\\\\c\"}",
           ST_OK,
           "systemTraceEvents=# tracer: nop\n  a-1 [000] 1.0: x\n|"
           "traceEvents:[{\"ph\": \"X\"}, {}]|n:1.5|k\xc3\xa9y=a\"b\\c|", 2);
    /* surrogate pairs join; lone halves become U+FFFD */
    expect(JSCAN_MEMBERS, "{\"s\":\"\\ud83d\\ude00|\\ud83dx|\\ude00|\\ud83d\\n|\\ud83d\"}",
           ST_OK, "s=\xf0\x9f\x98\x80|\xef\xbf\xbdx|\xef\xbf\xbd|\xef\xbf\xbd\n|\xef\xbf\xbd|",
           0);
    expect(JSCAN_MEMBERS, "{}", ST_OK, "", 0);
}

/* Cut documents are closed so that they parse, keeping what was there. */
static void cut(void **st)
{
    (void)st;
    static const struct { const char *in, *want; long ev; } t[] = {
        {"{\"traceEvents\":[{\"ph\":\"X\"},{\"ph\":\"B\",\"na", "{\"traceEvents\":[{\"ph\":\"X\"},{\"ph\":\"B\",\"na\":null}]}", 1},
        {"[{\"a\":1},", "[{\"a\":1},{}]", 1},
        {"[{\"a\":1}", "[{\"a\":1}]", 1},
        {"[{\"a\":1.", "[{\"a\":1.0}]", 0},
        {"[{\"a\":12", "[{\"a\":12}]", 0},
        {"[{\"a\":-", "[{\"a\":-0}]", 0},
        {"[{\"a\":1e+", "[{\"a\":1e+0}]", 0},
        {"[{\"a\":tr", "[{\"a\":true}]", 0},
        {"[{\"a\":\"x\\", "[{\"a\":\"x\\\\\"}]", 0},
        {"[{\"a\":\"x\\u4", "[{\"a\":\"x\\u4000\"}]", 0},
        {"[{\"a\":", "[{\"a\":null}]", 0},
        {"[{\"a\"", "[{\"a\":null}]", 0},
        {"[{\"a\":1,", "[{\"a\":1,\"\":null}]", 0},
        {"{\"traceEvents\":[", "{\"traceEvents\":[]}", 0},
        {"[[[", "[[[]]]", 0},
        /* a cut escape in a member name: the text before it is kept (fuzz) */
        {"{\"\\\\!{\\", "{\"\\\\!{\\\\\":null}", 0},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
        expect(JSCAN_WHOLE, t[i].in, ST_ETRUNCATED, t[i].want, t[i].ev);
        struct result r;
        scan(JSCAN_WHOLE, t[i].in, strlen(t[i].in), 1, &r);
        assert_non_null(strstr(r.detail, "cut short at byte"));
        /* and the closed text is valid JSON with the same events */
        expect(JSCAN_COUNT, t[i].want, ST_OK, "", -1);
    }
    /* a cut member string keeps its text; a cut raw member is closed */
    expect(JSCAN_MEMBERS, "{\"a\":\"x\\ny", ST_ETRUNCATED, "a=x\ny|", 0);
    expect(JSCAN_MEMBERS, "{\"a\":\"x\",\"b\":[{\"c\":[1", ST_ETRUNCATED,
           "a=x|b:[{\"c\":[1]}]|", 0);
    expect(JSCAN_MEMBERS, "{\"a\":\"x\",\"b", ST_ETRUNCATED, "a=x|", 0);
    expect(JSCAN_COUNT, "   ", ST_ENOTRACE, "", 0);
    expect(JSCAN_COUNT, "", ST_ENOTRACE, "", 0);
}

static void refuse(const char *in, enum st_err want, const char *detail)
{
    for (size_t i = 0; i < NCHUNKS; i++) {
        struct result r;
        scan(JSCAN_WHOLE, in, strlen(in), chunks[i], &r);
        if (r.fin != want || !strstr(r.detail, detail))
            fail_msg("%s (chunk %zu): %s \"%s\", want %s \"%s\"", in, chunks[i],
                     st_errname(r.fin), r.detail, st_errname(want), detail);
    }
}

static void invalid(void **st)
{
    (void)st;
    refuse("{ garbage", ST_EFORMAT, "byte 2: expected a member name in double quotes");
    refuse("[1,]", ST_EFORMAT, "byte 3: expected a value");
    refuse("[1 2]", ST_EFORMAT, "byte 3: expected ',' or ']'");
    refuse("{\"a\" 1}", ST_EFORMAT, "byte 5: expected ':'");
    refuse("[01]", ST_EFORMAT, "byte 2: invalid number");
    refuse("[1.]", ST_EFORMAT, "byte 3: invalid number");
    refuse("[nul1]", ST_EFORMAT, "byte 4: invalid literal");
    refuse("[\"a\tb\"]", ST_EFORMAT, "byte 3: control character");
    refuse("[\"\\x\"]", ST_EFORMAT, "byte 3: invalid escape");
    refuse("[\"\\u12g4\"]", ST_EFORMAT, "byte 6: invalid \\u escape");
    refuse("[1]]", ST_EFORMAT, "byte 3: more data after the JSON value");
    refuse("[1} ", ST_EFORMAT, "byte 2: '}' closes an array");
    refuse("{\"a\":1]", ST_EFORMAT, "byte 6: ']' closes an object");
    refuse("[1]\n{}", ST_EFORMAT, "byte 4: more data");
}

static void bounds(void **st)
{
    (void)st;
    /* nesting */
    char deep[JSCAN_DEPTH_MAX + 2];
    memset(deep, '[', sizeof(deep) - 1);
    deep[sizeof(deep) - 1] = '\0';
    refuse(deep, ST_EFORMAT, "nested deeper than 1024 levels");
    deep[sizeof(deep) - 2] = '\0';
    expect(JSCAN_COUNT, deep, ST_ETRUNCATED, NULL, 0);
    /* a number */
    char num[JSCAN_NUMBER_MAX + 8] = "[";
    memset(num + 1, '7', JSCAN_NUMBER_MAX + 1);
    num[JSCAN_NUMBER_MAX + 2] = ']';
    num[JSCAN_NUMBER_MAX + 3] = '\0';
    refuse(num, ST_EFORMAT, "a number longer than 4096 bytes");
}

/* Strings and blank runs over JSCAN_TOKEN_MAX, fed in big chunks. */
static void huge(void **st)
{
    (void)st;
    size_t chunk = 1u << 20;
    char *buf = malloc(chunk);
    memset(buf, 'a', chunk);
    static const char *const heads[] = {"[\"", "[", "{\"k\":[\""};
    for (int k = 0; k < 3; k++) {
        struct jscan *s = jscan_new(JSCAN_COUNT, NULL);
        memset(buf, k == 1 ? ' ' : 'a', chunk);
        assert_int_equal(jscan_feed(s, heads[k], strlen(heads[k])), ST_OK);
        enum st_err e = ST_OK;
        uint64_t fed = 0;
        while (!e && fed <= JSCAN_TOKEN_MAX + chunk) {
            e = jscan_feed(s, buf, chunk);
            fed += chunk;
        }
        assert_int_equal(e, ST_ETOOBIG);
        assert_true(fed <= JSCAN_TOKEN_MAX + chunk);
        assert_non_null(strstr(jscan_detail(s), "64 MB"));
        jscan_free(s);
    }
    /* a member string is the caller's to bound */
    struct rec r;
    dynbuf_init(&r.b, 1u << 30);
    struct jscan_cb cb = {rec_member, NULL, rec_end, &r};
    struct jscan *s = jscan_new(JSCAN_MEMBERS, &cb);
    memset(buf, 'a', chunk);
    assert_int_equal(jscan_feed(s, "{\"s\":\"", 6), ST_OK);
    for (uint64_t fed = 0; fed <= JSCAN_TOKEN_MAX; fed += chunk)
        assert_int_equal(jscan_feed(s, buf, chunk), ST_OK);
    assert_int_equal(jscan_feed(s, "\"}", 2), ST_OK);
    assert_int_equal(jscan_finish(s), ST_OK);
    assert_string_equal(dynbuf_str(&r.b), "s=|");
    jscan_free(s);
    dynbuf_free(&r.b);
    free(buf);
}

/* A callback's error stops the scan and comes back as it is. */
static enum st_err refuse_member(void *ctx, const char *key, int is_string)
{
    (void)ctx;
    (void)is_string;
    return strcmp(key, "b") ? ST_OK : ST_EIO;
}

static void callback_error(void **st)
{
    (void)st;
    struct jscan_cb cb = {refuse_member, NULL, NULL, NULL};
    struct jscan *s = jscan_new(JSCAN_MEMBERS, &cb);
    static const char in[] = "{\"a\":\"x\",\"b\":\"y\"}";
    assert_int_equal(jscan_feed(s, in, sizeof(in) - 1), ST_EIO);
    jscan_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts), cmocka_unit_test(shapes), cmocka_unit_test(whole),
        cmocka_unit_test(members), cmocka_unit_test(cut), cmocka_unit_test(invalid),
        cmocka_unit_test(bounds), cmocka_unit_test(huge), cmocka_unit_test(callback_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
