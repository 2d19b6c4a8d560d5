/*
 * Internals of the Perfetto cutter (pfcut.h) shared by pfcut.c (framing,
 * packets), pfcut_ftrace.c (bundles, logcat), pfcut_slices.c (slices
 * across boundaries) and pfcut_out.c (writing packets to pieces, below
 * all of them).  Not a public header.
 */
#ifndef SYSTRACE_PFCUT_INT_H
#define SYSTRACE_PFCUT_INT_H

#include <zlib.h>

#include "lib/dynbuf.h"
#include "pfclk.h"
#include "pfcut.h"
#include "pfsort.h"

#define PFCUT_DEPTH 64                  /* open slices a track */
#define PFCUT_SAVED_MAX ((size_t)8 << 20)
#define PFCUT_BEGIN_MAX ((size_t)16 << 10)  /* one saved begin */
#define PFCUT_TRACKS_MAX ((size_t)1 << 20)
#define PFCUT_SEQS_MAX 65536
#define PFCUT_OUT_CHUNK ((size_t)64 << 10)
#define PFCUT_HIST_MAX ((size_t)1 << 20)
#define PFCUT_CPUS 1024

/* A frame of the frame timeline open across pieces (pfcut_frames.c). */
#define PFCUT_FRAMES_MAX 4096
struct pfcut_frame {
    uint64_t cookie;
    uint32_t seq;               /* its start's sequence */
    uint32_t field;             /* its start's FrameTimelineEvent field (1-4) */
    uint32_t pos;               /* pieces begun up to its last time */
    int closed;                 /* ... and the last of them already ended */
    uint8_t *start;             /* the start's message (NULL: not saved) */
    size_t n;
};

/* A counter's last value (pfcut_counters.c). */
#define PFCUT_COUNTERS_MAX 65536
struct pfcut_counter {
    uint64_t key;               /* 0: a free slot */
    uint32_t pos;               /* pieces starting at or before its last value */
    uint32_t cpu, seq, tid, field;
    int64_t ts;
    uint8_t *ev;                /* the last value's event message */
    size_t n;
};

/* A slice open on a track: what begins it again in the next piece. */
struct pfcut_open {
    uint8_t *ev;                /* the TrackEvent, or the print's "B|tgid|name" */
    size_t n;
    uint32_t seq;               /* track events: its sequence; ftrace: the CPU */
    uint32_t pseq;              /* ftrace: its bundle's sequence (interned kernel symbols) */
    uint32_t field;             /* ftrace pairs: the begin's FtraceEvent field */
    int print;                  /* 1 atrace print, 2 another ftrace pair (irq, workqueue) */
    uint64_t uuid;              /* track events: the uuid to end with (0: none) */
    int match;                  /* a scan: the slice looked for (its begin's time) */
    int64_t ts;
};

/* A scan looking for a slice by name (pfcut_find_slice): the nth
 * earliest found so far, by begin. */
struct pfcut_want {
    char *name;
    size_t len;
    unsigned nth;
    int64_t (*found)[2];        /* begin, end; sorted by begin, at most nth */
    size_t nfound;
    uint64_t count;
};

/* A track: a thread's atrace slices, or a track event track. */
struct pfcut_track {
    uint64_t key;               /* 0: a free slot */
    uint32_t tid;               /* a thread's */
    uint32_t depth;
    uint32_t pos;               /* pieces begun before its last event */
    int closed;                 /* ... and the last of them already ended */
    uint32_t cap, over;         /* over: begins past PFCUT_DEPTH, ended first */
    struct pfcut_open *st;      /* grown as deep as it gets, up to PFCUT_DEPTH */
};

/* The last compact switch on a CPU: Perfetto drops the first compact
 * switch of each CPU (it lacks the prev_* fields), so a piece begins each
 * CPU with the one before its first. */
struct pfcut_cpu {
    int known;
    uint32_t sent;              /* 1 + the last piece given a compact switch */
    int64_t ts;
    uint64_t state, pid, prio;
    uint8_t comm[64];
    size_t commn;
};

struct pfcut_seq {
    uint32_t id;                /* 0: a free slot (sequence 0 is kept as 1 << 31) */
    uint32_t def_clock;
    uint64_t def_track;
    int64_t legacy_us;          /* legacy track events' time (ThreadDescriptor, deltas) */
    uint64_t want_iid[8];       /* a scan: interned names that are the slice looked for */
    uint32_t nwant;
};

struct pfcut_out {
    struct pfcut_piece p;
    struct dynbuf buf;
    uint64_t bytes;
};

/* Bytes per time bucket, for pieces of a size. */
struct pfcut_hist {
    uint64_t *b;
    int64_t lo;                 /* the first bucket's index */
    size_t n;
    int64_t w;                  /* ns a bucket */
};

/* --process (pfcut_procs.c): a u64 -> u64 map, and what the scan found. */
struct pfcut_map {
    uint64_t *k, *v;
    size_t cap, n;
};

struct pfcut_procs {
    int active;
    char **names;
    size_t nnames;
    int64_t *pids;
    size_t npids;
    uint8_t *found;             /* per name, then per pid: seen in the trace */
    struct pfcut_map tgid;      /* tid -> tgid; (1 << 40 | seq) -> its thread */
    struct pfcut_map track_pid, track_parent;   /* uuid -> pid, parent uuid */
    struct pfcut_map keep;      /* pids kept */
};

enum pfcut_fstate { PC_TAG, PC_LEN, PC_BODY, PC_SKIP, PC_SKIPVAR };

struct pfcut {
    struct pfcut_out *out;
    size_t nout;
    int scanning;
    int64_t last;               /* pfcut_set_last; INT64_MAX unknown */
    /* framing */
    enum pfcut_fstate fs;
    uint8_t vbuf[10];
    size_t vlen;
    uint32_t field;
    uint64_t want, offset, pkt_start;
    struct dynbuf pkt;
    z_stream z;
    int z_init;
    struct dynbuf infl;
    /* state */
    struct pfclk clk;
    struct pfcut_seq *seqs;
    size_t seqcap, nseqs;
    uint8_t *got;               /* pieces written to by the current packet */
    struct pfcut_track *tracks;
    size_t trackcap, ntracks;
    struct pfcut_frame *frames;     /* open frames of the frame timeline */
    size_t nframes;
    struct pfcut_counter *ctrs;     /* counters' last values */
    size_t ctrcap, nctrs;
    struct pfsort *prints;      /* atrace B/E, put in time order across CPUs */
    struct pfcut_want find;
    struct pfcut_procs procs;
    size_t saved;               /* bytes of saved begins */
    struct pfcut_span span;
    struct pfcut_hist hist;
    struct pfcut_cpu *cpus;
    /* scratch for re-encoding: a bundle, its compact sched's columns and
     * intern table, a slice's event, a packet */
    struct dynbuf a, b, c, d;
    struct dynbuf cols[11];
    const uint8_t **istr;
    size_t *ilen;
    size_t icap;
    enum st_err err;
    struct pfcut_stats st;
    char detail[320];
};

/* pfcut_out.c: errors, pieces, writing */
enum st_err pfcut_fail(struct pfcut *c, enum st_err e, const char *what);
/* An ftrace event's time (BOOTTIME, the ftrace clock) on the trace's
 * clock, as Perfetto places it; INT64_MIN when no snapshots relate the two
 * (Perfetto drops the event, and it is in no piece). */
int64_t pfcut_ftrace_time(struct pfcut *c, uint64_t raw);
/* The piece holding ts, or -1; *pos: the pieces starting at or before it. */
int pfcut_piece_of(const struct pfcut *c, int64_t ts, uint32_t *pos);
/* Is ts a piece's start?  An atrace print there is written after the
 * slices begun again at that start (pfcut_slices.c), not in its bundle. */
int pfcut_at_start(const struct pfcut *c, int64_t ts);
/* A packet's bytes to piece i (all pieces: i < 0). */
enum st_err pfcut_write(struct pfcut *c, int i, const uint8_t *p, size_t n);
enum st_err pfcut_flush(struct pfcut *c);
/* Copy the fields of a message except those `drop` says (a bitmap of
 * field numbers below 128; higher ones are kept). */
enum st_err pfcut_copy(struct dynbuf *to, const uint8_t *p, size_t n, const uint64_t drop[2]);
void pfcut_seen(struct pfcut *c, int64_t ts, size_t bytes);
struct pfcut_seq *pfcut_seq(struct pfcut *c, uint32_t id);
/* pfcut_slices.c: a track's slices around ts (in piece i, or -1). */
struct pfcut_track *pfcut_track(struct pfcut *c, uint64_t key);
/* What is followed across pieces (a track's slices, a frame) moving to ts:
 * each piece it crosses the end of is ended there (end) and the next
 * begun (begin); *pos pieces begun up to its last time, *closed the last
 * of them ended. */
struct pfcut_walk {
    uint32_t *pos;
    int *closed;
    enum st_err (*end)(struct pfcut *c, void *ctx, uint32_t piece);
    enum st_err (*begin)(struct pfcut *c, void *ctx, uint32_t piece);
    void *ctx;
};
enum st_err pfcut_walk(struct pfcut *c, struct pfcut_walk *w, int64_t ts);
enum st_err pfcut_advance(struct pfcut *c, struct pfcut_track *t, int64_t ts);
/* *piece: where the event goes; an end exactly at a piece's start goes
 * to the piece before (or none). */
enum st_err pfcut_track_event(struct pfcut *c, uint32_t seq, int64_t ts, int *piece,
                              const uint8_t *ev, size_t n);
/* A CPU's counter event (cpu_frequency 11, cpu_idle 13), to be read in
 * time order with the prints (pfcut_counter). */
enum st_err pfcut_cpu_counter(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid,
                              int64_t ts, uint32_t field, const uint8_t *p, size_t n);
/* An atrace print (B|..., E|...; in a cut, any print), to be read in time
 * order. */
enum st_err pfcut_print(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid, int64_t ts,
                        const uint8_t *buf, size_t n);
/* An ftrace event that begins or ends a slice of Perfetto's (irq,
 * softirq: a CPU's; workqueue: a thread's), in file order; field its
 * FtraceEvent field, p its message.  Others are ignored. */
enum st_err pfcut_pair(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid, int64_t ts,
                       uint32_t field, const uint8_t *p, size_t n);
enum st_err pfcut_slices_init(struct pfcut *c);
/* An end exactly at a piece's start ends what the piece before holds: the
 * piece the end goes to (or -1), and the time its track moves to. */
int pfcut_end_at_start(const struct pfcut *c, int64_t ts, int64_t *moved);
/* pfcut_frames.c: a FrameTimelineEvent at ts (*piece: where its packet
 * goes; an end at a piece's start goes to the piece before). */
enum st_err pfcut_frame(struct pfcut *c, uint32_t seq, int64_t ts, int *piece,
                        const uint8_t *p, size_t n);
enum st_err pfcut_frames_finish(struct pfcut *c);
void pfcut_frames_free(struct pfcut *c);
/* pfcut_counters.c: an ftrace event in time order that may set a counter
 * (field: its FtraceEvent field, p its message; a print, 3: its text);
 * its last value goes again to the start of each later piece. */
enum st_err pfcut_counter(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid, int64_t ts,
                          uint32_t field, const uint8_t *p, size_t n);
/* A packet of polled counters (data: its TracePacket field: sys_stats 7,
 * process_stats 9, battery 38; others are ignored) at ts. */
enum st_err pfcut_stats_packet(struct pfcut *c, uint32_t seq, uint32_t data, int64_t ts,
                               const uint8_t *p, size_t n);
enum st_err pfcut_counters_finish(struct pfcut *c);
void pfcut_counters_free(struct pfcut *c);
/* pfcut_out.c: a packet of our own at ts on the trace's clock, on sequence
 * seq, holding msg as its field (track event 11, frame timeline 76), to
 * piece. */
enum st_err pfcut_timed_packet(struct pfcut *c, int piece, uint32_t seq, int64_t ts,
                               uint32_t field, struct dynbuf *msg);
/* pfcut_out.c: an ftrace event in a bundle of its own (FtraceEventBundle
 * { cpu, event { timestamp, pid, FIELD { body } } }) on sequence seq, to
 * piece. */
enum st_err pfcut_ftrace_packet(struct pfcut *c, int piece, uint32_t cpu, uint32_t seq,
                                uint32_t tid, int64_t ts, uint32_t field, struct dynbuf *body);
/* A scan: the event names of interned data that are the slice looked for. */
void pfcut_want_interned(struct pfcut *c, struct pfcut_seq *s, const uint8_t *p, size_t n);
enum st_err pfcut_slices_finish(struct pfcut *c);
void pfcut_slices_free(struct pfcut *c);
/* pfcut_procs.c: --process */
void pfcut_procs_packet(struct pfcut *c, uint32_t seq, uint32_t num, const uint8_t *p, size_t n);
int pfcut_tid_kept(const struct pfcut *c, uint64_t tid);
int pfcut_track_kept(const struct pfcut *c, uint32_t seq, uint64_t uuid);
enum st_err pfcut_procs_stats(struct pfcut *c, const uint8_t *p, size_t n, struct dynbuf *out,
                              size_t *kept);
void pfcut_procs_free(struct pfcut *c);
/* pfcut_ftrace.c: bundles and logcat */
enum st_err pfcut_bundle(struct pfcut *c, uint32_t seq, const uint8_t *pkt, size_t pn,
                         const uint8_t *p,
                         size_t n);
enum st_err pfcut_log(struct pfcut *c, uint32_t seq, const uint8_t *pkt, size_t pn,
                      const uint8_t *p, size_t n);
/* A packet with its data replaced (field num, bytes; num 0: none) in
 * piece i, its time (when it has one) on the trace's clock. */
enum st_err pfcut_repacket(struct pfcut *c, int i, const uint8_t *pkt, size_t pn,
                           uint32_t num, const uint8_t *data, size_t dn, int64_t ts,
                           int timed);

#endif
