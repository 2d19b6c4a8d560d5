/*
 * Fuzz the app-profile alignment's ftrace line parser (agents/android/align_line.c)
 * and feed what it finds through the alignment math: every input line is
 * parsed (bytes up to each LF), B lines become both sets, and the refine
 * must not crash or report more matches than calls; the fit check of the
 * found offset against the lines' time range must not overflow, and an
 * aligned trace exactly on the capture must fit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/align.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct align_marks m;
    struct align_set calls, begins;
    memset(&m, 0, sizeof(m));
    align_set_init(&calls);
    align_set_init(&begins);
    const char *p = (const char *)data, *end = p + size;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        struct align_line l;
        enum align_kind k = align_parse_line(p, n, &l);
        if (k != l.kind)
            abort();
        align_note_line(&l, 0, &m, &begins);
        if (k == ALIGN_L_BEGIN)
            align_set_add(&calls, l.tid, l.ts_us - (int64_t)(n % 7));
        if (k != ALIGN_L_OTHER) {
            lo = l.ts_us < lo ? l.ts_us : lo;
            hi = l.ts_us > hi ? l.ts_us : hi;
        }
        p += n + 1;
    }
    struct align_estimate e;
    align_estimate(&m, size & 1 ? 1500000000000000LL : 1000000, &e);
    struct align_result r;
    align_refine(&calls, &begins, &e, 1, &r);
    if (r.matched > r.calls)
        abort();
    if (lo <= hi) {
        (void)align_outside(lo, hi, r.offset_us, lo, hi);
        if (align_outside(lo, hi, 0, lo, hi))
            abort();
    }
    align_set_free(&calls);
    align_set_free(&begins);
    return 0;
}
