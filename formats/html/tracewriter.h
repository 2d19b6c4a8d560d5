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
 * Huge ftrace parts (systemTraceEvents): the classic viewer reads each
 * block as one JavaScript string and hangs on blocks over the browser's
 * string limit (2^29 - 24 characters), so once a block holds split bytes
 * of payload it is closed at the next line end and a new one opened:
 *   "# </SCRIPT>" OPEN_TAG replayed-header          (the tag on one line)
 * Browsers end the element at `</SCRIPT>` (any case) and open the next;
 * Perfetto's importer ends its ftrace section only on a line containing
 * the lower-case `</script>` and skips lines starting with '#', so for it
 * the boundary is one comment line and it reads every block, with no
 * parse failure (docs/perfetto.md).  Each continuation block starts with
 * the part's own leading '#' lines (the ftrace header) so the viewer's
 * ftrace importer accepts it.  No split happens inside the header, so the
 * circular-buffer cut (tw_text_sink keep) only ever removes whole
 * boundaries; the writer keeps their offsets to count blocks correctly.
 *
 * Consecutive ftrace parts (atrace's text, then an app's method slices
 * as atrace text) are joined the same way, whatever the split size, since
 * Perfetto reads only the first ftrace section of a page; in JSON they
 * become one systemTraceEvents string (a key may appear only once).
 *
 * A tee (tw_set_tee, tw_add_tee) sees every part's name and raw payload,
 * before escaping: the trace-event converter and the summary hang there.
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
#include "lib/error.h"
#include "lib/sink.h"
#include "viewer.h"

enum tw_format { TW_HTML, TW_JSON };

struct tracewriter;

/* viewer is required for TW_HTML and must outlive the call to tw_open. */
/* Payload bytes per block before a split (HTML ftrace parts): well
 * under the 2^29 - 24 character string limit of V8. */
#define TW_SPLIT_DEFAULT ((uint64_t)256 << 20)

/* viewer is required for TW_HTML and must outlive the call to tw_open.
 * path NULL: no file (outfile.h), for a conversion read through tees.
 * The split size is TW_SPLIT_DEFAULT, or $SYSTRACE_SPLIT_BYTES (for
 * tests; 0 never splits). */
enum st_err tw_open(const char *path, enum tw_format fmt, const struct viewer *v,
                    struct tracewriter **out);
/* 0: never split. */
void tw_set_split(struct tracewriter *w, uint64_t bytes);

/* What a reader knows of its trace beyond the payload it writes (a
 * Perfetto trace's track events, frame timeline and the data it did not
 * convert), for the summary: the reader need not know who listens. */
enum tw_fact_kind {
    TW_FACT_EVENTS,         /* count events (not text lines) between first_ns and last_ns */
    TW_FACT_NOT_SHOWN,      /* count items of kind `what` were not converted */
    TW_FACT_FRAME,          /* an actual frame of the frame timeline began */
    TW_FACT_FRAME_END,      /* ... and ended, dur_ns after it began */
    /* in a traceEvents part, inside its open event array: the next
     * `bytes` bytes of payload are `count` whole events, each "\n{...}"
     * behind a ',' but the first (a writer of our own, trusted: a tee
     * may copy them without reading them) */
    TW_FACT_EVENT_RUN,
};
struct tw_fact {
    enum tw_fact_kind kind;
    uint64_t count, first_ns, last_ns;
    const char *what;
    /* frames: the process, the frame's token (Perfetto's slice name),
     * JankType bits, PresentType (-1: absent) */
    int64_t pid, token;
    uint64_t dur_ns;
    uint64_t bytes;         /* TW_FACT_EVENT_RUN */
    uint32_t jank;
    int present;
};

/* Sees each part (name), its payload as given to tw_write and its end.
 * Return values are ignored: a tee keeps its own sticky error. */
struct tw_tee {
    void (*begin)(void *ctx, const char *part);
    void (*write)(void *ctx, const void *p, size_t n);
    void (*end)(void *ctx);
    /* the part's payload so far is void; it starts over (may be NULL) */
    void (*restart)(void *ctx);
    void *ctx;
    /* what a reader knows of the trace beyond the payload (may be NULL) */
    void (*fact)(void *ctx, const struct tw_fact *f);
};
#define TW_TEES_MAX 4
/* The only tee (NULL: none). */
void tw_set_tee(struct tracewriter *w, const struct tw_tee *t);
/* One more tee (the trace-event converter and the summary both listen);
 * ST_EINVAL past TW_TEES_MAX.  Tees see each call in the order added. */
enum st_err tw_add_tee(struct tracewriter *w, const struct tw_tee *t);
/* Tells every tee listening for facts. */
void tw_fact(struct tracewriter *w, const struct tw_fact *f);
/* A filter in front of everything else (tees, splitting, escaping): a
 * piece of the trace (formats/piece) is cut there, so the tees see the
 * piece.  begin returns 1 to take the part's payload: write gets it and
 * hands on what it keeps through tw_write_kept; end may still hand on
 * bytes (slices closed at the piece's end).  The file offsets a text
 * sink's tell and keep work with no longer match the payload given, so
 * no circular-buffer cut may run with a filter. */
struct tw_filter {
    int (*begin)(void *ctx, const char *part);
    enum st_err (*write)(void *ctx, const void *p, size_t n);
    enum st_err (*end)(void *ctx);
    void *ctx;
};
void tw_set_filter(struct tracewriter *w, const struct tw_filter *f);
/* Payload past the filter (what the filter keeps). */
enum st_err tw_write_kept(void *w, const void *p, size_t n);
enum st_err tw_begin(struct tracewriter *w, const char *name);
enum st_err tw_write(void *w, const void *p, size_t n);
enum st_err tw_end(struct tracewriter *w);
/* Drop the current part's payload written so far and start it over (its
 * source is read again, e.g. a device dump fetched again after the link
 * dropped): the file is cut back to the part's opening (outfile_keep),
 * splitting and escaping state are reset and the tee is told.  Not for
 * stdout (no keep support). */
enum st_err tw_restart_part(struct tracewriter *w);

/* Room for a part known only at the end (HTML, between parts): a page
 * converted while a trace arrives keeps its process dump, which Perfetto
 * reads only before the ftrace text, in front.  The room is blank lines
 * (whitespace between elements, to browsers and to Perfetto).  Then
 * tw_hole_begin, one whole part (tw_begin .. tw_end), tw_hole_end: the
 * part is written into the room and the rest stays blank; a part bigger
 * than the room moves everything after it up (a copy of the page's
 * tail, the slow way, only when the guess was short).  Tees see the part
 * when it is written.  ST_EUNSUPPORTED for JSON. */
struct tw_hole {
    uint64_t at, len;
};
enum st_err tw_hole(struct tracewriter *w, size_t len, struct tw_hole *h);
enum st_err tw_hole_begin(struct tracewriter *w, const struct tw_hole *h);
enum st_err tw_hole_end(struct tracewriter *w, const struct tw_hole *h);
enum st_err tw_commit(struct tracewriter *w);
/* Frees; removes the temporary file unless committed.  NULL is a no-op. */
void tw_free(struct tracewriter *w);

/* A text_sink writing into the current part (for the repair stage). */
void tw_text_sink(struct tracewriter *w, struct text_sink *s);

/* Payload bytes written into the current part so far (before escaping). */
uint64_t tw_part_bytes(const struct tracewriter *w);
int tw_parts(const struct tracewriter *w);
/* Continuation blocks written for splits (parts joined not counted). */
int tw_splits(const struct tracewriter *w);
/* Payload bytes of the largest ftrace part. */
uint64_t tw_max_part_bytes(const struct tracewriter *w);
const char *tw_errtext(const struct tracewriter *w);
/* The output's sticky error (ST_OK while writing works): tells a failed
 * write apart from a failed input. */
enum st_err tw_error(const struct tracewriter *w);
const char *tw_path(const struct tracewriter *w);
/* The temporary file being written (NULL once committed). */
const char *tw_tmppath(const struct tracewriter *w);

/* The escapes on their own, for tests and the HTML extractor: */
/* Undo the HTML payload escape in place; returns the new length. */
size_t tw_html_unescape(char *p, size_t n);

#endif
