/*
 * libFuzzer target for the method-trace reader and everything behind it:
 * profile (text and TSV), call graph, trace-event JSON and atrace text
 * (whose lines must keep the line format whatever the names), with the input
 * fed in pieces whose size comes from the first byte (so items split at
 * every position).  Build:
 *   clang -fsanitize=fuzzer,address,undefined -I. \
 *     tests/fuzz/fuzz_mtrace.c formats/mtrace/mtrace_*.c lib/dynbuf.c \
 *     lib/error.c lib/debug.c -lz -lcrypto
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/mtrace/mtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int discard(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return 0;
}

/* The atrace text form: after the header, every line is a B or E line
 * whose name holds no line break, control character, U+2028/U+2029. */
struct text_check {
    int part;           /* 0 none, 1 process dump, 2 text */
    int at_line_start;
};

static int text_part(void *ctx, const char *name)
{
    struct text_check *c = ctx;
    c->part = strcmp(name, "systemTraceEvents") ? 1 : 2;
    c->at_line_start = 1;
    return 0;
}

static int text_write(void *ctx, const void *p, size_t n)
{
    struct text_check *c = ctx;
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        if (c->part == 0)
            __builtin_trap();   /* text before its part began */
        if ((s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7f)
            __builtin_trap();
        if (s[i] == 0xe2 && i + 2 < n && s[i + 1] == 0x80 &&
            (s[i + 2] == 0xa8 || s[i + 2] == 0xa9))
            __builtin_trap();
        c->at_line_start = s[i] == '\n';
    }
    return 0;
}

static void atrace_text(const struct mtrace_src *src, unsigned flags)
{
    struct mtrace_json_opts o = {
        .ts_shift_us = flags & 2 ? -1000000000000000LL : 0,
        .thread_suffix = flags & 4 ? " (methods)" : NULL,
    };
    struct text_check c = {0, 1};
    struct mtrace_info info;
    char err[256];
    if (mtrace_to_atrace_src(src, &o, text_part, text_write, &c, &info, err,
                             sizeof(err)) == 0 && !c.at_line_start)
        __builtin_trap();       /* the text ends with a whole line */
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
    atrace_text(&src, data[0]);
    mtrace_detect(data, size);
    mtrace_sniff_other(data, size);
    return 0;
}
