/* Pure pieces of an Android --stream capture; see streamtext.h. */
#include "streamtext.h"

#include <stdlib.h>
#include <string.h>

const char stext_header[] =
    "# tracer: nop\n"
    "#\n"
    "#                                      _-----=> irqs-off\n"
    "#                                     / _----=> need-resched\n"
    "#                                    | / _---=> hardirq/softirq\n"
    "#                                    || / _--=> preempt-depth\n"
    "#                                    ||| /     delay\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

int stext_head_feed(struct stext_head *h, const char *p, size_t n, size_t *used, long *pid)
{
    *used = 0;
    while (*used < n) {
        char c = p[(*used)++];
        if (c == '\n') {
            size_t len = h->n;
            if (len && h->buf[len - 1] == '\r')
                len--;
            if (!len || len > 10)   /* pids fit in 10 digits */
                return -1;
            long v = 0;
            for (size_t i = 0; i < len; i++) {
                if (h->buf[i] < '0' || h->buf[i] > '9')
                    return -1;
                v = v * 10 + (h->buf[i] - '0');
            }
            *pid = v;
            return v > 0 ? 1 : -1;
        }
        if (h->n + 1 >= sizeof(h->buf))     /* no pid is that long */
            return -1;
        h->buf[h->n++] = c;
    }
    return 0;
}

/* ---- joining dumps ----------------------------------------------------- */

struct djoin {
    st_write_fn out;
    void *ctx;
    unsigned dumps;
    int in_header;          /* at a line start of the current dump's header */
    int keep_header;        /* the first dump's header is the spool's */
    char line[STEXT_LINE_MAX];
    size_t len;
    int line_long;          /* the header line overflowed `line` */
    int long_keep;          /* ... and its rest is passed on */
    int last_nl;            /* the last byte passed on was LF (or none yet) */
    int wrote;
    uint64_t lost;
};

struct djoin *djoin_new(st_write_fn out, void *ctx)
{
    struct djoin *d = calloc(1, sizeof(*d));
    if (d) {
        d->out = out;
        d->ctx = ctx;
        d->last_nl = 1;
    }
    return d;
}

void djoin_free(struct djoin *d)
{
    free(d);
}

static uint64_t digits(const char *p, size_t n, size_t *i, int *ok)
{
    uint64_t v = 0;
    size_t start = *i;
    while (*i < n && p[*i] >= '0' && p[*i] <= '9' && *i - start < 19)
        v = v * 10 + (uint64_t)(p[(*i)++] - '0');
    *ok = *i > start;
    return v;
}

int stext_entries(const char *line, size_t n, uint64_t *in_buffer, uint64_t *written)
{
    static const char key[] = "# entries-in-buffer/entries-written:";
    size_t k = sizeof(key) - 1, i = k;
    if (n < k || memcmp(line, key, k))
        return 0;
    while (i < n && line[i] == ' ')
        i++;
    int ok1, ok2;
    *in_buffer = digits(line, n, &i, &ok1);
    if (!ok1 || i >= n || line[i++] != '/')
        return 0;
    *written = digits(line, n, &i, &ok2);
    return ok2;
}

static enum st_err pass(struct djoin *d, const char *p, size_t n)
{
    if (!n)
        return ST_OK;
    d->wrote = 1;
    d->last_nl = p[n - 1] == '\n';
    return d->out(d->ctx, p, n);
}

/* `##### CPU N buffer started ####` is trace, even inside a header. */
static int is_header_line(const char *p, size_t n)
{
    return n && p[0] == '#' && !(n >= 5 && !memcmp(p, "#####", 5));
}

/* A complete header line (line[0..len), its LF not included). */
static enum st_err header_line(struct djoin *d, int has_nl)
{
    if (!is_header_line(d->line, d->len)) {
        d->in_header = 0;
        enum st_err e = pass(d, d->line, d->len);
        return e ? e : pass(d, "\n", has_nl);
    }
    uint64_t a, b;
    if (stext_entries(d->line, d->len, &a, &b) && b > a)
        d->lost += b - a;
    if (!d->keep_header)
        return ST_OK;
    enum st_err e = pass(d, d->line, d->len);
    return e ? e : pass(d, "\n", has_nl);
}

/* A header line too long for the carry: decided by its start, its rest
 * passed on or dropped as it comes. */
static enum st_err long_line(struct djoin *d)
{
    d->line_long = 1;
    d->long_keep = !is_header_line(d->line, d->len) || d->keep_header;
    if (!is_header_line(d->line, d->len))
        d->in_header = 0;
    enum st_err e = d->long_keep ? pass(d, d->line, d->len) : ST_OK;
    d->len = 0;
    return e;
}

static enum st_err header_bytes(struct djoin *d, const char *p, size_t n, size_t *used)
{
    size_t from = 0;    /* where this chunk's part of a long line starts */
    for (size_t i = 0; i < n; i++) {
        enum st_err e;
        if (!d->line_long && d->len == sizeof(d->line) && p[i] != '\n') {
            if ((e = long_line(d)))
                return e;
            from = i;
        }
        if (p[i] == '\n') {
            *used = i + 1;
            if (d->line_long)
                e = d->long_keep ? pass(d, p + from, i + 1 - from) : ST_OK;
            else
                e = header_line(d, 1);
            d->len = 0;
            d->line_long = 0;
            return e;
        }
        if (!d->line_long)
            d->line[d->len++] = p[i];
    }
    *used = n;
    return d->line_long && d->long_keep ? pass(d, p + from, n - from) : ST_OK;
}

enum st_err djoin_write(void *ctx, const void *p, size_t n)
{
    struct djoin *d = ctx;
    const char *s = p;
    while (n && d->in_header) {
        size_t used = 0;
        enum st_err e = header_bytes(d, s, n, &used);
        if (e)
            return e;
        s += used;
        n -= used;
    }
    return pass(d, s, n);
}

void djoin_next(struct djoin *d)
{
    d->dumps++;
    d->in_header = 1;
    d->keep_header = d->dumps == 1;
    d->len = 0;
    d->line_long = 0;
}

enum st_err djoin_end(struct djoin *d)
{
    enum st_err e = ST_OK;
    if (d->in_header && d->len && !d->line_long)
        e = header_line(d, 0);
    d->in_header = 0;
    d->len = 0;
    d->line_long = 0;
    if (!e && d->wrote && !d->last_nl)
        e = pass(d, "\n", 1);
    return e;
}

uint64_t djoin_lost(const struct djoin *d)
{
    return d->lost;
}

unsigned djoin_dumps(const struct djoin *d)
{
    return d->dumps;
}

/* ---- counting what is spooled ------------------------------------------ */

struct slines {
    st_write_fn out;
    void *ctx;
    int mid;                    /* inside a line already classified */
    char head[STEXT_HEAD_MAX];  /* a line start not yet classified */
    size_t hlen;
    uint64_t events, lost, lost_lines;
};

struct slines *slines_new(st_write_fn out, void *ctx)
{
    struct slines *l = calloc(1, sizeof(*l));
    if (l) {
        l->out = out;
        l->ctx = ctx;
    }
    return l;
}

void slines_free(struct slines *l)
{
    free(l);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

long long stext_lost(const char *p, size_t n)
{
    if (n > STEXT_HEAD_MAX)
        n = STEXT_HEAD_MAX;
    size_t i = 4;
    if (n < 4 || memcmp(p, "CPU:", 4))
        return -1;
    while (i < n && is_digit(p[i]))
        i++;
    static const char lost[] = " [LOST ", none[] = "EVENTS]";
    if (i == 4 || n - i < sizeof(lost) - 1 || memcmp(p + i, lost, sizeof(lost) - 1))
        return -1;
    i += sizeof(lost) - 1;
    if (n - i >= sizeof(none) - 1 && !memcmp(p + i, none, sizeof(none) - 1))
        return 0;
    long long v = 0;
    size_t d = i;
    while (i < n && is_digit(p[i]) && i - d < 18)
        v = v * 10 + (p[i++] - '0');
    static const char tail[] = " EVENTS]";
    if (i == d || n - i < sizeof(tail) - 1 || memcmp(p + i, tail, sizeof(tail) - 1))
        return -1;
    return v;
}

/* Decide about the line starting at p (n bytes of it, up to its LF or the
 * head's size): counted, and a LOST line prefixed with "# ". */
static enum st_err classify(struct slines *l, const char *p, size_t n)
{
    long long lost = stext_lost(p, n);
    l->mid = 1;
    if (lost >= 0) {
        l->lost += (uint64_t)lost;
        l->lost_lines++;
        return l->out(l->ctx, "# ", 2);
    }
    if (n && p[0] != '#' && p[0] != '\n' && !(p[0] == '\r' && n > 1 && p[1] == '\n'))
        l->events++;
    return ST_OK;
}

/* Complete the held line start with bytes of p: *used of them taken. */
static enum st_err fill_head(struct slines *l, const char *p, size_t n, size_t *used)
{
    size_t k = STEXT_HEAD_MAX - l->hlen;
    const char *nl = memchr(p, '\n', n);
    size_t want = nl ? (size_t)(nl - p) + 1 : n;
    *used = want < k ? want : k;
    memcpy(l->head + l->hlen, p, *used);
    l->hlen += *used;
    if (l->hlen < STEXT_HEAD_MAX && l->head[l->hlen - 1] != '\n')
        return ST_OK;   /* still undecided */
    enum st_err e = classify(l, l->head, l->hlen);
    if (!e)
        e = l->out(l->ctx, l->head, l->hlen);
    l->mid = l->head[l->hlen - 1] != '\n';
    l->hlen = 0;
    return e;
}

enum st_err slines_write(void *ctx, const void *buf, size_t n)
{
    struct slines *l = ctx;
    const char *p = buf, *end = p + n;
    if (l->hlen) {
        size_t used;
        enum st_err e = fill_head(l, p, n, &used);
        if (e || l->hlen)
            return e;
        p += used;
    }
    const char *run = p;
    while (p < end) {
        if (l->mid) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break;
            p = nl + 1;
            l->mid = 0;
            continue;
        }
        size_t left = (size_t)(end - p);
        const char *nl = memchr(p, '\n', left < STEXT_HEAD_MAX ? left : STEXT_HEAD_MAX);
        if (!nl && left < STEXT_HEAD_MAX) {     /* undecided: hold it */
            enum st_err e = run < p ? l->out(l->ctx, run, (size_t)(p - run)) : ST_OK;
            memcpy(l->head, p, left);
            l->hlen = left;
            return e;
        }
        size_t hn = nl ? (size_t)(nl - p) + 1 : STEXT_HEAD_MAX;
        if (stext_lost(p, hn) >= 0 && run < p) {
            enum st_err e = l->out(l->ctx, run, (size_t)(p - run));
            if (e)
                return e;
            run = p;
        }
        enum st_err e = classify(l, p, hn);
        if (e)
            return e;
        if (nl) {
            p = nl + 1;
            l->mid = 0;
        } else {
            p += hn;
        }
    }
    return run < end ? l->out(l->ctx, run, (size_t)(end - run)) : ST_OK;
}

enum st_err slines_finish(struct slines *l)
{
    if (!l->hlen)
        return ST_OK;
    enum st_err e = classify(l, l->head, l->hlen);
    if (!e)
        e = l->out(l->ctx, l->head, l->hlen);
    l->hlen = 0;
    return e;
}

uint64_t slines_events(const struct slines *l)
{
    return l->events;
}

uint64_t slines_lost(const struct slines *l)
{
    return l->lost;
}

uint64_t slines_lost_lines(const struct slines *l)
{
    return l->lost_lines;
}
