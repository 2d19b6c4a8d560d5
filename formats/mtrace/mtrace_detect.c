/*
 * Recognising method traces by content, naming the other things Android
 * Studio also saves as "*.trace" (Perfetto, simpleperf, atrace text), and
 * turning read warnings into one-line messages.
 */
#include "mtrace_int.h"

#include <stdio.h>
#include <string.h>

static int starts(const unsigned char *b, size_t n, const char *s)
{
    size_t l = strlen(s);
    return n >= l && memcmp(b, s, l) == 0;
}

int mtrace_detect(const void *head, size_t n)
{
    const unsigned char *b = head;
    if (n < 4)
        return 0;
    if (starts(b, n, "*version"))
        return n < 9 || b[8] == '\n' || b[8] == '\r';
    if (memcmp(b, "SLOW", 4) != 0)
        return 0;
    if (n < 6)
        return 1;
    unsigned v = (unsigned)b[4] | (unsigned)b[5] << 8;
    return (v >= 1 && v <= 5) || (v >= 0xF1 && v <= 0xF5);
}

/* Text (printable ASCII, blanks, UTF-8 bytes) has no protobuf lengths and
 * tags in it: a text file starting with a blank line is not Perfetto. */
static int text_only(const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n && i < 512; i++)
        if (b[i] < 0x20 && b[i] != '\n' && b[i] != '\r' && b[i] != '\t')
            return 0;
    return 1;
}

const char *mtrace_sniff_other(const void *head, size_t n)
{
    const unsigned char *b = head;
    if (starts(b, n, "SIMPLEPERF"))
        return "a simpleperf recording";
    if (starts(b, n, "# tracer") || starts(b, n, "TRACE:") ||
        starts(b, n, "# tracer:"))
        return "an atrace/ftrace text capture";
    if (starts(b, n, "<!DOCTYPE") || starts(b, n, "<html"))
        return "an HTML file";
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return "gzip-compressed data";
    if (starts(b, n, "PK\x03\x04"))
        return "a zip archive";
    if (n >= 1 && (b[0] == '{' || b[0] == '['))
        return "JSON (a trace-event file?)";
    if (n >= 2 && b[0] == 0x0a && b[1] != 0 && !text_only(b, n))
        return "probably a Perfetto protobuf trace (systrace --from-file converts its "
               "ftrace events)";
    return NULL;
}

int mtrace_warnings(const struct mtrace_info *info,
                    void (*line)(void *ctx, const char *msg), void *ctx)
{
    char msg[200];
    int count = 0;
    unsigned w = info->warnings;
    unsigned long long at = (unsigned long long)info->warn_offset;
#define EMIT(...)                                                           \
    do {                                                                    \
        snprintf(msg, sizeof(msg), __VA_ARGS__);                            \
        line(ctx, msg);                                                     \
        count++;                                                            \
    } while (0)
    if (w & MTRACE_W_TRUNCATED)
        EMIT("truncated record at offset %llu ignored", at);
    if (w & MTRACE_W_NO_SUMMARY)
        EMIT("streaming trace has no summary (recording cut short?)");
    if (w & MTRACE_W_FILL)
        EMIT("unwritten trace buffer at offset %llu: rest ignored", at);
    if (w & MTRACE_W_TRAILING)
        EMIT("data after the summary at offset %llu ignored", at);
    if (w & MTRACE_W_OVERFLOW)
        EMIT("the trace buffer overflowed during recording: "
             "the end of the trace is missing");
    if (w & MTRACE_W_MISMATCH)
        EMIT("%llu exit(s) did not match the call stack",
             (unsigned long long)info->mismatches);
    if (w & MTRACE_W_CLAMPED)
        EMIT("%llu method event(s) before time 0 placed at 0",
             (unsigned long long)info->clamped);
#undef EMIT
    return count;
}
