/*
 * Integers as text without printf (numfmt.h).  Digits are written from
 * the end of a small local buffer, two at a time from a table, then
 * moved to the front of the caller's.
 */
#include "numfmt.h"

#include <string.h>

static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The digits of v ending just before end; returns where they start. */
static char *digits(char *end, uint64_t v)
{
    char *q = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, pairs + 2 * v, 2);
    } else {
        *--q = (char)('0' + v);
    }
    return q;
}

static size_t place(char *buf, const char *from, const char *end)
{
    size_t n = (size_t)(end - from);
    memmove(buf, from, n);
    buf[n] = '\0';
    return n;
}

size_t numfmt_u64(char *buf, uint64_t v)
{
    char tmp[NUMFMT_MAX];
    char *end = tmp + sizeof(tmp);
    return place(buf, digits(end, v), end);
}

size_t numfmt_i64(char *buf, int64_t v)
{
    char tmp[NUMFMT_MAX];
    char *end = tmp + sizeof(tmp);
    /* the magnitude in unsigned arithmetic: -INT64_MIN overflows int64_t */
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char *q = digits(end, m);
    if (v < 0)
        *--q = '-';
    return place(buf, q, end);
}

size_t numfmt_hex(char *buf, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    char tmp[NUMFMT_MAX];
    char *end = tmp + sizeof(tmp), *q = end;
    do
        *--q = hex[v & 15];
    while (v >>= 4);
    return place(buf, q, end);
}

size_t numfmt_us(char *buf, uint64_t ns, int trim)
{
    char tmp[NUMFMT_MAX];
    char *end = tmp + sizeof(tmp), *q = end;
    unsigned frac = (unsigned)(ns % 1000);
    if (frac || !trim) {
        q -= 4;
        q[0] = '.';
        q[1] = (char)('0' + frac / 100);
        memcpy(q + 2, pairs + 2 * (frac % 100), 2);
    }
    return place(buf, digits(q, ns / 1000), end);
}
