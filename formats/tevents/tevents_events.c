/*
 * The events of the trace-event converter (tevents.h): atrace markers
 * (B/E -> X slices, C, S/F -> b/e, I), sched_switch CPU slices and the
 * cpu_frequency / cpu_idle counters, from tokenized lines; and the thread
 * names and processes that lines, sched_switch and sched_wakeup/waking
 * give.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tevents_int.h"

static const char empty_name[] = "[empty slice name]";

void tev_free_thread(void *v)
{
    struct tev_thread *th = v;
    for (uint32_t i = 0; i < th->depth; i++)
        free(th->stack[i].name);
    free(th->stack);
    free(th->name);
    free(th);
}

void tev_free_async(void *v)
{
    struct tev_async *a = v;
    free(a->ids);
    free(a);
}

/* ---- threads and processes -------------------------------------------- */

static struct tev_thread *thread_slow(struct tevents *t, uint32_t tid)
{
    struct tev_thread *th = tmap_get(&t->threads, &tid, sizeof(tid));
    if (th)
        return th;
    th = calloc(1, sizeof(*th));
    if (!th) {
        tev_fail(t, ST_ENOMEM, "trace events");
        return NULL;
    }
    th->tid = tid;
    th->tgid = -1;
    if (tmap_put(&t->threads, &tid, sizeof(tid), th)) {
        t->st.dropped++;
        free(th);
        return NULL;
    }
    return th;
}

static struct tev_thread *thread(struct tevents *t, uint32_t tid)
{
    struct tev_thread **c = &t->thcache[tid & (TEV_THCACHE - 1)];
    if (*c && (*c)->tid == tid)
        return *c;
    struct tev_thread *th = thread_slow(t, tid);
    if (th)
        *c = th;
    return th;
}

void tev_proc_used(struct tevents *t, int64_t pid)
{
    if (tmap_get(&t->procs, &pid, sizeof(pid)))
        return;
    struct tev_proc *p = calloc(1, sizeof(*p));
    if (!p)
        return;
    p->pid = pid;
    if (tmap_put(&t->procs, &pid, sizeof(pid), p))
        free(p);
}

/* The process of a thread: from the line, what we learnt, the payload. */
static int64_t tgid_of(struct tev_thread *th, const struct tev_line *l, int64_t mark_tgid)
{
    if (l->tgid >= 0)
        th->tgid = l->tgid;
    else if (th->tgid < 0 && mark_tgid >= 0)
        th->tgid = mark_tgid;
    return th->tgid >= 0 ? th->tgid : (int64_t)th->tid;
}

/* A name the trace gives thread tid (a task column, a comm= field): the
 * latest one counts, as in Perfetto; "<...>" (unknown) never does. */
static void name_thread(struct tevents *t, uint32_t tid, const char *p, size_t n)
{
    if (!tid || !n || (n == 5 && !memcmp(p, "<...>", 5)))
        return;
    struct tev_thread *th = thread(t, tid);
    if (!th || (th->name && strlen(th->name) == n && !memcmp(th->name, p, n)))
        return;
    char *name = tev_strdup(t, p, n);
    if (!name)
        return;
    if (th->name) {
        t->name_bytes -= strlen(th->name) + 1;
        free(th->name);
    }
    th->name = name;
}

/* What every line says: the task's name and, with a TGID column, its
 * process. */
static void note_line(struct tevents *t, const struct tev_line *l)
{
    name_thread(t, l->tid, l->task, l->task_len);
    struct tev_thread *th = l->tgid >= 0 && l->tid ? thread(t, l->tid) : NULL;
    if (th)
        th->tgid = l->tgid;
}

/* ---- atrace markers --------------------------------------------------- */

static enum st_err slice_begin(struct tevents *t, struct tev_thread *th, int64_t pid,
                               const struct tev_mark *m, uint64_t ts)
{
    /* once over a bound, the thread's next begins are over it too, so
     * its ends close them (excess) before the slices it holds */
    if (th->excess || th->depth >= TEV_DEPTH_MAX || t->open >= TEV_OPEN_MAX) {
        th->excess++;
        t->st.dropped++;
        return ST_OK;
    }
    if (th->depth == th->cap) {
        uint32_t cap = th->cap ? th->cap * 2 : 8;
        struct tev_open *s = realloc(th->stack, cap * sizeof(*s));
        if (!s)
            return tev_fail(t, ST_ENOMEM, "trace events");
        th->stack = s;
        th->cap = cap;
    }
    const char *name = m->name_len ? m->name : empty_name;
    size_t nl = m->name_len ? m->name_len : sizeof(empty_name) - 1;
    char *copy = tev_strdup(t, name, nl);
    if (!copy) {
        th->excess++;
        return t->err;
    }
    th->stack[th->depth++] = (struct tev_open){copy, nl, ts, pid};
    t->open++;
    return ST_OK;
}

static enum st_err slice_end(struct tevents *t, struct tev_thread *th, uint64_t ts)
{
    if (th->excess) {
        th->excess--;
        return ST_OK;
    }
    if (!th->depth) {
        t->st.unmatched_end++;
        return ST_OK;
    }
    struct tev_open *o = &th->stack[--th->depth];
    t->open--;
    tev_start(t, o->name, o->name_len, 'X');
    tev_add(t, ",\"cat\":\"atrace\"");
    tev_ts(t, "ts", o->ts);
    tev_ts(t, "dur", ts >= o->ts ? ts - o->ts : 0);
    tev_pidtid(t, o->pid, th->tid);
    t->name_bytes -= o->name_len + 1;
    free(o->name);
    th->has_events = 1;
    tev_proc_used(t, o->pid);
    t->st.slices++;
    return tev_emit(t);
}

/* Async: a fresh id per S, ended by the F with the same tgid, name and
 * cookie.  An S while one of its key is open replaces it, as both
 * viewers' atrace importers do (the replaced one stays a lone b). */
static enum st_err async_mark(struct tevents *t, struct tev_thread *th, int64_t pid,
                              const struct tev_mark *m, uint64_t ts)
{
    struct dynbuf key;
    dynbuf_init(&key, 2 * TEV_LINE_MAX);
    dynbuf_printf(&key, "%lld|", (long long)pid);
    dynbuf_add(&key, m->value, m->value_len);
    dynbuf_addc(&key, '|');
    dynbuf_add(&key, m->name, m->name_len);
    struct tev_async *a = tmap_get(&t->async, key.data, key.len);
    uint64_t id;
    enum st_err e = ST_OK;
    if (m->phase == 'S') {
        if (!a && (a = calloc(1, sizeof(*a))) && tmap_put(&t->async, key.data, key.len, a)) {
            free(a);
            a = NULL;
        }
        if (a)
            a->n = 0;
        if (a && a->n == a->cap) {
            size_t cap = a->cap ? a->cap * 2 : 2;
            uint64_t *ids = realloc(a->ids, cap * sizeof(*ids));
            if (ids) {
                a->ids = ids;
                a->cap = cap;
            }
        }
        if (!a || a->n == a->cap) {
            t->st.dropped++;
            goto out;
        }
        id = a->ids[a->n++] = ++t->next_id;
        t->st.async_begin++;
    } else {
        if (!a || !a->n) {
            t->st.unmatched_end++;
            goto out;
        }
        id = a->ids[--a->n];
        if (!a->n)
            tev_free_async(tmap_take(&t->async, key.data, key.len));
        t->st.async_end++;
    }
    tev_start(t, m->name, m->name_len, m->phase == 'S' ? 'b' : 'e');
    tev_add(t, ",\"cat\":\"atrace\",\"id\":");
    tev_hexid(t, id);
    tev_ts(t, "ts", ts);
    tev_pidtid(t, pid, th->tid);
    tev_add(t, ",\"args\":{\"cookie\":");
    tev_addstr(t, m->value, m->value_len);
    tev_add(t, "}");
    tev_proc_used(t, pid);
    e = tev_emit(t);
out:
    dynbuf_free(&key);
    return e;
}

static enum st_err marker(struct tevents *t, const struct tev_line *l, const char *p,
                          size_t n)
{
    struct tev_mark m;
    if (!tev_parse_mark(p, n, &m))
        return ST_OK;       /* clock sync lines and other text */
    struct tev_thread *th = thread(t, l->tid);
    if (!th)
        return t->err;
    int64_t pid = tgid_of(th, l, m.tgid);
    switch (m.phase) {
    case 'B':
        return slice_begin(t, th, pid, &m, l->ts_ns);
    case 'E':
        return slice_end(t, th, l->ts_ns);
    case 'C':
        tev_start(t, m.name, m.name_len, 'C');
        tev_ts(t, "ts", l->ts_ns);
        tev_pidtid(t, m.tgid >= 0 ? m.tgid : pid, th->tid);
        tev_add(t, ",\"args\":{\"value\":");
        tev_int(t, m.num);
        tev_add(t, "}");
        tev_proc_used(t, m.tgid >= 0 ? m.tgid : pid);
        t->st.counters++;
        return tev_emit(t);
    case 'S':
    case 'F':
        return async_mark(t, th, m.tgid >= 0 ? m.tgid : pid, &m, l->ts_ns);
    default:    /* 'I' */
        tev_start(t, m.name_len ? m.name : empty_name,
                  m.name_len ? m.name_len : sizeof(empty_name) - 1, 'i');
        tev_add(t, ",\"s\":\"t\"");
        tev_ts(t, "ts", l->ts_ns);
        tev_pidtid(t, pid, th->tid);
        th->has_events = 1;
        tev_proc_used(t, pid);
        t->st.instants++;
        return tev_emit(t);
    }
}

/* ---- kernel events ---------------------------------------------------- */

static struct tev_cpu *cpu(struct tevents *t, uint32_t n)
{
    if (n >= TEV_CPUS_MAX)
        return NULL;
    if (n >= t->ncpus) {
        struct tev_cpu *c = realloc(t->cpus, (n + 1) * sizeof(*c));
        if (!c)
            return NULL;
        memset(c + t->ncpus, 0, (n + 1 - t->ncpus) * sizeof(*c));
        t->cpus = c;
        t->ncpus = n + 1;
    }
    return &t->cpus[n];
}

/* The slice of what ran on CPU n until ts. */
enum st_err tev_cpu_close(struct tevents *t, uint32_t n, uint64_t ts)
{
    struct tev_cpu *c = &t->cpus[n];
    if (!c->running)
        return ST_OK;
    c->running = 0;
    const char *name = c->comm ? c->comm : "";
    tev_start(t, name, strlen(name), 'X');
    tev_add(t, ",\"cat\":\"sched\"");
    tev_ts(t, "ts", c->start);
    tev_ts(t, "dur", ts >= c->start ? ts - c->start : 0);
    tev_pidtid(t, TEV_CPU_PID, TEV_CPU_PID + 1 + (int64_t)n);
    tev_add(t, ",\"args\":{\"tid\":");
    tev_uint(t, (unsigned)c->pid);
    tev_add(t, "}");
    c->used = 1;
    t->cpu_used = 1;
    t->st.cpu_slices++;
    return tev_emit(t);
}

static enum st_err sched_switch(struct tevents *t, const struct tev_line *l)
{
    struct tev_switch s;
    struct tev_cpu *c = cpu(t, l->cpu);
    if (!c || !tev_parse_switch(l->args, l->args_len, &s)) {
        t->st.unparsed += !c ? 0 : 1;
        return ST_OK;
    }
    name_thread(t, s.prev_pid, s.prev_comm, s.prev_comm_len);
    name_thread(t, s.next_pid, s.next_comm, s.next_comm_len);
    enum st_err e = tev_cpu_close(t, l->cpu, l->ts_ns);
    if (e || !s.next_pid)
        return e;   /* the idle task gets no slice */
    c = &t->cpus[l->cpu];
    free(c->comm);
    c->comm = malloc(s.next_comm_len + 1);
    if (c->comm) {
        memcpy(c->comm, s.next_comm, s.next_comm_len);
        c->comm[s.next_comm_len] = '\0';
    }
    c->running = 1;
    c->pid = s.next_pid;
    c->start = l->ts_ns;
    return ST_OK;
}

static enum st_err cpu_counter(struct tevents *t, const struct tev_line *l, const char *what)
{
    uint64_t state, id;
    if (!tev_arg_u64(l->args, l->args_len, "state", &state) ||
        !tev_arg_u64(l->args, l->args_len, "cpu_id", &id) || id >= TEV_CPUS_MAX ||
        !cpu(t, (uint32_t)id))
        return ST_OK;
    char name[64];
    int nl = snprintf(name, sizeof(name), "CPU %u %s", (unsigned)id, what);
    tev_start(t, name, (size_t)nl, 'C');
    tev_ts(t, "ts", l->ts_ns);
    tev_pidtid(t, TEV_CPU_PID, TEV_CPU_PID);
    /* cpu_idle's "no longer idle" is (u32)-1: written as -1 */
    if (state == 4294967295ull)
        tev_add(t, ",\"args\":{\"value\":-1}");
    else {
        tev_add(t, ",\"args\":{\"value\":");
        tev_uint(t, state);
        tev_add(t, "}");
    }
    t->cpus[id].used = 1;
    t->cpu_used = 1;
    t->st.cpu_counters++;
    return tev_emit(t);
}

static int is_event(const struct tev_line *l, const char *name)
{
    size_t n = strlen(name);
    return l->event_len == n && !memcmp(l->event, name, n);
}

/* sched_wakeup / sched_waking name the task woken. */
static void wakeup(struct tevents *t, const struct tev_line *l)
{
    const char *comm;
    size_t n;
    uint32_t pid;
    if (tev_parse_wakeup(l->args, l->args_len, &comm, &n, &pid))
        name_thread(t, pid, comm, n);
}

enum st_err tev_ftrace_event(struct tevents *t, const struct tev_line *l)
{
    if (l->ts_ns > t->last_ts)
        t->last_ts = l->ts_ns;
    note_line(t, l);
    if (is_event(l, "tracing_mark_write") || is_event(l, "0"))
        return marker(t, l, l->args, l->args_len);
    if (is_event(l, "print")) {
        const char *p = l->args;
        size_t n = l->args_len;
        /* `print: 0xffffff8008000000: B|1|x` or `print: tracing_mark_write: B|...` */
        const char *c = memchr(p, ':', n);
        if (c && (size_t)(c - p) + 2 <= n && c[1] == ' ' && !memchr(p, '|', (size_t)(c - p))) {
            n -= (size_t)(c + 2 - p);
            p = c + 2;
        }
        return marker(t, l, p, n);
    }
    if (is_event(l, "sched_switch"))
        return sched_switch(t, l);
    if (is_event(l, "sched_wakeup") || is_event(l, "sched_waking")) {
        wakeup(t, l);
        return ST_OK;
    }
    if (is_event(l, "cpu_frequency"))
        return cpu_counter(t, l, "frequency");
    if (is_event(l, "cpu_idle"))
        return cpu_counter(t, l, "idle");
    return ST_OK;
}

