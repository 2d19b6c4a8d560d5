/*
 * A Perfetto trace's non-ftrace packets to trace-event JSON (pftev.h):
 * the packet's sequence state (incremental state cleared, interned data,
 * defaults), track, process and thread descriptors, then its track event
 * (pftev_track.c); and the count, by kind, of packets not converted.
 */
#include "pftev_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

struct pftev *pftev_new(st_write_fn write, void *ctx)
{
    struct pftev *v = calloc(1, sizeof(*v));
    if (!v)
        return NULL;
    v->write = write;
    v->wctx = ctx;
    dynbuf_init(&v->ev, PFTEV_EV_BYTES);
    pfclk_init(&v->clk);
    return v;
}

static void free_seqs(struct pftev *v)
{
    for (size_t i = 0; i < v->seqs.cap; i++)
        if (v->seqs.slots[i].val)
            pmap_free(&((struct pftev_seq *)v->seqs.slots[i].val)->interned);
    pmap_free(&v->seqs);
}

static void free_tracks(struct pftev *v)
{
    for (size_t i = 0; i < v->tracks.cap; i++) {
        struct pftev_track *t = v->tracks.slots[i].val;
        if (!t)
            continue;
        for (uint32_t d = 0; d < t->depth; d++) {
            free(t->stack[d].name);
            free(t->stack[d].cat);
        }
        free(t->stack);
        free(t->name);
    }
    pmap_free(&v->tracks);
}

void pftev_free(struct pftev *v)
{
    if (!v)
        return;
    free_seqs(v);
    free_tracks(v);
    pmap_free(&v->pnames);
    pmap_free(&v->tnames);
    pmap_free(&v->flows);
    pmap_free(&v->frames);
    pmap_free(&v->gpu_queues);
    pftev_samp_free(v->samp);
    pmap_free(&v->rails);
    pmap_free(&v->gpuc);
    dynbuf_free(&v->ev);
    pfclk_free(&v->clk);
    free(v);
}

const struct pftev_stats *pftev_stats(const struct pftev *v)
{
    return &v->st;
}

/* ---- descriptors -------------------------------------------------------- */

struct desc {
    int32_t pid, tid;
    int64_t ref_us;             /* reference_timestamp_us, 0: none */
    const uint8_t *name;
    size_t nlen;
};

/* ProcessDescriptor (pid 1, process_name 6) or ThreadDescriptor (pid 1,
 * tid 2, thread_name 5). */
static int read_desc(const uint8_t *p, size_t n, int thread, struct desc *d)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    memset(d, 0, sizeof(*d));
    d->pid = d->tid = -1;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            d->pid = (int32_t)f.v;
        else if (thread && f.num == 2 && f.wire == PB_VARINT)
            d->tid = (int32_t)f.v;
        else if (thread && f.num == 6 && f.wire == PB_VARINT)
            d->ref_us = (int64_t)f.v;
        else if (f.wire == PB_LEN && f.num == (thread ? 5u : 6u))
            d->name = f.p, d->nlen = f.len;
    }
    return k;
}

static enum st_err process_desc(struct pftev *v, const uint8_t *p, size_t n,
                                struct pftev_track *t)
{
    struct desc d;
    if (read_desc(p, n, 0, &d) || d.pid < 0) {
        v->st.dropped++;
        return ST_OK;
    }
    if (t) {
        t->kind = TK_PROCESS;
        t->pid = d.pid;
    }
    return pftev_name_process(v, d.pid, d.name, d.nlen);
}

static enum st_err thread_desc(struct pftev *v, const uint8_t *p, size_t n,
                               struct pftev_track *t, struct pftev_seq *s)
{
    struct desc d;
    if (read_desc(p, n, 1, &d) || d.pid < 0 || d.tid < 0) {
        v->st.dropped++;
        return ST_OK;
    }
    if (t) {
        t->kind = TK_THREAD;
        t->pid = d.pid;
        t->tid = d.tid;
    }
    if (s) {
        s->has_thread = 1;
        s->pid = d.pid;
        s->tid = d.tid;
        if (d.ref_us) {     /* the base of legacy delta timestamps */
            s->legacy_ts = (int64_t)((uint64_t)d.ref_us * 1000);
            s->legacy_valid = 1;
        }
    }
    return pftev_name_thread(v, d.pid, d.tid, d.name, d.nlen);
}

/* TrackDescriptor: uuid 1, name 2 / static_name 10 / atrace_name 13,
 * process 3, thread 4, parent_uuid 5, counter 8. */
static enum st_err track_desc(struct pftev *v, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t uuid = 0, parent = 0;
    const uint8_t *name = NULL, *proc = NULL, *thr = NULL;
    size_t nlen = 0, plen = 0, tlen = 0;
    int counter = 0, k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            uuid = f.v;
        else if (f.num == 5 && f.wire == PB_VARINT)
            parent = f.v;
        else if (f.wire != PB_LEN)
            continue;
        else if (f.num == 2 || f.num == 10 || f.num == 13)
            name = f.p, nlen = f.len;
        else if (f.num == 3)
            proc = f.p, plen = f.len;
        else if (f.num == 4)
            thr = f.p, tlen = f.len;
        else if (f.num == 8)
            counter = 1;
    }
    struct pftev_track *t = k ? NULL : pftev_track(v, uuid, 1);
    if (!t) {
        v->st.dropped++;
        return ST_OK;
    }
    t->parent = parent;
    if (!t->kind)
        t->kind = counter ? TK_COUNTER : TK_CUSTOM;
    if (name && (!t->name || strlen(t->name) != nlen || memcmp(t->name, name, nlen))) {
        free(t->name);
        t->name = pftev_strdup(name, nlen);
    }
    if (thr)
        return thread_desc(v, thr, tlen, t, NULL);
    return proc ? process_desc(v, proc, plen, t) : ST_OK;
}

/* ---- interned data and defaults ----------------------------------------- */

/* EventName, EventCategory, DebugAnnotationName, InternedGpuRenderStage-
 * Specification: iid 1, name 2. */
static enum st_err intern_one(struct pftev *v, struct pftev_seq *s, enum pftev_ikind kind,
                              const uint8_t *p, size_t n)
{
    uint64_t iid;
    const uint8_t *name;
    size_t len;
    if (pb_id_name(p, n, &iid, &name, &len)) {
        v->st.dropped++;
        return ST_OK;
    }
    return pftev_intern(v, s, kind, iid, name ? name : (const uint8_t *)"", len);
}

static enum st_err interned(struct pftev *v, struct pftev_seq *s, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.wire == PB_LEN && pftev_sample_interns(f.num))
            e = pftev_sample_intern(v, s, f.num, f.p, f.len);
        if (f.wire != PB_LEN || ((f.num < 1 || f.num > 3) && f.num != 24))
            continue;
        enum pftev_ikind kind = f.num == 1 ? PI_CAT : f.num == 2 ? PI_NAME
                              : f.num == 3 ? PI_ANNOT : PI_GPU;
        e = intern_one(v, s, kind, f.p, f.len);
    }
    return e;
}

/* TracePacketDefaults: timestamp_clock_id (58),
 * track_event_defaults (11).track_uuid (11). */
static void defaults(struct pftev_seq *s, const uint8_t *p, size_t n)
{
    if (pfclk_packet_defaults(p, n, &s->def_clock, &s->def_track))
        s->has_def = 1;
}

/* ---- packets ------------------------------------------------------------ */

int pftev_wants(uint32_t num)
{
    return num == 6 || num == 11 || num == 12 || num == 39 || num == 43 || num == 44 ||
           num == 59 || num == 60 || num == 53 || num == 76 || num == 54 || num == 66 ||
           pftev_counter_kind(num);
}

/* The packet's timestamp on the trace's clock (its own clock id, else
 * the sequence's default, else the snapshots'): 0, or -1 when it cannot be converted.  Only a
 * packet with a timestamp moves an incremental clock; a clock snapshot's
 * packet is not converted (Perfetto reads nothing else of it). */
static int packet_time(struct pftev *v, const struct pftev_pkt *k, struct pftev_seq *s,
                       const uint8_t *p, size_t n, uint64_t *ts)
{
    struct pb_iter it;
    struct pb_field f;
    uint32_t clock = s->def_clock;
    int has_ts = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 58 && f.wire == PB_VARINT && f.v)
            clock = (uint32_t)f.v;
        else if (f.num == 8 && f.wire == PB_VARINT)
            has_ts = 1;
        else if (f.num == 6 && f.wire == PB_LEN)
            return -1;
    }
    *ts = k->ts;
    if (!clock)     /* on the clock the snapshots named (pfclk.h), if any */
        clock = (uint32_t)v->clk.default_clock;
    if (!has_ts || !clock)
        return 0;
    int64_t ns;
    if (pfclk_convert(&v->clk, k->seq, clock, k->ts, &ns))
        return -1;
    *ts = ns < 0 ? 0 : (uint64_t)ns;
    return 0;
}

/* Sequence state first (clears, interned data, defaults), then the
 * packet's data, which may use it. */
enum st_err pftev_packet(struct pftev *v, const struct pftev_pkt *k, const uint8_t *p,
                         size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    struct pftev_seq *s = pftev_seq(v, k->seq);
    enum st_err e = s ? ST_OK : ST_ENOMEM;
    if (s && (k->cleared || (k->flags & 1)))
        pftev_seq_clear(v, s);
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.wire != PB_LEN)
            continue;
        if (f.num == 12)
            e = interned(v, s, f.p, f.len);
        else if (f.num == 59)
            defaults(s, f.p, f.len);
        else if (f.num == 6)
            pfclk_snapshot(&v->clk, k->seq, f.p, f.len);
    }
    uint64_t ts = 0;
    int timed = s && !packet_time(v, k, s, p, n, &ts);
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.wire != PB_LEN)
            continue;
        if (f.num == 60)
            e = track_desc(v, f.p, f.len);
        else if (f.num == 43)
            e = process_desc(v, f.p, f.len, NULL);
        else if (f.num == 44 && !(e = thread_desc(v, f.p, f.len, NULL, s)))
            pftev_sample_thread(s, f.p, f.len);
        else if (f.num == 39)
            e = pftev_android_log(v, k->seq, f.p, f.len);
        else if ((f.num == 11 || f.num == 76 || f.num == 53 || f.num == 54 || f.num == 66 ||
                  pftev_counter_kind(f.num)) && !timed)
            v->st.no_clock++;
        else if (f.num == 11)
            e = pftev_track_event(v, s, ts, f.p, f.len);
        else if (f.num == 76)
            e = pftev_frame(v, ts, f.p, f.len);
        else if (f.num == 53)
            e = pftev_gpu_stage(v, s, ts, f.p, f.len);
        else if (f.num == 54 || f.num == 66)
            e = pftev_sample(v, s, ts, f.num, f.p, f.len);
        else if (pftev_counter_kind(f.num))
            e = pftev_counters(v, f.num, ts, f.p, f.len);
    }
    return e ? e : v->err;
}

/* ---- what is not converted ---------------------------------------------- */

/* Packet kinds a user would look for, the ones converted taken out (the
 * table ends at the first empty entry; metadata such as clock snapshots,
 * configs and stats is not data, and not counted). */
static const struct {
    uint16_t num;
    const char *what;
} others[PFTEV_OTHERS] = {
    {5, "Chrome JSON event packets"}, {37, "heap profiles"},
    {54, "streaming profiles"},
    {57, "graphics frame events"}, {62, "Vulkan memory events"},
    {63, "GPU log packets"}, {65, "Vulkan API events"},
    {66, "perf samples"}, {71, "GPU memory totals"},
    {74, "streaming allocations"},
    {84, "statsd atoms"}, {91, "power entity residencies"},
    {135, "stack samples"}, {68, "smaps packets"},
    {73, "memory tracker snapshots"}, {129, "GPU frequency events"},
};

void pftev_other(struct pftev *v, uint32_t num)
{
    if (v->samp && (num == 54 || num == 66))
        return;                 /* converted: pftev_sample.c */
    for (size_t i = 0; i < PFTEV_OTHERS; i++)
        if (others[i].num == num)
            v->others[i]++;
}

const char *pftev_other_kind(const struct pftev *v, size_t i, uint64_t *count)
{
    if (i >= PFTEV_OTHERS)
        return NULL;
    *count = v->others[i];
    return others[i].what ? others[i].what : "";
}

void pftev_set_frames(struct pftev *v, pftev_frame_fn fn, void *ctx)
{
    v->frame_fn = fn;
    v->frame_ctx = ctx;
}

uint64_t pftev_others(const struct pftev *v)
{
    uint64_t n = 0;
    for (size_t i = 0; i < PFTEV_OTHERS; i++)
        n += v->others[i];
    return n;
}

static void add(char *buf, size_t n, uint64_t count, const char *what)
{
    size_t at = strlen(buf);
    if (count && at + 1 < n)
        snprintf(buf + at, n - at, "%s%llu %s", at ? "; " : "", (unsigned long long)count,
                 what);
}

void pftev_note(const struct pftev *v, char *buf, size_t n)
{
    if (!n)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < PFTEV_OTHERS && others[i].what; i++) {
        char what[64];
        if (!others[i].what)    /* a slot of a kind now converted */
            continue;
        snprintf(what, sizeof(what), "%s not shown", others[i].what);
        add(buf, n, v->others[i], what);
    }
    const struct pftev_stats *s = &v->st;
    add(buf, n, s->bad_iid, "track event names, categories or annotation names never "
                            "defined (kept unnamed)");
    add(buf, n, s->bad_track, "tracks used but never described (their events shown on "
                              "global tracks)");
    add(buf, n, s->no_track, "track events on no track (left out)");
    add(buf, n, s->unmatched_end, "slice ends without a begin (left out)");
    add(buf, n, s->wrong_track, "counter values on slice tracks or slices on counter "
                                "tracks (left out)");
    add(buf, n, s->bad_stack, "CPU samples whose callstack or frame was never defined "
                              "(left out)");
    add(buf, n, s->over_stack, "CPU samples past the bound on distinct stack frames "
                               "(left out)");
    add(buf, n, s->dropped, "track events or descriptors malformed or over a memory bound "
                            "(left out)");
    add(buf, n, s->no_clock, "events on a clock no clock snapshot relates to the trace's "
                             "(left out)");
    add(buf, n, s->bad_counter, "power rail or GPU counter samples of no described "
                                "counter (left out)");
    add(buf, n, s->sys_other, "sys stats parts (buddy info, disk, slab, gpufreq) or "
                              "interned GPU counter descriptors not shown");
    add(buf, n, v->clk.dropped, "clock snapshots malformed, going back or over a bound "
                                "(not used)");
}
