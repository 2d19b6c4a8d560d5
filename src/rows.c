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

#include "cli.h"
#include "devrun.h"
#include "formats/piece/pmap.h"
#include "formats/summary/summary.h"
#include "formats/summary/sumread.h"
#include "lib/outfile.h"
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

/* A JSON string: runs of plain bytes copied at once (rows are most of
 * --rows' output, written for every metric of every trace). */
static void jstr(struct dynbuf *o, const char *s)
{
    if (!s || !*s) {
        dynbuf_addstr(o, "null");
        return;
    }
    static const char hex[] = "0123456789abcdef";
    dynbuf_addstr(o, "\"");
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c != '"' && c != '\\' && c >= 0x20)
            continue;
        dynbuf_add(o, run, (size_t)(s - run));
        char esc[6] = {'\\', (char)c, 0, 0, 0, 0};
        size_t n = 2;
        if (c < 0x20) {
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        dynbuf_add(o, esc, n);
        run = s + 1;
    }
    dynbuf_add(o, run, (size_t)(s - run));
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
        dynbuf_addstr(o, i ? ",\"" : "{\"");
        dynbuf_addstr(o, columns[i]);
        dynbuf_addstr(o, "\":");
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

struct sumrows {
    enum rows_format f;
    const struct rows_meta *m;
    struct dynbuf *o;
    struct smap seen;           /* the metrics written */
};

/* One row per metric per trace: of two items of one name (two processes
 * called adbd) the first, the biggest, as compare takes it; else a
 * query's median over the rows is not compare's. */
static void on_part(void *ctx, const char *name, const char *dim, double v)
{
    struct sumrows *r = ctx;
    size_t n = strlen(name), had;
    if (smap_get(&r->seen, name, n, &had) || smap_put(&r->seen, name, n, "", 0))
        return;
    rows_metric(r->f, r->m, name, dim, v, r->o);
}

enum st_err rows_of_json(enum rows_format f, const struct rows_meta *m, const char *json,
                         size_t n, struct dynbuf *o, char *err, size_t errn)
{
    struct sumrows r = {f, m, o, {0}};
    smap_init(&r.seen, 1u << 20);
    enum st_err e = sumread_parts(json, n, on_part, &r, err, errn);
    smap_free(&r.seen);
    return e;
}

enum st_err rows_summary(enum rows_format f, const struct rows_meta *m,
                         const struct summary *s, const char *device, struct dynbuf *o)
{
    struct dynbuf j;
    char err[200];
    size_t was = o->len;
    dynbuf_init(&j, (size_t)64 << 20);
    enum st_err e = summary_json(s, device, &j);
    if (!e)
        e = rows_of_json(f, m, j.data, j.len, o, err, sizeof(err));
    if (!e && o->len > was && o->data[o->len - 1] != '\n')
        e = ST_ETOOBIG;
    if (e)
        o->len = was;
    dynbuf_free(&j);
    return e;
}

int rows_live_check(const char *path)
{
    enum rows_format f;
    char err[300];
    if (rows_format_of(path, &f)) {
        fprintf(stderr, "systrace: error: --rows %s: name a .jsonl (or .ndjson, .json) or "
                        ".csv file\n", path);
        return EXIT_USAGE;
    }
    if (outfile_check(path, 0, err, sizeof(err))) {
        fprintf(stderr, "systrace: --rows %s: cannot write: %s\n", path, err);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

/* One device's rows: its summary's, or an error row saying what failed. */
static void device_rows(enum rows_format f, struct devrun *d, const char *when,
                        struct dynbuf *o)
{
    struct rows_meta m = {d->res.out ? d->res.out : "", d->c.serial, d->c.model, d->c.release,
                          d->c.fingerprint, when};
    int ok = d->collected && d->res.sum && (d->rc == EXIT_OK || d->rc == EXIT_PARTIAL);
    if (ok && !rows_summary(f, &m, d->res.sum, d->c.serial, o))
        return;
    rows_error(f, &m, d->outcome[0] ? d->outcome : "no trace", o);
}

int rows_live_write(const char *path, struct devrun *d, size_t n, const char *capture_time)
{
    enum rows_format f;
    struct dynbuf o;
    struct outfile *out = NULL;
    if (rows_format_of(path, &f))
        return EXIT_USAGE;
    dynbuf_init(&o, (size_t)256 << 20);
    rows_header(f, &o);
    for (size_t i = 0; d && i < n; i++)
        device_rows(f, &d[i], capture_time, &o);
    enum st_err e = outfile_open(path, &out);
    if (!e)
        e = outfile_write(out, o.data ? o.data : "", o.len);
    if (!e)
        e = outfile_commit(out);
    if (e)
        fprintf(stderr, "systrace: --rows %s: cannot write: %s\n", path,
                out ? outfile_errtext(out) : st_strerror(e));
    outfile_free(out);
    dynbuf_free(&o);
    return e ? EXIT_ERROR : EXIT_OK;
}
