/* Base64; see base64.h. */
#include "base64.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

enum st_err b64_encode(const void *p, size_t n, struct dynbuf *out)
{
    const unsigned char *b = p;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i += 3) {
        unsigned v = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) |
                     (i + 2 < n ? b[i + 2] : 0);
        char q[4] = {alphabet[v >> 18 & 63], alphabet[v >> 12 & 63],
                     i + 1 < n ? alphabet[v >> 6 & 63] : '=', i + 2 < n ? alphabet[v & 63] : '='};
        e = dynbuf_add(out, q, 4);
    }
    return e;
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static int b64_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

enum st_err b64_decode(const char *in, size_t n, struct dynbuf *out, struct dynbuf *err)
{
    const unsigned char *p = (const unsigned char *)in;
    unsigned acc = 0;
    size_t chars = 0, pad = 0;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++) {
        if (b64_space(p[i]))
            continue;
        int v = p[i] == '=' ? 0 : b64_value(p[i]);
        if (v < 0 || (pad && p[i] != '=') || (p[i] == '=' && (chars % 4) < 2)) {
            if (err)
                dynbuf_printf(err, "not base64: byte 0x%02x at offset %zu", p[i], i);
            return ST_EFORMAT;
        }
        pad += p[i] == '=';
        acc = acc << 6 | (unsigned)v;
        if (++chars % 4)
            continue;
        unsigned char b[3] = {(unsigned char)(acc >> 16), (unsigned char)(acc >> 8),
                              (unsigned char)acc};
        e = dynbuf_add(out, b, 3 - pad);
        acc = 0;
    }
    if (!e && chars % 4) {
        if (err)
            dynbuf_printf(err, "base64 text of %zu characters is cut short (a partial "
                               "download?)", chars);
        return ST_ETRUNCATED;
    }
    return e;
}
