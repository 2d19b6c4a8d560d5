/*
 * Request flows against a fake adb server: a loopback listener in a
 * thread that plays a script per connection (expect this request, send
 * these bytes, expect these raw bytes, close) and records any mismatch.
 * Covers version, device open (devices-l, features, selection), the
 * tport -> transport fallback, FAIL messages, a server closing early,
 * shell v2 / legacy / exec / sync through the socket, connection refused,
 * timeout and cancellation.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "adb/adb_int.h"

enum op { OP_END, OP_REQ, OP_SEND, OP_RAW, OP_HOLD };

struct step {
    enum op op;
    const char *s;
    size_t n;
};

#define MAX_CONNS 12
#define MAX_STEPS 12

struct fake {
    int lfd;
    unsigned port;
    struct step conns[MAX_CONNS][MAX_STEPS];
    size_t nconns;
    size_t accepted;
    char errors[2048];
    pthread_t th;
    char *owned[64];        /* keeps the script's bytes alive */
    size_t nowned;
};

static void note(struct fake *f, const char *fmt, ...)
{
    size_t l = strlen(f->errors);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->errors + l, sizeof f->errors - l, fmt, ap);
    va_end(ap);
}

static int wait_in(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, 5000) == 1;
}

static int read_n(int fd, char *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        if (!wait_in(fd))
            return -1;
        ssize_t r = read(fd, p + got, n - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

static void run_conn(struct fake *f, int fd, size_t ci)
{
    for (size_t si = 0; si < MAX_STEPS; si++) {
        const struct step *st = &f->conns[ci][si];
        char buf[70000];
        switch (st->op) {
        case OP_END:
            return;
        case OP_REQ: {
            unsigned n;
            if (read_n(fd, buf, 4) || adb_hex4_decode(buf, &n) || read_n(fd, buf, n)) {
                note(f, "[conn %zu step %zu: no request]", ci, si);
                return;
            }
            if (n != st->n || memcmp(buf, st->s, n))
                note(f, "[conn %zu: got '%.*s' want '%s']", ci, (int)n, buf, st->s);
            break;
        }
        case OP_RAW:
            if (read_n(fd, buf, st->n) || memcmp(buf, st->s, st->n))
                note(f, "[conn %zu step %zu: raw bytes differ]", ci, si);
            break;
        case OP_SEND:
            if (send(fd, st->s, st->n, MSG_NOSIGNAL) != (ssize_t)st->n)
                note(f, "[conn %zu: send failed]", ci);
            break;
        case OP_HOLD:
            while (wait_in(fd) && read(fd, buf, sizeof buf) > 0)
                ;
            return;
        }
    }
}

static void *serve(void *arg)
{
    struct fake *f = arg;
    for (size_t ci = 0; ci < f->nconns; ci++) {
        if (!wait_in(f->lfd)) {
            note(f, "[conn %zu never came]", ci);
            break;
        }
        int fd = accept(f->lfd, NULL, NULL);
        if (fd < 0)
            break;
        f->accepted++;
        run_conn(f, fd, ci);
        close(fd);
    }
    return NULL;
}

static int listen_any(unsigned *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t l = sizeof a;
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(fd, 16), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &l), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

static struct fake *fake_new(void)
{
    struct fake *f = calloc(1, sizeof *f);
    f->lfd = listen_any(&f->port);
    return f;
}

/* Keep a copy of n bytes alive as long as f. */
static const char *keep(struct fake *f, const void *p, size_t n)
{
    char *c = malloc(n + 1);
    memcpy(c, p, n);
    c[n] = '\0';
    assert_true(f->nowned < 64);
    f->owned[f->nowned++] = c;
    return c;
}

static void add(struct fake *f, size_t conn, enum op op, const void *p, size_t n)
{
    assert_true(conn < MAX_CONNS);
    size_t i = 0;
    while (f->conns[conn][i].op != OP_END)
        i++;
    assert_true(i + 1 < MAX_STEPS);
    f->conns[conn][i] = (struct step){op, p ? keep(f, p, n) : NULL, n};
    if (conn >= f->nconns)
        f->nconns = conn + 1;
}

static void req(struct fake *f, size_t c, const char *s)
{
    add(f, c, OP_REQ, s, strlen(s));
}

static void sendb(struct fake *f, size_t c, const void *p, size_t n)
{
    add(f, c, OP_SEND, p, n);
}

static void sends(struct fake *f, size_t c, const char *s)
{
    add(f, c, OP_SEND, s, strlen(s));
}

/* OKAY/FAIL + hex4 + text */
static void reply(struct fake *f, size_t c, const char *status, const char *text)
{
    char buf[8192];
    int n = snprintf(buf, sizeof buf, "%s%04x%s", status, (unsigned)strlen(text), text);
    sendb(f, c, buf, (size_t)n);
}

static void start(struct fake *f)
{
    assert_int_equal(pthread_create(&f->th, NULL, serve, f), 0);
}

/* Join, check the whole script ran cleanly, free. */
static void finish(struct fake *f)
{
    pthread_join(f->th, NULL);
    if (f->errors[0] || f->accepted != f->nconns)
        fail_msg("fake server: %s (accepted %zu of %zu)", f->errors, f->accepted,
                 f->nconns);
    close(f->lfd);
    for (size_t i = 0; i < f->nowned; i++)
        free(f->owned[i]);
    free(f);
}

static struct adb_client *client_for(unsigned port)
{
    struct adb_client *c = adb_client_new();
    char spec[64];
    snprintf(spec, sizeof spec, "tcp:127.0.0.1:%u", port);
    assert_int_equal(adb_client_set_server(c, spec), ST_OK);
    adb_client_set_timeout(c, 5000);
    return c;
}

#define SERIAL "127.0.0.1:5555"
#define DEVLINE SERIAL "         device product:sim model:Sim device:sim transport_id:3\n"

/* connections 0-2 of a device open: devices-l, features, host-features */
static void script_open(struct fake *f, const char *devices, const char *host_features)
{
    req(f, 0, "host:devices-l");
    reply(f, 0, "OKAY", devices);
    req(f, 1, "host-serial:" SERIAL ":features");
    reply(f, 1, "OKAY", "shell_v2,cmd,stat_v2");
    req(f, 2, "host:host-features");
    if (host_features)
        reply(f, 2, "OKAY", host_features);
    else
        reply(f, 2, "FAIL", "unknown host service");
}

static void test_version(void **state)
{
    (void)state;
    struct fake *f = fake_new();
    req(f, 0, "host:version");
    reply(f, 0, "OKAY", "0029");
    req(f, 1, "host:version");
    reply(f, 1, "OKAY", "29");      /* malformed */
    start(f);
    struct adb_client *c = client_for(f->port);
    unsigned v = 0;
    assert_int_equal(adb_server_version(c, &v), ST_OK);
    assert_int_equal(v, 41);
    assert_int_equal(adb_server_version(c, &v), ST_EPROTO);
    adb_client_free(c);
    finish(f);
}

static void test_refused(void **state)
{
    (void)state;
    unsigned port;
    close(listen_any(&port));       /* a port nobody listens on */
    struct adb_client *c = client_for(port);
    unsigned v;
    assert_int_equal(adb_server_version(c, &v), ST_ECONNECT);
    char want[64];
    snprintf(want, sizeof want, "no adb server answers at 127.0.0.1:%u", port);
    assert_non_null(strstr(adb_client_error(c), want));
    assert_non_null(strstr(adb_client_error(c), "adb start-server"));
    struct adb_device *d = (void *)1;
    assert_int_equal(adb_device_open(c, NULL, &d), ST_ECONNECT);
    assert_null(d);
    adb_client_free(c);
}

static void test_open_and_shell_with_fallback(void **state)
{
    (void)state;
    unsetenv("ANDROID_SERIAL");
    struct fake *f = fake_new();
    script_open(f, DEVLINE, "push_sync,shell_v2,stat_v2");
    req(f, 3, "host:tport:serial:" SERIAL);
    reply(f, 3, "FAIL", "unknown host service");
    req(f, 4, "host:transport:" SERIAL);
    sends(f, 4, "OKAY");
    req(f, 4, "shell,v2,raw:'getprop' 'ro.build.version.sdk'");
    sends(f, 4, "OK");
    sends(f, 4, "AY");
    add(f, 4, OP_RAW, "\x04\0\0\0\0", 5);
    static const char frames[] = "\x01\x03\0\0\0" "33\n" "\x02\x02\0\0\0" "e\n"
                                 "\x03\x01\0\0\0\x05";
    sendb(f, 4, frames, sizeof frames - 1);
    /* second command: straight to the legacy switch */
    req(f, 5, "host:transport:" SERIAL);
    sends(f, 5, "OKAY");
    req(f, 5, "exec:'cat' '/x'");
    sends(f, 5, "OKAY");
    sendb(f, 5, "\0bin\r\n", 6);
    start(f);

    struct adb_client *c = client_for(f->port);
    struct adb_device *d;
    assert_int_equal(adb_device_open(c, NULL, &d), ST_OK);
    adb_client_free(c);     /* the device does not need it */
    assert_string_equal(adb_device_info(d)->serial, SERIAL);
    assert_string_equal(adb_device_info(d)->model, "Sim");
    assert_string_equal(adb_device_features(d), "shell_v2,stat_v2");
    assert_true(adb_device_has_feature(d, "shell_v2"));
    assert_false(adb_device_has_feature(d, "cmd"));     /* server lacks it */

    const char *const argv[] = {"getprop", "ro.build.version.sdk", NULL};
    struct adb_result r;
    assert_int_equal(adb_run(d, ADB_SHELL, argv, 100, &r), ST_OK);
    assert_string_equal(r.out, "33\n");
    assert_string_equal(r.err, "e\n");
    assert_int_equal(r.exit_code, 5);
    adb_result_free(&r);
    const char *const cat[] = {"cat", "/x", NULL};
    assert_int_equal(adb_run(d, ADB_EXEC, cat, 100, &r), ST_OK);
    assert_int_equal(r.out_len, 6);
    assert_memory_equal(r.out, "\0bin\r\n", 6);
    adb_result_free(&r);
    adb_device_free(d);
    finish(f);
}

static void test_tport_and_refusals(void **state)
{
    (void)state;
    setenv("ANDROID_SERIAL", SERIAL, 1);
    struct fake *f = fake_new();
    script_open(f, "other device\n" DEVLINE, NULL);     /* old server */
    req(f, 3, "host:tport:serial:" SERIAL);
    sendb(f, 3, "OKAY\x03\0\0\0\0\0\0\0", 12);
    req(f, 3, "shell:'ls'");        /* no host-features: legacy shell */
    reply(f, 3, "FAIL", "closed");
    req(f, 4, "host:tport:serial:" SERIAL);
    reply(f, 4, "FAIL", "device '" SERIAL "' not found");
    req(f, 5, "host:transport:" SERIAL);
    reply(f, 5, "FAIL", "device '" SERIAL "' not found");
    req(f, 6, "host:tport:serial:" SERIAL);
    sendb(f, 6, "OKAY\x03\0\0", 7);     /* id cut short */
    start(f);

    struct adb_client *c = client_for(f->port);
    struct adb_device *d;
    assert_int_equal(adb_device_open(c, NULL, &d), ST_OK);
    assert_string_equal(adb_device_info(d)->serial, SERIAL);   /* from the env */
    assert_string_equal(adb_device_features(d), "");
    const char *const ls[] = {"ls", NULL};
    struct adb_result r;
    assert_int_equal(adb_run(d, ADB_SHELL, ls, 100, &r), ST_EFAIL);
    assert_non_null(strstr(adb_device_error(d), "closed"));
    adb_result_free(&r);
    assert_int_equal(adb_run(d, ADB_SHELL, ls, 100, &r), ST_ENOENT);
    assert_non_null(strstr(adb_device_error(d), "not found"));
    adb_result_free(&r);
    assert_int_equal(adb_run(d, ADB_SHELL, ls, 100, &r), ST_ECLOSED);
    adb_result_free(&r);
    adb_device_free(d);
    adb_client_free(c);
    unsetenv("ANDROID_SERIAL");
    finish(f);
}

static void test_selection_through_server(void **state)
{
    (void)state;
    unsetenv("ANDROID_SERIAL");
    struct fake *f = fake_new();
    req(f, 0, "host:devices-l");
    reply(f, 0, "OKAY", "");
    req(f, 1, "host:devices-l");
    reply(f, 1, "OKAY", "R58M123 unauthorized usb:1-1 transport_id:1\n");
    req(f, 2, "host:devices-l");
    reply(f, 2, "OKAY", "A device\nB device\n");
    req(f, 3, "host:devices-l");
    sends(f, 3, "OKAY00");          /* the server goes away mid-reply */
    start(f);

    struct adb_client *c = client_for(f->port);
    struct adb_device *d = NULL;
    assert_int_equal(adb_device_open(c, NULL, &d), ST_ENODEVICE);
    assert_int_equal(adb_device_open(c, NULL, &d), ST_EUNAUTH);
    assert_non_null(strstr(adb_client_error(c), "R58M123"));
    assert_int_equal(adb_device_open(c, NULL, &d), ST_EMULTIDEV);
    assert_non_null(strstr(adb_client_error(c), "A, B"));
    struct adb_device_list *l;
    assert_int_equal(adb_server_devices(c, &l), ST_ECLOSED);
    assert_null(l);
    adb_client_free(c);
    finish(f);
}

/* A device that drops between the listing and the feature query. */
static void test_features_fail(void **state)
{
    (void)state;
    struct fake *f = fake_new();
    req(f, 0, "host:devices-l");
    reply(f, 0, "OKAY", "A device\nB device\n");
    req(f, 1, "host-serial:B:features");
    reply(f, 1, "FAIL", "device offline");
    start(f);
    struct adb_client *c = client_for(f->port);
    struct adb_device *d = NULL;
    assert_int_equal(adb_device_open(c, "B", &d), ST_EOFFLINE);
    assert_null(d);
    adb_client_free(c);
    finish(f);
}

static enum st_err to_dynbuf(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

static void test_sync_through_server(void **state)
{
    (void)state;
    unsetenv("ANDROID_SERIAL");
    struct fake *f = fake_new();
    script_open(f, DEVLINE, "shell_v2,stat_v2");
    req(f, 3, "host:tport:serial:" SERIAL);
    sendb(f, 3, "OKAY\x03\0\0\0\0\0\0\0", 12);
    req(f, 3, "sync:");
    sends(f, 3, "OKAY");
    add(f, 3, OP_RAW, "STA2\x02\0\0\0/f", 10);
    uint8_t st2[72] = "STA2";
    adb_set32(st2 + 24, 0100644);
    st2[40] = 5;
    sendb(f, 3, st2, 72);
    add(f, 3, OP_RAW, "RECV\x02\0\0\0/f", 10);
    sendb(f, 3, "DATA\x03\0\0\0abcDA", 13);
    sendb(f, 3, "TA\x02\0\0\0deDONE\0\0\0\0", 16);
    add(f, 3, OP_RAW, "QUIT\0\0\0\0", 8);
    start(f);

    struct adb_client *c = client_for(f->port);
    struct adb_device *d;
    assert_int_equal(adb_device_open(c, NULL, &d), ST_OK);
    struct adb_sync *s;
    assert_int_equal(adb_sync_open(d, &s), ST_OK);
    struct dynbuf got;
    dynbuf_init(&got, 100);
    struct adb_sink sink = {.out = to_dynbuf, .ctx = &got};
    assert_int_equal(adb_sync_pull(s, "/f", &sink), ST_OK);
    assert_string_equal(dynbuf_str(&got), "abcde");
    adb_sync_free(s);
    dynbuf_free(&got);
    adb_device_free(d);
    adb_client_free(c);
    finish(f);
}

/* adb_device_wait: polls host:devices-l until the serial is "device"
 * again (the server lists an `adb connect`ed device as offline while it
 * reconnects it); a cancel or the deadline end the wait with the state
 * last seen in the detail. */
static void test_wait_for_device(void **state)
{
    (void)state;
    unsetenv("ANDROID_SERIAL");
    struct fake *f = fake_new();
    script_open(f, DEVLINE, "shell_v2,stat_v2");
    req(f, 3, "host:devices-l");
    reply(f, 3, "OKAY", SERIAL "         offline transport_id:3\n");
    req(f, 4, "host:devices-l");
    reply(f, 4, "OKAY", "");
    req(f, 5, "host:devices-l");
    reply(f, 5, "OKAY", "other device\n" DEVLINE);
    req(f, 6, "host:devices-l");
    reply(f, 6, "OKAY", SERIAL "         offline transport_id:3\n");
    start(f);

    struct adb_client *c = client_for(f->port);
    struct adb_device *d = NULL;
    assert_int_equal(adb_device_open(c, NULL, &d), ST_OK);
    assert_int_equal(adb_device_wait(d, 5000), ST_OK);     /* after 2 naps */
    assert_int_equal(adb_device_wait(d, 1), ST_ETIMEOUT);
    if (!strstr(adb_device_error(d), "did not come back (the adb server lists it as: "
                                     "offline)"))
        fail_msg("%s", adb_device_error(d));
    finish(f);
    /* no server now: the wait goes on until the cancel fd says stop */
    int pfd[2];
    assert_int_equal(pipe(pfd), 0);
    assert_int_equal(write(pfd[1], "x", 1), 1);
    adb_device_set_cancel_fd(d, pfd[0]);
    assert_int_equal(adb_device_wait(d, 5000), ST_EINTR);
    adb_device_free(d);
    adb_client_free(c);
    close(pfd[0]);
    close(pfd[1]);
}

static void test_timeout_and_cancel(void **state)
{
    (void)state;
    unsigned port;
    int lfd = listen_any(&port);    /* accepts in the kernel, never answers */
    struct adb_client *c = client_for(port);
    unsigned v;
    adb_client_set_timeout(c, 200);
    assert_int_equal(adb_server_version(c, &v), ST_ETIMEOUT);

    int pfd[2];
    assert_int_equal(pipe(pfd), 0);
    adb_client_set_timeout(c, 0);   /* would wait forever but for the cancel */
    adb_client_set_cancel_fd(c, pfd[0]);
    assert_int_equal(write(pfd[1], "x", 1), 1);
    assert_int_equal(adb_server_version(c, &v), ST_EINTR);
    adb_client_free(c);
    close(pfd[0]);
    close(pfd[1]);
    close(lfd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_open_and_shell_with_fallback),
        cmocka_unit_test(test_tport_and_refusals),
        cmocka_unit_test(test_selection_through_server),
        cmocka_unit_test(test_features_fail),
        cmocka_unit_test(test_sync_through_server),
        cmocka_unit_test(test_timeout_and_cancel),
        cmocka_unit_test(test_wait_for_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
