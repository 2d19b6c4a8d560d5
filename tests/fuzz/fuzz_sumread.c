/* libFuzzer target: systrace compare's reader of summaries
 * (formats/summary/sumread.h) on any bytes: it either names metrics or
 * refuses with a message, never reads outside the input, and every name
 * fits its bound. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/summary/sumread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_metric(void *ctx, const char *name, double v)
{
    (void)v;
    if (strlen(name) >= SUMREAD_NAME_MAX)
        __builtin_trap();
    (*(size_t *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *p = malloc(size + 1);     /* the reader wants a NUL after the bytes */
    if (!p)
        return 0;
    memcpy(p, data, size);
    p[size] = '\0';
    char err[200] = "";
    size_t n = 0;
    (void)sumread_sniff(p, size);
    if (sumread_metrics(p, size, on_metric, &n, err, sizeof(err)) && !err[0])
        __builtin_trap();   /* a refusal always says why */
    free(p);
    return 0;
}
