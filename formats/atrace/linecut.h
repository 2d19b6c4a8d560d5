/*
 * The one rule for over-long trace-text lines, on capture and on reading
 * alike: a line longer than LCUT_MAX keeps its first LCUT_MAX bytes and
 * its LF, the rest of it is dropped and the line counted.  The start is
 * what carries the event (`task-PID (TGID) [CPU] ... TS: name: ...`), so
 * a cut marker still parses as one.  No kernel event comes near the bound
 * (trace_marker writes are capped at a page), so only a hostile app, a
 * damaged dump or a file that is not a trace has such a line; whatever
 * the tool writes or keeps (the page, a kept raw dump or spool) reads
 * back with --from-file, which cuts the same way.
 *
 * A text_sink stage in front of a result part: every capture chain (the
 * one-shot dump, the --stream spool's conversion, --target=linux) puts
 * one after its repair stage; --from-file's text guard holds one
 * (textguard.h).  tell and keep pass through, so the circular-buffer
 * repair's offsets stay the writer's.  Memory: nothing is held; lines
 * are measured with one memrchr per write unless a line crosses the bound.
 */
#ifndef SYSTRACE_LINECUT_H
#define SYSTRACE_LINECUT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"

#define LCUT_MAX ((uint64_t)64 << 20)

struct lcut;

/* Writes go on to out (its tell and keep too).  max 0: LCUT_MAX. */
struct lcut *lcut_new(const struct text_sink *out, uint64_t max);
void lcut_free(struct lcut *c);

/* The sink to hand the stage before: ctx is c. */
void lcut_sink(struct lcut *c, struct text_sink *s);
enum st_err lcut_write(void *c, const void *p, size_t n);

/* A new part begins: so does a new line. */
void lcut_begin(struct lcut *c);

/* Lines cut so far. */
uint64_t lcut_lines(const struct lcut *c);
/* Where the current (or the last cut) line starts, in bytes written. */
uint64_t lcut_line_at(const struct lcut *c);

/* The warning every path gives: "N line(s) longer than 64 MB ... cut". */
void lcut_message(char *buf, size_t n, uint64_t lines);

#endif
