/*
 * Writing the trace-event converter's events (tevents.h): one event is
 * composed in t->ev (a failed append marks it bad and it is dropped, never
 * written in part), then written behind the opening "{\"traceEvents\":[".
 * The converter's first error sticks (tev_fail) and ends its output.
 * The lowest file of the converter: the line, event and metadata files
 * all call down to it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tevents_int.h"
#include "lib/numfmt.h"

enum st_err tev_fail(struct tevents *t, enum st_err e, const char *what)
{
    if (!t->err) {
        t->err = e;
        snprintf(t->errtext, sizeof(t->errtext), "%s: %s", what, st_strerror(e));
    }
    return t->err;
}

char *tev_strdup(struct tevents *t, const char *p, size_t n)
{
    if (t->name_bytes + n + 1 > TEV_NAMES_BYTES) {
        t->st.dropped++;
        return NULL;
    }
    char *s = malloc(n + 1);
    if (!s) {
        tev_fail(t, ST_ENOMEM, "trace events");
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = '\0';
    t->name_bytes += n + 1;
    return s;
}

enum st_err tev_out_write(struct tevents *t, const void *p, size_t n)
{
    enum st_err e = t->err ? t->err : t->out.write(t->out.ctx, p, n);
    return e ? tev_fail(t, e, "writing trace events") : ST_OK;
}

enum st_err tev_open_json(struct tevents *t)
{
    if (t->started)
        return ST_OK;
    t->started = 1;
    return tev_out_write(t, "{\"traceEvents\":[", 16);
}

/* Composing t->ev: a failed append marks the event bad; it is dropped. */
void tev_add(struct tevents *t, const char *s)
{
    t->ev_bad |= dynbuf_addstr(&t->ev, s) != ST_OK;
}

void tev_addf(struct tevents *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[256];
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    t->ev_bad |= n < 0 || (size_t)n >= sizeof(buf) || dynbuf_add(&t->ev, buf, (size_t)n);
}

/* Numbers without printf (lib/numfmt.h): its format parsing was a sixth
 * of a Perfetto trace's conversion. */
void tev_int(struct tevents *t, int64_t n)
{
    char b[NUMFMT_MAX];
    t->ev_bad |= dynbuf_add(&t->ev, b, numfmt_i64(b, n)) != ST_OK;
}

void tev_uint(struct tevents *t, uint64_t n)
{
    char b[NUMFMT_MAX];
    t->ev_bad |= dynbuf_add(&t->ev, b, numfmt_u64(b, n)) != ST_OK;
}

void tev_hexid(struct tevents *t, uint64_t n)
{
    char b[NUMFMT_MAX + 4] = "\"0x";
    size_t k = numfmt_hex(b + 3, n) + 3;
    b[k++] = '"';
    t->ev_bad |= dynbuf_add(&t->ev, b, k) != ST_OK;
}

void tev_addstr(struct tevents *t, const char *p, size_t n)
{
    t->ev_bad |= tj_str(&t->ev, p, n) != ST_OK;
}

void tev_start(struct tevents *t, const char *name, size_t nlen, char ph)
{
    dynbuf_reset(&t->ev);
    t->ev_bad = 0;
    tev_add(t, t->nev ? ",\n{" : "\n{");
    if (name) {
        tev_add(t, "\"name\":");
        tev_addstr(t, name, nlen);
        tev_add(t, ",");
    }
    char b[] = "\"ph\":\"X\"";
    b[sizeof(b) - 3] = ph;
    tev_add(t, b);
}

void tev_pidtid(struct tevents *t, int64_t pid, int64_t tid)
{
    tev_add(t, ",\"pid\":");
    tev_int(t, pid);
    tev_add(t, ",\"tid\":");
    tev_int(t, tid);
}

void tev_ts(struct tevents *t, const char *key, uint64_t ns)
{
    tev_add(t, ",\"");
    tev_add(t, key);
    tev_add(t, "\":");
    t->ev_bad |= tj_us(&t->ev, ns) != ST_OK;
}

enum st_err tev_emit(struct tevents *t)
{
    enum st_err e = tev_open_json(t);
    if (e)
        return e;
    tev_add(t, "}");
    if (t->ev_bad) {
        t->st.dropped++;
        return ST_OK;
    }
    t->nev++;
    t->st.events++;
    return tev_out_write(t, t->ev.data, t->ev.len);
}
