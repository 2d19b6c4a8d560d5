/*
 * USB transport through a fake libusb layer (adb_usb_set_ops): interface
 * matching, serial selection, ZLPs after payloads that fill whole
 * packets, short IN transfers, a stalled endpoint, BUSY (adb server holds
 * the device) and ACCESS (udev) errors, and a small adbd behind the bulk
 * endpoints that answers CNXN, OPEN, WRTE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "adb/adb_usb.h"
#include "adb/adb_wire.h"

#define MAXQ 64

static struct fake {
    size_t ndev;
    struct adb_usb_devdesc devs[2];
    int open_rc, claim_rc;
    int stall_in;               /* stall the next N IN transfers */
    int clear_halts;
    size_t in_chunk;            /* max bytes per IN transfer */
    uint8_t inq[1 << 16];
    size_t inlen, inpos;
    size_t in_marks[MAXQ];      /* transfer boundaries the device sends */
    size_t nmarks, mark;
    /* OUT parsing */
    uint8_t hdr[24];
    int have_hdr;
    struct adb_hdr h;
    uint8_t pay[8192];
    size_t phave;
    int want_zlp;
    int zlps, missing_zlp;
    size_t last_wrte;
    uint32_t host_id;
} F;

static void queue(const void *p, size_t n)
{
    memcpy(F.inq + F.inlen, p, n);
    F.inlen += n;
    F.in_marks[F.nmarks++] = F.inlen;
}

static void dev_send(uint32_t cmd, uint32_t a0, uint32_t a1, const void *p, size_t n)
{
    struct adb_hdr h;
    uint8_t hb[24];
    adb_hdr_make(&h, cmd, a0, a1, p, n, 1);
    adb_hdr_encode(&h, hb);
    queue(hb, 24);
    if (n)
        queue(p, n);
}

static void on_host_packet(void)
{
    static const char banner[] = "device::ro.product.model=FakeUSB;features=shell_v2,cmd";
    switch (F.h.command) {
    case ADB_CMD_CNXN:
        dev_send(ADB_CMD_CNXN, ADB_VERSION_SKIP_CHECKSUM, ADB_MAXDATA, banner,
                 strlen(banner));
        break;
    case ADB_CMD_OPEN:
        F.host_id = F.h.arg0;
        dev_send(ADB_CMD_OKAY, 7, F.host_id, NULL, 0);
        if (!strncmp((char *)F.pay, "exec:", 5)) {
            dev_send(ADB_CMD_WRTE, 7, F.host_id, "hello world", 11);
            dev_send(ADB_CMD_CLSE, 7, F.host_id, NULL, 0);
        }
        break;
    case ADB_CMD_WRTE:
        F.last_wrte = F.h.data_length;
        dev_send(ADB_CMD_OKAY, 7, F.host_id, NULL, 0);
        break;
    default:
        break;
    }
}

static void *f_init(void) { return &F; }
static void f_exit(void *ctx) { (void)ctx; }

static int f_list(void *ctx, struct adb_usb_devdesc **v, size_t *n)
{
    (void)ctx;
    *v = F.devs;
    *n = F.ndev;
    return 0;
}

static void f_list_free(void *ctx, struct adb_usb_devdesc *v, size_t n)
{
    (void)ctx;
    (void)v;
    (void)n;
}

static int f_open(void *ctx, const struct adb_usb_devdesc *d, void **h)
{
    (void)ctx;
    *h = d->dev;
    return F.open_rc;
}

static int f_string(void *h, uint8_t index, char *buf, size_t n)
{
    (void)index;
    snprintf(buf, n, "%s", (const char *)h);
    return 0;
}

static int f_claim(void *h, int iface)
{
    (void)h;
    assert_int_equal(iface, 1);     /* the ADB interface's number */
    return F.claim_rc;
}

static void f_release(void *h, int iface) { (void)h; (void)iface; }

static int f_clear_halt(void *h, uint8_t ep)
{
    (void)h;
    (void)ep;
    F.clear_halts++;
    return 0;
}

static void host_out(const uint8_t *p, size_t len)
{
    if (F.want_zlp) {
        F.want_zlp = 0;
        if (!len) {
            F.zlps++;
            return;
        }
        F.missing_zlp++;
    }
    if (!F.have_hdr) {
        assert_int_equal(len, 24);  /* the header is a transfer of its own */
        assert_int_equal(adb_hdr_decode(p, ADB_MAXDATA, &F.h), ST_OK);
        F.have_hdr = 1;
        F.phave = 0;
    } else {
        memcpy(F.pay + F.phave, p, len);
        F.phave += len;
    }
    if (F.phave == F.h.data_length) {
        F.pay[F.phave] = 0;
        F.have_hdr = 0;
        F.want_zlp = adb_usb_needs_zlp(F.phave, 512);
        on_host_packet();
    }
}

static int f_bulk(void *h, uint8_t ep, uint8_t *buf, size_t len, size_t *done,
                  unsigned timeout_ms)
{
    (void)h;
    (void)timeout_ms;
    *done = 0;
    if (!(ep & 0x80)) {
        host_out(buf, len);
        *done = len;
        return 0;
    }
    if (F.stall_in) {
        F.stall_in--;
        return ADB_USB_ESTALL;
    }
    if (F.inpos == F.inlen)
        return ADB_USB_ETIMEOUT;
    size_t end = F.in_marks[F.mark];
    size_t k = end - F.inpos;
    if (k > len) {
        return ADB_USB_EOVERFLOW;
    }
    if (k > F.in_chunk)
        k = F.in_chunk;     /* a short transfer */
    memcpy(buf, F.inq + F.inpos, k);
    F.inpos += k;
    if (F.inpos == end)
        F.mark++;
    *done = k;
    return 0;
}

static void f_close(void *h) { (void)h; }

static const struct adb_usb_ops fake_ops = {
    f_init, f_exit, f_list, f_list_free, f_open, f_string,
    f_claim, f_release, f_clear_halt, f_bulk, f_close,
};

static void add_dev(const char *serial, uint8_t port)
{
    struct adb_usb_devdesc *d = &F.devs[F.ndev++];
    memset(d, 0, sizeof *d);
    d->dev = (void *)serial;
    d->bus = 1;
    d->ports[0] = port;
    d->nports = 1;
    d->vid = 0x18d1;
    d->pid = 0x4ee7;
    d->iserial = 3;
    d->niface = 2;
    /* fastboot-like interface first: must be skipped */
    d->iface[0] = (struct adb_usb_iface){0, 0xff, 0x42, 0x03, 2,
                                         {{0x81, 2, 512}, {0x01, 2, 512}}};
    d->iface[1] = (struct adb_usb_iface){1, 0xff, 0x42, 0x01, 2,
                                         {{0x82, 2, 512}, {0x02, 2, 512}}};
}

static int setup(void **state)
{
    (void)state;
    memset(&F, 0, sizeof F);
    F.in_chunk = 1 << 20;
    add_dev("FAKE123", 4);
    adb_usb_set_ops(&fake_ops);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    adb_usb_set_ops(NULL);
    return 0;
}

static enum st_err open_dev(const char *serial, struct adb_device **d,
                            struct adb_client **c)
{
    *c = adb_client_new();
    adb_client_set_timeout(*c, 2000);
    return adb_device_open_direct(*c, serial, d);
}

static void test_find_iface(void **state)
{
    (void)state;
    uint8_t in = 0, out = 0;
    uint16_t mp = 0;
    assert_int_equal(adb_usb_find_iface(&F.devs[0], &in, &out, &mp), 1);
    assert_int_equal(in, 0x82);
    assert_int_equal(out, 0x02);
    assert_int_equal(mp, 512);
    F.devs[0].iface[1].ep[0].attrs = 3;     /* interrupt, not bulk */
    assert_int_equal(adb_usb_find_iface(&F.devs[0], &in, &out, &mp), -1);
    char path[64];
    F.devs[0].ports[1] = 2;
    F.devs[0].nports = 2;
    adb_usb_devpath(&F.devs[0], path, sizeof path);
    assert_string_equal(path, "usb:1-4.2");
    assert_true(adb_usb_needs_zlp(512, 512));
    assert_true(adb_usb_needs_zlp(1024, 512));
    assert_false(adb_usb_needs_zlp(511, 512));
    assert_false(adb_usb_needs_zlp(0, 512));
}

static void test_exec_short_packets_stall(void **state)
{
    (void)state;
    F.in_chunk = 5;
    F.stall_in = 1;
    struct adb_client *c;
    struct adb_device *d;
    assert_int_equal(open_dev("FAKE123", &d, &c), ST_OK);
    assert_true(F.clear_halts >= 3);    /* both at open, then the stall */
    assert_string_equal(adb_device_info(d)->serial, "FAKE123");
    assert_string_equal(adb_device_info(d)->devpath, "usb:1-4");
    assert_string_equal(adb_device_info(d)->model, "FakeUSB");
    assert_true(adb_device_has_feature(d, "shell_v2"));
    const char *argv[] = {"x", NULL};
    struct adb_result r;
    assert_int_equal(adb_run(d, ADB_EXEC, argv, 1000, &r), ST_OK);
    assert_string_equal(r.out, "hello world");
    adb_result_free(&r);
    adb_device_free(d);
    adb_client_free(c);
}

static void test_zlp(void **state)
{
    (void)state;
    struct adb_client *c;
    struct adb_device *d;
    assert_int_equal(open_dev(NULL, &d, &c), ST_OK);
    struct adb_stream *s;
    assert_int_equal(adb_stream_open(d, "shell:cat", &s), ST_OK);
    uint8_t buf[1024];
    memset(buf, 'a', sizeof buf);
    assert_int_equal(adb_stream_write(s, buf, 100), ST_OK);
    assert_int_equal(F.zlps, 0);
    assert_int_equal(adb_stream_write(s, buf, 512), ST_OK);
    assert_int_equal(adb_stream_write(s, buf, 1024), ST_OK);
    assert_int_equal(adb_stream_write(s, buf, 10), ST_OK);
    assert_int_equal(F.last_wrte, 10);
    assert_int_equal(F.zlps, 2);
    assert_int_equal(F.missing_zlp, 0);
    adb_stream_free(s);
    adb_device_free(d);
    adb_client_free(c);
}

static void test_busy_access(void **state)
{
    (void)state;
    struct adb_client *c;
    struct adb_device *d;
    F.claim_rc = ADB_USB_EBUSY;
    assert_int_equal(open_dev(NULL, &d, &c), ST_EDEVICE);
    assert_non_null(strstr(adb_client_error(c), "adb kill-server"));
    assert_non_null(strstr(adb_client_error(c), "--transport server"));
    adb_client_free(c);
    F.claim_rc = 0;
    F.open_rc = ADB_USB_EACCESS;
    assert_int_equal(open_dev(NULL, &d, &c), ST_EPERM);
    assert_non_null(strstr(adb_client_error(c), "udev"));
    assert_non_null(strstr(adb_client_error(c), "usb:1-4"));
    adb_client_free(c);
}

static void test_selection(void **state)
{
    (void)state;
    struct adb_client *c;
    struct adb_device *d;
    assert_int_equal(open_dev("OTHER", &d, &c), ST_ENOENT);
    assert_non_null(strstr(adb_client_error(c), "FAKE123"));
    adb_client_free(c);
    add_dev("SECOND", 5);
    assert_int_equal(open_dev(NULL, &d, &c), ST_EMULTIDEV);
    adb_client_free(c);
    assert_int_equal(open_dev("usb:1-4", &d, &c), ST_OK);   /* by devpath */
    assert_string_equal(adb_device_info(d)->serial, "FAKE123");
    adb_device_free(d);
    adb_client_free(c);
    F.ndev = 0;
    assert_int_equal(open_dev(NULL, &d, &c), ST_ENODEVICE);
    adb_client_free(c);
}

static void test_unplugged(void **state)
{
    (void)state;
    struct adb_client *c;
    struct adb_device *d;
    assert_int_equal(open_dev(NULL, &d, &c), ST_OK);
    F.stall_in = 100;       /* endpoint keeps stalling */
    struct adb_stream *s;
    assert_int_not_equal(adb_stream_open(d, "exec:x", &s), ST_OK);
    assert_non_null(strstr(adb_device_error(d), "stall"));
    adb_device_free(d);
    adb_client_free(c);
}

int main(void)
{
    unsetenv("ANDROID_SERIAL");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_find_iface, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exec_short_packets_stall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zlp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_busy_access, setup, teardown),
        cmocka_unit_test_setup_teardown(test_selection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unplugged, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
