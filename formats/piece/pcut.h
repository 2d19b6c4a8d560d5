/*
 * The cutter of pages (HTML and JSON results): a filter in front of the
 * page writer (formats/html/tracewriter.h struct tw_filter) that keeps a
 * piece of each part as it streams by (formats/piece/piece.h; the window
 * from pscan.h's first pass):
 *
 *   systemTraceEvents (ftrace text): headers, comments and the clock sync
 *     marker kept; event lines kept by their time and their process.
 *     atrace slices open at the window's start begin again there, named
 *     "NAME (cut)"; slices still open at its end end there; async slices
 *     (S/F) likewise, under their own name (their end finds them by name);
 *     each counter's last value before the window is set again at its
 *     start.  With --process, a sched_switch keeps its kept side and shows
 *     the other side as the thread "other" (pid PIECE_OTHER_PID), so the
 *     CPU tracks stay whole (a switch between two others is left out: the
 *     CPU simply stays "other"); CPU-wide events (frequency, idle, irqs) of
 *     other processes stay, as "other"'s; a waking stays if it wakes a kept
 *     thread; all else of other processes goes.
 *   traceEvents (trace-event JSON, ts in microseconds of the same clock):
 *     metadata (ph M) kept; B/E cut per thread as above, X clipped to the
 *     window (cut at its start: "NAME (cut)"), counters' last value set
 *     at the start; other events kept when in the window; with --process
 *     only the kept processes' events (and events without a pid).
 *   androidProcessDump and all else: kept whole (the names).
 *
 * Memory: the open slices and the counters' last values (pmap.h bounds).
 */
#ifndef SYSTRACE_PCUT_H
#define SYSTRACE_PCUT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"
#include "lib/sink.h"
#include "pscan.h"

struct pcut;
/* w must outlive the cutter; out gets the kept payload. */
struct pcut *pcut_new(const struct piece_window *w, st_write_fn out, void *out_ctx);
void pcut_free(struct pcut *c);
/* A tw_filter's calls. */
int pcut_begin(void *c, const char *part);
enum st_err pcut_write(void *c, const void *p, size_t n);
enum st_err pcut_end(void *c);
/* Events kept in the window (text lines and JSON elements with a time). */
uint64_t pcut_kept(const struct pcut *c);

/*
 * One pass (pcut_stream.c): ftrace text of every process (no --process,
 * no slice: range, which need a first pass), cut while it streams: the
 * window is fixed at the first event, and each piece is asked for when
 * its first event comes.  Only systemTraceEvents is read; other parts
 * are dropped.
 */
struct pcut_pieces {
    /* piece n (from 0) begins at lo: where its bytes go */
    enum st_err (*open)(void *ctx, unsigned n, int64_t lo, st_write_fn *out, void **out_ctx);
    /* it is complete: [lo, hi), kept events */
    enum st_err (*close)(void *ctx, unsigned n, int64_t lo, int64_t hi, uint64_t kept);
    /* a circular-buffer cut: every piece so far is void, numbers restart */
    enum st_err (*restart)(void *ctx);
    void *ctx;
};
struct pcut *pcut_new_pieces(const struct piece_spec *s, const struct pcut_pieces *ops);
unsigned pcut_pieces_begun(const struct pcut *c);
/* The text came out of time order: the cut stopped (ST_EUNSUPPORTED), to
 * be done again in two passes. */
int pcut_unordered(const struct pcut *c);
/* The first and last event's times and the whole window [lo, hi) (ns, the
 * trace's clock); 0 when no event was seen. */
int pcut_span(const struct pcut *c, int64_t *first, int64_t *last, int64_t *lo, int64_t *hi);

#endif
