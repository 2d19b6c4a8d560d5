/* The time a trace's text covers; see coverage.h. */
#include "coverage.h"

#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int coverage_cpu_marker(const void *line, size_t n)
{
    const unsigned char *p = line;
    size_t i = 0;
    while (i < n && p[i] == '#')
        i++;
    if (!i || n - i < 5 || memcmp(p + i, " CPU ", 5))
        return 0;
    i += 5;
    size_t d = i;
    while (i < n && is_digit(p[i]))
        i++;
    static const char tail[] = " buffer started";
    return i > d && n - i >= sizeof(tail) - 1 && !memcmp(p + i, tail, sizeof(tail) - 1);
}

void coverage_init(struct coverage *cv)
{
    memset(cv, 0, sizeof(*cv));
}

/* `SEC.FRAC` in p[b, e): 1-12 digits, a dot, 1-9 digits. */
static int parse_ts(const char *p, size_t b, size_t e, uint64_t *ns)
{
    size_t dot = b;
    while (dot < e && p[dot] != '.')
        dot++;
    if (dot == b || dot == e || dot - b > 12 || e - dot - 1 < 1 || e - dot - 1 > 9)
        return -1;
    uint64_t s = 0, f = 0;
    for (size_t i = b; i < dot; i++)
        s = s * 10 + (uint64_t)(p[i] - '0');
    size_t k = 0;
    for (size_t i = dot + 1; i < e; i++, k++) {
        if (!is_digit(p[i]))
            return -1;
        f = f * 10 + (uint64_t)(p[i] - '0');
    }
    for (; k < 9; k++)
        f *= 10;
    *ns = s * 1000000000u + f;
    return 0;
}

/* The first `: ` (or a final `:`) preceded by a blank and digits.dot.digits:
 * task names may hold `:` (kworker/0:1, Binder:12_3), never followed by a
 * blank before the timestamp's. */
int coverage_line_ts(const char *p, size_t n, uint64_t *ns)
{
    if (n > COVERAGE_SCAN_MAX)
        n = COVERAGE_SCAN_MAX;
    for (size_t i = 1; i < n; i++) {
        if (p[i] != ':' || (i + 1 < n && p[i + 1] != ' '))
            continue;
        size_t b = i;
        while (b > 0 && (is_digit(p[b - 1]) || p[b - 1] == '.'))
            b--;
        if (b == i || b == 0 || (p[b - 1] != ' ' && p[b - 1] != '\t'))
            continue;
        if (!parse_ts(p, b, i, ns))
            return 0;
    }
    return -1;
}

void coverage_line(struct coverage *cv, const char *p, size_t n)
{
    if (n && p[0] == '#') {
        if (coverage_cpu_marker(p, n) && cv->have) {
            cv->have = 0;   /* the cut keeps what follows the last one */
            cv->cut = 1;
        }
        return;
    }
    uint64_t ts;
    if (coverage_line_ts(p, n, &ts))
        return;
    cv->events++;
    if (!cv->have) {
        cv->have = 1;
        cv->first_ns = cv->last_ns = ts;
    }
    if (ts > cv->last_ns)
        cv->last_ns = ts;
    if (ts < cv->first_ns)      /* CPUs interleave by a few µs */
        cv->first_ns = ts;
}

double coverage_seconds(const struct coverage *cv)
{
    return cv->have ? (double)(cv->last_ns - cv->first_ns) / 1e9 : 0;
}

int coverage_short(double kept_s, double traced_s, int buf_kb, int *suggest_kb)
{
    if (!(traced_s > 0) || kept_s < 0 || kept_s >= traced_s * 0.8 ||
        traced_s - kept_s < 0.5 || buf_kb <= 0)
        return 0;
    double want = kept_s > 0 ? (double)buf_kb * traced_s / kept_s * 1.25
                             : (double)COVERAGE_SUGGEST_MAX;
    long kb = 1;
    while (kb < COVERAGE_SUGGEST_MAX && ((double)kb < want || kb < 2L * buf_kb))
        kb *= 2;
    *suggest_kb = (int)kb;
    return 1;
}
