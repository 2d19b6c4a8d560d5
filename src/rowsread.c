/*
 * --rows files read back (rowsread.h).  A line at a time, each at most
 * ROWSREAD_LINE_MAX bytes (a CSV row's quoted newlines join lines).
 * JSON Lines: a flat object of strings, numbers and nulls, as --rows
 * writes; \uXXXX escapes above 0x7f become '?' (names are compared, not
 * shown).  CSV: RFC 4180 fields, the header naming trace, metric, value
 * and error.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/dynbuf.h"
#include "rowsread.h"

#define FIELD_MAX 1024

struct row {
    char trace[FIELD_MAX], metric[FIELD_MAX], error[8], value[64];
};

int rowsread_sniff(const char *p, size_t n)
{
    if (n >= 9 && !memcmp(p, "{\"trace\":", 9))
        return 1;
    if (n >= 13 && !memcmp(p, "trace,serial,", 13))
        return 2;
    return 0;
}

/* ---- JSON Lines ---- */

static const char *jws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

/* A JSON string at p (after its '"') into out (cut at cap); past it, or NULL. */
static const char *jstring(const char *p, char *out, size_t cap)
{
    size_t k = 0;
    for (; *p && *p != '"'; p++) {
        char c = *p;
        if (c == '\\') {
            c = *++p;
            if (c == 'u') {
                char hex[5] = {0};
                for (int i = 0; i < 4; i++)
                    if (!(hex[i] = *++p))
                        return NULL;
                long u = strtol(hex, NULL, 16);
                c = u > 0 && u < 0x80 ? (char)u : '?';
            } else if (c == 'n' || c == 'r' || c == 't' || c == 'b' || c == 'f') {
                c = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : ' ';
            } else if (!c) {
                return NULL;
            }
        }
        if (k + 1 < cap)
            out[k++] = c;
    }
    out[k] = '\0';
    return *p == '"' ? p + 1 : NULL;
}

static char *slot(struct row *r, const char *key, size_t *cap)
{
    static const char *const keys[] = {"trace", "metric", "error", "value"};
    char *slots[] = {r->trace, r->metric, r->error, r->value};
    size_t caps[] = {sizeof(r->trace), sizeof(r->metric), sizeof(r->error),
                     sizeof(r->value)};
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(key, keys[i])) {
            *cap = caps[i];
            return slots[i];
        }
    return NULL;
}

static int json_row(const char *p, struct row *r)
{
    char key[64], tmp[FIELD_MAX];
    p = jws(p);
    if (*p++ != '{')
        return -1;
    do {
        p = jws(p);
        if (*p++ != '"' || !(p = jstring(p, key, sizeof(key))))
            return -1;
        p = jws(p);
        if (*p++ != ':')
            return -1;
        p = jws(p);
        size_t cap = sizeof(tmp);
        char *dst = slot(r, key, &cap);
        if (!dst)
            dst = tmp;
        if (*p == '"') {
            if (!(p = jstring(p + 1, dst, cap)))
                return -1;
        } else {
            size_t k = strcspn(p, ",}");
            if (!strncmp(p, "null", 4) && k == 4)
                dst[0] = '\0';
            else
                snprintf(dst, cap, "%.*s", (int)k, p);
            p += k;
        }
        p = jws(p);
    } while (*p == ',' && p++);
    return *p == '}' ? 0 : -1;
}

/* ---- CSV ---- */

/* The next field at *pp into out; 1 when a field was read, 0 at the end. */
static int csv_field(const char **pp, char *out, size_t cap)
{
    const char *p = *pp;
    size_t k = 0;
    if (!p)
        return 0;
    if (*p == '"') {
        for (p++; *p; p++) {
            if (*p == '"' && p[1] != '"')
                break;
            if (*p == '"')
                p++;
            if (k + 1 < cap)
                out[k++] = *p;
        }
        if (*p == '"')
            p++;
    } else {
        for (; *p && *p != ',' && *p != '\r' && *p != '\n'; p++)
            if (k + 1 < cap)
                out[k++] = *p;
    }
    out[k] = '\0';
    *pp = *p == ',' ? p + 1 : NULL;
    return 1;
}

static int csv_header(const char *p, int *cols)
{
    char name[64];
    static const char *const want[] = {"trace", "metric", "error", "value"};
    for (int i = 0; i < 4; i++)
        cols[i] = -1;
    for (int i = 0; csv_field(&p, name, sizeof(name)); i++)
        for (int k = 0; k < 4; k++)
            if (!strcmp(name, want[k]))
                cols[k] = i;
    return cols[0] < 0 || cols[1] < 0 || cols[3] < 0 ? -1 : 0;
}

static void csv_row(const char *p, const int *cols, struct row *r)
{
    char f[FIELD_MAX];
    for (int i = 0; csv_field(&p, f, sizeof(f)); i++)
        for (int k = 0; k < 4; k++) {
            size_t cap;
            if (cols[k] == i) {
                char *dst = slot(r, k == 0 ? "trace" : k == 1 ? "metric" : k == 2 ? "error"
                                                                                : "value",
                                 &cap);
                snprintf(dst, cap, "%s", f);
            }
        }
}

/* ---- both ---- */

/* One line (CSV: one record) into b, NUL-ended; 1, 0 at the end, -1 too
 * long, -2 a NUL byte (no text file of ours holds one). */
static int next_line(FILE *f, struct dynbuf *b, int csv)
{
    int c, quotes = 0;
    dynbuf_reset(b);
    while ((c = getc(f)) != EOF) {
        char ch = (char)c;
        if (!ch)
            return -2;
        if (dynbuf_add(b, &ch, 1))
            return -1;
        quotes ^= ch == '"';
        if (ch == '\n' && (!csv || !quotes))
            break;
    }
    if (!b->len)
        return 0;
    return dynbuf_add(b, "", 0) ? -1 : 1;
}

static void use_row(const struct row *r, const struct rowsread_cb *cb, char *last, size_t lastn)
{
    char *end;
    if (r->error[0] || !r->metric[0] || !r->value[0] || !r->trace[0])
        return;
    double v = strtod(r->value, &end);
    if (*end)
        return;
    if (strcmp(last, r->trace)) {
        snprintf(last, lastn, "%s", r->trace);
        cb->run(cb->ctx, r->trace);
    }
    cb->metric(cb->ctx, r->metric, v);
}

enum st_err rowsread(FILE *f, int kind, const struct rowsread_cb *cb, char *err, size_t errn)
{
    struct dynbuf b;
    char last[FIELD_MAX] = "";
    int cols[4], got;
    size_t line = 0;
    enum st_err e = ST_OK;
    dynbuf_init(&b, ROWSREAD_LINE_MAX);
    while (!e && (got = next_line(f, &b, kind == 2)) != 0) {
        struct row r;
        memset(&r, 0, sizeof(r));
        line++;
        if (got < 0) {
            if (got == -2)
                snprintf(err, errn, "line %zu: a NUL byte: not a rows file", line);
            else
                snprintf(err, errn, "line %zu: longer than %zu bytes", line, ROWSREAD_LINE_MAX);
            e = ST_EFORMAT;
        } else if (kind == 2 && line == 1) {
            if (csv_header(b.data, cols)) {
                snprintf(err, errn, "line 1: a header naming trace, metric and value expected");
                e = ST_EFORMAT;
            }
        } else if (kind == 2) {
            csv_row(b.data, cols, &r);
            use_row(&r, cb, last, sizeof(last));
        } else if (*jws(b.data) == '\n' || !*jws(b.data)) {
            continue;
        } else if (json_row(b.data, &r)) {
            snprintf(err, errn, "line %zu: not a row of --rows (a flat JSON object)", line);
            e = ST_EFORMAT;
        } else {
            use_row(&r, cb, last, sizeof(last));
        }
    }
    dynbuf_free(&b);
    return e;
}
