/*
 * Line repairs on decoded ftrace text, streamed (catapult-systrace.md §4
 * steps 5-6, same results as catapult's regexes):
 *
 *  - TGID fix (live captures): `name-TID (-----)` becomes `name-TID ( PID)`
 *    when the device's /proc/PID/task/TID listing knows the thread.  Like
 *    catapult's regex, the leading indentation of a fixed line and any
 *    blank lines directly before it are dropped.
 *  - Circular-buffer cut: when a CPU buffer wrapped, the kernel prints
 *    `##### CPU N buffer started ####` lines; everything between the header
 *    and the last such line is dropped.  Done by rewriting the output's
 *    tail at the end (text_sink.keep), so no trace is held in memory.
 *  - Optional header: plain event lines without any ftrace header get one,
 *    because Perfetto skips trace blocks without a `# ... TASK-PID` line.
 *
 * Memory: a line prefix of at most REPAIR_PREFIX_MAX bytes is looked at;
 * the rest of a long line streams through untouched.
 */
#ifndef SYSTRACE_REPAIR_H
#define SYSTRACE_REPAIR_H

#include <stddef.h>
#include <stdint.h>
#include "coverage.h"
#include "lib/error.h"
#include "lib/sink.h"

#define REPAIR_PREFIX_MAX 4096


/* TID -> PID map from `echo -n /proc/[0-9]*\/task/[0-9]*` output. */
struct tgid_map;
struct tgid_map *tgid_map_new(void);
void tgid_map_free(struct tgid_map *m);
/* Parse the listing (space separated `/proc/PID/task/TID` items; others
 * are ignored, as catapult does). */
enum st_err tgid_map_parse(struct tgid_map *m, const char *text, size_t n);
size_t tgid_map_size(const struct tgid_map *m);
/* 0 if unknown. */
uint32_t tgid_map_get(const struct tgid_map *m, uint32_t tid);

struct repair_opts {
    const struct tgid_map *tgids;   /* NULL: no TGID fix (from-file) */
    int circular;                   /* cut to the last buffer-started line */
    int add_header;                 /* give headerless text an ftrace header */
    const char *watch;              /* note whether the text holds this (at
                                     * most REPAIR_WATCH_MAX bytes of it) */
    /* optional observer: every line's examined prefix (at most
     * REPAIR_PREFIX_MAX bytes, without its LF) as it came in, before any
     * repair; it must not keep the pointer */
    void (*observe)(void *ctx, const char *line, size_t n);
    void *observe_ctx;
    int coverage;                   /* measure the time the text covers
                                     * (coverage.h; every line is looked at) */
};

struct repair;
struct repair *repair_new(const struct repair_opts *o, const struct text_sink *out);
void repair_free(struct repair *r);
enum st_err repair_feed(struct repair *r, const void *p, size_t n);
enum st_err repair_finish(struct repair *r);

/* For the write_fn plumbing: ctx is a struct repair. */
enum st_err repair_write(void *ctx, const void *p, size_t n);


uint64_t repair_lines_fixed(const struct repair *r);
#define REPAIR_WATCH_MAX 128
/* 1 if the text held opts.watch. */
int repair_watch_seen(const struct repair *r);
/* 1 if the circular-buffer cut removed or repeated a range. */
int repair_cut_applied(const struct repair *r);
/* With opts.coverage: the first and last kept event (after the cut). */
const struct coverage *repair_coverage(const struct repair *r);

#endif
