/*
 * Parsing of the pieces' options; see piecearg.h.  Times keep nanoseconds
 * (nine decimals) since a trace's own clock has them.
 */
#include "piecearg.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

struct unit {
    const char *name;
    int64_t ns;
};

static const struct unit time_units[] = {
    {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000},
    {"min", 60000000000LL}, {"h", 3600000000000LL}, {NULL, 0},
};

static int64_t unit_ns(const char *p, size_t n)
{
    if (!n)
        return 1000000000;      /* a plain number: seconds */
    for (const struct unit *u = time_units; u->name; u++)
        if (strlen(u->name) == n && !memcmp(u->name, p, n))
            return u->ns;
    return 0;
}

int piecearg_time_ns(const char *p, size_t n, int64_t *ns)
{
    size_t i = 0;
    uint64_t whole = 0, frac = 0, scale = 1;
    int digits = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++, digits++) {
        if (whole > (UINT64_MAX - 9) / 10)
            return -1;
        whole = whole * 10 + (uint64_t)(p[i] - '0');
    }
    if (i < n && p[i] == '.') {
        for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++, digits++) {
            if (scale >= 1000000000)
                return -1;      /* more than nine decimals */
            frac = frac * 10 + (uint64_t)(p[i] - '0');
            scale *= 10;
        }
    }
    int64_t u = unit_ns(p + i, n - i);
    if (!digits || !u)
        return -1;
    /* whole * u + frac * u / scale, checked */
    if (whole > (uint64_t)INT64_MAX / (uint64_t)u)
        return -1;
    uint64_t v = whole * (uint64_t)u;
    uint64_t f = (uint64_t)u >= scale ? frac * ((uint64_t)u / scale) : frac / (scale / (uint64_t)u);
    if (v > (uint64_t)INT64_MAX - f)
        return -1;
    *ns = (int64_t)(v + f);
    return 0;
}

static int bad_time(const char *what, const char *p, size_t n, char *err, size_t errlen)
{
    snprintf(err, errlen, "--time-range: %s '%.*s' is not a time (e.g. 2.5, 2500ms, 1min; "
             "at most nine decimals)", what, (int)(n > 64 ? 64 : n), p);
    return -1;
}

static int slice_range(struct piece_spec *s, const char *a, char *err, size_t errlen)
{
    size_t n = strlen(a);
    const char *pm = NULL;
    size_t pmlen = 0;
    for (size_t i = 0; i + 1 < n; i++) {        /* the last "±" or "+-" */
        if ((unsigned char)a[i] == 0xc2 && (unsigned char)a[i + 1] == 0xb1)
            pm = a + i, pmlen = 2;
        else if (a[i] == '+' && a[i + 1] == '-')
            pm = a + i, pmlen = 2;
    }
    size_t name_n = pm ? (size_t)(pm - a) : n;
    if (pm && piecearg_time_ns(pm + pmlen, n - name_n - pmlen, &s->margin_ns))
        return bad_time("the margin", pm + pmlen, n - name_n - pmlen, err, errlen);
    s->slice_nth = 1;
    const char *hash = NULL;
    for (size_t i = name_n; i-- > 0;)
        if (a[i] == '#') {
            hash = a + i;
            break;
        }
    size_t nd = hash ? (size_t)(a + name_n - hash - 1) : 0;
    int all_digits = nd > 0 && nd <= 7;
    for (size_t i = 0; all_digits && i < nd; i++)
        all_digits = hash[1 + i] >= '0' && hash[1 + i] <= '9';
    if (all_digits) {
        unsigned long nth = 0;
        for (size_t i = 0; i < nd; i++)
            nth = nth * 10 + (unsigned long)(hash[1 + i] - '0');
        if (!nth) {
            snprintf(err, errlen, "--time-range=slice:%s: #N counts from 1", a);
            return -1;
        }
        s->slice_nth = (unsigned)nth;
        name_n = (size_t)(hash - a);
    }
    if (!name_n || name_n >= sizeof(s->slice)) {
        snprintf(err, errlen, "--time-range: slice: needs a slice name of 1 to %zu bytes "
                 "(slice:NAME[#N][±D])", sizeof(s->slice) - 1);
        return -1;
    }
    memcpy(s->slice, a, name_n);
    s->slice[name_n] = 0;
    s->range = PIECE_SLICE;
    return 0;
}

int piecearg_range(struct piece_spec *s, const char *arg, char *err, size_t errlen)
{
    if (!strncmp(arg, "slice:", 6))
        return slice_range(s, arg + 6, err, errlen);
    int ts = !strncmp(arg, "ts:", 3);
    const char *a = ts ? arg + 3 : arg;
    const char *dots = strstr(a, "..");
    if (!dots) {
        snprintf(err, errlen, "--time-range=%s: expected START..END (seconds, e.g. 2..5.5), "
                 "ts:START..END or slice:NAME[#N][±D]", arg);
        return -1;
    }
    size_t sn = (size_t)(dots - a), en = strlen(dots + 2);
    s->start_ns = ts ? INT64_MIN : 0;
    s->end_ns = INT64_MAX;
    if (sn && piecearg_time_ns(a, sn, &s->start_ns))
        return bad_time("the start", a, sn, err, errlen);
    if (en && piecearg_time_ns(dots + 2, en, &s->end_ns))
        return bad_time("the end", dots + 2, en, err, errlen);
    /* an end not after the start is refused by the cut, with the trace's
     * span (exit 1, as for a range outside the trace) */
    s->range = ts ? PIECE_TS : PIECE_REL;
    return 0;
}

int piecearg_process(struct piece_spec *s, char *arg, const char *opt, char *err,
                     size_t errlen)
{
    for (char *p = arg;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        if (!*p) {
            snprintf(err, errlen, "%s: an empty process name (NAME|PID,...)", opt);
            return -1;
        }
        if (s->nprocs == PIECE_PROCS_MAX) {
            snprintf(err, errlen, "%s: more than %d processes", opt, PIECE_PROCS_MAX);
            return -1;
        }
        struct piece_proc *pr = &s->procs[s->nprocs++];
        pr->pid = -1;
        pr->name = p;
        if (strspn(p, "0123456789") == strlen(p) && strlen(p) <= 9) {
            pr->pid = 0;
            for (const char *q = p; *q; q++)
                pr->pid = pr->pid * 10 + (*q - '0');
            pr->name = NULL;
        }
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int piecearg_split(struct piece_spec *s, const char *arg, char *err, size_t errlen)
{
    size_t n = strlen(arg), num = strspn(arg, "0123456789.");
    const char *unit = arg + num;
    if (!num || !*unit) {
        snprintf(err, errlen, "--split=%s: give a size or a duration with its unit (256mb, "
                 "1g, 10s, 500ms)", arg);
        return -1;
    }
    if (!strcmp(unit, "m") || !strcmp(unit, "M")) {
        snprintf(err, errlen, "--split=%s: 'm' is ambiguous here: say %.*smb or %.*smin",
                 arg, (int)num, arg, (int)num, arg);
        return -1;
    }
    int64_t ns;
    if (!piecearg_time_ns(arg, n, &ns)) {
        if (ns < 1000000) {
            snprintf(err, errlen, "--split=%s: pieces of at least 1ms", arg);
            return -1;
        }
        s->split_ns = ns;
        return 0;
    }
    long kb;
    char uerr[160];
    if (units_size_kb(arg, &kb, uerr, sizeof(uerr))) {
        snprintf(err, errlen, "--split=%s: not a size (256mb, 1g) or a duration (10s, 500ms)",
                 arg);
        return -1;
    }
    if (kb < 4) {
        snprintf(err, errlen, "--split=%s: pieces of at least 4kb", arg);
        return -1;
    }
    s->split_bytes = (uint64_t)kb * 1024;
    return 0;
}
