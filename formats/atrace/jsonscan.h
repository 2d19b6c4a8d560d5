/*
 * Streaming JSON scanner for `--from-file` JSON input (RFC 8259 syntax,
 * validated byte by byte, any chunking).  It counts trace events (the
 * elements of the root array, or of the root object's "traceEvents"
 * array: the Trace Event Format, perfetto-and-viewer.md §3) and hands on
 * the text in one of three ways:
 *
 *   JSCAN_COUNT    nothing: validate and count only;
 *   JSCAN_WHOLE    the root value's text as it is (no BOM, no blanks
 *                  around it): a Chrome JSON trace kept whole;
 *   JSCAN_MEMBERS  member by member of the root object: string values
 *                  unescaped (UTF-8; lone surrogates become U+FFFD), other
 *                  values as their JSON text.  catapult's -j file is an
 *                  object of strings, one per result part.
 *
 * A document that ends early is closed as briefly as possible (the open
 * string, number or literal finished, a missing value as null, or {} in
 * the event array, then every open bracket), handed on, and reported as
 * ST_ETRUNCATED: the output stays valid JSON with every event before the
 * cut.  Bounds: nesting JSCAN_DEPTH_MAX, numbers JSCAN_NUMBER_MAX bytes,
 * any other string or run of blanks JSCAN_TOKEN_MAX (no trace has longer
 * ones: it is refused, ST_ETOOBIG); member strings of JSCAN_MEMBERS are
 * not bounded here (the caller bounds their lines).  Memory is fixed.
 */
#ifndef SYSTRACE_JSONSCAN_H
#define SYSTRACE_JSONSCAN_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"

#define JSCAN_DEPTH_MAX 1024
#define JSCAN_NUMBER_MAX 4096
#define JSCAN_TOKEN_MAX ((uint64_t)64 << 20)
#define JSCAN_KEY_MAX 256       /* bytes of a root member name kept */

enum jscan_mode { JSCAN_COUNT, JSCAN_WHOLE, JSCAN_MEMBERS };

struct jscan_cb {
    /* JSCAN_MEMBERS: a root member begins; key unescaped (NUL-terminated,
     * at most JSCAN_KEY_MAX bytes kept); is_string: data will be the
     * unescaped string, else the value's JSON text. */
    enum st_err (*member)(void *ctx, const char *key, int is_string);
    st_write_fn data;
    enum st_err (*member_end)(void *ctx);
    void *ctx;
};

/* What the root looks like, as soon as it is known. */
enum jscan_shape {
    JSCAN_SHAPE_UNKNOWN,        /* not seen yet */
    JSCAN_SHAPE_ARRAY,          /* [ ... ] */
    JSCAN_SHAPE_EMPTY,          /* {} */
    JSCAN_SHAPE_STRINGS,        /* { "k": "string" ... : the first member's value */
    JSCAN_SHAPE_OBJECT,         /* { "k": other value ... */
    JSCAN_SHAPE_SCALAR,         /* a string, number or literal */
};

struct jscan;
/* cb may be NULL for JSCAN_COUNT. */
struct jscan *jscan_new(enum jscan_mode mode, const struct jscan_cb *cb);
void jscan_free(struct jscan *s);

/* ST_EFORMAT: invalid JSON; ST_ETOOBIG: over a bound (jscan_detail says
 * what and at which byte); other codes come from the callbacks. */
enum st_err jscan_feed(struct jscan *s, const void *p, size_t n);
/* End of input.  ST_ENOTRACE: nothing but blanks; ST_ETRUNCATED: closed
 * early (see above). */
enum st_err jscan_finish(struct jscan *s);

enum jscan_shape jscan_shape(const struct jscan *s);
/* Elements of the event array begun / complete. */
uint64_t jscan_events(const struct jscan *s);
uint64_t jscan_events_complete(const struct jscan *s);
/* 1 if the root object has a non-empty "systemTraceEvents" string (ftrace
 * text inside a JSON trace: events the count above does not see). */
int jscan_system_text(const struct jscan *s);
/* 1 if the root had an event array at all. */
int jscan_has_event_array(const struct jscan *s);
const char *jscan_detail(const struct jscan *s);

#endif
