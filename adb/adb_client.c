/*
 * struct adb_client: where the adb server is, the timeout and the cancel
 * fd, and the host services answered by the server itself (version,
 * devices-l, features).  One request per connection, as the server wants.
 * The server is never killed or restarted, whatever its version.
 */
#include "adb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

struct adb_client {
    struct adb_addr addr;
    struct adb_io io;
    char addr_text[300];
    void (*auth_notify)(void *ctx, const char *msg);
    void *auth_ctx;
    int auth_wait_ms;
    char err[ADB_ERRLEN];
};

static void update_text(struct adb_client *c)
{
    int v6 = strchr(c->addr.host, ':') != NULL;
    snprintf(c->addr_text, sizeof c->addr_text, "%s%s%s:%u", v6 ? "[" : "",
             c->addr.host, v6 ? "]" : "", c->addr.port);
}

struct adb_client *adb_client_new(void)
{
    struct adb_client *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    st_debug_init();
    adb_addr_from_env(NULL, NULL, NULL, &c->addr, NULL, 0);
    c->io.timeout_ms = ADB_DEFAULT_TIMEOUT_MS;
    c->io.cancel_fd = -1;
    update_text(c);
    return c;
}

void adb_client_free(struct adb_client *c)
{
    free(c);
}

enum st_err adb_client_use_env(struct adb_client *c)
{
    enum st_err e = adb_addr_from_env(getenv("ADB_SERVER_SOCKET"),
                                      getenv("ANDROID_ADB_SERVER_ADDRESS"),
                                      getenv("ANDROID_ADB_SERVER_PORT"), &c->addr,
                                      c->err, sizeof c->err);
    update_text(c);
    return e;
}

enum st_err adb_client_set_server(struct adb_client *c, const char *spec)
{
    enum st_err e = adb_addr_parse(spec, &c->addr, c->err, sizeof c->err);
    update_text(c);
    return e;
}

const char *adb_client_server(const struct adb_client *c)
{
    return c->addr_text;
}

void adb_client_set_timeout(struct adb_client *c, int timeout_ms)
{
    c->io.timeout_ms = timeout_ms;
}

void adb_client_set_cancel_fd(struct adb_client *c, int fd)
{
    c->io.cancel_fd = fd;
}

void adb_client_set_auth_notify(struct adb_client *c,
                                void (*notify)(void *ctx, const char *msg),
                                void *ctx)
{
    c->auth_notify = notify;
    c->auth_ctx = ctx;
}

void adb_client_set_auth_wait(struct adb_client *c, int ms)
{
    c->auth_wait_ms = ms;
}

void adb_client_direct_params(struct adb_client *c, struct adb_direct_params *p)
{
    p->io = c->io;
    p->notify = c->auth_notify;
    p->ctx = c->auth_ctx;
    p->wait_ms = c->auth_wait_ms;
    p->err = c->err;
    p->errlen = sizeof c->err;
}

const char *adb_client_error(const struct adb_client *c)
{
    return c->err;
}

enum st_err adb_server_version(struct adb_client *c, unsigned *version)
{
    struct dynbuf b;
    dynbuf_init(&b, 64);
    enum st_err e = adb_host_query(&c->addr, &c->io, "host:version", &b, c->err,
                                   sizeof c->err);
    if (!e && (b.len != 4 || adb_hex4_decode(b.data, version))) {
        adb_seterr(c->err, sizeof c->err, "server at %s sent a malformed version "
                   "'%.16s'", c->addr_text, dynbuf_str(&b));
        e = ST_EPROTO;
    }
    if (!e)
        ST_DBG(DBG_ADB, "server %s version %u", c->addr_text, *version);
    dynbuf_free(&b);
    return e;
}

enum st_err adb_server_devices(struct adb_client *c, struct adb_device_list **out)
{
    *out = NULL;
    struct dynbuf b;
    dynbuf_init(&b, ADB_REPLY_MAX);
    enum st_err e = adb_host_query(&c->addr, &c->io, "host:devices-l", &b, c->err,
                                   sizeof c->err);
    if (!e) {
        e = adb_devices_parse(dynbuf_str(&b), b.len, out);
        if (e)
            adb_seterr(c->err, sizeof c->err, "cannot parse the device list from "
                       "the server: %s", st_strerror(e));
    }
    dynbuf_free(&b);
    return e;
}

/* Comma list of features for a prefix ("host-serial:S:" or "host:host-"). */
static enum st_err query_features(struct adb_client *c, const char *req, char **out)
{
    struct dynbuf b;
    dynbuf_init(&b, ADB_REPLY_MAX);
    enum st_err e = adb_host_query(&c->addr, &c->io, req, &b, c->err, sizeof c->err);
    *out = e ? NULL : dynbuf_take(&b, NULL);
    dynbuf_free(&b);
    return *out || e ? e : ST_ENOMEM;
}

/* Features usable through this server: the device's, minus what the
 * server does not list (an old server without host-features: none). */
static enum st_err usable_features(struct adb_client *c, const char *serial,
                                   char **out)
{
    struct dynbuf req;
    dynbuf_init(&req, ADB_REQUEST_MAX);
    enum st_err e = dynbuf_printf(&req, "host-serial:%s:features", serial);
    char *dev = NULL, *host = NULL;
    if (!e)
        e = query_features(c, dynbuf_str(&req), &dev);
    dynbuf_free(&req);
    if (e)
        return e == ST_EFAIL ? adb_fail_code(c->err) : e;
    e = query_features(c, "host:host-features", &host);
    if (e == ST_EFAIL) {
        ST_DBG(DBG_ADB, "server has no host-features (%s): no optional features",
               c->err);
        e = ST_OK;
    }
    *out = e ? NULL : adb_feature_intersect(dev, host ? host : "");
    if (!e && !*out)
        e = ST_ENOMEM;
    ST_DBG(DBG_ADB, "features device=[%s] server=[%s]", dev, host ? host : "");
    free(dev);
    free(host);
    return e;
}

enum st_err adb_device_open(struct adb_client *c, const char *serial,
                            struct adb_device **out)
{
    *out = NULL;
    struct adb_device_list *l;
    enum st_err e = adb_server_devices(c, &l);
    if (e)
        return e;
    size_t i = 0;
    e = adb_select(l, serial, getenv("ANDROID_SERIAL"), &i, c->err, sizeof c->err);
    char *features = NULL;
    if (!e)
        e = usable_features(c, l->v[i].serial, &features);
    if (!e)
        e = adb_server_device_new(&c->addr, &c->io, &l->v[i], features, out);
    if (!e)
        ST_DBG(DBG_ADB, "selected %s (transport %llu)", l->v[i].serial,
               (unsigned long long)l->v[i].transport_id);
    free(features);
    adb_device_list_free(l);
    return e;
}
