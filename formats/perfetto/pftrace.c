/*
 * The Perfetto trace reader (see pftrace.h): the file's framing, packets,
 * compressed packets, FtraceEventBundle and compact sched.  Records go to
 * the windowed sort; pfemit.c turns them into lines in timestamp order.
 */
#include "pftrace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

static enum st_err malformed(struct pftrace *t, const char *what)
{
    return pf_fail(t, ST_EFORMAT, "malformed Perfetto trace: %s in packet %llu (at byte %llu)",
                   what, (unsigned long long)t->st.packets,
                   (unsigned long long)t->pkt_start);
}

int pftrace_sniff(const unsigned char *p, size_t n)
{
    /* tag 0x0a (field 1, bytes), a length, then a packet's first tag */
    if (n < 3 || p[0] != 0x0a)
        return 0;
    const uint8_t *q = p + 1, *end = p + n;
    uint64_t len, tag;
    if (pb_varint(&q, end, &len) != 1 || len == 0 || len > PFTRACE_PACKET_MAX)
        return 0;
    if (pb_varint(&q, end, &tag) != 1)
        return 0;
    unsigned wire = (unsigned)(tag & 7);
    return (tag >> 3) != 0 && (wire == 0 || wire == 1 || wire == 2 || wire == 5);
}

struct pftrace *pftrace_new(void)
{
    struct pftrace *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    dynbuf_init(&t->pkt, PFTRACE_PACKET_MAX);
    dynbuf_init(&t->infl, PFTRACE_INFLATE_MAX);
    dynbuf_init(&t->out, PF_OUT_CHUNK + PF_LINE_MAX + 64);
    t->scan_names = pfnames_new();
    t->names = pfnames_new();
    t->cpu = calloc(PF_CPUS, sizeof(*t->cpu));
    t->sort = pfsort_new(0, 0, pfstage_push, t);
    t->ksym = pfksym_new();
    t->ev.ksym = pfksym_lookup;
    t->ev.ksym_arg = t->ksym;   /* pf_emit sets the scope (pfksym_use) */
    pfclk_init(&t->clk);
    if (!t->scan_names || !t->names || !t->cpu || !t->sort || !t->ksym) {
        pftrace_free(t);
        return NULL;
    }
    pfnames_thread(t->names, 0, "swapper", 7, PFN_FIXED);
    pfsort_set_eager(t->sort, PF_SORT_STEP);
    return t;
}

void pftrace_free(struct pftrace *t)
{
    if (!t)
        return;
    pfstage_free(t);    /* its thread formats what it holds: first */
    if (t->z_init)
        inflateEnd(&t->z);
    dynbuf_free(&t->pkt);
    dynbuf_free(&t->infl);
    dynbuf_free(&t->out);
    pfnames_free(t->scan_names);
    pfnames_free(t->names);
    pfsort_free(t->sort);
    pfksym_free(t->ksym);
    pfclk_free(&t->clk);
    pftev_free(t->tev);
    free(t->cpu);
    free(t->istr);
    free(t->ilen);
    free(t);
}

/* ---- FtraceEventBundle -------------------------------------------------- */

/* An error of the formatting thread, in its own words. */
static enum st_err stage_fail(struct pftrace *t, enum st_err e)
{
    return pf_fail(t, e, "%s", t->edetail[0] ? t->edetail : st_strerror(e));
}

static enum st_err push(struct pftrace *t, int64_t ts, const struct pfrec *r,
                        const void *body, size_t n)
{
    enum st_err e = pfsort_push(t->sort, ts, r, sizeof(*r), body, n);
    if (e && t->estage_failed)
        return stage_fail(t, e);
    if (e == ST_ETOOBIG)
        return malformed(t, "an ftrace event over 5 MB");
    return e ? pf_fail(t, e, "%s", t->detail[0] ? t->detail : st_strerror(e)) : ST_OK;
}

/* An ftrace event's time on the trace's clock, where Perfetto shows it
 * (pfclk.h; as recorded on a trace of boot time): 0, or -1 when no snapshot
 * relates boot time to the trace's clock (Perfetto leaves it out: counted). */
static int on_trace_clock(struct pftrace *t, uint64_t ts, int64_t *at)
{
    if (!pfclk_boot_to_trace(&t->clk, ts, at))
        return 0;
    t->st.unconverted++;
    return -1;
}

static enum st_err event(struct pftrace *t, uint32_t cpu, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    struct pfrec r = {.kind = PFR_EVENT, .cpu = cpu, .aux = t->ksym_scope};
    uint64_t ts = 0;
    const uint8_t *msg = NULL;
    size_t len = 0;
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            ts = f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            r.pid = (uint32_t)f.v;
        else if (f.num >= 3 && f.num != 5 && f.wire == PB_LEN) {
            r.id = f.num;
            msg = f.p;
            len = f.len;
        }
    }
    if (k)
        return malformed(t, "an ftrace event");
    if (!r.id) {
        t->st.unknown++;
        return ST_OK;
    }
    int64_t at;
    return on_trace_clock(t, ts, &at) ? ST_OK : push(t, at, &r, msg, len);
}

static enum st_err comm_of(struct pftrace *t, uint64_t idx, const uint8_t **p, size_t *n)
{
    if (idx >= t->icap || !t->istr[idx]) {
        char what[96];
        snprintf(what, sizeof(what), "compact sched intern index %llu past its table",
                 (unsigned long long)idx);
        return malformed(t, what);
    }
    *p = t->istr[idx];
    *n = t->ilen[idx];
    return ST_OK;
}

static enum st_err switches(struct pftrace *t, uint32_t cpu, struct pb_cols *c)
{
    uint64_t v[6], ts = 0;
    int r;
    while ((r = pb_cols_next(c, v)) == 1) {
        const uint8_t *comm = NULL;
        size_t cn = 0;
        ts += v[0];
        enum st_err e = comm_of(t, v[4], &comm, &cn);
        struct pfrec rec = {.kind = PFR_CSWITCH, .cpu = cpu, .pid = (uint32_t)v[2],
                            .prio = (int32_t)v[3], .state = (int64_t)v[1]};
        int64_t at;
        if (e || (!on_trace_clock(t, ts, &at) && (e = push(t, at, &rec, comm, cn))))
            return e;
    }
    return r ? malformed(t, "compact sched switch arrays") : ST_OK;
}

static enum st_err wakings(struct pftrace *t, uint32_t cpu, struct pb_cols *c)
{
    uint64_t v[6], ts = 0;
    int r;
    while ((r = pb_cols_next(c, v)) == 1) {
        const uint8_t *comm = NULL;
        size_t cn = 0;
        ts += v[0];
        enum st_err e = comm_of(t, v[4], &comm, &cn);
        struct pfrec rec = {.kind = PFR_CWAKING, .cpu = cpu, .pid = (uint32_t)v[1],
                            .prio = (int32_t)v[3], .aux = (uint32_t)v[2],
                            .id = (uint32_t)v[5]};
        int64_t at;
        if (e || (!on_trace_clock(t, ts, &at) && (e = push(t, at, &rec, comm, cn))))
            return e;
    }
    return r ? malformed(t, "compact sched waking arrays") : ST_OK;
}

static enum st_err intern(struct pftrace *t, size_t i, const uint8_t *p, size_t n)
{
    if (i >= PF_INTERN_MAX)
        return malformed(t, "a compact sched intern table over 65536 entries");
    if (i >= t->icap) {
        size_t cap = t->icap ? t->icap * 2 : 256;
        const uint8_t **s = realloc(t->istr, cap * sizeof(*s));
        if (s)
            t->istr = s;
        size_t *l = s ? realloc(t->ilen, cap * sizeof(*l)) : NULL;
        if (!l)
            return pf_fail(t, ST_ENOMEM, "out of memory");
        t->ilen = l;
        t->icap = cap;
    }
    t->istr[i] = p;
    t->ilen[i] = n;
    return ST_OK;
}

static enum st_err compact(struct pftrace *t, uint32_t cpu, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    /* switch: ts, prev_state, next_pid, next_prio, comm; waking: ts, pid,
     * target_cpu, prio, comm, flags */
    static const uint8_t sw[] = {1, 2, 3, 4, 6}, wk[] = {7, 8, 9, 10, 11, 12};
    struct pb_cols s = {.n = 5}, w = {.n = 6};
    size_t ni = 0;
    int k;
    enum st_err e = ST_OK;
    if (t->icap)
        memset(t->istr, 0, t->icap * sizeof(*t->istr));
    pb_iter_init(&it, p, n);
    while (!e && (k = pb_next(&it, &f)) == 1) {
        if (f.wire != PB_LEN)
            continue;
        if (f.num == 5) {
            e = intern(t, ni++, f.p, f.len);
            continue;
        }
        for (int i = 0; i < 6; i++) {
            if (i < 5 && f.num == sw[i]) {
                pb_packed_init(&s.c[i], &f);
                s.present |= 1 << i;
            }
            if (f.num == wk[i]) {
                pb_packed_init(&w.c[i], &f);
                w.present |= 1 << i;
            }
        }
    }
    if (e)
        return e;
    if (k)
        return malformed(t, "compact sched");
    /* without its comm column an event has no name: intern entry 0 is
     * not one (bit 4: next_comm_index, comm_index) */
    if ((s.present && !(s.present & 1 << 4)) || (w.present && !(w.present & 1 << 4)))
        return malformed(t, "compact sched without its comm column (no names for its "
                            "events)");
    if (s.present && (e = switches(t, cpu, &s)))
        return e;
    return w.present ? wakings(t, cpu, &w) : ST_OK;
}

static enum st_err bundle(struct pftrace *t, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t cpu = 0;
    const uint8_t *cs = NULL;
    size_t csn = 0;
    int k;
    t->bundles++;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            cpu = f.v;
        else if (f.num == 3 && f.wire == PB_VARINT && f.v)
            t->st.lost_bundles++;
        else if (f.num == 5 && f.wire == PB_VARINT && f.v)
            t->st.other_clock++;    /* not converted: see the note */
        else if (f.num == 4 && f.wire == PB_LEN) {
            cs = f.p;
            csn = f.len;
        }
    }
    if (k)
        return malformed(t, "an ftrace bundle");
    if (cpu >= PF_CPUS) {
        char what[64];
        snprintf(what, sizeof(what), "CPU number %llu", (unsigned long long)cpu);
        return malformed(t, what);
    }
    pb_iter_init(&it, p, n);
    enum st_err e = ST_OK;
    while (!e && pb_next(&it, &f) == 1)
        if (f.num == 2 && f.wire == PB_LEN)
            e = event(t, (uint32_t)cpu, f.p, f.len);
    return !e && cs ? compact(t, (uint32_t)cpu, cs, csn) : e;
}

/* ---- packets ------------------------------------------------------------ */

static enum st_err packet(struct pftrace *t, const uint8_t *p, size_t n, int depth);

static enum st_err inflated(struct pftrace *t)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    enum st_err e = ST_OK;
    pb_iter_init(&it, (const uint8_t *)t->infl.data, t->infl.len);
    while (!e && (k = pb_next(&it, &f)) == 1)
        if (f.num == 1 && f.wire == PB_LEN)
            e = packet(t, f.p, f.len, 1);
    return e ? e : k ? malformed(t, "compressed packets (what they inflate to)") : ST_OK;
}

static enum st_err compressed(struct pftrace *t, const uint8_t *p, size_t n, int depth)
{
    if (depth)
        return malformed(t, "compressed packets inside compressed packets");
    if (!t->z_init) {
        memset(&t->z, 0, sizeof(t->z));
        if (inflateInit(&t->z) != Z_OK)
            return pf_fail(t, ST_ENOMEM, "out of memory");
        t->z_init = 1;
    } else
        inflateReset(&t->z);
    dynbuf_reset(&t->infl);
    t->z.next_in = (unsigned char *)p;
    t->z.avail_in = (uInt)n;
    unsigned char buf[16384];
    int r;
    do {
        t->z.next_out = buf;
        t->z.avail_out = sizeof(buf);
        r = inflate(&t->z, Z_NO_FLUSH);
        if (r != Z_OK && r != Z_STREAM_END)
            return malformed(t, r == Z_BUF_ERROR ? "compressed packets cut short"
                                                 : "corrupt compressed packets");
        if (dynbuf_add(&t->infl, buf, sizeof(buf) - t->z.avail_out))
            return malformed(t, "compressed packets inflating past 16 MB");
    } while (r != Z_STREAM_END);
    return inflated(t);
}

/* Packets of data sources other than ftrace, for the message about a
 * trace with nothing converted. */
static const struct {
    uint8_t kind;
    uint16_t num;
} kinds_of[] = {
    {0, 11}, {0, 5}, {1, 52}, {1, 53}, {1, 57}, {1, 71}, {2, 37}, {2, 54}, {2, 56},
    {2, 66}, {2, 74}, {3, 39}, {4, 7}, {4, 38}, {4, 40}, {4, 84}, {4, 91},
};

static void count_kind(struct pftrace *t, uint32_t num)
{
    for (size_t i = 0; i < sizeof(kinds_of) / sizeof(*kinds_of); i++)
        if (kinds_of[i].num == num)
            t->kinds[kinds_of[i].kind]++;
}

static void other(struct pftrace *t, uint32_t num)
{
    count_kind(t, num);
    if (t->tev && !t->scanning)
        pftev_other(t->tev, num);
}

struct pf_pkt {
    uint64_t ts, seq, flags, cleared;
    int tev;                    /* fields for pftev */
    const uint8_t *bundle, *tree, *sys, *comp, *interned, *snap;
    size_t bn, tn, sn, cn, in, snn;
};

/* Sequence flags (bit 0: SEQ_INCREMENTAL_STATE_CLEARED) clear interned
 * state whatever the packet holds. */
static enum st_err events(struct pftrace *t, const struct pf_pkt *k, const uint8_t *p,
                          size_t n);

static enum st_err packet(struct pftrace *t, const uint8_t *p, size_t n, int depth)
{
    struct pb_iter it;
    struct pb_field f;
    struct pf_pkt k = {0};
    int r;
    t->st.packets++;
    pb_iter_init(&it, p, n);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 8 && f.wire == PB_VARINT)
            k.ts = f.v;
        else if (f.num == 10 && f.wire == PB_VARINT)
            k.seq = f.v;
        else if (f.num == 13 && f.wire == PB_VARINT)
            k.flags = f.v;
        else if (f.num == 41 && f.wire == PB_VARINT)
            k.cleared = f.v;
        k.tev |= pftev_wants(f.num);
        if (f.wire != PB_LEN)
            continue;
        if (f.num == 1)
            k.bundle = f.p, k.bn = f.len;
        else if (f.num == 2)
            k.tree = f.p, k.tn = f.len;
        else if (f.num == 45)
            k.sys = f.p, k.sn = f.len;
        else if (f.num == 50)
            k.comp = f.p, k.cn = f.len;
        else if (f.num == 12)
            k.interned = f.p, k.in = f.len;
        else if (f.num == 6)
            k.snap = f.p, k.snn = f.len;
        else
            other(t, f.num);
    }
    if (r)
        return malformed(t, "a packet");
    enum st_err e = ST_OK;
    /* what the formatting thread reads changes: it waits for the change */
    if (k.sys && (t->scanning || !t->scanned) && (e = pfstage_drain(t)))
        return stage_fail(t, e);
    if (k.sys && (t->scanning || !t->scanned))
        pf_uname(t, k.sys, k.sn);
    if (k.snap && !t->scanning)     /* in file order, as Perfetto converts */
        pfclk_snapshot(&t->clk, (uint32_t)k.seq, k.snap, k.snn);
    if (!t->scanning)
        t->ksym_scope = pfksym_scope(t->ksym, (uint32_t)k.seq, k.cleared || (k.flags & 1));
    if (k.interned && !t->scanning && pfksym_has_symbols(k.interned, k.in) &&
        (e = pfstage_drain(t)))
        return stage_fail(t, e);
    if (k.interned && !t->scanning &&
        pfksym_interned(t->ksym, t->ksym_scope, k.interned, k.in))
        return malformed(t, "interned data");
    if (k.tree && t->scanning && pfnames_tree(t->scan_names, k.tree, k.tn))
        return malformed(t, "a process tree");
    if (k.tree && !t->scanning) {
        struct pfrec rec = {.kind = PFR_TREE};
        e = push(t, (int64_t)k.ts, &rec, k.tree, k.tn);
    }
    if (!e && k.bundle && !t->scanning)
        e = bundle(t, k.bundle, k.bn);
    if (!e && k.bundle && t->scanning)
        e = pf_scan_bundle(t, k.bundle, k.bn);
    if (!e && t->tev && !t->scanning && (k.tev || k.cleared || (k.flags & 1)))
        e = events(t, &k, p, n);
    if (!e && k.comp)
        e = compressed(t, k.comp, k.cn, depth);
    return e;
}

static enum st_err events(struct pftrace *t, const struct pf_pkt *k, const uint8_t *p,
                          size_t n)
{
    struct pftev_pkt tk = {.ts = k->ts, .flags = k->flags, .cleared = k->cleared,
                           .seq = (uint32_t)k->seq};
    enum st_err e = pfstage_push_tev(t, &tk, p, n);
    return e ? stage_fail(t, e) : ST_OK;
}

/* ---- framing ------------------------------------------------------------ */

/* A whole varint of the top level has arrived in vbuf. */
static enum st_err top_varint(struct pftrace *t, uint64_t v)
{
    switch (t->fs) {
    case PF_TAG: {
        unsigned wire = (unsigned)(v & 7);
        t->field = (uint32_t)(v >> 3);
        if (!t->field || v >> 32 || (wire != 0 && wire != 1 && wire != 2 && wire != 5))
            return pf_fail(t, ST_EFORMAT, "not a Perfetto trace (or a corrupt one): no "
                           "packet starts at byte %llu", (unsigned long long)t->pkt_start);
        t->fs = wire == 2 ? PF_LEN : wire == 0 ? PF_SKIPVAR : PF_SKIP;
        t->want = wire == 1 ? 8 : 4;
        return ST_OK;
    }
    case PF_LEN:
        t->want = v;
        if (t->field == 1 && v > PFTRACE_PACKET_MAX && !t->scanning)
            t->st.big_skipped++;    /* once per file, not per pass */
        t->fs = t->field == 1 && v <= PFTRACE_PACKET_MAX ? PF_BODY : PF_SKIP;
        dynbuf_reset(&t->pkt);
        if (!v && t->fs == PF_BODY)
            return packet(t, (const uint8_t *)"", 0, 0);
        return ST_OK;
    default:
        t->fs = PF_TAG;
        return ST_OK;
    }
}

/* An error is sticky: the state it left (a full vbuf, a packet half
 * copied) is not one to go on from, so a caller that feeds on after it
 * gets the same error and nothing is read. */
static enum st_err frame(struct pftrace *t, const uint8_t *p, size_t n)
{
    enum st_err e = t->err;
    while (n && !e) {
        if (t->fs == PF_TAG || t->fs == PF_LEN || t->fs == PF_SKIPVAR) {
            if (t->fs == PF_TAG && !t->vlen)
                t->pkt_start = t->offset;
            t->vbuf[t->vlen++] = *p++;
            n--;
            t->offset++;
            if (t->vbuf[t->vlen - 1] & 0x80) {
                if (t->vlen >= sizeof(t->vbuf))
                    e = pf_fail(t, ST_EFORMAT, "malformed Perfetto trace: a varint longer "
                                "than 10 bytes at byte %llu", (unsigned long long)t->offset);
                continue;
            }
            uint64_t v;
            const uint8_t *q = t->vbuf;
            pb_varint(&q, t->vbuf + t->vlen, &v);
            t->vlen = 0;
            e = top_varint(t, v);
            if ((t->fs == PF_BODY || t->fs == PF_SKIP) && !t->want)
                t->fs = PF_TAG;
            continue;
        }
        size_t take = n < t->want ? n : (size_t)t->want;
        const uint8_t *chunk = p;
        p += take;
        n -= take;
        t->offset += take;
        t->want -= take;
        if (t->fs == PF_BODY && !t->want && !t->pkt.len)
            e = packet(t, chunk, take, 0);      /* whole in this chunk: no copy */
        else if (t->fs == PF_BODY && !(e = dynbuf_add(&t->pkt, chunk, take)) && !t->want)
            e = packet(t, (const uint8_t *)t->pkt.data, t->pkt.len, 0);
        if (!t->want)
            t->fs = PF_TAG;
    }
    t->err = e;
    return e;
}

static void begin_pass(struct pftrace *t, int scanning)
{
    t->scanning = scanning;
    t->err = ST_OK;
    t->fs = PF_TAG;
    t->vlen = 0;
    t->offset = 0;
    t->st.packets = 0;
    memset(t->kinds, 0, sizeof(t->kinds));
    t->bundles = 0;
}

enum st_err pftrace_scan_feed(struct pftrace *t, const void *p, size_t n)
{
    if (!t->scanning && !t->offset)
        begin_pass(t, 1);
    return frame(t, p, n);
}

enum st_err pftrace_scan_finish(struct pftrace *t)
{
    /* a cut or junk is reported by the converting pass */
    t->detail[0] = '\0';
    t->scanned = 1;
    begin_pass(t, 0);
    return ST_OK;
}

void pftrace_set_output(struct pftrace *t, st_write_fn write, void *ctx)
{
    t->write = write;
    t->wctx = ctx;
}

enum st_err pftrace_set_events(struct pftrace *t, st_write_fn write, void *ctx)
{
    pftev_free(t->tev);
    t->tev = pftev_new(write, ctx);
    return t->tev ? ST_OK : ST_ENOMEM;
}

void pftrace_set_frames(struct pftrace *t, pftev_frame_fn fn, void *ctx)
{
    if (t->tev)
        pftev_set_frames(t->tev, fn, ctx);
}

enum st_err pftrace_set_samples(struct pftrace *t, st_write_fn frames, st_write_fn samples,
                                void *ctx)
{
    return t->tev ? pftev_set_samples(t->tev, frames, samples, ctx) : ST_EINVAL;
}

const struct pftev *pftrace_events(const struct pftrace *t)
{
    return t->tev;
}

enum st_err pftrace_feed(struct pftrace *t, const void *p, size_t n)
{
    if (t->scanning)
        begin_pass(t, 0);
    return frame(t, p, n);
}

static enum st_err no_ftrace(struct pftrace *t)
{
    static const char *const names[] = {"track events", "GPU events", "profiles/samples",
                                        "Android log packets", "counter packets"};
    char holds[200] = "";
    size_t at = 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        if (!t->kinds[i] || at >= sizeof(holds))
            continue;
        int w = snprintf(holds + at, sizeof(holds) - at, "%s%llu %s", at ? ", " : "",
                         (unsigned long long)t->kinds[i], names[i]);
        at += w > 0 ? (size_t)w : 0;
    }
    if (!at)
        snprintf(holds, sizeof(holds), "%llu packets of other data",
                 (unsigned long long)t->st.packets);
    char why[200] = "";
    if (t->tev)     /* what of it could not be shown */
        pftev_note(t->tev, why, sizeof(why));
    return pf_fail(t, ST_ENOTRACE, "a Perfetto trace with nothing systrace shows (it holds "
                   "%s%s%s%s): open it in Perfetto UI, https://ui.perfetto.dev", holds,
                   t->bundles ? ", and ftrace bundles with no events in them" : "",
                   why[0] ? "; " : "", why);
}

enum st_err pftrace_finish(struct pftrace *t)
{
    int cut = t->fs != PF_TAG || t->vlen;
    enum st_err e = pfsort_finish(t->sort), es = pfstage_finish(t);
    if (!e)
        e = es;
    if (e && t->estage_failed)
        e = stage_fail(t, e);
    if (!e)
        e = pf_flush_out(t);
    enum st_err te = !e && t->tev ? pftev_finish(t->tev) : ST_OK;
    if (te)
        e = pf_fail(t, te, "writing the trace events: %s", st_strerror(te));
    t->st.late = pfsort_late(t->sort);
    if (e)
        return e;
    if (cut)
        return pf_fail(t, ST_ETRUNCATED, "the trace is cut short inside packet %llu (at byte "
                       "%llu of the data): kept the %llu complete packets before it",
                       (unsigned long long)t->st.packets + 1,
                       (unsigned long long)t->pkt_start, (unsigned long long)t->st.packets);
    if (!t->st.lines && (!t->tev || !pftev_stats(t->tev)->events))
        return no_ftrace(t);
    return ST_OK;
}

/* A scan (finished or still fed) names the dump; else the conversion. */
static const struct pfnames *dump_names(const struct pftrace *t)
{
    return t->scanned || t->scanning ? t->scan_names : t->names;
}

enum st_err pftrace_process_dump(const struct pftrace *t, st_write_fn write, void *ctx)
{
    return pfnames_dump(dump_names(t), write, ctx);
}

size_t pftrace_processes(const struct pftrace *t)
{
    return pfnames_processes(dump_names(t));
}

const struct pftrace_stats *pftrace_stats(const struct pftrace *t)
{
    return &t->st;
}

const char *pftrace_detail(const struct pftrace *t)
{
    return t->detail;
}
