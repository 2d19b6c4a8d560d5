/*
 * Streaming ftrace text generator (see sim_tracegen.h).
 *
 * A small scheduler model runs the threads of the process table on 4
 * CPUs: each step advances a global clock and does one thing on one CPU
 * (switch tasks, change frequency, a binder transaction, a workqueue
 * item, or a trace_marker write by the running thread).  Lines are
 * printed in timestamp order, so every CPU's events are monotonic and
 * sched_switch slices never end before they start.  sched prints
 * sched_waking (Perfetto) and sched_wakeup (catapult viewer) before each
 * switch.  Userspace categories make threads write B|pid|name / E|pid,
 * C|pid|name|value and S/F|pid|name|cookie, according to their role.
 * Host writes to trace_marker are merged in at their time; atrace's own
 * clock-sync lines come first.  With a size target the step length adapts
 * so the text ends up about target_bytes long within the window.
 * Formatting is hand-written (no printf per line) for speed.  Live mode
 * (atrace --stream): no header and no end; each read gives the events up
 * to the time it is asked for, and host markers arrive as they are made.
 */
#include "sim_tracegen.h"
#include "sim_ps.h"
#include "sim_roles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCPU 4
#define MAX_ACTORS 64
#define MAX_DEPTH 4
#define STEP_ROOM 2048      /* the most one step can print */

struct actor {
    int pid, tid, prio;
    enum sim_role role;
    const char *comm;
    char task[40];
    size_t task_len;
    char prev[112], next[96], wake[96];
    size_t prev_len, next_len, wake_len;
    const char *names[SIM_MARKS_MAX];
    size_t nnames;
    const char *counter;
    char counter_buf[SIM_COUNTER_LEN];
    const char *async;
    int running;
    int depth;
    const char *stack[MAX_DEPTH];
    int nasync;
    unsigned cookies[2];
    long counter_val;
};

struct tracegen {
    struct tracegen_cfg cfg;
    uint64_t rng;
    struct actor actors[MAX_ACTORS];
    size_t nactors;
    size_t marker_actors;       /* how many can write markers */
    struct actor idle[NCPU];
    int cur[NCPU];              /* actor index, -1 idle */
    unsigned freq[NCPU];
    uint64_t start_at[NCPU];    /* overflow: first kept event per CPU */
    int started[NCPU];
    uint64_t t, last_ts, dt_mean;
    uint64_t bytes, steps, est_lines;
    unsigned cookie;
    size_t next_marker;
    int phase;
    int full;                   /* max_bytes reached before end_ns */
    int pending;                /* live: g->t is the next step's time */
    uint64_t long_left;         /* bytes of the long marker's name to come */
};

static uint32_t rnd(struct tracegen *g)
{
    /* xorshift64* */
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return (uint32_t)((g->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Output helpers: the caller guarantees STEP_ROOM bytes of space. */

struct out {
    char *p, *end;
};

static void put(struct out *o, const char *s, size_t n)
{
    memcpy(o->p, s, n);
    o->p += n;
}

static void puts_(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

static void put_u(struct out *o, uint64_t v)
{
    char tmp[24];
    int i = 24;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(o, tmp + i, (size_t)(24 - i));
}

static void put_ts(struct out *o, uint64_t ns)
{
    uint64_t us = ns / 1000, sec = us / 1000000, frac = us % 1000000;
    char tmp[32];
    int i = 32;
    for (int k = 0; k < 6; k++) {
        tmp[--i] = (char)('0' + frac % 10);
        frac /= 10;
    }
    tmp[--i] = '.';
    int digits = 0;
    do {
        tmp[--i] = (char)('0' + sec % 10);
        sec /= 10;
        digits++;
    } while (sec);
    while (digits++ < 5)
        tmp[--i] = ' ';
    put(o, tmp + i, (size_t)(32 - i));
}

static void head(struct tracegen *g, struct out *o, const struct actor *a,
                 int cpu, const char *flags)
{
    uint64_t ts = g->t > g->last_ts ? g->t : g->last_ts;
    g->last_ts = ts;
    put(o, a->task, a->task_len);
    put(o, " (-----) [00", 12);
    *o->p++ = (char)('0' + cpu);
    put(o, "] ", 2);
    put(o, flags, 4);
    *o->p++ = ' ';
    put_ts(o, ts);
    put(o, ": ", 2);
}

/* Actors. */

static void actor_slices(struct tracegen *g, struct actor *a)
{
    struct sim_marks m;
    sim_role_marks(a->role, a->comm, g->cfg.tags, &m);
    a->nnames = m.nnames;
    memcpy(a->names, m.names, m.nnames * sizeof(m.names[0]));
    memcpy(a->counter_buf, m.counter_buf, sizeof(a->counter_buf));
    a->counter = m.counter == m.counter_buf ? a->counter_buf : m.counter;
    a->async = m.async;
}

static void actor_init(struct actor *a, int pid, int tid, const char *comm,
                       int prio, const char *task_name)
{
    memset(a, 0, sizeof(*a));
    a->pid = pid;
    a->tid = tid;
    a->prio = prio;
    a->comm = comm;
    int n = snprintf(a->task, sizeof(a->task), "%16s-%-5d", task_name, tid);
    a->task_len = n > 0 ? (size_t)n : 0;
    n = snprintf(a->prev, sizeof(a->prev),
                 "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=", comm,
                 tid, prio);
    a->prev_len = n > 0 ? (size_t)n : 0;
    n = snprintf(a->next, sizeof(a->next), "next_comm=%s next_pid=%d "
                 "next_prio=%d\n", comm, tid, prio);
    a->next_len = n > 0 ? (size_t)n : 0;
    n = snprintf(a->wake, sizeof(a->wake), "comm=%s pid=%d prio=%d "
                 "target_cpu=00", comm, tid, prio);
    a->wake_len = n > 0 ? (size_t)n : 0;
}

static void build_actors(struct tracegen *g)
{
    for (size_t i = 0; i < sim_proc_count(); i++) {
        const struct sim_proc *p = sim_proc_at(i);
        for (size_t j = 0; j < p->nthreads && g->nactors < MAX_ACTORS; j++) {
            const struct sim_thread *t = &p->threads[j];
            struct actor *a = &g->actors[g->nactors++];
            actor_init(a, p->pid, t->tid, t->comm, t->prio, t->comm);
            a->role = t->role;
            actor_slices(g, a);
            if (a->nnames || a->counter)
                g->marker_actors++;
        }
    }
    for (int c = 0; c < NCPU; c++) {
        char comm[24];
        snprintf(comm, sizeof(comm), "swapper/%d", c);
        actor_init(&g->idle[c], 0, 0, "", 120, "<idle>");
        /* the idle task's comm differs per CPU: rebuild its fragments */
        int n = snprintf(g->idle[c].prev, sizeof(g->idle[c].prev),
                         "prev_comm=%s prev_pid=0 prev_prio=120 prev_state=",
                         comm);
        g->idle[c].prev_len = (size_t)n;
        n = snprintf(g->idle[c].next, sizeof(g->idle[c].next),
                     "next_comm=%s next_pid=0 next_prio=120\n", comm);
        g->idle[c].next_len = (size_t)n;
        g->cur[c] = -1;
        g->freq[c] = 1401600;
    }
}

/* Steps. */

static int cpu_visible(struct tracegen *g, int cpu)
{
    if (!g->cfg.overflow || g->started[cpu])
        return 1;
    return g->t >= g->start_at[cpu] ? 2 : 0;
}

static void overflow_marker(struct tracegen *g, struct out *o, int cpu)
{
    if (cpu_visible(g, cpu) == 2) {
        puts_(o, "##### CPU ");
        put_u(o, (uint64_t)cpu);
        puts_(o, " buffer started ####\n");
        g->started[cpu] = 1;
    }
}

static void wake(struct tracegen *g, struct out *o, const struct actor *by,
                 int cpu, const struct actor *who, const char *what)
{
    head(g, o, by, cpu, "d..3");
    puts_(o, what);
    put(o, who->wake, who->wake_len);
    *o->p++ = (char)('0' + cpu);
    *o->p++ = '\n';
}

static void cpu_idle_line(struct tracegen *g, struct out *o, int cpu,
                          uint64_t state)
{
    head(g, o, &g->idle[cpu], cpu, "d..2");
    puts_(o, "cpu_idle: state=");
    put_u(o, state);
    puts_(o, " cpu_id=");
    put_u(o, (uint64_t)cpu);
    *o->p++ = '\n';
}

static int pick_next(struct tracegen *g, int cpu)
{
    if (g->cur[cpu] >= 0 && rnd(g) % 4 == 0)
        return -1;
    for (int tries = 0; tries < 8; tries++) {
        int i = (int)(rnd(g) % g->nactors);
        struct actor *a = &g->actors[i];
        /* threads with trace markers run more often */
        if (!a->nnames && !a->counter && rnd(g) % 3)
            continue;
        if (!a->running)
            return i;
    }
    return -1;
}

static void do_switch(struct tracegen *g, struct out *o, int cpu)
{
    int prev_i = g->cur[cpu], next_i = pick_next(g, cpu);
    if (prev_i == next_i)
        return;
    struct actor *prev = prev_i >= 0 ? &g->actors[prev_i] : &g->idle[cpu];
    struct actor *next = next_i >= 0 ? &g->actors[next_i] : &g->idle[cpu];
    int show = cpu_visible(g, cpu);
    unsigned groups = g->cfg.groups;
    if (show && (groups & (GEN_SCHED | GEN_IDLE)))
        overflow_marker(g, o, cpu);
    if (show && (groups & GEN_IDLE) && prev_i < 0)
        cpu_idle_line(g, o, cpu, 4294967295u);
    if (show && (groups & GEN_SCHED)) {
        if (next_i >= 0) {
            wake(g, o, prev, cpu, next, "sched_waking: ");
            g->t += 1000;
            wake(g, o, prev, cpu, next, "sched_wakeup: ");
        }
        g->t += 1000;
        head(g, o, prev, cpu, "d..2");
        puts_(o, "sched_switch: ");
        put(o, prev->prev, prev->prev_len);
        static const char *const states[] = {"S", "S", "S", "S", "S", "R+",
                                             "D", "R"};
        puts_(o, prev_i < 0 ? "R" : states[rnd(g) % 8]);
        puts_(o, " ==> ");
        put(o, next->next, next->next_len);
    }
    if (prev_i >= 0)
        prev->running = 0;
    if (next_i >= 0)
        next->running = 1;
    g->cur[cpu] = next_i;
    if (show && (groups & GEN_IDLE) && next_i < 0) {
        g->t += 500;
        cpu_idle_line(g, o, cpu, rnd(g) % 3);
    }
}

static void do_freq(struct tracegen *g, struct out *o, int cpu)
{
    static const unsigned steps[] = {300000, 576000, 768000, 1017600,
                                     1248000, 1401600, 1708800, 1996800};
    g->freq[cpu] = steps[rnd(g) % 8];
    if (!cpu_visible(g, cpu))
        return;
    overflow_marker(g, o, cpu);
    struct actor *a = g->cur[cpu] >= 0 ? &g->actors[g->cur[cpu]]
                                       : &g->idle[cpu];
    head(g, o, a, cpu, "d..1");
    puts_(o, "cpu_frequency: state=");
    put_u(o, g->freq[cpu]);
    puts_(o, " cpu_id=");
    put_u(o, (uint64_t)cpu);
    *o->p++ = '\n';
}

static void do_binder(struct tracegen *g, struct out *o, int cpu)
{
    if (g->cur[cpu] < 0 || !cpu_visible(g, cpu))
        return;
    overflow_marker(g, o, cpu);
    struct actor *a = &g->actors[g->cur[cpu]];
    struct actor *dest = &g->actors[rnd(g) % g->nactors];
    uint64_t id = ++g->cookie + 100000;
    head(g, o, a, cpu, "...1");
    puts_(o, "binder_transaction: transaction=");
    put_u(o, id);
    puts_(o, " dest_node=");
    put_u(o, 1000 + (uint64_t)dest->pid);
    puts_(o, " dest_proc=");
    put_u(o, (uint64_t)dest->pid);
    puts_(o, " dest_thread=0 reply=0 flags=0x10 code=0x3\n");
    g->t += 2000;
    head(g, o, a, cpu, "...1");
    puts_(o, "binder_transaction_received: transaction=");
    put_u(o, id);
    *o->p++ = '\n';
}

static void do_workq(struct tracegen *g, struct out *o, int cpu)
{
    if (!cpu_visible(g, cpu))
        return;
    overflow_marker(g, o, cpu);
    struct actor *a = g->cur[cpu] >= 0 ? &g->actors[g->cur[cpu]]
                                       : &g->idle[cpu];
    head(g, o, a, cpu, "...1");
    puts_(o, "workqueue_execute_start: work struct 00000000c4a3e2f1: "
             "function vmstat_update\n");
    g->t += 3000;
    head(g, o, a, cpu, "...1");
    puts_(o, "workqueue_execute_end: work struct 00000000c4a3e2f1\n");
}

static void marker_prefix(struct tracegen *g, struct out *o, struct actor *a,
                          int cpu, char kind)
{
    head(g, o, a, cpu, "...1");
    puts_(o, "tracing_mark_write: ");
    *o->p++ = kind;
    *o->p++ = '|';
    put_u(o, (uint64_t)a->pid);
}

static void do_marker(struct tracegen *g, struct out *o, int cpu)
{
    if (g->cur[cpu] < 0 || !cpu_visible(g, cpu))
        return;
    struct actor *a = &g->actors[g->cur[cpu]];
    if (!a->nnames && !a->counter)
        return;
    overflow_marker(g, o, cpu);
    uint32_t r = rnd(g) % 100;
    if (a->counter && (r < 15 || !a->nnames)) {
        a->counter_val = a->counter[0] == 'V' || a->counter[0] == 'H'
                             ? !a->counter_val : (long)(rnd(g) % 8);
        marker_prefix(g, o, a, cpu, 'C');
        *o->p++ = '|';
        puts_(o, a->counter);
        *o->p++ = '|';
        put_u(o, (uint64_t)a->counter_val);
        *o->p++ = '\n';
    } else if (a->async && r < 25) {
        char kind = 'S';
        unsigned cookie;
        if (a->nasync == 2 || (a->nasync && r < 20)) {
            kind = 'F';
            cookie = a->cookies[0];
            a->cookies[0] = a->cookies[1];
            a->nasync--;
        } else {
            cookie = ++g->cookie;
            a->cookies[a->nasync++] = cookie;
        }
        marker_prefix(g, o, a, cpu, kind);
        *o->p++ = '|';
        puts_(o, a->async);
        *o->p++ = '|';
        put_u(o, cookie);
        *o->p++ = '\n';
    } else if (a->depth && (a->depth == MAX_DEPTH || r < 60)) {
        a->depth--;
        marker_prefix(g, o, a, cpu, 'E');
        *o->p++ = '\n';
    } else if (a->nnames) {
        const char *name = a->names[rnd(g) % a->nnames];
        a->stack[a->depth++] = name;
        marker_prefix(g, o, a, cpu, 'B');
        *o->p++ = '|';
        puts_(o, name);
        *o->p++ = '\n';
    }
}

static void host_markers(struct tracegen *g, struct out *o, uint64_t upto,
                         size_t room)
{
    while (g->next_marker < g->cfg.nmarkers &&
           g->cfg.markers[g->next_marker].ts_ns <= upto) {
        const struct sim_marker *m = &g->cfg.markers[g->next_marker];
        size_t len = strlen(m->text);
        if ((size_t)(o->end - o->p) < room || len > 1024)
            return;
        g->next_marker++;
        int cpu = m->cpu & (NCPU - 1);
        if (!cpu_visible(g, cpu))
            continue;
        struct actor a;
        memset(&a, 0, sizeof(a));
        int n = snprintf(a.task, sizeof(a.task), "%16s-%-5d", m->comm ? m->comm : "sh",
                         m->pid);
        a.task_len = (size_t)n;
        uint64_t save = g->t;
        g->t = m->ts_ns;
        head(g, o, &a, cpu, "...1");
        g->t = save > g->t ? save : g->t;
        puts_(o, "tracing_mark_write: ");
        put(o, m->text, len);
        *o->p++ = '\n';
    }
}

static void step(struct tracegen *g, struct out *o)
{
    int cpu = (int)(rnd(g) % NCPU);
    uint32_t r = rnd(g) % 100;
    unsigned groups = g->cfg.groups;
    if (r < 35)
        do_switch(g, o, cpu);
    else if (r < 40 && (groups & GEN_FREQ))
        do_freq(g, o, cpu);
    else if (r < 44 && (groups & GEN_BINDER))
        do_binder(g, o, cpu);
    else if (r < 46 && (groups & GEN_WORKQ))
        do_workq(g, o, cpu);
    else
        do_marker(g, o, cpu);
}

static void advance(struct tracegen *g)
{
    uint64_t dt = g->dt_mean;
    if (g->cfg.target_bytes) {
        uint64_t avg = g->steps ? g->bytes / g->steps : 100;
        uint64_t left = g->cfg.target_bytes > g->bytes
                            ? g->cfg.target_bytes - g->bytes : 0;
        uint64_t steps_left = avg ? left / (avg ? avg : 1) : 0;
        if (!steps_left) {
            g->t = g->cfg.end_ns;
            return;
        }
        dt = (g->cfg.end_ns - g->t) / steps_left;
    }
    if (!dt)
        dt = 1;
    /* jitter: 0.5 .. 1.5 of the mean */
    uint64_t r = rnd(g) % 1024;
    g->t += dt / 2 + (dt < 1024 ? dt * r / 1024 : dt / 1024 * r);
}

/* Header and setup. */

static void header(struct tracegen *g, struct out *o)
{
    uint64_t written = g->est_lines;
    if (g->cfg.overflow)
        written = written * 13 / 10 + 1000;
    puts_(o, "# tracer: nop\n#\n# entries-in-buffer/entries-written: ");
    put_u(o, g->est_lines);
    *o->p++ = '/';
    put_u(o, written);
    puts_(o, "   #P:4\n#\n"
             "#                                      _-----=> irqs-off\n"
             "#                                     / _----=> need-resched\n"
             "#                                    | / _---=> hardirq/softirq\n"
             "#                                    || / _--=> preempt-depth\n"
             "#                                    ||| /     delay\n"
             "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
             "#              | |        |      |   ||||       |         |\n");
}

static void sync_lines(struct tracegen *g, struct out *o)
{
    struct actor a;
    memset(&a, 0, sizeof(a));
    int n = snprintf(a.task, sizeof(a.task), "%16s-%-5d", "atrace",
                     g->cfg.atrace_pid);
    a.task_len = (size_t)n;
    g->t = g->cfg.sync_ns;
    head(g, o, &a, 0, "...1");
    puts_(o, "tracing_mark_write: trace_event_clock_sync: parent_ts=");
    /* atrace goes through a 32-bit float: ms-level rounding after hours */
    char num[32];
    snprintf(num, sizeof(num), "%f", (double)(float)(g->cfg.sync_ns / 1e9));
    puts_(o, num);
    *o->p++ = '\n';
    g->t += 18000;
    head(g, o, &a, 0, "...1");
    puts_(o, "tracing_mark_write: trace_event_clock_sync: realtime_ts=");
    put_u(o, g->cfg.sync_realtime_ms);
    *o->p++ = '\n';
}

/* --long-marker: an app's slice whose name is long_marker bytes (far
 * more than a kernel takes: for the host's bound on line length), begun
 * right after the clock-sync lines; the name comes out over as many
 * reads as it takes, then the slice ends. */
#define LONG_PID 2000       /* com.android.launcher3's main thread */
#define LONG_END_ROOM 256

static void long_marker_task(struct actor *a)
{
    memset(a, 0, sizeof(*a));
    a->task_len = (size_t)snprintf(a->task, sizeof(a->task), "%16s-%-5d", "droid.launcher3",
                                   LONG_PID);
}

static void long_marker_begin(struct tracegen *g, struct out *o)
{
    struct actor a;
    long_marker_task(&a);
    head(g, o, &a, 1, "...1");
    puts_(o, "tracing_mark_write: B|2000|");
    g->long_left = g->cfg.long_marker;
}

/* More of the name (o has at least TRACEGEN_MIN_READ bytes of room). */
static void long_marker_more(struct tracegen *g, struct out *o)
{
    size_t room = (size_t)(o->end - o->p) - LONG_END_ROOM;
    size_t k = g->long_left < room ? (size_t)g->long_left : room;
    memset(o->p, 'x', k);
    o->p += k;
    g->long_left -= k;
    if (g->long_left)
        return;
    *o->p++ = '\n';
    struct actor a;
    long_marker_task(&a);
    head(g, o, &a, 1, "...1");
    puts_(o, "tracing_mark_write: E|2000\n");
}

struct tracegen *tracegen_new(const struct tracegen_cfg *cfg)
{
    struct tracegen *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->cfg = *cfg;
    g->rng = 0x9E3779B97F4A7C15ull ^ cfg->seed;
    if (!g->rng)
        g->rng = 1;
    if (g->cfg.end_ns < g->cfg.begin_ns)
        g->cfg.end_ns = g->cfg.begin_ns;
    build_actors(g);
    uint64_t span = g->cfg.end_ns - g->cfg.begin_ns;
    /* A size target needs room: at least 2 us per step (~110 bytes), even
     * if that runs past the real end of the window. */
    uint64_t need = cfg->target_bytes / 110 * 2000;
    if (cfg->target_bytes && span < need) {
        g->cfg.end_ns = g->cfg.begin_ns + need;
        span = need;
    }
    g->dt_mean = 1000000000u / (cfg->event_rate ? cfg->event_rate : 20000);
    if (!g->cfg.has_window || (!g->cfg.groups && !g->marker_actors))
        g->est_lines = 0;
    else if (cfg->target_bytes)
        g->est_lines = cfg->target_bytes / 110;
    else
        g->est_lines = span / (g->dt_mean ? g->dt_mean : 1) * 6 / 5;
    if (cfg->max_bytes && !cfg->target_bytes &&
        g->est_lines > cfg->max_bytes / 110)
        g->est_lines = cfg->max_bytes / 110;
    g->est_lines += (cfg->atrace_pid ? 2 : 0) + cfg->nmarkers;
    for (int c = 0; c < NCPU; c++) {
        g->start_at[c] = g->cfg.begin_ns + span / 10 * (uint64_t)c;
        g->started[c] = c == 0;
    }
    g->t = g->cfg.begin_ns;
    return g;
}

void tracegen_free(struct tracegen *g)
{
    free(g);
}

void tracegen_set_markers(struct tracegen *g, const struct sim_marker *m, size_t n)
{
    g->cfg.markers = m;
    g->cfg.nmarkers = n;
}

uint64_t tracegen_time(const struct tracegen *g)
{
    return g->t;
}

/* The next step's time, or 1 to stop: the window or the buffer is full
 * (phase 3), or (live) the step lies beyond upto. */
static int next_step(struct tracegen *g, struct out *o, uint64_t upto)
{
    if (!g->cfg.live || !g->pending)
        advance(g);
    g->pending = 1;
    if (g->t >= g->cfg.end_ns ||
        (g->cfg.max_bytes && g->bytes >= g->cfg.max_bytes)) {
        g->full = g->t < g->cfg.end_ns;
        g->phase = 3;
        return 1;
    }
    if (g->t > upto) {
        host_markers(g, o, upto, STEP_ROOM);
        return 1;
    }
    return 0;
}

size_t tracegen_read_upto(struct tracegen *g, char *buf, size_t cap, uint64_t upto)
{
    struct out o = {buf, buf + cap};
    if (cap < TRACEGEN_MIN_READ)
        return 0;
    if (g->phase == 0) {
        if (!g->cfg.live)
            header(g, &o);
        g->phase = 1;
    }
    if (g->phase == 1) {
        if (g->cfg.atrace_pid && g->cfg.has_window)
            sync_lines(g, &o);
        if (g->cfg.long_marker && g->cfg.has_window)
            long_marker_begin(g, &o);
        g->t = g->cfg.begin_ns > g->t ? g->cfg.begin_ns : g->t;
        g->phase = g->cfg.has_window && (g->cfg.groups || g->marker_actors)
                       ? 2 : 3;
    }
    if (g->long_left) {
        long_marker_more(g, &o);
        if (g->long_left)
            return (size_t)(o.p - buf);
    }
    while (g->phase == 2 && (size_t)(o.end - o.p) >= STEP_ROOM) {
        if (next_step(g, &o, upto))
            break;
        host_markers(g, &o, g->t, STEP_ROOM);
        if ((size_t)(o.end - o.p) < STEP_ROOM)
            break;
        g->pending = 0;
        char *before = o.p;
        step(g, &o);
        g->bytes += (uint64_t)(o.p - before);
        g->steps++;
    }
    if (g->phase == 3) {
        /* a full buffer (overwrite off) refuses later trace_marker
         * writes too (the writer gets EBADF): they never show */
        host_markers(g, &o, g->full ? g->t : UINT64_MAX, 1100);
        if (g->full && (size_t)(o.end - o.p) >= 1100)
            g->next_marker = g->cfg.nmarkers;
        if (g->next_marker == g->cfg.nmarkers)
            g->phase = 4;
    }
    return (size_t)(o.p - buf);
}

size_t tracegen_read(struct tracegen *g, char *buf, size_t cap)
{
    return tracegen_read_upto(g, buf, cap, UINT64_MAX);
}
