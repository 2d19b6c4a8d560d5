/* Trace-event arrays streamed element by element; see pjson.h. */
#include "pjson.h"

#include <string.h>

#include "pline.h"

void pjson_init(struct pjson *j, const struct pjson_cb *cb)
{
    memset(j, 0, sizeof(*j));
    j->cb = *cb;
    j->first = 1;
    dynbuf_init(&j->elem, PJSON_ELEM_MAX);
}

void pjson_free(struct pjson *j)
{
    dynbuf_free(&j->elem);
}

enum st_err pjson_emit(struct pjson *j, const char *p, size_t n)
{
    enum st_err e = ST_OK;
    if (!j->first)
        e = j->cb.out(j->cb.out_ctx, ",\n", 2);
    j->first = 0;
    return e ? e : j->cb.out(j->cb.out_ctx, p, n);
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Inside an element: collect it; hand it over when it closes. */
static enum st_err elem_byte(struct pjson *j, char c, int *done)
{
    *done = 0;
    if (dynbuf_addc(&j->elem, c))
        return ST_ETOOBIG;
    if (j->in_str) {
        if (j->esc)
            j->esc = 0;
        else if (c == '\\')
            j->esc = 1;
        else if (c == '"')
            j->in_str = 0;
        return ST_OK;
    }
    if (c == '"')
        j->in_str = 1;
    else if (c == '{' || c == '[')
        j->elem_depth++;
    else if (c == '}' || c == ']')
        *done = --j->elem_depth == 0;
    return ST_OK;
}

/* Outside the event array: track depth and the root's keys. */
static void outer_byte(struct pjson *j, char c)
{
    if (j->in_str) {
        if (j->esc) {
            j->esc = 0;
        } else if (c == '\\') {
            j->esc = 1;
        } else if (c == '"') {
            j->in_str = 0;
        } else if (j->str_depth1 && j->keylen < sizeof(j->key) - 1) {
            j->key[j->keylen++] = c;
        }
        return;
    }
    if (blank(c))
        return;
    if (c == '"') {
        j->in_str = 1;
        j->str_depth1 = j->depth == 1 && j->stack[0] == '{' && !j->saw_colon;
        if (j->str_depth1)
            j->keylen = 0;
        return;
    }
    int events_open = 0;
    if (c == '[' && !j->ev_depth) {
        j->key[j->keylen < sizeof(j->key) ? j->keylen : sizeof(j->key) - 1] = 0;
        events_open = j->depth == 0 ||
                      (j->depth == 1 && j->saw_colon && !strcmp(j->key, "traceEvents"));
    }
    if (j->depth == 1)
        j->saw_colon = c == ':';
    if (c == '{' || c == '[') {
        if (j->depth < PJSON_DEPTH_MAX)
            j->stack[j->depth] = c;
        j->depth++;
        if (events_open)
            j->ev_depth = j->depth;
    } else if ((c == '}' || c == ']') && j->depth) {
        j->depth--;
    }
}

static enum st_err one_byte(struct pjson *j, const char *p, size_t i, size_t *from)
{
    char c = p[i];
    enum st_err e = ST_OK;
    if (j->in_elem && j->elem_depth == 0 && !j->in_str &&
        (c == ',' || c == ']' || blank(c))) {
        /* a scalar element ends here (kept as it is); c is read again */
        j->in_elem = 0;
        e = j->cb.elem(j->cb.ctx, j->elem.data, j->elem.len);
        dynbuf_reset(&j->elem);
        *from = i;
        if (e)
            return e;
    }
    if (j->in_elem) {
        int done;
        if ((e = elem_byte(j, c, &done)) || !done)
            return e;
        j->in_elem = 0;
        e = j->cb.elem(j->cb.ctx, j->elem.data, j->elem.len);
        dynbuf_reset(&j->elem);
        *from = i + 1;
        return e;
    }
    if (j->ev_depth && j->depth == j->ev_depth && !j->in_str) {
        /* between elements: commas and blanks are ours to write */
        if (i > *from)
            e = j->cb.out(j->cb.out_ctx, p + *from, i - *from);
        *from = i + 1;
        if (e || blank(c) || c == ',')
            return e;
        if (c == ']') {
            *from = i;
            j->depth--;
            j->ev_depth = -1;       /* one event array only */
            return j->cb.array_end(j->cb.ctx);
        }
        j->in_elem = 1;
        j->elem_depth = 0;
        j->in_str = j->esc = 0;
        int done;
        return elem_byte(j, c, &done);      /* a scalar ends at once: kept as it is */
    }
    outer_byte(j, c);
    return ST_OK;
}

enum st_err pjson_feed(struct pjson *j, const void *data, size_t n)
{
    const char *p = data;
    size_t from = 0;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++)
        e = one_byte(j, p, i, &from);
    if (e)
        return e;
    if (j->in_elem || from >= n)
        return ST_OK;
    return j->cb.out(j->cb.out_ctx, p + from, n - from);
}

/* ---- an element's members ------------------------------------------- */

static size_t skip_blank(const char *p, size_t n, size_t i)
{
    while (i < n && blank(p[i]))
        i++;
    return i;
}

static size_t skip_string(const char *p, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return n;
}

static size_t skip_value(const char *p, size_t n, size_t i)
{
    if (i >= n)
        return n;
    if (p[i] == '"')
        return skip_string(p, n, i);
    if (p[i] == '{' || p[i] == '[') {
        int d = 0;
        for (; i < n; i++) {
            if (p[i] == '"') {
                i = skip_string(p, n, i) - 1;
            } else if (p[i] == '{' || p[i] == '[') {
                d++;
            } else if ((p[i] == '}' || p[i] == ']') && --d == 0) {
                return i + 1;
            }
        }
        return n;
    }
    while (i < n && !blank(p[i]) && p[i] != ',' && p[i] != '}' && p[i] != ']')
        i++;
    return i;
}

static int key_is(const char *p, size_t a, size_t b, const char *k)
{
    size_t kl = strlen(k);
    return b - a == kl + 2 && !memcmp(p + a + 1, k, kl);
}

static void member(const char *p, size_t ka, size_t kb, size_t va, size_t vb,
                   struct pevent *ev)
{
    static const char *const keys[] = {"ph", "name", "pid", "tid", "ts", "dur", "id",
                                       "cat", "s", "args"};
    struct pspan *spans[] = {&ev->ph, &ev->name, &ev->pid, &ev->tid, &ev->ts, &ev->dur,
                             &ev->id, &ev->cat, &ev->scope, &ev->args};
    for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
        if (key_is(p, ka, kb, keys[k])) {
            spans[k]->off = va;
            spans[k]->len = vb - va;
        }
}

static int number_ns(const char *p, struct pspan s, int64_t *v, int us)
{
    if (!s.len)
        return 0;
    if (us)
        return !pline_us_ns(p + s.off, s.len, v);
    int64_t ns;
    if (pline_us_ns(p + s.off, s.len, &ns) || ns % 1000)
        return 0;
    *v = ns / 1000;
    return 1;
}

int pevent_parse(const char *p, size_t n, struct pevent *ev)
{
    memset(ev, 0, sizeof(*ev));
    size_t i = skip_blank(p, n, 0);
    if (i >= n || p[i] != '{')
        return -1;
    i = skip_blank(p, n, i + 1);
    while (i < n && p[i] == '"') {
        size_t ka = i, kb = skip_string(p, n, i);
        i = skip_blank(p, n, kb);
        if (i >= n || p[i] != ':')
            return -1;
        size_t va = skip_blank(p, n, i + 1), vb = skip_value(p, n, va);
        member(p, ka, kb, va, vb, ev);
        i = skip_blank(p, n, vb);
        if (i < n && p[i] == ',')
            i = skip_blank(p, n, i + 1);
    }
    if (ev->ph.len >= 3 && p[ev->ph.off] == '"')
        ev->phase = p[ev->ph.off + 1];
    ev->has_pid = number_ns(p, ev->pid, &ev->pid_v, 0);
    ev->has_tid = number_ns(p, ev->tid, &ev->tid_v, 0);
    ev->has_ts = number_ns(p, ev->ts, &ev->ts_ns, 1);
    ev->has_dur = number_ns(p, ev->dur, &ev->dur_ns, 1);
    return 0;
}
