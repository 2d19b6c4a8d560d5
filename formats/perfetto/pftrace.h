/*
 * Perfetto protobuf traces (`Trace { repeated TracePacket packet = 1; }`)
 * to systrace text, streaming: init / feed(bytes) / finish, complete ftrace
 * lines handed to a write callback.  The text is what Perfetto's own
 * to_ftrace prints for every ftrace event (`traceconv systrace`, spec:
 * ../shared/reference/perfetto-recording.md §3-4): the line prefix here
 * (pfemit.c), the body after "NAME:" from pfevent.h.
 *
 * Read: packets framed one at a time (field 1 of the file; other top-level
 * fields skipped), at most PFTRACE_PACKET_MAX bytes each (bigger ones are
 * skipped unread and counted: no ftrace bundle comes near that);
 * `compressed_packets` (50) inflated into at most PFTRACE_INFLATE_MAX bytes
 * and read one level deep (a compressed packet inside is refused, so no
 * recursion).  FtraceEventBundle: events, compact_sched rebuilt with its
 * intern table and delta timestamps, prev_* of a compact switch from the
 * previous switch on the CPU (the first compact switch of each CPU is
 * dropped, as Perfetto drops it); a compact waking is charged to the task
 * running on its CPU.  ProcessTree, task_newtask/task_rename and the comms
 * name threads (pfnames.h).  SystemInfo.utsname's kernel version decides
 * prev_state's letters, as in Perfetto's sched importer (deviation: v58's
 * to_ftrace prints them as for an unknown kernel; pfevent_sched.c).
 *
 * Times: an event's (boot time, the ftrace clock) on the trace's clock, as
 * Perfetto shows it: converted through the clock snapshots in file order
 * (pfclk.h) when the trace's primary_trace_clock is another; an event no
 * snapshot relates is left out and counted, as Perfetto leaves it out.
 *
 * Order: events go through a windowed sort (pfsort.h, about 32 MB) and
 * come out in timestamp order, as Perfetto sorts them; state (names, the
 * task on each CPU) is applied in that order too.
 *
 * Two passes: pftrace_scan_* reads the trace once for its process trees and
 * the tasks task_newtask/task_rename start and name (the page's process
 * dump goes before the ftrace text, the only place Perfetto reads it); pftrace_feed/finish then convert.  The
 * scan is optional (input from a pipe): the dump is then written after.
 *
 * Errors (one line in pftrace_detail): junk, a bad length, a varint too
 * long, nesting or an intern index out of range: ST_EFORMAT with the
 * packet and byte offset; a cut inside a packet: ST_ETRUNCATED after every
 * complete packet was converted.
 */
#ifndef SYSTRACE_PFTRACE_H
#define SYSTRACE_PFTRACE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"
#include "pftev.h"

#define PFTRACE_PACKET_MAX ((size_t)8 << 20)
#define PFTRACE_INFLATE_MAX ((size_t)16 << 20)

/* Do the first bytes look like a Perfetto trace (a TracePacket field with
 * a plausible length, then a packet field inside)? */
int pftrace_sniff(const unsigned char *p, size_t n);

struct pftrace;

struct pftrace *pftrace_new(void);
/* The lines are formatted on a thread of the reader's own: free it while
 * its output (pftrace_set_output) can still be written to. */
void pftrace_free(struct pftrace *t);

/* Pass 1 (optional): process trees, new tasks and renames only. */
enum st_err pftrace_scan_feed(struct pftrace *t, const void *p, size_t n);
enum st_err pftrace_scan_finish(struct pftrace *t);

/* Pass 2: lines (each ending "\n") to write. */
void pftrace_set_output(struct pftrace *t, st_write_fn write, void *ctx);
/* Packets of other data (track events, descriptors: pftev.h) as
 * trace-event JSON objects to write, beside the lines; without this
 * they are only counted.  They are converted on the formatting thread:
 * `write` (and the samples' and frame listener below) is called there,
 * never after pftrace_finish has returned. */
enum st_err pftrace_set_events(struct pftrace *t, st_write_fn write, void *ctx);
/* ... and their CPU samples (after pftrace_set_events: pftev_set_samples). */
enum st_err pftrace_set_samples(struct pftrace *t, st_write_fn frames, st_write_fn samples,
                                void *ctx);
enum st_err pftrace_feed(struct pftrace *t, const void *p, size_t n);
enum st_err pftrace_finish(struct pftrace *t);

/* Processes known (0: no dump to write): of the scan once one was fed
 * (also while it is fed: a trace scanned as it arrives), else of the
 * conversion. */
size_t pftrace_processes(const struct pftrace *t);
/* The PROCESS DUMP part's text (ST_ENOTRACE: no process known). */
enum st_err pftrace_process_dump(const struct pftrace *t, st_write_fn write, void *ctx);

struct pftrace_stats {
    uint64_t packets, lines;
    uint64_t compact_dropped;   /* first compact switch per CPU, wakings before it */
    uint64_t lost_bundles;      /* bundles the kernel marked lost_events */
    uint64_t big_skipped;       /* packets over PFTRACE_PACKET_MAX */
    uint64_t late;              /* events out of order past the sort window */
    uint64_t unknown;           /* ftrace events of a type we cannot name */
    uint64_t other_clock;       /* bundles timed by a non-boot ftrace clock */
    uint64_t unconverted;       /* events left out: boot time not related to the trace's */
};
const struct pftrace_stats *pftrace_stats(const struct pftrace *t);

/* The trace-event writer's counts and note (NULL: not asked for). */
const struct pftev *pftrace_events(const struct pftrace *t);
/* The events converter's frame timeline listener (pftev_set_frames);
 * after pftrace_set_events. */
void pftrace_set_frames(struct pftrace *t, pftev_frame_fn fn, void *ctx);

/* What went wrong, or for a trace without ftrace events what it holds. */
const char *pftrace_detail(const struct pftrace *t);

#endif
