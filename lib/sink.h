/*
 * The two shapes output takes between stages: a plain write callback
 * (zlib-style streaming: every stage hands on bytes as it decides them), and
 * a text sink that can also report its offset and rewrite its own tail
 * (used by the circular-buffer repair on the final output file).
 */
#ifndef SYSTRACE_SINK_H
#define SYSTRACE_SINK_H

#include <stddef.h>
#include <stdint.h>
#include "error.h"

typedef enum st_err (*st_write_fn)(void *ctx, const void *p, size_t n);

struct text_sink {
    st_write_fn write;
    uint64_t (*tell)(void *ctx);
    /* make the output [0, a) + [b, end) */
    enum st_err (*keep)(void *ctx, uint64_t a, uint64_t b);
    void *ctx;
};

#endif
