/* Numbers with units; see units.h. */
#include "units.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_INT_VALUE 2147483647L

struct unit {
    const char *name;
    long mult;          /* base units (ms or KB) in one of these */
};

/* Base: milliseconds */
static const struct unit time_units[] = {
    {"", 1000}, {"ms", 1}, {"s", 1000}, {"sec", 1000}, {"m", 60000}, {"min", 60000},
    {"h", 3600000}, {NULL, 0},
};

/* Base: KB */
static const struct unit size_units[] = {
    {"", 1}, {"k", 1}, {"kb", 1}, {"kib", 1}, {"m", 1024}, {"mb", 1024}, {"mib", 1024},
    {"g", 1048576}, {"gb", 1048576}, {"gib", 1048576}, {NULL, 0},
};

/* digits[.ddd] -> value in thousandths; returns the end, or NULL */
static const char *milli_number(const char *s, long long *milli)
{
    long long whole = 0;
    const char *p = s;
    if (!isdigit((unsigned char)*p))
        return NULL;
    for (; isdigit((unsigned char)*p); p++) {
        whole = whole * 10 + (*p - '0');
        if (whole > MAX_INT_VALUE * 1000LL)
            return NULL;
    }
    long long frac = 0;
    int nfrac = 0;
    if (*p == '.') {
        p++;
        for (; isdigit((unsigned char)*p); p++, nfrac++) {
            if (nfrac >= 3)
                return NULL;
            frac = frac * 10 + (*p - '0');
        }
        if (!nfrac)
            return NULL;
    }
    while (nfrac++ < 3)
        frac *= 10;
    *milli = whole * 1000 + frac;
    return p;
}

static int parse(const char *s, const struct unit *units, long base_div, const char *what,
                 const char *unit_list, long *out, char *err, size_t errlen)
{
    long long milli;
    const char *end = milli_number(s, &milli);
    if (!end) {
        snprintf(err, errlen, "'%s': not a %s (a number, then optionally one of %s)", s,
                 what, unit_list);
        return -1;
    }
    for (const struct unit *u = units; u->name; u++) {
        if (strcasecmp(end, u->name))
            continue;
        long long v = milli * u->mult;      /* thousandths of the base */
        if (v % base_div) {
            snprintf(err, errlen, "'%s': a %s finer than the unit it is counted in", s, what);
            return -1;
        }
        v /= base_div;
        if (v > MAX_INT_VALUE) {
            snprintf(err, errlen, "'%s': %s too large", s, what);
            return -1;
        }
        *out = (long)v;
        return 0;
    }
    snprintf(err, errlen, "'%s': unknown unit '%s' (use %s)", s, end, unit_list);
    return -1;
}

int units_duration_ms(const char *s, long *ms, char *err, size_t errlen)
{
    return parse(s, time_units, 1000, "duration", "ms, s, m, h", ms, err, errlen);
}

int units_size_kb(const char *s, long *kb, char *err, size_t errlen)
{
    return parse(s, size_units, 1000, "size", "KB, MB, GB, or KiB, MiB, GiB", kb, err, errlen);
}
