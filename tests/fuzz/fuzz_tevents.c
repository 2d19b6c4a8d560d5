/* libFuzzer target: the trace-event converter (formats/tevents/tevents*.c).  The
 * input is a process dump and ftrace text separated by the first NUL,
 * fed in chunks of a size taken from the first byte; whatever the input,
 * the output must be one valid JSON document (checked by a small
 * validator here) with a traceEvents array. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dynbuf.h"
#include "formats/tevents/tevents.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct dynbuf out;

static enum st_err w(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    return dynbuf_add(&out, p, n);
}

static uint64_t tell(void *ctx)
{
    (void)ctx;
    return out.len;
}

static enum st_err keep(void *ctx, uint64_t a, uint64_t b)
{
    (void)ctx;
    if (b != out.len || a > b)
        __builtin_trap();   /* the converter only ever truncates */
    out.len = (size_t)a;
    return ST_OK;
}

/* ---- a strict JSON validator ---- */
static const char *j, *jend;

static void ws(void)
{
    while (j < jend && (*j == ' ' || *j == '\n' || *j == '\r' || *j == '\t'))
        j++;
}

static int value(int depth);

static int string(void)
{
    if (j >= jend || *j++ != '"')
        return 0;
    while (j < jend && *j != '"') {
        unsigned char c = (unsigned char)*j++;
        if (c < 0x20)
            return 0;
        if (c == '\\') {
            if (j >= jend)
                return 0;
            char e = *j++;
            if (e == 'u') {
                for (int i = 0; i < 4; i++, j++)
                    if (j >= jend || !strchr("0123456789abcdefABCDEF", *j) || !*j)
                        return 0;
            } else if (!strchr("\"\\/bfnrt", e) || !e) {
                return 0;
            }
        }
    }
    return j++ < jend;
}

static int number(void)
{
    const char *s = j;
    if (j < jend && *j == '-')
        j++;
    if (j < jend && *j == '0')
        j++;
    else if (j < jend && *j >= '1' && *j <= '9')
        while (j < jend && *j >= '0' && *j <= '9')
            j++;
    else
        return 0;
    if (j < jend && *j == '.') {
        j++;
        const char *d = j;
        while (j < jend && *j >= '0' && *j <= '9')
            j++;
        if (j == d)
            return 0;
    }
    return j > s;
}

static int container(int depth, char close)
{
    j++;
    ws();
    if (j < jend && *j == close)
        return j++, 1;
    for (;;) {
        ws();
        if (close == '}' && (!string() || (ws(), j >= jend || *j++ != ':')))
            return 0;
        if (!value(depth + 1))
            return 0;
        ws();
        if (j < jend && *j == ',') {
            j++;
            continue;
        }
        return j < jend && *j++ == close;
    }
}

static int value(int depth)
{
    ws();
    if (j >= jend || depth > 64)
        return 0;
    if (*j == '{')
        return container(depth, '}');
    if (*j == '[')
        return container(depth, ']');
    if (*j == '"')
        return string();
    return number();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    size_t chunk = 1 + data[0] % 97;
    const char *p = (const char *)data + 1;
    size_t n = size - 1;
    const char *nul = memchr(p, '\0', n);
    size_t pd = nul ? (size_t)(nul - p) : 0;
    dynbuf_init(&out, 1u << 30);
    struct text_sink s = {w, tell, keep, NULL};
    struct tevents *t = tevents_new(&s);
    const char *names[] = {"androidProcessDump", "systemTraceEvents"};
    const char *bufs[] = {p, nul ? nul + 1 : p};
    size_t lens[] = {pd, nul ? n - pd - 1 : n};
    for (int k = 0; k < 2; k++) {
        tevents_begin_part(t, names[k]);
        for (size_t off = 0; off < lens[k]; off += chunk)
            tevents_feed(t, bufs[k] + off, lens[k] - off < chunk ? lens[k] - off : chunk);
        tevents_end_part(t);
    }
    if (tevents_finish(t) != ST_OK)
        __builtin_trap();
    j = out.data;
    jend = out.data + out.len;
    if (out.len < 16 || memcmp(out.data, "{\"traceEvents\":[", 16) || !value(0) ||
        (ws(), j != jend))
        __builtin_trap();
    tevents_free(t);
    dynbuf_free(&out);
    return 0;
}
