/* Unit tests for quoting outside text in messages (lib/esctext.c): terminal
 * control sequences come out as visible \xHH, printable text and UTF-8 as
 * they are, and a short buffer cuts at a whole escape. */
#include "testutil.h"

#include "lib/dynbuf.h"
#include "lib/esctext.h"

static void check(const char *in, size_t len, int flags, const char *want)
{
    char out[256];
    size_t n = esc_text(out, sizeof(out), in, len, flags);
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

static void controls_are_visible(void **st)
{
    (void)st;
    static const char sgr[] = "\x1b[31mred\x1b[0m";
    check(sgr, sizeof(sgr) - 1, 0, "\\x1b[31mred\\x1b[0m");
    static const char osc[] = "\x1b]0;pwned\x07!";
    check(osc, sizeof(osc) - 1, 0, "\\x1b]0;pwned\\x07!");
    check("a\rb\nc\td\x7f", 8, 0, "a\\x0db\\x0ac\\x09d\\x7f");
    check("a\rb\nc\td", 7, ESC_KEEP_NL, "a\\x0db\nc\td");
    static const char c1[] = "x\xc2\x9b" "31m";   /* U+009B, CSI */
    check(c1, sizeof(c1) - 1, 0, "x\\xc2\\x9b31m");
    static const char nul[] = "a\0b";
    check(nul, 3, 0, "a\\x00b");
}

static void text_is_kept(void **st)
{
    (void)st;
    check("33", 2, 0, "33");
    check("caf\xc3\xa9 \xc2\xa0ok", 10, 0, "caf\xc3\xa9 \xc2\xa0ok");  /* é, NBSP */
    check("", 0, 0, "");
}

/* dynbuf_add_jstr: names of any bytes stay valid ASCII JSON */
static void json_strings(void **st)
{
    (void)st;
    struct dynbuf b;
    dynbuf_init(&b, 256);
    assert_int_equal(dynbuf_add_jstr(&b, "a\"b\\c\x1b[2J\t\xc3\xa9"), ST_OK);
    assert_string_equal(dynbuf_str(&b), "\"a\\\"b\\\\c\\u001b[2J\\u0009??\"");
    dynbuf_reset(&b);
    assert_int_equal(dynbuf_add_jstr(&b, ""), ST_OK);
    assert_string_equal(dynbuf_str(&b), "\"\"");
    dynbuf_free(&b);
    struct dynbuf small;    /* over its bound: an error, never a cut string */
    dynbuf_init(&small, 4);
    assert_int_not_equal(dynbuf_add_jstr(&small, "abcdef"), ST_OK);
    dynbuf_free(&small);
}

static void short_buffer(void **st)
{
    (void)st;
    char out[6];
    assert_int_equal(esc_text(out, sizeof(out), "ab\x1b" "cd", 5, 0), 2);
    assert_string_equal(out, "ab");     /* never half an escape */
    assert_int_equal(esc_text(out, sizeof(out), "abcdefgh", 8, 0), 5);
    assert_string_equal(out, "abcde");
    assert_int_equal(esc_text(out, 0, "abc", 3, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(controls_are_visible),
        cmocka_unit_test(text_is_kept),
        cmocka_unit_test(short_buffer),
        cmocka_unit_test(json_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
