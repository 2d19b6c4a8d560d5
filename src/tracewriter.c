/* Result file writer (HTML page or catapult JSON); see tracewriter.h. */
#include "tracewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "outfile.h"

#define CARRY_MAX 8

struct tracewriter {
    enum tw_format fmt;
    struct outfile *o;
    int parts, in_part, has_controller;
    uint64_t part_bytes;
    unsigned char carry[CARRY_MAX];    /* undecided bytes at a chunk end */
    size_t carrylen;
};

static enum st_err put(struct tracewriter *w, const void *p, size_t n)
{
    return outfile_write(w->o, p, n);
}

static enum st_err puts_(struct tracewriter *w, const char *s)
{
    return put(w, s, strlen(s));
}

/* prefix.html with {{WEBCOMPONENTS_JS}} and {{TRACE_VIEWER_HTML}} filled */
static enum st_err write_prefix(struct tracewriter *w, const struct viewer *v)
{
    const struct st_asset *a = asset_find("prefix.html");
    if (!a)
        return ST_ENOENT;
    const char *p = (const char *)a->data, *end = p + a->len;
    static const char *const keys[] = {"{{WEBCOMPONENTS_JS}}", "{{TRACE_VIEWER_HTML}}"};
    const char *vals[] = {v->js, v->html};
    size_t lens[] = {v->js_len, v->html_len};
    for (int i = 0; i < 2; i++) {
        size_t kl = strlen(keys[i]);
        const char *k = NULL;
        for (const char *s = p; s + kl <= end; s++)
            if (*s == '{' && !memcmp(s, keys[i], kl)) {
                k = s;
                break;
            }
        if (!k)
            return ST_EFORMAT;
        put(w, p, (size_t)(k - p));
        put(w, vals[i], lens[i]);
        p = k + kl;
    }
    put(w, p, (size_t)(end - p));
    return puts_(w, "<!-- BEGIN TRACE -->\n");
}

enum st_err tw_open(const char *path, enum tw_format fmt, const struct viewer *v,
                    struct tracewriter **out)
{
    struct tracewriter *w = calloc(1, sizeof(*w));
    *out = w;
    if (!w)
        return ST_ENOMEM;
    w->fmt = fmt;
    enum st_err e = outfile_open(path, &w->o);
    if (e)
        return e;
    if (fmt == TW_HTML)
        return write_prefix(w, v);
    return puts_(w, "{");
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
    static const char *const pats[] = {"/script", "!--", "\\"};
    int maybe = 0;
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(pats[i]);
        if (!ci_prefix(p, n, pats[i]))
            continue;
        if (n >= l)
            return 1;
        maybe = 1;
    }
    return maybe ? -1 : 0;
}

static enum st_err html_payload(struct tracewriter *w, const unsigned char *p, size_t n,
                                int final)
{
    enum st_err e = ST_OK;
    while (n && !e) {
        const unsigned char *lt = memchr(p, '<', n);
        if (!lt)
            return put(w, p, n);
        if ((e = put(w, p, (size_t)(lt - p))))
            return e;
        size_t after = n - (size_t)(lt - p) - 1;
        int esc = needs_escape(lt + 1, after);
        if (esc < 0 && !final) {
            memcpy(w->carry, lt, after + 1);
            w->carrylen = after + 1;
            return ST_OK;
        }
        e = put(w, esc > 0 ? "<\\" : "<", esc > 0 ? 2 : 1);
        n = after;
        p = lt + 1;
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

static enum st_err json_payload(struct tracewriter *w, const unsigned char *p, size_t n,
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
                put(w, p + run, i - run);
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
        put(w, p + run, i - run);
        e = puts_(w, s);
        run = i + 1;
    }
    return e ? e : put(w, p + run, n - run);
}

static enum st_err payload(struct tracewriter *w, const unsigned char *p, size_t n,
                           int final)
{
    return w->fmt == TW_HTML ? html_payload(w, p, n, final) : json_payload(w, p, n, final);
}

/* Prepend undecided bytes from the last chunk.  Rare (a '<' or a UTF-8
 * lead byte at a chunk's end), so a copy is fine. */
static enum st_err with_carry(struct tracewriter *w, const unsigned char *p, size_t n,
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
    return take == n ? ST_OK : with_carry(w, p + take, n - take, final);
}

enum st_err tw_write(void *ctx, const void *p, size_t n)
{
    struct tracewriter *w = ctx;
    w->part_bytes += n;
    return with_carry(w, p, n, 0);
}

enum st_err tw_begin(struct tracewriter *w, const char *name)
{
    w->in_part = 1;
    w->part_bytes = 0;
    if (!strcmp(name, "systraceController"))
        w->has_controller = 1;
    if (w->fmt == TW_HTML)
        return puts_(w, "  <script class=\"trace-data\" type=\"application/text\">\n");
    if (w->parts)
        puts_(w, ", ");
    puts_(w, "\"");
    json_payload(w, (const unsigned char *)name, strlen(name), 1);
    return puts_(w, "\": \"");
}

enum st_err tw_end(struct tracewriter *w)
{
    enum st_err e = with_carry(w, (const unsigned char *)"", 0, 1);
    w->in_part = 0;
    w->parts++;
    if (e)
        return e;
    return puts_(w, w->fmt == TW_HTML ? "  </script>\n" : "\"");
}

enum st_err tw_commit(struct tracewriter *w)
{
    if (w->in_part)
        tw_end(w);
    if (w->fmt == TW_HTML) {
        const struct st_asset *a = asset_find("suffix.html");
        puts_(w, "<!-- END TRACE -->\n");
        if (a)
            put(w, a->data, a->len);
    } else {
        if (w->has_controller)
            puts_(w, ", \"controllerTraceDataKey\": \"systraceController\"");
        puts_(w, "}");
    }
    return outfile_commit(w->o);
}

void tw_free(struct tracewriter *w)
{
    if (!w)
        return;
    outfile_free(w->o);
    free(w);
}

static uint64_t sink_tell(void *ctx)
{
    struct tracewriter *w = ctx;
    return outfile_tell(w->o) + w->carrylen;
}

static enum st_err sink_keep(void *ctx, uint64_t a, uint64_t b)
{
    struct tracewriter *w = ctx;
    return outfile_keep(w->o, a, b);
}

void tw_text_sink(struct tracewriter *w, struct text_sink *s)
{
    s->write = tw_write;
    s->tell = sink_tell;
    s->keep = sink_keep;
    s->ctx = w;
}

uint64_t tw_part_bytes(const struct tracewriter *w)
{
    return w->part_bytes;
}

int tw_parts(const struct tracewriter *w)
{
    return w->parts;
}

const char *tw_errtext(const struct tracewriter *w)
{
    return w->o ? outfile_errtext(w->o) : "out of memory";
}

const char *tw_path(const struct tracewriter *w)
{
    return w->o ? outfile_path(w->o) : "";
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
