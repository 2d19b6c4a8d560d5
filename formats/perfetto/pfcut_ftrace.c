/*
 * The Perfetto cutter's ftrace bundles and logcat packets (pfcut.h): each
 * event goes to the piece its time falls in.  A bundle (or a logcat
 * packet) whose events all fall in one piece is written as it is; one
 * that spans pieces is written again for each, with only that piece's
 * events: compact sched's columns filtered row by row, their timestamp
 * deltas counted from the rows kept, its intern table kept whole (plus
 * the comm of the switch put in front; pfcut_int.h's struct pfcut_cpu).
 * Events are placed by their time on the trace's clock (their own is
 * BOOTTIME, converted as Perfetto does when the trace's clock is another)
 * and written with their own.
 * atrace B/E prints go through pfcut_slices.c on the way.  In a scan,
 * only the times and sizes are taken.
 */
#include "pfcut_int.h"

#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "pbw.h"

/* ---- compact sched columns ---------------------------------------------- */

/* switch: ts, prev_state, next_pid, next_prio, comm; waking: ts, pid,
 * target_cpu, prio, comm, flags (absent in older traces) */
static const uint8_t sw_num[5] = {1, 2, 3, 4, 6}, wk_num[6] = {7, 8, 9, 10, 11, 12};

struct compact {
    struct pb_cols s, w;
    size_t nint;                /* intern table entries */
};

static enum st_err compact_read(struct pfcut *c, const uint8_t *p, size_t n,
                                struct compact *k)
{
    struct pb_iter it;
    struct pb_field f;
    int r;
    memset(k, 0, sizeof(*k));
    k->s.n = 5;
    k->w.n = 6;
    pb_iter_init(&it, p, n);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.wire != PB_LEN)
            continue;
        if (f.num == 5) {
            if (k->nint >= 65536)
                return pfcut_fail(c, ST_EFORMAT, "a compact sched intern table over 65536 "
                                  "entries");
            if (k->nint >= c->icap) {
                size_t cap = c->icap ? c->icap * 2 : 256;
                const uint8_t **s = realloc(c->istr, cap * sizeof(*s));
                if (s)
                    c->istr = s;
                size_t *l = s ? realloc(c->ilen, cap * sizeof(*l)) : NULL;
                if (!l)
                    return pfcut_fail(c, ST_ENOMEM, "out of memory");
                c->ilen = l;
                c->icap = cap;
            }
            c->istr[k->nint] = f.p;
            c->ilen[k->nint++] = f.len;
        }
        for (int i = 0; i < 6; i++) {
            if (i < 5 && f.num == sw_num[i]) {
                pb_packed_init(&k->s.c[i], &f);
                k->s.present |= 1 << i;
            }
            if (f.num == wk_num[i]) {
                pb_packed_init(&k->w.c[i], &f);
                k->w.present |= 1 << i;
            }
        }
    }
    return r ? pfcut_fail(c, ST_EFORMAT, "compact sched") : ST_OK;
}

static void cpu_set(struct pfcut_cpu *cpu, int64_t ts, const uint64_t *v,
                    const uint8_t *comm, size_t n)
{
    cpu->known = 1;
    cpu->ts = ts;
    cpu->state = v[1];
    cpu->pid = v[2];
    cpu->prio = v[3];
    cpu->commn = n < sizeof(cpu->comm) ? n : sizeof(cpu->comm);
    memcpy(cpu->comm, comm, cpu->commn);
}

static enum st_err add_row(struct pfcut *c, int first, int n, const uint64_t *v, int present)
{
    for (int i = 0; i < n; i++)
        if ((present & (1 << i)) && pbw_varint(&c->cols[first + i], v[i]))
            return pfcut_fail(c, ST_ENOMEM, "out of memory");
    return ST_OK;
}

/* The switches of piece j (or, j < 0, just the CPU's last switch); *fr
 * the one put in front (its comm goes at the end of the intern table). */
static enum st_err switches(struct pfcut *c, const uint8_t *p, size_t n, struct pfcut_cpu *cpu,
                            int j, size_t *kept, struct pfcut_cpu *fr)
{
    struct compact k;
    enum st_err e = compact_read(c, p, n, &k);
    uint64_t v[6], ts = 0;
    int64_t last = 0;
    struct pfcut_cpu prev = *cpu;
    int r;
    while (!e && (r = pb_cols_next(&k.s, v)) == 1) {
        ts += v[0];
        if (v[4] >= k.nint)
            return pfcut_fail(c, ST_EFORMAT, "a compact sched intern index past its table");
        if (j >= 0 && pfcut_piece_of(c, pfcut_ftrace_time(c, ts), NULL) == j) {
            if (!*kept && prev.known && cpu->sent != (uint32_t)j + 1 && prev.ts < (int64_t)ts) {
                uint64_t pv[5] = {(uint64_t)(prev.ts - last), prev.state, prev.pid, prev.prio,
                                  k.nint};
                last = prev.ts;
                e = add_row(c, 0, 5, pv, 0x1f);
                *fr = prev;
                (*kept)++;
            }
            v[0] = ts - (uint64_t)last;
            if (!e)
                e = add_row(c, 0, 5, v, 0x1f);
            v[0] = ts;
            last = (int64_t)ts;
            (*kept)++;
        }
        cpu_set(&prev, (int64_t)ts, v, c->istr[v[4]], c->ilen[v[4]]);
    }
    if (!e && r)
        return pfcut_fail(c, ST_EFORMAT, "compact sched switch arrays");
    if (j < 0) {
        prev.sent = cpu->sent;
        *cpu = prev;
    }
    return e;
}

static enum st_err wakings(struct pfcut *c, struct compact *k, int j, size_t *kept)
{
    uint64_t v[6], ts = 0, last = 0;
    int r;
    enum st_err e = ST_OK;
    while (!e && (r = pb_cols_next(&k->w, v)) == 1) {
        ts += v[0];
        if (pfcut_piece_of(c, pfcut_ftrace_time(c, ts), NULL) != j)
            continue;
        v[0] = ts - last;
        last = ts;
        e = add_row(c, 5, 6, v, k->w.present | 0x1f);
        (*kept)++;
    }
    return !e && r ? pfcut_fail(c, ST_EFORMAT, "compact sched waking arrays") : e;
}

/* CompactSched of piece j into c->b: the intern table (and the comm of a
 * switch put in front), the kept rows' columns. */
static enum st_err compact_of(struct pfcut *c, const uint8_t *p, size_t n,
                              struct pfcut_cpu *cpu, int j, size_t *kept)
{
    struct compact k;
    struct pfcut_cpu fr = {0};
    size_t ks = 0, kw = 0;
    for (int i = 0; i < 11; i++)
        dynbuf_reset(&c->cols[i]);
    dynbuf_reset(&c->b);
    enum st_err e = switches(c, p, n, cpu, j, &ks, &fr);
    if (!e)
        e = compact_read(c, p, n, &k);
    if (!e)
        e = wakings(c, &k, j, &kw);
    if (e || (!ks && !kw))
        return e;
    for (size_t i = 0; i < k.nint && !e; i++)
        e = pbw_bytes(&c->b, 5, c->istr[i], c->ilen[i]);
    if (!e && fr.known)
        e = pbw_bytes(&c->b, 5, fr.comm, fr.commn);     /* index k.nint */
    for (int i = 0; i < 5 && !e && ks; i++)
        e = pbw_bytes(&c->b, sw_num[i], c->cols[i].data, c->cols[i].len);
    for (int i = 0; i < 6 && !e && kw; i++)
        if (k.w.present & (1 << i) || i < 5)
            e = pbw_bytes(&c->b, wk_num[i], c->cols[5 + i].data, c->cols[5 + i].len);
    if (e)
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    if (ks)
        cpu->sent = (uint32_t)j + 1;
    *kept += ks + kw;
    return ST_OK;
}

/* ---- bundles ------------------------------------------------------------ */

struct span {
    int lo, hi, outside;
};

static void span_add(struct span *s, int i)
{
    if (i < 0) {
        s->outside = 1;
        return;
    }
    if (i < s->lo)
        s->lo = i;
    if (i > s->hi)
        s->hi = i;
}

/* An FtraceEvent's time, pid and print buffer (and its event's field
 * and message, when asked). */
static int event_of2(const uint8_t *p, size_t n, int64_t *ts, uint32_t *pid,
                     const uint8_t **buf, size_t *bn, struct pb_field *body)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    *ts = 0;
    *pid = 0;
    *buf = NULL;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            *ts = (int64_t)f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            *pid = (uint32_t)f.v;
        else if (body && f.num >= 3 && f.wire == PB_LEN)
            *body = f;
        if (f.num == 3 && f.wire == PB_LEN) {
            pb_iter_init(&in, f.p, f.len);
            while (pb_next(&in, &g) == 1)
                if (g.num == 2 && g.wire == PB_LEN)
                    *buf = g.p, *bn = g.len;
        }
    }
    return it.bad ? -1 : 0;
}

static int event_of(const uint8_t *p, size_t n, int64_t *ts, uint32_t *pid,
                    const uint8_t **buf, size_t *bn)
{
    return event_of2(p, n, ts, pid, buf, bn, NULL);
}

/* The times of a compact sched's rows, into the span (or the scan). */
static enum st_err compact_times(struct pfcut *c, const uint8_t *p, size_t n, struct span *s,
                                 int *first)
{
    struct compact k;
    uint64_t v[6];
    enum st_err e = compact_read(c, p, n, &k);
    size_t rows = 0, each = 0;
    if (!e && c->scanning) {    /* the bytes shared out over the rows */
        struct compact all = k;
        for (int g = 0; g < 2; g++)
            while (pb_cols_next(g ? &all.w : &all.s, v) == 1)
                rows++;
        each = rows ? n / rows + 1 : 0;
    }
    for (int g = 0; g < 2 && !e; g++) {
        struct pb_cols *col = g ? &k.w : &k.s;
        uint64_t ts = 0;
        int r;
        while ((r = pb_cols_next(col, v)) == 1) {
            ts += v[0];
            int64_t at = pfcut_ftrace_time(c, ts);
            if (at == INT64_MIN)
                c->st.unconverted++;
            if (c->scanning) {
                if (at != INT64_MIN)
                    pfcut_seen(c, at, each);
                continue;
            }
            int i = at == INT64_MIN ? -1 : pfcut_piece_of(c, at, NULL);
            if (!g && *first == -2)
                *first = i;
            span_add(s, i);
        }
        if (r)
            e = pfcut_fail(c, ST_EFORMAT, "compact sched arrays");
    }
    return e;
}

static enum st_err bundle_piece(struct pfcut *c, const uint8_t *pkt, size_t pn,
                                const uint8_t *p, size_t n, const uint8_t *cs, size_t csn,
                                struct pfcut_cpu *cpu, int j)
{
    static const uint64_t drop[2] = {1ull << 2 | 1ull << 4, 0};
    struct pb_iter it;
    struct pb_field f;
    size_t kept = 0;
    dynbuf_reset(&c->a);
    enum st_err e = pfcut_copy(&c->a, p, n, drop);
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        int64_t ts;
        uint32_t pid;
        const uint8_t *buf;
        size_t bn = 0;
        if (f.num != 2 || f.wire != PB_LEN || event_of(f.p, f.len, &ts, &pid, &buf, &bn))
            continue;
        ts = pfcut_ftrace_time(c, (uint64_t)ts);
        if (ts == INT64_MIN || pfcut_piece_of(c, ts, NULL) != j ||
            (buf && (pfcut_at_start(c, ts) || !pfcut_tid_kept(c, pid))))
            continue;
        e = pbw_bytes(&c->a, 2, f.p, f.len);
        kept++;
    }
    if (!e && cs && !(e = compact_of(c, cs, csn, cpu, j, &kept)) && c->b.len)
        e = pbw_bytes(&c->a, 4, c->b.data, c->b.len);
    if (e)
        return pfcut_fail(c, e == ST_EFORMAT ? e : ST_ENOMEM,
                          e == ST_EFORMAT ? "an ftrace bundle" : "out of memory");
    c->st.events += kept;
    return kept ? pfcut_repacket(c, j, pkt, pn, 1, (const uint8_t *)c->a.data, c->a.len, 0, 0)
                : ST_OK;
}

enum st_err pfcut_bundle(struct pfcut *c, uint32_t seq, const uint8_t *pkt, size_t pn,
                         const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t cpun = 0;
    const uint8_t *cs = NULL;
    size_t csn = 0;
    struct span s = {.lo = 1 << 30, .hi = -1};
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            cpun = f.v;
        else if (f.num == 4 && f.wire == PB_LEN)
            cs = f.p, csn = f.len;
        else if (f.num == 2 && f.wire == PB_LEN) {
            int64_t ts;
            uint32_t pid;
            const uint8_t *buf;
            size_t bn = 0;
            struct pb_field body = {0};
            if (event_of2(f.p, f.len, &ts, &pid, &buf, &bn, &body))
                return pfcut_fail(c, ST_EFORMAT, "an ftrace event");
            /* placed (and followed across pieces) on the trace's clock;
             * written as recorded */
            if ((ts = pfcut_ftrace_time(c, (uint64_t)ts)) == INT64_MIN) {
                c->st.unconverted++;
                s.outside = 1;      /* Perfetto drops it: in no piece */
                continue;
            }
            if (!c->scanning && body.num && !buf &&
                (e = pfcut_pair(c, (uint32_t)cpun, seq, pid, ts, body.num, body.p, body.len)))
                break;
            if ((body.num == 11 || body.num == 13) &&
                (e = pfcut_cpu_counter(c, (uint32_t)cpun, seq, pid, ts, body.num, body.p,
                                       body.len)))
                break;
            if (c->scanning)
                pfcut_seen(c, ts, f.len + 3);
            else
                span_add(&s, pfcut_piece_of(c, ts, NULL));
            if (buf && !pfcut_tid_kept(c, pid)) {
                s.outside = 1;      /* another process's (--process): left out */
                continue;
            }
            if (buf && !c->scanning && pfcut_at_start(c, ts))
                s.outside = 1;      /* not as it is: the print goes after (pfcut_at_start) */
            if (buf && (!c->scanning || c->find.name))
                e = pfcut_print(c, (uint32_t)cpun, seq, pid, ts, buf, bn);
        }
    }
    if (it.bad)
        return pfcut_fail(c, ST_EFORMAT, "an ftrace bundle");
    if (cpun >= PFCUT_CPUS)
        return pfcut_fail(c, ST_EFORMAT, "a CPU number over 1023");
    int first = -2;
    if (!e && cs)
        e = compact_times(c, cs, csn, &s, &first);
    if (e || c->scanning)
        return e;
    struct pfcut_cpu *cpu = &c->cpus[cpun];
    int front = first >= 0 && cpu->known && cpu->sent != (uint32_t)first + 1;
    if (!s.outside && s.lo == s.hi && !front) {
        /* all in one piece, nothing to put in front: as it is */
        size_t k = 0;
        struct pfcut_cpu fr;
        if (cs && first >= 0)
            cpu->sent = (uint32_t)first + 1;
        if (cs)
            e = switches(c, cs, csn, cpu, -1, &k, &fr);
        c->st.events++;
        return e ? e : pfcut_write(c, s.lo, pkt, pn);
    }
    for (int j = s.lo; j <= s.hi && !e; j++)
        e = bundle_piece(c, pkt, pn, p, n, cs, csn, cpu, j);
    size_t k = 0;
    struct pfcut_cpu fr;
    return !e && cs ? switches(c, cs, csn, cpu, -1, &k, &fr) : e;
}

/* ---- logcat ------------------------------------------------------------- */

/* A logcat line's time on the trace's clock; INT64_MIN for another
 * process's (--process), which no piece holds. */
static int64_t log_time(struct pfcut *c, uint32_t seq, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t ts = 0, pid = 0;
    int64_t out;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 5 && f.wire == PB_VARINT)
            ts = f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            pid = f.v;
    }
    if (!c->scanning && !pfcut_tid_kept(c, pid))
        return INT64_MIN;
    if (pfclk_convert(&c->clk, seq, PFCLK_REALTIME, ts, &out)) {
        c->st.unconverted++;
        return (int64_t)ts;
    }
    return out;
}

enum st_err pfcut_log(struct pfcut *c, uint32_t seq, const uint8_t *pkt, size_t pn,
                      const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    struct span s = {.lo = 1 << 30, .hi = -1};
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num != 1 || f.wire != PB_LEN)
            continue;
        int64_t ts = log_time(c, seq, f.p, f.len);
        if (c->scanning)
            pfcut_seen(c, ts, f.len + 3);
        else
            span_add(&s, pfcut_piece_of(c, ts, NULL));
    }
    if (it.bad)
        return pfcut_fail(c, ST_EFORMAT, "a logcat packet");
    if (c->scanning || s.hi < 0)
        return ST_OK;
    if (!s.outside && s.lo == s.hi)
        return pfcut_write(c, s.lo, pkt, pn);
    static const uint64_t drop[2] = {1ull << 1 | 1ull << 2, 0};
    enum st_err e = ST_OK;
    for (int j = s.lo; j <= s.hi && !e; j++) {
        size_t kept = 0;
        dynbuf_reset(&c->a);
        e = pfcut_copy(&c->a, p, n, drop);
        pb_iter_init(&it, p, n);
        while (!e && pb_next(&it, &f) == 1)
            if (f.num == 1 && f.wire == PB_LEN &&
                pfcut_piece_of(c, log_time(c, seq, f.p, f.len), NULL) == j) {
                e = pbw_bytes(&c->a, 1, f.p, f.len);
                kept++;
            }
        if (e)
            return pfcut_fail(c, ST_ENOMEM, "out of memory");
        if (kept)
            e = pfcut_repacket(c, j, pkt, pn, 39, (const uint8_t *)c->a.data, c->a.len, 0, 0);
    }
    return e;
}
