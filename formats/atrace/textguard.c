/*
 * Event-line watch and over-long lines on trace text; see textguard.h.
 * Writes go through the guard's line cut (linecut.h) first; what it keeps
 * is watched, then written on.
 */
#include "textguard.h"
#include "lib/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linecut.h"

struct tguard {
    struct text_sink out;
    struct lcut *cut;           /* in front of kept() */
    uint64_t max;
    uint64_t total;             /* bytes written */
    int look;                   /* this part wants an event line */
    int found;
    unsigned char head[TGUARD_HEAD];
    size_t hlen;
    int judged;                 /* the current line was looked at */
    char other[TGUARD_SHOW + 1];
    char detail[224];
};

static int digits(const unsigned char *p, size_t n, size_t *i)
{
    size_t s = *i;
    while (*i < n && p[*i] >= '0' && p[*i] <= '9')
        (*i)++;
    return *i > s;
}

/* After "[CPU]": somewhere a "SEC.USEC: " timestamp. */
static int has_timestamp(const unsigned char *p, size_t n, size_t i)
{
    for (size_t k = i; k + 2 < n; k++) {
        size_t m = k;
        if (digits(p, n, &m) && m < n && p[m] == '.' && (m++, digits(p, n, &m)) &&
            m + 1 < n && p[m] == ':' && p[m + 1] == ' ')
            return 1;
    }
    return 0;
}

/* `task-PID [ (TGID) ] [CPU] ... SEC.USEC: event:` */
int tguard_is_event_line(const unsigned char *p, size_t n)
{
    for (size_t b = 1; b < n; b++) {
        if (p[b] != '[')
            continue;
        size_t i = b + 1;
        if (!digits(p, n, &i) || i >= n || p[i] != ']')
            continue;
        size_t j = b;       /* walk back over blanks and a (TGID) group */
        while (j && p[j - 1] == ' ')
            j--;
        if (j && p[j - 1] == ')') {
            while (j && p[j - 1] != '(')
                j--;
            if (!j)
                continue;
            j--;
            while (j && p[j - 1] == ' ')
                j--;
        }
        size_t d = j;
        while (d && p[d - 1] >= '0' && p[d - 1] <= '9')
            d--;
        if (d == j || d < 2 || p[d - 1] != '-')
            continue;
        return has_timestamp(p, n, i);
    }
    return 0;
}

static void remember_other(struct tguard *g, const unsigned char *p, size_t n)
{
    if (g->other[0])
        return;
    size_t k = n < TGUARD_SHOW ? n : TGUARD_SHOW;
    for (size_t i = 0; i < k; i++)
        g->other[i] = p[i] < 0x20 || p[i] == 0x7f ? '?' : (char)p[i];
    g->other[k] = '\0';
}

static void judge(struct tguard *g)
{
    const unsigned char *p = g->head;
    size_t n = g->hlen;
    g->judged = 1;
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
        i++;
    if (i == n || p[i] == '#')
        return;
    if (tguard_is_event_line(p, n))
        g->found = 1;
    else
        remember_other(g, p + i, n - i);
}

/* Collect line heads of [p, p+n) and judge each once. */
static void watch(struct tguard *g, const unsigned char *p, size_t n)
{
    while (n && !g->found) {
        const unsigned char *nl = memchr(p, '\n', n);
        size_t len = nl ? (size_t)(nl - p) : n;
        if (!g->judged) {
            size_t take = TGUARD_HEAD - g->hlen;
            if (take > len)
                take = len;
            memcpy(g->head + g->hlen, p, take);
            g->hlen += take;
            if (nl || g->hlen == TGUARD_HEAD)
                judge(g);
        }
        if (!nl)
            return;
        g->hlen = 0;
        g->judged = 0;
        p = nl + 1;
        n -= len + 1;
    }
}

/* What the cut keeps: watched, then written on. */
static enum st_err kept(void *ctx, const void *p, size_t n)
{
    struct tguard *g = ctx;
    if (g->look && !g->found)
        watch(g, p, n);
    return g->out.write(g->out.ctx, p, n);
}

struct tguard *tguard_new(const struct text_sink *out, uint64_t line_max)
{
    struct tguard *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->out = *out;
    g->max = line_max ? line_max : LCUT_MAX;
    struct text_sink k = {kept, NULL, NULL, g};
    if (!(g->cut = lcut_new(&k, g->max))) {
        free(g);
        return NULL;
    }
    return g;
}

void tguard_free(struct tguard *g)
{
    if (g)
        lcut_free(g->cut);
    free(g);
}

/* A line past the bound in trace text that has shown no event yet (the
 * line's own start judged too): a 2 MB zlib stream of one byte inflates
 * to gigabytes of such a line; stop now rather than read them all. */
static enum st_err not_a_trace(struct tguard *g)
{
    if (!g->judged && g->hlen)
        judge(g);
    if (g->found)
        return ST_OK;
    snprintf(g->detail, sizeof(g->detail),
             "a line of more than %llu MB in the trace text (from byte %llu of it) before "
             "any trace event: the input is corrupt or not a trace; nothing was written",
             (unsigned long long)(g->max >> 20), (unsigned long long)lcut_line_at(g->cut));
    return ST_ETOOBIG;
}

enum st_err tguard_write(void *ctx, const void *buf, size_t n)
{
    struct tguard *g = ctx;
    uint64_t cut = lcut_lines(g->cut);
    g->total += n;
    enum st_err e = lcut_write(g->cut, buf, n);
    if (!e && lcut_lines(g->cut) != cut && g->look)
        e = not_a_trace(g);
    return e;
}

static uint64_t guard_tell(void *ctx)
{
    struct tguard *g = ctx;
    return g->out.tell(g->out.ctx);
}

static enum st_err guard_keep(void *ctx, uint64_t a, uint64_t b)
{
    struct tguard *g = ctx;
    return g->out.keep(g->out.ctx, a, b);
}

void tguard_sink(struct tguard *g, struct text_sink *s)
{
    s->write = tguard_write;
    s->tell = guard_tell;
    s->keep = guard_keep;
    s->ctx = g;
}

void tguard_begin(struct tguard *g, int events)
{
    lcut_begin(g->cut);
    g->look = events;
    g->hlen = 0;
    g->judged = 0;
}

void tguard_end(struct tguard *g)
{
    if (g->look && !g->found && !g->judged && g->hlen)
        judge(g);
    g->look = 0;
}

uint64_t tguard_bytes(const struct tguard *g)
{
    return g->total;
}

int tguard_events(const struct tguard *g)
{
    return g->found;
}

const char *tguard_other_line(const struct tguard *g)
{
    return g->other;
}

uint64_t tguard_cut_lines(const struct tguard *g)
{
    return lcut_lines(g->cut);
}

const char *tguard_detail(const struct tguard *g)
{
    return g->detail;
}
