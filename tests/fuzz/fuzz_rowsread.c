/* libFuzzer target: systrace compare's reader of --rows files
 * (src/rowsread.h) on any bytes, read as JSON Lines and as CSV: it either
 * hands on runs and metrics or refuses with a message; names and traces
 * are NUL-ended within their bounds; never a read outside the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/rowsread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_run(void *ctx, const char *trace)
{
    if (strlen(trace) >= 1024)
        __builtin_trap();
    (*(size_t *)ctx)++;
}

static void on_metric(void *ctx, const char *name, double v)
{
    (void)v;
    if (!*name || strlen(name) >= 1024 || !*(size_t *)ctx)
        __builtin_trap();   /* a metric belongs to a run */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int kind = 1; kind <= 2; kind++) {
        FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
        if (!f)
            return 0;
        if (!size)
            fgetc(f);   /* fmemopen wants a size; read past it: empty */
        char err[200] = "";
        size_t runs = 0;
        struct rowsread_cb cb = {on_run, on_metric, &runs};
        if (rowsread(f, kind, &cb, err, sizeof(err)) && !err[0])
            __builtin_trap();   /* a refusal always says why */
        fclose(f);
    }
    (void)rowsread_sniff((const char *)data, size);
    return 0;
}
