/* Unit tests for --perfetto-config's reader of a user's TraceConfig
 * (agents/android/perfetto/pfuser.c): text and binary told apart, the
 * stop fields named and dropped, duration_ms read as Perfetto reads it (a
 * uint32, within the file's bytes: the file is not NUL-ended), and each
 * malformed file refused with one reason. */
#include "testutil.h"

#include "agents/android/perfetto/pfuser.h"

#define OK_TEXT "buffers { size_kb: 1024 }\ndata_sources { config { name: \"linux.ftrace\" } }\n"

static enum st_err check(const char *text, struct pfuser_info *info, char *why, size_t n)
{
    why[0] = '\0';
    return pfuser_check(text, strlen(text), info, why, n);
}

static void refused(const char *text, const char *reason)
{
    struct pfuser_info info;
    char why[200];
    assert_int_equal(check(text, &info, why, sizeof(why)), ST_EINVAL);
    if (!strstr(why, reason))
        fail_msg("'%s': '%s', not '%s'", text, why, reason);
}

static void test_text(void **state)
{
    (void)state;
    struct pfuser_info info;
    char why[200];
    const char *t = "# a comment\r\n" OK_TEXT "duration_ms: 0x10; write_into_file: true\n"
                    "output_path: \"/x\"\nflush_period_ms: 5000\n";
    assert_int_equal(check(t, &info, why, sizeof(why)), ST_OK);
    assert_false(info.binary);
    assert_int_equal(info.duration_ms, 16);
    assert_string_equal(info.replaced, "duration_ms, write_into_file, output_path");
    assert_int_equal(check(OK_TEXT, &info, why, sizeof(why)), ST_OK);
    assert_int_equal(info.duration_ms, -1);
    assert_string_equal(info.replaced, "");
}

/* The value is read within the bytes given: a config cut after
 * "duration_ms: 12" says 12, whatever follows in memory. */
static void test_duration_bounded(void **state)
{
    (void)state;
    const char *t = OK_TEXT "duration_ms: 12345";
    struct pfuser_info info;
    char why[200];
    assert_int_equal(pfuser_check(t, strlen(t) - 3, &info, why, sizeof(why)), ST_OK);
    assert_int_equal(info.duration_ms, 12);
}

static void test_duration_refused(void **state)
{
    (void)state;
    refused(OK_TEXT "duration_ms: 4294967296\n", "duration_ms 4294967296: not a whole number");
    refused(OK_TEXT "duration_ms: 99999999999999999999999\n", "not a whole number");
    refused(OK_TEXT "duration_ms: -5\n", "duration_ms -5: not a whole number");
    refused(OK_TEXT "duration_ms: \"10\"\n", "not a whole number");
    refused(OK_TEXT "duration_ms: 1.5\n", "duration_ms 1.5: not a whole number");
    refused(OK_TEXT "duration_ms { }\n", "not a whole number");
    /* one line: a comment before the value skipped, a block's newline a space */
    refused(OK_TEXT "duration_ms # why\n{\n}\n", "duration_ms { }: not a whole number");
    struct pfuser_info info;
    char why[200];
    assert_int_equal(check(OK_TEXT "duration_ms: 4294967295 # max\n", &info, why, sizeof(why)),
                     ST_OK);
    assert_true(info.duration_ms == (int64_t)4294967295LL);
}

static void test_text_refused(void **state)
{
    (void)state;
    refused("", "empty");
    refused("buffers { size_kb: 1 }\n", "without data_sources");
    refused("data_sources { config { name: \"x\" } }\n", "without buffers");
    refused(OK_TEXT "bogus_field: 1\n", "line 3: 'bogus_field' is not a field of a TraceConfig");
    refused(OK_TEXT "buffers { size_kb: 1\n", "unterminated block");
    refused(OK_TEXT "}\n", "unbalanced '}'");
    refused(OK_TEXT "unique_session_name: \"abc\n\"\n", "unterminated string");
    refused(OK_TEXT "buffers { size_kb: [1, 2\n", "unterminated [ list");
    refused(OK_TEXT "buffers:\n", "a field without a value");
    refused(OK_TEXT "[a.b\n", "unterminated [extension] name");
    refused(OK_TEXT "buffers: ?\n", "expected a value");
    struct dynbuf deep;
    dynbuf_init(&deep, 1 << 20);
    dynbuf_addstr(&deep, OK_TEXT "buffers ");
    for (int i = 0; i < 70; i++)
        dynbuf_addstr(&deep, "{ a ");
    for (int i = 0; i < 70; i++)
        dynbuf_addstr(&deep, "}");
    refused(dynbuf_str(&deep), "nested too deep");
    /* lists nest too: 100,000 '[' were a stack overflow */
    dynbuf_reset(&deep);
    dynbuf_addstr(&deep, OK_TEXT "buffers { size_kb: ");
    for (int i = 0; i < 100000; i++)
        dynbuf_addc(&deep, '[');
    refused(dynbuf_str(&deep), "nested too deep");
    dynbuf_free(&deep);
}

/* TraceConfig{buffers{size_kb:1} data_sources{config{name:"x"}}} */
static const uint8_t BIN[] = {0x0a, 0x02, 0x08, 0x01, 0x12, 0x05, 0x0a, 0x03, 0x0a, 0x01, 'x'};

static enum st_err check_bin(const uint8_t *p, size_t n, struct pfuser_info *info, char *why)
{
    why[0] = '\0';
    return pfuser_check((const char *)p, n, info, why, 200);
}

static void test_binary(void **state)
{
    (void)state;
    struct pfuser_info info;
    char why[200];
    uint8_t b[64];
    memcpy(b, BIN, sizeof(BIN));
    size_t n = sizeof(BIN);
    b[n++] = 0x18;      /* duration_ms: 3000 */
    b[n++] = 0xb8;
    b[n++] = 0x17;
    assert_int_equal(check_bin(b, n, &info, why), ST_OK);
    assert_true(info.binary);
    assert_int_equal(info.duration_ms, 3000);
    assert_string_equal(info.replaced, "duration_ms");
    struct pfconfig cfg;
    assert_int_equal(pfuser_make((const char *)b, n, 5000, &cfg), ST_OK);
    assert_int_equal(cfg.text.len, 0);
    assert_memory_equal(cfg.binary.data, BIN, sizeof(BIN));  /* the user's fields first */
    pfconfig_free(&cfg);
    /* duration_ms 2^32 as a varint: beyond Perfetto's uint32 */
    n = sizeof(BIN);
    const uint8_t big[] = {0x18, 0x80, 0x80, 0x80, 0x80, 0x10};
    memcpy(b + n, big, sizeof(big));
    assert_int_equal(check_bin(b, n + sizeof(big), &info, why), ST_EINVAL);
    assert_non_null(strstr(why, "duration_ms 4294967296: not a whole number"));
}

static void test_binary_refused(void **state)
{
    (void)state;
    struct pfuser_info info;
    char why[200];
    const uint8_t noname[] = {0x0a, 0x02, 0x08, 0x01, 0x12, 0x02, 0x0a, 0x00};
    assert_int_equal(check_bin(noname, sizeof(noname), &info, why), ST_EINVAL);
    assert_non_null(strstr(why, "a data source at byte 4 has no name"));
    const uint8_t cut[] = {0x0a, 0x05, 0x08};
    assert_int_equal(check_bin(cut, sizeof(cut), &info, why), ST_EINVAL);
    assert_non_null(strstr(why, "malformed protobuf at byte 0"));
    const uint8_t wrongwire[] = {0x08, 0x01};       /* buffers as a varint */
    assert_int_equal(check_bin(wrongwire, sizeof(wrongwire), &info, why), ST_EINVAL);
    assert_non_null(strstr(why, "not a TraceConfig: field 1 (wire type 0) at byte 0"));
    const uint8_t unknown[] = {0x0a, 0x00, 0xc0, 0x3e, 0x01};   /* field 1000 */
    assert_int_equal(check_bin(unknown, sizeof(unknown), &info, why), ST_EINVAL);
    assert_non_null(strstr(why, "field 1000"));
}

/* Text whose device-command argument (quotes escaped) would pass one adb
 * request; the same size in binary (5 bytes a byte) too. */
static void test_too_big(void **state)
{
    (void)state;
    struct dynbuf t;
    dynbuf_init(&t, PFUSER_FILE_MAX + 16);
    dynbuf_addstr(&t, OK_TEXT);
    while (t.len < 40000)     /* under 60000 bytes, over it escaped */
        dynbuf_addstr(&t, "unique_session_name: 'a''b''c''d'\n");
    struct pfuser_info info;
    char why[300];
    assert_int_equal(pfuser_check(t.data, t.len, &info, why, sizeof(why)), ST_EINVAL);
    assert_non_null(strstr(why, "in the device command, over the 60000"));
    dynbuf_free(&t);
    static char huge[PFUSER_FILE_MAX + 1];
    memset(huge, ' ', sizeof(huge));
    assert_int_equal(pfuser_check(huge, sizeof(huge), &info, why, sizeof(why)), ST_EINVAL);
    assert_non_null(strstr(why, "over 1 MB"));
}

/* pfuser_make keeps the user's text fields, drops the stop fields and
 * adds systrace's. */
static void test_make_text(void **state)
{
    (void)state;
    const char *t = OK_TEXT "duration_ms: 10000\nwrite_into_file: true\nflush_period_ms: 5000\n";
    struct pfconfig cfg;
    assert_int_equal(pfuser_make(t, strlen(t), 2000, &cfg), ST_OK);
    const char *out = dynbuf_str(&cfg.text);
    assert_non_null(strstr(out, "flush_period_ms: 5000"));
    assert_non_null(strstr(out, "linux.ftrace"));
    assert_null(strstr(out, "duration_ms: 10000"));
    assert_int_equal(cfg.binary.len, 0);
    pfconfig_free(&cfg);
    assert_int_equal(pfuser_make("}", 1, 2000, &cfg), ST_EINVAL);
    pfconfig_free(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_duration_bounded),
        cmocka_unit_test(test_duration_refused),
        cmocka_unit_test(test_text_refused),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_binary_refused),
        cmocka_unit_test(test_too_big),
        cmocka_unit_test(test_make_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
