/*
 * How much of the traced time a trace's text covers, to notice a kernel
 * buffer that was too small: atrace's default buffer stops recording when
 * it is full (the kept trace ends early), `-c` and the kernel's overwrite
 * mode keep only the newest events (it starts late; the kernel then
 * prints `##### CPU N buffer started ####` lines and the repair cuts to
 * the last one, catapult-systrace.md §4.6).  Either way the first and
 * last kept event lie much closer together than the capture lasted.
 *
 * Fed line by line by the repair stage (repair_opts.coverage), so it sees
 * the text as written, and mirrors the cut: a buffer-started line makes
 * the next event the first kept one.  The ftrace line format: `TASK-PID
 * [(TGID)] [CPU] [FLAGS] SEC.FRAC: EVENT: ARGS`; only the timestamp is
 * read, bounded to the first COVERAGE_SCAN_MAX bytes of a line.
 */
#ifndef SYSTRACE_COVERAGE_H
#define SYSTRACE_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

#define COVERAGE_SCAN_MAX 512

struct coverage {
    int have;               /* an event line was seen (since the last cut) */
    uint64_t first_ns, last_ns;
    uint64_t events;        /* event lines with a timestamp */
    int cut;                /* a buffer-started line came after events */
};

/* A line `^#+ CPU \d+ buffer started` (without its LF): where the
 * circular-buffer cut goes; the repair, the summary and the trace-event
 * converter read the same lines. */
int coverage_cpu_marker(const void *line, size_t n);

void coverage_init(struct coverage *cv);
/* One line of ftrace text, without its LF. */
void coverage_line(struct coverage *cv, const char *p, size_t n);
/* Seconds between the first and last kept event (0 without events). */
double coverage_seconds(const struct coverage *cv);

/* The timestamp of an ftrace event line, in ns; 0 if found, -1 if the
 * line has none (comments, other text). */
int coverage_line_ts(const char *p, size_t n, uint64_t *ns);

/* 1 if kept_s is clearly less than traced_s (under 80 % of it and at
 * least half a second short), with *suggest_kb the per-CPU buffer that
 * would have held it: buf_kb scaled by traced / kept with a quarter of
 * headroom, rounded up to a power of two, at least twice buf_kb, at most
 * COVERAGE_SUGGEST_MAX. */
#define COVERAGE_SUGGEST_MAX (1 << 20)
int coverage_short(double kept_s, double traced_s, int buf_kb, int *suggest_kb);

#endif
