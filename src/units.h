/*
 * Durations and sizes with units on the command line: `-t 10s`, `-t 2m`,
 * `-t 500ms`, `-b 32mb`, `-b 64MiB`.  A plain number keeps catapult's
 * meaning (seconds for -t, KB for -b), so old command lines work as they
 * did.  Sizes are binary (1 KB = 1 KiB = 1024 bytes), as the kernel's
 * buffer_size_kb is.  Parsing is bounded and strict: no sign, no spaces,
 * at most three decimals, a known unit, a result that fits an int.
 */
#ifndef SYSTRACE_UNITS_H
#define SYSTRACE_UNITS_H

#include <stddef.h>

/* "10" (s), "10s", "1.5s", "500ms", "2m", "2min", "1h" -> milliseconds.
 * 0 on success; -1 with one line in err ("'5x': unknown unit 'x' ..."). */
int units_duration_ms(const char *s, long *ms, char *err, size_t errlen);

/* "4096" (KB), "4096k", "4096kb", "32m", "32mb", "64MiB", "1g" -> KB.
 * 0 on success; -1 with one line in err. */
int units_size_kb(const char *s, long *kb, char *err, size_t errlen);

#endif
