/* Unit tests for --open=perfetto's request heads (src/pfopen_req.c): the
 * head's end with CRLF or bare LF, the request line, Host and Origin in any
 * case, two Host headers refused, and only 127.0.0.1:PORT and
 * localhost:PORT taken as this server's name. */
#include "testutil.h"

#include "src/pfopen_req.h"

static void head_end(void **st)
{
    (void)st;
    static const char crlf[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\nbody";
    assert_int_equal(pfreq_head_len(crlf, sizeof(crlf) - 1), sizeof(crlf) - 5);
    static const char lf[] = "GET / HTTP/1.1\nHost: x\n\n";
    assert_int_equal(pfreq_head_len(lf, sizeof(lf) - 1), sizeof(lf) - 1);
    static const char part[] = "GET / HTTP/1.1\r\nHost: x\r\n";
    assert_int_equal(pfreq_head_len(part, sizeof(part) - 1), 0);
    assert_int_equal(pfreq_head_len("", 0), 0);
}

static void parse_fields(void **st)
{
    (void)st;
    char h[] = "GET /cap.perfetto-trace?x=1#f HTTP/1.1\r\nhOsT:  127.0.0.1:9001 \r\n"
               "ORIGIN: https://ui.perfetto.dev\r\nAccept: */*\r\n\r\n";
    struct pfreq r;
    assert_int_equal(pfreq_parse(h, &r), 0);
    assert_string_equal(r.method, "GET");
    assert_string_equal(r.path, "/cap.perfetto-trace");
    assert_string_equal(r.host, "127.0.0.1:9001");
    assert_string_equal(r.origin, "https://ui.perfetto.dev");
    assert_true(pfreq_host_ok(&r, 9001));
    assert_false(pfreq_host_ok(&r, 9002));
}

static void bad_lines(void **st)
{
    (void)st;
    struct pfreq r;
    char a[] = "GET\r\n\r\n", b[] = "\r\n\r\n", c[] = "GET  HTTP/1.1\r\n\r\n";
    assert_int_equal(pfreq_parse(a, &r), -1);
    assert_int_equal(pfreq_parse(b, &r), -1);
    assert_int_equal(pfreq_parse(c, &r), -1);
    char d[] = "GET / HTTP/1.1\r\n\r\n";   /* no Host: parsed, but not ours */
    assert_int_equal(pfreq_parse(d, &r), 0);
    assert_null(r.host);
    assert_null(r.origin);
    assert_false(pfreq_host_ok(&r, 9001));
}

static int host_ok(const char *host, int port)
{
    char h[256];
    snprintf(h, sizeof(h), "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", host);
    struct pfreq r;
    return pfreq_parse(h, &r) == 0 && pfreq_host_ok(&r, port);
}

static void host_names(void **st)
{
    (void)st;
    assert_true(host_ok("127.0.0.1:9001", 9001));
    assert_true(host_ok("localhost:9001", 9001));
    assert_true(host_ok("LocalHost:9001", 9001));
    assert_false(host_ok("rebind.example:9001", 9001));    /* DNS rebinding */
    assert_false(host_ok("127.0.0.1.nip.io:9001", 9001));
    assert_false(host_ok("evil127.0.0.1:9001", 9001));
    assert_false(host_ok("127.0.0.1", 9001));
    assert_false(host_ok("127.0.0.1:90010", 9001));
    assert_false(host_ok("127.0.0.1:9001:9001", 9001));
    assert_false(host_ok("", 9001));
    char two[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1:9001\r\nHost: evil:9001\r\n\r\n";
    struct pfreq r;
    assert_int_equal(pfreq_parse(two, &r), 0);
    assert_false(pfreq_host_ok(&r, 9001));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(head_end),
        cmocka_unit_test(parse_fields),
        cmocka_unit_test(bad_lines),
        cmocka_unit_test(host_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
