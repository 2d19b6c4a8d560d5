/*
 * Slices across the boundaries of pieces (pfcut.h): each track (a track
 * event's track; a thread's atrace B/E from ftrace print) keeps the stack
 * of its open slices, their begins saved.  When a track's events move
 * past a piece's end, its open slices are ended there (in that piece) and
 * begun again at the next piece's start (in the next one), marked as cut
 * (debug annotations cut_start / cut_end on track events), so every piece
 * holds each slice it overlaps, once, with no end lacking its begin.
 * Slices still open at the trace's last event stay open, as in the
 * original.  Events of one track come in time order, so the stack at any
 * moment is the stack at that time.
 */
#include "pfcut_int.h"

#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "pbw.h"
#include "pfsort.h"

#define KEY_PRINT (1ull << 62)
#define KEY_LEGACY (1ull << 63)
#define PFCUT_PRINT_ARENA ((size_t)4 << 20)
#define PFCUT_PRINT_RECS ((size_t)1 << 16)

static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static int grow(struct pfcut *c)
{
    size_t cap = c->trackcap ? c->trackcap * 2 : 1024;
    if (cap > PFCUT_TRACKS_MAX * 2)
        return -1;
    struct pfcut_track *t = calloc(cap, sizeof(*t));
    if (!t)
        return -1;
    for (size_t i = 0; i < c->trackcap; i++) {
        if (!c->tracks[i].key)
            continue;
        size_t j = slot_of(c->tracks[i].key, cap);
        while (t[j].key)
            j = (j + 1) & (cap - 1);
        t[j] = c->tracks[i];
    }
    free(c->tracks);
    c->tracks = t;
    c->trackcap = cap;
    return 0;
}

struct pfcut_track *pfcut_track(struct pfcut *c, uint64_t key)
{
    if ((c->ntracks + 1) * 2 > c->trackcap && grow(c))
        return NULL;
    size_t i = slot_of(key, c->trackcap);
    while (c->tracks[i].key && c->tracks[i].key != key)
        i = (i + 1) & (c->trackcap - 1);
    struct pfcut_track *t = &c->tracks[i];
    if (!t->key) {
        t->key = key;
        c->ntracks++;
    }
    return t;
}

/* ---- the packets that end and begin a cut slice ------------------------- */

static enum st_err annotation(struct dynbuf *b, const char *name)
{
    uint8_t ann[64];
    size_t n = strlen(name);
    ann[0] = 0x52;              /* name (10), bytes */
    ann[1] = (uint8_t)n;
    memcpy(ann + 2, name, n);
    ann[2 + n] = 0x10;          /* bool_value (2) */
    ann[3 + n] = 1;
    return pbw_bytes(b, 4, ann, n + 4);
}

static enum st_err tev_packet(struct pfcut *c, int piece, uint32_t seq, int64_t ts,
                              struct dynbuf *ev)
{
    return pfcut_timed_packet(c, piece, seq, ts, 11, ev);
}

/* An atrace print: PrintFtraceEvent { buf 2 }. */
static enum st_err print_packet(struct pfcut *c, int piece, uint32_t cpu, uint32_t seq,
                                uint32_t tid, int64_t ts, const uint8_t *buf, size_t n)
{
    struct dynbuf *ev = &c->c;
    dynbuf_reset(ev);
    if (pbw_bytes(ev, 2, buf, n))
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    return pfcut_ftrace_packet(c, piece, cpu, seq, tid, ts, 3, ev);
}

/* The ends of ftrace pairs: irq_handler_entry 36 / exit 37 (irq 1),
 * softirq_entry 24 / exit 25 (vec 1), workqueue_execute_start 58 / end 57
 * (work 1, function 2). */
static uint32_t pair_end(uint32_t begin)
{
    return begin == 36 ? 37 : begin == 24 ? 25 : begin == 58 ? 57 : 0;
}

static enum st_err pair_packet(struct pfcut *c, int piece, const struct pfcut_track *t,
                               const struct pfcut_open *o, int64_t ts, int end)
{
    uint64_t keep[2] = {~0ull, ~0ull};      /* a begin: all of it */
    if (end)    /* an end: the fields that say which */
        keep[0] = o->field == 58 ? (1ull << 1 | 1ull << 2) : 1ull << 1, keep[1] = 0;
    uint64_t drop[2] = {~keep[0], ~keep[1]};
    struct dynbuf body;
    dynbuf_init(&body, PFCUT_BEGIN_MAX * 2);
    enum st_err e = o->ev ? pfcut_copy(&body, o->ev, o->n, drop) : ST_OK;
    if (!e)
        e = pfcut_ftrace_packet(c, piece, o->seq, o->pseq, t->tid, ts,
                          end ? pair_end(o->field) : o->field, &body);
    dynbuf_free(&body);
    return e == ST_EFORMAT ? pfcut_fail(c, e, "an ftrace event") : e;
}

static enum st_err end_one(struct pfcut *c, struct pfcut_track *t, struct pfcut_open *o,
                           int piece, int64_t ts)
{
    if (o->print == 2)
        return pair_packet(c, piece, t, o, ts, 1);
    if (o->print) {
        /* "E|tgid" from the saved "B|tgid|name" */
        uint8_t e[32] = "E";
        size_t n = 1;
        const uint8_t *bar = o->ev ? memchr(o->ev + 2, '|', o->n > 2 ? o->n - 2 : 0) : NULL;
        if (bar && (size_t)(bar - o->ev) < sizeof(e)) {
            n = (size_t)(bar - o->ev);
            memcpy(e + 1, o->ev + 1, n - 1);
        }
        return print_packet(c, piece, t->st[0].seq, o->pseq, t->tid, ts, e, n);
    }
    struct dynbuf *ev = &c->c;
    dynbuf_reset(ev);
    enum st_err e = pbw_uint(ev, 9, 2);             /* TYPE_SLICE_END */
    if (!e && o->uuid)
        e = pbw_uint(ev, 11, o->uuid);
    if (!e)
        e = annotation(ev, "cut_end");
    return e ? pfcut_fail(c, ST_ENOMEM, "out of memory") : tev_packet(c, piece, o->seq, ts, ev);
}

static enum st_err begin_one(struct pfcut *c, struct pfcut_track *t, struct pfcut_open *o,
                             int piece, int64_t ts)
{
    if (o->print == 2)
        return o->ev ? pair_packet(c, piece, t, o, ts, 0) : ST_OK;
    if (o->print)
        return o->ev ? print_packet(c, piece, t->st[0].seq, o->pseq, t->tid, ts, o->ev, o->n)
                     : ST_OK;
    /* the saved begin without its own times (1, 2, 8, 16, 17, 20), counters
     * (12, 31, 45, 46) and flows (36, 42, 47, 48): they were the original's,
     * at its time */
    static const uint64_t drop[2] = {
        1ull << 1 | 1ull << 2 | 1ull << 8 | 1ull << 16 | 1ull << 17 | 1ull << 20 |
        1ull << 12 | 1ull << 31 | 1ull << 36 | 1ull << 42 | 1ull << 45 | 1ull << 46 |
        1ull << 47 | 1ull << 48, 0};
    struct dynbuf *ev = &c->c;
    dynbuf_reset(ev);
    enum st_err e = ST_OK;
    if (o->ev)
        e = pfcut_copy(ev, o->ev, o->n, drop);
    else if (!(e = pbw_uint(ev, 9, 1)) && !(e = pbw_str(ev, 23, "(cut)")) && o->uuid)
        e = pbw_uint(ev, 11, o->uuid);
    if (!e)
        e = annotation(ev, "cut_start");
    return e ? pfcut_fail(c, ST_ENOMEM, "out of memory") : tev_packet(c, piece, o->seq, ts, ev);
}

/* A track's ends and begins go on one CPU (its first slice's), in stack
 * order: Perfetto keeps the order of events of one time on one CPU, not
 * across CPUs. */
static enum st_err close_piece(struct pfcut *c, void *ctx, uint32_t k)
{
    struct pfcut_track *t = ctx;
    enum st_err e = ST_OK;
    for (uint32_t d = t->depth; d-- > 0 && !e;)
        e = end_one(c, t, &t->st[d], (int)k, c->out[k].p.end);
    return e;
}

static enum st_err open_piece(struct pfcut *c, void *ctx, uint32_t k)
{
    struct pfcut_track *t = ctx;
    enum st_err e = ST_OK;
    for (uint32_t d = 0; d < t->depth && !e; d++)
        e = begin_one(c, t, &t->st[d], (int)k, c->out[k].p.start);
    return e;
}

enum st_err pfcut_walk(struct pfcut *c, struct pfcut_walk *w, int64_t ts)
{
    uint32_t pos;
    int i = pfcut_piece_of(c, ts, &pos);
    enum st_err e = ST_OK;
    while (!e && *w->pos < pos) {
        if (*w->pos >= 1 && !*w->closed)
            e = w->end(c, w->ctx, *w->pos - 1);
        ++*w->pos;
        *w->closed = 0;
        if (!e)
            e = w->begin(c, w->ctx, *w->pos - 1);
    }
    if (!e && i < 0 && *w->pos >= 1 && !*w->closed) {
        e = w->end(c, w->ctx, *w->pos - 1);
        *w->closed = 1;
    }
    return e;
}

enum st_err pfcut_advance(struct pfcut *c, struct pfcut_track *t, int64_t ts)
{
    if (!t->depth) {            /* nothing open: nothing to end or begin */
        uint32_t pos;
        t->closed = pfcut_piece_of(c, ts, &pos) < 0;
        t->pos = pos;
        return ST_OK;
    }
    struct pfcut_walk w = {&t->pos, &t->closed, close_piece, open_piece, t};
    return pfcut_walk(c, &w, ts);
}

/* ---- the stacks --------------------------------------------------------- */

/* A scan: is the slice just begun the one looked for? */
static void mark(struct pfcut *c, struct pfcut_track *t, int match, int64_t ts)
{
    if (c->scanning && t->depth && match) {
        t->st[t->depth - 1].match = 1;
        t->st[t->depth - 1].ts = ts;
    }
}

/* The entry pushed (NULL: past PFCUT_DEPTH); its begin saved when it fits. */
static struct pfcut_open *push(struct pfcut *c, struct pfcut_track *t, uint32_t seq, int print,
                               uint64_t uuid, const uint8_t *p, size_t n)
{
    if (t->depth == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 4;
        struct pfcut_open *st = cap <= PFCUT_DEPTH ? realloc(t->st, cap * sizeof(*st)) : NULL;
        if (!st) {
            c->st.saved_over++;     /* deeper than PFCUT_DEPTH: not followed */
            t->over++;
            return NULL;
        }
        t->st = st;
        t->cap = cap;
    }
    struct pfcut_open *o = &t->st[t->depth++];
    o->seq = seq;
    o->print = print;
    o->uuid = uuid;
    o->ev = NULL;
    o->n = 0;
    o->match = 0;
    o->pseq = o->field = 0;
    if (c->scanning)
        return o;   /* a scan keeps no begins (pfcut_want's match and time) */
    if (n > PFCUT_BEGIN_MAX || c->saved + n > PFCUT_SAVED_MAX ||
        !(o->ev = malloc(n ? n : 1))) {
        c->st.saved_over++;
        return o;
    }
    memcpy(o->ev, p, n);
    o->n = n;
    c->saved += n;
    return o;
}

/* The slice looked for, found: kept if among the nth earliest. */
static void found(struct pfcut *c, int64_t begin, int64_t end)
{
    struct pfcut_want *w = &c->find;
    w->count++;
    if (w->nfound == w->nth && begin >= w->found[w->nfound - 1][0])
        return;
    size_t i = w->nfound < w->nth ? w->nfound++ : w->nfound - 1;
    while (i > 0 && w->found[i - 1][0] > begin) {
        w->found[i][0] = w->found[i - 1][0];
        w->found[i][1] = w->found[i - 1][1];
        i--;
    }
    w->found[i][0] = begin;
    w->found[i][1] = end;
}

static void pop(struct pfcut *c, struct pfcut_track *t, int64_t ts)
{
    if (t->over) {
        t->over--;
        return;
    }
    if (!t->depth)
        return;
    struct pfcut_open *o = &t->st[--t->depth];
    if (o->match)
        found(c, o->ts, ts);
    c->saved -= o->ev ? o->n : 0;
    free(o->ev);
    o->ev = NULL;
}

/* An end exactly at a piece's start ends a slice of the piece before
 * (when it reaches there), not one of this piece: the piece it goes to,
 * or -1, and the time the track moves to. */
int pfcut_end_at_start(const struct pfcut *c, int64_t ts, int64_t *moved)
{
    int i = pfcut_piece_of(c, ts, NULL);
    *moved = ts;
    if (i < 0 || c->out[i].p.start != ts || ts == INT64_MIN)
        return i;
    *moved = ts - 1;
    return i > 0 && c->out[i - 1].p.end == ts ? i - 1 : -1;
}

enum st_err pfcut_track_event(struct pfcut *c, uint32_t seq, int64_t ts, int *piece,
                              const uint8_t *ev, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t type = 0, uuid = 0, iid = 0;
    int has_uuid = 0, match = 0;
    pb_iter_init(&it, ev, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 9 && f.wire == PB_VARINT)
            type = f.v;
        else if (f.num == 10 && f.wire == PB_VARINT)
            iid = f.v;
        else if (f.num == 23 && f.wire == PB_LEN && c->find.name)
            match = f.len == c->find.len && !memcmp(f.p, c->find.name, f.len);
        else if (f.num == 11 && f.wire == PB_VARINT)
            uuid = f.v, has_uuid = 1;
    }
    if (it.bad)
        return pfcut_fail(c, ST_EFORMAT, "a track event");
    if (type != 1 && type != 2)
        return ST_OK;
    struct pfcut_seq *s = pfcut_seq(c, seq);
    if (!has_uuid && s && s->def_track)
        uuid = s->def_track, has_uuid = 1;
    uint64_t key = has_uuid && uuid ? uuid & ~(KEY_PRINT | KEY_LEGACY) : KEY_LEGACY | seq;
    struct pfcut_track *t = pfcut_track(c, key);
    if (!t)
        return pfcut_fail(c, ST_ENOMEM, "more than a million tracks with slices");
    for (uint32_t i = 0; s && iid && i < s->nwant; i++)
        match |= s->want_iid[i] == iid;
    int64_t moved = ts;
    if (type == 2 && !c->scanning)
        *piece = pfcut_end_at_start(c, ts, &moved);
    enum st_err e = c->scanning ? ST_OK : pfcut_advance(c, t, moved);
    if (type == 1) {
        push(c, t, seq, 0, has_uuid ? uuid : 0, ev, n);
        mark(c, t, match, ts);
    } else
        pop(c, t, ts);
    return e;
}

/* A print in time order (the sort's emit). */
static enum st_err print_sorted(void *ctx, int64_t ts, const uint8_t *p, size_t n)
{
    struct pfcut *c = ctx;
    uint32_t head[4];           /* tid, cpu, the bundle's sequence, what */
    memcpy(head, p, sizeof(head));
    const uint8_t *buf = p + sizeof(head);
    n -= sizeof(head);
    if (head[3])                /* a CPU's counter: its FtraceEvent field */
        return pfcut_counter(c, head[1], head[2], head[0], ts, head[3], buf, n);
    if (!((buf[0] == 'B' || buf[0] == 'E') && (n == 1 || buf[1] == '|'))) {
        /* another print: one at a piece's start goes after what was begun
         * again there (its bundle leaves it out); a counter's value goes
         * again to later pieces */
        int to = pfcut_piece_of(c, ts, NULL);
        enum st_err e = pfcut_at_start(c, ts) && to >= 0 ?
                        print_packet(c, to, head[1], head[2], head[0], ts, buf, n) : ST_OK;
        return e ? e : pfcut_counter(c, head[1], head[2], head[0], ts, 3, buf, n);
    }
    struct pfcut_track *t = pfcut_track(c, KEY_PRINT | head[0]);
    if (!t)
        return pfcut_fail(c, ST_ENOMEM, "more than a million tracks with slices");
    t->tid = head[0];
    int64_t moved = ts;
    int to = buf[0] == 'E' ? pfcut_end_at_start(c, ts, &moved) : pfcut_piece_of(c, ts, NULL);
    enum st_err e = c->scanning ? ST_OK : pfcut_advance(c, t, moved);
    /* one at a piece's start: written after what was begun again there
     * (an end: in the piece before, pfcut_track_event) */
    if (!e && !c->scanning && pfcut_at_start(c, ts) && to >= 0)
        e = print_packet(c, to, t->depth ? t->st[0].seq : head[1], head[2], t->tid, ts, buf, n);
    if (buf[0] == 'B') {
        struct pfcut_open *o = push(c, t, head[1], 1, 0, buf, n);
        if (o)
            o->pseq = head[2];
        /* "B|tgid|NAME": the name after the second bar */
        const uint8_t *bar = n > 2 ? memchr(buf + 2, '|', n - 2) : NULL;
        size_t off = bar ? (size_t)(bar - buf) + 1 : n;
        mark(c, t, c->find.name && n - off == c->find.len &&
                   !memcmp(buf + off, c->find.name, c->find.len), ts);
    } else
        pop(c, t, ts);
    return e;
}

enum st_err pfcut_pair(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid, int64_t ts,
                       uint32_t field, const uint8_t *p, size_t n)
{
    /* irq, softirq: a CPU's slices; workqueue: its thread's */
    uint64_t kind = field == 36 || field == 37 ? 1 : field == 24 || field == 25 ? 2
                  : field == 57 || field == 58 ? 3 : 0;
    if (!kind)
        return ST_OK;
    int begin = field == 36 || field == 24 || field == 58;
    uint64_t id = kind == 3 ? tid : cpu;
    struct pfcut_track *t = pfcut_track(c, KEY_PRINT | KEY_LEGACY | kind << 40 | id);
    if (!t)
        return pfcut_fail(c, ST_ENOMEM, "more than a million tracks with slices");
    t->tid = tid;
    enum st_err e = pfcut_advance(c, t, ts);
    if (begin) {
        struct pfcut_open *o = push(c, t, cpu, 2, 0, p, n);
        if (o) {
            o->pseq = seq;
            o->field = field;
        }
    } else
        pop(c, t, ts);
    return e;
}

enum st_err pfcut_slices_init(struct pfcut *c)
{
    c->prints = pfsort_new(PFCUT_PRINT_ARENA, PFCUT_PRINT_RECS, print_sorted, c);
    return c->prints ? ST_OK : ST_ENOMEM;
}

/* Threads move between CPUs and Perfetto writes a CPU at a time: a
 * thread's prints come in time order only once sorted. */
enum st_err pfcut_print(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid, int64_t ts,
                        const uint8_t *buf, size_t n)
{
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == 0))
        n--;
    int slice = n && (buf[0] == 'B' || buf[0] == 'E') && (n == 1 || buf[1] == '|');
    int counter = n > 1 && buf[0] == 'C' && buf[1] == '|';
    if (!n || (!slice && (c->scanning || !(counter || pfcut_at_start(c, ts)))))
        return ST_OK;   /* a scan wants only slices; a cut also counters and what
                         * its bundle leaves out (print_sorted) */
    if (n > PFCUT_BEGIN_MAX)
        n = PFCUT_BEGIN_MAX;
    uint32_t head[4] = {tid, cpu, seq, 0};
    enum st_err e = pfsort_push(c->prints, ts, head, sizeof(head), buf, n);
    return e ? pfcut_fail(c, e, "out of memory") : ST_OK;
}

enum st_err pfcut_cpu_counter(struct pfcut *c, uint32_t cpu, uint32_t seq, uint32_t tid,
                              int64_t ts, uint32_t field, const uint8_t *p, size_t n)
{
    if (c->scanning || n > PFCUT_BEGIN_MAX)
        return ST_OK;
    uint32_t head[4] = {tid, cpu, seq, field};
    enum st_err e = pfsort_push(c->prints, ts, head, sizeof(head), p, n);
    return e ? pfcut_fail(c, e, "out of memory") : ST_OK;
}

enum st_err pfcut_find_slice(struct pfcut *c, const char *name, unsigned nth)
{
    if (!nth || nth > PFCUT_NTH_MAX)
        return ST_EINVAL;
    c->find.len = strlen(name);
    c->find.name = malloc(c->find.len + 1);
    c->find.found = calloc(nth, sizeof(*c->find.found));
    if (!c->find.name || !c->find.found || (!c->prints && pfcut_slices_init(c)))
        return ST_ENOMEM;
    memcpy(c->find.name, name, c->find.len + 1);
    c->find.nth = nth;
    return ST_OK;
}

int pfcut_found(const struct pfcut *c, int64_t *begin, int64_t *end, uint64_t *count)
{
    const struct pfcut_want *w = &c->find;
    *count = w->count;
    if (!w->nth || w->nfound < w->nth)
        return -1;
    *begin = w->found[w->nth - 1][0];
    *end = w->found[w->nth - 1][1];
    return 0;
}

/* InternedData.event_names (2): EventName { iid 1, name 2 }. */
void pfcut_want_interned(struct pfcut *c, struct pfcut_seq *s, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        uint64_t iid;
        const uint8_t *name;
        size_t len;
        if (f.num != 2 || f.wire != PB_LEN || pb_id_name(f.p, f.len, &iid, &name, &len) ||
            !name || len != c->find.len || memcmp(name, c->find.name, len))
            continue;
        if (s->nwant < sizeof(s->want_iid) / sizeof(*s->want_iid))
            s->want_iid[s->nwant++] = iid;
    }
}

/* A scan's end: slices still open end at the last event. */
static void scan_finish(struct pfcut *c)
{
    for (size_t i = 0; i < c->trackcap; i++)
        while (c->tracks[i].key && c->tracks[i].depth)
            pop(c, &c->tracks[i], c->span.last);
}

enum st_err pfcut_slices_finish(struct pfcut *c)
{
    enum st_err e = c->prints ? pfsort_finish(c->prints) : ST_OK;
    if (e)
        return pfcut_fail(c, e, "out of memory");
    if (c->scanning) {
        scan_finish(c);
        return ST_OK;
    }
    for (size_t i = 0; i < c->trackcap && !e; i++)
        if (c->tracks[i].key && c->tracks[i].depth)
            e = pfcut_advance(c, &c->tracks[i], c->last);
    return e;
}

void pfcut_slices_free(struct pfcut *c)
{
    for (size_t i = 0; i < c->trackcap; i++) {
        for (uint32_t d = 0; d < c->tracks[i].depth; d++)
            free(c->tracks[i].st[d].ev);
        free(c->tracks[i].st);
    }
    free(c->tracks);
    c->tracks = NULL;
    pfsort_free(c->prints);
    c->prints = NULL;
    free(c->find.name);
    free(c->find.found);
}
