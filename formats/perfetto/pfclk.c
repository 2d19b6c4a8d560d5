/*
 * A Perfetto trace's clocks and the conversion of timestamps to the
 * trace's clock (pfclk.h), after Perfetto's ClockTracker.
 */
#include "pfclk.h"

#include <stdlib.h>
#include <string.h>

#include "pb.h"

void pfclk_init(struct pfclk *c)
{
    memset(c, 0, sizeof(*c));
    c->trace_clock = PFCLK_BOOTTIME;
}

void pfclk_free(struct pfclk *c)
{
    for (uint32_t i = 0; i < c->ngroups; i++)
        free(c->groups[i].ts);
    pfclk_init(c);
}

static int seq_clock(uint64_t id)
{
    return id >= 64 && id <= 127;
}

static uint64_t key_of(uint32_t seq, uint64_t id)
{
    return seq_clock(id) ? (uint64_t)seq << 32 | id : id;
}

static struct pfclk_clock *clock_of(struct pfclk *c, uint64_t key, int create)
{
    for (uint32_t i = 0; i < c->nclocks; i++)
        if (c->clocks[i].id == key)
            return &c->clocks[i];
    if (!create || c->nclocks >= PFCLK_CLOCKS)
        return NULL;
    struct pfclk_clock *k = &c->clocks[c->nclocks++];
    memset(k, 0, sizeof(*k));
    k->id = key;
    k->mult = 1;
    return k;
}

struct snap_clock {
    uint64_t key, mult;
    int64_t ns;
    int incremental;
};

/* Clock: clock_id 1, timestamp 2, is_incremental 3, unit_multiplier_ns 4. */
static int read_clock(uint32_t seq, const uint8_t *p, size_t n, struct snap_clock *s)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t id = 0, ts = 0;
    int k;
    memset(s, 0, sizeof(*s));
    s->mult = 1;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.wire != PB_VARINT)
            continue;
        if (f.num == 1)
            id = f.v;
        else if (f.num == 2)
            ts = f.v;
        else if (f.num == 3)
            s->incremental = f.v != 0;
        else if (f.num == 4 && f.v)
            s->mult = f.v;
    }
    s->key = key_of(seq, id);
    s->ns = (int64_t)(ts * s->mult);
    return k || !id || (seq_clock(id) && !seq) ? -1 : 0;
}

/* The group of exactly these clocks (in the snapshot's order), made on
 * first sight. */
static struct pfclk_group *group_of(struct pfclk *c, const struct snap_clock *s, uint32_t n)
{
    for (uint32_t g = 0; g < c->ngroups; g++) {
        struct pfclk_group *gr = &c->groups[g];
        uint32_t i = 0;
        while (gr->n == n && i < n && gr->ids[i] == s[i].key)
            i++;
        if (gr->n == n && i == n)
            return gr;
    }
    if (c->ngroups >= PFCLK_GROUPS)
        return NULL;
    struct pfclk_group *gr = &c->groups[c->ngroups++];
    memset(gr, 0, sizeof(*gr));
    gr->n = n;
    for (uint32_t i = 0; i < n; i++)
        gr->ids[i] = s[i].key;
    return gr;
}

/* A row of timestamps added, unless one goes back (Perfetto refuses the
 * snapshot then) or a bound is passed. */
static int add_row(struct pfclk_group *gr, const struct snap_clock *s)
{
    if (gr->count) {
        const int64_t *last = gr->ts + (size_t)(gr->count - 1) * gr->n;
        for (uint32_t i = 0; i < gr->n; i++)
            if (s[i].ns < last[i])
                return -1;
    }
    if (gr->count == gr->cap) {
        uint32_t cap = gr->cap ? gr->cap * 2 : 4;
        if (cap > PFCLK_SNAPS)
            return -1;
        int64_t *ts = realloc(gr->ts, (size_t)cap * gr->n * sizeof(*ts));
        if (!ts)
            return -1;
        gr->ts = ts;
        gr->cap = cap;
    }
    int64_t *row = gr->ts + (size_t)gr->count++ * gr->n;
    for (uint32_t i = 0; i < gr->n; i++)
        row[i] = s[i].ns;
    return 0;
}

/* The clock a snapshot names: its primary_trace_clock, else BOOTTIME when
 * it holds BOOTTIME and not TRACE_FILE (Perfetto v58's ParseClockSnapshot,
 * for traces from before primary_trace_clock); 0 for none. */
static uint64_t named_clock(uint64_t primary, const struct snap_clock *s, uint32_t n)
{
    int boot = 0, file = 0;
    for (uint32_t i = 0; i < n; i++) {
        boot |= s[i].key == PFCLK_BOOTTIME;
        file |= s[i].key == PFCLK_TRACE_FILE;
    }
    return primary ? primary : boot && !file ? PFCLK_BOOTTIME : 0;
}

void pfclk_snapshot(struct pfclk *c, uint32_t seq, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    struct snap_clock s[PFCLK_IN_GROUP];
    uint32_t count = 0;
    uint64_t primary = 0;
    int k, bad = 0;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 2 && f.wire == PB_VARINT)
            primary = f.v;
        if (f.num != 1 || f.wire != PB_LEN)
            continue;
        if (count == PFCLK_IN_GROUP || read_clock(seq, f.p, f.len, &s[count]))
            bad = 1;
        else
            count++;
    }
    /* from here on packets without a clock are on the clock it names; the
     * trace's clock follows it until a time was converted to it */
    uint64_t named = k ? 0 : named_clock(primary, s, count);
    if (named) {
        c->default_clock = named;
        if (!c->trace_clock_used)
            c->trace_clock = named;
    }
    struct pfclk_group *gr = k || bad || count < 2 ? NULL : group_of(c, s, count);
    if (!gr || add_row(gr, s)) {
        c->dropped++;
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        struct pfclk_clock *ck = clock_of(c, s[i].key, 1);
        if (!ck)
            continue;
        ck->incremental = s[i].incremental;
        ck->mult = s[i].mult;
        ck->last = s[i].ns;
    }
}

static int in_group(const struct pfclk_group *gr, uint64_t key)
{
    for (uint32_t i = 0; i < gr->n; i++)
        if (gr->ids[i] == key)
            return (int)i;
    return -1;
}

/* One step: ns on clock column a of the group to column b. */
static int64_t step(const struct pfclk_group *gr, int a, int b, int64_t ns)
{
    uint32_t lo = 0, hi = gr->count;    /* the first row after ns, by bisection */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (gr->ts[(size_t)mid * gr->n + (uint32_t)a] <= ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    const int64_t *row = gr->ts + (size_t)(lo ? lo - 1 : 0) * gr->n;
    /* wrapping as the device's clocks would: no signed overflow */
    return (int64_t)((uint64_t)row[b] + ((uint64_t)ns - (uint64_t)row[a]));
}

/* Breadth first from one clock to another (the trace's), as Perfetto
 * finds its path. */
static int path_convert(const struct pfclk *c, uint64_t from, uint64_t dest, int64_t ns,
                        int64_t *out)
{
    uint64_t node[PFCLK_CLOCKS];
    int prev[PFCLK_CLOCKS], via[PFCLK_CLOCKS];
    int head = 0, tail = 0, found = -1;
    node[tail] = from, prev[tail] = -1, via[tail++] = -1;
    while (head < tail && found < 0) {
        int at = head++;
        for (uint32_t g = 0; g < c->ngroups && found < 0; g++) {
            if (in_group(&c->groups[g], node[at]) < 0 || !c->groups[g].count)
                continue;
            for (uint32_t i = 0; i < c->groups[g].n && tail < PFCLK_CLOCKS; i++) {
                uint64_t to = c->groups[g].ids[i];
                int seen = 0;
                for (int j = 0; j < tail; j++)
                    seen |= node[j] == to;
                if (seen)
                    continue;
                node[tail] = to, prev[tail] = at, via[tail] = (int)g;
                if (to == dest)
                    found = tail;
                tail++;
            }
        }
    }
    if (found < 0)
        return -1;
    int hops[PFCLK_CLOCKS], nh = 0;
    for (int at = found; prev[at] >= 0; at = prev[at])
        hops[nh++] = at;
    while (nh--) {
        int at = hops[nh];
        const struct pfclk_group *gr = &c->groups[via[at]];
        ns = step(gr, in_group(gr, node[prev[at]]), in_group(gr, node[at]), ns);
    }
    *out = ns;
    return 0;
}

int pfclk_convert(struct pfclk *c, uint32_t seq, uint64_t id, uint64_t ts, int64_t *out)
{
    uint64_t key = key_of(seq, id);
    struct pfclk_clock *ck = clock_of(c, key, 0);
    int64_t ns = (int64_t)(ts * (ck ? ck->mult : 1));
    if (ck && ck->incremental)
        ns = ck->last = (int64_t)((uint64_t)ck->last + (uint64_t)ns);
    c->trace_clock_used = 1;
    if (key == c->trace_clock) {
        *out = ns;
        return 0;
    }
    return path_convert(c, key, c->trace_clock, ns, out);
}

int pfclk_boot_to_trace(struct pfclk *c, uint64_t ts, int64_t *out)
{
    if (c->trace_clock == PFCLK_BOOTTIME) {     /* the usual trace: as it is */
        c->trace_clock_used = 1;
        *out = (int64_t)ts;
        return 0;
    }
    return pfclk_convert(c, 0, PFCLK_BOOTTIME, ts, out);
}

int pfclk_from_trace(const struct pfclk *c, uint64_t id, int64_t ns, int64_t *out)
{
    int64_t back;
    if (id == c->trace_clock) {
        *out = ns;
        return 0;
    }
    if (path_convert(c, c->trace_clock, id, ns, out))
        return -1;
    /* each step offsets by the snapshot at or before the time on its own
     * side, so where the clocks drifted apart since (a suspend, which
     * BOOTTIME counts and MONOTONIC does not) the way back may use another
     * snapshot: corrected once by the way forth */
    if (!path_convert(c, id, c->trace_clock, *out, &back))
        *out = (int64_t)((uint64_t)*out + ((uint64_t)ns - (uint64_t)back));
    return 0;
}

int pfclk_packet_defaults(const uint8_t *p, size_t n, uint32_t *clock, uint64_t *track)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    int has_track = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 58 && f.wire == PB_VARINT)
            *clock = (uint32_t)f.v;
        if (f.num != 11 || f.wire != PB_LEN)
            continue;
        pb_iter_init(&in, f.p, f.len);
        while (pb_next(&in, &g) == 1)
            if (g.num == 11 && g.wire == PB_VARINT) {
                *track = g.v;
                has_track = 1;
            }
    }
    return has_track;
}
