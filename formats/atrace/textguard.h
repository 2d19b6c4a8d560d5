/*
 * Watches trace text on its way into the result file, for `--from-file`:
 *
 *  - whether it holds any ftrace event line (`task-PID [ (TGID) ] [CPU]
 *    ... SEC.USEC: event:`, the shape the viewer's and Perfetto's
 *    tokenizers accept); header and comment lines do not count.  A trace
 *    with none would be a blank page, so the caller refuses it.  Lines are
 *    looked at only until the first event line; after that the text only
 *    streams through.
 *  - lines longer than a trace line can be (LCUT_MAX): cut to their start
 *    by the rule every capture path follows too (linecut.h), and counted.
 *    Such a line before any event line (the line's own start is judged
 *    first) means the text is not a trace: a zlib stream of one repeated
 *    byte inflates to gigabytes without a line end; the write fails with
 *    ST_ETOOBIG there instead of reading them all.
 *
 * It sits between the repair stage and the tracewriter as a text_sink
 * (tell and keep are passed through) or as a plain write function.
 */
#ifndef SYSTRACE_TEXTGUARD_H
#define SYSTRACE_TEXTGUARD_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"
#include "linecut.h"

#define TGUARD_HEAD 512         /* bytes of a line looked at for its shape */
#define TGUARD_SHOW 60          /* bytes of a non-event line kept for messages */

struct tguard;

/* Writes go on to out (its tell and keep too). line_max 0: LCUT_MAX. */
struct tguard *tguard_new(const struct text_sink *out, uint64_t line_max);
void tguard_free(struct tguard *g);

/* The sink to hand the stage before: ctx is g. */
void tguard_sink(struct tguard *g, struct text_sink *s);
enum st_err tguard_write(void *ctx, const void *p, size_t n);

/* A part begins: line lengths restart; events: look for event lines in
 * it (ftrace text), else only cut over-long lines (a process dump). */
void tguard_begin(struct tguard *g, int events);
/* The part ended: a last line without LF is judged too. */
void tguard_end(struct tguard *g);

/* Bytes written through the guard. */
uint64_t tguard_bytes(const struct tguard *g);
/* 1 once an event line went through. */
int tguard_events(const struct tguard *g);
/* The first line that was neither a comment, blank nor an event (at most
 * TGUARD_SHOW bytes, control bytes as '?'), or "" */
const char *tguard_other_line(const struct tguard *g);
/* Lines cut to LCUT_MAX so far. */
uint64_t tguard_cut_lines(const struct tguard *g);
/* After ST_ETOOBIG: "a line of more than 64 MB (...) before any trace event". */
const char *tguard_detail(const struct tguard *g);

/* The event-line shape on its own (also used to sniff plain text). */
int tguard_is_event_line(const unsigned char *p, size_t n);

#endif
