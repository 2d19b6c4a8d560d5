/*
 * sched_switch and sched_waking as Perfetto prints them, from a full event
 * or from compact sched's arrays, and the prev_state letters (Perfetto's
 * types/task_state.cc): bits up to 0x20 (S D T t X Z) never changed; above
 * them the layout depends on the kernel (before 4.8: 4.4's, preempted 0x800;
 * 4.8-4.13: preempted 0x1000; 4.14+: P 0x40, I 0x80, preempted 0x100, any
 * higher bit invalid "?"), unknown kernels read as 4.4.  A runnable task
 * prints "R" ("R+" preempted); letters are joined with '|' and, like
 * Perfetto's 4-byte buffer, cut at 3 characters.  The layout is that of
 * the ctx's sched_* version: the trace reader gives it the trace's kernel,
 * as Perfetto's sched importer does, so that Perfetto reading the page
 * (which reads the letters by 4.4's table, kernel-free) finds the end state
 * it finds in the trace; to_ftrace ignores the version (deviation: on 4.8+
 * kernels the page's letters differ from to_ftrace's, e.g. 4.14+'s 0x80 is
 * "I", not "K", and 0x100 "R+", not "W").  A switch's or a
 * wakeup's empty comm is written "<...>" (to_ftrace: nothing), which both
 * viewers accept.  Also GenericFtraceEvent,
 * whose name and fields are carried in the message.
 */
#include "pfevent_int.h"

#include <string.h>

#include "lib/numfmt.h"

enum {
    TS_S = 0x1, TS_D = 0x2, TS_T = 0x4, TS_t = 0x8, TS_X = 0x10, TS_Z = 0x20,
    TS_P = 0x40, TS_x = 0x80, TS_K = 0x100, TS_W = 0x200, TS_N = 0x400,
    TS_I = 0x4000, TS_PREEMPT = 0x8000, TS_INVALID = 0xffff,
};

static int at_least(const struct pfevent_ctx *c, int major, int minor)
{
    int ma = c->sched_major, mi = c->sched_minor;
    if (ma == 0 && mi == 0) {
        ma = 4;
        mi = 4;
    }
    return ma > major || (ma == major && mi >= minor);
}

static unsigned parse_state(const struct pfevent_ctx *c, uint16_t raw)
{
    unsigned p = raw & 0x3f;
    if (at_least(c, 4, 14)) {
        if (raw & 0x40)
            p |= TS_P;
        if (raw & 0x80)
            p |= TS_I;
        if (raw & 0x100)
            p |= TS_PREEMPT;
        return (raw & 0xfe00) ? TS_INVALID : p;
    }
    static const struct { uint16_t raw, flag; } old[] = {
        {0x40, TS_x}, {0x80, TS_K}, {0x100, TS_W}, {0x200, TS_P}, {0x400, TS_N},
    };
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
        if (raw & old[i].raw)
            p |= old[i].flag;
    if (p == (TS_D | TS_N))
        p = TS_I;
    if (raw & (at_least(c, 4, 8) ? 0x1000 : 0x800))
        p |= TS_PREEMPT;
    return p;
}

void pfevent_task_state(const struct pfevent_ctx *c, int64_t prev_state, char buf[4])
{
    static const struct { uint16_t flag; char ch; } letters[] = {
        {TS_S, 'S'}, {TS_D, 'D'}, {TS_T, 'T'}, {TS_t, 't'}, {TS_X, 'X'}, {TS_Z, 'Z'},
        {TS_P, 'P'}, {TS_x, 'x'}, {TS_K, 'K'}, {TS_W, 'W'}, {TS_N, 'N'}, {TS_I, 'I'},
    };
    unsigned p = parse_state(c, (uint16_t)prev_state);
    char tmp[32];
    size_t n = 0;

    if (p == TS_INVALID) {
        memcpy(buf, "?", 2);
        return;
    }
    if (!(p & ~(unsigned)TS_PREEMPT)) {
        tmp[n++] = 'R';
        if (p & TS_PREEMPT)
            tmp[n++] = '+';
    } else {
        for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++) {
            if (!(p & letters[i].flag))
                continue;
            if (n)
                tmp[n++] = '|';
            tmp[n++] = letters[i].ch;
        }
    }
    if (n > 3)
        n = 3;
    memcpy(buf, tmp, n);
    buf[n] = '\0';
}

struct sw {
    const char *pc, *nc;
    size_t pcn, ncn;
    int64_t ppid, pprio, state, npid, nprio;
};

/* " key=" and a comm, as pfw_arg writes a string (to its first NUL). */
static void put_comm_lit(struct pfw *w, const char *kv, size_t kvn, const char *s, size_t n)
{
    struct pfv v = {PFV_STR, 0, 0, s ? s : "", s ? n : 0};
    pfw_put(w, kv, kvn);
    pfw_value(w, &v);
}
#define put_comm(w, key, s, n) put_comm_lit(w, " " key "=", sizeof(" " key "=") - 1, s, n)

/* The numbers and literals between the comms are built in a local buffer
 * and added at once: the compact sched events are most of a trace's
 * lines, and an add per piece with a digit loop each was a tenth of the
 * formatting thread. */
static char *put_i64(char *q, int64_t v)
{
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    size_t n = numfmt_len(u);
    if (v < 0)
        *q++ = '-';
    numfmt_put(q, u, n);
    return q + n;
}

static char *put_lit(char *q, const char *s, size_t n)
{
    memcpy(q, s, n);
    return q + n;
}
#define LIT(q, s) put_lit(q, s, sizeof(s) - 1)

/* A switch's empty comm is written "<...>", as the kernel writes a comm it
 * does not know (deviation: to_ftrace writes nothing): the classic viewer's
 * sched_switch pattern needs one character at least, and it drops a switch
 * it cannot match ("Malformed sched_switch event") with its CPU slices;
 * Perfetto reads "<...>" as any name.  (sched_waking, which the classic
 * viewer does not read, keeps to_ftrace's text.) */
static void put_switch_comm(struct pfw *w, const char *kv, size_t kvn, const char *s, size_t n)
{
    if (!s || !n) {
        s = PFEVENT_NO_COMM;
        n = sizeof(PFEVENT_NO_COMM) - 1;
    }
    put_comm_lit(w, kv, kvn, s, n);
}

static void put_switch(struct pfw *w, const struct sw *s)
{
    char buf[128], st[4], *q;
    pfevent_task_state(w->c, s->state, st);
    put_switch_comm(w, " prev_comm=", 11, s->pc, s->pcn);
    q = put_i64(LIT(buf, " prev_pid="), s->ppid);
    q = put_i64(LIT(q, " prev_prio="), s->pprio);
    q = put_lit(LIT(q, " prev_state="), st, strlen(st));
    pfw_put(w, buf, (size_t)(LIT(q, " ==>") - buf));
    put_switch_comm(w, " next_comm=", 11, s->nc, s->ncn);
    q = put_i64(LIT(buf, " next_pid="), s->npid);
    q = put_i64(LIT(q, " next_prio="), s->nprio);
    pfw_put(w, buf, (size_t)(q - buf));
}

enum st_err pfevent_sched_switch(const struct pfevent_ctx *c, const struct pf_switch *s,
                                 struct dynbuf *out)
{
    struct pfw w = {c, out, ST_OK, 0};
    struct sw x = {s->prev_comm, s->next_comm, s->prev_comm ? strlen(s->prev_comm) : 0,
                   s->next_comm ? strlen(s->next_comm) : 0, s->prev_pid, s->prev_prio,
                   s->prev_state, s->next_pid, s->next_prio};
    put_switch(&w, &x);
    return w.err;
}

enum st_err pfevent_sched_waking(const struct pfevent_ctx *c, const struct pf_waking *wk,
                                 struct dynbuf *out)
{
    struct pfw w = {c, out, ST_OK, 0};
    char buf[96], *q;
    put_comm(&w, "comm", wk->comm, wk->comm ? strlen(wk->comm) : 0);
    q = put_i64(LIT(buf, " pid="), wk->pid);
    q = put_i64(LIT(q, " prio="), wk->prio);
    q = put_i64(LIT(q, " target_cpu="), wk->target_cpu);
    pfw_put(&w, buf, (size_t)(q - buf));
    return w.err;
}

/* A full sched_switch: Perfetto's importer rebuilds all seven args from the
 * decoded message (absent fields 0 or "", the last of repeated ones),
 * whatever else the message held. */
enum st_err pfevent_switch_msg(const struct pfev *e, struct pfw *w)
{
    struct pb_iter it;
    struct pb_field f;
    struct sw s;
    int r;

    memset(&s, 0, sizeof s);
    pb_iter_init(&it, e->msg, e->len);
    while ((r = pb_next(&it, &f)) == 1) {
        int is_str = f.num == 1 || f.num == 5;
        if (f.num < 1 || f.num > 7 || is_str != (f.wire == PB_LEN))
            continue;
        switch (f.num) {
        case 1: s.pc = (const char *)f.p; s.pcn = f.len; break;
        case 5: s.nc = (const char *)f.p; s.ncn = f.len; break;
        case 2: s.ppid = (uint32_t)f.v; break;
        case 3: s.pprio = (int32_t)(uint32_t)f.v; break;
        case 4: s.state = (int64_t)f.v; break;
        case 6: s.npid = (uint32_t)f.v; break;
        case 7: s.nprio = (int32_t)(uint32_t)f.v; break;
        }
    }
    if (r < 0)
        return ST_EFORMAT;
    put_switch(w, &s);
    return w->err;
}

enum st_err pfevent_generic_name(const uint8_t *msg, size_t len, const char **name,
                                 size_t *name_len)
{
    struct pb_iter it;
    struct pb_field f;
    int r;
    *name = "";
    *name_len = 0;
    pb_iter_init(&it, msg, len);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_LEN) {
            *name = (const char *)f.p;
            *name_len = f.len;
        }
    }
    return r < 0 ? ST_EFORMAT : ST_OK;
}

/* One GenericFtraceEvent.Field: name 1, str_value 3, int_value 4,
 * uint_value 5 (kept signed, as Perfetto does); none of them: no arg. */
static int generic_field(const struct pb_field *outer, struct pfv *v, const char **key,
                         size_t *key_len, int *bad)
{
    struct pb_iter it;
    struct pb_field f;
    int have_int = 0, have_uint = 0, have_str = 0, r;
    int64_t iv = 0;
    uint64_t uv = 0;

    *key = "";
    *key_len = 0;
    memset(v, 0, sizeof *v);
    pb_iter_init(&it, outer->p, outer->len);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_LEN) {
            *key = (const char *)f.p;
            *key_len = f.len;
        } else if (f.num == 3 && f.wire == PB_LEN) {
            have_str = 1;
            v->s = (const char *)f.p;
            v->n = f.len;
        } else if (f.num == 4 && f.wire != PB_LEN) {
            have_int = 1;
            iv = (int64_t)f.v;
        } else if (f.num == 5 && f.wire != PB_LEN) {
            have_uint = 1;
            uv = f.v;
        }
    }
    if (r < 0)
        *bad = 1;
    if (have_int || have_uint) {
        v->kind = PFV_INT;
        v->i = have_int ? iv : (int64_t)uv;
        return 1;
    }
    v->kind = PFV_STR;
    return have_str;
}

enum st_err pfevent_generic(const struct pfevent_ctx *c, const uint8_t *msg, size_t len,
                            struct dynbuf *out)
{
    struct pfw w = {c, out, ST_OK, 0};
    struct pb_iter it;
    struct pb_field f;
    int r, bad = 0;

    pb_iter_init(&it, msg, len);
    while ((r = pb_next(&it, &f)) == 1 && !w.cut && !bad) {
        struct pfv v;
        const char *key;
        size_t key_len;
        if (f.num != 2 || f.wire != PB_LEN)
            continue;
        if (!generic_field(&f, &v, &key, &key_len, &bad) || bad)
            continue;
        pfw_put(&w, " ", 1);
        pfw_put(&w, key, key_len);
        pfw_put(&w, "=", 1);
        if (key_len == 9 && memcmp(key, "gfp_flags", 9) == 0)
            pfevent_gfp(&w, (uint64_t)v.i);
        else
            pfw_value(&w, &v);
    }
    if (r < 0 || bad)
        return ST_EFORMAT;
    return w.err;
}
