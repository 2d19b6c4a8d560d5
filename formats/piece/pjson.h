/*
 * Trace-event JSON for the cutters, streamed: pjson finds the event array
 * (the root array, or the root object's "traceEvents" array: the Trace
 * Event Format) and hands each of its elements over whole (at most
 * PJSON_ELEM_MAX bytes), everything else on as it is.  The commas and
 * blanks between elements are dropped: the caller writes the elements it
 * keeps (and its own) through pjson_emit, which puts the commas back.
 * The input has been validated upstream (the --from-file reader); broken
 * JSON goes on as it is, never read out of bounds.
 *
 * pevent reads an element's top-level members (ph, name, pid, tid, ts,
 * dur, id, cat, s) as spans of the element's text.
 */
#ifndef SYSTRACE_PJSON_H
#define SYSTRACE_PJSON_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "lib/error.h"
#include "lib/sink.h"

#define PJSON_ELEM_MAX ((size_t)64 << 20)
#define PJSON_DEPTH_MAX 1024

struct pjson_cb {
    st_write_fn out;            /* bytes that go on */
    void *out_ctx;
    /* one element of the event array, whole */
    enum st_err (*elem)(void *ctx, const char *p, size_t n);
    /* the event array is about to close (the cutter adds its own) */
    enum st_err (*array_end)(void *ctx);
    void *ctx;
};

struct pjson {
    struct pjson_cb cb;
    int depth, in_str, esc, ev_depth, in_elem, elem_depth, first;
    int saw_colon;              /* depth 1: ':' was the last token */
    char key[16];               /* depth 1: the last key (cut) */
    size_t keylen;
    int str_depth1;             /* the string being read is at depth 1 */
    char stack[PJSON_DEPTH_MAX];
    struct dynbuf elem;
};

void pjson_init(struct pjson *j, const struct pjson_cb *cb);
void pjson_free(struct pjson *j);
enum st_err pjson_feed(struct pjson *j, const void *p, size_t n);
/* An element of the event array (with the comma before it if needed). */
enum st_err pjson_emit(struct pjson *j, const char *p, size_t n);

struct pspan {
    size_t off, len;            /* len 0: absent */
};
struct pevent {
    struct pspan ph, name, pid, tid, ts, dur, id, cat, scope, args;
    int64_t pid_v, tid_v, ts_ns, dur_ns;
    int has_pid, has_tid, has_ts, has_dur;
    char phase;                 /* ph's first letter, or 0 */
};
/* 0, or -1 when the element is no object. */
int pevent_parse(const char *p, size_t n, struct pevent *ev);

#endif
