/*
 * The bytes the cutters of formats/piece look at: ftrace event lines
 * (`TASK-TID (TGID) [CPU] FLAGS TS: EVENT: BODY`, the TGID column and the
 * flags optional, as catapult's and Perfetto's importers accept them),
 * atrace's tracing_mark_write bodies (B|pid|name, E|pid, C|pid|name|value,
 * S|pid|name|cookie, F|pid|name|cookie) and decimal times (ftrace's
 * seconds, trace-event microseconds) to integer nanoseconds.  Pure,
 * bounded, nothing copied: spans point into the caller's line.
 *
 * plines cuts a stream into lines of at most PLINE_MAX bytes; a longer
 * line is handed on in pieces flagged as not whole (never looked into).
 */
#ifndef SYSTRACE_PLINE_H
#define SYSTRACE_PLINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/dynbuf.h"
#include "lib/error.h"

#define PLINE_MAX (64 * 1024)

struct pline {
    const char *task;           /* the task's name */
    size_t task_len;
    int64_t tid, tgid;          /* tgid -1: not in the line, or "-----" */
    int tgid_col;               /* the line has a (TGID) column */
    size_t cpu_off;             /* where "[CPU]" starts */
    int64_t ts_ns;
    size_t ts_off, ts_len;      /* the timestamp's digits */
    const char *event;
    size_t event_len;
    size_t body_off;            /* the body: to the end of the line */
    const char *body;
    size_t body_len;            /* without LF or CR */
};

/* One line (p, n: its LF and CR, if any, only at its end).  0: an event
 * line; -1: not one (a comment, a blank line, noise). */
int pline_parse(const char *p, size_t n, struct pline *l);
/* A line's time (ts_ns, ts_off, ts_len), "[CPU]" (cpu_off), event and
 * body at a glance: the kernel's own layout only, the
 * task not read.  For a reader that needs only the time and the event of
 * most lines; -1: read the line with pline_parse.  pline_parse_rest reads
 * the task of a glanced line, as pline_parse would. */
int pline_glance(const char *p, size_t n, struct pline *l);
int pline_parse_rest(const char *p, size_t n, struct pline *l);
/* Is the line's event this one?  (Inline: the name's length folds.) */
static inline int pline_is(const struct pline *l, const char *event)
{
    size_t k = strlen(event);
    return l->event_len == k && !memcmp(l->event, event, k);
}

/* tracing_mark_write's body. */
struct pmark {
    char kind;                  /* 'B', 'E', 'C', 'S', 'F', or 0: other */
    int64_t pid;                /* -1: not given */
    const char *name;           /* B, C, S, F */
    size_t name_len;
    const char *last;           /* C: the value; S, F: the cookie */
    size_t last_len;
};
int pmark_parse(const char *p, size_t n, struct pmark *m);

/* "1234.5678" seconds (ftrace) -> ns; digits only, at most 9 decimals
 * used.  0, or -1 when it is no such number. */
int pline_secs_ns(const char *p, size_t n, int64_t *ns);
/* A JSON number of microseconds ("12.5", "1e3", "-3") -> ns. */
int pline_us_ns(const char *p, size_t n, int64_t *ns);
/* ns -> "1234.567890" (6 decimals, as ftrace prints) or microseconds
 * ("1234567.890"); returns the length written (buf of at least 32). */
size_t pline_fmt_secs(char *buf, size_t len, int64_t ns);
size_t pline_fmt_us(char *buf, size_t len, int64_t ns);

/* Line assembly of a stream. */
struct plines {
    struct dynbuf buf;
    int overlong;               /* within a line too long to hold */
};
/* whole: the line is complete (with its LF, or the stream's end). */
typedef enum st_err (*pline_fn)(void *ctx, const char *p, size_t n, int whole);
void plines_init(struct plines *s);
void plines_free(struct plines *s);
enum st_err plines_feed(struct plines *s, const void *p, size_t n, pline_fn fn, void *ctx);
enum st_err plines_finish(struct plines *s, pline_fn fn, void *ctx);

#endif
