/* libFuzzer target: the Perfetto trace reader (formats/perfetto/pftrace.h),
 * both passes, fed in chunks whose size the first byte picks (so packets,
 * varints and compressed packets are cut at every place), then the process
 * dump.  Every line handed on must end with '\n'. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/perfetto/pftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum st_err sink(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    if (n && ((const char *)p)[n - 1] != '\n')
        abort();
    return ST_OK;
}

static void feed(struct pftrace *t, const uint8_t *data, size_t size, size_t chunk, int scan)
{
    for (size_t i = 0; i < size; i += chunk) {
        size_t n = size - i < chunk ? size - i : chunk;
        if (scan ? pftrace_scan_feed(t, data + i, n) : pftrace_feed(t, data + i, n))
            return;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pftrace *t = pftrace_new();
    if (!t)
        return 0;
    size_t chunk = size ? (size_t)(data[0] % 97) + 1 : 1;
    feed(t, data, size, chunk, 1);
    pftrace_scan_finish(t);
    pftrace_set_output(t, sink, NULL);
    feed(t, data, size, chunk * 7, 0);
    pftrace_finish(t);
    pftrace_process_dump(t, sink, NULL);
    pftrace_free(t);
    return 0;
}
