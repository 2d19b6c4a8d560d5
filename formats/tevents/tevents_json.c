/*
 * JSON text for the trace-event converter: strings from trace bytes
 * (which may hold anything) and timestamps.  Output is always valid JSON
 * text in UTF-8: control characters are escaped, invalid UTF-8 becomes
 * U+FFFD.
 */
#include <stdio.h>

#include "tevents_int.h"
#include "lib/numfmt.h"

/* Length of a valid UTF-8 sequence at p, 0 if invalid or cut short. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    size_t len = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
        (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
        return 0;
    return len;
}

enum st_err tj_str(struct dynbuf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    enum st_err e = dynbuf_addc(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < n && !e; i++) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
            continue;
        if (c >= 0x80) {
            size_t l = utf8_len(p + i, n - i);
            if (l) {
                i += l - 1;
                continue;
            }
        }
        char esc[8];
        if (c == '"' || c == '\\')
            snprintf(esc, sizeof(esc), "\\%c", c);
        else if (c >= 0x80)
            snprintf(esc, sizeof(esc), "\\ufffd");
        else
            snprintf(esc, sizeof(esc), "\\u%04x", c);
        if (!(e = dynbuf_add(b, p + run, i - run)))
            e = dynbuf_addstr(b, esc);
        run = i + 1;
    }
    if (!e)
        e = dynbuf_add(b, p + run, n - run);
    return e ? e : dynbuf_addc(b, '"');
}

enum st_err tj_us(struct dynbuf *b, uint64_t ns)
{
    char s[NUMFMT_MAX];
    return dynbuf_add(b, s, numfmt_us(s, ns, 1));
}
