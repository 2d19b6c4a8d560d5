/*
 * Shell protocol v2 decoder: the same byte stream fed whole, one byte at a
 * time and in every other chunk size must give the same stdout, stderr
 * and exit status; oversize frames and bad exit frames are rejected;
 * a stream cut inside a frame is reported as truncated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adb/adb_int.h"

struct out {
    struct dynbuf o, e;
    int exit_code;
    int events;
};

static size_t frame(uint8_t *p, uint8_t id, const char *data, size_t n)
{
    adb_shv2_header(p, id, (uint32_t)n);
    memcpy(p + ADB_SHV2_HDR, data, n);
    return ADB_SHV2_HDR + n;
}

/* Feed buf in pieces of `chunk` bytes; returns the first error. */
static enum st_err decode(const uint8_t *buf, size_t len, size_t chunk, struct out *o)
{
    struct adb_shv2_dec d;
    adb_shv2_init(&d);
    dynbuf_init(&o->o, 1 << 20);
    dynbuf_init(&o->e, 1 << 20);
    o->exit_code = -1;
    o->events = 0;
    for (size_t off = 0; off < len;) {
        size_t n = len - off < chunk ? len - off : chunk;
        const uint8_t *p = buf + off;
        off += n;
        while (n) {
            struct adb_shv2_ev ev;
            size_t used = 0;
            enum st_err e = adb_shv2_feed(&d, p, n, &used, &ev);
            if (e)
                return e;
            assert_true(used <= n);
            assert_true(used > 0 || ev.type != ADB_SHV2_EV_NONE);
            p += used;
            n -= used;
            if (ev.type != ADB_SHV2_EV_NONE)
                o->events++;
            if (ev.type == ADB_SHV2_EV_OUT)
                dynbuf_add(&o->o, ev.p, ev.n);
            else if (ev.type == ADB_SHV2_EV_ERR)
                dynbuf_add(&o->e, ev.p, ev.n);
            else if (ev.type == ADB_SHV2_EV_EXIT)
                o->exit_code = ev.code;
        }
    }
    return adb_shv2_finish(&d);
}

static void out_free(struct out *o)
{
    dynbuf_free(&o->o);
    dynbuf_free(&o->e);
}

static void test_every_split(void **state)
{
    (void)state;
    uint8_t buf[512];
    size_t len = 0;
    len += frame(buf + len, ADB_SHV2_STDOUT, "hello ", 6);
    len += frame(buf + len, ADB_SHV2_STDERR, "warning: x\n", 11);
    len += frame(buf + len, ADB_SHV2_STDOUT, "", 0);
    len += frame(buf + len, ADB_SHV2_WINSIZE, "24x80,0x0", 10);    /* skipped */
    len += frame(buf + len, 0x42, "future", 6);                   /* skipped */
    len += frame(buf + len, ADB_SHV2_STDOUT, "world\n\0bin", 10);
    len += frame(buf + len, ADB_SHV2_EXIT, "\x07", 1);
    for (size_t chunk = 1; chunk <= len; chunk++) {
        struct out o;
        assert_int_equal(decode(buf, len, chunk, &o), ST_OK);
        assert_int_equal(o.o.len, 16);
        assert_memory_equal(o.o.data, "hello world\n\0bin", 16);
        assert_string_equal(dynbuf_str(&o.e), "warning: x\n");
        assert_int_equal(o.exit_code, 7);
        out_free(&o);
    }
}

static void test_several_frames_per_chunk(void **state)
{
    (void)state;
    /* the bytes adbd sent for `echo hi` (reference notes) */
    static const uint8_t wire[] = {1, 3, 0, 0, 0, 'h', 'i', '\n', 3, 1, 0, 0, 0, 0};
    struct out o;
    assert_int_equal(decode(wire, sizeof wire, sizeof wire, &o), ST_OK);
    assert_string_equal(dynbuf_str(&o.o), "hi\n");
    assert_int_equal(o.exit_code, 0);
    assert_int_equal(o.events, 2);
    out_free(&o);

    static const uint8_t code255[] = {3, 1, 0, 0, 0, 0xff};
    assert_int_equal(decode(code255, sizeof code255, 6, &o), ST_OK);
    assert_int_equal(o.exit_code, 255);
    out_free(&o);
}

static void test_large_frame_streams(void **state)
{
    (void)state;
    /* a 1 MiB stdout frame arrives in pieces, never buffered whole */
    size_t n = 1u << 20;
    uint8_t *buf = malloc(n + 16);
    assert_non_null(buf);
    adb_shv2_header(buf, ADB_SHV2_STDOUT, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        buf[ADB_SHV2_HDR + i] = (uint8_t)(i * 7);
    struct out o;
    assert_int_equal(decode(buf, n + ADB_SHV2_HDR, 4096, &o), ST_OK);
    assert_int_equal(o.o.len, n);
    assert_memory_equal(o.o.data, buf + ADB_SHV2_HDR, n);
    assert_true(o.events >= 256);
    assert_int_equal(o.exit_code, -1);
    out_free(&o);
    free(buf);
}

static void test_rejects(void **state)
{
    (void)state;
    uint8_t h[ADB_SHV2_HDR + 2];
    struct out o;
    adb_shv2_header(h, ADB_SHV2_STDOUT, ADB_SHV2_MAX_FRAME + 1);
    for (size_t chunk = 1; chunk <= ADB_SHV2_HDR; chunk++) {
        assert_int_equal(decode(h, ADB_SHV2_HDR, chunk, &o), ST_EPROTO);
        out_free(&o);
    }
    adb_shv2_header(h, ADB_SHV2_STDERR, 0xffffffffu);
    assert_int_equal(decode(h, ADB_SHV2_HDR, 1, &o), ST_EPROTO);
    out_free(&o);
    adb_shv2_header(h, ADB_SHV2_EXIT, 2);
    h[5] = 1;
    h[6] = 2;
    assert_int_equal(decode(h, 7, 7, &o), ST_EPROTO);
    out_free(&o);
    adb_shv2_header(h, ADB_SHV2_EXIT, 0);
    assert_int_equal(decode(h, 5, 1, &o), ST_EPROTO);
    out_free(&o);
    /* exactly the maximum is fine (only the header is fed) */
    adb_shv2_header(h, ADB_SHV2_STDOUT, ADB_SHV2_MAX_FRAME);
    assert_int_equal(decode(h, ADB_SHV2_HDR, 5, &o), ST_ETRUNCATED);
    out_free(&o);
}

static void test_truncated(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = frame(buf, ADB_SHV2_STDOUT, "abcdef", 6);
    struct out o;
    for (size_t cut = 1; cut < len; cut++) {
        assert_int_equal(decode(buf, cut, 3, &o), ST_ETRUNCATED);
        out_free(&o);
    }
    assert_int_equal(decode(buf, len, 3, &o), ST_OK);
    out_free(&o);
    assert_int_equal(decode(buf, 0, 3, &o), ST_OK);
    out_free(&o);
}

static void test_header(void **state)
{
    (void)state;
    uint8_t h[ADB_SHV2_HDR];
    adb_shv2_header(h, ADB_SHV2_CLOSE_STDIN, 0);
    assert_memory_equal(h, "\x04\0\0\0\0", 5);
    adb_shv2_header(h, ADB_SHV2_STDIN, 0x01020304);
    assert_memory_equal(h, "\x00\x04\x03\x02\x01", 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_split),
        cmocka_unit_test(test_several_frames_per_chunk),
        cmocka_unit_test(test_large_frame_streams),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
