/*
 * Commands over a fake device: which service string is opened (shell v2,
 * legacy shell, exec; argv quoted, scripts verbatim), close-stdin sent for
 * shell v2, stdout/stderr/exit kept apart, the output limit, streaming to
 * callbacks with progress, a receiver stopping the transfer, and streams
 * that end early.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adb_fake.h"

static void frame(struct dynbuf *b, uint8_t id, const void *p, size_t n)
{
    uint8_t h[ADB_SHV2_HDR];
    adb_shv2_header(h, id, (uint32_t)n);
    dynbuf_add(b, h, sizeof h);
    dynbuf_add(b, p, n);
}

static const char *const echo_argv[] = {"echo", "it's", NULL};

static void test_v2_run(void **state)
{
    (void)state;
    struct dynbuf r;
    dynbuf_init(&r, 4096);
    frame(&r, ADB_SHV2_STDOUT, "it's\n", 5);
    frame(&r, ADB_SHV2_STDERR, "warn\n", 5);
    frame(&r, ADB_SHV2_STDOUT, "more", 4);
    frame(&r, ADB_SHV2_EXIT, "\x03", 1);
    for (size_t chunk = 1; chunk < 40; chunk += 6) {
        struct fake_dev fd;
        fake_dev_init(&fd, "cmd,shell_v2", r.data, r.len, chunk);
        struct adb_result res;
        assert_int_equal(adb_run(&fd.base, ADB_SHELL, echo_argv, 1024, &res), ST_OK);
        assert_string_equal(fd.service, "shell,v2,raw:'echo' 'it'\\''s'");
        assert_int_equal(fd.written.len, 5);
        assert_memory_equal(fd.written.data, "\x04\0\0\0\0", 5);  /* close stdin */
        assert_string_equal(res.out, "it's\nmore");
        assert_int_equal(res.out_len, 9);
        assert_string_equal(res.err, "warn\n");
        assert_int_equal(res.exit_code, 3);
        assert_true(res.split);
        assert_int_equal(fd.closes, 1);
        adb_result_free(&res);
        fake_dev_done(&fd);
    }
    dynbuf_free(&r);
}

static void test_v2_ends_early(void **state)
{
    (void)state;
    struct dynbuf r;
    dynbuf_init(&r, 4096);
    frame(&r, ADB_SHV2_STDOUT, "partial", 7);
    struct fake_dev fd;
    struct adb_result res;
    fake_dev_init(&fd, "shell_v2", r.data, r.len, 4);
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, echo_argv, 1024, &res), ST_ECLOSED);
    assert_string_equal(res.out, "partial");    /* what came is kept */
    assert_int_equal(res.exit_code, ADB_EXIT_UNKNOWN);
    assert_non_null(strstr(adb_device_error(&fd.base), "exit status"));
    adb_result_free(&res);
    fake_dev_done(&fd);

    fake_dev_init(&fd, "shell_v2", r.data, r.len - 2, 4);
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, echo_argv, 1024, &res), ST_ETRUNCATED);
    adb_result_free(&res);
    fake_dev_done(&fd);

    /* legacy shell bytes misread as v2 are rejected, not buffered */
    static const char text[] = "\x01garbage that is not framed";
    fake_dev_init(&fd, "shell_v2", text, sizeof text - 1, 64);
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, echo_argv, 1024, &res), ST_EPROTO);
    adb_result_free(&res);
    fake_dev_done(&fd);
    dynbuf_free(&r);
}

static void test_legacy_and_exec(void **state)
{
    (void)state;
    static const char merged[] = "out\nerr\n";
    struct fake_dev fd;
    struct adb_result res;
    fake_dev_init(&fd, "cmd,stat_v2", merged, sizeof merged - 1, 3);
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, echo_argv, 1024, &res), ST_OK);
    assert_string_equal(fd.service, "shell:'echo' 'it'\\''s'");
    assert_int_equal(fd.written.len, 0);
    assert_string_equal(res.out, merged);
    assert_string_equal(res.err, "");
    assert_false(res.split);
    assert_int_equal(res.exit_code, ADB_EXIT_UNKNOWN);
    adb_result_free(&res);

    /* shell v2 demanded but missing: nothing is opened */
    fd.opens = 0;
    assert_int_equal(adb_run(&fd.base, ADB_SHELL_V2, echo_argv, 1024, &res),
                     ST_EUNSUPPORTED);
    assert_int_equal(fd.opens, 0);
    assert_non_null(res.out);
    adb_result_free(&res);
    fake_dev_done(&fd);

    /* exec: binary bytes come through untouched, even with shell_v2 */
    static const char bin[] = "\x78\x9c\0\r\n\r\r\n\xff";
    fake_dev_init(&fd, "shell_v2", bin, sizeof bin - 1, 2);
    const char *const cat[] = {"cat", "/data/x y", NULL};
    assert_int_equal(adb_run(&fd.base, ADB_EXEC, cat, 1024, &res), ST_OK);
    assert_string_equal(fd.service, "exec:'cat' '/data/x y'");
    assert_int_equal(res.out_len, sizeof bin - 1);
    assert_memory_equal(res.out, bin, sizeof bin - 1);
    assert_int_equal(res.exit_code, ADB_EXIT_UNKNOWN);
    adb_result_free(&res);

    /* forced legacy shell */
    assert_int_equal(adb_run_script(&fd.base, ADB_SHELL_LEGACY, "echo $X | wc -c", 1024,
                                    &res), ST_OK);
    assert_string_equal(fd.service, "shell:echo $X | wc -c");
    adb_result_free(&res);
    fake_dev_done(&fd);
}

static void test_limits_and_args(void **state)
{
    (void)state;
    static const char big[] = "0123456789abcdef";
    struct fake_dev fd;
    struct adb_result res;
    fake_dev_init(&fd, "", big, sizeof big - 1, 5);
    assert_int_equal(adb_run(&fd.base, ADB_EXEC, echo_argv, 10, &res), ST_ETOOBIG);
    assert_non_null(strstr(adb_device_error(&fd.base), "exceeds 10 bytes"));
    adb_result_free(&res);
    assert_int_equal(adb_run(&fd.base, ADB_EXEC, echo_argv, 16, &res), ST_OK);
    adb_result_free(&res);

    const char *const empty[] = {NULL};
    fd.opens = 0;
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, empty, 10, &res), ST_EINVAL);
    adb_result_free(&res);
    assert_int_equal(adb_run_script(&fd.base, ADB_SHELL, "", 10, &res), ST_EINVAL);
    adb_result_free(&res);
    assert_int_equal(fd.opens, 0);

    /* a command longer than a request can carry */
    char *huge = malloc(70000);
    memset(huge, 'a', 69999);
    huge[69999] = '\0';
    const char *const hv[] = {huge, NULL};
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, hv, 10, &res), ST_ETOOBIG);
    adb_result_free(&res);
    free(huge);
    fake_dev_done(&fd);
}

struct stream_ctx {
    struct dynbuf out, err;
    uint64_t last;
    int progress_calls;
    size_t stop_after;      /* return ST_EZLIB once out has this much */
};

static enum st_err on_out(void *ctx, const void *p, size_t n)
{
    struct stream_ctx *c = ctx;
    dynbuf_add(&c->out, p, n);
    return c->stop_after && c->out.len >= c->stop_after ? ST_EZLIB : ST_OK;
}

static enum st_err on_err(void *ctx, const void *p, size_t n)
{
    struct stream_ctx *c = ctx;
    return dynbuf_add(&c->err, p, n);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct stream_ctx *c = ctx;
    assert_true(done >= c->last);
    assert_int_equal(total, 0);
    c->last = done;
    c->progress_calls++;
}

static void test_streaming(void **state)
{
    (void)state;
    size_t n = 3u << 20;    /* several MiB in 64 KiB frames */
    struct dynbuf r;
    dynbuf_init(&r, n + 4096);
    uint8_t *chunk = malloc(65536);
    for (size_t i = 0; i < 65536; i++)
        chunk[i] = (uint8_t)i;
    for (size_t off = 0; off < n; off += 65536)
        frame(&r, ADB_SHV2_STDOUT, chunk, 65536);
    frame(&r, ADB_SHV2_STDERR, "done\n", 5);
    frame(&r, ADB_SHV2_EXIT, "\0", 1);
    struct fake_dev fd;
    fake_dev_init(&fd, "shell_v2", r.data, r.len, 100000);
    struct stream_ctx c = {.stop_after = 0};
    dynbuf_init(&c.out, n);
    dynbuf_init(&c.err, 100);
    struct adb_sink sink = {on_out, on_err, on_progress, &c};
    int code = -5;
    const char *const argv[] = {"atrace", "--async_dump", "-z", NULL};
    assert_int_equal(adb_stream_cmd(&fd.base, ADB_SHELL, argv, &sink, &code), ST_OK);
    assert_int_equal(code, 0);
    assert_int_equal(c.out.len, n);
    assert_memory_equal(c.out.data + n - 65536, chunk, 65536);
    assert_string_equal(dynbuf_str(&c.err), "done\n");
    assert_int_equal(c.last, n + 5);
    assert_true(c.progress_calls > 10);
    fake_dev_done(&fd);

    /* the receiver stops it: its code comes back, the stream is closed */
    fake_dev_init(&fd, "shell_v2", r.data, r.len, 100000);
    dynbuf_reset(&c.out);
    c.stop_after = 200000;
    c.last = 0;
    assert_int_equal(adb_stream_cmd(&fd.base, ADB_SHELL, argv, &sink, &code), ST_EZLIB);
    assert_int_equal(code, ADB_EXIT_UNKNOWN);
    assert_true(c.out.len < n);
    assert_int_equal(fd.closes, 1);
    fake_dev_done(&fd);

    /* NULL callbacks drop bytes; exit status still arrives */
    fake_dev_init(&fd, "shell_v2", r.data, r.len, 7777);
    struct adb_sink none = {0};
    assert_int_equal(adb_stream_script(&fd.base, ADB_SHELL, "atrace --async_dump -z",
                                       &none, &code), ST_OK);
    assert_string_equal(fd.service, "shell,v2,raw:atrace --async_dump -z");
    assert_int_equal(code, 0);
    fake_dev_done(&fd);

    dynbuf_free(&c.out);
    dynbuf_free(&c.err);
    dynbuf_free(&r);
    free(chunk);
}

static void test_open_refused(void **state)
{
    (void)state;
    struct fake_dev fd;
    struct adb_result res;
    fake_dev_init(&fd, "shell_v2", "", 0, 1);
    fd.open_result = ST_EFAIL;
    assert_int_equal(adb_run(&fd.base, ADB_SHELL, echo_argv, 10, &res), ST_EFAIL);
    assert_string_equal(res.out, "");
    adb_result_free(&res);
    adb_result_free(NULL);
    fake_dev_done(&fd);
}


/* adb_cmd: the caller pulls one read at a time; frames split anywhere */
static void test_cmd_pieces(void **state)
{
    (void)state;
    struct dynbuf r;
    dynbuf_init(&r, 4096);
    frame(&r, ADB_SHV2_STDOUT, "1234\n", 5);
    frame(&r, ADB_SHV2_STDOUT, "trace line\n", 11);
    frame(&r, ADB_SHV2_STDERR, "note\n", 5);
    frame(&r, ADB_SHV2_EXIT, "\x07", 1);
    for (size_t chunk = 1; chunk < 40; chunk += 3) {
        struct fake_dev fd;
        fake_dev_init(&fd, "shell_v2", r.data, r.len, chunk);
        struct stream_ctx c = {.stop_after = 0};
        dynbuf_init(&c.out, 1024);
        dynbuf_init(&c.err, 1024);
        struct adb_sink sink = {on_out, on_err, on_progress, &c};
        struct adb_cmd *cmd;
        assert_int_equal(adb_cmd_start(&fd.base, ADB_SHELL, "echo $$; exec atrace --stream",
                                       &cmd), ST_OK);
        assert_string_equal(fd.service, "shell,v2,raw:echo $$; exec atrace --stream");
        assert_memory_equal(fd.written.data, "\x04\0\0\0\0", 5);
        int reads = 0;
        while (!adb_cmd_ended(cmd)) {
            assert_int_equal(adb_cmd_read(cmd, &sink, 10), ST_OK);
            assert_true(++reads < 1000);
        }
        assert_true(reads > 1);
        assert_string_equal(dynbuf_str(&c.out), "1234\ntrace line\n");
        assert_string_equal(dynbuf_str(&c.err), "note\n");
        assert_int_equal(adb_cmd_exit_code(cmd), 7);
        assert_int_equal(adb_cmd_read(cmd, &sink, 10), ST_OK);   /* ended stays ended */
        adb_cmd_free(cmd);
        assert_int_equal(fd.closes, 1);
        dynbuf_free(&c.out);
        dynbuf_free(&c.err);
        fake_dev_done(&fd);
    }

    /* a v2 stream that just stops (the link dropped): ST_ECLOSED, output kept */
    struct fake_dev fd;
    fake_dev_init(&fd, "shell_v2", r.data, r.len - 6, 8);
    struct stream_ctx c = {.stop_after = 0};
    dynbuf_init(&c.out, 1024);
    dynbuf_init(&c.err, 1024);
    struct adb_sink sink = {on_out, on_err, NULL, &c};
    struct adb_cmd *cmd;
    assert_int_equal(adb_cmd_start(&fd.base, ADB_SHELL, "x", &cmd), ST_OK);
    enum st_err e;
    while ((e = adb_cmd_read(cmd, &sink, 10)) == ST_OK && !adb_cmd_ended(cmd)) {
    }
    assert_int_equal(e, ST_ECLOSED);
    assert_non_null(strstr(adb_cmd_error(cmd), "without an exit status"));
    assert_string_equal(dynbuf_str(&c.err), "note\n");
    assert_int_equal(adb_cmd_exit_code(cmd), ADB_EXIT_UNKNOWN);
    adb_cmd_free(cmd);
    fake_dev_done(&fd);

    /* exec: raw bytes, the end of the stream is the end of the command */
    fake_dev_init(&fd, "shell_v2", "5\r\nabc", 7, 2);
    dynbuf_reset(&c.out);
    assert_int_equal(adb_cmd_start(&fd.base, ADB_EXEC, "x", &cmd), ST_OK);
    assert_string_equal(fd.service, "exec:x");
    while ((e = adb_cmd_read(cmd, &sink, 10)) == ST_OK && !adb_cmd_ended(cmd)) {
    }
    assert_int_equal(e, ST_OK);
    assert_string_equal(dynbuf_str(&c.out), "5\r\nabc");
    assert_int_equal(adb_cmd_exit_code(cmd), ADB_EXIT_UNKNOWN);
    adb_cmd_free(cmd);
    adb_cmd_free(NULL);
    fake_dev_done(&fd);

    /* refused: nothing to free, the device says why */
    fake_dev_init(&fd, "shell_v2", "", 0, 1);
    fd.open_result = ST_EFAIL;
    assert_int_equal(adb_cmd_start(&fd.base, ADB_SHELL, "x", &cmd), ST_EFAIL);
    assert_null(cmd);
    fake_dev_done(&fd);
    dynbuf_free(&c.out);
    dynbuf_free(&c.err);
    dynbuf_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2_run),
        cmocka_unit_test(test_v2_ends_early),
        cmocka_unit_test(test_legacy_and_exec),
        cmocka_unit_test(test_limits_and_args),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_open_refused),
        cmocka_unit_test(test_cmd_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
