/*
 * Streaming JSON scanner; see jsonscan.h.  One state per place in the
 * grammar, a bit stack of open containers, and a byte offset for
 * messages.  Text is handed on in runs: `from` marks where the current
 * run began in the chunk being fed, and the run is flushed when it ends
 * or the chunk does; escapes in unescaped member strings break the run
 * and are written decoded.
 */
#include "jsonscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum st {
    S_VALUE, S_OBJ_FIRST, S_OBJ_KEY, S_COLON, S_ARR_FIRST, S_AFTER, S_END,
    S_STR, S_ESC, S_HEX, S_NUM, S_LIT,
};

/* number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
enum num { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

struct jscan {
    enum jscan_mode mode;
    struct jscan_cb cb;
    enum st st;
    int depth;
    unsigned char stack[JSCAN_DEPTH_MAX / 8];   /* bit set: an array */
    int str_key;                /* the string being read is a member name */
    int num;
    const char *lit;
    size_t litpos;
    int hexn;
    unsigned hex, hi;           /* \u digits; a pending high surrogate */
    uint64_t pos;               /* offset of the chunk being fed */
    uint64_t run;               /* bytes of the current token or blank run */
    uint64_t tok_at;            /* where that began */
    enum jscan_shape shape;
    int ev_level, has_ev;
    uint64_t events, done;
    char key[JSCAN_KEY_MAX + 1];
    size_t keylen;
    int key_te;                 /* the root member being read is traceEvents */
    int key_sys;                /* ... is systemTraceEvents */
    int sys_text;
    int str_any;                /* the string read has content */
    int member;                 /* MEMBERS: a member value is being handed on */
    int mstring;                /* ... a string, unescaped */
    int raw;                    /* raw text is being handed on */
    const unsigned char *from;  /* start of the run in the current chunk */
    const unsigned char *base;  /* the current chunk (offset pos) */
    size_t bom;
    char detail[200];
};

static const char *const lits[] = {"true", "false", "null"};

struct jscan *jscan_new(enum jscan_mode mode, const struct jscan_cb *cb)
{
    struct jscan *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->mode = cb ? mode : JSCAN_COUNT;
    if (cb)
        s->cb = *cb;
    return s;
}

void jscan_free(struct jscan *s)
{
    free(s);
}

static int is_array(const struct jscan *s, int level)
{
    return level > 0 && (s->stack[(level - 1) / 8] >> ((level - 1) % 8)) & 1;
}

static uint64_t offset(const struct jscan *s, const unsigned char *p)
{
    return s->pos + (uint64_t)(p - s->base);
}

static enum st_err bad(struct jscan *s, const unsigned char *p, const char *what)
{
    snprintf(s->detail, sizeof(s->detail), "invalid JSON at byte %llu: %s",
             (unsigned long long)offset(s, p), what);
    return ST_EFORMAT;
}

static enum st_err flush(struct jscan *s, const unsigned char *to)
{
    enum st_err e = ST_OK;
    if (s->from && to > s->from && s->cb.data)
        e = s->cb.data(s->cb.ctx, s->from, (size_t)(to - s->from));
    s->from = NULL;
    return e;
}

static enum st_err put(struct jscan *s, const void *p, size_t n)
{
    return s->cb.data ? s->cb.data(s->cb.ctx, p, n) : ST_OK;
}

/* ---- values begin and end ------------------------------------------ */

static enum st_err member_begin(struct jscan *s, const unsigned char *p, unsigned char c)
{
    if (s->shape == JSCAN_SHAPE_UNKNOWN)
        s->shape = c == '"' ? JSCAN_SHAPE_STRINGS : JSCAN_SHAPE_OBJECT;
    if (s->key_te && c == '[') {
        s->ev_level = 2;
        s->has_ev = 1;
    }
    if (s->mode != JSCAN_MEMBERS)
        return ST_OK;
    s->key[s->keylen] = '\0';
    enum st_err e = s->cb.member ? s->cb.member(s->cb.ctx, s->key, c == '"') : ST_OK;
    s->member = 1;
    s->mstring = c == '"';
    s->raw = !s->mstring;
    s->from = s->mstring ? p + 1 : p;
    return e;
}

static enum st_err value_begin(struct jscan *s, const unsigned char *p, unsigned char c)
{
    if (s->ev_level && s->depth == s->ev_level)
        s->events++;
    if (s->depth == 0) {
        if (c == '[') {
            s->shape = JSCAN_SHAPE_ARRAY;
            s->ev_level = 1;
            s->has_ev = 1;
        } else if (c != '{') {
            s->shape = JSCAN_SHAPE_SCALAR;
        }
        if (s->mode == JSCAN_WHOLE) {
            s->raw = 1;
            s->from = p;
        }
        return ST_OK;
    }
    if (s->depth == 1 && !is_array(s, 1))
        return member_begin(s, p, c);
    return ST_OK;
}

/* A value ended just before `end`. */
static enum st_err value_end(struct jscan *s, const unsigned char *end)
{
    enum st_err e = ST_OK;
    if (s->ev_level && s->depth == s->ev_level)
        s->done++;
    s->st = s->depth ? S_AFTER : S_END;
    if (s->depth == 0 && s->raw) {
        s->raw = 0;
        return flush(s, end);
    }
    if (s->depth == 1 && s->member) {
        if (s->raw)
            e = flush(s, end);
        s->member = s->mstring = s->raw = 0;
        if (!e && s->cb.member_end)
            e = s->cb.member_end(s->cb.ctx);
    }
    return e;
}

static enum st_err push(struct jscan *s, const unsigned char *p, int array)
{
    if (s->depth == JSCAN_DEPTH_MAX)
        return bad(s, p, "nested deeper than 1024 levels");
    int b = s->depth++;
    if (array)
        s->stack[b / 8] |= (unsigned char)(1u << (b % 8));
    else
        s->stack[b / 8] &= (unsigned char)~(1u << (b % 8));
    s->st = array ? S_ARR_FIRST : S_OBJ_FIRST;
    return ST_OK;
}

static enum st_err pop(struct jscan *s, const unsigned char *p, unsigned char c)
{
    if ((c == ']') != is_array(s, s->depth))
        return bad(s, p, c == ']' ? "']' closes an object" : "'}' closes an array");
    if (s->depth == 1 && c == '}' && s->shape == JSCAN_SHAPE_UNKNOWN)
        s->shape = JSCAN_SHAPE_EMPTY;
    if (s->depth == s->ev_level)
        s->ev_level = 0;    /* the event array ended: nothing else counts */
    s->depth--;
    return value_end(s, p + 1);
}

/* ---- strings --------------------------------------------------------- */

static void key_add(struct jscan *s, const void *p, size_t n)
{
    size_t room = JSCAN_KEY_MAX - s->keylen;
    if (n > room)
        n = room;
    memcpy(s->key + s->keylen, p, n);
    s->keylen += n;
}

static size_t utf8(unsigned cp, unsigned char *o)
{
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A lone high surrogate before anything but its low half. */
static enum st_err lone_hi(struct jscan *s)
{
    if (!s->hi)
        return ST_OK;
    s->hi = 0;
    return put(s, "\xef\xbf\xbd", 3);
}

/* One decoded UTF-16 unit of an unescaped string (member value or key). */
static enum st_err unit(struct jscan *s, unsigned v)
{
    unsigned char o[4];
    if (s->str_key) {   /* keys only name parts: no pairing needed */
        key_add(s, o, utf8(v >= 0xd800 && v < 0xe000 ? 0xfffd : v, o));
        return ST_OK;
    }
    if (s->hi && v >= 0xdc00 && v < 0xe000) {
        unsigned cp = 0x10000 + ((s->hi - 0xd800) << 10) + (v - 0xdc00);
        s->hi = 0;
        return put(s, o, utf8(cp, o));
    }
    enum st_err e = lone_hi(s);
    if (e)
        return e;
    if (v >= 0xd800 && v < 0xdc00) {
        s->hi = v;
        return ST_OK;
    }
    return put(s, o, utf8(v >= 0xdc00 && v < 0xe000 ? 0xfffd : v, o));
}

/* The string is a root member name (kept, unescaped, as the key). */
static int keying(const struct jscan *s)
{
    return s->str_key && s->depth == 1 && !is_array(s, 1);
}

/* The string is a member value handed on unescaped (JSCAN_MEMBERS). */
static int unescaping(const struct jscan *s)
{
    return s->mstring && s->depth == 1 && !s->str_key;
}

static enum st_err string_end(struct jscan *s, const unsigned char *q)
{
    enum st_err e = ST_OK;
    s->run = 0;
    if (s->depth == 1 && !s->str_key && s->key_sys && s->str_any)
        s->sys_text = 1;
    if (s->str_key) {
        s->str_key = 0;
        s->key_te = s->depth == 1 && s->keylen == 11 && !memcmp(s->key, "traceEvents", 11);
        s->key_sys = s->depth == 1 && s->keylen == 17 &&
                     !memcmp(s->key, "systemTraceEvents", 17);
        s->st = S_COLON;
        return ST_OK;
    }
    if (s->mstring && s->depth == 1) {
        if ((e = flush(s, q)) || (e = lone_hi(s)))
            return e;
    }
    return value_end(s, q + 1);
}

/* Plain string bytes from p: returns where a quote, backslash or control
 * byte stopped it (or end). */
static const unsigned char *string_run(struct jscan *s, const unsigned char *p,
                                       const unsigned char *end, enum st_err *e)
{
    const unsigned char *q = p;
    while (q < end && *q != '"' && *q != '\\' && *q >= 0x20)
        q++;
    if (q > p)
        s->str_any = 1;
    if (q > p && s->hi && s->mstring && (*e = lone_hi(s)))
        return q;
    if (keying(s))
        key_add(s, p, (size_t)(q - p));
    s->run += (uint64_t)(q - p);
    if (s->run > JSCAN_TOKEN_MAX && !(s->mstring && s->depth == 1)) {
        snprintf(s->detail, sizeof(s->detail),
                 "a JSON string longer than %llu MB at byte %llu: no trace has one",
                 (unsigned long long)(JSCAN_TOKEN_MAX >> 20), (unsigned long long)s->tok_at);
        *e = ST_ETOOBIG;
    }
    return q;
}

/* An escape ending at p stood for v: a key keeps it, an unescaped value
 * hands it on and goes on after it; raw text keeps the escape as it is. */
static enum st_err decoded(struct jscan *s, const unsigned char *p, unsigned v)
{
    if (keying(s))
        return unit(s, v);
    if (!unescaping(s))
        return ST_OK;
    s->from = p + 1;
    return unit(s, v);
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The byte after a backslash. */
static enum st_err escape(struct jscan *s, const unsigned char *p)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = *p ? strchr(from, *p) : NULL;
    if (*p == 'u') {
        s->str_any = 1;
        s->st = S_HEX;
        s->hexn = 0;
        s->hex = 0;
        return ST_OK;
    }
    if (!k)
        return bad(s, p, "invalid escape in a string");
    s->str_any = 1;
    s->st = S_STR;
    return decoded(s, p, (unsigned char)to[k - from]);
}

static enum st_err hex_digit(struct jscan *s, const unsigned char *p)
{
    int v = hexval(*p);
    if (v < 0)
        return bad(s, p, "invalid \\u escape in a string");
    s->hex = s->hex * 16 + (unsigned)v;
    if (++s->hexn < 4)
        return ST_OK;
    s->st = S_STR;
    return decoded(s, p, s->hex);
}

/* In S_STR at *pp: a run, then the byte that stopped it; *pp goes past. */
static enum st_err in_string(struct jscan *s, const unsigned char **pp,
                             const unsigned char *end)
{
    enum st_err e = ST_OK;
    const unsigned char *q = string_run(s, *pp, end, &e);
    *pp = q < end ? q + 1 : q;
    if (e || q == end)
        return e;
    if (*q == '"')
        return string_end(s, q);
    if (*q == '\\') {
        if (unescaping(s) && (e = flush(s, q)))
            return e;
        s->st = S_ESC;
        return ST_OK;
    }
    return bad(s, q, "control character inside a string");
}

/* ---- numbers, literals ------------------------------------------------ */

static int num_complete(int num)
{
    return num == N_ZERO || num == N_INT || num == N_FRAC || num == N_EXP;
}

/* *ended: the number ended before p (p is not part of it). */
static enum st_err in_number(struct jscan *s, const unsigned char *p, int *ended)
{
    unsigned char c = *p;
    int digit = c >= '0' && c <= '9', exp = c == 'e' || c == 'E';
    int next = -1;
    switch (s->num) {
    case N_MINUS: next = c == '0' ? N_ZERO : digit ? N_INT : -1; break;
    case N_ZERO: next = c == '.' ? N_DOT : exp ? N_E : digit ? -1 : -2; break;
    case N_INT: next = digit ? N_INT : c == '.' ? N_DOT : exp ? N_E : -2; break;
    case N_DOT: next = digit ? N_FRAC : -1; break;
    case N_FRAC: next = digit ? N_FRAC : exp ? N_E : -2; break;
    case N_E: next = c == '+' || c == '-' ? N_ESIGN : digit ? N_EXP : -1; break;
    case N_ESIGN: next = digit ? N_EXP : -1; break;
    default: next = digit ? N_EXP : -2; break;
    }
    *ended = next == -2;
    if (next == -2)
        return value_end(s, p);
    if (next == -1)
        return bad(s, p, "invalid number");
    if (++s->run > JSCAN_NUMBER_MAX)
        return bad(s, p, "a number longer than 4096 bytes");
    s->num = next;
    return ST_OK;
}

static enum st_err in_literal(struct jscan *s, const unsigned char *p)
{
    if (*p != (unsigned char)s->lit[s->litpos])
        return bad(s, p, "invalid literal (true, false or null expected)");
    if (s->lit[++s->litpos])
        return ST_OK;
    return value_end(s, p + 1);
}

/* ---- structure ----------------------------------------------------- */

static enum st_err start_value(struct jscan *s, const unsigned char *p)
{
    unsigned char c = *p;
    int lit = c == 't' ? 0 : c == 'f' ? 1 : c == 'n' ? 2 : -1;
    if (c != '{' && c != '[' && c != '"' && c != '-' && !(c >= '0' && c <= '9') && lit < 0)
        return bad(s, p, "expected a value");
    enum st_err e = value_begin(s, p, c);
    if (e)
        return e;
    if (c == '{' || c == '[')
        return push(s, p, c == '[');
    if (c == '"') {
        s->tok_at = offset(s, p);
        s->st = S_STR;
        s->str_key = 0;
        s->str_any = 0;
    } else if (lit >= 0) {
        s->st = S_LIT;
        s->lit = lits[lit];
        s->litpos = 1;
    } else {
        s->st = S_NUM;
        s->num = c == '-' ? N_MINUS : c == '0' ? N_ZERO : N_INT;
        s->run = 1;
    }
    return ST_OK;
}

static enum st_err structural(struct jscan *s, const unsigned char *p)
{
    unsigned char c = *p;
    switch (s->st) {
    case S_ARR_FIRST:
        if (c == ']')
            return pop(s, p, c);
        return start_value(s, p);
    case S_OBJ_FIRST:
        if (c == '}')
            return pop(s, p, c);
        /* fall through */
    case S_OBJ_KEY:
        if (c != '"')
            return bad(s, p, "expected a member name in double quotes");
        s->tok_at = offset(s, p);
        s->st = S_STR;
        s->str_key = 1;
        s->str_any = 0;
        if (s->depth == 1)
            s->keylen = 0;
        return ST_OK;
    case S_COLON:
        if (c != ':')
            return bad(s, p, "expected ':' after a member name");
        s->st = S_VALUE;
        return ST_OK;
    case S_AFTER:
        if (c == ',') {
            s->st = is_array(s, s->depth) ? S_VALUE : S_OBJ_KEY;
            return ST_OK;
        }
        if (c == ']' || c == '}')
            return pop(s, p, c);
        return bad(s, p, is_array(s, s->depth) ? "expected ',' or ']'" : "expected ',' or '}'");
    case S_END:
        return bad(s, p, "more data after the JSON value");
    default:
        return start_value(s, p);
    }
}

static int blank(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Blanks between tokens, and a UTF-8 byte order mark before the root. */
static enum st_err skip(struct jscan *s, const unsigned char *p, int *skipped)
{
    static const unsigned char bom[] = {0xef, 0xbb, 0xbf};
    *skipped = 1;
    if (s->st == S_VALUE && !s->depth && s->bom < 3 && offset(s, p) == s->bom &&
        *p == bom[s->bom]) {
        s->bom++;
        return ST_OK;
    }
    if (!blank(*p)) {
        *skipped = 0;
        s->run = 0;
        return ST_OK;
    }
    if (!s->run)
        s->tok_at = offset(s, p);
    if (++s->run <= JSCAN_TOKEN_MAX)
        return ST_OK;
    snprintf(s->detail, sizeof(s->detail),
             "more than %llu MB of blanks at byte %llu: no trace has them",
             (unsigned long long)(JSCAN_TOKEN_MAX >> 20), (unsigned long long)s->tok_at);
    return ST_ETOOBIG;
}

static enum st_err step(struct jscan *s, const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    enum st_err e;
    int more;
    *pp = p + 1;
    switch (s->st) {
    case S_STR:
        *pp = p;
        return in_string(s, pp, end);
    case S_ESC:
        return escape(s, p);
    case S_HEX:
        return hex_digit(s, p);
    case S_NUM:
        e = in_number(s, p, &more);
        if (more)
            *pp = p;    /* it ended there: p is the next token */
        return e;
    case S_LIT:
        return in_literal(s, p);
    default:
        if ((e = skip(s, p, &more)) || more)
            return e;
        return structural(s, p);
    }
}

enum st_err jscan_feed(struct jscan *s, const void *buf, size_t n)
{
    const unsigned char *p = buf, *end = p + n;
    enum st_err e = ST_OK;
    s->base = p;
    s->from = s->raw || (s->mstring && s->st == S_STR) ? p : NULL;
    while (p < end && !e)
        e = step(s, &p, end);
    if (!e)
        e = flush(s, end);
    s->pos += n;
    s->from = NULL;
    return e;
}

/* ---- the end ----------------------------------------------------------- */

/* The shortest text that closes what is open, down to level `floor`. */
static size_t closing(const struct jscan *s, int floor, char *o, size_t cap)
{
    size_t n = 0;
    const char *t = "";
    int in_events = s->ev_level && s->depth == s->ev_level;
    switch (s->st) {
    case S_ESC: t = s->str_key ? "\\\":null" : "\\\""; break;
    case S_HEX: t = s->str_key ? "\":null" : "\""; break;
    case S_STR: t = s->str_key ? "\":null" : "\""; break;
    case S_NUM: t = num_complete(s->num) ? "" : "0"; break;
    case S_LIT: t = s->lit + s->litpos; break;
    case S_VALUE: t = s->depth ? (in_events ? "{}" : "null") : ""; break;
    case S_OBJ_KEY: t = "\"\":null"; break;
    case S_COLON: t = ":null"; break;
    default: break;
    }
    if (s->st == S_HEX)
        for (int k = s->hexn; k < 4; k++)
            o[n++] = '0';
    size_t tl = strlen(t);
    memcpy(o + n, t, tl);
    n += tl;
    for (int d = s->depth; d > floor && n < cap; d--)
        o[n++] = is_array(s, d) ? ']' : '}';
    return n;
}

static enum st_err truncated(struct jscan *s)
{
    char tail[JSCAN_DEPTH_MAX + 32];
    enum st_err e = ST_OK;
    if (s->mode == JSCAN_WHOLE && s->raw)
        e = put(s, tail, closing(s, 0, tail, sizeof(tail)));
    if (s->mode == JSCAN_MEMBERS && s->member) {
        if (s->raw)
            e = put(s, tail, closing(s, 1, tail, sizeof(tail)));
        else if (s->st == S_STR || s->st == S_ESC || s->st == S_HEX)
            e = lone_hi(s);     /* an unescaped string keeps what it had */
        if (!e && s->cb.member_end)
            e = s->cb.member_end(s->cb.ctx);
        s->member = s->mstring = s->raw = 0;
    }
    if (e)
        return e;
    if (s->has_ev)
        snprintf(s->detail, sizeof(s->detail),
                 "the JSON is cut short at byte %llu; kept the %llu complete trace "
                 "events before the cut", (unsigned long long)s->pos,
                 (unsigned long long)s->done);
    else
        snprintf(s->detail, sizeof(s->detail),
                 "the JSON is cut short at byte %llu; kept what was there",
                 (unsigned long long)s->pos);
    return ST_ETRUNCATED;
}

enum st_err jscan_finish(struct jscan *s)
{
    s->base = NULL;
    if (s->st == S_END)
        return ST_OK;
    if (s->st == S_VALUE && !s->depth) {
        snprintf(s->detail, sizeof(s->detail), "no JSON value in it, only blanks");
        return ST_ENOTRACE;
    }
    if (s->st == S_NUM && !s->depth && num_complete(s->num)) {
        s->from = NULL;
        return value_end(s, NULL);
    }
    return truncated(s);
}

enum jscan_shape jscan_shape(const struct jscan *s)
{
    return s->shape;
}

uint64_t jscan_events(const struct jscan *s)
{
    return s->events;
}

uint64_t jscan_events_complete(const struct jscan *s)
{
    return s->done;
}

int jscan_system_text(const struct jscan *s)
{
    return s->sys_text;
}

int jscan_has_event_array(const struct jscan *s)
{
    return s->has_ev;
}

const char *jscan_detail(const struct jscan *s)
{
    return s->detail;
}
