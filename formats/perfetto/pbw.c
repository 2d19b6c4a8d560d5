/* Protobuf wire-format writer (see pbw.h): tag = number << 3 | wire type. */
#include <string.h>

#include "pbw.h"

enum st_err pbw_varint(struct dynbuf *b, uint64_t v)
{
    uint8_t t[10];
    size_t n = 0;
    do {
        t[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        t[n++] |= v ? 0x80 : 0;
    } while (v);
    return dynbuf_add(b, t, n);
}

enum st_err pbw_uint(struct dynbuf *b, uint32_t num, uint64_t v)
{
    enum st_err e = pbw_varint(b, (uint64_t)num << 3);
    return e ? e : pbw_varint(b, v);
}

enum st_err pbw_bytes(struct dynbuf *b, uint32_t num, const void *p, size_t n)
{
    enum st_err e = pbw_varint(b, (uint64_t)num << 3 | 2);
    if (!e)
        e = pbw_varint(b, n);
    return e ? e : dynbuf_add(b, p, n);
}

enum st_err pbw_str(struct dynbuf *b, uint32_t num, const char *s)
{
    return pbw_bytes(b, num, s, strlen(s));
}

enum st_err pbw_msg(struct dynbuf *b, uint32_t num, struct dynbuf *sub)
{
    enum st_err e = pbw_bytes(b, num, sub->data ? sub->data : "", sub->len);
    dynbuf_reset(sub);
    return e;
}
