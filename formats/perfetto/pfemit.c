/*
 * Sorted records to systrace lines, with the state Perfetto's importer
 * keeps as it reads events in timestamp order: thread names and TGIDs
 * (pfnames.h) and the task running on each CPU (the prev_* of a compact
 * switch, the task a compact waking is charged to).
 *
 * The prefix is to_ftrace's SerializePrefix: the thread name right-aligned
 * in 16 columns with '-' written '_' (<idle> for tid 0, <unknown> when no
 * name is known), "-TID" with the tid padded to 5, " (TGID)" padded to 5 or
 * "(-----)", " [CPU]" zero-padded to 3, " .... ", seconds "." microseconds
 * (6 digits), ':', then " NAME:" and the body (pfevent.h).  Perfetto names
 * a thread by the last name it learned in the whole trace; a streaming
 * reader knows the name so far, else the name pass 1 found in a process
 * tree.  Deviation: line breaks inside a body (a print's text) become
 * spaces, since a line of the page is one event.
 */
#include "pftrace_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/numfmt.h"
#include "pb.h"

/* The reader's error text, set once (pftrace.c and this file both call
 * down to here). */
enum st_err pf_fail(struct pftrace *t, enum st_err e, const char *fmt, ...)
{
    if (t->detail[0])
        return e;       /* the first word on what went wrong stays */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->detail, sizeof(t->detail), fmt, ap);
    va_end(ap);
    return e;
}

enum st_err pf_efail(struct pftrace *t, enum st_err e, const char *fmt, ...)
{
    if (t->edetail[0])
        return e;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->edetail, sizeof(t->edetail), fmt, ap);
    va_end(ap);
    return e;
}

#define CLONE_THREAD 0x10000u

void pf_uname(struct pftrace *t, const uint8_t *p, size_t n)
{
    struct pb_iter it, u;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num != 1 || f.wire != PB_LEN)
            continue;
        const char *sys = "", *rel = "";
        size_t sn = 0, rn = 0;
        pb_iter_init(&u, f.p, f.len);
        struct pb_field g;
        while (pb_next(&u, &g) == 1) {
            if (g.num == 1 && g.wire == PB_LEN)
                sys = (const char *)g.p, sn = g.len;
            else if (g.num == 3 && g.wire == PB_LEN)
                rel = (const char *)g.p, rn = g.len;
        }
        /* prev_state's letters follow the kernel version, as Perfetto's
         * sched importer decodes them (to_ftrace does not: it prints the
         * 4.4 letters whatever the version); gfp_flags stay to_ftrace's. */
        struct pfevent_ctx k;
        memset(&k, 0, sizeof(k));
        pfevent_ctx_uname(&k, sys, sn, rel, rn);
        t->ev.sched_major = k.sched_major;
        t->ev.sched_minor = k.sched_minor;
        t->have_uname = 1;
    }
}

enum st_err pf_flush_out(struct pftrace *t)
{
    if (!t->out.len)
        return ST_OK;
    enum st_err e = t->write ? t->write(t->wctx, t->out.data, t->out.len) : ST_OK;
    dynbuf_reset(&t->out);
    return e;
}

/* v right-aligned in width (0: as long as it is), into q; returns the end. */
static char *put_int(char *q, uint64_t v, int width, char pad)
{
    size_t n = numfmt_len(v);
    for (size_t i = n; i < (size_t)width; i++)
        *q++ = pad;
    numfmt_put(q, v, n);
    return q + n;
}

static const char *thread_name(const struct pftrace *t, uint32_t tid)
{
    if (!tid)
        return "<idle>";
    const char *s = pfnames_name(t->names, tid);
    if (!*s)
        s = pfnames_name(t->scan_names, tid);
    return *s ? s : "<unknown>";
}

/* A name's byte as the line shows it: '-' would end the task's name, and
 * a line end inside a line would end the line. */
static char name_byte(char c)
{
    return c == '-' ? '_' : c == '\n' || c == '\r' ? ' ' : c;
}

/* The thread's part of the prefix (struct pf_head), built: names are at
 * most PFN_NAME - 1 bytes, numbers at most 10 digits. */
static const struct pf_head *head_of(struct pftrace *t, uint32_t tid)
{
    struct pf_head *h = &t->head[tid % PF_HEADS];
    uint64_t g = pfnames_gen(t->names), sg = pfnames_gen(t->scan_names);
    if (h->len && h->tid == tid && h->gen == g && h->scan_gen == sg)
        return h;
    char *q = h->s;
    const char *name = thread_name(t, tid);
    size_t len = strlen(name);
    for (size_t i = len; i < 16; i++)
        *q++ = ' ';
    for (size_t i = 0; i < len; i++)
        *q++ = name_byte(name[i]);
    *q++ = '-';
    char *at = q;
    q = put_int(q, tid, 0, ' ');
    while (q - at < 5)
        *q++ = ' ';
    *q++ = ' ';
    *q++ = '(';
    uint32_t tgid = tid ? pfnames_tgid(t->names, tid) : 0;
    if (tid && !tgid)
        tgid = pfnames_tgid(t->scan_names, tid);
    if (tgid)
        q = put_int(q, tgid, 5, ' ');
    else
        for (int i = 0; i < 5; i++)
            *q++ = '-';
    memcpy(q, ") [", 3);
    h->len = (uint32_t)(q + 3 - h->s);
    h->tid = tid;
    h->gen = g;
    h->scan_gen = sg;
    return h;
}

/* The line's start, built in a local buffer after the thread's part: the
 * CPU, the time (40 bytes at most) and " EVENT:" (names of the table are
 * short; a longer one is added on its own). */
static void begin(struct pftrace *t, uint32_t tid, uint32_t cpu, int64_t ts, const char *name,
                  size_t nlen)
{
    const struct pf_head *h = head_of(t, tid);
    char buf[PF_HEAD_MAX + 48 + 64], *q = buf + h->len;
    t->line_at = t->out.len;
    memcpy(buf, h->s, h->len);
    q = put_int(q, cpu, 3, '0');
    memcpy(q, "] .... ", 7);
    q += 7;
    int64_t secs = ts / 1000000000, micros = (ts - secs * 1000000000) / 1000;
    if (ts < 0) {
        *q++ = '-';
        secs = -secs;
        micros = -micros;
    }
    q = put_int(q, (uint64_t)secs, 0, ' ');
    *q++ = '.';
    q = put_int(q, (uint64_t)micros, 6, '0');
    *q++ = ':';
    *q++ = ' ';
    if (nlen <= 62) {
        memcpy(q, name, nlen);
        q[nlen] = ':';
        dynbuf_add(&t->out, buf, (size_t)(q + nlen + 1 - buf));
        return;
    }
    dynbuf_add(&t->out, buf, (size_t)(q - buf));
    dynbuf_add(&t->out, name, nlen);
    dynbuf_addc(&t->out, ':');
}

static void blank_out(char *p, size_t n, int c)
{
    for (char *q = p; (q = memchr(q, c, n - (size_t)(q - p))) != NULL;)
        *q++ = ' ';
}

/* Line ends, CRs and NULs inside a line become spaces. */
static void blank_controls(char *p, size_t n)
{
    blank_out(p, n, '\n');
    blank_out(p, n, '\r');
    blank_out(p, n, '\0');
}

static enum st_err body_error(struct pftrace *t, enum st_err e, const char *name, int64_t ts)
{
    if (e == ST_ETOOBIG)
        return pf_efail(t, e, "an ftrace line over 1 MB (a %s event at %lld ns)", name,
                       (long long)ts);
    return pf_efail(t, ST_EFORMAT, "malformed Perfetto trace: a %s event at %lld ns cannot "
                   "be read", name, (long long)ts);
}

/* The line built since begin() ends (e: its body's error), as a line of
 * at most PF_LINE_MAX bytes with its LF; blank: it may hold bytes of the
 * trace that are no names (else names came through name_byte). */
static enum st_err end(struct pftrace *t, enum st_err e, const char *name, int64_t ts,
                       int blank)
{
    size_t n = t->out.len - t->line_at;
    if (!e && n >= PF_LINE_MAX)
        e = ST_ETOOBIG;
    if (!e)
        e = dynbuf_addc(&t->out, '\n');
    if (e) {
        t->out.len = t->line_at;
        return body_error(t, e, name, ts);
    }
    if (blank)
        blank_controls(t->out.data + t->line_at, n);
    t->st.lines++;
    return t->out.len >= PF_OUT_CHUNK ? pf_flush_out(t) : ST_OK;
}

/* ---- full events that change state ---------------------------------------- */

struct pf_full_switch {
    const uint8_t *prev_comm, *next_comm;
    size_t pcn, ncn;
    uint32_t prev_pid, next_pid;
    int32_t next_prio;
};

static int read_switch(const uint8_t *p, size_t n, struct pf_full_switch *s)
{
    struct pb_iter it;
    struct pb_field f;
    memset(s, 0, sizeof(*s));
    pb_iter_init(&it, p, n);
    int r;
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_LEN)
            s->prev_comm = f.p, s->pcn = f.len;
        else if (f.num == 2 && f.wire == PB_VARINT)
            s->prev_pid = (uint32_t)f.v;
        else if (f.num == 5 && f.wire == PB_LEN)
            s->next_comm = f.p, s->ncn = f.len;
        else if (f.num == 6 && f.wire == PB_VARINT)
            s->next_pid = (uint32_t)f.v;
        else if (f.num == 7 && f.wire == PB_VARINT)
            s->next_prio = (int32_t)f.v;
    }
    return r;
}

/* sched_switch, task_newtask, task_rename: names and the CPU's task.
 * *tid: whose line it is (a switch is the previous task's, as in Perfetto). */
static int state_of(struct pftrace *t, const struct pfrec *r, const uint8_t *p, size_t n,
                    uint32_t *tid)
{
    struct pb_iter it;
    struct pb_field f;
    *tid = r->pid;
    if (r->id == 4) {
        struct pf_full_switch s;
        if (read_switch(p, n, &s))
            return -1;
        pfnames_thread(t->names, s.next_pid, (const char *)s.next_comm, s.ncn, PFN_FTRACE);
        pfnames_thread(t->names, s.prev_pid, (const char *)s.prev_comm, s.pcn, PFN_FTRACE);
        t->cpu[r->cpu] = (struct pf_cpu){1, s.next_pid, s.next_prio};
        *tid = s.prev_pid;
        return 0;
    }
    if (r->id != 235 && r->id != 236)
        return 0;
    uint32_t pid = 0;
    uint64_t flags = 0;
    const uint8_t *comm = NULL;
    size_t cn = 0;
    pb_iter_init(&it, p, n);
    int k;
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            pid = (uint32_t)f.v;
        else if (f.num == 3 && f.wire == PB_VARINT)
            flags = f.v;
        else if (f.num == (r->id == 235 ? 2u : 3u) && f.wire == PB_LEN)
            comm = f.p, cn = f.len;
    }
    if (k)
        return -1;
    if (r->id == 236 && comm)
        pfnames_thread(t->names, pid, (const char *)comm, cn, PFN_FTRACE);
    if (r->id == 235) {
        uint32_t tgid = pid;
        if (flags & CLONE_THREAD) {
            tgid = pfnames_tgid(t->names, r->pid);
            if (!tgid)
                tgid = pfnames_tgid(t->scan_names, r->pid);
        } else {
            uint32_t parent = pfnames_tgid(t->names, r->pid);
            pfnames_process(t->names, pid, parent ? parent : r->pid);
        }
        pfnames_new_thread(t->names, pid, comm ? (const char *)comm : "", cn, tgid);
    }
    return 0;
}

/* Pass 1 of one event: only new tasks and renames matter. */
static void scan_event(struct pftrace *t, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    struct pfrec r = {.kind = PFR_EVENT};
    const uint8_t *msg = NULL;
    size_t len = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 2 && f.wire == PB_VARINT)
            r.pid = (uint32_t)f.v;
        else if ((f.num == 235 || f.num == 236) && f.wire == PB_LEN)
            r.id = f.num, msg = f.p, len = f.len;
    }
    if (!msg)
        return;
    /* state_of works on pass 2's table: point it at pass 1's for a moment */
    struct pfnames *keep = t->names;
    t->names = t->scan_names;
    uint32_t tid;
    state_of(t, &r, msg, len, &tid);
    t->names = keep;
}

enum st_err pf_scan_bundle(struct pftrace *t, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 2 && f.wire == PB_LEN)
            scan_event(t, f.p, f.len);
    return ST_OK;   /* what is malformed, pass 2 reports */
}

static enum st_err event_line(struct pftrace *t, int64_t ts, const struct pfrec *r,
                              const uint8_t *p, size_t n)
{
    const char *name = pfevent_name(r->id);
    size_t nlen = name ? strlen(name) : 0;
    if (r->id == PFEVENT_GENERIC_ID && pfevent_generic_name(p, n, &name, &nlen))
        return body_error(t, ST_EFORMAT, "generic", ts);
    if (!name) {
        t->st.unknown++;
        return ST_OK;
    }
    uint32_t tid;
    if (state_of(t, r, p, n, &tid))
        return body_error(t, ST_EFORMAT, name, ts);
    begin(t, tid, r->cpu, ts, name, nlen);
    pfksym_use(t->ksym, r->aux);
    return end(t, pfevent_format(&t->ev, r->id, p, n, &t->out), name, ts, 1);
}

/* ---- compact sched -------------------------------------------------------- */

/* A comm of n bytes into dst (PFN_NAME): to its first NUL (where the
 * line's C string would end), line ends as spaces, so that the line needs
 * no blanking (end). */
static void comm_copy(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && i < PFN_NAME - 1 && src[i]; i++)
        dst[i] = src[i] == '\n' || src[i] == '\r' ? ' ' : src[i];
    dst[i] = '\0';
}

static enum st_err cswitch(struct pftrace *t, int64_t ts, const struct pfrec *r,
                           const uint8_t *comm, size_t cn)
{
    struct pf_cpu *c = &t->cpu[r->cpu];
    char next[PFN_NAME], prev[PFN_NAME];
    comm_copy(next, (const char *)comm, cn);
    pfnames_thread(t->names, r->pid, (const char *)comm, cn, PFN_FTRACE);
    if (!c->known) {
        /* no prev_* for the first switch on a CPU: Perfetto drops it */
        *c = (struct pf_cpu){1, r->pid, r->prio};
        t->st.compact_dropped++;
        return ST_OK;
    }
    const char *pn = pfnames_name(t->names, c->pid);
    comm_copy(prev, pn, strnlen(pn, sizeof(prev) - 1));     /* not snprintf: every switch */
    struct pf_switch s = {prev, c->pid, c->prio, r->state, next, r->pid, r->prio};
    begin(t, c->pid, r->cpu, ts, "sched_switch", 12);
    *c = (struct pf_cpu){1, r->pid, r->prio};
    return end(t, pfevent_sched_switch(&t->ev, &s, &t->out), "sched_switch", ts, 0);
}

static enum st_err cwaking(struct pftrace *t, int64_t ts, const struct pfrec *r,
                           const uint8_t *comm, size_t cn)
{
    const struct pf_cpu *c = &t->cpu[r->cpu];
    if (!c->known) {
        t->st.compact_dropped++;    /* no task known to charge it to */
        return ST_OK;
    }
    char name[PFN_NAME];
    comm_copy(name, (const char *)comm, cn);
    struct pf_waking w = {name, r->pid, (uint16_t)r->prio, (uint16_t)r->aux};
    begin(t, c->pid, r->cpu, ts, "sched_waking", 12);
    return end(t, pfevent_sched_waking(&t->ev, &w, &t->out), "sched_waking", ts, 0);
}

/* A packet for the trace events (pfstage_push_tev), on this thread. */
static enum st_err tev_packet(struct pftrace *t, const uint8_t *p, size_t n)
{
    struct pftev_pkt k;
    memcpy(&k, p, sizeof(k));
    enum st_err e = pftev_packet(t->tev, &k, p + sizeof(k), n - sizeof(k));
    return e ? pf_efail(t, e, "writing the trace events: %s", st_strerror(e)) : ST_OK;
}

enum st_err pf_emit(void *ctx, int64_t ts, const uint8_t *p, size_t n)
{
    struct pftrace *t = ctx;
    struct pfrec r;
    memcpy(&r, p, sizeof(r));
    p += sizeof(r);
    n -= sizeof(r);
    switch (r.kind) {
    case PFR_TREE:
        return pfnames_tree(t->names, p, n) ? pf_efail(t, ST_EFORMAT, "malformed Perfetto "
                                                     "trace: a process tree") : ST_OK;
    case PFR_EVENT:
        return event_line(t, ts, &r, p, n);
    case PFR_CSWITCH:
        return cswitch(t, ts, &r, p, n);
    case PFR_CWAKING:
        return cwaking(t, ts, &r, p, n);
    case PFR_TEV:
        return tev_packet(t, p, n);
    }
    return ST_OK;
}
