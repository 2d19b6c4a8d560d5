/*
 * A device reached through the adb server.  Opening a service is one new
 * connection: the transport switch host:tport:serial:S (OKAY + 8-byte LE
 * transport id), or host:transport:S when the server FAILs tport (servers
 * before 2019); then the service name, OKAY, and the socket is a raw byte
 * stream to the service (struct adb_stream over the conn).  Once the
 * legacy switch worked, later opens use it directly.
 */
#include "adb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

struct server_device {
    struct adb_device base;
    struct adb_addr addr;
    int legacy_switch;      /* server does not know host:tport */
};

struct conn_stream {
    struct adb_stream base;
    struct adb_conn *conn;
};

static enum st_err cs_read(struct adb_stream *s, void *p, size_t n, size_t *got,
                           int64_t deadline)
{
    struct conn_stream *cs = (struct conn_stream *)s;
    cs->conn->io = s->io;
    enum st_err e = adb_conn_read(cs->conn, p, n, got, deadline);
    if (e)
        adb_copyerr(s->err, sizeof s->err, cs->conn->err);
    return e;
}

static enum st_err cs_write(struct adb_stream *s, const void *p, size_t n,
                            int64_t deadline)
{
    struct conn_stream *cs = (struct conn_stream *)s;
    cs->conn->io = s->io;
    enum st_err e = adb_conn_write(cs->conn, p, n, deadline);
    if (e)
        adb_copyerr(s->err, sizeof s->err, cs->conn->err);
    return e;
}

static void cs_close(struct adb_stream *s)
{
    struct conn_stream *cs = (struct conn_stream *)s;
    adb_conn_close(cs->conn);
    free(cs);
}

static const struct adb_stream_ops conn_stream_ops = {cs_read, cs_write, cs_close};

struct adb_stream *adb_stream_from_conn(struct adb_conn *c)
{
    struct conn_stream *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    cs->base.ops = &conn_stream_ops;
    cs->base.io = c->io;
    cs->conn = c;
    return &cs->base;
}

/* Connect and send one request; OKAY expected. */
static enum st_err request(struct server_device *sd, const char *req,
                           int64_t deadline, struct adb_conn **out)
{
    struct adb_device *d = &sd->base;
    enum st_err e = adb_server_connect(&sd->addr, &d->io, out, d->err, sizeof d->err);
    if (e)
        return e;
    e = adb_ss_send(*out, req, deadline);
    if (!e)
        e = adb_ss_status(*out, deadline);
    if (e) {
        adb_copyerr(d->err, sizeof d->err, (*out)->err);
        adb_conn_close(*out);
        *out = NULL;
    }
    return e;
}

static enum st_err switch_tport(struct server_device *sd, int64_t deadline,
                                struct adb_conn **out)
{
    struct adb_device *d = &sd->base;
    struct dynbuf req;
    dynbuf_init(&req, ADB_REQUEST_MAX);
    enum st_err e = dynbuf_printf(&req, "host:tport:serial:%s", d->info.serial);
    if (!e)
        e = request(sd, dynbuf_str(&req), deadline, out);
    dynbuf_free(&req);
    if (e)
        return e;
    unsigned char id[8];
    e = adb_conn_read_full(*out, id, sizeof id, deadline);
    if (e) {
        adb_copyerr(d->err, sizeof d->err, (*out)->err);
        adb_conn_close(*out);
        *out = NULL;
        return e;
    }
    ST_DBG(DBG_ADB, "transport id %llu", (unsigned long long)adb_get64(id));
    return ST_OK;
}

static enum st_err switch_legacy(struct server_device *sd, int64_t deadline,
                                 struct adb_conn **out)
{
    struct dynbuf req;
    dynbuf_init(&req, ADB_REQUEST_MAX);
    enum st_err e = dynbuf_printf(&req, "host:transport:%s", sd->base.info.serial);
    if (!e)
        e = request(sd, dynbuf_str(&req), deadline, out);
    dynbuf_free(&req);
    return e;
}

/* Connection switched to the device; ST_E* mapped from the server's FAIL. */
static enum st_err switch_to_device(struct server_device *sd, int64_t deadline,
                                    struct adb_conn **out)
{
    enum st_err e = ST_EFAIL;
    if (!sd->legacy_switch) {
        e = switch_tport(sd, deadline, out);
        if (e != ST_EFAIL)
            return e;
        ST_DBG(DBG_ADB, "tport refused (%s); trying host:transport", sd->base.err);
    }
    e = switch_legacy(sd, deadline, out);
    if (e == ST_OK)
        sd->legacy_switch = 1;
    return e == ST_EFAIL ? adb_fail_code(sd->base.err) : e;
}

static enum st_err server_open(struct adb_device *d, const char *service,
                               struct adb_stream **out)
{
    struct server_device *sd = (struct server_device *)d;
    int64_t deadline = adb_deadline(&d->io);
    struct adb_conn *c = NULL;
    enum st_err e = switch_to_device(sd, deadline, &c);
    if (!e)
        e = adb_ss_send(c, service, deadline);
    if (!e)
        e = adb_ss_status(c, deadline);
    if (e && c) {
        const char *why = c->err;
        if (e == ST_EFAIL)
            adb_seterr(d->err, sizeof d->err, "device %s refused service '%.100s': %s",
                       d->info.serial, service, why);
        else
            adb_copyerr(d->err, sizeof d->err, why);
    }
    if (!e) {
        *out = adb_stream_from_conn(c);
        if (*out)
            return ST_OK;
        e = ST_ENOMEM;
    }
    adb_conn_close(c);
    return e;
}

static void server_free(struct adb_device *d)
{
    adb_device_info_clear(&d->info);
    free(d->features);
    free(d);
}

/* What host:devices-l says of this device now: ST_OK if usable; else the
 * state (or why nobody answered) goes into seen and ST_EOFFLINE, or
 * ST_EINTR when cancelled. */
static enum st_err listed_ready(struct server_device *sd, char *seen, size_t n)
{
    struct adb_device *d = &sd->base;
    struct dynbuf body;
    dynbuf_init(&body, ADB_REPLY_MAX);
    char why[ADB_ERRLEN] = "";
    enum st_err e = adb_host_query(&sd->addr, &d->io, "host:devices-l", &body, why,
                                   sizeof why);
    struct adb_device_list *l = NULL;
    if (!e)
        e = adb_devices_parse(dynbuf_str(&body), body.len, &l);
    dynbuf_free(&body);
    if (e == ST_EINTR)
        return e;
    if (e) {
        snprintf(seen, n, "unknown (%.120s)", why[0] ? why : st_strerror(e));
        return ST_EOFFLINE;
    }
    int ready = 0;
    snprintf(seen, n, "not listed");
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].serial, d->info.serial)) {
            ready = l->v[i].st == ADB_STATE_DEVICE;
            snprintf(seen, n, "%s", l->v[i].state);
        }
    adb_device_list_free(l);
    return ready ? ST_OK : ST_EOFFLINE;
}

/* The server keeps an `adb connect`ed device listed as "offline" while it
 * reconnects it, and drops a USB device from the list until it is back:
 * poll the list (as `adb wait-for-device` waits on the server). */
static enum st_err server_wait(struct adb_device *d, int64_t deadline)
{
    struct server_device *sd = (struct server_device *)d;
    char seen[160];
    for (;;) {
        enum st_err e = listed_ready(sd, seen, sizeof seen);
        if (e != ST_EOFFLINE)
            return e;
        e = adb_nap(&d->io, deadline, 250, d->err, sizeof d->err);
        if (e == ST_ETIMEOUT)
            adb_seterr(d->err, sizeof d->err, "device %s did not come back (the adb "
                       "server lists it as: %s)", d->info.serial, seen);
        if (e)
            return e;
    }
}

static const struct adb_device_ops server_ops = {server_open, server_free, server_wait};

enum st_err adb_server_device_new(const struct adb_addr *addr,
                                  const struct adb_io *io,
                                  const struct adb_device_info *info,
                                  const char *features, struct adb_device **out)
{
    struct server_device *sd = calloc(1, sizeof *sd);
    if (!sd)
        return ST_ENOMEM;
    sd->base.ops = &server_ops;
    sd->base.io = *io;
    sd->addr = *addr;
    sd->base.features = strdup(features ? features : "");
    if (!sd->base.features || adb_device_info_copy(&sd->base.info, info)) {
        free(sd->base.features);
        free(sd);
        return ST_ENOMEM;
    }
    *out = &sd->base;
    return ST_OK;
}
