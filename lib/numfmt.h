/*
 * Integers as decimal or hex text without printf: the trace-event
 * writers format several numbers per event, and vsnprintf's parsing of
 * the format was a sixth of a Perfetto trace's conversion.  Each writes
 * into buf (at least NUMFMT_MAX bytes), NUL-ended, and returns the
 * length; the text is what printf's %llu, %lld, %llx and "%llu.%03llu"
 * write for the same value.
 */
#ifndef SYSTRACE_NUMFMT_H
#define SYSTRACE_NUMFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NUMFMT_MAX 32       /* "-9223372036854775808", "18446744073709551615.999" */

extern const char numfmt_pairs[201];    /* "00" "01" ... "99" */

/* The number of decimal digits of v. */
static inline size_t numfmt_len(uint64_t v)
{
    size_t n = 1;
    for (;;) {
        if (v < 10)
            return n;
        if (v < 100)
            return n + 1;
        if (v < 1000)
            return n + 2;
        if (v < 10000)
            return n + 3;
        v /= 10000;
        n += 4;
    }
}

/* v's n = numfmt_len(v) digits at q, no NUL: for callers that pad or
 * build a line in place (two digits at a time, from the end). */
static inline void numfmt_put(char *q, uint64_t v, size_t n)
{
    char *e = q + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        memcpy(e, numfmt_pairs + 2 * r, 2);
    }
    if (v >= 10)
        memcpy(e - 2, numfmt_pairs + 2 * v, 2);
    else
        e[-1] = (char)('0' + v);
}

size_t numfmt_u64(char *buf, uint64_t v);
size_t numfmt_i64(char *buf, int64_t v);
size_t numfmt_hex(char *buf, uint64_t v);       /* lower case, no 0x */
/* Nanoseconds as microseconds: "%llu.%03llu" of ns / 1000, ns % 1000;
 * with trim, the ".000" of a whole microsecond left out. */
size_t numfmt_us(char *buf, uint64_t ns, int trim);

#endif
