/*
 * directtool: a driver for the direct transports of the adb/ library (no
 * adb server), used by tests/e2e/direct_*.sh and scripts/bench/bench-direct.
 *
 *   directtool [-s SERIAL] [-t MS] [-w MS] info
 *   directtool [-s SERIAL] ... run ARG...        shell (v2 when offered)
 *   directtool [-s SERIAL] ... pull REMOTE LOCAL
 *   directtool [-s SERIAL] ... two REMOTE OUT1 OUT2
 *        exec:cat REMOTE and a sync pull of REMOTE on one connection at
 *        once: a little of the first, all of the second, then the rest
 *   directtool pubkey KEYFILE       our adbkey.pub encoding of a private key
 *   directtool keygen PATH          make a key pair like adb
 *
 * -s is HOST:PORT (TCP) or a USB serial; -w is the auth wait.  The auth
 * prompt message goes to stderr as "directtool: NOTE: ...".  Errors print
 * "directtool: error ST_NAME: detail" and exit 2.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adb/adb.h"
#include "adb/adb_wire.h"

static int cancel_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    (void)sig;
    if (write(cancel_pipe[1], "x", 1) < 0)
        return;
}

static int fail(enum st_err e, const char *detail)
{
    fprintf(stderr, "directtool: error %s: %s\n", st_errname(e), detail);
    return 2;
}

static void note(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "directtool: NOTE: %s\n", msg);
}

static enum st_err to_fd(void *ctx, const void *p, size_t n)
{
    int fd = *(int *)ctx;
    const char *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w <= 0)
            return ST_EIO;
        b += w;
        n -= (size_t)w;
    }
    return ST_OK;
}

static int key_cmd(int argc, char **argv)
{
    char err[512] = "";
    if (!strcmp(argv[0], "keygen") && argc == 2) {
        enum st_err e = adb_key_generate(argv[1], err, sizeof err);
        return e ? fail(e, err) : 0;
    }
    if (argc != 2)
        return fail(ST_EINVAL, "usage: pubkey KEYFILE | keygen PATH");
    struct adb_key *k;
    enum st_err e = adb_key_load(argv[1], &k, err, sizeof err);
    if (e)
        return fail(e, err);
    struct dynbuf b;
    dynbuf_init(&b, 4096);
    e = adb_key_pub_b64(k, &b);
    if (!e)
        printf("%s\n", dynbuf_str(&b));
    dynbuf_free(&b);
    adb_key_free(k);
    return e ? fail(e, "cannot encode") : 0;
}

/* Two streams on one connection at once. */
static int two(struct adb_device *d, char **argv)
{
    struct dynbuf cmd;
    dynbuf_init(&cmd, 4096);
    enum st_err e = dynbuf_addstr(&cmd, "exec:cat");
    if (!e)
        e = adb_quote_arg(&cmd, argv[0]);
    struct adb_stream *st = NULL;
    if (!e)
        e = adb_stream_open(d, dynbuf_str(&cmd), &st);
    dynbuf_free(&cmd);
    if (e)
        return fail(e, adb_device_error(d));
    int fd1 = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char buf[65536];
    size_t got = 0;
    e = adb_stream_read(st, buf, 1000, &got);
    if (!e)
        e = to_fd(&fd1, buf, got);
    struct adb_sync *s = NULL;
    if (!e && !(e = adb_sync_open(d, &s))) {
        e = adb_sync_pull_file(s, argv[0], argv[2], NULL);
        if (e)
            fail(e, adb_sync_error(s));
        adb_sync_free(s);
    }
    while (!e && !(e = adb_stream_read(st, buf, sizeof buf, &got)) && got)
        e = to_fd(&fd1, buf, got);
    if (e)
        fail(e, adb_stream_error(st));
    adb_stream_free(st);
    close(fd1);
    return e ? 2 : 0;
}

static int device_cmd(struct adb_device *d, int argc, char **argv)
{
    int fd = 1;
    if (!strcmp(argv[0], "info")) {
        const struct adb_device_info *i = adb_device_info(d);
        printf("serial %s\ndevpath %s\nmodel %s\nfeatures %s\n", i->serial, i->devpath,
               i->model, adb_device_features(d));
        return 0;
    }
    if (!strcmp(argv[0], "run") && argc > 1) {
        struct adb_sink sink = {to_fd, NULL, NULL, &fd};
        int code = ADB_EXIT_UNKNOWN;
        enum st_err e = adb_stream_cmd(d, ADB_SHELL, (const char *const *)argv + 1,
                                       &sink, &code);
        if (e)
            return fail(e, adb_device_error(d));
        fprintf(stderr, "directtool: exit %d\n", code);
        return 0;
    }
    if (!strcmp(argv[0], "pull") && argc == 3) {
        struct adb_sync *s;
        enum st_err e = adb_sync_open(d, &s);
        if (e)
            return fail(e, adb_device_error(d));
        e = adb_sync_pull_file(s, argv[1], argv[2], NULL);
        int rc = e ? fail(e, adb_sync_error(s)) : 0;
        adb_sync_free(s);
        return rc;
    }
    if (!strcmp(argv[0], "two") && argc == 4)
        return two(d, argv + 1);
    return fail(ST_EINVAL, "unknown command");
}

int main(int argc, char **argv)
{
    const char *serial = NULL;
    int timeout = 10000, wait = 0, opt;
    while ((opt = getopt(argc, argv, "+s:t:w:")) != -1) {
        if (opt == 's')
            serial = optarg;
        else if (opt == 't')
            timeout = (int)strtol(optarg, NULL, 10);
        else if (opt == 'w')
            wait = (int)strtol(optarg, NULL, 10);
        else
            return fail(ST_EINVAL, "bad option");
    }
    argc -= optind;
    argv += optind;
    if (argc < 1)
        return fail(ST_EINVAL, "usage: directtool [-s SERIAL] [-t MS] [-w MS] COMMAND");
    if (!strcmp(argv[0], "pubkey") || !strcmp(argv[0], "keygen"))
        return key_cmd(argc, argv);
    if (pipe(cancel_pipe) == 0) {
        struct sigaction sa = {.sa_handler = on_signal};
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    struct adb_client *c = adb_client_new();
    if (!c)
        return fail(ST_ENOMEM, "");
    adb_client_set_timeout(c, timeout);
    adb_client_set_cancel_fd(c, cancel_pipe[0]);
    adb_client_set_auth_notify(c, note, NULL);
    adb_client_set_auth_wait(c, wait);
    struct adb_device *d;
    enum st_err e = adb_device_open_direct(c, serial, &d);
    int rc;
    if (e) {
        rc = fail(e, adb_client_error(c));
    } else {
        rc = device_cmd(d, argc, argv);
        adb_device_free(d);
    }
    adb_client_free(c);
    return rc;
}
