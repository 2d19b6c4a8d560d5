/*
 * Internals of the trace summary (summary.h): summary.c (parts, lines,
 * comments, the process dump), summary_fast.c (the usual ftrace lines,
 * read fast), summary_ev.c (what an event changes), summary_tab.c
 * (thread, process and event-name tables), summary_out.c (totals,
 * categories, the terminal lines and JSON).
 */
#ifndef SYSTRACE_SUMMARY_INT_H
#define SYSTRACE_SUMMARY_INT_H

#include <string.h>

#include "formats/atrace/psdump.h"
#include "formats/tevents/tevents.h"
#include "summary.h"

#define SUM_OPEN_FRAMES 4           /* frame slices open at once per thread */
#define SUM_NAME_LEN 32             /* thread and event names */
#define SUM_PNAME_LEN 128           /* process names from the dump */
#define SUM_NAME_SLOTS 256
#define SUM_TCACHE 1024            /* tid -> thread index + 1, direct-mapped */

enum { FK_DOFRAME, FK_DRAWFRAME, FK_COUNT };

struct sum_open {
    uint32_t level;         /* slice depth the frame was begun at */
    uint8_t kind;
    uint64_t ts;
};

/* Display rates the frame budget can be (summary_vsync.c); janky frames
 * are counted against each, the trace's rate picks one at the end. */
#define SUM_RATES 8
extern const unsigned sum_rates[SUM_RATES];     /* Hz, 60 first */

struct sum_fstat {
    uint64_t frames, worst_ns, worst_ts;
    uint64_t janky[SUM_RATES];
};

#define SUM_VSYNC_MIN_NS 4000000ull
#define SUM_VSYNC_BIN_NS 50000ull
#define SUM_VSYNC_BINS 920          /* up to 50 ms */
#define SUM_VSYNC_MIN_GAPS 10

struct sum_vsync {
    uint64_t last, n;
    int seen;
    uint32_t bins[SUM_VSYNC_BINS];
};

/* App startups (summary_launch.c): Perfetto's android_startup rules. */
#define SUM_LAUNCHES_MAX 256        /* startups kept; more are dropped */
#define SUM_LOPEN 64                /* launch slices open at once, all threads */
#define SUM_LPIDS 4                 /* processes one launch may start */
enum { LS_BIND, LS_ASTART, LS_ARESUME, LS_INFLATE, LS_RES, LS_DEXOPEN, LS_VERIFY, LS_GC,
       LS_LOCK, LS_BINDER, LS_RFD, LS_MONITOR, LS_COUNT };  /* LS_MONITOR: LS_LOCK's on a monitor */
enum { TS_NONE, TS_RUN, TS_RUNNABLE, TS_D, TS_S, TS_COUNT };

struct sum_launch {
    char pkg[SUM_PNAME_LEN];
    uint64_t ts, ts_end;
    int open;               /* its launching slice not ended yet */
    int64_t pid[SUM_LPIDS];
    uint8_t npid;
    uint32_t ind[3];        /* bindApplication, activityStart, activityResume on the main thread */
    uint64_t slice_ns[LS_COUNT];
    uint64_t state_ns[TS_COUNT];
    uint64_t rfd_end;       /* begin of the first reportFullyDrawn, 0: none */
    uint32_t part;          /* the intent-started span it began in (Android 10-11), 0: none */
    uint8_t fin;            /* a launch-finished in that span */
    uint8_t spill;          /* its span holds another launch, or it ended past the span */
    uint8_t v33;            /* a launchingActivity#aid launch (Android 12+) */
    uint8_t done;           /* v33: its completed event came */
    int8_t ctype;           /* v33: the type that event names (0 cold 1 warm 2 hot), -1: none */
    uint32_t aid;
};

struct sum_lopen {
    uint32_t tid, level;
    uint16_t launch;
    uint8_t kind;
    uint64_t ts;
};

struct sum_thread {
    uint32_t tid;
    uint8_t st;             /* TS_* since st_since (sched_switch) */
    uint8_t nlopen;         /* its entries in summary.lopen */
    uint16_t lchk;          /* summary.lgen when its launch was looked for */
    uint16_t lnch;          /* launch index + 1 its process belongs to, 0: none */
    uint64_t st_since;
    int64_t tgid;           /* -1: never bound to a process */
    uint64_t cpu_ns;
    uint32_t depth;         /* open slices */
    uint32_t nopen;         /* open frame slices (<= SUM_OPEN_FRAMES) */
    struct sum_open open[SUM_OPEN_FRAMES];
    struct sum_fstat fs[FK_COUNT];
    struct sum_stack *stk;  /* open slices by name (summary_slices.c), lazily */
    uint32_t *fh[FK_COUNT]; /* frame durations, SUM_FBINS bins, lazily */
    char name[SUM_NAME_LEN];
};

/* Slices by name (summary_slices.c): each thread's open slices up to
 * SUM_STACK_DEPTH deep, durations summed per name (at most SUM_SLICES_MAX
 * names of up to SUM_SLICE_NAME bytes; longer names are cut, more names
 * counted in dropped).  Frame durations in SUM_FBINS bins of
 * SUM_FBIN_NS, the last holding every longer frame. */
#define SUM_STACK_DEPTH 32
#define SUM_SLICES_MAX 4096
#define SUM_SLICE_NAME 96
#define SUM_FBINS 2000
#define SUM_FBIN_NS 100000ull

struct sum_stack {
    uint32_t name[SUM_STACK_DEPTH];     /* index + 1 in the table, 0: none */
    uint64_t ts[SUM_STACK_DEPTH];
};

struct sum_slice {
    char name[SUM_SLICE_NAME];
    uint64_t count, total_ns, max_ns;
};

struct sum_slicetab {
    struct sum_slice *v;
    uint32_t n, cap;
    uint32_t hash[SUM_SLICES_MAX * 2];  /* index + 1, open addressing */
};

struct sum_cpu {
    uint32_t tid;           /* running since ts */
    int valid;
    uint64_t ts;
};

/* What the summary does with an event, by its name. */
enum { SK_OTHER, SK_SWITCH, SK_MARK };

struct sum_evname {
    char name[SUM_NAME_LEN];
    uint8_t len;
    uint8_t kind;           /* SK_* of the (untruncated) name that added it */
    uint64_t count;
};

/* pid -> name from the process dump */
struct sum_pname {
    int64_t pid;
    char name[SUM_PNAME_LEN];
};

enum sum_mode { SM_NONE, SM_FTRACE, SM_PSDUMP };

/* The frame timeline (summary_ftl.c). */
#define SUM_FTL_PROCS 256
#define SUM_FTL_RECENT 64
#define SUM_FTL_EXACT 4096
#define SUM_FTL_BUCKETS 3776        /* bucket(UINT64_MAX) + 1 */
struct sum_ftl_tok {
    int64_t token;
    uint64_t seen[1];           /* what this token was counted in */
};
struct sum_ftl {
    int64_t pid;
    uint64_t total, missed, missed_app, missed_sf, dropped;
    uint64_t jank[SUM_FTL_JANKS], present[SUM_FTL_PRESENTS];
    uint64_t ndur, sum_dur, max_dur;
    uint64_t *exact;            /* SUM_FTL_EXACT, until hist */
    size_t nexact;
    uint32_t *hist;             /* SUM_FTL_BUCKETS */
    struct sum_ftl_tok recent[SUM_FTL_RECENT];
    uint32_t nrecent, rnext;
};
void sum_ftl_fact(struct summary *s, const struct tw_fact *x);
enum st_err sum_ftl_finish(struct summary *s);
void sum_ftl_free(struct summary *s);

/* Kinds of data the reader did not convert (TW_FACT_NOT_SHOWN). */
#define SUM_NOT_SHOWN 32
struct sum_not_shown {
    char what[48];
    uint64_t count;
};

struct summary {
    enum sum_mode mode;
    struct dynbuf line;     /* a line split across writes */
    int skipping;           /* the rest of an over-long line */
    int part_body;          /* the part had a line other than '#' ones */
    struct psdump ps;       /* the PROCESS DUMP part's form */
    /* threads: open addressing on tid -> index + 1 */
    struct sum_thread *th;
    uint32_t nth, capth;
    uint32_t *thash;
    uint32_t thmask;
    uint32_t tcache[SUM_TCACHE];
    struct sum_cpu *cpu;
    uint32_t ncpu;
    struct sum_evname names[SUM_NAMES_MAX];
    uint32_t nnames;
    uint32_t name_slot[SUM_NAME_SLOTS];    /* a hash of names -> index + 1 */
    struct sum_pname *pn;   /* process dump names */
    size_t npn, cappn;
    int have_events;
    int have_marks;         /* an atrace marker event appeared */
    unsigned header_cpus;   /* #P:N */
    char model[64], release[32];    /* summary_set_device */
    struct sum_vsync vsync[2];  /* VSYNC-app, VSYNC-sf */
    unsigned rate;          /* index in sum_rates (summary_finish) */
    uint64_t vsync_ns;      /* the median vsync gap, 0: none */
    struct summary_totals t;
    char **cats;
    size_t ncats;
    /* results (summary_finish) */
    struct summary_proc *procs;
    size_t nprocs;
    struct summary_frames *frames;
    size_t nframes;
    struct sum_slicetab *sl;
    struct summary_slice *slices;
    size_t nslices;
    const char **empty;
    size_t nempty;
    int finished;
    struct sum_launch *launch;      /* SUM_LAUNCHES_MAX, allocated at the first */
    uint32_t nlaunch;
    uint16_t lgen;                  /* bumped by each launch begun */
    uint64_t intent_ts;             /* last launchObserverNotifyIntentStarted, 0: none */
    uint32_t part;                  /* intent-started spans begun */
    uint8_t part_fin;               /* a launch-finished in the current span */
    uint8_t saw_ml, saw_la;         /* MetricsLogger:*, launchingActivity#*:* slices seen */
    struct sum_lopen lopen[SUM_LOPEN];
    uint32_t nlopen;
    struct sum_ftl *ftl;            /* SUM_FTL_PROCS, allocated at the first frame */
    uint32_t nftl;
    struct summary_ftl *ftl_out;    /* summary_finish */
    struct sum_not_shown not_shown[SUM_NOT_SHOWN];
    uint32_t nnot_shown;
};

/* summary_tab.c */
/* The thread of tid, added when new (NULL: no room). */
struct sum_thread *sum_thread_add(struct summary *s, uint32_t tid);
struct sum_thread *sum_thread_find(const struct summary *s, uint32_t tid);
struct sum_cpu *sum_cpu_grow(struct summary *s, uint32_t cpu);
/* Counts one more event of that name; its entry, NULL beyond SUM_NAMES_MAX. */
struct sum_evname *sum_count_name_slot(struct summary *s, const char *p, size_t n);
/* SK_SWITCH, SK_MARK or SK_OTHER for an event name */
int sum_event_kind(const char *name, size_t n);

/* Nearly every line asks for a thread, a CPU and its name's entry: what
 * is usually found at once is looked at here, inline (the hot path of
 * issue 23's cost goal), the rest in summary_tab.c.  The direct-mapped
 * cache in front of the thread hash holds a few hundred threads. */
static inline struct sum_thread *sum_thread(struct summary *s, uint32_t tid)
{
    uint32_t c = s->tcache[tid & (SUM_TCACHE - 1)];
    if (c && s->th[c - 1].tid == tid)
        return &s->th[c - 1];
    return sum_thread_add(s, tid);
}

static inline struct sum_cpu *sum_cpu(struct summary *s, uint32_t cpu)
{
    return cpu < s->ncpu ? &s->cpu[cpu] : sum_cpu_grow(s, cpu);
}

static inline unsigned sum_name_slot(const char *p, size_t n)
{
    return n ? ((unsigned)n * 31u + (unsigned char)p[0] * 7u + (unsigned char)p[n - 1] * 3u +
                (unsigned char)p[n / 2]) & (SUM_NAME_SLOTS - 1)
             : 0;
}

static inline int sum_same8(const char *a, const char *b)
{
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return x == y;
}

/* a[0, n) == b[0, n): overlapping 8-byte compares for event names of 8
 * to 32 characters (tracing_mark_write is 18), no call */
static inline int sum_same_name(const char *a, const char *b, size_t n)
{
    if (n < 8 || n > 32)
        return !memcmp(a, b, n);
    return sum_same8(a, b) && sum_same8(a + n - 8, b + n - 8) &&
           (n <= 16 || (sum_same8(a + 8, b + 8) && sum_same8(a + n - 16, b + n - 16)));
}

static inline struct sum_evname *sum_count_name(struct summary *s, const char *p, size_t n)
{
    uint32_t c;
    struct sum_evname *e;
    if (n < SUM_NAME_LEN && (c = s->name_slot[sum_name_slot(p, n)]) &&
        (e = &s->names[c - 1])->len == n && sum_same_name(e->name, p, n)) {
        e->count++;
        return e;
    }
    return sum_count_name_slot(s, p, n);
}
void sum_set_pname(struct summary *s, int64_t pid, const char *p, size_t n);
const char *sum_pname(const struct summary *s, int64_t pid);
void sum_copy_name_n(char *dst, size_t cap, const char *p, size_t n);
#define sum_copy_name(dst, p, n) sum_copy_name_n((dst), SUM_NAME_LEN, (p), (n))
/* forget every event (the circular-buffer cut, a part fetched again) */
void sum_reset_events(struct summary *s);
void sum_tab_free(struct summary *s);

/* summary_fast.c: the whole lines of p[0, n) that end at least 8 bytes
 * before n, each read fast when of the usual shape, else by
 * sum_ftrace_line; how many bytes were taken (0 or up to a '\n'). */
size_t sum_fast_lines(struct summary *s, const char *p, size_t n);

/* summary_ev.c: one ftrace line (no '\n'), read by the general tokenizer */
void sum_ftrace_line(struct summary *s, const char *p, size_t n);
/* An event the tokenizer accepted whose name was counted (kind: SK_*). */
void sum_event(struct summary *s, const struct tev_line *l, int kind);
/* The same, counting its name first. */
void sum_line_event(struct summary *s, const struct tev_line *l);

/* summary_vsync.c */
void sum_vsync_flip(struct summary *s, const char *name, size_t n, uint64_t ts);
/* Index in sum_rates of the display rate the trace shows (0: 60 Hz or
 * nothing known); *period_ns the median vsync gap (0: none). */
unsigned sum_vsync_rate(const struct summary *s, uint64_t *period_ns);

/* summary_slices.c */
void sum_slice_push(struct summary *s, struct sum_thread *t, const char *name, size_t n,
                    uint64_t ts);
void sum_slice_pop(struct summary *s, struct sum_thread *t, uint64_t ts);
void sum_frame_dur(struct summary *s, struct sum_thread *t, int kind, uint64_t dur);
/* the frame-duration percentiles of process pid's frames of kind */
void sum_frame_pcts(const struct summary *s, int64_t pid, int kind, struct summary_frames *f);
enum st_err sum_collect_slices(struct summary *s);
/* every thread's stacks and histograms and the table (reset, free) */
void sum_slices_reset(struct summary *s);
/* summary_launch.c: an atrace marker (B, E on thread t; S, F, I with t
 * NULL), and a thread's scheduling state changed at ts */
void sum_launch_mark(struct summary *s, struct sum_thread *t, const struct tev_mark *m,
                     uint64_t ts);
/* the main thread's time in its state so far, to its launch (the part
 * of sum_launch_state that most switches, of no main thread in a
 * launch, skip without a call) */
void sum_launch_state_in(struct summary *s, struct sum_thread *t, uint64_t ts);
static inline void sum_launch_state(struct summary *s, struct sum_thread *t, int st,
                                    uint64_t ts)
{
    if (s->nlaunch && t->tgid == (int64_t)t->tid && (t->lchk != s->lgen || t->lnch))
        sum_launch_state_in(s, t, ts);
    t->st = (uint8_t)st;
    t->st_since = ts;
}
/* TS_* of a sched_switch's prev_state */
int sum_prev_state(const char *args, size_t n);

/* summary_out.c */
void sum_results_free(struct summary *s);

#endif
