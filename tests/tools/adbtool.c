/*
 * adbtool: a small driver for the adb/ library, used by tests/e2e/adb_*.sh
 * to run it against the real adb server (and the simulator) and compare
 * with what the real adb client does.  Not installed.
 *
 *   adbtool [-s SERIAL] [-t MS] version | devices | features
 *   adbtool [-s SERIAL] [-t MS] run|stream MODE ARG...   MODE: shell v2 legacy exec
 *   adbtool [-s SERIAL] [-t MS] script MODE 'TEXT'
 *   adbtool [-s SERIAL] [-t MS] pull REMOTE LOCAL | cat REMOTE | stat REMOTE | ls DIR
 *
 * The server address comes from the environment (ADB_SERVER_SOCKET, ...).
 * -t MS sets the per-step timeout (<= 0: none).  SIGINT/SIGTERM write to
 * a self-pipe that is the library's cancel fd, as the CLI will do.
 * Command output goes to stdout/stderr; the exit status is reported on
 * stderr as "adbtool: exit N" (or "exit unknown") and adbtool exits 0.
 * Library errors print "adbtool: error ST_NAME: detail" and exit 2.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adb/adb.h"

static int cancel_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    (void)sig;
    if (write(cancel_pipe[1], "x", 1) < 0)
        return;
}

static void setup_cancel(void)
{
    if (pipe(cancel_pipe) < 0)
        return;
    fcntl(cancel_pipe[1], F_SETFL, O_NONBLOCK);
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int fail(enum st_err e, const char *detail)
{
    fprintf(stderr, "adbtool: error %s: %s\n", st_errname(e), detail);
    return 2;
}

static enum st_err to_fd(int fd, const void *p, size_t n)
{
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

static enum st_err out_cb(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    return to_fd(1, p, n);
}

static enum st_err err_cb(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    return to_fd(2, p, n);
}

static int parse_mode(const char *s, enum adb_mode *m)
{
    static const struct {
        const char *name;
        enum adb_mode mode;
    } modes[] = {{"shell", ADB_SHELL}, {"v2", ADB_SHELL_V2},
                 {"legacy", ADB_SHELL_LEGACY}, {"exec", ADB_EXEC}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (!strcmp(s, modes[i].name)) {
            *m = modes[i].mode;
            return 0;
        }
    }
    return -1;
}

static void report_exit(int code)
{
    if (code == ADB_EXIT_UNKNOWN)
        fprintf(stderr, "adbtool: exit unknown\n");
    else
        fprintf(stderr, "adbtool: exit %d\n", code);
}

static int cmd_command(struct adb_device *d, const char *verb, int argc, char **argv)
{
    enum adb_mode mode;
    if (argc < 2 || parse_mode(argv[0], &mode))
        return fail(ST_EINVAL, "usage: run|stream|script MODE ARG...");
    const char *const *args = (const char *const *)argv + 1;
    int code = ADB_EXIT_UNKNOWN;
    enum st_err e;
    if (!strcmp(verb, "run")) {
        struct adb_result r;
        e = adb_run(d, mode, args, 64u << 20, &r);
        to_fd(1, r.out, r.out_len);
        to_fd(2, r.err, r.err_len);
        code = r.exit_code;
        adb_result_free(&r);
    } else {
        struct adb_sink sink = {out_cb, err_cb, NULL, NULL};
        e = !strcmp(verb, "stream") ? adb_stream_cmd(d, mode, args, &sink, &code)
                                    : adb_stream_script(d, mode, argv[1], &sink, &code);
    }
    if (e)
        return fail(e, adb_device_error(d));
    report_exit(code);
    return 0;
}

static enum st_err ls_cb(void *ctx, const char *name, const struct adb_stat *st)
{
    (void)ctx;
    printf("%o %llu %s\n", st->mode, (unsigned long long)st->size, name);
    return ST_OK;
}

static int cmd_sync(struct adb_device *d, const char *verb, int argc, char **argv)
{
    struct adb_sync *s;
    if (argc < 1 || (!strcmp(verb, "pull") && argc < 2))
        return fail(ST_EINVAL, "usage: pull REMOTE LOCAL | cat|stat|ls PATH");
    enum st_err e = adb_sync_open(d, &s);
    if (e)
        return fail(e, adb_device_error(d));
    if (!strcmp(verb, "pull")) {
        e = adb_sync_pull_file(s, argv[0], argv[1], NULL);
    } else if (!strcmp(verb, "cat")) {
        struct adb_sink sink = {.out = out_cb};
        e = adb_sync_pull(s, argv[0], &sink);
    } else if (!strcmp(verb, "stat")) {
        struct adb_stat st;
        e = adb_sync_stat(s, argv[0], &st);
        if (!e)
            printf("mode %o size %llu mtime %lld\n", st.mode,
                   (unsigned long long)st.size, (long long)st.mtime);
    } else {
        e = adb_sync_list(s, argv[0], ls_cb, NULL);
    }
    fflush(stdout);
    int rc = e ? fail(e, adb_sync_error(s)) : 0;
    adb_sync_free(s);
    return rc;
}

static int with_device(struct adb_client *c, const char *serial, int argc,
                       char **argv)
{
    struct adb_device *d;
    enum st_err e = adb_device_open(c, serial, &d);
    if (e)
        return fail(e, adb_client_error(c));
    const char *verb = argv[0];
    int rc;
    if (!strcmp(verb, "features")) {
        printf("%s\n", adb_device_features(d));
        rc = 0;
    } else if (!strcmp(verb, "run") || !strcmp(verb, "stream") ||
               !strcmp(verb, "script")) {
        rc = cmd_command(d, verb, argc - 1, argv + 1);
    } else {
        rc = cmd_sync(d, verb, argc - 1, argv + 1);
    }
    adb_device_free(d);
    return rc;
}

static int host_service(struct adb_client *c, const char *verb)
{
    if (!strcmp(verb, "version")) {
        unsigned v;
        enum st_err e = adb_server_version(c, &v);
        if (e)
            return fail(e, adb_client_error(c));
        printf("%u\n", v);
        return 0;
    }
    struct adb_device_list *l;
    enum st_err e = adb_server_devices(c, &l);
    if (e)
        return fail(e, adb_client_error(c));
    for (size_t i = 0; i < l->n; i++)
        printf("%s\t%s\t%s\t%llu\n", l->v[i].serial, l->v[i].state, l->v[i].model,
               (unsigned long long)l->v[i].transport_id);
    adb_device_list_free(l);
    return 0;
}

int main(int argc, char **argv)
{
    const char *serial = NULL;
    int timeout = 0, set_timeout = 0, opt;
    while ((opt = getopt(argc, argv, "+s:t:")) != -1) {
        if (opt == 's') {
            serial = optarg;
        } else if (opt == 't') {
            timeout = (int)strtol(optarg, NULL, 10);
            set_timeout = 1;
        } else
            return fail(ST_EINVAL, "bad option");
    }
    argc -= optind;
    argv += optind;
    if (argc < 1)
        return fail(ST_EINVAL, "usage: adbtool [-s SERIAL] [-t MS] COMMAND ...");
    struct adb_client *c = adb_client_new();
    if (!c)
        return fail(ST_ENOMEM, "");
    enum st_err e = adb_client_use_env(c);
    if (e) {
        int rc = fail(e, adb_client_error(c));
        adb_client_free(c);
        return rc;
    }
    if (set_timeout)
        adb_client_set_timeout(c, timeout);
    setup_cancel();
    adb_client_set_cancel_fd(c, cancel_pipe[0]);
    int rc = !strcmp(argv[0], "version") || !strcmp(argv[0], "devices")
                 ? host_service(c, argv[0])
                 : with_device(c, serial, argc, argv);
    adb_client_free(c);
    return rc;
}
