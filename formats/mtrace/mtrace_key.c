/*
 * Key-section lines of a method trace (the text in front of a classic
 * file's binary data, and the summary packet at the end of a streaming
 * file): "*version", "key=value" options, "*threads" (id TAB name),
 * "*methods" (id TAB class [TAB name TAB sig [TAB file [TAB line]]]),
 * "*end".  Format notes: docs/method-traces.md, "Key section".
 *
 * Pure, bounded parsers over (pointer, length); nothing is NUL-terminated
 * and nothing is written into the input.  Unlike dmtracedump, ART's
 * 5-column lines are split cleanly (its signatures keep "\tFile.java").
 * Unknown options are ignored; unknown "*sections" are an error.
 */
#include "mtrace_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The readers' error text: the key parser is the lowest file of the
 * module, so every reader reaches it by calling down. */
void mt_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Unsigned number like strtoul(base 0): 0x hex, leading 0 octal, else
 * decimal; the whole token must be digits and fit in 32 bits. */
static int parse_u32(const char *p, size_t n, uint32_t *out)
{
    unsigned base = 10;
    size_t i = 0;
    if (n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (n >= 2 && p[0] == '0') {
        base = 8;
        i = 1;
    }
    if (i >= n)
        return -1;
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d;
        char c = p[i];
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return -1;
        if (d >= base)
            return -1;
        v = v * base + d;
        if (v > UINT32_MAX)
            return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* Signed decimal, lenient on a token ("-1", "170"): stops at a non-digit. */
static int32_t parse_i32(const char *p, size_t n)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (p[i] == '-' || p[i] == '+'))
        neg = p[i++] == '-';
    int64_t v = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
        v = v * 10 + (p[i] - '0');
        if (v > INT32_MAX)
            return -1;
    }
    return (int32_t)(neg ? -v : v);
}

int mt_parse_method_line(const char *p, size_t n, struct mt_mline *out)
{
    memset(out, 0, sizeof(*out));
    const char *tab = memchr(p, '\t', n);
    if (!tab)
        return -1;                  /* an id alone is not a method */
    if (parse_u32(p, (size_t)(tab - p), &out->id) != 0)
        return -1;
    const char *s = tab + 1, *end = p + n;
    while (out->nf < 5) {
        const char *t = memchr(s, '\t', (size_t)(end - s));
        const char *fe = t ? t : end;
        out->f[out->nf] = s;
        out->n[out->nf] = (size_t)(fe - s);
        out->nf++;
        if (!t)
            break;
        s = t + 1;
    }
    return 0;
}

int mt_parse_thread_line(const char *p, size_t n, uint32_t *id,
                         const char **name, size_t *namelen)
{
    const char *tab = memchr(p, '\t', n);
    size_t idlen = tab ? (size_t)(tab - p) : n;
    uint64_t v = 0;
    if (idlen == 0 || idlen > 10)
        return -1;
    for (size_t i = 0; i < idlen; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    if (v > UINT32_MAX)
        return -1;
    *id = (uint32_t)v;
    *name = tab ? tab + 1 : p + n;
    *namelen = tab ? n - idlen - 1 : 0;
    return 0;
}

enum st_err mt_method_from_line(struct mt_tables *t, const char *p, size_t n,
                                char *err, size_t errlen)
{
    struct mt_mline ml;
    if (mt_parse_method_line(p, n, &ml) != 0) {
        mt_err(err, errlen, "bad method line '%.*s'",
               (int)(n > 60 ? 60 : n), p);
        return ST_EFORMAT;
    }
    struct mt_method m = { .id = ml.id, .line = -1 };
    uint32_t *dst[4] = { &m.cls, &m.name, &m.sig, &m.file };
    enum st_err e = ST_OK;
    for (int i = 0; i < 4 && i < ml.nf && e == ST_OK; i++)
        e = mt_add_str(t, ml.f[i], ml.n[i], dst[i]);
    if (e != ST_OK)
        return e;
    if (ml.nf == 1)
        m.flags = MT_M_NONAME;      /* "id TAB name": a bare function name */
    if (ml.nf >= 5)
        m.line = parse_i32(ml.f[4], ml.n[4]);
    uint32_t idx;
    return mt_method_put(t, &m, &idx);
}

static void copy_opt(char *dst, size_t cap, const char *p, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, p, n);
    dst[n] = '\0';
}

static void option_line(struct mt_tables *t, const char *p, size_t n)
{
    const char *eq = memchr(p, '=', n);
    if (!eq)
        return;
    size_t kl = (size_t)(eq - p), vl = n - kl - 1;
    const char *v = eq + 1;
    if (kl == 5 && memcmp(p, "clock", 5) == 0) {
        copy_opt(t->clock, sizeof(t->clock), v, vl);
    } else if (kl == 2 && memcmp(p, "vm", 2) == 0) {
        copy_opt(t->vm, sizeof(t->vm), v, vl);
    } else if (kl == 3 && memcmp(p, "pid", 3) == 0) {
        uint32_t pid;
        if (parse_u32(v, vl, &pid) == 0 && pid <= 0x7fffffff)
            t->pid = (long)pid;
    } else if (kl == 17 && memcmp(p, "elapsed-time-usec", 17) == 0) {
        int64_t us = 0;
        size_t i = 0;
        while (i < vl && i < 18 && v[i] >= '0' && v[i] <= '9')
            us = us * 10 + (v[i++] - '0');
        if (i == vl && vl > 0)
            t->elapsed_us = us;
    } else if (kl == 18 && memcmp(p, "data-file-overflow", 18) == 0) {
        t->overflow = vl == 4 && memcmp(v, "true", 4) == 0;
    }
}

static int section_of(const char *p, size_t n)
{
    static const struct { const char *s; int sec; } names[] = {
        { "version", MT_SEC_VERSION }, { "threads", MT_SEC_THREADS },
        { "methods", MT_SEC_METHODS }, { "end", MT_SEC_END },
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t l = strlen(names[i].s);
        if (n == l && memcmp(p, names[i].s, l) == 0)
            return names[i].sec;
    }
    return -1;
}

static enum st_err version_line(struct mt_tables *t, struct mt_keyp *kp,
                                const char *p, size_t n, char *err,
                                size_t errlen)
{
    uint32_t v;
    if (parse_u32(p, n, &v) != 0 || v == 0 || v > 0xffff) {
        mt_err(err, errlen, "bad version line '%.*s'",
               (int)(n > 20 ? 20 : n), p);
        return ST_EFORMAT;
    }
    if (!kp->replay && !kp->summary)
        t->key_version = (int)v;
    kp->section = MT_SEC_OPTIONS;
    return ST_OK;
}

enum st_err mt_key_line(struct mt_tables *t, struct mt_keyp *kp,
                        const char *p, size_t n, char *err, size_t errlen)
{
    if (n && p[n - 1] == '\r')
        n--;                        /* tolerate CRLF in the text part */
    if (n && p[0] == '*') {
        int sec = section_of(p + 1, n - 1);
        if (sec < 0) {
            mt_err(err, errlen, "unknown key section '%.*s'",
                   (int)(n > 20 ? 20 : n), p);
            return ST_EFORMAT;
        }
        if ((kp->section == MT_SEC_NONE) != (sec == MT_SEC_VERSION)) {
            mt_err(err, errlen, kp->section == MT_SEC_NONE
                   ? "key section does not start with *version"
                   : "second *version line");
            return ST_EFORMAT;
        }
        kp->section = sec;
        return ST_OK;
    }
    if (kp->section == MT_SEC_NONE) {
        mt_err(err, errlen, "key section does not start with *version");
        return ST_EFORMAT;
    }
    if (n == 0)
        return ST_OK;
    if (kp->section == MT_SEC_VERSION)
        return version_line(t, kp, p, n, err, errlen);
    if (kp->replay)
        return ST_OK;
    if (kp->section == MT_SEC_OPTIONS) {
        option_line(t, p, n);
    } else if (kp->section == MT_SEC_THREADS) {
        uint32_t id;
        const char *name;
        size_t nl;
        if (mt_parse_thread_line(p, n, &id, &name, &nl) != 0) {
            mt_err(err, errlen, "bad thread line '%.*s'",
                   (int)(n > 60 ? 60 : n), p);
            return ST_EFORMAT;
        }
        return mt_thread_name(t, id, name, nl, 0);
    } else if (kp->section == MT_SEC_METHODS) {
        return mt_method_from_line(t, p, n, err, errlen);
    }
    return ST_OK;
}
