/*
 * ADB wire packet codec; see packet.h.  Explicit little-endian reads and
 * writes so the code is correct on any host byte order; no I/O.
 */
#include "packet.h"

#include <stdlib.h>
#include <string.h>

static uint32_t get_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

uint32_t adb_checksum(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += p[i];
    return sum;
}

void adb_hdr_make(struct adb_hdr *h, uint32_t command, uint32_t arg0,
                  uint32_t arg1, const void *data, size_t len, int checksum)
{
    h->command = command;
    h->arg0 = arg0;
    h->arg1 = arg1;
    h->data_length = (uint32_t)len;
    h->data_check = checksum && len ? adb_checksum(data, len) : 0;
    h->magic = command ^ 0xffffffffu;
}

void adb_hdr_encode(const struct adb_hdr *h, unsigned char out[ADB_HDR_LEN])
{
    put_le32(out, h->command);
    put_le32(out + 4, h->arg0);
    put_le32(out + 8, h->arg1);
    put_le32(out + 12, h->data_length);
    put_le32(out + 16, h->data_check);
    put_le32(out + 20, h->magic);
}

enum st_err adb_hdr_decode(const unsigned char in[ADB_HDR_LEN],
                           size_t max_data, struct adb_hdr *h)
{
    h->command = get_le32(in);
    h->arg0 = get_le32(in + 4);
    h->arg1 = get_le32(in + 8);
    h->data_length = get_le32(in + 12);
    h->data_check = get_le32(in + 16);
    h->magic = get_le32(in + 20);
    if (h->magic != (h->command ^ 0xffffffffu))
        return ST_EPROTO;
    if (h->data_length > max_data)
        return ST_ETOOBIG;
    return ST_OK;
}

enum st_err adb_payload_verify(const struct adb_hdr *h, const void *data)
{
    if (adb_checksum(data, h->data_length) != h->data_check)
        return ST_ECHECKSUM;
    return ST_OK;
}

enum st_err adb_packet_split(const unsigned char *buf, size_t len,
                             size_t max_data, int verify, struct adb_hdr *h,
                             const unsigned char **payload, size_t *total)
{
    if (len < ADB_HDR_LEN)
        return ST_ETRUNCATED;
    enum st_err e = adb_hdr_decode(buf, max_data, h);
    if (e)
        return e;
    if (len - ADB_HDR_LEN < h->data_length)
        return ST_ETRUNCATED;
    if (verify && (e = adb_payload_verify(h, buf + ADB_HDR_LEN)))
        return e;
    *payload = buf + ADB_HDR_LEN;
    *total = ADB_HDR_LEN + (size_t)h->data_length;
    return ST_OK;
}

int adb_cmd_known(uint32_t command)
{
    switch (command) {
    case ADB_CMD_CNXN: case ADB_CMD_AUTH: case ADB_CMD_OPEN:
    case ADB_CMD_OKAY: case ADB_CMD_CLSE: case ADB_CMD_WRTE:
    case ADB_CMD_STLS:
        return 1;
    default:
        return 0;
    }
}

const char *adb_cmd_name(uint32_t command, char buf[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(command >> (8 * i));
        if (c < 0x20 || c > 0x7e) {
            memcpy(buf, "????", 5);
            return buf;
        }
        buf[i] = (char)c;
    }
    buf[4] = '\0';
    return buf;
}

uint32_t adb_version_negotiate(uint32_t ours, uint32_t theirs)
{
    return ours < theirs ? ours : theirs;
}

size_t adb_maxdata_negotiate(size_t ours, size_t theirs)
{
    return ours < theirs ? ours : theirs;
}

int adb_version_wants_checksum(uint32_t version)
{
    return version < ADB_VERSION_SKIP_CHECKSUM;
}

/* Banner parsing: split a mutable copy in place. */

static enum st_err banner_props(struct adb_banner *b, char *p)
{
    while (p && *p) {
        char *next = strchr(p, ';');
        if (next)
            *next++ = '\0';
        if (*p) {
            char *eq = strchr(p, '=');
            const char *val = "";
            if (eq) {
                *eq = '\0';
                val = eq + 1;
            }
            if (!strcmp(p, "features")) {
                char *f = (char *)val;
                while (*f) {
                    char *comma = strchr(f, ',');
                    if (comma)
                        *comma = '\0';
                    if (*f) {
                        if (b->nfeatures == ADB_BANNER_MAX_ITEMS)
                            return ST_ETOOBIG;
                        b->features[b->nfeatures++] = f;
                    }
                    if (!comma)
                        break;
                    f = comma + 1;
                }
            } else {
                if (b->nprops == ADB_BANNER_MAX_ITEMS)
                    return ST_ETOOBIG;
                b->props[b->nprops].key = p;
                b->props[b->nprops].value = val;
                b->nprops++;
            }
        }
        p = next;
    }
    return ST_OK;
}

enum st_err adb_banner_parse(const void *data, size_t len,
                             struct adb_banner **out)
{
    *out = NULL;
    const char *s = data;
    while (len && s[len - 1] == '\0')
        len--;
    if (len > ADB_BANNER_MAX)
        return ST_ETOOBIG;
    if (memchr(s, '\0', len))
        return ST_EFORMAT;
    struct adb_banner *b = calloc(1, sizeof(*b));
    if (!b)
        return ST_ENOMEM;
    b->buf_ = malloc(len + 1);
    if (!b->buf_) {
        free(b);
        return ST_ENOMEM;
    }
    memcpy(b->buf_, s, len);
    b->buf_[len] = '\0';

    char *type = b->buf_;
    char *c1 = strchr(type, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    enum st_err e = ST_EFORMAT;
    if (!c2)
        goto fail;
    *c1 = '\0';
    *c2 = '\0';
    b->type = type;
    b->serial = c1 + 1;
    e = banner_props(b, c2 + 1);
    if (e)
        goto fail;
    *out = b;
    return ST_OK;
fail:
    adb_banner_free(b);
    return e;
}

void adb_banner_free(struct adb_banner *b)
{
    if (!b)
        return;
    free(b->buf_);
    free(b);
}

int adb_banner_has_feature(const struct adb_banner *b, const char *name)
{
    for (size_t i = 0; i < b->nfeatures; i++)
        if (!strcmp(b->features[i], name))
            return 1;
    return 0;
}

const char *adb_banner_prop(const struct adb_banner *b, const char *key)
{
    for (size_t i = 0; i < b->nprops; i++)
        if (!strcmp(b->props[i].key, key))
            return b->props[i].value;
    return NULL;
}
