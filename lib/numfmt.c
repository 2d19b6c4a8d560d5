/*
 * Integers as text without printf (numfmt.h).  The digits are counted,
 * then written from the end, two at a time from a table.
 */
#include "numfmt.h"

#include <string.h>

const char numfmt_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t numfmt_u64(char *buf, uint64_t v)
{
    size_t n = numfmt_len(v);
    numfmt_put(buf, v, n);
    buf[n] = '\0';
    return n;
}

size_t numfmt_i64(char *buf, int64_t v)
{
    /* the magnitude in unsigned arithmetic: -INT64_MIN overflows int64_t */
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    size_t k = v < 0;
    buf[0] = '-';
    return k + numfmt_u64(buf + k, m);
}

size_t numfmt_hex(char *buf, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 1;
    while (n < 16 && v >> (4 * n))
        n++;
    for (size_t i = n; i-- > 0; v >>= 4)
        buf[i] = hex[v & 15];
    buf[n] = '\0';
    return n;
}

size_t numfmt_us(char *buf, uint64_t ns, int trim)
{
    size_t n = numfmt_u64(buf, ns / 1000);
    unsigned frac = (unsigned)(ns % 1000);
    if (!frac && trim)
        return n;
    buf[n] = '.';
    buf[n + 1] = (char)('0' + frac / 100);
    memcpy(buf + n + 2, numfmt_pairs + 2 * (frac % 100), 2);
    buf[n + 4] = '\0';
    return n + 4;
}
