/*
 * ADB wire packets: the 24-byte message header, its checksum, version and
 * maxdata negotiation, and the CNXN banner.  A pure codec: no I/O, no
 * allocation except for the parsed banner, usable by either side (the
 * direct-transport client and the device simulator share it).
 *
 * Spec: docs/dev/protocol.md of AOSP adb, summarised in
 * ../shared/reference/adb-protocol.md section (c).  The header is six
 * little-endian u32: command, arg0, arg1, data_length, data_check, magic
 * (command ^ 0xffffffff).  data_check is the unsigned byte sum of the
 * payload (not a CRC); it is required by version 0x01000000 peers only.
 * Decoding checks magic and data_length against the negotiated maximum
 * before the payload is trusted; checksums are verified only on request.
 */
#ifndef SYSTRACE_ADB_PACKET_H
#define SYSTRACE_ADB_PACKET_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"

#define ADB_HDR_LEN 24

/* Commands: four ASCII bytes read as a little-endian u32. */
#define ADB_CMD_SYNC 0x434e5953u /* obsolete */
#define ADB_CMD_CNXN 0x4e584e43u
#define ADB_CMD_AUTH 0x48545541u
#define ADB_CMD_OPEN 0x4e45504fu
#define ADB_CMD_OKAY 0x59414b4fu
#define ADB_CMD_CLSE 0x45534c43u
#define ADB_CMD_WRTE 0x45545257u
#define ADB_CMD_STLS 0x534c5453u

/* AUTH arg0 types. */
#define ADB_AUTH_TOKEN 1u
#define ADB_AUTH_SIGNATURE 2u
#define ADB_AUTH_RSAPUBLICKEY 3u
#define ADB_AUTH_TOKEN_LEN 20u

#define ADB_VERSION_MIN 0x01000000u       /* checksummed */
#define ADB_VERSION_SKIP_CHECKSUM 0x01000001u
#define ADB_MAXDATA_V1 4096u               /* before the peer's CNXN */
#define ADB_MAXDATA 0x100000u              /* 1 MiB, current adb */

struct adb_hdr {
    uint32_t command;
    uint32_t arg0;
    uint32_t arg1;
    uint32_t data_length;
    uint32_t data_check;
    uint32_t magic;
};

/* Unsigned byte sum of the payload, mod 2^32. */
uint32_t adb_checksum(const void *data, size_t len);

/* Fill a header for a payload of len bytes; data_check is the byte sum
 * when checksum is non-zero, else 0.  magic is set. */
void adb_hdr_make(struct adb_hdr *h, uint32_t command, uint32_t arg0,
                  uint32_t arg1, const void *data, size_t len, int checksum);

/* Serialise a header (little-endian, exactly ADB_HDR_LEN bytes). */
void adb_hdr_encode(const struct adb_hdr *h, unsigned char out[ADB_HDR_LEN]);

/* Parse a header and check it: ST_EPROTO when magic does not match the
 * command, ST_ETOOBIG when data_length exceeds max_data.  Unknown commands
 * are not an error here (adb ignores them); see adb_cmd_known(). */
enum st_err adb_hdr_decode(const unsigned char in[ADB_HDR_LEN],
                           size_t max_data, struct adb_hdr *h);

/* ST_ECHECKSUM when data does not sum to h->data_check. */
enum st_err adb_payload_verify(const struct adb_hdr *h, const void *data);

/* Split one packet off the front of buf: ST_OK with *payload and *total
 * (header + payload bytes) set, ST_ETRUNCATED when more bytes are needed,
 * otherwise the adb_hdr_decode()/adb_payload_verify() errors.  The
 * checksum is verified only when verify is non-zero. */
enum st_err adb_packet_split(const unsigned char *buf, size_t len,
                             size_t max_data, int verify, struct adb_hdr *h,
                             const unsigned char **payload, size_t *total);

/* Non-zero for the seven commands above (SYNC excluded). */
int adb_cmd_known(uint32_t command);

/* "CNXN"; "????" for anything not printable. buf needs 5 bytes. */
const char *adb_cmd_name(uint32_t command, char buf[5]);

/* Negotiation: each side keeps the minimum of both offers. */
uint32_t adb_version_negotiate(uint32_t ours, uint32_t theirs);
size_t adb_maxdata_negotiate(size_t ours, size_t theirs);
/* Whether packets must carry (and may be checked for) a byte sum. */
int adb_version_wants_checksum(uint32_t version);

/*
 * CNXN banner: "<type>:<serial>:<k>=<v>;<k>=<v>;...;features=a,b,c".
 * Old devices put a trailing ';', some no properties at all; trailing NULs
 * are ignored.  Everything points into one owned copy.
 */
#define ADB_BANNER_MAX 4096
#define ADB_BANNER_MAX_ITEMS 128

struct adb_banner_prop {
    const char *key;
    const char *value;
};

struct adb_banner {
    const char *type;           /* "device", "host", "recovery", ... */
    const char *serial;         /* usually "" */
    size_t nprops;
    struct adb_banner_prop props[ADB_BANNER_MAX_ITEMS];
    size_t nfeatures;
    const char *features[ADB_BANNER_MAX_ITEMS];
    char *buf_;                 /* owned storage */
};

/* ST_EFORMAT without the two ':' separators, ST_ETOOBIG past the limits. */
enum st_err adb_banner_parse(const void *data, size_t len,
                             struct adb_banner **out);
void adb_banner_free(struct adb_banner *b);
int adb_banner_has_feature(const struct adb_banner *b, const char *name);
const char *adb_banner_prop(const struct adb_banner *b, const char *key);

#endif
