/*
 * One TrackEvent (pftev.h) as a trace event: its track (the event's
 * track_uuid, the sequence's default, else the sequence's thread), its
 * name and categories (inline or interned), then by type and track kind:
 * thread B / E / i, async b / e / process or global i (id: the track's
 * uuid, so Perfetto and the classic viewer keep each track's slices
 * together), counter C.  An async end repeats its begin's name and
 * category: both viewers match ends to begins by them.  Debug annotations
 * become args (nested dicts and arrays to a depth of ANNOT_DEPTH).
 */
#include "pftev_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

#define ANNOT_DEPTH 8
#define CATS_MAX 512
#define ASYNC_CAT "track_event"     /* an async slice's category when it has none */

struct tev {
    uint64_t type, uuid;
    int has_uuid;
    const char *name;
    size_t nlen;
    char cats[CATS_MAX];
    int has_value, is_double;
    int64_t ival;
    double dval;
    uint64_t flow, term;
    int has_flow, has_term;
    int64_t delta_us, abs_us;   /* legacy timestamps */
    int has_delta, has_abs;
    const uint8_t *p;           /* the message, for annotations */
    size_t n;
};

/* ---- reading ------------------------------------------------------------ */

static void add_cat(struct tev *e, const char *c, size_t n)
{
    size_t at = strlen(e->cats);
    if (at + n + 2 < sizeof(e->cats))
        snprintf(e->cats + at, sizeof(e->cats) - at, "%s%.*s", at ? "," : "", (int)n, c);
}

static const char *iname(struct pftev *v, struct pftev_seq *s, enum pftev_ikind k,
                         uint64_t iid)
{
    const char *n = pftev_interned(s, k, iid);
    if (!n)
        v->st.bad_iid++;
    return n;
}

/* flow ids: fixed64 (47, 48; packed or not) or varint (36, 42, old). */
static void flow_field(const struct pb_field *f, uint64_t *id, int *has)
{
    if (f->wire == PB_I64 || f->wire == PB_VARINT) {
        *id = f->v;
        *has = 1;
    } else if (f->wire == PB_LEN && f->len >= 8) {
        uint64_t x = 0;
        for (int i = 7; i >= 0; i--)
            x = x << 8 | f->p[i];
        *id = x;
        *has = 1;
    }
}

static void read_field(struct pftev *v, struct pftev_seq *s, struct tev *e,
                       const struct pb_field *f)
{
    if (f->num == 9 && f->wire == PB_VARINT)
        e->type = f->v;
    else if (f->num == 11 && f->wire == PB_VARINT)
        e->uuid = f->v, e->has_uuid = 1;
    else if (f->num == 10 && f->wire == PB_VARINT) {
        const char *n = iname(v, s, PI_NAME, f->v);
        e->name = n ? n : "";
        e->nlen = strlen(e->name);
    } else if (f->num == 23 && f->wire == PB_LEN)
        e->name = (const char *)f->p, e->nlen = f->len;
    else if (f->num == 22 && f->wire == PB_LEN)
        add_cat(e, (const char *)f->p, f->len);
    else if (f->num == 3 && f->wire == PB_VARINT) {
        const char *c = iname(v, s, PI_CAT, f->v);
        if (c)
            add_cat(e, c, strlen(c));
    } else if (f->num == 3 && f->wire == PB_LEN) {
        struct pb_packed pk;
        uint64_t iid;
        pb_packed_init(&pk, f);
        while (pb_packed_next(&pk, &iid) == 1) {
            const char *c = iname(v, s, PI_CAT, iid);
            if (c)
                add_cat(e, c, strlen(c));
        }
    } else if (f->num == 30 && f->wire == PB_VARINT)
        e->ival = (int64_t)f->v, e->has_value = 1, e->is_double = 0;
    else if (f->num == 44 && f->wire == PB_I64)
        e->dval = pb_double(f->v), e->has_value = 1, e->is_double = 1;
    else if (f->num == 1 && f->wire == PB_VARINT)
        e->delta_us = (int64_t)f->v, e->has_delta = 1;
    else if (f->num == 16 && f->wire == PB_VARINT && f->v)
        e->abs_us = (int64_t)f->v, e->has_abs = 1;
    else if ((f->num == 47 || f->num == 36) && !e->has_flow)
        flow_field(f, &e->flow, &e->has_flow);
    else if ((f->num == 48 || f->num == 42) && !e->has_term)
        flow_field(f, &e->term, &e->has_term);
}

static int read_event(struct pftev *v, struct pftev_seq *s, struct tev *e, const uint8_t *p,
                      size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    memset(e, 0, sizeof(*e));
    e->p = p;
    e->n = n;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        read_field(v, s, e, &f);
    if (!e->name)
        e->name = "", e->nlen = 0;
    return k;
}

/* ---- debug annotations -------------------------------------------------- */

static void annot_value(struct pftev *v, struct pftev_seq *s, const uint8_t *p, size_t n,
                        int depth);

/* The name of a DebugAnnotation (name 10, name_iid 1), as a JSON key. */
static void annot_key(struct pftev *v, struct pftev_seq *s, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    const char *name = "";
    size_t len = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 10 && f.wire == PB_LEN)
            name = (const char *)f.p, len = f.len;
        else if (f.num == 1 && f.wire == PB_VARINT) {
            const char *in = iname(v, s, PI_ANNOT, f.v);
            name = in ? in : "";
            len = strlen(name);
        }
    }
    ev_str(v, name, len);
    ev_add(v, ":");
}

/* dict_entries (11) as an object, array_values (12) as an array. */
static void annot_list(struct pftev *v, struct pftev_seq *s, const uint8_t *p, size_t n,
                       uint32_t num, int depth)
{
    struct pb_iter it;
    struct pb_field f;
    int first = 1;
    ev_add(v, num == 11 ? "{" : "[");
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num != num || f.wire != PB_LEN)
            continue;
        if (!first)
            ev_add(v, ",");
        first = 0;
        if (num == 11)
            annot_key(v, s, f.p, f.len);
        annot_value(v, s, f.p, f.len, depth + 1);
    }
    ev_add(v, num == 11 ? "}" : "]");
}

/* A scalar value field written: 1; else 0. */
static int annot_scalar(struct pftev *v, const struct pb_field *f)
{
    if (f->num == 2 && f->wire == PB_VARINT)
        ev_add(v, f->v ? "true" : "false");
    else if (f->num == 3 && f->wire == PB_VARINT)
        ev_uint(v, f->v);
    else if (f->num == 4 && f->wire == PB_VARINT)
        ev_int(v, (int64_t)f->v);
    else if (f->num == 5 && f->wire == PB_I64) {
        double d = pb_double(f->v);
        if (d != d || d - d != 0)   /* NaN, infinities: not JSON numbers */
            ev_add(v, "null");
        else
            ev_addf(v, "%.17g", d);
    } else if (f->num == 7 && f->wire == PB_VARINT)
        ev_hexid(v, f->v);
    else if ((f->num == 6 || f->num == 9) && f->wire == PB_LEN)
        ev_str(v, (const char *)f->p, f->len);
    else if (f->num == 17 && f->wire == PB_VARINT)
        ev_addf(v, "\"(interned string %llu)\"", (unsigned long long)f->v);
    else
        return 0;
    return 1;
}

static void annot_value(struct pftev *v, struct pftev_seq *s, const uint8_t *p, size_t n,
                        int depth)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if ((f.num == 11 || f.num == 12) && f.wire == PB_LEN) {
            if (depth >= ANNOT_DEPTH)
                break;
            annot_list(v, s, p, n, f.num, depth);
            return;
        }
        if (annot_scalar(v, &f))
            return;
    }
    ev_add(v, "null");
}

static void annotations(struct pftev *v, struct pftev_seq *s, const struct tev *e)
{
    struct pb_iter it;
    struct pb_field f;
    int first = 1;
    pb_iter_init(&it, e->p, e->n);
    while (pb_next(&it, &f) == 1) {
        if (f.num != 4 || f.wire != PB_LEN)
            continue;
        ev_add(v, first ? ",\"args\":{" : ",");
        first = 0;
        annot_key(v, s, f.p, f.len);
        annot_value(v, s, f.p, f.len, 0);
    }
    if (!first)
        ev_add(v, "}");
}

/* ---- flows -------------------------------------------------------------- */

/* v2 flows: bind_id with flow_out on the first event of an id, flow_in
 * and flow_out on the ones after, flow_in alone where it terminates.
 * Only ids begun and not terminated are kept, at most PFTEV_FLOWS_MAX:
 * a trace of many flows must not grow memory with its length.  A flow
 * begun past the bound is counted as dropped; its later steps lack the
 * flow_in that ties them to it. */
static void flows(struct pftev *v, const struct tev *e)
{
    uint64_t id = e->has_term ? e->term : e->flow;
    if (!e->has_term && !e->has_flow)
        return;
    uint8_t *state = pmap_get(&v->flows, id);
    int in = state && *state;
    ev_add(v, ",\"bind_id\":");
    ev_hexid(v, id);
    ev_add(v, in || e->has_term ? ",\"flow_in\":true" : "");
    ev_add(v, e->has_term ? "" : ",\"flow_out\":true");
    v->st.flows++;
    if (e->has_term) {
        pmap_del(&v->flows, id);
        return;
    }
    if (state)
        return;
    if (v->flows.count >= PFTEV_FLOWS_MAX) {
        v->st.dropped++;
        return;
    }
    if ((state = malloc(1)) && pmap_put(&v->flows, id, state)) {
        free(state);
        state = NULL;
    }
    if (state)
        *state = 1;
}

/* ---- writing ------------------------------------------------------------ */

static void head(struct pftev *v, char ph, const char *name, size_t nlen, const char *cat)
{
    ev_start(v, ph);
    ev_add(v, ",\"name\":");
    ev_str(v, name, nlen);
    if (cat && cat[0]) {
        ev_add(v, ",\"cat\":");
        ev_str(v, cat, strlen(cat));
    }
}

static enum st_err counter(struct pftev *v, const struct pftev_track *t, const struct tev *e,
                           uint64_t ts)
{
    const char *name = t->name ? t->name : "counter";
    int32_t pid = pftev_track_pid(v, t);
    head(v, 'C', name, strlen(name), NULL);
    ev_ts(v, ts);
    ev_pidtid(v, pid < 0 ? 0 : pid, pid < 0 ? 0 : pid);
    if (e->is_double && (e->dval != e->dval || e->dval - e->dval != 0))
        ev_add(v, ",\"args\":{\"value\":null}");
    else if (e->is_double)
        ev_addf(v, ",\"args\":{\"value\":%.17g}", e->dval);
    else {
        ev_add(v, ",\"args\":{\"value\":");
        ev_int(v, e->ival);
        ev_add(v, "}");
    }
    v->st.counters++;
    return ev_emit(v);
}

static void push_open(struct pftev *v, struct pftev_track *t, const struct tev *e)
{
    if (t->depth >= PFTEV_DEPTH_MAX) {
        t->excess++;
        return;
    }
    if (t->depth == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 4;
        struct pftev_open *o = realloc(t->stack, cap * sizeof(*o));
        if (!o) {
            t->excess++;
            v->st.dropped++;
            return;
        }
        t->stack = o;
        t->cap = cap;
    }
    struct pftev_open *o = &t->stack[t->depth++];
    o->name = pftev_strdup((const uint8_t *)e->name, e->nlen);
    o->cat = pftev_strdup((const uint8_t *)e->cats, strlen(e->cats));
}

/* Where a slice or instant goes: thread (pid, tid) or async (pid, id). */
static void place(struct pftev *v, const struct pftev_track *t, int thread)
{
    int32_t pid = pftev_track_pid(v, t);
    if (thread)
        ev_pidtid(v, t->pid, t->tid);
    else {
        ev_pidtid(v, pid < 0 ? 0 : pid, pid < 0 ? 0 : pid);
        ev_add(v, ",\"id\":");
        ev_hexid(v, t->uuid);
    }
}

static enum st_err slice_end(struct pftev *v, struct pftev_track *t, int thread, uint64_t ts)
{
    if (t->excess) {
        t->excess--;
        return ST_OK;
    }
    if (!t->depth) {
        v->st.unmatched_end++;
        return ST_OK;
    }
    struct pftev_open *o = &t->stack[--t->depth];
    const char *name = o->name ? o->name : "";
    /* A thread's E has no name: it ends the slice on top, as Perfetto's
     * SLICE_END does.  Named, it would be a misplaced end to a reader
     * that sorts by time wherever a producer's slices did not nest. */
    if (thread)
        ev_start(v, 'E');
    else
        head(v, 'e', name, strlen(name), o->cat);
    free(o->name);
    free(o->cat);
    ev_ts(v, ts);
    place(v, t, thread);
    return ev_emit(v);
}

static enum st_err slice(struct pftev *v, struct pftev_seq *s, struct pftev_track *t,
                         struct tev *e, uint64_t ts)
{
    int thread = t->kind == TK_THREAD;
    if (e->type == 2)
        return slice_end(v, t, thread, ts);
    char ph = e->type == 3 ? 'i' : thread ? 'B' : 'b';
    if (ph == 'b' && !e->cats[0])    /* the classic viewer refuses b / e without one */
        snprintf(e->cats, sizeof(e->cats), "%s", ASYNC_CAT);
    head(v, ph, e->name, e->nlen, e->cats);
    ev_ts(v, ts);
    if (ph == 'i') {
        int32_t pid = pftev_track_pid(v, t);
        ev_pidtid(v, pid < 0 ? 0 : pid, thread ? t->tid : pid < 0 ? 0 : pid);
        ev_add(v, thread ? ",\"s\":\"t\"" : pid < 0 ? ",\"s\":\"g\"" : ",\"s\":\"p\"");
        v->st.instants++;
    } else {
        place(v, t, thread);
        push_open(v, t, e);
        if (thread)
            v->st.slices++;
        else
            v->st.async++;
    }
    flows(v, e);
    annotations(v, s, e);
    return ev_emit(v);
}

/* The sequence's thread, as a track of its own (uuid: none a producer
 * writes, derived from the tid). */
static struct pftev_track *seq_thread(struct pftev *v, const struct pftev_seq *s)
{
    uint64_t uuid = 0xfffe000000000000ULL | (uint32_t)s->tid;
    struct pftev_track *t = pftev_track(v, uuid, 1);
    if (t && !t->kind) {
        t->kind = TK_THREAD;
        t->pid = s->pid;
        t->tid = s->tid;
    }
    return t;
}

/* Legacy timestamps (Chrome's): delta from the thread descriptor's
 * reference, or absolute, on MONOTONIC, converted when snapshots lead to
 * the trace's clock and else taken as they are, as Perfetto does. */
static int legacy_time(struct pftev *v, struct pftev_seq *s, const struct tev *e,
                       uint64_t *ts)
{
    int64_t ns;
    if (e->has_delta) {
        if (!s->legacy_valid)
            return -1;
        ns = s->legacy_ts = (int64_t)((uint64_t)s->legacy_ts + (uint64_t)e->delta_us * 1000);
    } else if (e->has_abs)
        ns = (int64_t)((uint64_t)e->abs_us * 1000);
    else
        return 0;
    int64_t conv;
    if (!pfclk_convert(&v->clk, 0, PFCLK_MONOTONIC, (uint64_t)ns, &conv))
        ns = conv;
    *ts = ns < 0 ? 0 : (uint64_t)ns;
    return 0;
}

enum st_err pftev_track_event(struct pftev *v, struct pftev_seq *s, uint64_t ts,
                              const uint8_t *p, size_t n)
{
    struct tev e;
    if (read_event(v, s, &e, p, n) || e.type < 1 || e.type > 4) {
        v->st.dropped++;    /* malformed, or legacy / state events */
        return ST_OK;
    }
    if (legacy_time(v, s, &e, &ts)) {
        v->st.no_clock++;
        return ST_OK;
    }
    struct pftev_track *t = NULL;
    if (e.has_uuid || s->has_def) {
        t = pftev_track(v, e.has_uuid ? e.uuid : s->def_track, 1);
        if (t && !t->kind) {    /* never described: a global track, as Perfetto keeps it */
            t->kind = TK_CUSTOM;
            v->st.bad_track++;
        }
    } else if (s->has_thread) {
        t = seq_thread(v, s);
    }
    if (!t) {
        v->st.no_track++;
        return ST_OK;
    }
    if ((t->kind == TK_COUNTER) != (e.type == 4)) {
        v->st.wrong_track++;
        return ST_OK;
    }
    return e.type == 4 ? counter(v, t, &e, ts) : slice(v, s, t, &e, ts);
}
