/*
 * host:devices-l parsing (real line shapes from adb 29 and newer: padded
 * serials, usb: paths, "no permissions (...)" states with spaces,
 * unauthorized/offline without product fields, "(no serial number)")
 * and the device selection matrix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adb/adb_int.h"

static const char sample[] =
    "emulator-5554          device product:sdk_gphone_x86 model:Android_SDK_built_for_x86 "
    "device:generic_x86 transport_id:1\n"
    "0123456789ABCDEF       unauthorized usb:1-1 transport_id:2\n"
    "ZX1G22KHQ8             no permissions (user in plugdev group; are your udev rules "
    "wrong?); see [http://developer.android.com/tools/device.html] usb:1-1.2 "
    "transport_id:3\n"
    "192.168.1.5:5555       offline transport_id:4\n"
    "a_very_long_serial_number_over_22 recovery usb:2-3 product:x model:y device:z "
    "transport_id:12345678901\n"
    "(no serial number)     device usb:3-1 transport_id:6\n"
    "HT7A1B2C3D             device usb:1-4 product:walleye model:Pixel_2 "
    "device:walleye transport_id:7\r\n"
    "\n";

static struct adb_device_list *parse(const char *s)
{
    struct adb_device_list *l = NULL;
    assert_int_equal(adb_devices_parse(s, strlen(s), &l), ST_OK);
    assert_non_null(l);
    return l;
}

static void test_parse_sample(void **state)
{
    (void)state;
    struct adb_device_list *l = parse(sample);
    assert_int_equal(l->n, 7);
    const struct adb_device_info *d = l->v;
    assert_string_equal(d[0].serial, "emulator-5554");
    assert_string_equal(d[0].state, "device");
    assert_int_equal(d[0].st, ADB_STATE_DEVICE);
    assert_string_equal(d[0].product, "sdk_gphone_x86");
    assert_string_equal(d[0].model, "Android_SDK_built_for_x86");
    assert_string_equal(d[0].device, "generic_x86");
    assert_string_equal(d[0].devpath, "");
    assert_int_equal(d[0].transport_id, 1);

    assert_string_equal(d[1].serial, "0123456789ABCDEF");
    assert_int_equal(d[1].st, ADB_STATE_UNAUTHORIZED);
    assert_string_equal(d[1].devpath, "usb:1-1");
    assert_string_equal(d[1].model, "");
    assert_int_equal(d[1].transport_id, 2);

    assert_string_equal(d[2].serial, "ZX1G22KHQ8");
    assert_int_equal(d[2].st, ADB_STATE_NOPERM);
    assert_string_equal(d[2].state, "no permissions (user in plugdev group; are your "
                        "udev rules wrong?); see "
                        "[http://developer.android.com/tools/device.html]");
    assert_string_equal(d[2].devpath, "usb:1-1.2");

    assert_string_equal(d[3].serial, "192.168.1.5:5555");
    assert_int_equal(d[3].st, ADB_STATE_OFFLINE);
    assert_int_equal(d[3].transport_id, 4);

    assert_string_equal(d[4].serial, "a_very_long_serial_number_over_22");
    assert_string_equal(d[4].state, "recovery");
    assert_int_equal(d[4].st, ADB_STATE_OTHER);
    assert_true(d[4].transport_id == 12345678901ull);

    assert_string_equal(d[5].serial, "(no serial number)");
    assert_string_equal(d[5].state, "device");

    assert_string_equal(d[6].serial, "HT7A1B2C3D");
    assert_string_equal(d[6].device, "walleye");    /* \r\n tolerated */
    assert_string_equal(d[6].model, "Pixel_2");
    adb_device_list_free(l);
}

static void test_parse_short_and_empty(void **state)
{
    (void)state;
    struct adb_device_list *l = parse("");
    assert_int_equal(l->n, 0);
    adb_device_list_free(l);
    l = parse("emulator-5554\tdevice\n127.0.0.1:15555\tunauthorized\n");
    assert_int_equal(l->n, 2);
    assert_string_equal(l->v[1].serial, "127.0.0.1:15555");
    assert_int_equal(l->v[1].st, ADB_STATE_UNAUTHORIZED);
    assert_string_equal(l->v[1].product, "");
    adb_device_list_free(l);
    /* no trailing newline */
    l = parse("abc device transport_id:9");
    assert_int_equal(l->n, 1);
    assert_int_equal(l->v[0].transport_id, 9);
    adb_device_list_free(l);
    adb_device_list_free(NULL);
}

static void test_parse_bad(void **state)
{
    (void)state;
    const char *bad[] = {
        "serialonly\n",
        "abc transport_id:1\n",         /* no state left after the fields */
        "abc device transport_id:x1\n",
        "abc device transport_id:123456789012345678901\n",
        "\tdevice\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct adb_device_list *l = (void *)1;
        assert_int_equal(adb_devices_parse(bad[i], strlen(bad[i]), &l), ST_EFORMAT);
        assert_null(l);
    }
    struct adb_device_list *l;
    assert_int_equal(adb_devices_parse("a device\0x\n", 11, &l), ST_EFORMAT);
}

/* ---- selection --------------------------------------------------------- */

static enum st_err pick(const char *list, const char *serial, const char *env,
                        const char **chosen, char *err)
{
    struct adb_device_list *l = parse(list);
    size_t i = 99;
    enum st_err e = adb_select(l, serial, env, &i, err, ADB_ERRLEN);
    static char name[64];
    name[0] = '\0';
    if (i < l->n)
        snprintf(name, sizeof name, "%s", l->v[i].serial);
    *chosen = name;
    adb_device_list_free(l);
    return e;
}

static void test_select(void **state)
{
    (void)state;
#define two "AAA device transport_id:1\nBBB device transport_id:2\n"
#define mixed "AAA device\nUUU unauthorized\nOOO offline\n"                        \
              "PPP no permissions (missing udev rules?); see [x] usb:1-1\n"     \
              "RRR bootloader\n"
    static const struct {
        const char *list, *serial, *env;
        enum st_err want;
        const char *chosen;     /* or a fragment of the detail message */
    } cases[] = {
        {"", NULL, NULL, ST_ENODEVICE, "no devices"},
        {"AAA device\n", NULL, NULL, ST_OK, "AAA"},
        {two, NULL, NULL, ST_EMULTIDEV, "AAA, BBB"},
        {two, "BBB", NULL, ST_OK, "BBB"},
        {two, NULL, "BBB", ST_OK, "BBB"},
        {two, "AAA", "BBB", ST_OK, "AAA"},          /* explicit beats env */
        {two, "", "BBB", ST_OK, "BBB"},
        {two, NULL, "", ST_EMULTIDEV, "more than one"},
        {two, "CCC", NULL, ST_ENOENT, "connected: AAA (device), BBB (device)"},
        {two, NULL, "CCC", ST_ENOENT, "ANDROID_SERIAL"},
        {"", "CCC", NULL, ST_ENOENT, "no devices are connected"},
        {mixed, NULL, NULL, ST_OK, "AAA"},          /* the one ready device */
        {mixed, "UUU", NULL, ST_EUNAUTH, "accept"},
        {mixed, "OOO", NULL, ST_EOFFLINE, "offline"},
        {mixed, "PPP", NULL, ST_EPERM, "udev"},
        {mixed, "usb:1-1", NULL, ST_EPERM, "PPP"},  /* devpath works as serial */
        {mixed, "RRR", NULL, ST_EDEVICE, "bootloader"},
        {"UUU unauthorized\n", NULL, NULL, ST_EUNAUTH, "Allow USB debugging"},
        {"OOO offline\n", NULL, NULL, ST_EOFFLINE, "OOO"},
        {"UUU unauthorized\nOOO offline\n", NULL, NULL, ST_ENODEVICE,
         "UUU (unauthorized), OOO (offline)"},
        {"X host\n", NULL, NULL, ST_EDEVICE, "host"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[ADB_ERRLEN] = "";
        const char *chosen;
        enum st_err e = pick(cases[i].list, cases[i].serial, cases[i].env, &chosen, err);
        if (e != cases[i].want)
            fail_msg("case %zu: %s, want %s (%s)", i, st_errname(e),
                     st_errname(cases[i].want), err);
        if (e == ST_OK)
            assert_string_equal(chosen, cases[i].chosen);
        else if (!strstr(err, cases[i].chosen))
            fail_msg("case %zu: detail '%s' lacks '%s'", i, err, cases[i].chosen);
    }
#undef two
#undef mixed
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_sample),
        cmocka_unit_test(test_parse_short_and_empty),
        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_select),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
