/* Unit tests for adb/packet.c: header codec, checksum, split, banner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "adb/packet.h"

/* The CNXN the Debian 29.0.6 server sends (reference notes, observed). */
static const char host_banner[] =
    "host::features=remount_shell,abb_exec,abb,apex,fixed_push_mkdir,ls_v2,"
    "stat_v2,fixed_push_symlink_timestamp,cmd,shell_v2";

static void test_command_values(void **state)
{
    (void)state;
    static const struct { uint32_t cmd; const char *name; } t[] = {
        {ADB_CMD_CNXN, "CNXN"}, {ADB_CMD_AUTH, "AUTH"}, {ADB_CMD_OPEN, "OPEN"},
        {ADB_CMD_OKAY, "OKAY"}, {ADB_CMD_CLSE, "CLSE"}, {ADB_CMD_WRTE, "WRTE"},
        {ADB_CMD_STLS, "STLS"}, {ADB_CMD_SYNC, "SYNC"},
    };
    char buf[5];
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        uint32_t v = (uint32_t)(unsigned char)t[i].name[0] |
                     (uint32_t)(unsigned char)t[i].name[1] << 8 |
                     (uint32_t)(unsigned char)t[i].name[2] << 16 |
                     (uint32_t)(unsigned char)t[i].name[3] << 24;
        assert_int_equal(v, t[i].cmd);
        assert_string_equal(adb_cmd_name(t[i].cmd, buf), t[i].name);
        assert_int_equal(adb_cmd_known(t[i].cmd), t[i].cmd != ADB_CMD_SYNC);
    }
    assert_string_equal(adb_cmd_name(0x00010203u, buf), "????");
    assert_false(adb_cmd_known(0x12345678u));
}

static void test_checksum(void **state)
{
    (void)state;
    static const struct { const char *data; size_t len; uint32_t sum; } t[] = {
        {"", 0, 0},
        {"\x01", 1, 1},
        {"\xff\xff", 2, 0x1fe},
        {"abc", 3, 0x61 + 0x62 + 0x63},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        assert_int_equal(adb_checksum(t[i].data, t[i].len), t[i].sum);
    /* Observed: the 29.0.6 server's CNXN banner sums to 0x2e40. */
    assert_int_equal(adb_checksum(host_banner, strlen(host_banner)), 0x2e40);
}

static void test_encode_exact_bytes(void **state)
{
    (void)state;
    struct adb_hdr h;
    unsigned char out[ADB_HDR_LEN];
    adb_hdr_make(&h, ADB_CMD_OKAY, 1, 0x0c, NULL, 0, 1);
    adb_hdr_encode(&h, out);
    static const unsigned char want[ADB_HDR_LEN] = {
        'O', 'K', 'A', 'Y', 1, 0, 0, 0, 0x0c, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0xb0, 0xb4, 0xbe, 0xa6,
    };
    assert_memory_equal(out, want, ADB_HDR_LEN);
}

static void test_roundtrip_and_checksum_flag(void **state)
{
    (void)state;
    static const struct {
        uint32_t cmd, a0, a1;
        const char *data;
        int checksum;
    } t[] = {
        {ADB_CMD_CNXN, ADB_VERSION_SKIP_CHECKSUM, ADB_MAXDATA, "device::", 1},
        {ADB_CMD_WRTE, 7, 0x12, "hello", 0},
        {ADB_CMD_WRTE, 7, 0x12, "hello", 1},
        {ADB_CMD_CLSE, 0, 0xffffffffu, "", 1},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        struct adb_hdr h, d;
        unsigned char buf[ADB_HDR_LEN];
        size_t n = strlen(t[i].data);
        adb_hdr_make(&h, t[i].cmd, t[i].a0, t[i].a1, t[i].data, n,
                     t[i].checksum);
        adb_hdr_encode(&h, buf);
        assert_int_equal(adb_hdr_decode(buf, ADB_MAXDATA, &d), ST_OK);
        assert_memory_equal(&h, &d, sizeof(h));
        assert_int_equal(d.data_length, n);
        assert_int_equal(d.magic, t[i].cmd ^ 0xffffffffu);
        assert_int_equal(d.data_check,
                         t[i].checksum ? adb_checksum(t[i].data, n) : 0);
        if (t[i].checksum)
            assert_int_equal(adb_payload_verify(&d, t[i].data), ST_OK);
    }
}

static void test_decode_rejects(void **state)
{
    (void)state;
    struct adb_hdr h, d;
    unsigned char buf[ADB_HDR_LEN];

    adb_hdr_make(&h, ADB_CMD_WRTE, 1, 2, NULL, 4097, 0);
    adb_hdr_encode(&h, buf);
    assert_int_equal(adb_hdr_decode(buf, ADB_MAXDATA_V1, &d), ST_ETOOBIG);
    assert_int_equal(adb_hdr_decode(buf, 4097, &d), ST_OK);

    adb_hdr_make(&h, ADB_CMD_WRTE, 1, 2, NULL, 0, 0);
    adb_hdr_encode(&h, buf);
    buf[20] ^= 1; /* magic */
    assert_int_equal(adb_hdr_decode(buf, ADB_MAXDATA, &d), ST_EPROTO);

    /* Unknown commands decode (adb ignores them) when magic is right. */
    adb_hdr_make(&h, 0x41424344u, 0, 0, NULL, 0, 0);
    adb_hdr_encode(&h, buf);
    assert_int_equal(adb_hdr_decode(buf, ADB_MAXDATA, &d), ST_OK);

    adb_hdr_make(&h, ADB_CMD_WRTE, 1, 2, "abc", 3, 1);
    assert_int_equal(adb_payload_verify(&h, "abd"), ST_ECHECKSUM);
}

static void test_split(void **state)
{
    (void)state;
    unsigned char buf[2 * ADB_HDR_LEN + 16];
    struct adb_hdr h;
    adb_hdr_make(&h, ADB_CMD_WRTE, 3, 4, "payload!", 8, 1);
    adb_hdr_encode(&h, buf);
    memcpy(buf + ADB_HDR_LEN, "payload!", 8);
    adb_hdr_make(&h, ADB_CMD_OKAY, 4, 3, NULL, 0, 1);
    adb_hdr_encode(&h, buf + ADB_HDR_LEN + 8);
    size_t len = 2 * ADB_HDR_LEN + 8;

    const unsigned char *payload;
    size_t total;
    struct adb_hdr d;
    /* Every proper prefix of the first packet asks for more. */
    for (size_t n = 0; n < ADB_HDR_LEN + 8; n++)
        assert_int_equal(adb_packet_split(buf, n, ADB_MAXDATA, 1, &d,
                                          &payload, &total), ST_ETRUNCATED);
    assert_int_equal(adb_packet_split(buf, len, ADB_MAXDATA, 1, &d, &payload,
                                      &total), ST_OK);
    assert_int_equal(total, ADB_HDR_LEN + 8);
    assert_memory_equal(payload, "payload!", 8);
    assert_int_equal(adb_packet_split(buf + total, len - total, ADB_MAXDATA,
                                      1, &d, &payload, &total), ST_OK);
    assert_int_equal(d.command, ADB_CMD_OKAY);
    assert_int_equal(total, ADB_HDR_LEN);

    /* A corrupted payload only fails when verification is asked for. */
    buf[ADB_HDR_LEN] ^= 0x20;
    assert_int_equal(adb_packet_split(buf, len, ADB_MAXDATA, 1, &d, &payload,
                                      &total), ST_ECHECKSUM);
    assert_int_equal(adb_packet_split(buf, len, ADB_MAXDATA, 0, &d, &payload,
                                      &total), ST_OK);
    /* Too big for the negotiated maximum, even before the payload came. */
    assert_int_equal(adb_packet_split(buf, ADB_HDR_LEN, 4, 0, &d, &payload,
                                      &total), ST_ETOOBIG);
}

static void test_negotiation(void **state)
{
    (void)state;
    assert_int_equal(adb_version_negotiate(ADB_VERSION_SKIP_CHECKSUM,
                                           ADB_VERSION_MIN), ADB_VERSION_MIN);
    assert_int_equal(adb_version_negotiate(ADB_VERSION_SKIP_CHECKSUM,
                                           ADB_VERSION_SKIP_CHECKSUM),
                     ADB_VERSION_SKIP_CHECKSUM);
    assert_int_equal(adb_maxdata_negotiate(ADB_MAXDATA, ADB_MAXDATA_V1),
                     ADB_MAXDATA_V1);
    assert_int_equal(adb_maxdata_negotiate(256 * 1024, ADB_MAXDATA),
                     256 * 1024);
    assert_true(adb_version_wants_checksum(ADB_VERSION_MIN));
    assert_false(adb_version_wants_checksum(ADB_VERSION_SKIP_CHECKSUM));
}

struct banner_case {
    const char *in;
    size_t len; /* 0: strlen */
    enum st_err err;
    const char *type, *serial;
    size_t nprops, nfeatures;
    const char *feature;    /* one that must be present */
    const char *key, *value; /* one property that must be present */
};

static void test_banner_table(void **state)
{
    (void)state;
    static const struct banner_case t[] = {
        {"device::ro.product.name=sim;ro.product.model=SystraceSim;"
         "ro.product.device=sim;features=shell_v2,cmd,stat_v2,ls_v2",
         0, ST_OK, "device", "", 3, 4, "ls_v2", "ro.product.model",
         "SystraceSim"},
        /* Trailing ';' (older devices) and trailing NULs. */
        {"device::ro.product.name=x;features=cmd,shell_v2;\0\0", 50, ST_OK,
         "device", "", 1, 2, "shell_v2", "ro.product.name", "x"},
        {host_banner, 0, ST_OK, "host", "", 0, 10, "fixed_push_mkdir", NULL,
         NULL},
        /* No properties at all (very old adbd). */
        {"device::", 0, ST_OK, "device", "", 0, 0, NULL, NULL, NULL},
        {"recovery:ABC123:", 0, ST_OK, "recovery", "ABC123", 0, 0, NULL,
         NULL, NULL},
        /* Empty features, empty items, property without '='. */
        {"device::;;ro.x;features=;", 0, ST_OK, "device", "", 1, 0, NULL,
         "ro.x", ""},
        {"device::features=a,,b,", 0, ST_OK, "device", "", 0, 2, "b", NULL,
         NULL},
        {"device", 0, ST_EFORMAT, NULL, NULL, 0, 0, NULL, NULL, NULL},
        {"device:", 0, ST_EFORMAT, NULL, NULL, 0, 0, NULL, NULL, NULL},
        {"dev\0ice::", 9, ST_EFORMAT, NULL, NULL, 0, 0, NULL, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        struct adb_banner *b = (struct adb_banner *)1;
        size_t len = t[i].len ? t[i].len : strlen(t[i].in);
        assert_int_equal(adb_banner_parse(t[i].in, len, &b), t[i].err);
        if (t[i].err) {
            assert_null(b);
            continue;
        }
        assert_string_equal(b->type, t[i].type);
        assert_string_equal(b->serial, t[i].serial);
        assert_int_equal(b->nprops, t[i].nprops);
        assert_int_equal(b->nfeatures, t[i].nfeatures);
        if (t[i].feature)
            assert_true(adb_banner_has_feature(b, t[i].feature));
        assert_false(adb_banner_has_feature(b, "sendrecv_v2"));
        if (t[i].key)
            assert_string_equal(adb_banner_prop(b, t[i].key), t[i].value);
        assert_null(adb_banner_prop(b, "no.such.prop"));
        adb_banner_free(b);
    }
    adb_banner_free(NULL);
}

static void test_banner_limits(void **state)
{
    (void)state;
    char big[ADB_BANNER_MAX + 2];
    memset(big, 'a', sizeof(big));
    memcpy(big, "device::", 8);
    struct adb_banner *b;
    assert_int_equal(adb_banner_parse(big, sizeof(big), &b), ST_ETOOBIG);

    /* More features than the table holds. */
    char many[2048] = "device::features=";
    size_t n = strlen(many);
    for (int i = 0; i < ADB_BANNER_MAX_ITEMS + 1; i++) {
        many[n++] = 'f';
        many[n++] = ',';
    }
    many[n] = '\0';
    assert_int_equal(adb_banner_parse(many, n, &b), ST_ETOOBIG);
    assert_null(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_values),
        cmocka_unit_test(test_checksum),
        cmocka_unit_test(test_encode_exact_bytes),
        cmocka_unit_test(test_roundtrip_and_checksum_flag),
        cmocka_unit_test(test_decode_rejects),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_negotiation),
        cmocka_unit_test(test_banner_table),
        cmocka_unit_test(test_banner_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
