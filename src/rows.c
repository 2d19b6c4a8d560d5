/*
 * The rows of --rows (rows.h), in JSON Lines or CSV.  JSON strings escape
 * '"', '\' and control bytes (RFC 8259); other bytes pass as they are (a
 * path's bytes, UTF-8 on every system we know).  CSV fields are quoted
 * when they hold a comma, quote, CR or LF, or start or end with a blank,
 * a quote doubled (RFC 4180).  Values print with 15 significant digits,
 * which gives back the summary's decimals exactly.
 */
#include <stdio.h>
#include <string.h>

#include "rows.h"

static const char *const columns[] = {"trace", "serial", "model", "android_version",
                                      "fingerprint", "capture_time", "metric", "dimension",
                                      "value", "error"};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

int rows_format_of(const char *path, enum rows_format *f)
{
    const char *dot = strrchr(path, '.');
    if (dot && (!strcmp(dot, ".jsonl") || !strcmp(dot, ".ndjson") || !strcmp(dot, ".json"))) {
        *f = ROWS_JSONL;
        return 0;
    }
    if (dot && !strcmp(dot, ".csv")) {
        *f = ROWS_CSV;
        return 0;
    }
    return -1;
}

static void jstr(struct dynbuf *o, const char *s)
{
    if (!s || !*s) {
        dynbuf_addstr(o, "null");
        return;
    }
    dynbuf_addstr(o, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            dynbuf_printf(o, "\\%c", c);
        else if (c < 0x20)
            dynbuf_printf(o, "\\u%04x", c);
        else
            dynbuf_add(o, s, 1);
    }
    dynbuf_addstr(o, "\"");
}

static void cstr(struct dynbuf *o, const char *s)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[n - 1] != ' ') {
        dynbuf_add(o, s, n);
        return;
    }
    dynbuf_addstr(o, "\"");
    for (; *s; s++) {
        if (*s == '"')
            dynbuf_addstr(o, "\"");
        dynbuf_add(o, s, 1);
    }
    dynbuf_addstr(o, "\"");
}

void rows_header(enum rows_format f, struct dynbuf *o)
{
    if (f != ROWS_CSV)
        return;
    for (size_t i = 0; i < NCOLS; i++)
        dynbuf_printf(o, "%s%s", i ? "," : "", columns[i]);
    dynbuf_addstr(o, "\r\n");
}

/* One row: the ten columns' texts (value: NULL or a number's text). */
static void row(enum rows_format f, const char *const *v, struct dynbuf *o)
{
    for (size_t i = 0; i < NCOLS; i++) {
        if (f == ROWS_CSV) {
            if (i)
                dynbuf_addstr(o, ",");
            cstr(o, v[i]);
            continue;
        }
        dynbuf_printf(o, "%s\"%s\":", i ? "," : "{", columns[i]);
        if (i == 8 && v[i])
            dynbuf_addstr(o, v[i]);     /* the value: a number */
        else
            jstr(o, v[i]);
    }
    dynbuf_addstr(o, f == ROWS_CSV ? "\r\n" : "}\n");
}

void rows_metric(enum rows_format f, const struct rows_meta *m, const char *metric,
                 const char *dim, double v, struct dynbuf *o)
{
    char num[64];
    snprintf(num, sizeof(num), "%.15g", v);
    const char *cols[NCOLS] = {m->trace, m->serial, m->model, m->release, m->fingerprint,
                               m->capture_time, metric, dim, num, NULL};
    row(f, cols, o);
}

void rows_error(enum rows_format f, const struct rows_meta *m, const char *err,
                struct dynbuf *o)
{
    const char *cols[NCOLS] = {m->trace, m->serial, m->model, m->release, m->fingerprint,
                               m->capture_time, NULL, NULL, NULL, err};
    row(f, cols, o);
}
