/*
 * ADB over USB (reference/adb-protocol.md section e), on the operations
 * table of adb_usb.h (libusb by default; a fake in unit tests).
 *
 * Finding: every device with an interface 0xff/0x42/0x01 (or 0xdc/0x02/
 * 0x01) and one bulk IN + one bulk OUT endpoint; its serial is the
 * device descriptor's iSerialNumber string, its devpath usb:BUS-PORTS.
 * Opening: claim the interface, clear halts, then the wire handshake.
 * Packets: the header is one bulk OUT transfer, the payload a second, and
 * a zero-length packet follows a payload that is a non-zero multiple of
 * the endpoint's packet size (adbd reads fixed blocks).  Reads ask for
 * exactly what the wire layer still needs; short transfers are fine.
 * A stalled endpoint is cleared and the transfer retried (a few times).
 * Transfers wait in slices of SLICE_MS so the deadline and cancel fd
 * apply; the cancel fd is looked at only between packets when sending.
 * Errors say what to do: ACCESS on open is udev permissions, BUSY on
 * claim is another program (normally the adb server) holding the device.
 */
#include "adb_wire.h"
#include "adb_usb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"
#include "lib/plat.h"

#define SLICE_MS 250
#define MAX_STALLS 3

static const struct adb_usb_ops *usb_ops = &adb_usb_system_ops;

void adb_usb_set_ops(const struct adb_usb_ops *ops)
{
    usb_ops = ops ? ops : &adb_usb_system_ops;
}

int adb_usb_find_iface(const struct adb_usb_devdesc *d, uint8_t *in, uint8_t *out,
                       uint16_t *max_packet)
{
    for (size_t i = 0; i < d->niface && i < ADB_USB_MAX_IFACES; i++) {
        const struct adb_usb_iface *f = &d->iface[i];
        int adb = (f->cls == 0xff && f->subcls == 0x42 && f->proto == 0x01) ||
                  (f->cls == 0xdc && f->subcls == 0x02 && f->proto == 0x01);
        if (!adb)
            continue;
        int nin = 0, nout = 0;
        for (size_t k = 0; k < f->nep && k < ADB_USB_MAX_EPS; k++) {
            const struct adb_usb_ep *e = &f->ep[k];
            if ((e->attrs & 3) != 2)
                continue;
            if (e->addr & 0x80) {
                *in = e->addr;
                nin++;
            } else {
                *out = e->addr;
                *max_packet = e->max_packet;
                nout++;
            }
        }
        if (nin == 1 && nout == 1 && *max_packet)
            return (int)i;
    }
    return -1;
}

void adb_usb_devpath(const struct adb_usb_devdesc *d, char *out, size_t n)
{
    int k = snprintf(out, n, "usb:%u-", d->bus);
    for (size_t i = 0; i < d->nports && k > 0 && (size_t)k < n; i++)
        k += snprintf(out + k, n - (size_t)k, "%s%u", i ? "." : "", d->ports[i]);
}

int adb_usb_needs_zlp(size_t n, uint16_t max_packet)
{
    return n && max_packet && n % max_packet == 0;
}

/* ---- the packet transport ------------------------------------------ */

struct usb_ptrans {
    struct adb_ptrans base;
    void *ctx, *h;
    int iface;
    uint8_t in, out;
    uint16_t max_packet;
};

static int cancelled(const struct adb_io *io)
{
    if (io->cancel_fd < 0)
        return 0;
    struct plat_pollfd pf = {io->cancel_fd, PLAT_POLLIN, 0};
    return plat_poll(&pf, 1, 0) > 0;
}

static unsigned slice(int64_t deadline)
{
    if (deadline < 0)
        return SLICE_MS;
    int64_t left = deadline - adb_now_ms();
    return left <= 0 ? 1 : left < SLICE_MS ? (unsigned)left : SLICE_MS;
}

static enum st_err usb_fail(struct usb_ptrans *u, int rc, const char *what)
{
    struct adb_ptrans *t = &u->base;
    switch (rc) {
    case ADB_USB_ENODEV:
        adb_seterr(t->err, sizeof t->err, "the USB device went away (%s)", what);
        return ST_ECLOSED;
    case ADB_USB_EOVERFLOW:
        adb_seterr(t->err, sizeof t->err, "the USB device sent more than asked (%s)",
                   what);
        return ST_EPROTO;
    case ADB_USB_ESTALL:
        adb_seterr(t->err, sizeof t->err, "USB endpoint keeps stalling (%s)", what);
        return ST_EIO;
    default:
        adb_seterr(t->err, sizeof t->err, "USB transfer failed (%s, error %d)", what, rc);
        return ST_EIO;
    }
}

/* One transfer: waits in slices; returns once something moved. */
static enum st_err xfer(struct usb_ptrans *u, uint8_t ep, uint8_t *p, size_t n,
                        size_t *done, int64_t deadline, int check_cancel)
{
    int stalls = 0;
    *done = 0;
    for (;;) {
        if (check_cancel && cancelled(&u->base.io)) {
            adb_seterr(u->base.err, sizeof u->base.err, "interrupted");
            return ST_EINTR;
        }
        int rc = usb_ops->bulk(u->h, ep, p, n, done, slice(deadline));
        if (rc == ADB_USB_OK)
            return ST_OK;
        if (rc == ADB_USB_ETIMEOUT) {
            if (*done)
                return ST_OK;
            if (deadline >= 0 && adb_now_ms() >= deadline) {
                adb_seterr(u->base.err, sizeof u->base.err,
                           "no answer from the USB device in time");
                return ST_ETIMEOUT;
            }
            continue;
        }
        if (rc == ADB_USB_ESTALL && ++stalls <= MAX_STALLS) {
            ST_DBG(DBG_ADB, "usb: endpoint %02x stalled, clearing", ep);
            usb_ops->clear_halt(u->h, ep);
            if (*done)
                return ST_OK;
            continue;
        }
        return usb_fail(u, rc, ep & 0x80 ? "read" : "write");
    }
}

static enum st_err up_read(struct adb_ptrans *t, void *p, size_t n, size_t *got,
                           int64_t deadline)
{
    struct usb_ptrans *u = (struct usb_ptrans *)t;
    *got = 0;
    for (;;) {
        enum st_err e = xfer(u, u->in, p, n, got, deadline, 1);
        if (e || *got)
            return e;
        /* a zero-length packet: adbd sends none, skip it */
    }
}

static enum st_err send_all(struct usb_ptrans *u, const uint8_t *p, size_t n,
                            int64_t deadline)
{
    do {
        size_t done = 0;
        enum st_err e = xfer(u, u->out, (uint8_t *)p, n, &done, deadline, 0);
        if (e)
            return e;
        p += done;
        n -= done;
    } while (n);
    return ST_OK;
}

static enum st_err up_send(struct adb_ptrans *t, const uint8_t hdr[ADB_HDR_LEN],
                           const void *data, size_t n, int64_t deadline)
{
    struct usb_ptrans *u = (struct usb_ptrans *)t;
    if (cancelled(&t->io)) {
        adb_seterr(t->err, sizeof t->err, "interrupted");
        return ST_EINTR;
    }
    enum st_err e = send_all(u, hdr, ADB_HDR_LEN, deadline);
    if (!e && n)
        e = send_all(u, data, n, deadline);
    if (!e && adb_usb_needs_zlp(n, u->max_packet)) {
        size_t done;
        e = xfer(u, u->out, (uint8_t *)hdr, 0, &done, deadline, 0);
    }
    return e;
}

static void up_close(struct adb_ptrans *t)
{
    struct usb_ptrans *u = (struct usb_ptrans *)t;
    if (u->h) {
        usb_ops->release(u->h, u->iface);
        usb_ops->close(u->h);
    }
    if (u->ctx)
        usb_ops->exit(u->ctx);
    free(u);
}

static const struct adb_ptrans_ops usb_ptrans_ops = {up_read, up_send, up_close};

/* ---- finding and opening ---------------------------------------------- */

struct cand {
    size_t dev;
    int iface, rc;          /* rc: result of opening it */
    uint8_t in, out;
    uint16_t max_packet;
    char serial[256];
    char devpath[64];
};

static void describe(const struct cand *c, size_t n, char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && k < len; i++) {
        int w = snprintf(out + k, len - k, "%s%s (%s)%s", i ? ", " : "",
                         c[i].serial[0] ? c[i].serial : "?", c[i].devpath,
                         c[i].rc == ADB_USB_EACCESS ? " no permissions" : "");
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

static enum st_err no_access(const struct adb_direct_params *p,
                             const struct adb_usb_devdesc *d, const char *devpath)
{
    adb_seterr(p->err, p->errlen, "no permission to open the USB device %s "
               "(%04x:%04x): missing udev rules?  Add a rule such as "
               "SUBSYSTEM==\"usb\", ATTR{idVendor}==\"%04x\", MODE=\"0660\", "
               "GROUP=\"plugdev\", TAG+=\"uaccess\" (e.g. Debian's android-sdk-"
               "platform-tools-common package), replug the device and make sure "
               "you are in group plugdev", devpath, d->vid, d->pid, d->vid);
    return ST_EPERM;
}

/* Scan: fills c (max n) and returns how many ADB devices there are. */
static size_t scan(void *ctx, struct adb_usb_devdesc *v, size_t nv, struct cand *c,
                   size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < nv && n < max; i++) {
        struct cand *k = &c[n];
        memset(k, 0, sizeof *k);
        int idx = adb_usb_find_iface(&v[i], &k->in, &k->out, &k->max_packet);
        if (idx < 0)
            continue;
        k->iface = v[i].iface[idx].number;
        k->dev = i;
        adb_usb_devpath(&v[i], k->devpath, sizeof k->devpath);
        void *h = NULL;
        k->rc = usb_ops->open(ctx, &v[i], &h);
        if (!k->rc) {
            if (v[i].iserial)
                usb_ops->string(h, v[i].iserial, k->serial, sizeof k->serial);
            usb_ops->close(h);
        }
        ST_DBG(DBG_ADB, "usb: adb interface on %s serial '%s' (open rc %d)",
               k->devpath, k->serial, k->rc);
        n++;
    }
    return n;
}

static enum st_err choose(const struct adb_direct_params *p, const char *serial,
                          struct cand *c, size_t n, size_t *pick)
{
    char list[1024];
    describe(c, n, list, sizeof list);
    if (!n) {
        adb_seterr(p->err, p->errlen, "no USB device with an ADB interface: connect "
                   "the device and enable USB debugging in its developer options");
        return ST_ENODEVICE;
    }
    if (serial) {
        for (size_t i = 0; i < n; i++)
            if (!strcmp(c[i].serial, serial) || !strcmp(c[i].devpath, serial)) {
                *pick = i;
                return ST_OK;
            }
        adb_seterr(p->err, p->errlen, "no USB device '%s'; connected: %s", serial, list);
        return ST_ENOENT;
    }
    if (n > 1) {
        adb_seterr(p->err, p->errlen, "more than one USB device: %s; choose one with "
                   "-e SERIAL", list);
        return ST_EMULTIDEV;
    }
    *pick = 0;
    return ST_OK;
}

static enum st_err claim(const struct adb_direct_params *p, struct usb_ptrans *u,
                         const struct adb_usb_devdesc *d, const struct cand *c)
{
    int rc = usb_ops->open(u->ctx, d, &u->h);
    if (rc == ADB_USB_EACCESS)
        return no_access(p, d, c->devpath);
    if (rc) {
        u->h = NULL;
        adb_seterr(p->err, p->errlen, "cannot open the USB device %s (error %d)",
                   c->devpath, rc);
        return ST_EIO;
    }
    rc = usb_ops->claim(u->h, c->iface);
    if (rc == ADB_USB_EBUSY || rc == ADB_USB_EACCESS) {
        usb_ops->close(u->h);
        u->h = NULL;
        adb_seterr(p->err, p->errlen, "the ADB interface of %s (%s) is held by another "
                   "program, normally a running adb server: use it with "
                   "--transport server (or auto), or stop it with `adb kill-server` "
                   "and try again", c->serial[0] ? c->serial : "the device", c->devpath);
        return ST_EDEVICE;
    }
    if (rc) {
        usb_ops->close(u->h);
        u->h = NULL;
        adb_seterr(p->err, p->errlen, "cannot claim the ADB interface of %s "
                   "(error %d)", c->devpath, rc);
        return ST_EIO;
    }
    usb_ops->clear_halt(u->h, c->in);
    usb_ops->clear_halt(u->h, c->out);
    return ST_OK;
}

enum st_err adb_usb_open(const struct adb_direct_params *p, const char *serial,
                         struct adb_device **out)
{
    *out = NULL;
    struct usb_ptrans *u = calloc(1, sizeof *u);
    if (!u)
        return ST_ENOMEM;
    u->base.ops = &usb_ptrans_ops;
    u->base.io = p->io;
    u->ctx = usb_ops->init();
    if (!u->ctx) {
        free(u);
        adb_seterr(p->err, p->errlen, "%s", adb_usb_unavailable);
        return ST_EUNSUPPORTED;
    }
    struct adb_usb_devdesc *v = NULL;
    size_t nv = 0;
    struct cand c[16];
    enum st_err e = ST_EIO;
    if (usb_ops->list(u->ctx, &v, &nv)) {
        adb_seterr(p->err, p->errlen, "cannot list USB devices");
        goto fail;
    }
    size_t n = scan(u->ctx, v, nv, c, sizeof c / sizeof c[0]), pick = 0;
    if ((e = choose(p, serial, c, n, &pick)))
        goto fail;
    if (c[pick].rc == ADB_USB_EACCESS) {
        e = no_access(p, &v[c[pick].dev], c[pick].devpath);
        goto fail;
    }
    u->iface = c[pick].iface;
    u->in = c[pick].in;
    u->out = c[pick].out;
    u->max_packet = c[pick].max_packet;
    if ((e = claim(p, u, &v[c[pick].dev], &c[pick])))
        goto fail;
    char name[256], devpath[64];
    snprintf(name, sizeof name, "%s", c[pick].serial[0] ? c[pick].serial
                                                        : c[pick].devpath);
    snprintf(devpath, sizeof devpath, "%s", c[pick].devpath);
    usb_ops->list_free(u->ctx, v, nv);
    v = NULL;
    struct adb_wire_auth auth = {.wait_ms = p->wait_ms, .notify = p->notify,
                                 .ctx = p->ctx};
    struct adb_wire *w;
    e = adb_wire_connect(&u->base, &auth, &w, p->err, p->errlen);
    if (e)
        return e;
    return adb_wire_device_new(w, &p->io, name, devpath, out);
fail:
    if (v)
        usb_ops->list_free(u->ctx, v, nv);
    up_close(&u->base);
    return e;
}
