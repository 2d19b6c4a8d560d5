/*
 * The display's refresh rate from the trace (summary_int.h): SurfaceFlinger
 * flips its VSYNC-app and VSYNC-sf counters (atrace `C|pid|VSYNC-app|0/1`,
 * category gfx) once per vsync, so the median gap between flips is the
 * vsync period.  As the usual Perfetto analyses of these counters do, gaps
 * outside a window are left out (idle stretches, lost flips; they use 5.5-50
 * ms, here 4-50 ms so that 240 Hz is seen) and VSYNC-app is preferred over
 * VSYNC-sf.  Gaps that do not cluster (a counter flipped at random times,
 * as the device simulator does) say nothing.  The median is taken from a
 * histogram of 50 us bins, so memory stays fixed; it is then snapped to
 * one of the usual display rates (within 5%).  Only a rate above 60 Hz
 * changes the frame budget: the rule is 1/60 s unless the trace
 * says the display is faster.
 */
#include "summary_int.h"

const unsigned sum_rates[SUM_RATES] = {60, 72, 90, 100, 120, 144, 165, 240};

static struct sum_vsync *which(struct summary *s, const char *name, size_t n)
{
    if (n == 9 && !memcmp(name, "VSYNC-app", 9))
        return &s->vsync[0];
    if (n == 8 && !memcmp(name, "VSYNC-sf", 8))
        return &s->vsync[1];
    return NULL;
}

void sum_vsync_flip(struct summary *s, const char *name, size_t n, uint64_t ts)
{
    struct sum_vsync *v = which(s, name, n);
    if (!v)
        return;
    if (v->seen && ts > v->last) {
        uint64_t gap = ts - v->last;
        if (gap >= SUM_VSYNC_MIN_NS && gap < SUM_VSYNC_MIN_NS + SUM_VSYNC_BINS * SUM_VSYNC_BIN_NS) {
            v->bins[(gap - SUM_VSYNC_MIN_NS) / SUM_VSYNC_BIN_NS]++;
            v->n++;
        }
    }
    v->last = ts;
    v->seen = 1;
}

/* The median gap's bin centre, ns; 0 without enough gaps, or when they
 * do not cluster around it (at least half within 5%), as a display's
 * do and a counter flipped at random times does not. */
static uint64_t median(const struct sum_vsync *v)
{
    if (v->n < SUM_VSYNC_MIN_GAPS)
        return 0;
    uint64_t half = (v->n + 1) / 2, acc = 0, near = 0;
    unsigned m = 0;
    while (m < SUM_VSYNC_BINS && (acc += v->bins[m]) < half)
        m++;
    uint64_t p = SUM_VSYNC_MIN_NS + m * SUM_VSYNC_BIN_NS + SUM_VSYNC_BIN_NS / 2;
    for (unsigned i = 0; i < SUM_VSYNC_BINS; i++) {
        uint64_t c = SUM_VSYNC_MIN_NS + i * SUM_VSYNC_BIN_NS + SUM_VSYNC_BIN_NS / 2;
        if ((c > p ? c - p : p - c) * 20 <= p)
            near += v->bins[i];
    }
    return near * 2 >= v->n ? p : 0;
}

unsigned sum_vsync_rate(const struct summary *s, uint64_t *period_ns)
{
    uint64_t p = median(&s->vsync[0]);
    if (!p)
        p = median(&s->vsync[1]);
    *period_ns = p;
    if (!p)
        return 0;
    unsigned best = 0;
    for (unsigned i = 1; i < SUM_RATES; i++) {
        /* |p - 1e9/rate| <= 5% of 1e9/rate, in integers */
        uint64_t want = 1000000000ull / sum_rates[i];
        uint64_t d = p > want ? p - want : want - p;
        if (d * 20 <= want)
            best = i;
    }
    return best;
}
