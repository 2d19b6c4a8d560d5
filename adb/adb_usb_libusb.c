/*
 * The real USB operations of adb_usb.h, on libusb-1.0: the only file
 * that includes libusb.  Thin: descriptors are copied into the
 * transport's own structs, libusb error codes mapped to enum adb_usb_rc.
 * Kernel drivers are not detached (adbd's interface has none on Linux).
 */
#include "adb_usb.h"

#include <stdlib.h>
#include <string.h>

#include <libusb.h>

static int map_rc(int rc)
{
    switch (rc) {
    case LIBUSB_SUCCESS: return ADB_USB_OK;
    case LIBUSB_ERROR_TIMEOUT: return ADB_USB_ETIMEOUT;
    case LIBUSB_ERROR_PIPE: return ADB_USB_ESTALL;
    case LIBUSB_ERROR_BUSY: return ADB_USB_EBUSY;
    case LIBUSB_ERROR_ACCESS: return ADB_USB_EACCESS;
    case LIBUSB_ERROR_NO_DEVICE: return ADB_USB_ENODEV;
    case LIBUSB_ERROR_OVERFLOW: return ADB_USB_EOVERFLOW;
    default: return ADB_USB_EIO;
    }
}

static void *lu_init(void)
{
    libusb_context *ctx = NULL;
    return libusb_init(&ctx) ? NULL : ctx;
}

static void lu_exit(void *ctx)
{
    libusb_exit(ctx);
}

static void copy_config(libusb_device *dev, struct adb_usb_devdesc *d)
{
    struct libusb_config_descriptor *cfg;
    if (libusb_get_active_config_descriptor(dev, &cfg))
        return;
    for (int i = 0; i < cfg->bNumInterfaces && d->niface < ADB_USB_MAX_IFACES; i++) {
        const struct libusb_interface *itf = &cfg->interface[i];
        for (int a = 0; a < itf->num_altsetting && d->niface < ADB_USB_MAX_IFACES; a++) {
            const struct libusb_interface_descriptor *id = &itf->altsetting[a];
            struct adb_usb_iface *f = &d->iface[d->niface++];
            f->number = id->bInterfaceNumber;
            f->cls = id->bInterfaceClass;
            f->subcls = id->bInterfaceSubClass;
            f->proto = id->bInterfaceProtocol;
            for (int e = 0; e < id->bNumEndpoints && f->nep < ADB_USB_MAX_EPS; e++) {
                const struct libusb_endpoint_descriptor *ed = &id->endpoint[e];
                f->ep[f->nep].addr = ed->bEndpointAddress;
                f->ep[f->nep].attrs = ed->bmAttributes;
                f->ep[f->nep].max_packet = ed->wMaxPacketSize;
                f->nep++;
            }
        }
    }
    libusb_free_config_descriptor(cfg);
}

static int lu_list(void *ctx, struct adb_usb_devdesc **v, size_t *n)
{
    libusb_device **devs;
    ssize_t cnt = libusb_get_device_list(ctx, &devs);
    *v = NULL;
    *n = 0;
    if (cnt < 0)
        return map_rc((int)cnt);
    struct adb_usb_devdesc *out = calloc((size_t)cnt + 1, sizeof *out);
    if (!out) {
        libusb_free_device_list(devs, 1);
        return ADB_USB_EIO;
    }
    for (ssize_t i = 0; i < cnt; i++) {
        struct adb_usb_devdesc *d = &out[*n];
        struct libusb_device_descriptor dd;
        if (libusb_get_device_descriptor(devs[i], &dd))
            continue;
        d->dev = libusb_ref_device(devs[i]);
        d->bus = libusb_get_bus_number(devs[i]);
        int np = libusb_get_port_numbers(devs[i], d->ports, (int)sizeof d->ports);
        d->nports = np > 0 ? (size_t)np : 0;
        d->vid = dd.idVendor;
        d->pid = dd.idProduct;
        d->iserial = dd.iSerialNumber;
        copy_config(devs[i], d);
        (*n)++;
    }
    libusb_free_device_list(devs, 1);
    *v = out;
    return ADB_USB_OK;
}

static void lu_list_free(void *ctx, struct adb_usb_devdesc *v, size_t n)
{
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        libusb_unref_device(v[i].dev);
    free(v);
}

static int lu_open(void *ctx, const struct adb_usb_devdesc *d, void **h)
{
    (void)ctx;
    libusb_device_handle *dh = NULL;
    int rc = libusb_open(d->dev, &dh);
    *h = rc ? NULL : dh;
    return map_rc(rc);
}

static int lu_string(void *h, uint8_t index, char *buf, size_t n)
{
    int rc = libusb_get_string_descriptor_ascii(h, index, (unsigned char *)buf,
                                                (int)(n > 255 ? 255 : n));
    if (rc < 0) {
        buf[0] = '\0';
        return map_rc(rc);
    }
    buf[rc < (int)n ? rc : (int)n - 1] = '\0';
    return ADB_USB_OK;
}

static int lu_claim(void *h, int iface)
{
    return map_rc(libusb_claim_interface(h, iface));
}

static void lu_release(void *h, int iface)
{
    libusb_release_interface(h, iface);
}

static int lu_clear_halt(void *h, uint8_t ep)
{
    return map_rc(libusb_clear_halt(h, ep));
}

static int lu_bulk(void *h, uint8_t ep, uint8_t *buf, size_t len, size_t *done,
                   unsigned timeout_ms)
{
    int moved = 0;
    int rc = libusb_bulk_transfer(h, ep, buf, (int)len, &moved, timeout_ms);
    *done = moved > 0 ? (size_t)moved : 0;
    return map_rc(rc);
}

static void lu_close(void *h)
{
    libusb_close(h);
}

const char adb_usb_unavailable[] = "USB is not available (libusb could not start)";

const struct adb_usb_ops adb_usb_system_ops = {
    lu_init, lu_exit, lu_list, lu_list_free, lu_open, lu_string,
    lu_claim, lu_release, lu_clear_halt, lu_bulk, lu_close,
};
