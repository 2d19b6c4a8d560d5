/*
 * Helpers shared by the unit tests: reading files, finding the corpus
 * (tests skip with a message when it is absent), and a memory text_sink
 * with the same tell/keep semantics as the output file.
 */
#ifndef SYSTRACE_TESTUTIL_H
#define SYSTRACE_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/dynbuf.h"
#include "lib/sink.h"

static inline char *tu_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct dynbuf b;
    dynbuf_init(&b, 1u << 30);
    char tmp[65536];
    size_t r;
    while ((r = fread(tmp, 1, sizeof(tmp), f)) > 0)
        if (dynbuf_add(&b, tmp, r))
            break;
    fclose(f);
    return dynbuf_take(&b, len);
}

/* Path of a corpus file, or NULL (and the test is skipped) when absent. */
static inline const char *tu_corpus(const char *rel)
{
    static char path[4096];
    const char *c = getenv("CORPUS");
    snprintf(path, sizeof(path), "%s/%s", c ? c : "../shared/corpus", rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("corpus file %s absent; skipping\n", path);
        return NULL;
    }
    fclose(f);
    return path;
}

struct memsink {
    struct dynbuf b;
};

static inline enum st_err ms_write(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(&((struct memsink *)ctx)->b, p, n);
}

static inline uint64_t ms_tell(void *ctx)
{
    return ((struct memsink *)ctx)->b.len;
}

static inline enum st_err ms_keep(void *ctx, uint64_t a, uint64_t b)
{
    struct memsink *m = ctx;
    struct dynbuf n;
    dynbuf_init(&n, m->b.max);
    dynbuf_add(&n, m->b.data, (size_t)a);
    dynbuf_add(&n, m->b.data + b, m->b.len - (size_t)b);
    dynbuf_free(&m->b);
    m->b = n;
    return ST_OK;
}

static inline void ms_init(struct memsink *m, struct text_sink *s)
{
    dynbuf_init(&m->b, 1u << 30);
    s->write = ms_write;
    s->tell = ms_tell;
    s->keep = ms_keep;
    s->ctx = m;
}

#endif
