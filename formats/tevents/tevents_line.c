/*
 * Parsers of ftrace text for the trace-event converter (tevents.h): the
 * event line, atrace payloads, sched_switch, sched_wakeup/sched_waking and
 * `key=N` args.  Pure,
 * bounded, each advancing an index within its length.
 *
 * The line grammar is Perfetto's systrace tokenizer (a partial match of
 *   -(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*
 *   ([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):
 * at the leftmost '-' where it matches; the task is what precedes it,
 * trimmed), written out by hand: the optional pieces are tried greedily,
 * the flags field with five, four or no characters.
 */
#include <string.h>

#include "tevents.h"

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

static int is_dig(char c)
{
    return c >= '0' && c <= '9';
}

/* Unsigned decimal at p[*i]; at least one digit, at most max. */
static int read_u64(const char *p, size_t n, size_t *i, uint64_t max, uint64_t *out)
{
    size_t s = *i;
    uint64_t v = 0;
    while (*i < n && is_dig(p[*i])) {
        unsigned d = (unsigned)(p[*i] - '0');
        if (v > (max - d) / 10)
            return 0;
        v = v * 10 + d;
        (*i)++;
    }
    *out = v;
    return *i > s;
}

/* SEC.FRAC -> ns; fraction digits past nine are read and ignored. */
static int read_ts(const char *p, size_t n, size_t *i, uint64_t *ns)
{
    uint64_t sec;
    if (!read_u64(p, n, i, 18000000000ull, &sec) || *i >= n || p[*i] != '.')
        return 0;
    (*i)++;
    size_t s = *i;
    uint64_t frac = 0;
    int digits = 0;
    while (*i < n && is_dig(p[*i])) {
        if (digits < 9) {
            frac = frac * 10 + (uint64_t)(p[*i] - '0');
            digits++;
        }
        (*i)++;
    }
    if (*i == s)
        return 0;
    for (; digits < 9; digits++)
        frac *= 10;
    *ns = sec * 1000000000ull + frac;
    return 1;
}

static int flag_head(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.';
}

static int flag_tail(char c)
{
    return is_dig(c) || (c >= 'a' && c <= 'f') || c == '.';
}

/* `(\d+\.\d+):\s+(\S+):` at i; fills ts, event, args. */
static int tail_at(const char *p, size_t n, size_t i, struct tev_line *l)
{
    if (!read_ts(p, n, &i, &l->ts_ns) || i >= n || p[i] != ':')
        return 0;
    i++;
    size_t s = i;
    while (i < n && is_ws(p[i]))
        i++;
    if (i == s || i >= n)
        return 0;
    size_t tok = i;
    while (i < n && !is_ws(p[i]))
        i++;
    /* \S+ then ':' : the longest prefix of the token followed by ':' */
    size_t colon = i;
    while (colon > tok && p[colon - 1] != ':')
        colon--;
    if (colon <= tok + 1)
        return 0;
    l->event = p + tok;
    l->event_len = colon - 1 - tok;
    size_t a = colon;
    while (a < n && is_ws(p[a]))
        a++;
    l->args = p + a;
    l->args_len = n - a;
    return 1;
}

/* After `]`: optional flags of 5 or 4 characters, then the timestamp. */
static int after_cpu(const char *p, size_t n, size_t i, struct tev_line *l)
{
    while (i < n && is_ws(p[i]))
        i++;
    for (size_t len = 5; len >= 4; len--) {
        if (n - i < len)
            continue;
        size_t k = 0;
        while (k < 3 && flag_head(p[i + k]))
            k++;
        while (k >= 3 && k < len && flag_tail(p[i + k]))
            k++;
        if (k != len)
            continue;
        size_t j = i + len;
        while (j < n && is_ws(p[j]))
            j++;
        if (tail_at(p, n, j, l))
            return 1;
    }
    return tail_at(p, n, i, l);
}

static int match_at(const char *p, size_t n, size_t i, struct tev_line *l)
{
    uint64_t v;
    i++;
    if (!read_u64(p, n, &i, UINT32_MAX, &v))
        return 0;
    l->tid = (uint32_t)v;
    size_t s = i;
    while (i < n && is_ws(p[i]))
        i++;
    if (i == s)
        return 0;
    if (i < n && p[i] == '(')
        i++;
    while (i < n && is_ws(p[i]))
        i++;
    l->tgid = -1;
    if (i < n && is_dig(p[i])) {
        if (!read_u64(p, n, &i, UINT32_MAX, &v))
            return 0;
        l->tgid = (int64_t)v;
    } else {
        while (i < n && p[i] == '-')
            i++;
    }
    if (i < n && p[i] == ')')
        i++;
    if (i < n && is_ws(p[i]))
        i++;
    if (i >= n || p[i] != '[')
        return 0;
    i++;
    if (!read_u64(p, n, &i, UINT32_MAX, &v) || i >= n || p[i] != ']')
        return 0;
    l->cpu = (uint32_t)v;
    return after_cpu(p, n, i + 1, l);
}

int tev_parse_line_general(const char *p, size_t n, struct tev_line *l)
{
    for (const char *d = memchr(p, '-', n); d; d = memchr(d + 1, '-', n - (size_t)(d + 1 - p))) {
        size_t i = (size_t)(d - p);
        if (!match_at(p, n, i, l))
            continue;
        size_t a = 0, b = i;
        while (a < b && is_ws(p[a]))
            a++;
        while (b > a && is_ws(p[b - 1]))
            b--;
        l->task = p + a;
        l->task_len = b - a;
        return 1;
    }
    return 0;
}

int tev_parse_line(const char *p, size_t n, struct tev_line *l)
{
    return tev_parse_line_std(p, n, l) || tev_parse_line_general(p, n, l);
}

/* ---- atrace payloads ------------------------------------------------- */

static int read_i64(const char *p, size_t n, int64_t *out)
{
    size_t i = 0;
    int neg = n && p[0] == '-';
    if (neg)
        i++;
    uint64_t v;
    if (!read_u64(p, n, &i, (uint64_t)INT64_MAX, &v) || i != n)
        return 0;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 1;
}

/* Next '|'-separated field of p[*i, n); the last one runs to n. */
static int field(const char *p, size_t n, size_t *i, const char **f, size_t *flen, int last)
{
    if (*i > n)
        return 0;
    const char *bar = last ? NULL : memchr(p + *i, '|', n - *i);
    size_t e = bar ? (size_t)(bar - p) : n;
    *f = p + *i;
    *flen = e - *i;
    *i = e + 1;
    return 1;
}

int tev_parse_mark(const char *p, size_t n, struct tev_mark *m)
{
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\0' || p[n - 1] == '\r'))
        n--;
    if (!n || !strchr("BECSFI", p[0]) || (n > 1 && p[1] != '|'))
        return 0;
    memset(m, 0, sizeof(*m));
    m->phase = p[0];
    m->tgid = -1;
    if (n == 1)
        return m->phase == 'E';
    size_t i = 2;
    const char *f;
    size_t fl;
    int64_t v;
    field(p, n, &i, &f, &fl, m->phase == 'E');
    if (read_i64(f, fl, &v) && v >= 0)
        m->tgid = v;
    else if (m->phase != 'E')
        return 0;
    if (m->phase == 'E')
        return 1;
    if (m->phase == 'B' || m->phase == 'I')
        return field(p, n, &i, &m->name, &m->name_len, 1);
    /* C|tgid|name|value[|category], S|tgid|name|cookie: the name is what
     * lies between the tgid and the last (C: first) '|' that follows */
    if (i > n)
        return 0;
    const char *rest = p + i;
    size_t rl = n - i;
    const char *bar = NULL;
    if (m->phase == 'C') {
        bar = memchr(rest, '|', rl);
    } else {
        for (size_t k = rl; k > 0; k--)
            if (rest[k - 1] == '|') {
                bar = rest + k - 1;
                break;
            }
    }
    if (!bar)
        return 0;
    m->name = rest;
    m->name_len = (size_t)(bar - rest);
    m->value = bar + 1;
    m->value_len = rl - m->name_len - 1;
    if (m->phase == 'C') {
        const char *cat = memchr(m->value, '|', m->value_len);
        if (cat)
            m->value_len = (size_t)(cat - m->value);
        return read_i64(m->value, m->value_len, &m->num);
    }
    return m->value_len > 0;
}

/* ---- args ------------------------------------------------------------ */

/* Offset of " key=" or a leading "key=" in args; n if absent. */
static size_t find_key(const char *a, size_t n, const char *key, size_t from)
{
    size_t kl = strlen(key);
    for (size_t i = from; i + kl + 1 <= n; i++) {
        if ((i == 0 || a[i - 1] == ' ') && !memcmp(a + i, key, kl) && a[i + kl] == '=')
            return i;
    }
    return n;
}

/* Offset of the last " key=" in args (not at 0); n if absent. */
static size_t last_key(const char *a, size_t n, const char *key)
{
    size_t at = n;
    for (size_t i = find_key(a, n, key, 1); i < n; i = find_key(a, n, key, i + 1))
        at = i;
    return at;
}

int tev_arg_u64(const char *args, size_t n, const char *key, uint64_t *v)
{
    size_t i = find_key(args, n, key, 0);
    if (i == n)
        return 0;
    i += strlen(key) + 1;
    return read_u64(args, n, &i, UINT64_MAX, v) && (i == n || args[i] == ' ');
}

int tev_parse_switch(const char *args, size_t n, struct tev_switch *s)
{
    memset(s, 0, sizeof(*s));
    const char *arrow = NULL;
    for (size_t i = 0; i + 5 <= n; i++)
        if (!memcmp(args + i, " ==> ", 5)) {
            arrow = args + i;
            break;
        }
    if (!arrow)
        return 0;
    size_t left = (size_t)(arrow - args);
    uint64_t v;
    if (!tev_arg_u64(args, left, "prev_pid", &v) || v > UINT32_MAX)
        return 0;
    s->prev_pid = (uint32_t)v;
    size_t at = last_key(args, left, "prev_pid");
    if (left >= 10 && !memcmp(args, "prev_comm=", 10) && at > 10) {
        s->prev_comm = args + 10;
        s->prev_comm_len = at - 1 - 10;
    }
    const char *r = arrow + 5;
    size_t rn = n - left - 5;
    if (rn < 10 || memcmp(r, "next_comm=", 10))
        return 0;
    /* the comm runs to the last " next_pid=" */
    size_t pid_at = last_key(r, rn, "next_pid");
    if (pid_at == rn || pid_at < 11)
        return 0;
    s->next_comm = r + 10;
    s->next_comm_len = pid_at - 1 - 10;
    size_t i = pid_at + 9;
    if (!read_u64(r, rn, &i, UINT32_MAX, &v))
        return 0;
    s->next_pid = (uint32_t)v;
    return 1;
}

int tev_parse_wakeup(const char *args, size_t n, const char **comm, size_t *comm_len,
                     uint32_t *pid)
{
    size_t at = last_key(args, n, "pid");
    uint64_t v;
    size_t i = at + 4;
    if (n < 5 || memcmp(args, "comm=", 5) || at == n || at < 6 ||
        !read_u64(args, n, &i, UINT32_MAX, &v) || (i < n && args[i] != ' '))
        return 0;
    *comm = args + 5;
    *comm_len = at - 1 - 5;
    *pid = (uint32_t)v;
    return 1;
}
