/*
 * libFuzzer target for the method-trace reader and everything behind it:
 * profile (text and TSV), call graph and trace-event JSON, with the input
 * fed in pieces whose size comes from the first byte (so items split at
 * every position).  Build:
 *   clang -fsanitize=fuzzer,address,undefined -I. \
 *     tests/fuzz/fuzz_mtrace.c formats/mtrace/mtrace_*.c lib/dynbuf.c \
 *     lib/error.c lib/debug.c -lz -lcrypto
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/mtrace/mtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int discard(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    if (size < 1 || !null)
        return 0;
    size_t chunk = data[0] % 64;
    struct mtrace_src src = { .data = data + 1, .len = size - 1,
                              .chunk = chunk };
    struct mtrace_info info;
    char err[256];
    mtrace_profile_src(&src, null, data[0] & 64 ? MTRACE_FMT_TSV
                                                : MTRACE_FMT_TEXT,
                       data[0] & 128 ? MTRACE_CLOCK_WALL
                                     : MTRACE_CLOCK_DEFAULT,
                       &info, err, sizeof(err));
    mtrace_callgraph_src(&src, null, 5.0, MTRACE_CLOCK_DEFAULT, &info, err,
                         sizeof(err));
    struct mtrace_json_opts o = { .max_depth = data[0] & 1 ? 3 : 0 };
    mtrace_to_trace_events_src(&src, &o, discard, NULL, &info, err,
                               sizeof(err));
    mtrace_detect(data, size);
    mtrace_sniff_other(data, size);
    return 0;
}
