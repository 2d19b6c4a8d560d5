/*
 * Smart-socket framing and parsing: hex4, OKAY/FAIL status and data
 * replies read through a memory conn that hands out 1, 2, 3... bytes per
 * read (the server may split status and body anywhere), server address
 * resolution from the environment, FAIL message classification.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adb/adb_int.h"

static void test_hex4(void **state)
{
    (void)state;
    char h[4];
    unsigned n = 0;
    adb_hex4_encode(h, 12);
    assert_memory_equal(h, "000c", 4);
    adb_hex4_encode(h, 0xffff);
    assert_memory_equal(h, "ffff", 4);
    assert_int_equal(adb_hex4_decode("00aF", &n), ST_OK);
    assert_int_equal(n, 0xaf);
    assert_int_equal(adb_hex4_decode("0029", &n), ST_OK);
    assert_int_equal(n, 41);
    assert_int_equal(adb_hex4_decode("00g0", &n), ST_EPROTO);
    assert_int_equal(adb_hex4_decode(" 123", &n), ST_EPROTO);
    assert_int_equal(adb_hex4_decode("-123", &n), ST_EPROTO);
}

static void test_send_request(void **state)
{
    (void)state;
    struct adb_conn *c = adb_conn_mem_new("", 0, 1);
    assert_int_equal(adb_ss_send(c, "host:version", -1), ST_OK);
    const struct dynbuf *w = adb_conn_mem_written(c);
    assert_int_equal(w->len, 16);
    assert_memory_equal(w->data, "000chost:version", 16);
    assert_int_equal(adb_ss_send(c, "", -1), ST_EINVAL);
    adb_conn_close(c);

    /* the longest request hex4 can frame, and one more */
    static char big[0x10001];
    memset(big, 'x', sizeof big - 1);
    big[0xffff] = '\0';
    c = adb_conn_mem_new("", 0, 1);
    assert_int_equal(adb_ss_send(c, big, -1), ST_OK);
    assert_memory_equal(adb_conn_mem_written(c)->data, "ffff", 4);
    big[0xffff] = 'x';
    assert_int_equal(adb_ss_send(c, big, -1), ST_ETOOBIG);
    adb_conn_close(c);
}

/* Parse `reply` as status (+ body) with every read size from 1 to 9. */
static void check_reply(const char *reply, size_t len, enum st_err want_status,
                        const char *want_text, int with_body)
{
    for (size_t chunk = 1; chunk < 10; chunk++) {
        struct adb_conn *c = adb_conn_mem_new(reply, len, chunk);
        struct dynbuf b;
        dynbuf_init(&b, 1 << 16);
        enum st_err e = adb_ss_status(c, -1);
        assert_int_equal(e, want_status);
        if (e == ST_EFAIL)
            assert_string_equal(c->err, want_text);
        if (!e && with_body) {
            assert_int_equal(adb_ss_body(c, -1, 1 << 16, &b), ST_OK);
            assert_string_equal(dynbuf_str(&b), want_text);
        }
        dynbuf_free(&b);
        adb_conn_close(c);
    }
}

static void test_status_split(void **state)
{
    (void)state;
    check_reply("OKAY", 4, ST_OK, NULL, 0);
    check_reply("OKAY00040029", 12, ST_OK, "0029", 1);
    check_reply("OKAY0000", 8, ST_OK, "", 1);
    check_reply("FAIL0016device 'abc' not found", 30, ST_EFAIL,
                "device 'abc' not found", 0);
    check_reply("FAIL0000", 8, ST_EFAIL, "request refused", 0);
    const char multi[] = "FAIL001bdevice unauthorized.\nPlease";
    check_reply(multi, sizeof multi - 1, ST_EFAIL, "device unauthorized.\nPlease", 0);
}

static void test_status_bad(void **state)
{
    (void)state;
    check_reply("OKA", 3, ST_ECLOSED, NULL, 0);     /* server closed early */
    check_reply("", 0, ST_ECLOSED, NULL, 0);
    check_reply("HELO", 4, ST_EPROTO, NULL, 0);
    check_reply("FAIL00", 6, ST_ECLOSED, NULL, 0);
    check_reply("FAILzz12", 8, ST_EPROTO, NULL, 0);
    check_reply("FAIL0010short", 13, ST_ECLOSED, NULL, 0);

    struct adb_conn *c = adb_conn_mem_new("OKAY0010abc", 11, 2);
    struct dynbuf b;
    dynbuf_init(&b, 100);
    assert_int_equal(adb_ss_status(c, -1), ST_OK);
    assert_int_equal(adb_ss_body(c, -1, 100, &b), ST_ECLOSED);
    assert_non_null(strstr(c->err, "closed"));
    adb_conn_close(c);

    /* a body over the caller's maximum is refused, not cut */
    c = adb_conn_mem_new("0010abcdefghijklmnop", 20, 3);
    assert_int_equal(adb_ss_body(c, -1, 15, &b), ST_ETOOBIG);
    adb_conn_close(c);
    dynbuf_free(&b);
}

static void check_env(const char *sock, const char *host, const char *port,
                      enum st_err want, const char *want_host, unsigned want_port)
{
    struct adb_addr a = {"unset", 1};
    char err[ADB_ERRLEN] = "";
    enum st_err e = adb_addr_from_env(sock, host, port, &a, err, sizeof err);
    assert_int_equal(e, want);
    if (e == ST_OK) {
        assert_string_equal(a.host, want_host);
        assert_int_equal(a.port, want_port);
    } else {
        assert_true(err[0] != '\0');
        assert_string_equal(a.host, "unset");   /* untouched on error */
    }
}

static void test_addr_env(void **state)
{
    (void)state;
    check_env(NULL, NULL, NULL, ST_OK, "127.0.0.1", 5037);
    check_env("", "", "", ST_OK, "127.0.0.1", 5037);
    check_env(NULL, NULL, "15037", ST_OK, "127.0.0.1", 15037);
    check_env(NULL, "10.0.0.2", NULL, ST_OK, "10.0.0.2", 5037);
    check_env(NULL, "::1", "6000", ST_OK, "::1", 6000);
    check_env("tcp:localhost:7000", "10.0.0.2", "15037", ST_OK, "localhost", 7000);
    check_env("tcp:1.2.3.4:5038", NULL, NULL, ST_OK, "1.2.3.4", 5038);
    check_env("tcp:[::1]:5039", NULL, NULL, ST_OK, "::1", 5039);
    check_env("tcp:5040", NULL, NULL, ST_OK, "127.0.0.1", 5040);
    check_env(NULL, NULL, "0", ST_EINVAL, NULL, 0);
    check_env(NULL, NULL, "65536", ST_EINVAL, NULL, 0);
    check_env(NULL, NULL, "50x", ST_EINVAL, NULL, 0);
    check_env(NULL, NULL, "-1", ST_EINVAL, NULL, 0);
    check_env("tcp:host:", NULL, NULL, ST_EINVAL, NULL, 0);
    check_env("tcp::5037", NULL, NULL, ST_EINVAL, NULL, 0);
    check_env("tcp:[::1]5037", NULL, NULL, ST_EINVAL, NULL, 0);
    check_env("localabstract:adb", NULL, NULL, ST_EUNSUPPORTED, NULL, 0);
}

static void test_addr_parse(void **state)
{
    (void)state;
    struct adb_addr a;
    char err[ADB_ERRLEN];
    assert_int_equal(adb_addr_parse("127.0.0.1:5038", &a, err, sizeof err), ST_OK);
    assert_string_equal(a.host, "127.0.0.1");
    assert_int_equal(a.port, 5038);
    assert_int_equal(adb_addr_parse("5039", &a, err, sizeof err), ST_OK);
    assert_int_equal(a.port, 5039);
    assert_int_equal(adb_addr_parse("nohost", &a, err, sizeof err), ST_EINVAL);
    assert_non_null(strstr(err, "nohost"));
}

static void test_client_env(void **state)
{
    (void)state;
    struct adb_client *c = adb_client_new();
    assert_non_null(c);
    assert_string_equal(adb_client_server(c), "127.0.0.1:5037");
    setenv("ANDROID_ADB_SERVER_PORT", "15099", 1);
    unsetenv("ADB_SERVER_SOCKET");
    unsetenv("ANDROID_ADB_SERVER_ADDRESS");
    assert_int_equal(adb_client_use_env(c), ST_OK);
    assert_string_equal(adb_client_server(c), "127.0.0.1:15099");
    setenv("ADB_SERVER_SOCKET", "tcp:[::1]:6001", 1);
    assert_int_equal(adb_client_use_env(c), ST_OK);
    assert_string_equal(adb_client_server(c), "[::1]:6001");
    setenv("ADB_SERVER_SOCKET", "tcp:x:0", 1);
    assert_int_equal(adb_client_use_env(c), ST_EINVAL);
    assert_non_null(strstr(adb_client_error(c), "ADB_SERVER_SOCKET"));
    unsetenv("ADB_SERVER_SOCKET");
    unsetenv("ANDROID_ADB_SERVER_PORT");
    adb_client_free(c);
    adb_client_free(NULL);
}

static void test_fail_code(void **state)
{
    (void)state;
    assert_int_equal(adb_fail_code("device 'x' not found"), ST_ENOENT);
    assert_int_equal(adb_fail_code("no devices/emulators found"), ST_ENODEVICE);
    assert_int_equal(adb_fail_code("more than one device/emulator"), ST_EMULTIDEV);
    assert_int_equal(adb_fail_code("device offline"), ST_EOFFLINE);
    assert_int_equal(adb_fail_code("device unauthorized.\nThis adb server's "
                                   "$ADB_VENDOR_KEYS is not set"), ST_EUNAUTH);
    assert_int_equal(adb_fail_code("insufficient permissions for device"), ST_EPERM);
    assert_int_equal(adb_fail_code("closed"), ST_EFAIL);
}

static void test_features(void **state)
{
    (void)state;
    assert_true(adb_feature_in("stat_v2,cmd,shell_v2", "shell_v2"));
    assert_true(adb_feature_in("shell_v2\n", "shell_v2"));
    assert_false(adb_feature_in("stat_v2,cmd,shell_v2x", "shell_v2"));
    assert_false(adb_feature_in("", "shell_v2"));
    char *s = adb_feature_intersect("shell_v2,cmd,stat_v2,ls_v2,cmd",
                                    "push_sync,stat_v2,cmd,shell_v2");
    assert_string_equal(s, "shell_v2,cmd,stat_v2");
    free(s);
    s = adb_feature_intersect("shell_v2", "");
    assert_string_equal(s, "");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hex4),
        cmocka_unit_test(test_send_request),
        cmocka_unit_test(test_status_split),
        cmocka_unit_test(test_status_bad),
        cmocka_unit_test(test_addr_env),
        cmocka_unit_test(test_addr_parse),
        cmocka_unit_test(test_client_env),
        cmocka_unit_test(test_fail_code),
        cmocka_unit_test(test_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
