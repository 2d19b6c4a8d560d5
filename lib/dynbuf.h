/*
 * Growable byte buffer with a stated maximum (curl's dynbuf, redis's sds).
 * Every buffer says how big it may get; growing past that returns
 * ST_ETOOBIG and leaves the contents as they were, never truncating
 * silently.  The data is always NUL-terminated (the NUL is not counted in
 * len) so it can be handed to functions that want a C string.
 */
#ifndef SYSTRACE_DYNBUF_H
#define SYSTRACE_DYNBUF_H

#include "printf.h"
#include <stddef.h>
#include <string.h>
#include "error.h"

struct dynbuf {
    char *data;     /* NULL until the first append */
    size_t len;
    size_t cap;
    size_t max;     /* the most len may ever be */
};

void dynbuf_init(struct dynbuf *b, size_t max);
void dynbuf_free(struct dynbuf *b);             /* also resets to empty */
void dynbuf_reset(struct dynbuf *b);            /* len = 0, keeps memory */

enum st_err dynbuf_add_grow(struct dynbuf *b, const void *p, size_t n);
/* Inline while it fits: the converters append a few bytes at a time, and
 * the call alone was 5% of a Perfetto conversion.  cap never exceeds
 * max + 1, so fitting in cap is within max. */
static inline enum st_err dynbuf_add(struct dynbuf *b, const void *p, size_t n)
{
    if (b->data && n < b->cap - b->len) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return ST_OK;
    }
    return dynbuf_add_grow(b, p, n);
}
enum st_err dynbuf_addstr(struct dynbuf *b, const char *s);
enum st_err dynbuf_addc(struct dynbuf *b, char c);
enum st_err dynbuf_printf(struct dynbuf *b, const char *fmt, ...)
    ST_PRINTF(2, 3);
/* s as a JSON string in ASCII: quotes around, '"' and '\\' escaped,
 * control characters as \u00XX, bytes from 0x80 as '?' (names from a
 * trace may hold any bytes, and the text must stay valid JSON). */
enum st_err dynbuf_add_jstr(struct dynbuf *b, const char *s);

/* Drop the first n bytes (n > len drops everything). */
void dynbuf_consume(struct dynbuf *b, size_t n);

/* Hand the data over; the buffer is empty afterwards.  Never NULL on
 * success: an empty buffer yields an allocated "". */
char *dynbuf_take(struct dynbuf *b, size_t *len);

static inline const char *dynbuf_str(const struct dynbuf *b)
{
    return b->data ? b->data : "";
}

#endif
