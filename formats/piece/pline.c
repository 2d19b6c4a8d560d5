/* ftrace lines, atrace marks and times for the cutters; see pline.h. */
#include "pline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PLINE_WORDS 1
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static uint64_t load8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* The first byte of the word that is zero: its bit 7 set in the result
 * (borrows make false ones only above a true one). */
static uint64_t zero_bytes(uint64_t x)
{
    return (x - ONES) & ~x & HIGHS;
}
#endif

/* The index of the first byte of p[i, n) other than c, or n. */
static size_t skip_byte(const char *p, size_t i, size_t n, char c)
{
#ifdef PLINE_WORDS
    for (uint64_t x; i + 8 <= n; i += 8)
        if ((x = load8(p + i) ^ ONES * (unsigned char)c))
            return i + (size_t)__builtin_ctzll(x) / 8;
#endif
    while (i < n && p[i] == c)
        i++;
    return i;
}

/* The index of the first c or d in p[i, n), or n. */
static size_t find_byte2(const char *p, size_t i, size_t n, char c, char d)
{
#ifdef PLINE_WORDS
    for (uint64_t x, z; i + 8 <= n; i += 8) {
        x = load8(p + i);
        if ((z = zero_bytes(x ^ ONES * (unsigned char)c) | zero_bytes(x ^ ONES * (unsigned char)d)))
            return i + (size_t)__builtin_ctzll(z) / 8;
    }
#endif
    while (i < n && p[i] != c && p[i] != d)
        i++;
    return i;
}

/* Digits of p[a, b) as a number; -1 if none or not all digits. */
static int64_t digits(const char *p, size_t a, size_t b)
{
    if (a >= b || b - a > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = a; i < b; i++) {
        if (!is_digit(p[i]))
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

int pline_secs_ns(const char *p, size_t n, int64_t *ns)
{
    static const int64_t scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                      10000, 1000, 100, 10, 1};
    size_t i = 0;
    int64_t s = 0, frac = 0;
    while (i < n && is_digit(p[i])) {
        if (s > INT64_MAX / 1000000000 / 10 - 1)
            return -1;          /* no room for it in ns */
        s = s * 10 + (p[i++] - '0');
    }
    if (!i)
        return -1;
    if (i < n && p[i] == '.') {
        size_t d = ++i;
        while (i < n && is_digit(p[i])) {
            if (i - d < 9)
                frac = frac * 10 + (p[i] - '0');
            i++;
        }
        frac *= scale[i - d < 9 ? i - d : 9];
    }
    if (i != n)
        return -1;
    *ns = s * 1000000000 + frac;
    return 0;
}

int pline_us_ns(const char *p, size_t n, int64_t *ns)
{
    char buf[64];
    if (!n || n >= sizeof(buf))
        return -1;
    memcpy(buf, p, n);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_digit(buf[i]) && !strchr("+-.eE", buf[i]))
            return -1;
    /* integral microseconds (the common case) exactly, others via double */
    int neg = buf[0] == '-';
    int64_t v = digits(buf, (size_t)neg, n);
    if (v > 9000000000000LL)
        return -1;              /* the bound of the general path below */
    if (v >= 0) {
        *ns = (neg ? -v : v) * 1000;
        return 0;
    }
    char *end;
    double d = strtod(buf, &end);
    if (*end || d != d || d > 9e12 || d < -9e12)
        return -1;
    double r = d * 1000.0;
    *ns = (int64_t)(r < 0 ? r - 0.5 : r + 0.5);
    return 0;
}

size_t pline_fmt_secs(char *buf, size_t len, int64_t ns)
{
    int n = snprintf(buf, len, "%lld.%06lld", (long long)(ns / 1000000000),
                     (long long)(ns % 1000000000 / 1000));
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

size_t pline_fmt_us(char *buf, size_t len, int64_t ns)
{
    int n = ns % 1000 ? snprintf(buf, len, "%lld.%03lld", (long long)(ns / 1000),
                                 (long long)(ns % 1000 < 0 ? -(ns % 1000) : ns % 1000))
                      : snprintf(buf, len, "%lld", (long long)(ns / 1000));
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* "[digits]" at p[i]: returns the index after ']', or 0. */
static size_t cpu_field(const char *p, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && is_digit(p[j]))
        j++;
    return j > i + 1 && j < n && p[j] == ']' ? j + 1 : 0;
}

/* The part left of "[CPU]": "TASK-TID" and an optional "(TGID)". */
static int left_side(const char *p, size_t end, struct pline *l)
{
    while (end && p[end - 1] == ' ')
        end--;
    l->tgid = -1;
    l->tgid_col = 0;
    if (end && p[end - 1] == ')') {
        size_t o = end - 1;
        while (o && p[o - 1] != '(')
            o--;
        if (!o)
            return -1;
        size_t a = o, b = end - 1;
        while (a < b && p[a] == ' ')
            a++;
        l->tgid = digits(p, a, b);      /* "-----": -1 */
        l->tgid_col = 1;
        end = o - 1;
        while (end && p[end - 1] == ' ')
            end--;
    }
    size_t d = end;
    int64_t tid = 0, mul = 1;
    while (d && is_digit(p[d - 1]) && end - d < 18) {
        tid += (p[d - 1] - '0') * mul;
        mul *= 10;
        d--;
    }
    if (d == end || !d || p[d - 1] != '-' || is_digit(p[d - 1]))
        return -1;
    l->tid = tid;
    size_t t = 0;
    while (t < d - 1 && p[t] == ' ')
        t++;
    l->task = p + t;
    l->task_len = d - 1 - t;
    return 0;
}

#ifdef PLINE_WORDS
/* Eight bytes read at once, the first in the lowest: how many lead as
 * digits.  A byte's carry reaches only bytes after a non-digit. */
static unsigned lead_digits(uint64_t x)
{
    const uint64_t hi = 0xf0f0f0f0f0f0f0f0ull, three = 0x3030303030303030ull;
    uint64_t bad = ((x & hi) ^ three) | (((x + 0x0606060606060606ull) & hi) ^ three);
    return bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the k (1..8) leading digits of x, pairs then fours
 * folded by multiplication. */
static uint64_t digits8(uint64_t x, unsigned k)
{
    unsigned shift = 8 * (8 - k);
    x = (x << shift) - (0x3030303030303030ull << shift);
    x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
    x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
    return (x * 10000 + (x >> 32)) & 0xffffffffull;
}

/* "SEC.FRAC:" with at most 7 digits on each side, as ftrace writes its
 * seconds: both read eight bytes at a time; 0 for any other. */
static size_t ts_words(const char *p, size_t n, size_t a, struct pline *l,
                       const int64_t *scale)
{
    if (a + 16 > n)
        return 0;
    uint64_t x = load8(p + a), y;
    unsigned ks = lead_digits(x);
    if (!ks || ks == 8 || (char)(x >> 8 * ks) != '.')   /* the bytes at hand, not loaded again */
        return 0;
    size_t d = a + ks + 1;
    y = load8(p + d);
    unsigned kf = lead_digits(y);
    size_t i = d + kf;
    char after = kf < 7 ? (char)(y >> 8 * (kf + 1)) : i + 1 < n ? p[i + 1] : '\0';
    if (!kf || kf == 8 || (char)(y >> 8 * kf) != ':' ||
        (after != ' ' && after != '\n' && after != '\r'))
        return 0;
    l->ts_ns = (int64_t)digits8(x, ks) * 1000000000 + (int64_t)digits8(y, kf) * scale[kf];
    l->ts_off = a;
    l->ts_len = i - a;
    return i;
}
#else
static size_t ts_words(const char *p, size_t n, size_t a, struct pline *l,
                       const int64_t *scale)
{
    (void)p, (void)n, (void)a, (void)l, (void)scale;
    return 0;
}
#endif

/* "SEC.FRAC:" of at most 12 + 9 digits read in one go (the common
 * case); its end (the ':'), or 0 to read it the long way. */
static size_t ts_quick(const char *p, size_t n, size_t a, struct pline *l)
{
    static const int64_t scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                      10000, 1000, 100, 10, 1};
    size_t i = ts_words(p, n, a, l, scale);
    if (i)
        return i;
    int64_t s = 0, f = 0;
    i = a;
    while (i < n && is_digit(p[i]) && i - a < 12)
        s = s * 10 + (p[i++] - '0');
    if (i == a || i >= n || p[i] != '.' || s > INT64_MAX / 1000000000 - 1)
        return 0;   /* no room for it in ns: the long way says so */
    size_t d = ++i;
    while (i < n && is_digit(p[i]) && i - d < 9)
        f = f * 10 + (p[i++] - '0');
    if (i == d || i + 1 >= n || p[i] != ':' || (p[i + 1] != ' ' && p[i + 1] != '\n' &&
                                                p[i + 1] != '\r'))
        return 0;
    l->ts_ns = s * 1000000000 + f * scale[i - d];
    l->ts_off = a;
    l->ts_len = i - a;
    return i;
}

/* A time "SEC.FRAC:" at p[a..): its end (the ':'), or 0. */
static size_t ts_token(const char *p, size_t n, size_t a, struct pline *l)
{
    size_t i = ts_quick(p, n, a, l);
    if (i)
        return i;
    i = a;
    while (i < n && p[i] != ' ' && p[i] != ':')
        i++;
    if (i == a || i + 1 > n || p[i] != ':' || !is_digit(p[a]) ||
        (i + 1 < n && p[i + 1] != ' ' && p[i + 1] != '\n' && p[i + 1] != '\r') ||
        pline_secs_ns(p + a, i - a, &l->ts_ns))
        return 0;
    l->ts_off = a;
    l->ts_len = i - a;
    return i;
}

/* The length of the event at p[i, n) when it is one of the most common
 * (then its ':' follows), else 0: most lines are read without a scan. */
static size_t common_event(const char *p, size_t i, size_t n)
{
    static const struct {
        const char *s;
        size_t n;
    } ev[] = {{"sched_switch:", 13}, {"sched_waking:", 13}, {"sched_wakeup:", 13},
              {"tracing_mark_write:", 19}};
    for (size_t k = 0; k < sizeof(ev) / sizeof(*ev); k++)
        if (i + ev[k].n <= n && p[i + 6] == ev[k].s[6] && !memcmp(p + i, ev[k].s, ev[k].n))
            return ev[k].n - 1;
    return 0;
}

/* The event and body after the time's ':' at colon. */
static int event_body(const char *p, size_t n, size_t colon, struct pline *l)
{
    size_t i = skip_byte(p, colon + 1, n, ' '), e = common_event(p, i, n);
    e = e ? i + e : find_byte2(p, i, n, ':', ' ');
    if (e == i || e >= n || p[e] != ':')
        return -1;
    l->event = p + i;
    l->event_len = e - i;
    e++;
    if (e < n && p[e] == ' ')
        e++;
    l->body_off = e;
    l->body = p + e;
    l->body_len = n - e;
    return 0;
}

/* The part right of "[CPU]": flags, "TS: EVENT: BODY". */
static int right_side(const char *p, size_t n, size_t i, struct pline *l)
{
    size_t colon = 0;
    for (int tok = 0; tok < 2 && !colon; tok++) {
        while (i < n && p[i] == ' ')
            i++;
        if (!(colon = ts_token(p, n, i, l))) {
            while (i < n && p[i] != ' ')
                i++;
        }
    }
    return colon ? event_body(p, n, colon, l) : -1;
}

/* Most lines are in the kernel's own layout, `TASK-TID (TGID) [CPU] FLGS
 * SEC.USEC: EVENT: BODY` with three CPU digits and four flags.  Its first
 * '[' (none before start) begins "[CPU] FLGS SEC.USEC:": its index (the time read, the ':' at
 * *colon), or 0 for another shape. */
static size_t kernel_head(const char *p, size_t n, size_t start, struct pline *l,
                          size_t *colon)
{
    size_t lim = n < 96 ? n : 96, i = find_byte2(p, start, lim, '[', '['), j;
    if (i >= lim || i < 3 || i + 20 > n || !is_digit(p[i + 1]) || !is_digit(p[i + 2]) ||
        !is_digit(p[i + 3]) || p[i + 4] != ']' || p[i + 5] != ' ' || p[i + 6] == ' ' ||
        p[i + 9] == ' ' || p[i + 9] == ':' || p[i + 10] != ' ')
        return 0;
    for (j = i + 11; j < i + 16 && p[j] == ' ';)
        j++;
    return (*colon = ts_quick(p, n, j, l)) ? i : 0;
}

/* That layout read in one go.  1: read (0 or -1 in *rc, as pline_parse
 * returns); 0: another shape, for the general reading below. */
static int kernel_layout(const char *p, size_t n, size_t start, struct pline *l, int *rc)
{
    size_t colon, i = kernel_head(p, n, start, l, &colon);
    if (!i || left_side(p, i, l))
        return 0;
    l->cpu_off = i;
    *rc = event_body(p, n, colon, l);
    return 1;
}

/* The line's end without its LF or CR, its first byte not a space at
 * *start; 0 for a comment or a blank line (that byte is '#', or none). */
static size_t event_end(const char *p, size_t n, size_t *start)
{
    size_t i = *start = skip_byte(p, 0, n, ' ');
    if (i == n || p[i] == '#')
        return 0;
    while (n > i && (p[n - 1] == '\n' || p[n - 1] == '\r'))
        n--;
    return n;
}

int pline_glance(const char *p, size_t n, struct pline *l)
{
    size_t colon, i, start;
    if (!(n = event_end(p, n, &start)) || !(i = kernel_head(p, n, start, l, &colon)) ||
        p[i - 1] != ' ' || (p[i - 2] != ')' && !is_digit(p[i - 2])) || colon + 6 > n ||
        event_body(p, n, colon, l))
        return -1;
    l->cpu_off = i;
    return 0;
}

int pline_parse_rest(const char *p, size_t n, struct pline *l)
{
    return left_side(p, l->cpu_off, l) ? pline_parse(p, n, l) : 0;
}

int pline_parse(const char *p, size_t n, struct pline *l)
{
    size_t i, end = event_end(p, n, &i);    /* one line: a line end only at its end */
    int rc;
    if (!end)
        return -1;
    if (kernel_layout(p, end, i, l, &rc))
        return rc;
    for (const char *b; i < end && (b = memchr(p + i, '[', end - i)); i++) {
        size_t after;
        i = (size_t)(b - p);
        if (!(after = cpu_field(p, end, i)) || left_side(p, i, l))
            continue;
        l->cpu_off = i;
        return right_side(p, end, after, l);
    }
    return -1;
}

int pmark_parse(const char *p, size_t n, struct pmark *m)
{
    memset(m, 0, sizeof(*m));
    m->pid = -1;
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
        n--;
    if (!n || (p[0] != 'B' && p[0] != 'E' && p[0] != 'C' && p[0] != 'S' && p[0] != 'F') ||
        (n > 1 && p[1] != '|'))
        return -1;
    m->kind = p[0];
    if (n < 3)
        return m->kind == 'E' ? 0 : -1;
    const char *q = p + 2, *end = p + n;
    const char *bar = memchr(q, '|', (size_t)(end - q));
    m->pid = digits(q, 0, (size_t)((bar ? bar : end) - q));
    if (!bar)
        return m->kind == 'E' ? 0 : -1;
    m->name = bar + 1;
    m->name_len = (size_t)(end - m->name);
    if (m->kind == 'B' || m->kind == 'E')
        return 0;
    const char *last = m->name + m->name_len;
    while (last > m->name && last[-1] != '|')
        last--;
    if (last == m->name)
        return -1;
    m->last = last;
    m->last_len = (size_t)(end - last);
    m->name_len = (size_t)(last - 1 - m->name);
    return 0;
}

void plines_init(struct plines *s)
{
    dynbuf_init(&s->buf, PLINE_MAX);
    s->overlong = 0;
}

void plines_free(struct plines *s)
{
    dynbuf_free(&s->buf);
}

enum st_err plines_feed(struct plines *s, const void *data, size_t n, pline_fn fn, void *ctx)
{
    const char *p = data;
    enum st_err e = ST_OK;
    while (n && !e) {
        const char *nl = memchr(p, '\n', n);
        size_t k = nl ? (size_t)(nl - p) + 1 : n;
        if (s->overlong) {
            e = fn(ctx, p, k, 0);
            s->overlong = !nl;
        } else if (nl && !s->buf.len) {
            e = fn(ctx, p, k, 1);
        } else if (s->buf.len + k <= PLINE_MAX - 1) {
            e = dynbuf_add(&s->buf, p, k);
            if (!e && nl) {
                e = fn(ctx, s->buf.data, s->buf.len, 1);
                dynbuf_reset(&s->buf);
            }
        } else {            /* too long to look into: on as it is */
            e = fn(ctx, s->buf.data, s->buf.len, 0);
            if (!e)
                e = fn(ctx, p, k, 0);
            dynbuf_reset(&s->buf);
            s->overlong = !nl;
        }
        p += k;
        n -= k;
    }
    return e;
}

enum st_err plines_finish(struct plines *s, pline_fn fn, void *ctx)
{
    enum st_err e = s->buf.len ? fn(ctx, s->buf.data, s->buf.len, 1) : ST_OK;
    dynbuf_reset(&s->buf);
    s->overlong = 0;
    return e;
}
