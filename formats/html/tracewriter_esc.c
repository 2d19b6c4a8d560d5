/*
 * Payload escaping for the result writer (tracewriter.h): the HTML `<\\`
 * escape and JSON string escaping, streamed with a few bytes carried over
 * when a chunk ends where the decision needs the next bytes; and -j's
 * trace-event JSON part, written as JSON rather than as a string.
 */
#include <stdio.h>
#include <string.h>

#include "lib/outfile.h"
#include "tracewriter_int.h"

/* Every byte of the page passes here: into the file, or into the part
 * being rendered for a hole (tw_hole_begin).  The lowest piece of the
 * writer, so the escaping and the page's frame both call down to it. */
enum st_err tw_put(struct tracewriter *w, const void *p, size_t n)
{
    if (!w->capture)
        return outfile_write(w->o, p, n);
    enum st_err e = dynbuf_add(w->capture, p, n);
    if (e && !w->capture_err)
        w->capture_err = e;
    return e;
}

static int ci_prefix(const unsigned char *p, size_t n, const char *pat)
{
    for (size_t i = 0; i < n && pat[i]; i++) {
        unsigned char c = p[i];
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        if (c != (unsigned char)pat[i])
            return 0;
    }
    return 1;
}

/* For the bytes after a '<': 1 escape, 0 no, -1 cannot tell yet. */
static int needs_escape(const unsigned char *p, size_t n)
{
    static const struct {
        const char *s;
        size_t len;
    } pats[] = {{"/script", 7}, {"!--", 3}, {"\\", 1}};
    if (n && p[0] != '/' && p[0] != '!' && p[0] != '\\')
        return 0;       /* `<idle>` and the like: most '<' in a trace */
    int maybe = 0;
    for (int i = 0; i < 3; i++) {
        if (!ci_prefix(p, n, pats[i].s))
            continue;
        if (n >= pats[i].len)
            return 1;
        maybe = 1;
    }
    return maybe ? -1 : 0;
}

/* Text between escapes goes out in one piece: a '<' that needs none
 * (every `<idle>` line has one) does not split it. */
static enum st_err html_payload(struct tracewriter *w, const unsigned char *p, size_t n,
                                int final)
{
    enum st_err e = ST_OK;
    const unsigned char *end = p + n, *q = p;
    while (!e) {
        const unsigned char *lt = memchr(q, '<', (size_t)(end - q));
        if (!lt)
            return tw_put(w, p, (size_t)(end - p));
        size_t after = (size_t)(end - lt) - 1;
        int esc = needs_escape(lt + 1, after);
        q = lt + 1;
        if (!esc || (esc < 0 && final))
            continue;
        if ((e = tw_put(w, p, (size_t)(lt - p))))
            return e;
        if (esc < 0) {
            memcpy(w->carry, lt, after + 1);
            w->carrylen = after + 1;
            return ST_OK;
        }
        e = tw_put(w, "<\\", 2);
        p = q;
    }
    return e;
}

/* Length of a valid UTF-8 sequence at p, 0 if invalid, -1 if cut short. */
static int utf8_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    int len = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
    if (!len)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return -1;
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    }
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
        (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
        return 0;
    return len;
}

enum st_err tw_json_payload(struct tracewriter *w, const unsigned char *p, size_t n,
                                int final)
{
    size_t run = 0;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
            continue;
        if (c >= 0x80) {
            int l = utf8_len(p + i, n - i);
            if (l < 0 && !final) {
                tw_put(w, p + run, i - run);
                memcpy(w->carry, p + i, n - i);
                w->carrylen = n - i;
                return ST_OK;
            }
            if (l > 0) {
                i += (size_t)l - 1;
                continue;
            }
        }
        char esc[8];
        const char *s = esc;
        switch (c) {
        case '"': s = "\\\""; break;
        case '\\': s = "\\\\"; break;
        case '\n': s = "\\n"; break;
        case '\t': s = "\\t"; break;
        case '\r': s = "\\r"; break;
        default:
            if (c >= 0x80)
                s = "\\ufffd";
            else
                snprintf(esc, sizeof(esc), "\\u%04x", c);
        }
        tw_put(w, p + run, i - run);
        e = tw_put(w, s, strlen(s));
        run = i + 1;
    }
    return e ? e : tw_put(w, p + run, n - run);
}

static enum st_err payload(struct tracewriter *w, const unsigned char *p, size_t n,
                           int final)
{
    /* nobody reads it: escaping was a quarter of --rows' CPU time;
     * offsets stay consistent, counted in the payload's own bytes */
    if (w->discard)
        return tw_put(w, p, n);
    if (w->fmt == TW_HTML)
        return html_payload(w, p, n, final);
    return w->raw ? tw_raw_payload(w, p, n, final) : tw_json_payload(w, p, n, final);
}

/* Prepend undecided bytes from the last chunk.  Rare (a '<' or a UTF-8
 * lead byte at a chunk's end), so a copy is fine. */
enum st_err tw_with_carry(struct tracewriter *w, const unsigned char *p, size_t n,
                              int final)
{
    size_t cl = w->carrylen;
    w->carrylen = 0;
    if (!cl)
        return payload(w, p, n, final);
    size_t take = n < 16 ? n : 16;
    unsigned char tmp[CARRY_MAX + 16];
    memcpy(tmp, w->carry, cl);
    if (take)
        memcpy(tmp + cl, p, take);
    /* decide the carried bytes with a little lookahead, then go on */
    enum st_err e = payload(w, tmp, cl + take, final || take == n);
    if (e || !w->carrylen)
        return e ? e : payload(w, p + take, n - take, final);
    /* still undecided: the carry now ends inside p[0, take) */
    return take == n ? ST_OK : tw_with_carry(w, p + take, n - take, final);
}

size_t tw_html_unescape(char *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        p[o++] = p[i];
        if (p[i] == '<' && i + 1 < n && p[i + 1] == '\\' &&
            needs_escape((const unsigned char *)p + i + 2, n - i - 2) == 1)
            i++;    /* drop the backslash we inserted */
    }
    return o;
}

/* ---- a trace-event JSON part in a JSON result (-j): its members go into the
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
