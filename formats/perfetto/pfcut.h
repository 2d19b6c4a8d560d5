/*
 * A piece of a Perfetto trace, written as a Perfetto trace (issue 35;
 * docs/perfetto.md, "A piece of a Perfetto trace as a Perfetto trace"):
 * init / feed(bytes) / finish, streaming, the packets of the pieces' time
 * ranges handed to one write callback per piece, each piece a trace that
 * Perfetto loads alone.  A scan (no pieces) first finds the trace's extent,
 * how its bytes spread over time, a slice by name and the processes of
 * --process.
 *
 * Kept whole in every piece: the packets that later packets need and that
 * have no time of their own worth cutting by (trace config, system info,
 * clock snapshots, process trees, process/thread/track descriptors,
 * packages, stats, CPU info...), and of every other packet its sequence
 * state (interned data, defaults, the incremental-state-cleared flag),
 * stripped of its data when that lies outside the piece.  Kept when their
 * time (converted to the trace's clock with pfclk.h) lies in the piece:
 * timestamped packets (track events, legacy ones by their own time, frame
 * timeline, stats, samples, GPU), the events of ftrace bundles (compact
 * sched re-encoded with its deltas) and of logcat packets, one by one.  A
 * kept packet on another clock (an incremental one) is written with its
 * time on the trace's clock.  Slices that cross a piece's boundary (track
 * events; atrace B/E; irq, softirq, workqueue) are ended at its end and
 * begun again at the next one's start (track events marked cut_start /
 * cut_end), so no end lacks its begin; so are the frame timeline's frames
 * (pfcut_frames.c).
 *
 * Memory: the packet being read (PFTRACE_PACKET_MAX), what compressed
 * packets inflate to, per track the open slices (PFCUT_DEPTH deep, their
 * begins kept up to PFCUT_SAVED_MAX bytes in all), a sort window for atrace
 * prints (4 MB), a write buffer per piece, the scan's histogram (8 MB at
 * most).  Limits: a slice begun again after its sequence cleared its state
 * may name itself with the new state's names; GPU counters and power rails
 * are cut by their packet's time.
 */
#ifndef SYSTRACE_PFCUT_H
#define SYSTRACE_PFCUT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"

#define PFCUT_PIECES_MAX 512

/* One piece: [start, end) on the trace's clock, its output. */
struct pfcut_piece {
    int64_t start, end;
    st_write_fn write;
    void *ctx;
};

/* What the scan (pass 1) found. */
struct pfcut_span {
    int64_t first, last;        /* the trace's first and last event (ns); first > last: none */
    uint64_t state_bytes;       /* packets kept in every piece */
    uint64_t bytes;             /* all packets */
};

struct pfcut;

/* A cutter into pieces (sorted, not overlapping; copied), or, with
 * n == 0, a scan: pfcut_span and pfcut_bounds then tell the trace's
 * extent and where to cut it into pieces of a size. */
struct pfcut *pfcut_new(const struct pfcut_piece *pieces, size_t n);
void pfcut_free(struct pfcut *c);
/* Before a scan: look for the nth (from 1) slice called name (atrace
 * B/E, track events; by begin time).  ST_ENOMEM, or ST_EINVAL for an nth
 * over PFCUT_NTH_MAX. */
#define PFCUT_NTH_MAX 100000
enum st_err pfcut_find_slice(struct pfcut *c, const char *name, unsigned nth);
/* After it: the slices so called (*count), and the nth's begin and end
 * (a slice never ended ends at the trace's last event): 0, or -1 when
 * there are fewer than nth. */
int pfcut_found(const struct pfcut *c, int64_t *begin, int64_t *end, uint64_t *count);
/* Before a scan: keep only these processes (names, pids; pfcut_procs.c);
 * after it, pfcut_procs_missing names one not in the trace (NULL: all
 * are), and pfcut_take_procs hands what the scan found to the cutter. */
enum st_err pfcut_want_procs(struct pfcut *c, const char *const *names, size_t nnames,
                             const int64_t *pids, size_t npids);
const char *pfcut_procs_missing(const struct pfcut *c, char *buf, size_t n);
void pfcut_take_procs(struct pfcut *to, struct pfcut *from);
/* The trace's last event, known from a scan: slices still open there
 * are left open, as in the original. */
void pfcut_set_last(struct pfcut *c, int64_t last);
/* Errors are sticky; bytes fed after one are not read. */
enum st_err pfcut_feed(struct pfcut *c, const void *p, size_t n);
enum st_err pfcut_finish(struct pfcut *c);
/* One line on what went wrong. */
const char *pfcut_detail(const struct pfcut *c);

const struct pfcut_span *pfcut_span(const struct pfcut *c);
/* After a scan: boundaries that cut the trace into pieces of about
 * `bytes` each (the state every piece repeats counted in): up to max
 * starts in starts[] (the first is the trace's first event); the count,
 * or 0 when more would be needed. */
size_t pfcut_bounds(const struct pfcut *c, uint64_t bytes, int64_t *starts, size_t max);

struct pfcut_stats {
    uint64_t packets, kept, stripped, events, cut;  /* cut: slices ended/begun again */
    uint64_t unconverted;       /* timestamps no clock snapshot leads from */
    uint64_t saved_over;        /* open slices not kept (bounds) */
};
const struct pfcut_stats *pfcut_stats(const struct pfcut *c);

#endif
