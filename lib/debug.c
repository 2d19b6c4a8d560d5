/* Topic-based debug logging to stderr; see debug.h. */
#include "debug.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned st_debug_mask;

static const struct {
    const char *name;
    unsigned bit;
} topics[] = {
    {"adb", DBG_ADB},       {"wire", DBG_WIRE},     {"sync", DBG_SYNC},
    {"atrace", DBG_ATRACE}, {"decode", DBG_DECODE}, {"sim", DBG_SIM},
    {"usb", DBG_USB},       {"auth", DBG_AUTH},     {"ftrace", DBG_FTRACE},
    {"method", DBG_METHOD},
};

void st_debug_init(void)
{
    const char *env = getenv("SYSTRACE_DEBUG");
    unsigned mask = 0;
    const char *p = env ? env : "";
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 3 && !strncmp(p, "all", 3))
            mask = ~0u;
        for (size_t i = 0; i < sizeof(topics) / sizeof(topics[0]); i++)
            if (strlen(topics[i].name) == n && !strncmp(p, topics[i].name, n))
                mask |= topics[i].bit;
        p += n;
        if (*p == ',')
            p++;
    }
    /* written only when it changes: clients made on several threads at
     * once (one per device) then only read it */
    if (mask != st_debug_mask)
        st_debug_mask = mask;
}

static const char *topic_name(enum st_dbg_topic t)
{
    for (size_t i = 0; i < sizeof(topics) / sizeof(topics[0]); i++)
        if (topics[i].bit == (unsigned)t)
            return topics[i].name;
    return "?";
}

void st_debug_log(enum st_dbg_topic t, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "[%s] ", topic_name(t));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void st_debug_hex(enum st_dbg_topic t, const char *what, const void *p, size_t n)
{
    if (!(st_debug_mask & t))
        return;
    const unsigned char *b = p;
    size_t shown = n > 256 ? 256 : n;
    fprintf(stderr, "[%s] %s (%zu bytes)\n", topic_name(t), what, n);
    for (size_t off = 0; off < shown; off += 16) {
        char hex[16 * 3 + 1], asc[17];
        size_t i;
        for (i = 0; i < 16 && off + i < shown; i++) {
            unsigned char c = b[off + i];
            snprintf(hex + i * 3, 4, "%02x ", c);
            asc[i] = (c >= 32 && c < 127) ? (char)c : '.';
        }
        asc[i] = '\0';
        hex[i * 3] = '\0';
        fprintf(stderr, "  %04zx  %-48s %s\n", off, hex, asc);
    }
    if (shown < n)
        fprintf(stderr, "  ... %zu more bytes\n", n - shown);
}
