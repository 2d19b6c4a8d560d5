/* Growable buffer with a maximum; see dynbuf.h. */
#include "dynbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dynbuf_init(struct dynbuf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max;
}

void dynbuf_free(struct dynbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void dynbuf_reset(struct dynbuf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static enum st_err grow(struct dynbuf *b, size_t need)
{
    if (need > b->max)
        return ST_ETOOBIG;
    if (need + 1 <= b->cap)
        return ST_OK;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need + 1)
        cap = cap > ((size_t)-1) / 2 ? need + 1 : cap * 2;
    if (cap > b->max + 1)
        cap = b->max + 1;
    char *p = realloc(b->data, cap);
    if (!p)
        return ST_ENOMEM;
    b->data = p;
    b->cap = cap;
    return ST_OK;
}

enum st_err dynbuf_add_grow(struct dynbuf *b, const void *p, size_t n)
{
    if (n > b->max - b->len)
        return ST_ETOOBIG;
    enum st_err e = grow(b, b->len + n);
    if (e)
        return e;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return ST_OK;
}

enum st_err dynbuf_addstr(struct dynbuf *b, const char *s)
{
    return dynbuf_add(b, s, strlen(s));
}

enum st_err dynbuf_addc(struct dynbuf *b, char c)
{
    return dynbuf_add(b, &c, 1);
}

enum st_err dynbuf_add_jstr(struct dynbuf *b, const char *s)
{
    enum st_err e = dynbuf_addc(b, '"');
    for (; *s && !e; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            e = dynbuf_printf(b, "\\%c", c);
        else if (c < 0x20)
            e = dynbuf_printf(b, "\\u%04x", c);
        else
            e = dynbuf_addc(b, c < 0x80 ? (char)c : '?');
    }
    return e ? e : dynbuf_addc(b, '"');
}

enum st_err dynbuf_printf(struct dynbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ST_EINVAL;
    if ((size_t)n > b->max - b->len)
        return ST_ETOOBIG;
    enum st_err e = grow(b, b->len + (size_t)n);
    if (e)
        return e;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return ST_OK;
}

void dynbuf_consume(struct dynbuf *b, size_t n)
{
    if (n >= b->len) {
        dynbuf_reset(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

char *dynbuf_take(struct dynbuf *b, size_t *len)
{
    char *p = b->data;
    if (len)
        *len = b->len;
    if (!p)
        p = calloc(1, 1);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    return p;
}
