/*
 * sync: records and sessions.  The record decoder gets replies in every
 * split (DATA headers straddling reads included), FAIL replies, and
 * malformed input; the session runs STAT/STA2, RECV and LIST over a fake
 * device whose stream returns 1..N bytes per read; pull-to-file leaves
 * either the complete file or nothing.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "adb_fake.h"

/* ---- reply builders ---------------------------------------------------- */

static void put32(struct dynbuf *b, uint32_t v)
{
    uint8_t p[4];
    adb_set32(p, v);
    dynbuf_add(b, p, 4);
}

static void put64(struct dynbuf *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

static void rec(struct dynbuf *b, const char *id, uint32_t v)
{
    dynbuf_add(b, id, 4);
    put32(b, v);
}

static void data(struct dynbuf *b, const uint8_t *p, size_t n)
{
    rec(b, "DATA", (uint32_t)n);
    dynbuf_add(b, p, n);
}

static void fail_rec(struct dynbuf *b, const char *msg)
{
    rec(b, "FAIL", (uint32_t)strlen(msg));
    dynbuf_addstr(b, msg);
}

static void sta2(struct dynbuf *b, uint32_t err, uint32_t mode, uint64_t size,
                 int64_t mtime)
{
    rec(b, "STA2", err);
    put64(b, 0x803);        /* dev */
    put64(b, 1234);         /* ino */
    put32(b, mode);
    put32(b, 1);            /* nlink */
    put32(b, 2000);
    put32(b, 2000);
    put64(b, size);
    put64(b, 1);            /* atime */
    put64(b, (uint64_t)mtime);
    put64(b, 3);            /* ctime */
}

static void dent(struct dynbuf *b, uint32_t mode, uint32_t size, const char *name)
{
    rec(b, "DENT", mode);
    put32(b, size);
    put32(b, 1700000000);
    put32(b, (uint32_t)strlen(name));
    dynbuf_addstr(b, name);
}

static uint8_t *pattern(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 31 + (i >> 8));
    return p;
}

/* ---- decoder ----------------------------------------------------------- */

struct got {
    struct dynbuf data;
    int stats, dents, done, fail;
    struct adb_stat st;
    char text[2048];
};

static enum st_err run_dec(enum adb_sync_expect x, const uint8_t *p, size_t len,
                           size_t chunk, struct got *g)
{
    struct adb_sync_dec d;
    adb_sync_dec_init(&d, x);
    memset(g, 0, sizeof *g);
    dynbuf_init(&g->data, 1 << 24);
    for (size_t off = 0; off < len;) {
        size_t n = len - off < chunk ? len - off : chunk;
        const uint8_t *q = p + off;
        off += n;
        while (n) {
            struct adb_sync_ev ev;
            size_t used;
            enum st_err e = adb_sync_dec_feed(&d, q, n, &used, &ev);
            if (e)
                return e;
            q += used;
            n -= used;
            switch (ev.type) {
            case ADB_SYNC_EV_DATA:
                assert_true(ev.len <= ADB_SYNC_DATA_MAX);
                dynbuf_add(&g->data, ev.data, ev.len);
                break;
            case ADB_SYNC_EV_STAT:
                g->stats++;
                g->st = ev.st;
                break;
            case ADB_SYNC_EV_DENT:
                g->dents++;
                g->st = ev.st;
                snprintf(g->text + strlen(g->text), sizeof g->text - strlen(g->text),
                         "%s;", ev.name);
                break;
            case ADB_SYNC_EV_DONE:
                g->done++;
                break;
            case ADB_SYNC_EV_FAIL:
                g->fail++;
                snprintf(g->text, sizeof g->text, "%s", ev.name);
                break;
            case ADB_SYNC_EV_NONE:
                assert_true(used > 0);
                break;
            }
        }
    }
    return adb_sync_dec_complete(&d) ? ST_OK : ST_ETRUNCATED;
}

static void test_recv_every_split(void **state)
{
    (void)state;
    size_t sizes[] = {65536, 1, 0, 4093, 65536, 7};
    size_t total = 0;
    for (size_t i = 0; i < 6; i++)
        total += sizes[i];
    uint8_t *src = pattern(total);
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    size_t off = 0;
    for (size_t i = 0; i < 6; i++) {
        data(&b, src + off, sizes[i]);
        off += sizes[i];
    }
    rec(&b, "DONE", 0);
    size_t chunks[] = {1, 2, 3, 5, 8, 13, 4096, 65536, 65544, 1 << 20};
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        struct got g;
        assert_int_equal(run_dec(ADB_SYNC_X_RECV, (uint8_t *)b.data, b.len, chunks[i],
                                 &g), ST_OK);
        assert_int_equal(g.data.len, total);
        assert_memory_equal(g.data.data, src, total);
        assert_int_equal(g.done, 1);
        dynbuf_free(&g.data);
    }
    dynbuf_free(&b);
    free(src);
}

static void test_recv_fail_and_bad(void **state)
{
    (void)state;
    struct dynbuf b;
    struct got g;
    dynbuf_init(&b, 1 << 20);
    fail_rec(&b, "open failed: No such file or directory");
    for (size_t chunk = 1; chunk < 12; chunk++) {
        assert_int_equal(run_dec(ADB_SYNC_X_RECV, (uint8_t *)b.data, b.len, chunk, &g),
                         ST_OK);
        assert_int_equal(g.fail, 1);
        assert_string_equal(g.text, "open failed: No such file or directory");
        dynbuf_free(&g.data);
    }
    /* data, then FAIL in the middle of a transfer */
    dynbuf_reset(&b);
    data(&b, (const uint8_t *)"abc", 3);
    fail_rec(&b, "read failed");
    assert_int_equal(run_dec(ADB_SYNC_X_RECV, (uint8_t *)b.data, b.len, 2, &g), ST_OK);
    assert_string_equal(dynbuf_str(&g.data), "abc");
    assert_int_equal(g.fail, 1);
    dynbuf_free(&g.data);

    /* a long message is cut to what we keep, the rest is consumed */
    dynbuf_reset(&b);
    char *longmsg = malloc(5000);
    memset(longmsg, 'm', 4999);
    longmsg[4999] = '\0';
    fail_rec(&b, longmsg);
    assert_int_equal(run_dec(ADB_SYNC_X_RECV, (uint8_t *)b.data, b.len, 100, &g), ST_OK);
    assert_int_equal(strlen(g.text), ADB_SYNC_MSG_KEEP);
    dynbuf_free(&g.data);
    free(longmsg);

    static const struct {
        const char *bytes;
        size_t len;
        enum st_err want;
    } bad[] = {
        {"DATA\x01\x00\x01\x00", 8, ST_EPROTO},         /* 65537 > 64 KiB */
        {"FAIL\x01\x00\x01\x00", 8, ST_EPROTO},
        {"DENT\0\0\0\0", 8, ST_EPROTO},                 /* not in a RECV reply */
        {"OKAY\0\0\0\0", 8, ST_EPROTO},
        {"DONE\0\0\0\0DATA", 12, ST_EPROTO},            /* bytes after the end */
        {"DATA\x05\0\0\0ab", 10, ST_ETRUNCATED},
        {"DON", 3, ST_ETRUNCATED},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (size_t chunk = 1; chunk <= bad[i].len; chunk++) {
            enum st_err e = run_dec(ADB_SYNC_X_RECV, (const uint8_t *)bad[i].bytes,
                                    bad[i].len, chunk, &g);
            if (e != bad[i].want)
                fail_msg("bad[%zu] chunk %zu: %s", i, chunk, st_errname(e));
            dynbuf_free(&g.data);
        }
    }
    dynbuf_free(&b);
}

static void test_stat_records(void **state)
{
    (void)state;
    struct dynbuf b;
    struct got g;
    dynbuf_init(&b, 4096);
    sta2(&b, 0, 0100644, 0x123456789ull, -5);
    assert_int_equal(b.len, 72);
    for (size_t chunk = 1; chunk <= 72; chunk++) {
        assert_int_equal(run_dec(ADB_SYNC_X_STAT2, (uint8_t *)b.data, b.len, chunk, &g),
                         ST_OK);
        assert_int_equal(g.stats, 1);
        assert_int_equal(g.st.mode, 0100644);
        assert_true(g.st.size == 0x123456789ull);
        assert_true(g.st.mtime == -5);
        assert_int_equal(g.st.error, 0);
        dynbuf_free(&g.data);
    }
    dynbuf_reset(&b);
    rec(&b, "STAT", 040755);
    put32(&b, 4096);
    put32(&b, 1700000000);
    assert_int_equal(run_dec(ADB_SYNC_X_STAT, (uint8_t *)b.data, b.len, 3, &g), ST_OK);
    assert_int_equal(g.st.mode, 040755);
    assert_int_equal(g.st.size, 4096);
    assert_int_equal(g.st.mtime, 1700000000);
    dynbuf_free(&g.data);
    /* a v1 STAT where STA2 was asked for is a protocol error */
    assert_int_equal(run_dec(ADB_SYNC_X_STAT2, (uint8_t *)b.data, b.len, 16, &g),
                     ST_EPROTO);
    dynbuf_free(&g.data);
    dynbuf_free(&b);
}

static void test_list_records(void **state)
{
    (void)state;
    struct dynbuf b;
    struct got g;
    dynbuf_init(&b, 4096);
    dent(&b, 040755, 4096, ".");
    dent(&b, 040755, 4096, "..");
    dent(&b, 0100644, 12, "trace.txt");
    dent(&b, 0100600, 0, "");
    rec(&b, "DONE", 0);
    put32(&b, 0);
    put32(&b, 0);
    put32(&b, 0);
    for (size_t chunk = 1; chunk < 30; chunk++) {
        assert_int_equal(run_dec(ADB_SYNC_X_LIST, (uint8_t *)b.data, b.len, chunk, &g),
                         ST_OK);
        assert_int_equal(g.dents, 4);
        assert_string_equal(g.text, ".;..;trace.txt;;");
        assert_int_equal(g.done, 1);
        dynbuf_free(&g.data);
    }
    dynbuf_reset(&b);
    rec(&b, "DENT", 0100644);
    put32(&b, 1);
    put32(&b, 2);
    put32(&b, ADB_SYNC_NAME_MAX + 1);
    assert_int_equal(run_dec(ADB_SYNC_X_LIST, (uint8_t *)b.data, b.len, 1, &g), ST_EPROTO);
    dynbuf_free(&g.data);
    dynbuf_free(&b);
}

static void test_request_encoding(void **state)
{
    (void)state;
    uint8_t buf[8 + ADB_SYNC_PATH_MAX + 1];
    size_t n = 0;
    assert_int_equal(adb_sync_req(buf, sizeof buf, &n, ADB_ID('R', 'E', 'C', 'V'),
                                  "/data/local/tmp/x"), ST_OK);
    assert_int_equal(n, 25);
    assert_memory_equal(buf, "RECV\x11\0\0\0/data/local/tmp/x", 25);
    char path[ADB_SYNC_PATH_MAX + 2];
    memset(path, 'p', sizeof path - 1);
    path[ADB_SYNC_PATH_MAX] = '\0';
    assert_int_equal(adb_sync_req(buf, sizeof buf, &n, ADB_ID('S', 'T', 'A', 'T'), path),
                     ST_OK);
    path[ADB_SYNC_PATH_MAX] = 'p';
    path[ADB_SYNC_PATH_MAX + 1] = '\0';
    assert_int_equal(adb_sync_req(buf, sizeof buf, &n, ADB_ID('S', 'T', 'A', 'T'), path),
                     ST_ETOOBIG);
    assert_int_equal(adb_sync_req(buf, 10, &n, ADB_ID('S', 'T', 'A', 'T'), "abc"),
                     ST_EINVAL);
}

/* ---- sessions over the fake device ------------------------------------- */

static enum st_err collect(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

static uint64_t last_done, last_total;
static void progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    assert_true(done >= last_done);
    last_done = done;
    last_total = total;
}

static void test_session_pull(void **state)
{
    (void)state;
    size_t total = 300000;
    uint8_t *src = pattern(total);
    struct dynbuf reply;
    dynbuf_init(&reply, 1 << 20);
    sta2(&reply, 0, 0100644, total, 1);
    for (size_t off = 0; off < total; off += 65536)
        data(&reply, src + off, total - off < 65536 ? total - off : 65536);
    rec(&reply, "DONE", 0);
    size_t chunks[] = {1, 7, 65536 + 3, 1 << 20};
    for (size_t i = 0; i < 4; i++) {
        struct fake_dev fd;
        fake_dev_init(&fd, "shell_v2,stat_v2", reply.data, reply.len, chunks[i]);
        struct adb_sync *s;
        assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
        assert_string_equal(fd.service, "sync:");
        struct dynbuf got;
        dynbuf_init(&got, 1 << 20);
        struct adb_sink sink = {.out = collect, .progress = progress, .ctx = &got};
        last_done = 0;
        assert_int_equal(adb_sync_pull(s, "/data/t", &sink), ST_OK);
        assert_int_equal(got.len, total);
        assert_memory_equal(got.data, src, total);
        assert_int_equal(last_done, total);
        assert_int_equal(last_total, total);
        adb_sync_free(s);
        /* STA2 /data/t, RECV /data/t, QUIT */
        assert_int_equal(fd.written.len, 15 + 15 + 8);
        assert_memory_equal(fd.written.data, "STA2\x07\0\0\0/data/tRECV\x07\0\0\0/data/t"
                            "QUIT\0\0\0\0", 38);
        assert_int_equal(fd.closes, 1);
        dynbuf_free(&got);
        fake_dev_done(&fd);
    }
    dynbuf_free(&reply);
    free(src);
}

static void test_session_errors(void **state)
{
    (void)state;
    struct dynbuf reply;
    dynbuf_init(&reply, 1 << 20);
    struct fake_dev fd;
    struct adb_sync *s;
    struct adb_sink sink = {0};
    struct adb_stat st;

    /* stat_v2: error 2 is "not found" */
    sta2(&reply, 2, 0, 0, 0);
    fake_dev_init(&fd, "stat_v2", reply.data, reply.len, 3);
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_pull(s, "/nope", &sink), ST_ENOENT);
    assert_non_null(strstr(adb_sync_error(s), "/nope"));
    adb_sync_free(s);
    fake_dev_done(&fd);

    /* v1 STAT: mode 0 means missing */
    dynbuf_reset(&reply);
    rec(&reply, "STAT", 0);
    put32(&reply, 0);
    put32(&reply, 0);
    fake_dev_init(&fd, "shell_v2", reply.data, reply.len, 1);
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_stat(s, "/nope", &st), ST_ENOENT);
    assert_memory_equal(fd.written.data, "STAT", 4);
    adb_sync_free(s);
    fake_dev_done(&fd);

    /* RECV FAIL: ST_EDEVICE with the message, and the session is over */
    dynbuf_reset(&reply);
    sta2(&reply, 0, 0100600, 10, 0);
    fail_rec(&reply, "open failed: Permission denied");
    fake_dev_init(&fd, "stat_v2", reply.data, reply.len, 5);
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_pull(s, "/secret", &sink), ST_EDEVICE);
    assert_non_null(strstr(adb_sync_error(s), "Permission denied"));
    assert_int_equal(adb_sync_stat(s, "/x", &st), ST_ECLOSED);
    size_t before = fd.written.len;
    adb_sync_free(s);
    assert_int_equal(fd.written.len, before);   /* no QUIT on a dead session */
    fake_dev_done(&fd);

    /* the device closes in the middle of the data */
    dynbuf_reset(&reply);
    sta2(&reply, 0, 0100600, 10, 0);
    data(&reply, (const uint8_t *)"0123456789", 10);
    fake_dev_init(&fd, "stat_v2", reply.data, reply.len - 4, 4);
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_pull(s, "/f", &sink), ST_ECLOSED);
    adb_sync_free(s);
    fake_dev_done(&fd);

    /* directories are not pulled */
    dynbuf_reset(&reply);
    sta2(&reply, 0, 040755, 4096, 0);
    fake_dev_init(&fd, "stat_v2", reply.data, reply.len, 100);
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_pull(s, "/data", &sink), ST_EINVAL);
    adb_sync_free(s);
    fake_dev_done(&fd);

    /* opening sync: refused */
    fake_dev_init(&fd, "", "", 0, 1);
    fd.open_result = ST_EFAIL;
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_EFAIL);
    assert_null(s);
    fake_dev_done(&fd);
    dynbuf_free(&reply);
}

static enum st_err list_cb(void *ctx, const char *name, const struct adb_stat *st)
{
    dynbuf_printf(ctx, "%s:%o:%llu;", name, st->mode, (unsigned long long)st->size);
    return ST_OK;
}

static void test_session_list(void **state)
{
    (void)state;
    struct dynbuf reply;
    dynbuf_init(&reply, 4096);
    dent(&reply, 040755, 4096, ".");
    dent(&reply, 040755, 4096, "..");
    dent(&reply, 0100644, 12, "a.trace");
    dent(&reply, 040700, 4096, "sub");
    rec(&reply, "DONE", 0);
    put32(&reply, 0);
    put32(&reply, 0);
    put32(&reply, 0);
    struct fake_dev fd;
    fake_dev_init(&fd, "stat_v2", reply.data, reply.len, 2);
    struct adb_sync *s;
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    struct dynbuf got;
    dynbuf_init(&got, 4096);
    assert_int_equal(adb_sync_list(s, "/data/local/tmp", list_cb, &got), ST_OK);
    assert_string_equal(dynbuf_str(&got), "a.trace:100644:12;sub:40700:4096;");
    adb_sync_free(s);
    dynbuf_free(&got);
    fake_dev_done(&fd);
    dynbuf_free(&reply);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return d ? n : -1;
}

static void test_pull_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_adb_sync.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char dest[600];
    snprintf(dest, sizeof dest, "%s/out.bin", dir);

    size_t total = 100000;
    uint8_t *src = pattern(total);
    struct dynbuf reply;
    dynbuf_init(&reply, 1 << 20);
    sta2(&reply, 0, 0100644, total, 1);
    data(&reply, src, 65536);
    data(&reply, src + 65536, total - 65536);
    rec(&reply, "DONE", 0);

    /* cut short: no destination, no temp file left */
    struct fake_dev fd;
    fake_dev_init(&fd, "stat_v2", reply.data, reply.len - 100, 999);
    struct adb_sync *s;
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_pull_file(s, "/f", dest, NULL), ST_ECLOSED);
    adb_sync_free(s);
    fake_dev_done(&fd);
    assert_int_equal(count_files(dir), 0);

    fake_dev_init(&fd, "stat_v2", reply.data, reply.len, 999);
    assert_int_equal(adb_sync_open(&fd.base, &s), ST_OK);
    assert_int_equal(adb_sync_pull_file(s, "/f", dest, NULL), ST_OK);
    adb_sync_free(s);
    fake_dev_done(&fd);
    assert_int_equal(count_files(dir), 1);
    FILE *f = fopen(dest, "rb");
    assert_non_null(f);
    uint8_t *back = malloc(total + 1);
    assert_int_equal(fread(back, 1, total + 1, f), total);
    fclose(f);
    assert_memory_equal(back, src, total);
    struct stat sb;
    assert_int_equal(stat(dest, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    unlink(dest);
    rmdir(dir);
    free(back);
    free(src);
    dynbuf_free(&reply);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recv_every_split),
        cmocka_unit_test(test_recv_fail_and_bad),
        cmocka_unit_test(test_stat_records),
        cmocka_unit_test(test_list_records),
        cmocka_unit_test(test_request_encoding),
        cmocka_unit_test(test_session_pull),
        cmocka_unit_test(test_session_errors),
        cmocka_unit_test(test_session_list),
        cmocka_unit_test(test_pull_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
