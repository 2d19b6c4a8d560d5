/*
 * libFuzzer target for adb/packet.c: splits the input into ADB packets
 * (both with and without checksum verification, at two negotiated
 * maxima) and parses every CNXN payload as a banner.  Also used on its
 * own input as a banner.  Must never crash, leak or read out of bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adb/packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse_banner(const void *p, size_t n)
{
    struct adb_banner *b = NULL;
    if (adb_banner_parse(p, n, &b) == ST_OK) {
        for (size_t i = 0; i < b->nfeatures; i++)
            (void)adb_banner_has_feature(b, b->features[i]);
        for (size_t i = 0; i < b->nprops; i++)
            (void)adb_banner_prop(b, b->props[i].key);
    }
    adb_banner_free(b);
}

static void split_all(const uint8_t *data, size_t size, size_t max, int verify)
{
    while (size) {
        struct adb_hdr h;
        const unsigned char *payload;
        size_t total;
        if (adb_packet_split(data, size, max, verify, &h, &payload, &total))
            return;
        char name[5];
        (void)adb_cmd_name(h.command, name);
        if (h.command == ADB_CMD_CNXN)
            parse_banner(payload, h.data_length);
        data += total;
        size -= total;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    split_all(data, size, ADB_MAXDATA, 0);
    split_all(data, size, ADB_MAXDATA_V1, 1);
    parse_banner(data, size);
    return 0;
}
