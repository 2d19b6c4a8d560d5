/*
 * The summary's hot path (issue 23: the summary within 5% of a
 * conversion's time, and it sees every line): the whole lines of a write
 * are read in place, each in one forward pass that stops at the line's
 * '\n' and, where it searches (the task's '-', the end of the event
 * name), looks at eight bytes at a time.  Only the line ends after the
 * event name are found by memchr, and only sched_switch and marker lines
 * get their arguments (summary_ev.c trims the task when it needs it).
 *
 * It reads the shape the tokenizer's fast path reads (tevents_fast.c,
 * which agrees with Perfetto's grammar in tevents_line.c) and gives the
 * same fields; a line of another shape (or one of its checks failing,
 * with nothing changed yet) goes to the line-at-a-time reader
 * (sum_ftrace_line), so the numbers do not depend on which path read a
 * line.  tests/fuzz/fuzz_summary feeds every input both ways and compares
 * the results.
 */
#include <stdint.h>
#include <string.h>

#include "summary_int.h"

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Eight bytes, p[0] lowest whatever the byte order (one load where it is
 * little-endian). */
static inline uint64_t load8(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* The top bit of every byte of v below c (c <= 0x80); exact up to and
 * including the lowest one flagged, which is all that is used. */
static inline uint64_t below(uint64_t v, unsigned c)
{
    return (v - ONES * c) & ~v & HIGHS;
}

static inline uint64_t equal(uint64_t v, unsigned c)
{
    return below(v ^ (ONES * c), 1);
}

/* Index of the lowest flagged byte of m (m != 0). */
static inline unsigned first(uint64_t m)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(m) >> 3;
#else
    unsigned k = 0;
    while (!(m & 0x80)) {
        m >>= 8;
        k++;
    }
    return k;
#endif
}

/* Byte classes of the grammar (tevents_fast.c's dig, head, tail, ws), one
 * table load each. */
enum { C_DIG = 1, C_HEAD = 2, C_TAIL = 4, C_WS = 8 };
#define CL(c)                                                                          \
    ((((c) >= '0' && (c) <= '9') ? C_DIG | C_TAIL : 0) |                               \
     ((((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || (c) == '.') ? C_HEAD : 0) | \
     ((((c) >= 'a' && (c) <= 'f') || (c) == '.') ? C_TAIL : 0) |                       \
     (((c) == ' ' || ((c) >= '\t' && (c) <= '\r')) ? C_WS : 0))
#define CL4(c) CL(c), CL((c) + 1), CL((c) + 2), CL((c) + 3)
#define CL16(c) CL4(c), CL4((c) + 4), CL4((c) + 8), CL4((c) + 12)
#define CL64(c) CL16(c), CL16((c) + 16), CL16((c) + 32), CL16((c) + 48)
static const unsigned char cls[256] = {CL64(0), CL64(64), CL64(128), CL64(192)};

static inline int dig(unsigned char c)
{
    return cls[c] & C_DIG;
}

static inline int ws(unsigned char c)
{
    return cls[c] & C_WS;
}

/* The decimal digits at q (none: v 0); the byte after them.  A run too
 * long wraps v, but its length refuses it.  A byte at a time: the usual
 * lengths are predicted and the reading runs ahead, which reading eight
 * digits at once (a chain of dependent steps per field) did not beat. */
static inline const unsigned char *num(const unsigned char *q, uint64_t *v)
{
    uint64_t x = 0;
    unsigned d;
    while ((d = (unsigned)(*q - '0')) < 10) {
        x = x * 10 + d;
        q++;
    }
    *v = x;
    return q;
}

/* 1 to maxd digits at q: the byte after them, else NULL. */
static inline const unsigned char *num_max(const unsigned char *q, size_t maxd, uint64_t *v)
{
    const unsigned char *e = num(q, v);
    return (size_t)(e - q) - 1 < maxd ? e : NULL;
}

static inline const unsigned char *skip_spaces(const unsigned char *q)
{
    while (*q == ' ')
        q++;
    return q;
}

/* `TID (TGID) [CPU] ` after the task's '-' (tevents_fast.c's ids()). */
static const unsigned char *ids(const unsigned char *q, struct tev_line *l)
{
    uint64_t v;
    if (!(q = num_max(q, 9, &v)) || *q != ' ')
        return NULL;
    l->tid = (uint32_t)v;
    l->tgid = -1;
    q = skip_spaces(q);
    if (*q == '(') {
        q = skip_spaces(q + 1);
        if (*q == '-') {
            while (*q == '-')
                q++;
        } else if ((q = num_max(q, 9, &v))) {
            l->tgid = (int64_t)v;
        } else {
            return NULL;
        }
        if (q[0] != ')' || q[1] != ' ')
            return NULL;
        q += 2;
    }
    if (*q != '[' || !(q = num_max(q + 1, 9, &v)) || q[0] != ']' || q[1] != ' ')
        return NULL;
    l->cpu = (uint32_t)v;
    q += 2;
    /* FLAGS: four or five characters and spaces, or none before a digit */
    if (dig(*q))
        return q;
    if (!(cls[q[0]] & cls[q[1]] & cls[q[2]] & C_HEAD) || !(cls[q[3]] & C_TAIL))
        return NULL;
    if (q[4] == ' ')
        return skip_spaces(q + 4);
    if ((cls[q[4]] & C_TAIL) && q[5] == ' ')
        return skip_spaces(q + 5);
    return NULL;
}

/* FRAC as atrace and the kernel print it, six digits and ": ", read in
 * one word: the fraction's digits were a sixth of the summary's
 * instructions, a byte at a time.  The lowest byte that is not a digit is
 * flagged exactly, which is all the test needs. */
static inline int frac6(const unsigned char *q, uint64_t *v)
{
    uint64_t w = load8(q), d = w - ONES * '0';
    if (((d | (d + ONES * 0x76)) & HIGHS & 0x0000808080808080ull) ||
        (w >> 48) != (' ' << 8 | ':'))
        return 0;
    d <<= 16;
    d = (d * 10 + (d >> 8)) & 0x00ff00ff00ff00ffull;
    d = (d * 100 + (d >> 16)) & 0x0000ffff0000ffffull;
    *v = (d * 10000 + (d >> 32)) & 0xffffffffull;
    return 1;
}

/* `SEC.FRAC: EVENT: `; the ' ' after the event's ':', or NULL. */
static const unsigned char *stamp_event(const unsigned char *q, struct tev_line *l)
{
    static const uint32_t scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                       10000, 1000, 100, 10, 1};
    uint64_t sec, frac;
    if (!(q = num_max(q, 10, &sec)) || *q != '.')
        return NULL;
    const unsigned char *f = ++q;
    size_t nd;
    if (frac6(q, &frac)) {
        q += 6;
        nd = 6;
    } else {
        q = num(q, &frac);
        nd = (size_t)(q - f);
    }
    if (!nd || q[0] != ':' || q[1] != ' ')
        return NULL;
    if (nd > 9) {       /* digits past nanoseconds are not read */
        frac = 0;
        for (size_t k = 0; k < 9; k++)
            frac = frac * 10 + (unsigned)(f[k] - '0');
        nd = 9;
    }
    l->ts_ns = sec * 1000000000ull + frac * scale[nd];
    const unsigned char *tok = skip_spaces(q + 2);
    uint64_t m;
    for (q = tok; !(m = below(load8(q), 0x21)); q += 8)
        ;
    q += first(m);
    if (*q != ' ' || q - tok < 2 || q[-1] != ':')
        return NULL;
    l->event = (const char *)tok;
    l->event_len = (size_t)(q - 1 - tok);
    return q;
}

/* The first '-' of the line, or its '\n'. */
static const unsigned char *dash(const unsigned char *q)
{
    uint64_t m, v;
    while (!(m = (v = load8(q), equal(v, '-') | equal(v, '\n'))))
        q += 8;
    return q + first(m);
}

/* The args after the event (to e, the line without its '\r'), trimmed
 * as the tokenizer trims them, and the task before the '-' with its
 * blanks, which summary_ev.c trims when it needs the task. */
static void task_args(const unsigned char *p, const unsigned char *d, const unsigned char *a,
                      const unsigned char *e, struct tev_line *l)
{
    l->task = (const char *)p;
    l->task_len = (size_t)(d - p);
    while (a < e && ws(*a))
        a++;
    l->args = (const char *)a;
    l->args_len = (size_t)(e - a);
}

/* One line at p (its '\n' before stop); the '\n', or NULL when the line
 * is not of the usual shape (and nothing was counted). */
static const unsigned char *fast_line(struct summary *s, const unsigned char *p,
                                      const unsigned char *stop)
{
    struct tev_line l;
    const unsigned char *d, *q;
    if (*p == '#' || *(d = dash(p)) != '-' || !(q = ids(d + 1, &l)) || !(q = stamp_event(q, &l)))
        return NULL;
    const unsigned char *nl = memchr(q, '\n', (size_t)(stop - q));
    const struct sum_evname *e = sum_count_name(s, l.event, l.event_len);
    int kind = e ? e->kind : sum_event_kind(l.event, l.event_len);
    if (kind != SK_OTHER)
        task_args(p, d, q, nl > q && nl[-1] == '\r' ? nl - 1 : nl, &l);
    s->part_body = 1;
    sum_event(s, &l, kind);
    return nl;
}

size_t sum_fast_lines(struct summary *s, const char *buf, size_t n)
{
    const unsigned char *p = (const unsigned char *)buf, *stop;
    /* every eight-byte read stays before a '\n' this far from the end */
    if (n < 8)
        return 0;
    for (stop = p + n - 8; stop > p && *stop != '\n'; stop--)
        ;
    if (*stop != '\n')
        return 0;
    stop++;
    for (const unsigned char *q = p; q < stop;) {
        const unsigned char *nl = fast_line(s, q, stop);
        if (!nl) {
            nl = memchr(q, '\n', (size_t)(stop - q));
            sum_ftrace_line(s, (const char *)q, (size_t)(nl - q));
        }
        q = nl + 1;
    }
    return (size_t)(stop - p);
}
