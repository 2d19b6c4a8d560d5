/*
 * Internals of the trace-event writer for Perfetto's non-ftrace data
 * (pftev.h), from the top down: pftev.c (packets, descriptors, interned
 * data, the note), pftev_track.c (track events), pftev_state.c (maps,
 * sequences, tracks and the JSON text, below both).  Not a public header.
 */
#ifndef SYSTRACE_PFTEV_INT_H
#define SYSTRACE_PFTEV_INT_H

#include "lib/dynbuf.h"
#include "lib/printf.h"
#include "pfclk.h"
#include "pftev.h"

#define PFTEV_OTHERS 24                 /* kinds of packets counted */

/* A map from 64-bit keys to non-NULL pointers (open addressing, no
 * removal: a map is dropped whole). */
struct pftev_slot {
    uint64_t key;
    void *val;
};
struct pftev_map {
    struct pftev_slot *slots;
    size_t cap, count;
};
void *pmap_get(const struct pftev_map *m, uint64_t key);
enum st_err pmap_put(struct pftev_map *m, uint64_t key, void *val);
void pmap_free(struct pftev_map *m);    /* frees the values too */
void pmap_del(struct pftev_map *m, uint64_t key);      /* frees the value */

/* Interned kinds, the top byte of an interned key. */
enum pftev_ikind { PI_NAME = 1, PI_CAT, PI_ANNOT, PI_GPU,
                   PI_FUNC, PI_FRAME, PI_STACK, PI_MAPPATH, PI_MAP };   /* pftev_sample.c */

struct pftev_seq {
    uint64_t def_track;
    int has_def;
    uint32_t def_clock;         /* TracePacketDefaults.timestamp_clock_id, 0: none */
    int64_t legacy_ts;          /* track events' timestamp_delta_us base, ns */
    int legacy_valid;           /* a ThreadDescriptor gave legacy_ts */
    int has_thread;             /* a ThreadDescriptor packet on the sequence */
    int32_t pid, tid;
    int64_t profile_us;         /* streaming profile time (pftev_sample.c) */
    struct pftev_map interned;  /* (kind << 56 | iid) -> NUL-ended string */
};

enum pftev_tkind { TK_THREAD = 1, TK_PROCESS, TK_CUSTOM, TK_COUNTER };

struct pftev_open {
    char *name, *cat;
};

struct pftev_track {
    uint64_t uuid, parent;
    uint8_t kind;
    int32_t pid, tid;
    char *name;
    struct pftev_open *stack;
    uint32_t depth, cap, excess;
};

struct pftev {
    st_write_fn write;
    void *wctx;
    enum st_err err;            /* sticky: the output failed */
    struct pftev_map seqs, tracks;
    struct pftev_map pnames, tnames;    /* names written: pid / tid -> string */
    struct pftev_map flows;     /* flow ids begun */
    struct pftev_map frames;    /* frame timeline: open frames by cookie */
    struct pftev_map gpu_queues;        /* GPU queue (gpu, name) -> its tid */
    struct pftev_map rails;     /* power rail index + 1 -> counter name */
    struct pftev_map gpuc;      /* GPU counter id -> its name and last time */
    size_t ibytes;              /* interned bytes held */
    struct dynbuf ev;
    int ev_bad;
    uint64_t others[PFTEV_OTHERS];
    struct pftev_stats st;
    pftev_frame_fn frame_fn;    /* pftev_set_frames */
    void *frame_ctx;
    struct pftev_samp *samp;    /* CPU samples' outputs and frames, if asked */
    struct pfclk clk;
};

/* pftev_state.c: sequences and tracks (created on first use; NULL past
 * a bound), interned strings (NULL: never defined). */
struct pftev_seq *pftev_seq(struct pftev *v, uint32_t id);
void pftev_seq_clear(struct pftev *v, struct pftev_seq *s);
enum st_err pftev_intern(struct pftev *v, struct pftev_seq *s, enum pftev_ikind k,
                         uint64_t iid, const uint8_t *p, size_t n);
const char *pftev_interned(const struct pftev_seq *s, enum pftev_ikind k, uint64_t iid);
struct pftev_track *pftev_track(struct pftev *v, uint64_t uuid, int create);
/* The process a track belongs to (its own, a parent's), -1 for none. */
int32_t pftev_track_pid(struct pftev *v, const struct pftev_track *t);
char *pftev_strdup(const uint8_t *p, size_t n);

/* The event being composed: ev_start, then pieces, then ev_emit (a piece
 * that did not fit drops the event, counted in stats.dropped). */
void ev_start(struct pftev *v, char ph);
void ev_add(struct pftev *v, const char *s);
void ev_addf(struct pftev *v, const char *fmt, ...) ST_PRINTF(2, 3);
void ev_str(struct pftev *v, const char *p, size_t n);    /* a JSON string */
void ev_ts(struct pftev *v, uint64_t ns);                  /* ,"ts":µs */
void ev_int(struct pftev *v, int64_t n);
void ev_uint(struct pftev *v, uint64_t n);
void ev_hexid(struct pftev *v, uint64_t n);                /* "0x..." */
void ev_pidtid(struct pftev *v, int64_t pid, int64_t tid); /* ,"pid":P,"tid":T */
enum st_err ev_emit(struct pftev *v);
/* M process_name / thread_name once per name change. */
enum st_err pftev_name_process(struct pftev *v, int32_t pid, const uint8_t *p, size_t n);
enum st_err pftev_name_thread(struct pftev *v, int32_t pid, int32_t tid, const uint8_t *p,
                              size_t n);

/* pftev_frame.c: one FrameTimelineEvent. */
enum st_err pftev_frame(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n);

/* pftev_gpu.c: one GpuRenderStageEvent. */
enum st_err pftev_gpu_stage(struct pftev *v, struct pftev_seq *s, uint64_t ts,
                            const uint8_t *p, size_t n);

/* pftev_sample.c: CPU samples (PerfSample 66, StreamingProfilePacket
 * 54) and their interned data (InternedData fields it wants). */
enum st_err pftev_sample(struct pftev *v, struct pftev_seq *s, uint64_t ts, uint32_t num,
                         const uint8_t *p, size_t n);
int pftev_sample_interns(uint32_t num);
enum st_err pftev_sample_intern(struct pftev *v, struct pftev_seq *s, uint32_t num,
                                const uint8_t *p, size_t n);
void pftev_sample_thread(struct pftev_seq *s, const uint8_t *p, size_t n);
void pftev_samp_free(struct pftev_samp *m);

/* pftev_track.c: one TrackEvent. */
enum st_err pftev_track_event(struct pftev *v, struct pftev_seq *s, uint64_t ts,
                              const uint8_t *p, size_t n);

/* pftev_counters.c: counter packets (process and sys stats, battery,
 * power rails, GPU counters), by TracePacket field number. */
int pftev_counter_kind(uint32_t num);
enum st_err pftev_counters(struct pftev *v, uint32_t num, uint64_t ts, const uint8_t *p,
                           size_t n);
/* pftev_sysnames.c: Perfetto's name of a meminfo (0) or vmstat (1) key. */
const char *pftev_sysname(int vmstat, uint64_t key);

/* pftev_log.c: an AndroidLogPacket. */
enum st_err pftev_android_log(struct pftev *v, uint32_t seq, const uint8_t *p, size_t n);

/* A timestamp of the sequence's clock id (0: the trace's) on the trace's
 * clock: 0, or -1 (counted in stats.no_clock) when no snapshot leads there. */
int pftev_time(struct pftev *v, uint32_t seq, uint32_t clock, uint64_t ts, uint64_t *out);

#endif
