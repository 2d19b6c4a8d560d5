/*
 * The summary's frame timeline (Android 12+ FrameTimelineEvent, read by
 * the Perfetto reader and told through tw_fact): per process, Perfetto's
 * android_frame_timeline_metric on the same trace.  A frame is an actual
 * (surface or display) frame timeline slice; frames and the counts per
 * category are of distinct tokens (Perfetto's COUNT(DISTINCT vsync)):
 * missed app frames have App Deadline Missed or App Resynced Jitter,
 * missed SurfaceFlinger frames SurfaceFlinger CPU / GPU Deadline Missed,
 * SurfaceFlinger Scheduling, Prediction Error or Display HAL, missed
 * frames either or Dropped Frame.  Durations are of slices, those with
 * Dropped Frame left out; percentiles interpolate linearly between the
 * order statistics as Perfetto's PERCENTILE does.
 * Limits: a token is recognised as already counted among the process's
 * last SUM_FTL_RECENT tokens (layers of one frame arrive together); a
 * frame never ended counts, its duration does not (Perfetto's dur -1).
 * Memory: SUM_FTL_PROCS processes; per process the first SUM_FTL_EXACT
 * durations exactly (32 KiB), past that a log histogram of 64 buckets per
 * power of two (15 KiB) whose percentiles are within 1/128 of the value.
 */
#include <stdlib.h>

#include "summary_int.h"

static const char *const jank_names[SUM_FTL_JANKS] = {
    "Unspecified", "None", "SurfaceFlinger Scheduling", "Prediction Error", "Display HAL",
    "SurfaceFlinger CPU Deadline Missed", "SurfaceFlinger GPU Deadline Missed",
    "App Deadline Missed", "App Resynced Jitter", "Buffer Stuffing", "Unknown Jank",
    "SurfaceFlinger Stuffing", "Dropped Frame", "Non Animating", "Display not ON"};
/* JankType bits of jank_names[2...] */
static const uint32_t jank_bits[SUM_FTL_JANKS] = {0, 1, 2, 4, 8, 16, 32, 64, 4096, 128,
                                                  256, 512, 1024, 2048, 8192};
static const char *const present_names[SUM_FTL_PRESENTS] = {
    "Unspecified Present", "On-time Present", "Late Present", "Early Present",
    "Dropped Frame", "Unknown Present"};

#define J_APP (64u | 4096u)
#define J_SF (16u | 32u | 2u | 4u | 8u)
#define J_DROPPED 1024u

const char *summary_ftl_jank_name(size_t k)
{
    return k < SUM_FTL_JANKS ? jank_names[k] : NULL;
}

const char *summary_ftl_present_name(size_t k)
{
    return k < SUM_FTL_PRESENTS ? present_names[k] : NULL;
}

static struct sum_ftl *ftl_proc(struct summary *s, int64_t pid)
{
    for (uint32_t i = 0; i < s->nftl; i++)
        if (s->ftl[i].pid == pid)
            return &s->ftl[i];
    if (s->nftl == SUM_FTL_PROCS)
        return NULL;
    if (!s->ftl && !(s->ftl = calloc(SUM_FTL_PROCS, sizeof(*s->ftl))))
        return NULL;
    struct sum_ftl *f = &s->ftl[s->nftl++];
    f->pid = pid;
    return f;
}

/* The token's entry among the recent ones, made (the oldest forgotten)
 * when new. */
static struct sum_ftl_tok *recent(struct sum_ftl *f, int64_t token)
{
    for (uint32_t i = 0; i < SUM_FTL_RECENT && i < f->nrecent; i++)
        if (f->recent[i].token == token)
            return &f->recent[i];
    struct sum_ftl_tok *t = &f->recent[f->rnext];
    f->rnext = (f->rnext + 1) % SUM_FTL_RECENT;
    if (f->nrecent < SUM_FTL_RECENT)
        f->nrecent++;
    memset(t, 0, sizeof(*t));
    t->token = token;
    return t;
}

/* Counts c once per token. */
static void once(uint64_t *seen, unsigned bit, uint64_t *c)
{
    if (!(seen[bit / 64] & 1ull << bit % 64)) {
        seen[bit / 64] |= 1ull << bit % 64;
        (*c)++;
    }
}

enum { B_TOTAL, B_MISSED, B_APP, B_SF, B_DROPPED, B_PRESENT, B_JANK = B_PRESENT + 6 };

static void frame_begun(struct sum_ftl *f, const struct tw_fact *x)
{
    struct sum_ftl_tok *t = recent(f, x->token);
    uint32_t j = x->jank;
    once(t->seen, B_TOTAL, &f->total);
    if (j & (J_APP | J_SF | J_DROPPED))
        once(t->seen, B_MISSED, &f->missed);
    if (j & J_APP)
        once(t->seen, B_APP, &f->missed_app);
    if (j & J_SF)
        once(t->seen, B_SF, &f->missed_sf);
    if (j & J_DROPPED)
        once(t->seen, B_DROPPED, &f->dropped);
    if (x->present >= 0 && x->present < SUM_FTL_PRESENTS)
        once(t->seen, B_PRESENT + (unsigned)x->present, &f->present[x->present]);
    for (unsigned k = 0; k < SUM_FTL_JANKS; k++)
        if (k < 2 ? j == jank_bits[k] : (j & jank_bits[k]) != 0)
            once(t->seen, B_JANK + k, &f->jank[k]);
}

/* Histogram bucket of v: exact below 128, then 64 per power of two. */
static unsigned bucket(uint64_t v)
{
    if (v < 128)
        return (unsigned)v;
    unsigned shift = 0;
    while (v >> shift >= 128)
        shift++;
    return 64 * shift + (unsigned)(v >> shift);
}

static double bucket_mid(unsigned b)
{
    if (b < 128)
        return b;
    unsigned shift = b / 64 - 1;
    uint64_t mant = b % 64 + 64;
    return (double)(mant << shift) + (double)(1ull << shift) / 2;
}

static enum st_err add_dur(struct sum_ftl *f, uint64_t d)
{
    f->ndur++;
    f->sum_dur += d;
    if (d > f->max_dur)
        f->max_dur = d;
    if (!f->hist && f->nexact < SUM_FTL_EXACT) {
        if (!f->exact && !(f->exact = malloc(SUM_FTL_EXACT * sizeof(*f->exact))))
            return ST_ENOMEM;
        f->exact[f->nexact++] = d;
        return ST_OK;
    }
    if (!f->hist) {
        if (!(f->hist = calloc(SUM_FTL_BUCKETS, sizeof(*f->hist))))
            return ST_ENOMEM;
        for (size_t i = 0; i < f->nexact; i++)
            f->hist[bucket(f->exact[i])]++;
        free(f->exact);
        f->exact = NULL;
        f->nexact = 0;
    }
    f->hist[bucket(d)]++;
    return ST_OK;
}

void sum_ftl_fact(struct summary *s, const struct tw_fact *x)
{
    struct sum_ftl *f = ftl_proc(s, x->pid);
    if (!f) {
        s->t.dropped++;
        return;
    }
    if (x->kind == TW_FACT_FRAME)
        frame_begun(f, x);
    else if (!(x->jank & J_DROPPED) && add_dur(f, x->dur_ns))
        s->t.dropped++;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The k-th smallest duration (0-based). */
static double nth(const struct sum_ftl *f, uint64_t k)
{
    if (!f->hist)
        return (double)f->exact[k];
    uint64_t seen = 0;
    for (unsigned b = 0; b < SUM_FTL_BUCKETS; b++)
        if ((seen += f->hist[b]) > k)
            return bucket_mid(b);
    return (double)f->max_dur;
}

static double percentile(const struct sum_ftl *f, double p)
{
    double pos = p / 100 * (double)(f->ndur - 1);
    uint64_t lo = (uint64_t)pos;
    double a = nth(f, lo);
    return lo + 1 < f->ndur ? a + (pos - (double)lo) * (nth(f, lo + 1) - a) : a;
}

static int by_total(const void *a, const void *b)
{
    const struct summary_ftl *x = a, *y = b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static const char *pname(const struct summary *s, int64_t pid)
{
    const char *n = sum_pname(s, pid);
    return n ? n : "";
}

enum st_err sum_ftl_finish(struct summary *s)
{
    if (!s->nftl)
        return ST_OK;
    if (!(s->ftl_out = calloc(s->nftl, sizeof(*s->ftl_out))))
        return ST_ENOMEM;
    for (uint32_t i = 0; i < s->nftl; i++) {
        struct sum_ftl *f = &s->ftl[i];
        struct summary_ftl *o = &s->ftl_out[i];
        *o = (struct summary_ftl){f->pid, pname(s, f->pid), f->total, f->missed,
                                  f->missed_app, f->missed_sf, f->dropped, {0}, {0},
                                  f->ndur, (double)f->max_dur, 0, 0, 0, 0, 0};
        memcpy(o->jank, f->jank, sizeof(o->jank));
        memcpy(o->present, f->present, sizeof(o->present));
        if (!f->ndur)
            continue;
        if (f->exact)
            qsort(f->exact, f->nexact, sizeof(*f->exact), cmp_u64);
        o->mean_ns = (double)f->sum_dur / (double)f->ndur;
        o->p50_ns = percentile(f, 50);
        o->p90_ns = percentile(f, 90);
        o->p95_ns = percentile(f, 95);
        o->p99_ns = percentile(f, 99);
    }
    qsort(s->ftl_out, s->nftl, sizeof(*s->ftl_out), by_total);
    return ST_OK;
}

void sum_ftl_free(struct summary *s)
{
    for (uint32_t i = 0; i < s->nftl; i++) {
        free(s->ftl[i].exact);
        free(s->ftl[i].hist);
    }
    free(s->ftl);
    free(s->ftl_out);
    s->ftl = NULL;
    s->ftl_out = NULL;
    s->nftl = 0;
}

const struct summary_ftl *summary_frame_timeline(const struct summary *s, size_t *n)
{
    *n = s->ftl_out ? s->nftl : 0;
    return s->ftl_out;
}
