/*
 * The summary's JSON read back as metrics (sumread.h): a small bounded
 * JSON reader (RFC 8259; nesting at most SR_DEPTH deep) that walks the
 * summary's shape and names each number it keeps.  An array item's
 * numbers are held until the item ends, since its name may follow them
 * (pid comes before name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sumread.h"

#define SR_DEPTH 16
#define SR_ITEM_MAX 32          /* numbers kept per array item */
#define SR_STR 256

struct sr {
    const char *p, *start, *end;
    void (*metric)(void *ctx, const char *name, double v);
    void (*part)(void *ctx, const char *name, const char *dim, double v);
    void *ctx;
    char *err;
    size_t errn;
    int failed;
};

static const char *const top_skip[] = {"start_s", "duration_s", "cpus", "events", "lost_events",
                                       "sched_switch_events", "frame_budget_ms", "display_hz",
                                       "vsync_period_ms", "dropped", "event_counts", NULL};
static const char *const item_skip[] = {"pid", "ts", "cpu_pct", "worst_at_s", NULL};

static int listed(const char *const *l, const char *k)
{
    for (; *l; l++)
        if (!strcmp(*l, k))
            return 1;
    return 0;
}

static int fail(struct sr *r, const char *what)
{
    if (!r->failed)
        snprintf(r->err, r->errn, "not a summary's JSON: %s at byte %zu", what,
                 (size_t)(r->p - r->start));
    r->failed = 1;
    return -1;
}

static void ws(struct sr *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
        r->p++;
}

static int eat(struct sr *r, char c)
{
    ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return 1;
    }
    return 0;
}

/* A string into out (cut to SR_STR - 1; escapes other than the simple
 * ones and non-ASCII become '?', as the summary writes them). */
static int string(struct sr *r, char *out)
{
    size_t o = 0;
    if (!eat(r, '"'))
        return fail(r, "a string expected");
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if ((unsigned char)c < 0x20)
            return fail(r, "a control character in a string");
        if (c == '\\') {
            if (r->p >= r->end)
                break;
            c = *r->p++;
            if (c == 'u') {
                if (r->end - r->p < 4)
                    return fail(r, "a short \\u escape");
                r->p += 4;
                c = '?';
            } else if (c == 'n' || c == 't' || c == 'r' || c == 'b' || c == 'f') {
                c = ' ';
            } else if (c != '"' && c != '\\' && c != '/') {
                return fail(r, "a bad escape");
            }
        }
        if (o + 1 < SR_STR)
            out[o++] = c;
    }
    out[o] = '\0';
    if (r->p >= r->end)
        return fail(r, "an unterminated string");
    r->p++;
    return 0;
}

static int number(struct sr *r, double *v)
{
    ws(r);
    char *e;
    *v = strtod(r->p, &e);
    if (e == r->p || e > r->end)
        return fail(r, "a number expected");
    r->p = e;
    return 0;
}

static int literal(struct sr *r)
{
    static const char *const lits[] = {"true", "false", "null"};
    ws(r);
    for (int i = 0; i < 3; i++) {
        size_t k = strlen(lits[i]);
        if ((size_t)(r->end - r->p) >= k && !memcmp(r->p, lits[i], k)) {
            r->p += k;
            return 0;
        }
    }
    return fail(r, "a value expected");
}

static int skip_value(struct sr *r, int depth);

static int skip_members(struct sr *r, int depth, char close, int keyed)
{
    char k[SR_STR];
    if (eat(r, close))
        return 0;
    do {
        if (keyed && (string(r, k) || !eat(r, ':')))
            return fail(r, "a member expected");
        if (skip_value(r, depth + 1))
            return -1;
    } while (eat(r, ','));
    return eat(r, close) ? 0 : fail(r, "',' or a closing bracket expected");
}

static int skip_value(struct sr *r, int depth)
{
    char s[SR_STR];
    double v;
    if (depth > SR_DEPTH)
        return fail(r, "nesting too deep");
    ws(r);
    if (r->p >= r->end)
        return fail(r, "the end too early");
    if (eat(r, '{'))
        return skip_members(r, depth, '}', 1);
    if (eat(r, '['))
        return skip_members(r, depth, ']', 0);
    if (*r->p == '"')
        return string(r, s);
    if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
        return number(r, &v);
    return literal(r);
}

static int is_number(struct sr *r)
{
    ws(r);
    return r->p < r->end && (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'));
}

/* dim: the list item's label (a process or slice name), else "". */
static void emit(struct sr *r, const char *dim, const char *a, const char *b, const char *c,
                 double v)
{
    char name[SUMREAD_NAME_MAX];
    snprintf(name, sizeof(name), "%s%s%s%s%s", a, b[0] ? "." : "", b, c[0] ? "." : "", c);
    if (r->part)
        r->part(r->ctx, name, dim, v);
    else
        r->metric(r->ctx, name, v);
}

struct item {
    char keys[SR_ITEM_MAX][64];
    double vals[SR_ITEM_MAX];
    int n;
    char label[SR_STR];
    double pid;
    int have_pid;
};

static void item_add(struct item *it, const char *group, const char *k, double v)
{
    if (listed(item_skip, k) || it->n == SR_ITEM_MAX)
        return;
    /* cut: no summary key is that long */
    snprintf(it->keys[it->n], sizeof(it->keys[0]), "%s%s%s", group, group[0] ? "." : "", k);
    it->vals[it->n++] = v;
}

/* An object inside an item (a startup's main_thread_ms, slices_ms): its
 * numbers as GROUP.FIELD; deeper values skipped. */
static int item_group(struct sr *r, struct item *it, const char *group, int depth)
{
    char k[SR_STR];
    if (eat(r, '}'))
        return 0;
    do {
        if (string(r, k) || !eat(r, ':'))
            return fail(r, "a member expected");
        if (is_number(r)) {
            double v;
            if (number(r, &v))
                return -1;
            item_add(it, group, k, v);
        } else if (skip_value(r, depth + 1)) {
            return -1;
        }
    } while (eat(r, ','));
    return eat(r, '}') ? 0 : fail(r, "',' or '}' expected");
}

/* One object of a list: its numbers, then named by its label (a name,
 * process or package; else the pid). */
static int list_item(struct sr *r, const char *list, int depth)
{
    struct item it;
    char k[SR_STR];
    it.n = 0;
    it.label[0] = '\0';
    it.have_pid = 0;
    if (!eat(r, '{'))
        return skip_value(r, depth);
    if (!eat(r, '}')) {
        do {
            if (string(r, k) || !eat(r, ':'))
                return fail(r, "a member expected");
            ws(r);
            if ((!strcmp(k, "name") || !strcmp(k, "process") || !strcmp(k, "package")) &&
                r->p < r->end &&
                *r->p == '"') {
                if (string(r, it.label))
                    return -1;
            } else if (is_number(r)) {
                double v;
                if (number(r, &v))
                    return -1;
                if (!strcmp(k, "pid")) {
                    it.pid = v;
                    it.have_pid = 1;
                }
                item_add(&it, "", k, v);
            } else if (eat(r, '{')) {
                if (item_group(r, &it, k, depth + 1))
                    return -1;
            } else if (skip_value(r, depth + 1)) {
                return -1;
            }
        } while (eat(r, ','));
        if (!eat(r, '}'))
            return fail(r, "',' or '}' expected");
    }
    if (!it.label[0] && it.have_pid)
        snprintf(it.label, sizeof(it.label), "pid %.0f", it.pid);
    for (int i = 0; i < it.n; i++) {
        if (!strcmp(list, "processes") && !strcmp(it.keys[i], "cpu_ms"))
            emit(r, it.label, "cpu", it.label, "", it.vals[i]);
        else if (strcmp(list, "processes"))
            emit(r, it.label, list, it.label, it.keys[i], it.vals[i]);
    }
    return 0;
}

static int list(struct sr *r, const char *key, int depth)
{
    if (eat(r, ']'))
        return 0;
    do {
        if (list_item(r, key, depth + 1))
            return -1;
    } while (eat(r, ','));
    return eat(r, ']') ? 0 : fail(r, "',' or ']' expected");
}

/* An object's numbers as KEY.FIELD; deeper values skipped. */
static int group(struct sr *r, const char *key, int depth)
{
    char k[SR_STR];
    if (eat(r, '}'))
        return 0;
    do {
        if (string(r, k) || !eat(r, ':'))
            return fail(r, "a member expected");
        if (is_number(r)) {
            double v;
            if (number(r, &v))
                return -1;
            emit(r, "", key, k, "", v);
        } else if (skip_value(r, depth + 1)) {
            return -1;
        }
    } while (eat(r, ','));
    return eat(r, '}') ? 0 : fail(r, "',' or '}' expected");
}

static int member(struct sr *r, const char *k)
{
    if (listed(top_skip, k))
        return skip_value(r, 1);
    if (is_number(r)) {
        double v;
        if (number(r, &v))
            return -1;
        emit(r, "", k, "", "", v);
        return 0;
    }
    if (eat(r, '['))
        return list(r, k, 1);
    if (eat(r, '{'))
        return group(r, k, 1);
    return skip_value(r, 1);
}

int sumread_sniff(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    if (i >= n || p[i++] != '{')
        return 0;
    while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    return n - i >= 8 && !memcmp(p + i, "\"device\"", 8);
}

static enum st_err walk(struct sr *r0)
{
    struct sr r = *r0;
    char k[SR_STR];
    if (!eat(&r, '{'))
        return fail(&r, "'{' expected"), ST_EFORMAT;
    if (!eat(&r, '}')) {
        do {
            if (string(&r, k) || !eat(&r, ':') || member(&r, k))
                return fail(&r, "a member expected"), ST_EFORMAT;
        } while (eat(&r, ','));
        if (!eat(&r, '}'))
            return fail(&r, "',' or '}' expected"), ST_EFORMAT;
    }
    ws(&r);
    if (r.p != r.end)
        return fail(&r, "bytes after the object"), ST_EFORMAT;
    return ST_OK;
}

enum st_err sumread_metrics(const char *p, size_t n,
                            void (*metric)(void *ctx, const char *name, double v), void *ctx,
                            char *err, size_t errn)
{
    struct sr r = {p, p, p + n, metric, NULL, ctx, err, errn, 0};
    return walk(&r);
}

enum st_err sumread_parts(const char *p, size_t n,
                          void (*part)(void *ctx, const char *name, const char *dim, double v),
                          void *ctx, char *err, size_t errn)
{
    struct sr r = {p, p, p + n, NULL, part, ctx, err, errn, 0};
    return walk(&r);
}
