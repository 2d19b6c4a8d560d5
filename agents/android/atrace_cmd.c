/* Pure atrace helpers; see atrace_cmd.h. */
#include "atrace_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int atrace_parse_sdk(const char *out, size_t n)
{
    size_t e = n;
    while (e && space(out[e - 1]))
        e--;
    size_t s = e;
    while (s && !space(out[s - 1]))
        s--;
    if (s == e || e - s > 6)
        return -1;
    int v = 0;
    for (size_t i = s; i < e; i++) {
        if (out[i] < '0' || out[i] > '9')
            return -1;
        v = v * 10 + (out[i] - '0');
    }
    return v;
}

/* atrace category names are short identifiers: anything else on a line
 * of the listing is noise (warnings, banners) and is not a category. */
static int is_token(const char *s, size_t l)
{
    for (size_t i = 0; i < l; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_' || ch == '.'))
            return 0;
    }
    return 1;
}

void atrace_cats_free(struct atrace_cats *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->name[i]);
    free(c->name);
    c->name = NULL;
    c->n = 0;
}

enum st_err atrace_cats_parse(const char *text, size_t n, int sdk, struct atrace_cats *c)
{
    c->name = NULL;
    c->n = 0;
    size_t cap = 0;
    const char *p = text, *end = text + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *dash = memchr(p, '-', (size_t)(le - p));
        const char *s = p, *e = dash ? dash : le;
        while (s < e && space(*s))
            s++;
        while (e > s && space(e[-1]))
            e--;
        size_t l = (size_t)(e - s);
        if (dash && l && l < 64 && is_token(s, l) &&
            !(sdk < 23 && l == 2 && !memcmp(s, "rs", 2))) {
            if (c->n == cap) {
                cap = cap ? cap * 2 : 32;
                char **nn = realloc(c->name, cap * sizeof(*nn));
                if (!nn)
                    return ST_ENOMEM;
                c->name = nn;
            }
            char *name = malloc(l + 1);
            if (!name)
                return ST_ENOMEM;
            memcpy(name, s, l);
            name[l] = '\0';
            c->name[c->n++] = name;
        }
        p = le + 1;
    }
    return ST_OK;
}

int atrace_cats_has(const struct atrace_cats *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->name[i], name))
            return 1;
    return 0;
}

int atrace_root_only(const char *name)
{
    static const char *const kernel[] = {
        "irq", "irqoff", "preemptoff", "i2c", "disk", "mmc", "regulators",
        "binder_lock", "pagecache", "load",
    };
    for (size_t i = 0; i < sizeof(kernel) / sizeof(*kernel); i++)
        if (!strcmp(kernel[i], name))
            return 1;
    return 0;
}

static int has_z_error(const char *s)
{
    for (const char *p = s; (p = strstr(p, "unknown option -- z")); p++)
        if (p[19] == '\0' || p[19] == '\n' || p[19] == '\r' || p[19] == ' ')
            return 1;
    return strstr(s, "invalid option") || strstr(s, "unrecognized option");
}

int atrace_rejects_z(const char *out, const char *err)
{
    return has_z_error(out) || has_z_error(err);
}

int atrace_start_failed(const char *out, const char *err)
{
    return strstr(out, "unable to start tracing") || strstr(err, "unable to start tracing");
}

static int kept_has(const struct atrace_plan *p, size_t first, const char *name)
{
    for (size_t i = first; i < p->argc; i++)
        if (!strcmp(p->argv[i], name))
            return 1;
    return 0;
}

enum st_err atrace_plan_make(const struct capture_opts *o, const struct atrace_cats *avail,
                             int compress, struct atrace_plan *p,
                             struct dynbuf *unavailable)
{
    memset(p, 0, sizeof(*p));
    p->argv = calloc(o->ncategories + 32, sizeof(char *));
    if (!p->argv)
        return ST_ENOMEM;
    p->argv[p->argc++] = "atrace";
    if (compress)
        p->argv[p->argc++] = "-z";
    if (o->time_s > 0) {
        snprintf(p->tbuf, sizeof(p->tbuf), "%d", o->time_s);
        p->argv[p->argc++] = "-t";
        p->argv[p->argc++] = p->tbuf;
    }
    size_t bslot = p->argc;     /* -b is decided after filtering */
    p->argc += 2;
    if (o->apps) {
        p->argv[p->argc++] = "-a";
        p->argv[p->argc++] = o->apps;
    }
    if (o->kfuncs) {
        p->argv[p->argc++] = "-k";
        p->argv[p->argc++] = o->kfuncs;
    }
    size_t first = p->argc;
    for (size_t i = 0; i < o->ncategories; i++) {
        const char *cat = o->categories[i];
        if (atrace_cats_has(avail, cat)) {
            p->argv[p->argc++] = cat;
            p->nkept++;
        } else if (unavailable) {
            if (unavailable->len)
                dynbuf_addc(unavailable, ' ');
            dynbuf_addstr(unavailable, cat);
        }
    }
    int buf = o->buf_kb > 0 ? o->buf_kb
              : kept_has(p, first, "sched") && kept_has(p, first, "webview") ? 8192
              : kept_has(p, first, "sched") ? 4096 : 0;
    p->buf_kb = buf;
    if (buf) {
        snprintf(p->bbuf, sizeof(p->bbuf), "%d", buf);
        p->argv[bslot] = "-b";
        p->argv[bslot + 1] = p->bbuf;
    } else {
        memmove(p->argv + bslot, p->argv + bslot + 2, (p->argc - bslot - 2) * sizeof(char *));
        p->argc -= 2;
    }
    p->argv[p->argc] = NULL;
    return ST_OK;
}

const char **atrace_plan_argv(const struct atrace_plan *p, const char *mode)
{
    const char **v = calloc(p->argc + 3, sizeof(char *));
    if (!v)
        return NULL;
    memcpy(v, p->argv, p->argc * sizeof(char *));
    size_t n = p->argc;
    if (!strcmp(mode, "-t 0")) {
        v[n++] = "-t";
        v[n++] = "0";
    } else {
        v[n++] = mode;
    }
    v[n] = NULL;
    return v;
}

void atrace_plan_free(struct atrace_plan *p)
{
    free(p->argv);
    p->argv = NULL;
    p->argc = 0;
}
