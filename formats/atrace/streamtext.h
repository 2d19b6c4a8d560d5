/*
 * Pure pieces of an Android --stream capture (no device I/O, unit-tested
 * and fuzzed): what the device sends is parsed here, bounded.
 *
 *  - The head of the stream: systrace runs `echo $$; exec atrace ...
 *    --stream`, so the first line is the pid atrace then runs as (the pid
 *    a `kill -INT` stops it with), then trace_pipe's text.  A legacy
 *    shell's PTY ends that line with CR LF.
 *  - The header a stream lacks: trace_pipe prints no `# tracer:` lines, so
 *    the spool starts with the header atrace's own dumps have (TGID column).
 *  - Joining --async_dump outputs (the fallback for an atrace without
 *    --stream): each dump is decoded text starting with its own header; the
 *    first dump's header is kept, later ones are dropped (their
 *    `##### CPU N buffer started ####` lines are trace, not header, and
 *    stay).  Each header's `entries-in-buffer/entries-written: A/B` says
 *    how many events the kernel overwrote before that dump read them
 *    (written - in buffer): those are summed as lost.
 *
 *  - Counting what goes into the spool (slines): event lines (not `#`
 *    comments, not blank), and trace_pipe's `CPU:N [LOST M EVENTS]` lines,
 *    whose M are summed and which become `# CPU:N [LOST M EVENTS]`
 *    comments both viewers skip (as the host's --stream does) — done while
 *    spooling, so the conversion at the end can pass the text through as
 *    fast as `--from-file` of the same text.
 *
 * Memory: a line prefix of at most STEXT_LINE_MAX bytes is carried while a
 * dump's header is read, STEXT_HEAD_MAX while a line start is classified;
 * the rest streams through.
 */
#ifndef SYSTRACE_STREAMTEXT_H
#define SYSTRACE_STREAMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"
#include "lib/sink.h"

/* The ftrace header atrace's dumps start with (TGID column). */
extern const char stext_header[];

#define STEXT_PID_MAX 24

struct stext_head {
    char buf[STEXT_PID_MAX];
    size_t n;
};

/* Feed the stream's first bytes.  *used: bytes of p that belong to the pid
 * line.  Returns 1 with *pid set when the line is complete, 0 when more is
 * needed, -1 when the line is not a pid (too long, not digits). */
int stext_head_feed(struct stext_head *h, const char *p, size_t n, size_t *used, long *pid);

#define STEXT_LINE_MAX 512

struct djoin;

struct djoin *djoin_new(st_write_fn out, void *ctx);
void djoin_free(struct djoin *d);
/* A new dump starts: its header lines are dropped unless it is the first. */
void djoin_next(struct djoin *d);
/* An st_write_fn (ctx: the djoin): decoded text of the current dump. */
enum st_err djoin_write(void *d, const void *p, size_t n);
/* The current dump is complete: a last line without LF gets one, so the
 * next dump starts on a line of its own. */
enum st_err djoin_end(struct djoin *d);
/* Events the kernel reported overwritten, over every dump so far. */
uint64_t djoin_lost(const struct djoin *d);
/* Dumps begun so far. */
unsigned djoin_dumps(const struct djoin *d);

#define STEXT_HEAD_MAX 64

struct slines;

struct slines *slines_new(st_write_fn out, void *ctx);
void slines_free(struct slines *l);
/* An st_write_fn (ctx: the slines). */
enum st_err slines_write(void *l, const void *p, size_t n);
/* The end of the text: a line start still held is passed on. */
enum st_err slines_finish(struct slines *l);
uint64_t slines_events(const struct slines *l);
uint64_t slines_lost(const struct slines *l);       /* the M of LOST lines */
uint64_t slines_lost_lines(const struct slines *l);

/* M of `CPU:N [LOST M EVENTS]` (0 for `CPU:N [LOST EVENTS]`); -1 when the
 * line (n bytes, at most STEXT_HEAD_MAX looked at) is not one. */
long long stext_lost(const char *p, size_t n);

/* One header line (without LF): 1 with *in_buffer and *written set when it
 * is `# entries-in-buffer/entries-written: A/B ...`, else 0. */
int stext_entries(const char *line, size_t n, uint64_t *in_buffer, uint64_t *written);

#endif
