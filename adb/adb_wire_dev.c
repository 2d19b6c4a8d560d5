/*
 * struct adb_device over a direct wire connection (adb_wire.h), and the
 * public entry points that open one: adb_device_open_tcp() to adbd's TCP
 * port, adb_device_open_direct() choosing TCP for "HOST:PORT" serials and
 * USB otherwise.  Device info comes from the CNXN banner (ro.product.*);
 * usable features are those both the banner and ADB_HOST_FEATURES list.
 */
#include "adb_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

struct wire_device {
    struct adb_device base;
    struct adb_wire *w;
    int tcp;                /* reachable again at addr (adb_device_wait) */
    struct adb_addr addr;
};

static enum st_err wd_open(struct adb_device *d, const char *service,
                           struct adb_stream **out)
{
    struct wire_device *wd = (struct wire_device *)d;
    return adb_wire_open(wd->w, &d->io, service, out, d->err, sizeof d->err);
}

static void wd_free(struct adb_device *d)
{
    struct wire_device *wd = (struct wire_device *)d;
    adb_wire_free(wd->w);
    adb_device_info_clear(&d->info);
    free(d->features);
    free(wd);
}

/* A new connection to the same adbd, as the adb server reconnects an
 * `adb connect`ed device: TCP, then CNXN and AUTH with the usual keys
 * (no prompt: a key the device accepted before is accepted again). */
static enum st_err reconnect(struct wire_device *wd, int64_t deadline)
{
    struct adb_device *d = &wd->base;
    struct adb_io io = d->io;
    int64_t left = deadline < 0 ? -1 : deadline - adb_now_ms();
    if (left >= 0 && (io.timeout_ms <= 0 || left < io.timeout_ms))
        io.timeout_ms = left > 0 ? (int)left : 1;
    struct adb_ptrans *t;
    enum st_err e = adb_ptrans_tcp_connect(wd->addr.host, wd->addr.port, &io, &t, d->err,
                                           sizeof d->err);
    if (e)
        return e;
    struct adb_wire_auth auth = {.wait_ms = io.timeout_ms > 0 ? io.timeout_ms : 1};
    struct adb_wire *w;
    if ((e = adb_wire_connect(t, &auth, &w, d->err, sizeof d->err)))
        return e;
    adb_wire_free(wd->w);
    wd->w = w;
    ST_DBG(DBG_ADB, "direct device %s reconnected", d->info.serial);
    return ST_OK;
}

static enum st_err wd_wait(struct adb_device *d, int64_t deadline)
{
    struct wire_device *wd = (struct wire_device *)d;
    enum st_err why = adb_wire_dead(wd->w);
    if (!why)
        return ST_OK;
    if (!wd->tcp) {
        adb_seterr(d->err, sizeof d->err, "the USB connection to %s was lost (%s); "
                   "reconnecting it is not supported", d->info.serial, st_strerror(why));
        return ST_EUNSUPPORTED;
    }
    for (;;) {
        enum st_err e = reconnect(wd, deadline);
        if (!e || e == ST_EINTR || e == ST_EUNAUTH)
            return e;
        char last[ADB_ERRLEN];
        adb_copyerr(last, sizeof last, d->err);
        e = adb_nap(&d->io, deadline, 250, d->err, sizeof d->err);
        if (e == ST_ETIMEOUT)
            adb_seterr(d->err, sizeof d->err, "device %s did not come back (%s)",
                       d->info.serial, last);
        if (e)
            return e;
    }
}

static const struct adb_device_ops wire_device_ops = {wd_open, wd_free, wd_wait};

static char *banner_features(const struct adb_banner *b)
{
    struct dynbuf l;
    dynbuf_init(&l, ADB_BANNER_MAX + 1);
    for (size_t i = 0; i < b->nfeatures; i++)
        if ((i && dynbuf_addc(&l, ',')) || dynbuf_addstr(&l, b->features[i])) {
            dynbuf_free(&l);
            return NULL;
        }
    char *all = dynbuf_take(&l, NULL);
    dynbuf_free(&l);
    if (!all)
        return NULL;
    char *usable = adb_feature_intersect(all, ADB_HOST_FEATURES);
    free(all);
    return usable;
}

enum st_err adb_wire_device_new(struct adb_wire *w, const struct adb_io *io,
                                const char *serial, const char *devpath,
                                struct adb_device **out)
{
    *out = NULL;
    struct wire_device *wd = calloc(1, sizeof *wd);
    if (!wd) {
        adb_wire_free(w);
        return ST_ENOMEM;
    }
    const struct adb_banner *b = adb_wire_banner(w);
    const char *name = adb_banner_prop(b, "ro.product.name");
    const char *model = adb_banner_prop(b, "ro.product.model");
    const char *dev = adb_banner_prop(b, "ro.product.device");
    struct adb_device_info info = {
        .serial = (char *)serial, .state = (char *)"device", .st = ADB_STATE_DEVICE,
        .devpath = (char *)devpath, .product = (char *)name, .model = (char *)model,
        .device = (char *)dev,
    };
    wd->base.ops = &wire_device_ops;
    wd->base.io = *io;
    wd->w = w;
    wd->base.features = banner_features(b);
    if (!wd->base.features || adb_device_info_copy(&wd->base.info, &info)) {
        wd_free(&wd->base);
        return ST_ENOMEM;
    }
    ST_DBG(DBG_ADB, "direct device %s (%s): features %s", serial, devpath,
           wd->base.features);
    *out = &wd->base;
    return ST_OK;
}

enum st_err adb_transport_parse(const char *s, enum adb_transport *t)
{
    if (!strcmp(s, "auto"))
        *t = ADB_TRANSPORT_AUTO;
    else if (!strcmp(s, "server"))
        *t = ADB_TRANSPORT_SERVER;
    else if (!strcmp(s, "direct"))
        *t = ADB_TRANSPORT_DIRECT;
    else
        return ST_EINVAL;
    return ST_OK;
}

/* "HOST:PORT", "[v6]:PORT" or "emulator-N" (adbd at N+1): a TCP serial. */
static int tcp_serial(const char *serial, struct adb_addr *a)
{
    const char *emu = "emulator-";
    if (!strncmp(serial, emu, strlen(emu))) {
        char *end;
        unsigned long n = strtoul(serial + strlen(emu), &end, 10);
        if (*end || !n || n >= 65535)
            return 0;
        snprintf(a->host, sizeof a->host, "127.0.0.1");
        a->port = (unsigned)n + 1;
        return 1;
    }
    const char *colon = strrchr(serial, ':');
    if (!colon || colon == serial || !colon[1] || !strncmp(serial, "usb:", 4))
        return 0;
    for (const char *p = colon + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return adb_addr_parse(serial, a, NULL, 0) == ST_OK;
}

enum st_err adb_device_open_tcp(const struct adb_direct_params *p,
                                const char *serial, const struct adb_addr *a,
                                struct adb_device **out)
{
    struct adb_ptrans *t;
    enum st_err e = adb_ptrans_tcp_connect(a->host, a->port, &p->io, &t, p->err,
                                           p->errlen);
    if (e) {
        if (e == ST_ECONNECT) {
            char why[ADB_ERRLEN];
            adb_copyerr(why, sizeof why, p->err);
            adb_seterr(p->err, p->errlen, "%s; is the device in `adb tcpip` mode "
                       "(or the emulator running)?", why);
        }
        return e;
    }
    struct adb_wire_auth auth = {.wait_ms = p->wait_ms, .notify = p->notify,
                                 .ctx = p->ctx};
    struct adb_wire *w;
    e = adb_wire_connect(t, &auth, &w, p->err, p->errlen);
    if (e)
        return e;
    char devpath[300];
    int v6 = strchr(a->host, ':') != NULL;
    snprintf(devpath, sizeof devpath, "tcp:%s%s%s:%u", v6 ? "[" : "", a->host,
             v6 ? "]" : "", a->port);
    e = adb_wire_device_new(w, &p->io, serial, devpath, out);
    if (!e) {
        struct wire_device *wd = (struct wire_device *)*out;
        wd->tcp = 1;
        wd->addr = *a;
    }
    return e;
}

enum st_err adb_device_open_direct(struct adb_client *c, const char *serial,
                                   struct adb_device **out)
{
    *out = NULL;
    struct adb_direct_params p;
    adb_client_direct_params(c, &p);
    if (p.errlen)
        p.err[0] = '\0';
    if (!serial || !*serial) {
        const char *env = getenv("ANDROID_SERIAL");
        serial = env && *env ? env : NULL;
    }
    struct adb_addr a;
    if (serial && tcp_serial(serial, &a))
        return adb_device_open_tcp(&p, serial, &a, out);
    return adb_usb_open(&p, serial, out);
}
