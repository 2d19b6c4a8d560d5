/*
 * Payload escaping for the result writer (tracewriter.h): the HTML `<\\`
 * escape and JSON string escaping, streamed with a few bytes carried over
 * when a chunk ends where the decision needs the next bytes.
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
