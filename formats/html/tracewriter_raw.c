/*
 * A trace-event JSON part in a JSON result (-j): its members go into the
 * result's own object, so readers find "traceEvents" as the array it is
 * ({"systemTraceEvents": "...", "traceEvents": [...], "stackFrames": ...}).
 * Written as a string, as the other parts are, it hid the events from
 * Perfetto ("traceEvents is not an array") and the classic viewer alike.
 *
 * The part streams by in chunks: the opening '{' is dropped, and a '}'
 * followed only by blanks is held back until more comes, so the object's
 * closing brace is never written.  A bare array becomes the value of
 * "traceEvents"; anything else stays a string, as before.
 */
#include "tracewriter_int.h"

static int blank(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* ", " before the part's first member (none after an empty object). */
static enum st_err separate(struct tracewriter *w)
{
    if (w->raw_sep)
        return ST_OK;
    w->raw_sep = 1;
    return w->parts ? tw_put(w, ", ", 2) : ST_OK;
}

static enum st_err start(struct tracewriter *w, const unsigned char *p, size_t n, size_t *i)
{
    while (*i < n && blank(p[*i]))
        (*i)++;
    if (*i == n)
        return ST_OK;
    if (p[*i] == '{') {         /* the separator comes with the first member */
        w->raw = TW_RAW_MEMBERS;
        (*i)++;
        return ST_OK;
    }
    enum st_err e = separate(w);
    w->raw = p[*i] == '[' ? TW_RAW_ARRAY : TW_RAW_STRING;
    if (!e)
        e = w->raw == TW_RAW_ARRAY ? tw_put(w, "\"traceEvents\": ", 15)
                                   : tw_put(w, "\"traceEvents\": \"", 16);
    return e;
}

/* An object's members: all but a last '}' and the blanks after it. */
static enum st_err members(struct tracewriter *w, const unsigned char *p, size_t n)
{
    size_t last = n;
    while (last && blank(p[last - 1]))
        last--;
    if (!last)      /* only blanks: after a held '}' they wait with it */
        return w->raw_hold.len ? dynbuf_add(&w->raw_hold, p, n) : ST_OK;
    size_t from = 0;
    enum st_err e = ST_OK;
    if (!w->raw_sep) {
        while (from < n && blank(p[from]))
            from++;
        if (from == last - 1 && p[from] == '}' && !w->raw_hold.len)
            return dynbuf_add(&w->raw_hold, p + from, n - from);
        e = separate(w);
    }
    if (!e && w->raw_hold.len)
        e = tw_put(w, w->raw_hold.data, w->raw_hold.len);
    dynbuf_reset(&w->raw_hold);
    if (e)
        return e;
    if (p[last - 1] != '}')
        return tw_put(w, p + from, n - from);
    e = tw_put(w, p + from, last - 1 - from);
    return e ? e : dynbuf_add(&w->raw_hold, p + last - 1, n - (last - 1));
}

enum st_err tw_raw_payload(struct tracewriter *w, const unsigned char *p, size_t n, int final)
{
    size_t i = 0;
    enum st_err e = ST_OK;
    if (w->raw == TW_RAW_START && (e = start(w, p, n, &i)))
        return e;
    p += i;
    n -= i;
    switch (w->raw) {
    case TW_RAW_MEMBERS:
        return n ? members(w, p, n) : ST_OK;
    case TW_RAW_ARRAY:
        return tw_put(w, p, n);
    case TW_RAW_STRING:
        return tw_json_payload(w, p, n, final);
    default:
        return ST_OK;
    }
}

enum st_err tw_raw_end(struct tracewriter *w)
{
    enum st_err e = w->raw == TW_RAW_STRING ? tw_put(w, "\"", 1) : ST_OK;
    dynbuf_free(&w->raw_hold);
    w->raw = TW_RAW_NONE;
    return e;
}
