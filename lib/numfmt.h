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

#define NUMFMT_MAX 32       /* "-9223372036854775808", "18446744073709551615.999" */

size_t numfmt_u64(char *buf, uint64_t v);
size_t numfmt_i64(char *buf, int64_t v);
size_t numfmt_hex(char *buf, uint64_t v);       /* lower case, no 0x */
/* Nanoseconds as microseconds: "%llu.%03llu" of ns / 1000, ns % 1000;
 * with trim, the ".000" of a whole microsecond left out. */
size_t numfmt_us(char *buf, uint64_t ns, int trim);

#endif
