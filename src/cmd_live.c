/*
 * Live capture from an Android device through the adb server, and -l.
 * Everything that can fail before tracing starts is checked first (server,
 * device, viewer, output path), so a bad command line never leaves a device
 * tracing or wastes a capture.  Exit codes: cli.h; 130 after Ctrl-C during
 * collection, 143 after SIGTERM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb.h"
#include "cli.h"
#include "commands.h"
#include "controller.h"
#include "agents/android/probe.h"
#include "presets.h"
#include "result.h"
#include "lib/signals.h"
#include "ui.h"

#define TESTED_SERVER_VERSION 41

struct live {
    const struct st_options *o;
    struct capture_opts copt;
    struct capture c;
    struct ui u;
    struct adb_client *client;
    struct adb_device *dev;
    struct result res;
    int sigfd;
    char stop_hint[300];
};

static int fail_msg(const char *who, const char *what)
{
    fprintf(stderr, "systrace: %s: %s\n", who, what);
    return EXIT_ERROR;
}

static void auth_note(void *ctx, const char *msg)
{
    struct live *l = ctx;
    l->c.ui.warn(l->c.ui.ctx, "%s", msg);
}

/* No adb server (or --transport direct): talk to adbd over TCP or USB.
 * server_err: why the server was not used (auto), for the message. */
static int connect_direct(struct live *l, const char *server_err)
{
    adb_client_set_auth_notify(l->client, auth_note, l);
    if (adb_device_open_direct(l->client, l->o->serial, &l->dev)) {
        if (!server_err)
            return fail_msg("adb (direct)", adb_client_error(l->client));
        fprintf(stderr, "systrace: adb: %s\nsystrace: adb (direct, without a server): %s\n",
                server_err, adb_client_error(l->client));
        return EXIT_ERROR;
    }
    l->c.dev = l->dev;
    l->c.serial = adb_device_info(l->dev)->serial;
    if (device_probe(&l->c))
        return fail_msg(l->c.serial, dynbuf_str(&l->c.err));
    return EXIT_OK;
}

static int connect_device(struct live *l)
{
    const struct st_options *o = l->o;
    l->client = adb_client_new();
    if (!l->client)
        return fail_msg("adb", "out of memory");
    if (adb_client_use_env(l->client))
        return fail_msg("adb", adb_client_error(l->client));
    adb_client_set_timeout(l->client, o->timeout_s > 0 ? o->timeout_s * 1000
                                                       : ADB_DEFAULT_TIMEOUT_MS);
    adb_client_set_cancel_fd(l->client, l->sigfd);
    if (o->transport == TRANSPORT_DIRECT)
        return connect_direct(l, NULL);
    unsigned version = 0;
    enum st_err e = adb_server_version(l->client, &version);
    if (e == ST_ECONNECT && o->transport == TRANSPORT_AUTO) {
        char why[600];
        snprintf(why, sizeof why, "%s", adb_client_error(l->client));
        return connect_direct(l, why);
    }
    if (e)
        return fail_msg("adb server", adb_client_error(l->client));
    if (version != TESTED_SERVER_VERSION)
        l->c.ui.warn(l->c.ui.ctx, "adb server version %u differs from %u, the version "
                                  "systrace is tested with; continuing (systrace never "
                                  "restarts a server)", version, TESTED_SERVER_VERSION);
    if (adb_device_open(l->client, o->serial, &l->dev))
        return fail_msg("adb", adb_client_error(l->client));
    l->c.dev = l->dev;
    l->c.serial = adb_device_info(l->dev)->serial;
    if (device_probe(&l->c))
        return fail_msg(l->c.serial, dynbuf_str(&l->c.err));
    return EXIT_OK;
}

/* What a user runs when systrace could not stop tracing itself. */
static void set_stop_hint(struct live *l)
{
    struct dynbuf q;
    dynbuf_init(&q, 1024);
    if (adb_is_plain_token(l->c.serial))
        dynbuf_addstr(&q, l->c.serial);
    else
        adb_quote_arg(&q, l->c.serial);     /* nothing the user's shell expands */
    snprintf(l->stop_hint, sizeof(l->stop_hint), "the device may still be tracing; stop it "
             "with: adb -s %s shell atrace --async_stop", dynbuf_str(&q));
    dynbuf_free(&q);
    l->c.stop_hint = l->stop_hint;
}

static int prepare_output(struct live *l)
{
    set_stop_hint(l);
    int rc = result_open(l->o, ".atrace", &l->res);
    l->c.raw_path = l->res.raw;
    return rc;
}

static int capture(struct live *l)
{
    enum st_err e = controller_run(&l->c, &l->u, l->res.w, l->sigfd);
    if (e) {
        result_report_error(&l->res, l->c.serial, dynbuf_str(&l->c.err));
        return sig_terminated() || e == ST_EINTR ? sig_exit_status() : EXIT_ERROR;
    }
    return result_commit(l->o, &l->res);
}

int cmd_live(const struct st_options *o)
{
    if (o->target == TARGET_LINUX)
        return cmd_linux(o);
    struct live l;
    memset(&l, 0, sizeof(l));
    l.o = o;
    options_capture(o, &l.copt);
    l.c.opt = &l.copt;
    dynbuf_init(&l.c.err, 8192);
    ui_init(&l.u, o->quiet, &l.c.ui);
    l.sigfd = sig_install();
    int rc = connect_device(&l);
    if (rc == EXIT_OK && o->list_categories) {
        if (device_list_categories(&l.c))
            rc = fail_msg(l.c.serial, dynbuf_str(&l.c.err));
        else if (!o->quiet)
            presets_print(stdout);
    } else if (rc == EXIT_OK && (rc = prepare_output(&l)) == EXIT_OK) {
        rc = capture(&l);
    }
    result_free(&l.res);
    adb_device_free(l.dev);
    adb_client_free(l.client);
    dynbuf_free(&l.c.err);
    sig_restore();
    return rc;
}
