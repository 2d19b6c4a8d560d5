/*
 * The few ftrace lines the app-profile alignment needs (align.h):
 *
 *   <task>-<tid> [(<tgid>)] [<cpu>] [<flags>] <sec>.<frac>: tracing_mark_write: B|<pid>|<name>
 *   ... tracing_mark_write: trace_event_clock_sync: parent_ts=<float>
 *   ... tracing_mark_write: trace_event_clock_sync: realtime_ts=<int>
 *
 * The task name may hold spaces and dashes, so the line is read backwards
 * from the event name: timestamp, then tokens up to the `[cpu]` one, an
 * optional `(tgid)`, and the task token's trailing `-<tid>`.  Anything
 * that does not fit is ALIGN_L_OTHER; no allocation, bounded work.
 */
#include "align.h"
#include "lib/plat.h"

#include <stdlib.h>
#include <string.h>

static const char mark[] = ": tracing_mark_write: ";
static const char sync_parent[] = "trace_event_clock_sync: parent_ts=";
static const char sync_real[] = "trace_event_clock_sync: realtime_ts=";

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Unsigned decimal of 1..18 digits at p[0..n); -1 if not that. */
static int64_t parse_dec(const char *p, size_t n)
{
    if (!n || n > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(p[i]))
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

/* `<sec>.<frac>` ending at p[end) (exclusive); start of it in *start. */
static int parse_ts(const char *p, size_t end, size_t *start, int64_t *us)
{
    size_t i = end, dot = 0;
    while (i > 0 && (is_digit(p[i - 1]) || p[i - 1] == '.')) {
        if (p[i - 1] == '.') {
            if (dot)
                return -1;
            dot = i - 1;
        }
        i--;
    }
    if (!dot || dot == i || end - dot - 1 < 1 || end - dot - 1 > 9)
        return -1;
    int64_t sec = parse_dec(p + i, dot - i);
    if (sec < 0 || sec > 1000000000)
        return -1;
    size_t nf = end - dot - 1;
    int64_t frac = parse_dec(p + dot + 1, nf);
    if (frac < 0)
        return -1;
    for (size_t k = nf; k < 6; k++)
        frac *= 10;
    for (size_t k = 6; k < nf; k++)
        frac /= 10;
    *start = i;
    *us = sec * 1000000 + frac;
    return 0;
}

/* The tid of the task field, reading backwards from `end`. */
static int parse_task(const char *p, size_t end, int64_t *tid)
{
    size_t i = end;
    int seen_cpu = 0;
    for (int tok = 0; tok < 5; tok++) {
        while (i > 0 && is_blank(p[i - 1]))
            i--;
        size_t e = i;
        while (i > 0 && !is_blank(p[i - 1]))
            i--;
        if (i == e)
            return -1;
        if (!seen_cpu) {
            seen_cpu = p[i] == '[' && p[e - 1] == ']';
            continue;
        }
        if (p[e - 1] == ')') {
            /* the TGID column, "(-----)" or padded "( 2502)" */
            size_t lim = e > 16 ? e - 16 : 0;
            while (i > lim && p[i] != '(')
                i--;
            if (p[i] != '(')
                return -1;
            continue;
        }
        size_t d = e;
        while (d > i && is_digit(p[d - 1]))
            d--;
        if (d == e || d == i || p[d - 1] != '-')
            return -1;
        *tid = parse_dec(p + d, e - d);
        return *tid < 0 ? -1 : 0;
    }
    return -1;
}

static int starts(const char *p, size_t n, const char *lit, size_t len)
{
    return n >= len && !memcmp(p, lit, len);
}

static enum align_kind payload(const char *p, size_t n, struct align_line *out)
{
    if (starts(p, n, "B|", 2)) {
        size_t i = 2;
        while (i < n && is_digit(p[i]))
            i++;
        if (i == 2 || (i < n && p[i] != '|'))
            return ALIGN_L_OTHER;
        out->pid = parse_dec(p + 2, i - 2);
        return out->pid < 0 ? ALIGN_L_OTHER : ALIGN_L_BEGIN;
    }
    if (starts(p, n, sync_real, sizeof(sync_real) - 1)) {
        size_t a = sizeof(sync_real) - 1, i = a;
        while (i < n && is_digit(p[i]))
            i++;
        out->realtime_ms = parse_dec(p + a, i - a);
        return out->realtime_ms < 0 ? ALIGN_L_OTHER : ALIGN_L_REALTIME_TS;
    }
    if (starts(p, n, sync_parent, sizeof(sync_parent) - 1)) {
        size_t a = sizeof(sync_parent) - 1, i = a;
        char num[40];
        while (i < n && i - a < sizeof(num) - 1 && (is_digit(p[i]) || p[i] == '.'))
            i++;
        if (i == a || !is_digit(p[a]))
            return ALIGN_L_OTHER;
        memcpy(num, p + a, i - a);
        num[i - a] = '\0';
        char *end;
        out->parent_s = strtod(num, &end);
        return *end || !(out->parent_s >= 0 && out->parent_s < 1e9) ? ALIGN_L_OTHER
                                                                    : ALIGN_L_PARENT_TS;
    }
    return ALIGN_L_OTHER;
}

enum align_kind align_parse_line(const char *p, size_t n, struct align_line *out)
{
    memset(out, 0, sizeof(*out));
    if (n < sizeof(mark))
        return ALIGN_L_OTHER;
    const char *m = memmem(p, n, mark, sizeof(mark) - 1);
    if (!m)
        return ALIGN_L_OTHER;
    size_t at = (size_t)(m - p), ts_start;
    size_t rest = at + sizeof(mark) - 1;
    enum align_kind k = payload(p + rest, n - rest, out);
    if (k == ALIGN_L_OTHER || parse_ts(p, at, &ts_start, &out->ts_us) ||
        parse_task(p, ts_start, &out->tid)) {
        memset(out, 0, sizeof(*out));
        return ALIGN_L_OTHER;
    }
    out->kind = k;
    return k;
}
