/* libFuzzer target: systrace HTML extraction, fed in two chunks. */
#include <stddef.h>
#include <stdint.h>

#include "formats/atrace/htmlextract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int depth;

static enum st_err b(void *ctx)
{
    (void)ctx;
    if (depth++)
        __builtin_trap();   /* blocks never nest */
    return ST_OK;
}

static enum st_err d(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    if (!depth)
        __builtin_trap();   /* data only inside a block */
    return ST_OK;
}

static enum st_err e(void *ctx)
{
    (void)ctx;
    depth--;
    return ST_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    depth = 0;
    struct htmlx_cb cb = {b, d, e, NULL};
    struct htmlx *x = htmlx_new(&cb);
    size_t cut = data[0] % size;
    if (!htmlx_feed(x, data + 1, cut ? cut - 1 : 0) &&
        !htmlx_feed(x, data + (cut ? cut : 1), size - (cut ? cut : 1)))
        htmlx_finish(x);
    htmlx_free(x);
    return 0;
}
