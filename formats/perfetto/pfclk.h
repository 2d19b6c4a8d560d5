/*
 * A Perfetto trace's clocks (ClockSnapshot packets) and the conversion of
 * a timestamp on one of them to the trace's clock, as Perfetto's clock
 * tracker does it (src/trace_processor/util/clock_tracker.h, v58):
 * snapshots with the same set of clocks form a group; a timestamp goes
 * from clock to clock along the shortest path of groups, on each step
 * offset by the latest snapshot at or before it on its clock (the first
 * one when it is earlier than all).  Sequence-scoped clocks (ids 64-127)
 * are keyed by their sequence; an incremental clock's timestamps are
 * deltas from the last one (a snapshot sets its value); a clock's unit
 * is unit_multiplier_ns.  The trace's clock is BOOTTIME until a snapshot
 * names one (its primary_trace_clock, else BOOTTIME when it holds BOOTTIME)
 * and no longer changes once a time was converted to it; a packet with no
 * clock of its own nor its sequence's default is on the clock the latest
 * snapshot named (default_clock), or taken as it is before any did: so
 * Perfetto v58 reads them (measured: a later snapshot without
 * primary_trace_clock puts such packets on BOOTTIME, converted).
 *
 * Memory: PFCLK_CLOCKS clocks, PFCLK_GROUPS groups of up to PFCLK_IN_GROUP
 * clocks, PFCLK_SNAPS snapshots a group; past that a snapshot is counted
 * in `dropped` and the ones before it convert.
 */
#ifndef SYSTRACE_PFCLK_H
#define SYSTRACE_PFCLK_H

#include <stddef.h>
#include <stdint.h>

#define PFCLK_BOOTTIME 6
#define PFCLK_MONOTONIC 3
#define PFCLK_REALTIME 1
#define PFCLK_TRACE_FILE 11
#define PFCLK_CLOCKS 64
#define PFCLK_GROUPS 32
#define PFCLK_IN_GROUP 16
#define PFCLK_SNAPS (1u << 16)

struct pfclk_clock {
    uint64_t id;                /* seq << 32 | clock id for sequence clocks */
    uint64_t mult;              /* ns a unit */
    int64_t last;               /* an incremental clock's value, ns */
    int incremental;
};

struct pfclk_group {
    uint32_t n;                 /* clocks */
    uint64_t ids[PFCLK_IN_GROUP];
    int64_t *ts;                /* count rows of n timestamps, ns */
    uint32_t count, cap;
};

struct pfclk {
    struct pfclk_clock clocks[PFCLK_CLOCKS];
    uint32_t nclocks;
    struct pfclk_group groups[PFCLK_GROUPS];
    uint32_t ngroups;
    uint64_t trace_clock;       /* PFCLK_BOOTTIME unless a snapshot said */
    int trace_clock_used;       /* a conversion happened: it no longer changes */
    uint64_t default_clock;     /* of packets without a clock; 0: as they are */
    uint64_t dropped;           /* snapshots malformed, going back, over a bound */
};

void pfclk_init(struct pfclk *c);
void pfclk_free(struct pfclk *c);
/* A ClockSnapshot message of sequence seq. */
void pfclk_snapshot(struct pfclk *c, uint32_t seq, const uint8_t *p, size_t n);
/* ts on clock id (of sequence seq) to the trace's clock: 0 and *out set,
 * -1 when no snapshots lead from that clock to the trace's. */
int pfclk_convert(struct pfclk *c, uint32_t seq, uint64_t id, uint64_t ts, int64_t *out);
/* An ftrace event's time (BOOTTIME, the ftrace clock) on the trace's
 * clock, as Perfetto's ftrace importer converts it (as it is when the
 * trace's clock is BOOTTIME): 0 and *out set, or -1 (Perfetto drops it). */
int pfclk_boot_to_trace(struct pfclk *c, uint64_t ts, int64_t *out);
/* The way back: ns on the trace's clock to global clock id (not an
 * incremental one), for an event written on that clock that must land at
 * ns (an ftrace event, on BOOTTIME): 0 and *out set, or -1. */
int pfclk_from_trace(const struct pfclk *c, uint64_t id, int64_t ns, int64_t *out);

/* A sequence's TracePacketDefaults (p, n): timestamp_clock_id (58) into
 * *clock and track_event_defaults (11).track_uuid (11) into *track, each
 * left as it is when absent; 1 when a track uuid was given. */
int pfclk_packet_defaults(const uint8_t *p, size_t n, uint32_t *clock, uint64_t *track);

#endif
