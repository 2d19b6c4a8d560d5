/*
 * What a trace holds, in a few numbers: its length, CPUs, events and lost
 * events, CPU time per process, frames and janky frames per app, and the
 * requested categories that recorded nothing (issue 23).  Computed in the
 * same streaming pass that writes the page: fed from the tracewriter tee
 * (tw_set_tee), so every input that reaches the page (live atrace,
 * --stream, --target=linux, --from-file of any form, Perfetto traces read
 * as ftrace text) is summarised the same way.
 *
 * Definitions are Perfetto's trace processor's on the same page, so the
 * numbers can be checked against it:
 *  - CPU time of a thread: the sum of its sched slices, each from the
 *    sched_switch that switched it in to the next sched_switch on that
 *    CPU; the slice still running at the end has no end and counts
 *    nothing (Perfetto's dur -1).  The idle task (pid 0) is left out.
 *  - A thread belongs to the process of the last TGID it was seen with:
 *    the line's TGID column, an atrace B|tgid| payload, or the PROCESS
 *    DUMP's thread form (USER PID TID CMD).  A thread never bound to a
 *    process counts as a process of its own (pid = tid).
 *  - A frame: a `Choreographer#doFrame` slice (also `Choreographer#doFrame
 *    VSYNC_ID`), or for an app without any, a `DrawFrame...` slice of its
 *    RenderThread.  A slice begun but not ended counts as a frame but not
 *    as janky (Perfetto's dur -1); an end without a begin is ignored.
 *    Janky: longer than the frame budget, 1/60 s unless the VSYNC-app
 *    (else VSYNC-sf) counter shows a faster display (summary_vsync.c).
 *  - Events: ftrace lines Perfetto's tokenizer accepts; lost events: the M
 *    of `CPU:N [LOST M EVENTS]` notices (kept as comments in the page).
 * The circular-buffer cut of the repair (everything before the last
 * `##### CPU N buffer started` line leaves the page) is mirrored: such a
 * line after events forgets what was counted; so is a part fetched again.
 *
 * Memory: per-thread, per-CPU and per-process state and one entry per
 * distinct event name, each bounded (SUM_*_MAX); beyond a bound items are
 * counted in `dropped`, never an error.
 */
#ifndef SYSTRACE_SUMMARY_H
#define SYSTRACE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include "lib/dynbuf.h"
#include "lib/error.h"
#include "formats/html/tracewriter.h"

#define SUM_THREADS_MAX (1u << 20)
#define SUM_CPUS_MAX 4096
#define SUM_NAMES_MAX 1024          /* distinct event names */
#define SUM_LINE_MAX 65536          /* longer lines are skipped */

struct summary;

struct summary *summary_new(void);
void summary_free(struct summary *s);

/* The categories the capture asked for (NULL-free array of n); copied.
 * Without them no category is reported as empty. */
enum st_err summary_set_categories(struct summary *s, char *const *cats, size_t n);

/* The device the trace comes from, for the Trace line and the JSON
 * (model "Pixel 7", Android release "14"; NULL or "": unknown); copied,
 * only printable ASCII kept. */
void summary_set_device(struct summary *s, const char *model, const char *release);
/* What summary_set_device kept ("" when unknown). */
void summary_device(const struct summary *s, const char **model, const char **release);

/* Part boundaries and payload, as the tracewriter tee reports them. */
void summary_begin_part(struct summary *s, const char *name);
void summary_feed(struct summary *s, const void *p, size_t n);
void summary_end_part(struct summary *s);
void summary_restart_part(struct summary *s);
void summary_tee(struct summary *s, struct tw_tee *tee);

/* ---- the result, after the last part ---- */

struct summary_proc {
    int64_t pid;
    const char *name;       /* "" when unknown */
    uint64_t cpu_ns;
};

struct summary_frames {
    int64_t pid;
    const char *process;
    const char *source;     /* "Choreographer#doFrame" or "DrawFrame" */
    uint64_t frames, janky;
    uint64_t worst_ns;      /* longest ended frame; 0: none ended */
    uint64_t worst_at_ns;   /* its start, from the trace's first event */
    /* ended frames' durations: median, 90th and 99th percentile (to
     * 0.1 ms; 0: none ended) */
    uint64_t p50_ns, p90_ns, p99_ns;
};

/* atrace slices (B/E) by name: how many ended, their summed, and longest
 * duration.  Slices nested deeper than 32 are not counted. */
struct summary_slice {
    const char *name;
    uint64_t count, total_ns, max_ns;
};

struct summary_totals {
    uint64_t events, lost, dropped;
    uint64_t first_ns, last_ns;     /* first and last event timestamps */
    unsigned cpus;          /* the header's #P:N, else the highest CPU + 1 */
    uint64_t sched_switches;
    uint64_t busy_ns;       /* sum of every process's CPU time */
    unsigned display_hz;    /* the frame budget is 1/display_hz s */
    uint64_t vsync_ns;      /* the median VSYNC gap seen, 0: none */
};

/* Sorts and totals what was fed; call once, after the last part. */
enum st_err summary_finish(struct summary *s);
const struct summary_totals *summary_totals(const struct summary *s);
/* Processes with CPU time, most first. */
const struct summary_proc *summary_procs(const struct summary *s, size_t *n);
/* Apps with frames, most frames first. */
const struct summary_frames *summary_frames(const struct summary *s, size_t *n);
/* Slice names, longest total first. */
const struct summary_slice *summary_slices(const struct summary *s, size_t *n);
/* App startups (summary_launch.c), in trace order; their fields are the
 * sum_launch ones: see summary_startup_* below. */
size_t summary_startups(const struct summary *s);
struct summary_startup {
    const char *package;
    const char *type;               /* "cold", "warm", "hot", NULL: unknown */
    uint64_t ts;                    /* ns, trace clock */
    uint64_t to_first_frame_ns;
    uint64_t to_full_display_ns;    /* 0: no reportFullyDrawn */
    int64_t pid;                    /* the app's process, -1: not found */
    uint64_t running_ns, runnable_ns, uninterruptible_ns, sleeping_ns;
    uint64_t slice_ns[11];          /* in summary_startup_slice order */
    const char *slow[9];            /* Perfetto's slow_start_reason, those computed here */
    size_t nslow;
};
/* Startup i; 0 when i is out of range. */
int summary_startup(const struct summary *s, size_t i, struct summary_startup *out);
/* The JSON key of slice_ns[k], NULL past the last. */
const char *summary_startup_slice(size_t k);
/* One startup as the JSON object startups[] holds (--runs' runs[] too). */
void summary_startup_json(struct dynbuf *o, const struct summary_startup *u);

/* The frame timeline per process (Android 12+ Perfetto traces; see
 * summary_ftl.c): Perfetto's android_frame_timeline_metric, most frames
 * first.  Jank and present types are counted in the order of the names
 * summary_ftl_jank_name / summary_ftl_present_name give (NULL past the
 * last). */
#define SUM_FTL_JANKS 15
#define SUM_FTL_PRESENTS 6
struct summary_ftl {
    int64_t pid;
    const char *process;        /* "" when unknown */
    uint64_t total, missed, missed_app, missed_sf, dropped;
    uint64_t jank[SUM_FTL_JANKS], present[SUM_FTL_PRESENTS];
    uint64_t durs;              /* frames with a duration (ended, not dropped) */
    double max_ns, mean_ns, p50_ns, p90_ns, p95_ns, p99_ns;
};
const struct summary_ftl *summary_frame_timeline(const struct summary *s, size_t *n);
const char *summary_ftl_jank_name(size_t k);
const char *summary_ftl_present_name(size_t k);
/* Kind i of the data the trace held that was not converted ("perf
 * samples"), NULL past the last. */
const char *summary_not_shown(const struct summary *s, size_t i, uint64_t *count);

/* Requested categories whose events never appeared (kernel categories by
 * their event names; userspace ones only when no atrace marker appeared
 * at all), as a NULL-ended list. */
const char *const *summary_empty_categories(const struct summary *s, size_t *n);
/* Events by ftrace event name, in order of first appearance. */
size_t summary_event_names(const struct summary *s);
const char *summary_event_name(const struct summary *s, size_t i, uint64_t *count);

/* The terminal lines (at most 11, each ending in '\n'), every line
 * starting with prefix (e.g. "SERIAL: ", or ""). */
enum st_err summary_text(const struct summary *s, const char *prefix, struct dynbuf *out);
/* The JSON object (--summary=FILE), with a final newline. */
enum st_err summary_json(const struct summary *s, const char *device, struct dynbuf *out);

#endif
