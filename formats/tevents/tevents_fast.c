/*
 * The ftrace line tokenizer's fast path (tevents.h): the shape atrace and
 * the kernel print, `TASK-TID (TGID) [CPU] FLAGS SEC.FRAC: EVENT: ARGS`
 * (TGID optional, or dashes; FLAGS of four or five characters, or none),
 * read in one forward pass with single spaces as separators.
 *
 * It accepts a subset of what the general tokenizer (tevents_line.c)
 * accepts and gives the same fields; anything else (other whitespace,
 * missing separators, a '-' in the task before the TID's, numbers too long
 * to read without overflow checks, a ':' inside the event token) is left
 * to the general one.  tests/unit/test_tevents.c and fuzz_summary check
 * that the two agree.  It exists for the paths that tokenize every line
 * of a conversion (the trace-event converter; the summary's line-at-a-time
 * path, whose whole lines formats/summary/summary_fast.c reads the same
 * way, issue 23).
 */
#include <string.h>

#include "tevents.h"

static int dig(unsigned char c)
{
    return (unsigned)(c - '0') < 10;
}

static int head(unsigned char c)
{
    return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '.';
}

static int tail(unsigned char c)
{
    return dig(c) || (c >= 'a' && c <= 'f') || c == '.';
}

static int ws(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* 1 to maxd decimal digits at p[*i] (few enough not to overflow). */
static int num(const unsigned char *p, size_t n, size_t *i, size_t maxd, uint64_t *v)
{
    const unsigned char *q = p + *i, *s = q, *e = p + n;
    uint64_t x = 0;
    unsigned d;
    while (q < e && (d = (unsigned)(*q - '0')) < 10) {
        x = x * 10 + d;
        q++;
    }
    *v = x;
    *i = (size_t)(q - p);
    return q > s && (size_t)(q - s) <= maxd;
}

static size_t spaces(const unsigned char *p, size_t n, size_t i)
{
    while (i < n && p[i] == ' ')
        i++;
    return i;
}

/* `TID (TGID) [CPU] ` after the task's '-'; i is left after it. */
static int ids(const unsigned char *p, size_t n, size_t *ip, struct tev_line *l)
{
    size_t i = *ip;
    uint64_t v;
    if (!num(p, n, &i, 9, &v) || i >= n || p[i] != ' ')
        return 0;
    l->tid = (uint32_t)v;
    l->tgid = -1;
    i = spaces(p, n, i);
    if (i < n && p[i] == '(') {
        i = spaces(p, n, i + 1);
        if (i < n && p[i] == '-') {
            while (i < n && p[i] == '-')
                i++;
        } else if (num(p, n, &i, 9, &v)) {
            l->tgid = (int64_t)v;
        } else {
            return 0;
        }
        if (i + 1 >= n || p[i] != ')' || p[i + 1] != ' ')
            return 0;
        i += 2;
    }
    if (i >= n || p[i] != '[')
        return 0;
    i++;
    if (!num(p, n, &i, 9, &v) || i + 1 >= n || p[i] != ']' || p[i + 1] != ' ')
        return 0;
    l->cpu = (uint32_t)v;
    *ip = i + 2;
    return 1;
}

/* FLAGS: four or five characters and a space, or none before a digit. */
static int flags(const unsigned char *p, size_t n, size_t *ip)
{
    size_t i = *ip;
    if (i < n && dig(p[i]))
        return 1;
    if (n - i < 6 || !head(p[i]) || !head(p[i + 1]) || !head(p[i + 2]) || !tail(p[i + 3]))
        return 0;
    if (p[i + 4] == ' ')
        i += 4;
    else if (tail(p[i + 4]) && p[i + 5] == ' ')
        i += 5;
    else
        return 0;
    *ip = spaces(p, n, i);
    return 1;
}

/* `SEC.FRAC: EVENT: ` */
static int stamp_event(const unsigned char *p, size_t n, size_t i, struct tev_line *l)
{
    uint64_t sec, frac = 0;
    if (!num(p, n, &i, 10, &sec) || i >= n || p[i] != '.')
        return 0;
    size_t s = ++i;
    const unsigned char *q = p + i, *e = p + n, *stop = n - i > 9 ? q + 9 : e;
    unsigned d;
    while (q < stop && (d = (unsigned)(*q - '0')) < 10) {
        frac = frac * 10 + d;
        q++;
    }
    int nd = (int)(q - (p + i));
    while (q < e && dig(*q))
        q++;        /* digits past nanoseconds */
    i = (size_t)(q - p);
    if (i == s || i + 1 >= n || p[i] != ':' || p[i + 1] != ' ')
        return 0;
    static const uint32_t scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                       10000, 1000, 100, 10, 1};
    l->ts_ns = sec * 1000000000ull + frac * scale[nd];
    size_t tok = i = spaces(p, n, i + 2);
    q = p + i;
    while (q < e && *q > ' ')
        q++;
    i = (size_t)(q - p);
    if ((i < n && p[i] != ' ') || i - tok < 2 || p[i - 1] != ':')
        return 0;
    l->event = (const char *)p + tok;
    l->event_len = i - 1 - tok;
    while (i < n && ws(p[i]))
        i++;
    l->args = (const char *)p + i;
    l->args_len = n - i;
    return 1;
}

int tev_parse_line_std(const char *line, size_t n, struct tev_line *l)
{
    const unsigned char *p = (const unsigned char *)line;
    const unsigned char *d = memchr(p, '-', n);
    if (!d)
        return 0;
    size_t i = (size_t)(d - p) + 1;
    if (!ids(p, n, &i, l) || !flags(p, n, &i) || !stamp_event(p, n, i, l))
        return 0;
    size_t a = 0, b = (size_t)(d - p);
    while (a < b && ws(p[a]))
        a++;
    while (b > a && ws(p[b - 1]))
        b--;
    l->task = line + a;
    l->task_len = b - a;
    return 1;
}
