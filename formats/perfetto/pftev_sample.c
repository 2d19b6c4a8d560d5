/*
 * CPU samples of a Perfetto trace (pftev.h) in the form the classic
 * viewer shows: a top-level "stackFrames" object (id -> {name, category,
 * parent}) and a "samples" array ({cpu, tid, ts, name, sf, weight}),
 * written to two streams of their own (pftev_set_samples): the caller puts
 * them after the traceEvents array.
 *   PerfSample (66, linux.perf): one sample at the packet's time on its
 *     cpu, pid and tid; records-lost, skipped and producer-event packets
 *     are no samples (as Perfetto's perf_sample table has them);
 *   StreamingProfilePacket (54, callstack sampling): samples of the
 *     sequence's thread (ThreadDescriptor), at reference_timestamp_us plus
 *     the running sum of timestamp_delta_us (Perfetto's
 *     cpu_profile_stack_sample).
 * Interned data (per sequence, cleared with it): function_names (5),
 * frames (6), callstacks (7, bottom frame first), mapping_paths (17),
 * mappings (19), kept as short decimal text in the sequence's interned
 * strings.  A frame is named by its function, else by its mapping's file
 * and offset; its category is the mapping's path (the viewer's colour).
 * Frames are shared by stack: one stackFrames entry per (parent, name,
 * category), at most PFTEV_STACK_NODES_MAX of them (PFTEV_STACK_BYTES of
 * names); a sample past that bound is counted as dropped.  The viewer
 * needs a thread for each sample: a thread_sort_index M event creates it.
 */
#include "pftev_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

struct snode {
    uint64_t id, parent;
    char text[];                /* name, NUL, category, NUL */
};

struct pftev_samp {
    st_write_fn frames, samples;
    void *ctx;
    struct pftev_map nodes;     /* hash of (parent, name, category) -> snode */
    struct pftev_map threads;   /* (pid, tid) whose thread was created */
    size_t bytes;
    uint64_t next_id;
};

enum st_err pftev_set_samples(struct pftev *v, st_write_fn frames, st_write_fn samples,
                              void *ctx)
{
    pftev_samp_free(v->samp);
    v->samp = calloc(1, sizeof(*v->samp));
    if (!v->samp)
        return ST_ENOMEM;
    v->samp->frames = frames;
    v->samp->samples = samples;
    v->samp->ctx = ctx;
    return ST_OK;
}

void pftev_samp_free(struct pftev_samp *m)
{
    if (!m)
        return;
    pmap_free(&m->nodes);
    pmap_free(&m->threads);
    free(m);
}

/* ---- interned data ------------------------------------------------------ */

int pftev_sample_interns(uint32_t num)
{
    return num == 5 || num == 6 || num == 7 || num == 17 || num == 19;
}

/* Appends " N" for a varint, or each varint of a packed run (a field of
 * another wire type adds none). */
static void add_ids(struct dynbuf *b, const struct pb_field *f)
{
    char num[24];
    if (f->wire == PB_VARINT) {
        snprintf(num, sizeof(num), " %llu", (unsigned long long)f->v);
        dynbuf_add(b, num, strlen(num));
        return;
    }
    if (f->wire != PB_LEN)
        return;     /* a fixed-width field: no id */
    struct pb_packed pk;
    struct pb_field g = {.wire = PB_VARINT};
    pb_packed_init(&pk, f);
    while (pb_packed_next(&pk, &g.v) == 1)
        add_ids(b, &g);
}

/* iid 1, then: InternedString str 2; Frame function_name_id 2,
 * mapping_id 3, rel_pc 4 ("fn map pc"); Callstack frame_ids 2 and
 * Mapping path_string_ids 7 (" id id ..."). */
enum st_err pftev_sample_intern(struct pftev *v, struct pftev_seq *s, uint32_t num,
                                const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t iid = 0, fr[3] = {0, 0, 0};
    const uint8_t *str = NULL;
    size_t slen = 0;
    struct dynbuf ids;
    int k;
    dynbuf_init(&ids, 1 << 20);
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            iid = f.v;
        else if ((num == 5 || num == 17) && f.num == 2 && f.wire == PB_LEN)
            str = f.p, slen = f.len;
        else if (num == 6 && f.num >= 2 && f.num <= 4 && f.wire == PB_VARINT)
            fr[f.num - 2] = f.v;
        else if ((num == 7 && f.num == 2) || (num == 19 && f.num == 7))
            add_ids(&ids, &f);
    }
    enum st_err e = ST_OK;
    char text[80];
    if (k) {
        v->st.dropped++;
    } else if (num == 5 || num == 17) {
        e = pftev_intern(v, s, num == 5 ? PI_FUNC : PI_MAPPATH, iid,
                         str ? str : (const uint8_t *)"", slen);
    } else if (num == 6) {
        snprintf(text, sizeof(text), "%llu %llu %llu", (unsigned long long)fr[0],
                 (unsigned long long)fr[1], (unsigned long long)fr[2]);
        e = pftev_intern(v, s, PI_FRAME, iid, (const uint8_t *)text, strlen(text));
    } else {
        e = pftev_intern(v, s, num == 7 ? PI_STACK : PI_MAP, iid,
                         (const uint8_t *)(ids.data ? ids.data : ""), ids.len);
    }
    dynbuf_free(&ids);
    return e;
}

/* ---- stack frames ------------------------------------------------------- */

/* The next number of a " id id" text, advancing *at; 0 at the end. */
static int next_id(const char **at, uint64_t *id)
{
    const char *p = *at;
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return 0;
    char *end;
    *id = strtoull(p, &end, 10);
    *at = end;
    return 1;
}

/* A mapping's path: "/" before each component. */
static void mapping_path(const struct pftev_seq *s, uint64_t map, struct dynbuf *out)
{
    const char *ids = map ? pftev_interned(s, PI_MAP, map) : NULL;
    uint64_t id;
    while (ids && next_id(&ids, &id)) {
        const char *part = pftev_interned(s, PI_MAPPATH, id);
        if (part && *part) {
            if (out->len || part[0] != '/')
                dynbuf_add(out, "/", 1);
            dynbuf_add(out, part, strlen(part));
        }
    }
}

static const char *last_slash(const char *p, size_t n)
{
    while (n--)
        if (p[n] == '/')
            return p + n;
    return NULL;
}

/* A frame's name and category, NUL-separated in out; 0 if never defined. */
static int frame_text(const struct pftev_seq *s, uint64_t iid, struct dynbuf *out)
{
    const char *fr = pftev_interned(s, PI_FRAME, iid);
    uint64_t fn = 0, map = 0, pc = 0;
    if (!fr || !next_id(&fr, &fn) || !next_id(&fr, &map) || !next_id(&fr, &pc))
        return 0;
    struct dynbuf path;
    dynbuf_init(&path, 1 << 16);
    mapping_path(s, map, &path);
    const char *name = fn ? pftev_interned(s, PI_FUNC, fn) : NULL;
    dynbuf_reset(out);
    if (name && *name) {
        dynbuf_add(out, name, strlen(name));
    } else {
        const char *base = last_slash(path.data, path.len);
        char pcs[24];
        if (base)
            dynbuf_add(out, base + 1, path.len - (size_t)(base + 1 - path.data));
        snprintf(pcs, sizeof(pcs), "%s0x%llx", base ? "+" : "", (unsigned long long)pc);
        dynbuf_add(out, pcs, strlen(pcs));
    }
    dynbuf_add(out, "", 1);
    if (path.len)
        dynbuf_add(out, path.data, path.len);
    dynbuf_add(out, "", 1);
    dynbuf_free(&path);
    return 1;
}

static uint64_t text_hash(uint64_t parent, const char *t, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ parent;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)t[i]) * 0x100000001b3ULL;
    return h;
}

/* One stackFrames member, composed in the event buffer. */
static enum st_err write_node(struct pftev *v, const struct snode *nd)
{
    struct pftev_samp *m = v->samp;
    const char *name = nd->text, *cat = name + strlen(name) + 1;
    dynbuf_reset(&v->ev);
    v->ev_bad = 0;
    ev_addf(v, "%s\"%llu\":{\"name\":", v->st.stack_frames ? ",\n" : "\n",
            (unsigned long long)nd->id);
    ev_str(v, name, strlen(name));
    if (*cat) {
        ev_add(v, ",\"category\":");
        ev_str(v, cat, strlen(cat));
    }
    if (nd->parent)
        ev_addf(v, ",\"parent\":\"%llu\"", (unsigned long long)nd->parent);
    ev_add(v, "}");
    if (v->ev_bad)      /* cannot be: names are shorter than the buffer */
        return ST_ENOMEM;
    v->st.stack_frames++;
    return m->frames(m->ctx, v->ev.data, v->ev.len);
}

/* The stackFrames id of (parent, text), written on first use; 0 past the
 * bound. */
static uint64_t node_id(struct pftev *v, uint64_t parent, const char *t, size_t n,
                        enum st_err *e)
{
    struct pftev_samp *m = v->samp;
    uint64_t key = text_hash(parent, t, n);
    for (;; key++) {
        const struct snode *nd = pmap_get(&m->nodes, key);
        if (!nd)
            break;
        if (nd->parent == parent && !memcmp(nd->text, t, n))
            return nd->id;
    }
    if (m->nodes.count >= PFTEV_STACK_NODES_MAX || n > PFTEV_STACK_BYTES - m->bytes)
        return 0;
    struct snode *nd = malloc(sizeof(*nd) + n);
    if (!nd || pmap_put(&m->nodes, key, nd)) {
        free(nd);
        *e = ST_ENOMEM;
        return 0;
    }
    m->bytes += sizeof(*nd) + n;
    nd->id = ++m->next_id;
    nd->parent = parent;
    memcpy(nd->text, t, n);
    *e = write_node(v, nd);
    return nd->id;
}

/* The leaf frame's id of a callstack (none: one frame "(no stack)", as
 * the viewer needs a frame); 0 with *bad set if the stack or a frame was
 * never defined, 0 alone past the bound. */
static uint64_t stack_leaf(struct pftev *v, const struct pftev_seq *s, uint64_t iid,
                           int *bad, enum st_err *e)
{
    static const char none[] = "(no stack)\0";     /* name, no category */
    if (!iid)           /* Perfetto keeps it, with no callsite */
        return node_id(v, 0, none, sizeof(none), e);
    const char *ids = pftev_interned(s, PI_STACK, iid);
    uint64_t fid, leaf = 0;
    struct dynbuf t;
    if (!ids) {
        *bad = 1;
        return 0;
    }
    dynbuf_init(&t, 1 << 20);
    while (!*e && next_id(&ids, &fid)) {
        if (!frame_text(s, fid, &t)) {
            *bad = 1;
            leaf = 0;
            break;
        }
        leaf = node_id(v, leaf, t.data, t.len, e);
        if (!leaf)
            break;
    }
    dynbuf_free(&t);
    return leaf;
}

/* ---- samples ------------------------------------------------------------ */

/* The viewer drops a sample whose thread it has not seen. */
static enum st_err make_thread(struct pftev *v, int32_t pid, int32_t tid)
{
    struct pftev_samp *m = v->samp;
    uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
    if (pmap_get(&m->threads, key) || pmap_get(&v->tnames, key))
        return ST_OK;
    char *one = malloc(1);
    if (!one || pmap_put(&m->threads, key, one)) {
        free(one);
        return ST_ENOMEM;
    }
    ev_start(v, 'M');
    ev_addf(v, ",\"name\":\"thread_sort_index\",\"pid\":%ld,\"tid\":%ld,"
            "\"args\":{\"sort_index\":0}", (long)pid, (long)tid);
    return ev_emit(v);
}

struct one_sample {
    int32_t pid, tid;
    int64_t cpu;                /* -1: none */
    uint64_t ts, stack;
    const char *name;
};

static enum st_err write_sample(struct pftev *v, struct pftev_seq *s,
                                const struct one_sample *o)
{
    struct pftev_samp *m = v->samp;
    enum st_err e = ST_OK;
    int bad = 0;
    uint64_t leaf = stack_leaf(v, s, o->stack, &bad, &e);
    if (e)
        return e;
    if (!leaf) {
        if (bad)
            v->st.bad_stack++;
        else
            v->st.over_stack++;
        return ST_OK;
    }
    e = make_thread(v, o->pid, o->tid);
    if (e)
        return e;
    char text[160];
    int len = snprintf(text, sizeof(text), "%s{\"name\":\"%s\",\"tid\":%ld,\"ts\":%llu.%03llu,"
                       "\"sf\":\"%llu\",\"weight\":1", v->st.samples ? ",\n" : "\n", o->name,
                       (long)o->tid, (unsigned long long)(o->ts / 1000),
                       (unsigned long long)(o->ts % 1000), (unsigned long long)leaf);
    if (o->cpu >= 0)
        len += snprintf(text + len, sizeof(text) - (size_t)len, ",\"cpu\":%lld",
                        (long long)o->cpu);
    len += snprintf(text + len, sizeof(text) - (size_t)len, "}");
    v->st.samples++;
    return m->samples(m->ctx, text, (size_t)len);
}

/* PerfSample: cpu 1, pid 2, tid 3, callstack_iid 4; kernel_records_lost
 * 17, sample_skipped_reason 18, producer_event 19 mark no sample. */
static enum st_err perf_sample(struct pftev *v, struct pftev_seq *s, uint64_t ts,
                               const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    struct one_sample o = {.pid = 0, .tid = 0, .cpu = -1, .ts = ts, .name = "perf sample"};
    int k, none = 0;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num >= 17 && f.num <= 19)
            none = 1;
        else if (f.wire != PB_VARINT)
            continue;
        else if (f.num == 1)
            o.cpu = (int64_t)(uint32_t)f.v;
        else if (f.num == 2)
            o.pid = (int32_t)f.v;
        else if (f.num == 3)
            o.tid = (int32_t)f.v;
        else if (f.num == 4)
            o.stack = f.v;
    }
    if (k) {
        v->st.dropped++;
        return ST_OK;
    }
    return none ? ST_OK : write_sample(v, s, &o);
}

/* StreamingProfilePacket: callstack_iid 1 and timestamp_delta_us 2,
 * paired in order, each packed or not. */
static enum st_err streaming_profile(struct pftev *v, struct pftev_seq *s,
                                     const uint8_t *p, size_t n)
{
    struct dynbuf stacks, deltas;
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    int k;
    dynbuf_init(&stacks, (size_t)16 << 20);
    dynbuf_init(&deltas, (size_t)16 << 20);
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.num == 1 || f.num == 2)
            add_ids(f.num == 1 ? &stacks : &deltas, &f);
    if (k || !s->has_thread) {
        v->st.dropped++;
        goto out;
    }
    const char *si = stacks.len ? stacks.data : "", *di = deltas.len ? deltas.data : "";
    uint64_t stack, delta;
    while (!e && next_id(&si, &stack) && next_id(&di, &delta)) {
        s->profile_us += (int64_t)delta;
        struct one_sample o = {.pid = s->pid, .tid = s->tid, .cpu = -1, .stack = stack,
                               .ts = (uint64_t)s->profile_us * 1000, .name = "stack sample"};
        e = write_sample(v, s, &o);
    }
out:
    dynbuf_free(&stacks);
    dynbuf_free(&deltas);
    return e;
}

/* ThreadDescriptor reference_timestamp_us (6): where the sequence's
 * profile deltas start. */
void pftev_sample_thread(struct pftev_seq *s, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 6 && f.wire == PB_VARINT)
            s->profile_us = (int64_t)f.v;
}

enum st_err pftev_sample(struct pftev *v, struct pftev_seq *s, uint64_t ts, uint32_t num,
                         const uint8_t *p, size_t n)
{
    if (!v->samp)
        return ST_OK;           /* counted as not shown (pftev_other) */
    return num == 66 ? perf_sample(v, s, ts, p, n) : streaming_profile(v, s, p, n);
}
