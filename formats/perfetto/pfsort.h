/*
 * A windowed sort of timestamped records with a memory bound: Perfetto
 * writes ftrace a CPU at a time (one bundle per CPU per read cycle), so
 * a trace's events are ordered per CPU but interleave across CPUs and
 * packets.  Records are kept in an arena of at most PFSORT_ARENA bytes and
 * PFSORT_RECS entries; when either is full, the buffer is sorted by
 * (timestamp, arrival) and its older half handed to emit().  A record
 * that arrives older than one already handed on (a CPU more than half a
 * window behind the others) is still emitted, at the next flush, out of
 * order; pfsort_late() counts those.  Memory: 20 MB of records plus two
 * index arrays of 6 MB at most.
 */
#ifndef SYSTRACE_PFSORT_H
#define SYSTRACE_PFSORT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"

#define PFSORT_ARENA ((size_t)20 << 20)
#define PFSORT_RECS ((size_t)1 << 18)

typedef enum st_err (*pfsort_emit_fn)(void *ctx, int64_t ts, const uint8_t *p, size_t n);

struct pfsort;

/* arena, recs: the bounds (0: the defaults above; tests use small ones). */
struct pfsort *pfsort_new(size_t arena, size_t recs, pfsort_emit_fn emit, void *ctx);
void pfsort_free(struct pfsort *s);

/* One record: head then body, copied.  A record over the arena is
 * ST_ETOOBIG. */
enum st_err pfsort_push(struct pfsort *s, int64_t ts, const void *head, size_t hn,
                        const void *body, size_t bn);
/* Hand records on once half the index bound plus `step` records are held,
 * down to half the bound, instead of when it is full: a late record gets
 * the same window as before (half the bound), but pfsort_finish has at
 * most half the bound plus a step left to sort and hand on, not up to all
 * of it, and records flow on in steps rather than half the window at
 * once (a consumer on another thread is kept busy).  The Perfetto reader
 * always sorts so (PF_SORT_STEP). */
void pfsort_set_eager(struct pfsort *s, size_t step);
/* Everything left, in order. */
enum st_err pfsort_finish(struct pfsort *s);
uint64_t pfsort_late(const struct pfsort *s);

#endif
