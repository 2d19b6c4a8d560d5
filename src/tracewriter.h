/*
 * Writes the result file: the classic systrace HTML page, or catapult's
 * JSON form (-j).  A result is a sequence of named parts (catapult's
 * source names: androidProcessDump, systemTraceEvents, systraceController,
 * traceEvents ...), each streamed in with tw_write.
 *
 * HTML layout (catapult-systrace.md §9.1, with our own prefix/suffix):
 *   prefix (polyfill and viewer substituted) "<!-- BEGIN TRACE -->\n"
 *   per part: "  <script class=\"trace-data\" type=\"application/text\">\n"
 *             payload "  </script>\n"
 *   "<!-- END TRACE -->\n" suffix
 * Payload escaping: one backslash is inserted after '<' where '<' starts
 * "/script" (any case), "!--" or "\" — so trace text can never close or
 * confuse its script element; the prefix's loader removes exactly those
 * backslashes again, so the viewer imports the original text.
 *
 * JSON: {"name": "payload", ..., "controllerTraceDataKey": ...} with every
 * payload a JSON string; invalid UTF-8 becomes U+FFFD so the file parses.
 *
 * Output goes through outfile: nothing appears at the path until commit.
 */
#ifndef SYSTRACE_TRACEWRITER_H
#define SYSTRACE_TRACEWRITER_H

#include <stdint.h>
#include <stddef.h>
#include "error.h"
#include "sink.h"
#include "viewer.h"

enum tw_format { TW_HTML, TW_JSON };

struct tracewriter;

/* viewer is required for TW_HTML and must outlive the call to tw_open. */
enum st_err tw_open(const char *path, enum tw_format fmt, const struct viewer *v,
                    struct tracewriter **out);
enum st_err tw_begin(struct tracewriter *w, const char *name);
enum st_err tw_write(void *w, const void *p, size_t n);
enum st_err tw_end(struct tracewriter *w);
enum st_err tw_commit(struct tracewriter *w);
/* Frees; removes the temporary file unless committed.  NULL is a no-op. */
void tw_free(struct tracewriter *w);

/* A text_sink writing into the current part (for the repair stage). */
void tw_text_sink(struct tracewriter *w, struct text_sink *s);

/* Payload bytes written into the current part so far (before escaping). */
uint64_t tw_part_bytes(const struct tracewriter *w);
int tw_parts(const struct tracewriter *w);
const char *tw_errtext(const struct tracewriter *w);
const char *tw_path(const struct tracewriter *w);

/* The escapes on their own, for tests and the HTML extractor: */
/* Undo the HTML payload escape in place; returns the new length. */
size_t tw_html_unescape(char *p, size_t n);

#endif
