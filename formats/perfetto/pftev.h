/*
 * A Perfetto trace's data other than ftrace, as Chrome trace-event JSON
 * objects (the Trace Event Format, `ts` in µs with nanosecond decimals),
 * streamed to a write callback one object at a time, each preceded by
 * "\n" (the first) or ",\n": the caller wraps them in a traceEvents array.
 *
 * Converted (numbers: ../shared/reference/perfetto-protos/):
 *   TrackDescriptor (60), ProcessDescriptor (43), ThreadDescriptor (44):
 *     tracks by uuid; process and thread names as M metadata events;
 *   TrackEvent (11) on thread tracks: B / E slices, i instants; on
 *     process and custom tracks: b / e nestable async slices (id: the
 *     track uuid) and process/global instants; on counter tracks: C with
 *     the track's name; flows (flow_ids, terminating_flow_ids) as v2
 *     bind_id / flow_in / flow_out on the first id; debug annotations as
 *     args;
 *   InternedData (12): event names, categories, debug annotation names,
 *     per sequence, cleared with SEQ_INCREMENTAL_STATE_CLEARED or
 *     incremental_state_cleared; TracePacketDefaults (59): the default
 *     track_uuid;
 *   FrameTimelineEvent (76): expected and actual surface and display
 *     frames as b / e async slices per process (pftev_frame.c);
 *   GpuRenderStageEvent (53) and InternedData gpu_specifications: X
 *     slices, a thread per GPU queue (pftev_gpu.c);
 *   PerfSample (66), StreamingProfilePacket (54) and their interned
 *     frames: "stackFrames" and "samples", two streams of their own
 *     (pftev_set_samples; pftev_sample.c);
 *   ProcessStats (9), SysStats (7), BatteryCounters (38), PowerRails (40),
 *     GpuCounterEvent (52): counters named as Perfetto names them
 *     (pftev_counters.c);
 *   AndroidLogPacket (39): each entry a thread instant, category
 *     android_log, args priority, tag, message (pftev_log.c);
 * ClockSnapshot (6), TracePacket's and TracePacketDefaults' timestamp_clock_id
 * (58, sequence-scoped and incremental clocks too) and TrackEvent's legacy
 * timestamp_delta_us / timestamp_absolute_us (MONOTONIC, from a
 * ThreadDescriptor's reference_timestamp_us): timestamps converted to the
 * trace's clock (pfclk.h), as Perfetto converts them.
 *
 * Bad input never stops the conversion: a name iid never defined (the
 * event is kept, unnamed), an event on a track never described (kept on
 * a global track of its own, as Perfetto keeps it) or on no track, an end without a begin, a counter value on a slice track (or a
 * slice on a counter track) are counted in stats and said in a note; the
 * rest is kept.  Packets of other kinds are counted by kind
 * (pftev_other), named in the note ("742 perf samples not shown").
 *
 * Memory: tracks, sequences and interned strings each have a maximum
 * (PFTEV_*_MAX); past it the event is counted as dropped.
 */
#ifndef SYSTRACE_PFTEV_H
#define SYSTRACE_PFTEV_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"

#define PFTEV_TRACKS_MAX (1u << 20)
#define PFTEV_SEQS_MAX (1u << 16)
#define PFTEV_INTERN_BYTES ((size_t)64 << 20)
#define PFTEV_FRAMES_MAX (1u << 16)   /* frame timeline frames open at once */
#define PFTEV_GPU_PID 0x7ff00000     /* GPU n's pseudo-process: this + n */
#define PFTEV_DEPTH_MAX 256         /* open slices kept per track */
#define PFTEV_EV_BYTES ((size_t)1 << 20)    /* one JSON object, at most */
#define PFTEV_STACK_NODES_MAX (1u << 20)    /* stackFrames entries */
#define PFTEV_STACK_BYTES ((size_t)32 << 20) /* ... and their names */
#define PFTEV_FLOWS_MAX (1u << 16)    /* flow ids begun, not yet terminated */

struct pftev_stats {
    uint64_t events;            /* JSON objects written */
    uint64_t slices, async, instants, counters, names, flows;
    uint64_t frames;            /* frame timeline slices */
    uint64_t gpu_stages;        /* GPU render stage slices */
    uint64_t samples;           /* CPU samples written */
    uint64_t stack_frames;      /* stackFrames entries written */
    uint64_t bad_stack;         /* samples whose callstack or frame was never defined */
    uint64_t over_stack;        /* samples past PFTEV_STACK_* */
    uint64_t logs;              /* Android log entries */
    uint64_t bad_counter;       /* power rail or GPU samples of no described counter */
    uint64_t sys_other;         /* sys stats parts and GPU descriptors not read */
    uint64_t bad_iid;           /* names, categories, annotation names never defined */
    uint64_t bad_track;         /* tracks used, never described */
    uint64_t no_track;          /* events with no track at all */
    uint64_t unmatched_end;     /* ends without a begin */
    uint64_t wrong_track;       /* counter values on slice tracks, slices on counter tracks */
    uint64_t dropped;           /* over a memory bound, or malformed */
    uint64_t first_ts, last_ts; /* the events' time span (events with a ts) */
    uint64_t no_clock;          /* on a clock no snapshot relates to the trace's */
};

struct pftev;

struct pftev *pftev_new(st_write_fn write, void *ctx);
void pftev_free(struct pftev *v);

/* CPU samples: the members of a top-level "stackFrames" object and the
 * elements of a "samples" array, each preceded by "\n" (the first) or
 * ",\n", to two writers of their own (the caller puts them beside the
 * traceEvents array).  Not set: samples are counted as not shown. */
enum st_err pftev_set_samples(struct pftev *v, st_write_fn frames, st_write_fn samples,
                              void *ctx);

/* One TracePacket (its bytes), with the header fields pftrace read. */
struct pftev_pkt {
    uint64_t ts, flags, cleared;
    uint32_t seq;
};
enum st_err pftev_packet(struct pftev *v, const struct pftev_pkt *k, const uint8_t *p,
                         size_t n);
/* Does a TracePacket field number carry data this module converts? */
int pftev_wants(uint32_t num);

/* The end of the trace: what waits for it (a GPU counter's last 0). */
enum st_err pftev_finish(struct pftev *v);

/* A packet field of a kind not converted: counted for pftev_note. */
void pftev_other(struct pftev *v, uint32_t num);
/* "742 perf samples not shown; 3 ..." of what was counted (and the bad
 * input above), "" if nothing. */
void pftev_note(const struct pftev *v, char *buf, size_t n);
/* What the trace held of other kinds, for a trace with nothing converted. */
uint64_t pftev_others(const struct pftev *v);

const struct pftev_stats *pftev_stats(const struct pftev *v);

/* An actual frame of the frame timeline (surface or display), told as it
 * begins (ended 0) and ends (ended 1, dur_ns), for the summary's metric:
 * the token is Perfetto's slice name, jank the JankType bits, present the
 * PresentType (-1: absent). */
struct pftev_frame_info {
    int32_t pid;
    int ended;
    int64_t token;
    uint64_t ts, dur_ns;
    uint32_t jank;
    int present;
};
typedef void (*pftev_frame_fn)(void *ctx, const struct pftev_frame_info *f);
void pftev_set_frames(struct pftev *v, pftev_frame_fn fn, void *ctx);
/* Kind i of the packets counted by pftev_other (NULL past the last, ""
 * for a kind now converted) and how many the trace held. */
const char *pftev_other_kind(const struct pftev *v, size_t i, uint64_t *count);

#endif
