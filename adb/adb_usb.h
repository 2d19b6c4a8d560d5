/*
 * USB transport internals: a tiny table of USB operations (libusb in
 * adb_usb_libusb.c, the only file that includes libusb; a fake in unit
 * tests), the descriptors the transport needs, and the pure helpers that
 * pick the ADB interface.  reference/adb-protocol.md section (e).
 */
#ifndef SYSTRACE_ADB_USB_H
#define SYSTRACE_ADB_USB_H

#include <stddef.h>
#include <stdint.h>

enum adb_usb_rc {
    ADB_USB_OK = 0,
    ADB_USB_ETIMEOUT,       /* *done may be > 0 */
    ADB_USB_ESTALL,         /* endpoint halted (LIBUSB_ERROR_PIPE) */
    ADB_USB_EBUSY,          /* interface claimed by another process */
    ADB_USB_EACCESS,        /* no permission (udev rules) */
    ADB_USB_ENODEV,         /* unplugged */
    ADB_USB_EOVERFLOW,      /* the device sent more than asked */
    ADB_USB_EIO,
};

#define ADB_USB_MAX_IFACES 16
#define ADB_USB_MAX_EPS 8

struct adb_usb_ep {
    uint8_t addr;           /* bit 7: IN */
    uint8_t attrs;          /* low 2 bits: 2 = bulk */
    uint16_t max_packet;
};

struct adb_usb_iface {
    uint8_t number, cls, subcls, proto;
    size_t nep;
    struct adb_usb_ep ep[ADB_USB_MAX_EPS];
};

struct adb_usb_devdesc {
    void *dev;              /* the ops' own device reference */
    uint8_t bus;
    uint8_t ports[8];
    size_t nports;
    uint16_t vid, pid;
    uint8_t iserial;        /* string index, 0: none */
    size_t niface;
    struct adb_usb_iface iface[ADB_USB_MAX_IFACES];
};

struct adb_usb_ops {
    void *(*init)(void);                                /* NULL: failed */
    void (*exit)(void *ctx);
    int (*list)(void *ctx, struct adb_usb_devdesc **v, size_t *n);
    void (*list_free)(void *ctx, struct adb_usb_devdesc *v, size_t n);
    int (*open)(void *ctx, const struct adb_usb_devdesc *d, void **h);
    int (*string)(void *h, uint8_t index, char *buf, size_t n);
    int (*claim)(void *h, int iface);
    void (*release)(void *h, int iface);
    int (*clear_halt)(void *h, uint8_t ep);
    /* One bulk transfer of up to len bytes; *done is what moved. */
    int (*bulk)(void *h, uint8_t ep, uint8_t *buf, size_t len, size_t *done,
                unsigned timeout_ms);
    void (*close)(void *h);
};

/* The system's: libusb (adb_usb_libusb.c); none on Windows, where adb's own
 * driver owns the device (adb_usb_none.c: init fails, with
 * adb_usb_unavailable saying so). */
extern const struct adb_usb_ops adb_usb_system_ops;
extern const char adb_usb_unavailable[];
/* Tests replace the operations (NULL: back to the system's). */
void adb_usb_set_ops(const struct adb_usb_ops *ops);

/* The ADB interface of a device: class 0xff/0x42/0x01 (or the USB debug
 * class 0xdc/0x02/0x01) with one bulk IN and one bulk OUT endpoint.
 * Returns its index, -1 when there is none. */
int adb_usb_find_iface(const struct adb_usb_devdesc *d, uint8_t *in, uint8_t *out,
                       uint16_t *max_packet);
/* "usb:BUS-P.P.P", like adb devices -l. */
void adb_usb_devpath(const struct adb_usb_devdesc *d, char *out, size_t n);
/* Whether a payload of n bytes needs a zero-length packet after it. */
int adb_usb_needs_zlp(size_t n, uint16_t max_packet);

#endif
