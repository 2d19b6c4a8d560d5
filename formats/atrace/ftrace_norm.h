/*
 * Line normalisation of host ftrace text, streamed, so the classic trace
 * viewer imports what a modern kernel prints.  Verified against the
 * viewer's FTraceImporter (lineREWithTGID / lineREWithIRQInfo): it wants
 * exactly four flag characters `[dX.][Nnp.][Hhs.][0-9a-f.]` followed by
 * white space, so every line of a kernel >= 5.18 (five columns, the last
 * being migrate-disable: `d..2.`) and every line with a newer flag letter
 * (D b  B L l  Z z) fails to parse and is dropped by the viewer.
 *
 *  - flags: the fifth column becomes a space (the line keeps its length),
 *    letters the viewer does not know become their nearest ones (D->d,
 *    b->., B/L->N, l/b->n, Z->H, z->h).  Perfetto, which accepts both forms,
 *    reads none of these columns, so it loses nothing.
 *  - lost events: trace_pipe's `CPU:N [LOST M EVENTS]` lines are counted and
 *    kept as `# CPU:N [LOST M EVENTS]` comments both viewers skip.
 *  - function tracer lines (`ts: func <-parent`) get trace-cmd's event name:
 *    `ts: function: func <-parent`, so they parse as events.
 *  - with a TID->TGID map, lines without a TGID column get one (kernels
 *    without options/record-tgid), `(-------)` when unknown.
 *
 * Edits that keep the length are made in place in the caller's buffer
 * (fnorm_feed takes it mutable); only insertions split the output.
 * Memory: one line prefix of at most FNORM_LINE_MAX bytes is carried
 * between chunks; longer lines stream through after it.
 */
#ifndef SYSTRACE_FTRACE_NORM_H
#define SYSTRACE_FTRACE_NORM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"
#include "repair.h"
#include "lib/sink.h"

#define FNORM_LINE_MAX 4096
#define FNORM_AUTO 2

struct fnorm_opts {
    int flags;                      /* fix the flags column; FNORM_AUTO: only if
                                     * the first event line needs it (fnorm_write) */
    int func_events;                /* name function tracer lines */
    const struct tgid_map *tgids;   /* insert a TGID column where missing */
    const char *watch;              /* note a trace_marker line holding this */
};

struct fnorm_stats {
    uint64_t events;        /* event lines (not comments, not blank) */
    uint64_t flags_fixed;   /* lines whose flags were changed */
    uint64_t lost;          /* events the kernel reported lost */
    uint64_t lost_lines;
    int watch_seen;         /* a tracing_mark_write event held opts.watch */
};

struct fnorm;
struct fnorm *fnorm_new(const struct fnorm_opts *o, st_write_fn out, void *ctx);
void fnorm_free(struct fnorm *f);
/* p is edited in place. */
enum st_err fnorm_feed(struct fnorm *f, char *p, size_t n);
enum st_err fnorm_finish(struct fnorm *f);
const struct fnorm_stats *fnorm_stats(const struct fnorm *f);

/* The same as an st_write_fn for chains whose bytes are const (the
 * atrace decoder, --from-file): copies through a fixed buffer first. */
enum st_err fnorm_write(void *f, const void *p, size_t n);

/* Where an event line's columns are (offsets into the line). */
struct fnorm_fields {
    size_t cpu;             /* the '[' */
    size_t flags, nflags;   /* flags token (nflags 0: no flags column) */
    size_t ts;              /* the timestamp's first digit */
    size_t event;           /* first byte after "TIMESTAMP: " */
    uint64_t ns;            /* the TIMESTAMP */
};

/* 1 and *f filled when line[0..n) (at most FNORM_LINE_MAX looked at) is
 * an event line, else 0. */
int fnorm_fields(const char *line, size_t n, struct fnorm_fields *f);
/* The TIMESTAMP of an event line in ns (1), or 0 when it has none. */
int fnorm_line_time(const char *line, size_t n, uint64_t *ns);

/* Bytes a line can grow by in fnorm_copy_line. */
#define FNORM_GROW 64
/* One complete line (or the first piece of a long one: n bytes, of which
 * the first `examined` are looked at) copied to dst with every edit
 * fnorm_feed would make; fl: its fields, or NULL when it has none.  line
 * itself may be edited.  dst has room for n + FNORM_GROW bytes; returns
 * the bytes written.  Lets a caller that has parsed the line already (the
 * --stream merge) normalise while it copies. */
size_t fnorm_copy_line(struct fnorm *f, char *dst, char *line, size_t n, size_t examined,
                       const struct fnorm_fields *fl);

/* One line, for tests and the fuzz target: rewrite in place (flags only);
 * returns 1 if changed. */
int fnorm_fix_flags(char *line, size_t n);

#endif
