/*
 * Running commands on the device over any struct adb_stream:
 *   shell,v2,raw:CMD  stdout/stderr apart + exit status; close-stdin is
 *                     sent right after the open, as the real client does
 *   shell:CMD         legacy: one merged stream, exit status unknown
 *   exec:CMD          binary-clean stdout, exit status unknown
 * Output goes to a sink as it arrives (adb_stream_cmd), or is collected
 * into bounded buffers (adb_run).  The command comes from argv, each
 * element single-quoted; *_script sends trusted shell text unchanged.
 */
#include "adb_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

#define READ_CHUNK (64u * 1024)

enum st_err adb_shell_service(struct adb_device *d, enum adb_mode mode, const char *cmd,
                              struct dynbuf *svc, int *v2)
{
    int have_v2 = adb_device_has_feature(d, "shell_v2");
    const char *prefix = "shell:";
    *v2 = 0;
    switch (mode) {
    case ADB_SHELL_V2:
        if (!have_v2) {
            adb_seterr(d->err, sizeof d->err, "device %s has no shell_v2 (device "
                       "and server must both offer it)", d->info.serial);
            return ST_EUNSUPPORTED;
        }
        /* fallthrough */
    case ADB_SHELL:
        if (have_v2) {
            prefix = "shell,v2,raw:";
            *v2 = 1;
        }
        break;
    case ADB_SHELL_LEGACY:
        break;
    case ADB_EXEC:
        prefix = "exec:";
        break;
    default:
        adb_seterr(d->err, sizeof d->err, "bad command mode %d", (int)mode);
        return ST_EINVAL;
    }
    if (!cmd || !*cmd) {
        adb_seterr(d->err, sizeof d->err, "empty command (would open an "
                   "interactive shell)");
        return ST_EINVAL;
    }
    enum st_err e = dynbuf_addstr(svc, prefix);
    if (!e)
        e = dynbuf_addstr(svc, cmd);
    if (e == ST_ETOOBIG)
        adb_seterr(d->err, sizeof d->err, "command of %zu bytes is too long (limit "
                   "%u)", strlen(cmd), ADB_REQUEST_MAX - 16);
    return e;
}

struct run_state {
    struct adb_device *d;
    const struct adb_sink *sink;
    struct adb_shv2_dec dec;
    uint64_t done;
    int exit_code;
};

static enum st_err deliver(struct run_state *rs, int is_err, const void *p, size_t n)
{
    const struct adb_sink *s = rs->sink;
    enum st_err (*cb)(void *, const void *, size_t) = is_err ? s->err : s->out;
    rs->done += n;
    return cb && n ? cb(s->ctx, p, n) : ST_OK;
}

/* Decode one read's worth of shell v2 bytes. */
static enum st_err feed_v2(struct run_state *rs, const uint8_t *p, size_t n)
{
    while (n && rs->exit_code == ADB_EXIT_UNKNOWN) {
        struct adb_shv2_ev ev;
        size_t used = 0;
        enum st_err e = adb_shv2_feed(&rs->dec, p, n, &used, &ev);
        if (e) {
            adb_seterr(rs->d->err, sizeof rs->d->err, "malformed shell protocol "
                       "frame after %llu bytes", (unsigned long long)rs->done);
            return e;
        }
        p += used;
        n -= used;
        if (ev.type == ADB_SHV2_EV_EXIT)
            rs->exit_code = ev.code;
        else if (ev.type != ADB_SHV2_EV_NONE)
            e = deliver(rs, ev.type == ADB_SHV2_EV_ERR, ev.p, ev.n);
        if (e)
            return e;
    }
    return ST_OK;
}

static enum st_err pump(struct run_state *rs, struct adb_stream *st, int v2)
{
    uint8_t *buf = malloc(READ_CHUNK);
    if (!buf)
        return ST_ENOMEM;
    enum st_err e = ST_OK;
    for (;;) {
        size_t got = 0;
        e = adb_stream_read(st, buf, READ_CHUNK, &got);
        if (e) {
            adb_copyerr(rs->d->err, sizeof rs->d->err, st->err);
            break;
        }
        if (!got)
            break;
        e = v2 ? feed_v2(rs, buf, got) : deliver(rs, 0, buf, got);
        if (e && !rs->d->err[0])
            adb_seterr(rs->d->err, sizeof rs->d->err, "stopped by the receiver: %s",
                       st_strerror(e));
        if (!e && rs->sink->progress)
            rs->sink->progress(rs->sink->ctx, rs->done, 0);
        if (e || (v2 && rs->exit_code != ADB_EXIT_UNKNOWN))
            break;
    }
    free(buf);
    if (e || !v2 || rs->exit_code != ADB_EXIT_UNKNOWN)
        return e;
    e = adb_shv2_finish(&rs->dec);
    adb_seterr(rs->d->err, sizeof rs->d->err, e ? "shell stream ended inside a frame"
               : "shell stream ended without an exit status");
    return e ? e : ST_ECLOSED;
}

static enum st_err stream_cmdline(struct adb_device *d, enum adb_mode mode,
                                  const char *cmd, const struct adb_sink *sink,
                                  int *exit_code)
{
    struct run_state rs = {.d = d, .sink = sink, .exit_code = ADB_EXIT_UNKNOWN};
    struct dynbuf svc;
    struct adb_stream *st = NULL;
    int v2 = 0;
    if (exit_code)
        *exit_code = ADB_EXIT_UNKNOWN;
    d->err[0] = '\0';
    dynbuf_init(&svc, ADB_REQUEST_MAX);
    enum st_err e = adb_shell_service(d, mode, cmd, &svc, &v2);
    if (!e)
        e = adb_stream_open(d, dynbuf_str(&svc), &st);
    dynbuf_free(&svc);
    adb_shv2_init(&rs.dec);
    if (!e && v2) {
        uint8_t hdr[ADB_SHV2_HDR];
        adb_shv2_header(hdr, ADB_SHV2_CLOSE_STDIN, 0);
        e = adb_stream_write(st, hdr, sizeof hdr);
        if (e)
            adb_copyerr(d->err, sizeof d->err, st->err);
    }
    if (!e)
        e = pump(&rs, st, v2);
    adb_stream_free(st);
    if (exit_code)
        *exit_code = rs.exit_code;
    ST_DBG(DBG_ADB, "command done: %s, %llu bytes, exit %d", st_errname(e),
           (unsigned long long)rs.done, rs.exit_code);
    return e;
}

static enum st_err cmdline_from_argv(struct adb_device *d, const char *const *argv,
                                     struct dynbuf *cmd)
{
    if (!argv || !argv[0]) {
        adb_seterr(d->err, sizeof d->err, "empty command");
        return ST_EINVAL;
    }
    enum st_err e = adb_quote_argv(cmd, argv);
    if (e == ST_ETOOBIG)
        adb_seterr(d->err, sizeof d->err, "command is too long (limit %u bytes)",
                   ADB_REQUEST_MAX - 16);
    return e;
}

enum st_err adb_stream_script(struct adb_device *d, enum adb_mode mode,
                              const char *script, const struct adb_sink *sink,
                              int *exit_code)
{
    return stream_cmdline(d, mode, script, sink, exit_code);
}

enum st_err adb_stream_cmd(struct adb_device *d, enum adb_mode mode,
                           const char *const *argv, const struct adb_sink *sink,
                           int *exit_code)
{
    struct dynbuf cmd;
    dynbuf_init(&cmd, ADB_REQUEST_MAX - 16);
    enum st_err e = cmdline_from_argv(d, argv, &cmd);
    if (!e)
        e = stream_cmdline(d, mode, dynbuf_str(&cmd), sink, exit_code);
    else if (exit_code)
        *exit_code = ADB_EXIT_UNKNOWN;
    dynbuf_free(&cmd);
    return e;
}

/* ---- run to completion: the sink collects into two bounded buffers ---- */

struct collect {
    struct adb_device *d;
    struct dynbuf out, err;
};

static enum st_err collect_to(struct collect *c, struct dynbuf *b, const char *what,
                              const void *p, size_t n)
{
    enum st_err e = dynbuf_add(b, p, n);
    if (e == ST_ETOOBIG)
        adb_seterr(c->d->err, sizeof c->d->err, "command %s exceeds %zu bytes",
                   what, b->max);
    return e;
}

static enum st_err collect_out(void *ctx, const void *p, size_t n)
{
    struct collect *c = ctx;
    return collect_to(c, &c->out, "output", p, n);
}

static enum st_err collect_err(void *ctx, const void *p, size_t n)
{
    struct collect *c = ctx;
    return collect_to(c, &c->err, "error output", p, n);
}

static enum st_err run_cmdline(struct adb_device *d, enum adb_mode mode,
                               const char *cmd, size_t max, struct adb_result *r)
{
    struct collect c = {.d = d};
    struct adb_sink sink = {.out = collect_out, .err = collect_err, .ctx = &c};
    dynbuf_init(&c.out, max);
    dynbuf_init(&c.err, max);
    memset(r, 0, sizeof *r);
    enum st_err e = stream_cmdline(d, mode, cmd, &sink, &r->exit_code);
    r->split = (mode == ADB_SHELL || mode == ADB_SHELL_V2) &&
               adb_device_has_feature(d, "shell_v2");
    r->out = dynbuf_take(&c.out, &r->out_len);
    r->err = dynbuf_take(&c.err, &r->err_len);
    if (!r->out || !r->err) {
        adb_result_free(r);
        return ST_ENOMEM;
    }
    return e;
}

enum st_err adb_run_script(struct adb_device *d, enum adb_mode mode,
                           const char *script, size_t max, struct adb_result *r)
{
    return run_cmdline(d, mode, script, max, r);
}

enum st_err adb_run(struct adb_device *d, enum adb_mode mode,
                    const char *const *argv, size_t max, struct adb_result *r)
{
    struct dynbuf cmd;
    dynbuf_init(&cmd, ADB_REQUEST_MAX - 16);
    enum st_err e = cmdline_from_argv(d, argv, &cmd);
    if (!e) {
        e = run_cmdline(d, mode, dynbuf_str(&cmd), max, r);
    } else {
        memset(r, 0, sizeof *r);
        r->exit_code = ADB_EXIT_UNKNOWN;
        r->out = calloc(1, 1);
        r->err = calloc(1, 1);
        if (!r->out || !r->err) {
            adb_result_free(r);
            e = ST_ENOMEM;
        }
    }
    dynbuf_free(&cmd);
    return e;
}

void adb_result_free(struct adb_result *r)
{
    if (!r)
        return;
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
    r->out_len = r->err_len = 0;
}
