/*
 * Buffered JSON writer (see mtrace_jw.h).  Strings are written as UTF-8;
 * control characters become \u00XX and bytes that are not well-formed
 * UTF-8 (overlong forms, surrogates, stray continuation bytes) become
 * \ufffd, because names in method traces are whatever the VM wrote.
 * '<' is written as \u003c so the text can sit inside an HTML <script>
 * block as it is (method names like "<init>" are everywhere).
 */
#include "mtrace_jw.h"

#include <string.h>

void mt_jw_flush(struct mt_jw *w)
{
    if (w->len && !w->failed && w->write(w->ctx, w->buf, w->len) != 0)
        w->failed = 1;
    w->len = 0;
}

void mt_jw_raw(struct mt_jw *w, const char *p, size_t n)
{
    while (n > 0) {
        if (w->len == MT_JW_BUF)
            mt_jw_flush(w);
        size_t k = MT_JW_BUF - w->len;
        if (k > n)
            k = n;
        memcpy(w->buf + w->len, p, k);
        w->len += k;
        p += k;
        n -= k;
    }
}

void mt_jw_lit(struct mt_jw *w, const char *s)
{
    mt_jw_raw(w, s, strlen(s));
}

void mt_jw_i64(struct mt_jw *w, int64_t v)
{
    char tmp[24];
    size_t i = sizeof(tmp);
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--i] = '-';
    mt_jw_raw(w, tmp + i, sizeof(tmp) - i);
}

size_t mt_utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Calls out(ctx, piece, len) for the escaped form of p[0..n). */
static int escape(const char *p, size_t n,
                  int (*out)(void *ctx, const char *s, size_t len), void *ctx)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t i = 0, run = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t l = c >= 0x20 && c != '"' && c != '\\' && c != '<'
                   ? mt_utf8_len(s + i, n - i) : 0;
        if (l) {
            i += l;
            run += l;
            continue;
        }
        if (run && out(ctx, (const char *)s + i - run, run) != 0)
            return -1;
        run = 0;
        char esc[8];
        const char *e = esc;
        size_t el = 2;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
        } else if (c == '\n') {
            e = "\\n";
        } else if (c == '\t') {
            e = "\\t";
        } else if (c < 0x20 || c == '<') {
            static const char hex[] = "0123456789abcdef";
            memcpy(esc, "\\u00", 4);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            el = 6;
        } else {
            e = "\\ufffd";
            el = 6;
        }
        if (out(ctx, e, el) != 0)
            return -1;
        i++;
    }
    return run ? out(ctx, (const char *)s + n - run, run) : 0;
}

static int to_jw(void *ctx, const char *s, size_t len)
{
    mt_jw_raw(ctx, s, len);
    return 0;
}

void mt_jw_str(struct mt_jw *w, const char *p, size_t n)
{
    mt_jw_raw(w, "\"", 1);
    escape(p, n, to_jw, w);
    mt_jw_raw(w, "\"", 1);
}

static int to_dynbuf(void *ctx, const char *s, size_t len)
{
    return dynbuf_add(ctx, s, len) == ST_OK ? 0 : -1;
}

enum st_err mt_json_escape(struct dynbuf *b, const char *p, size_t n)
{
    return escape(p, n, to_dynbuf, b) == 0 ? ST_OK : ST_ETOOBIG;
}
