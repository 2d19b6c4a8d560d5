/*
 * Quoting for the device shell: exact output for known cases, and a
 * round trip through the host's POSIX sh (same single-quote rules as the
 * device's mksh/toybox sh): whatever we quote comes back byte for byte,
 * with no expansion or command substitution.  Plus the token validator.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adb/adb_int.h"

static void test_quote_exact(void **state)
{
    (void)state;
    struct dynbuf b;
    dynbuf_init(&b, 1024);
    assert_int_equal(adb_quote_arg(&b, "atrace"), ST_OK);
    assert_string_equal(dynbuf_str(&b), "'atrace'");
    assert_int_equal(adb_quote_arg(&b, "it's"), ST_OK);
    assert_string_equal(dynbuf_str(&b), "'atrace' 'it'\\''s'");
    dynbuf_reset(&b);
    assert_int_equal(adb_quote_arg(&b, ""), ST_OK);
    assert_string_equal(dynbuf_str(&b), "''");
    dynbuf_reset(&b);
    const char *argv[] = {"echo", "$HOME", "a b", NULL};
    assert_int_equal(adb_quote_argv(&b, argv), ST_OK);
    assert_string_equal(dynbuf_str(&b), "'echo' '$HOME' 'a b'");
    dynbuf_free(&b);

    /* all or nothing when the buffer is full */
    dynbuf_init(&b, 10);
    assert_int_equal(adb_quote_arg(&b, "abc"), ST_OK);
    assert_int_equal(adb_quote_arg(&b, "defgh"), ST_ETOOBIG);
    assert_string_equal(dynbuf_str(&b), "'abc'");
    dynbuf_free(&b);
}

static void test_quote_roundtrip(void **state)
{
    (void)state;
    static const char *const nasty[] = {
        "plain", "it's", "''", "'", "$(touch /tmp/test_adb_quote_pwned)",
        "`touch /tmp/test_adb_quote_pwned`", "a b\tc\nd", "\\", "\\'", "*",
        ";|&<>()", "$HOME ${x:-y}", "--help", "\xc3\xa9t\xc3\xa9", "!!", "#x", "~",
    };
    for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
        struct dynbuf cmd;
        dynbuf_init(&cmd, 4096);
        assert_int_equal(dynbuf_addstr(&cmd, "printf %s"), ST_OK);
        assert_int_equal(adb_quote_arg(&cmd, nasty[i]), ST_OK);
        FILE *p = popen(dynbuf_str(&cmd), "r");
        assert_non_null(p);
        char out[256];
        size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = '\0';
        assert_int_equal(pclose(p), 0);
        if (strcmp(out, nasty[i]))
            fail_msg("'%s' came back as '%s' via %s", nasty[i], out, dynbuf_str(&cmd));
        dynbuf_free(&cmd);
    }
    FILE *f = fopen("/tmp/test_adb_quote_pwned", "r");
    if (f) {
        fclose(f);
        remove("/tmp/test_adb_quote_pwned");
        fail_msg("a quoted argument ran a command");
    }
}

static void test_plain_token(void **state)
{
    (void)state;
    static const char *const good[] = {"gfx", "sched", "binder_driver", "emulator-5554",
                                       "127.0.0.1:5555", "com.example.app",
                                       "/data/local/tmp/x", "a=b", "c++", "me@host"};
    static const char *const bad[] = {"", "a b", "a;b", "$(x)", "`x`", "a|b", "a&b",
                                      "a'b", "a\"b", "a\\b", "a\nb", "a*", "a?", "~",
                                      "a>b", "(x)", "a{b}", "!x", "#x", "\xc3\xa9"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!adb_is_plain_token(good[i]))
            fail_msg("'%s' should be a plain token", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (adb_is_plain_token(bad[i]))
            fail_msg("'%s' should not be a plain token", bad[i]);
    assert_false(adb_is_plain_token(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quote_exact),
        cmocka_unit_test(test_quote_roundtrip),
        cmocka_unit_test(test_plain_token),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
