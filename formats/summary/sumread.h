/*
 * Reading back the JSON of --summary=FILE (summary_fmt.c) as named
 * numbers, the metrics `systrace compare` compares.  Names: a top-level
 * number by its key (cpu_busy_pct); an object's numbers as KEY.FIELD
 * (a future "startup": {"dur_ms": ...} gives startup.dur_ms); an array's
 * items by their "name" or "process" (else their pid): processes give
 * cpu.PROCESS (its cpu_ms), frames frames.PROCESS.FIELD (frames, janky,
 * worst_ms, dur_p50, dur_p90, dur_p99), slices slices.NAME.FIELD (count,
 * dur_ms, mean_ms, max_ms).  Left out: what describes the capture rather
 * than the app (start and length, CPU count, event counts, the frame
 * budget, pids, times of day).  The first of two items of one name wins
 * (the lists are sorted, biggest first).
 */
#ifndef SYSTRACE_SUMREAD_H
#define SYSTRACE_SUMREAD_H

#include <stddef.h>

#include "lib/error.h"

#define SUMREAD_NAME_MAX 256        /* longer metric names are cut */

/* Whether p[0, n) (a file's start) is a summary: an object whose first
 * key is "device". */
int sumread_sniff(const char *p, size_t n);

/* Calls metric(ctx, name, value) for each metric of the summary in
 * p[0, n) (p[n] must be readable: a NUL-ended buffer).  ST_EFORMAT with
 * err (what and the byte offset) when it is not such JSON. */
enum st_err sumread_metrics(const char *p, size_t n,
                            void (*metric)(void *ctx, const char *name, double v), void *ctx,
                            char *err, size_t errn);

/* The same metrics, each with its dimension: the process or slice name
 * of a list item's metric (cpu.NAME, frames.NAME.FIELD,
 * slices.NAME.FIELD), "" for the others (--rows' dimension column). */
enum st_err sumread_parts(const char *p, size_t n,
                          void (*part)(void *ctx, const char *name, const char *dim, double v),
                          void *ctx, char *err, size_t errn);

#endif
