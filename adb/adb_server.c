/*
 * The adb server's smart-socket protocol (reference/adb-protocol.md (a)):
 * where the server is, hex4-framed requests, OKAY/FAIL status and
 * hex4-framed data replies.  Every read asks for an exact length, because
 * the server may split status and body across segments.
 *
 * Requests are limited to 0xffff bytes (all hex4 can express); servers
 * older than 2016 took only 4096, which we do not check.
 */
#include "adb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

#define DEFAULT_HOST "127.0.0.1"
#define DEFAULT_PORT 5037u

static enum st_err parse_port(const char *s, size_t n, unsigned *port)
{
    unsigned v = 0;
    if (n == 0 || n > 5)
        return ST_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return ST_EINVAL;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v < 1 || v > 65535)
        return ST_EINVAL;
    *port = v;
    return ST_OK;
}

static enum st_err set_host(struct adb_addr *a, const char *h, size_t n)
{
    if (n == 0 || n >= sizeof a->host)
        return ST_EINVAL;
    memcpy(a->host, h, n);
    a->host[n] = '\0';
    return ST_OK;
}

/* HOST:PORT, [V6]:PORT or PORT (host defaults to 127.0.0.1). */
static enum st_err parse_hostport(const char *s, struct adb_addr *a)
{
    const char *colon;
    if (s[0] == '[') {
        const char *close = strchr(s, ']');
        if (!close || close[1] != ':')
            return ST_EINVAL;
        if (set_host(a, s + 1, (size_t)(close - s - 1)))
            return ST_EINVAL;
        colon = close + 1;
    } else {
        colon = strrchr(s, ':');
        if (!colon)
            return set_host(a, DEFAULT_HOST, strlen(DEFAULT_HOST)) ||
                   parse_port(s, strlen(s), &a->port) ? ST_EINVAL : ST_OK;
        if (set_host(a, s, (size_t)(colon - s)))
            return ST_EINVAL;
    }
    return parse_port(colon + 1, strlen(colon + 1), &a->port);
}

enum st_err adb_addr_parse(const char *spec, struct adb_addr *a,
                           char *err, size_t errlen)
{
    const char *s = spec;
    if (!strncmp(s, "tcp:", 4)) {
        s += 4;
    } else {
        const char *colon = strchr(s, ':');
        size_t plen = colon ? (size_t)(colon - s) : 0;
        static const char *const others[] = {"local", "localabstract",
                                             "localreserved", "localfilesystem",
                                             "vsock", "acceptfd"};
        for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
            if (plen == strlen(others[i]) && !strncmp(s, others[i], plen)) {
                adb_seterr(err, errlen, "adb server socket '%s': only tcp: "
                           "sockets are supported", spec);
                return ST_EUNSUPPORTED;
            }
        }
    }
    struct adb_addr tmp;
    if (parse_hostport(s, &tmp)) {
        adb_seterr(err, errlen, "adb server socket '%s' is not tcp:HOST:PORT "
                   "(port 1-65535)", spec);
        return ST_EINVAL;
    }
    *a = tmp;
    return ST_OK;
}

enum st_err adb_addr_from_env(const char *server_socket, const char *address,
                              const char *port, struct adb_addr *a,
                              char *err, size_t errlen)
{
    if (server_socket && *server_socket) {
        enum st_err e = adb_addr_parse(server_socket, a, err, errlen);
        if (e) {
            char tmp[ADB_ERRLEN];
            adb_copyerr(tmp, sizeof tmp, err);
            adb_seterr(err, errlen, "$ADB_SERVER_SOCKET: %s", tmp);
        }
        return e;
    }
    struct adb_addr tmp;
    const char *host = address && *address ? address : DEFAULT_HOST;
    if (set_host(&tmp, host, strlen(host))) {
        adb_seterr(err, errlen, "$ANDROID_ADB_SERVER_ADDRESS is too long");
        return ST_EINVAL;
    }
    tmp.port = DEFAULT_PORT;
    if (port && *port && parse_port(port, strlen(port), &tmp.port)) {
        adb_seterr(err, errlen, "$ANDROID_ADB_SERVER_PORT must be a port number "
                   "1-65535, not '%s'", port);
        return ST_EINVAL;
    }
    *a = tmp;
    return ST_OK;
}

void adb_hex4_encode(char out[4], unsigned n)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 3; i >= 0; i--) {
        out[i] = hex[n & 15];
        n >>= 4;
    }
}

enum st_err adb_hex4_decode(const char in[4], unsigned *n)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = in[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return ST_EPROTO;
        v = v << 4 | d;
    }
    *n = v;
    return ST_OK;
}

enum st_err adb_server_connect(const struct adb_addr *a, const struct adb_io *io,
                               struct adb_conn **out, char *err, size_t errlen)
{
    enum st_err e = adb_conn_tcp_connect(a->host, a->port, io, out, err, errlen);
    if (e == ST_ECONNECT) {
        char why[ADB_ERRLEN];
        adb_copyerr(why, sizeof why, err);
        adb_seterr(err, errlen, "no adb server answers at %s:%u (%s); start one "
                   "with `adb start-server`", a->host, a->port, why);
    }
    return e;
}

enum st_err adb_ss_send(struct adb_conn *c, const char *req, int64_t deadline)
{
    size_t n = strlen(req);
    if (n == 0 || n > ADB_REQUEST_MAX) {
        adb_seterr(c->err, sizeof c->err, "request of %zu bytes (limit %u)", n,
                   ADB_REQUEST_MAX);
        return n ? ST_ETOOBIG : ST_EINVAL;
    }
    char *msg = malloc(n + 4);
    if (!msg)
        return ST_ENOMEM;
    adb_hex4_encode(msg, (unsigned)n);
    memcpy(msg + 4, req, n);
    ST_DBG(DBG_ADB, "-> %.*s", (int)(n > 200 ? 200 : n), req);
    enum st_err e = adb_conn_write(c, msg, n + 4, deadline);
    free(msg);
    return e;
}

/* hex4 length, then that many bytes into out. */
static enum st_err read_hex4_body(struct adb_conn *c, int64_t deadline, size_t max,
                                  struct dynbuf *out)
{
    char h[4];
    unsigned n;
    enum st_err e = adb_conn_read_full(c, h, 4, deadline);
    if (e)
        return e;
    if (adb_hex4_decode(h, &n)) {
        adb_seterr(c->err, sizeof c->err, "bad length in server reply: %02x %02x "
                   "%02x %02x", (unsigned char)h[0], (unsigned char)h[1],
                   (unsigned char)h[2], (unsigned char)h[3]);
        return ST_EPROTO;
    }
    if (n > max) {
        adb_seterr(c->err, sizeof c->err, "server reply of %u bytes exceeds %zu", n, max);
        return ST_ETOOBIG;
    }
    dynbuf_reset(out);
    char buf[4096];
    while (n) {
        size_t k = n < sizeof buf ? n : sizeof buf;
        e = adb_conn_read_full(c, buf, k, deadline);
        if (!e)
            e = dynbuf_add(out, buf, k);
        if (e)
            return e;
        n -= (unsigned)k;
    }
    return ST_OK;
}

enum st_err adb_ss_status(struct adb_conn *c, int64_t deadline)
{
    char st[4];
    enum st_err e = adb_conn_read_full(c, st, 4, deadline);
    if (e)
        return e;
    if (!memcmp(st, "OKAY", 4)) {
        ST_DBG(DBG_ADB, "<- OKAY");
        return ST_OK;
    }
    if (memcmp(st, "FAIL", 4)) {
        st_debug_hex(DBG_ADB, "<- bad status", st, 4);
        adb_seterr(c->err, sizeof c->err, "server sent neither OKAY nor FAIL");
        return ST_EPROTO;
    }
    struct dynbuf msg;
    dynbuf_init(&msg, ADB_REQUEST_MAX);
    e = read_hex4_body(c, deadline, ADB_REQUEST_MAX, &msg);
    if (e == ST_OK)     /* cut to the size of err; a NUL ends it early */
        adb_seterr(c->err, sizeof c->err, "%s",
                   msg.len ? dynbuf_str(&msg) : "request refused");
    dynbuf_free(&msg);
    if (e)
        return e;
    ST_DBG(DBG_ADB, "<- FAIL %s", c->err);
    return ST_EFAIL;
}

enum st_err adb_ss_body(struct adb_conn *c, int64_t deadline, size_t max,
                        struct dynbuf *out)
{
    enum st_err e = read_hex4_body(c, deadline, max, out);
    if (!e)
        st_debug_hex(DBG_ADB, "<- body", out->data ? out->data : "", out->len);
    return e;
}

enum st_err adb_fail_code(const char *msg)
{
    static const struct {
        const char *text;
        enum st_err code;
    } map[] = {
        {"not found", ST_ENOENT},
        {"no devices", ST_ENODEVICE},
        {"no emulators", ST_ENODEVICE},
        {"more than one", ST_EMULTIDEV},
        {"offline", ST_EOFFLINE},
        {"unauthorized", ST_EUNAUTH},
        {"permissions", ST_EPERM},
        {"authorizing", ST_EDEVICE},
        {"connecting", ST_EDEVICE},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strstr(msg, map[i].text))
            return map[i].code;
    return ST_EFAIL;
}

enum st_err adb_host_query(const struct adb_addr *a, const struct adb_io *io,
                           const char *req, struct dynbuf *out,
                           char *err, size_t errlen)
{
    struct adb_conn *c;
    enum st_err e = adb_server_connect(a, io, &c, err, errlen);
    if (e)
        return e;
    int64_t deadline = adb_deadline(io);
    e = adb_ss_send(c, req, deadline);
    if (!e)
        e = adb_ss_status(c, deadline);
    if (!e)
        e = adb_ss_body(c, deadline, ADB_REPLY_MAX, out);
    if (e)
        adb_copyerr(err, errlen, c->err);
    adb_conn_close(c);
    return e;
}
