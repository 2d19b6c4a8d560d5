/*
 * What one ftrace event of the trace summary (summary.h) changes: the
 * totals, the event's name count, the thread's process (the line's TGID),
 * CPU time from sched_switch, frames from atrace slices.  Both readers of
 * lines come here: the line-at-a-time one (sum_ftrace_line below, any line
 * the tokenizer accepts, and the header's '#' lines) and the fast one
 * (summary_fast.c, the usual shape, which hands it the others).
 */
#include <string.h>

#include "formats/atrace/coverage.h"
#include "formats/atrace/streamtext.h"
#include "formats/tevents/tevents.h"
#include "lib/plat.h"
#include "summary_int.h"

static int dig(char c)
{
    return (unsigned)(c - '0') < 10;
}

static int ws(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* next_pid of sched_switch args: the last " next_pid=N" (the args end
 * with it and next_prio); 0 when absent. */
static int next_pid_fast(const char *a, size_t n, uint32_t *pid)
{
    static const char key[] = " next_pid=";
    size_t k = sizeof(key) - 1;
    for (size_t i = n >= k ? n - k + 1 : 0; i-- > 0;) {
        if (a[i] != ' ' || memcmp(a + i, key, k))
            continue;
        uint64_t v = 0;
        size_t j = i + k, d = j;
        while (j < n && a[j] >= '0' && a[j] <= '9' && v <= UINT32_MAX)
            v = v * 10 + (uint64_t)(a[j++] - '0');
        if (j == d || v > UINT32_MAX || (j < n && a[j] != ' '))
            return 0;
        *pid = (uint32_t)v;
        return 1;
    }
    return 0;
}


/* The same for the usual end of the args, " next_pid=N next_prio=P",
 * found from the end without a search: no " next_pid=" can follow the one
 * before " next_prio=".  0 when the args end otherwise. */
static int next_pid_tail(const char *a, size_t n, uint32_t *pid)
{
    static const char prio[] = " next_prio=", key[] = " next_pid=";
    const size_t np = sizeof(prio) - 1, nk = sizeof(key) - 1;
    size_t e = n, j, d;
    while (e && dig(a[e - 1]))
        e--;
    if (e == n || e < np + nk + 1 || memcmp(a + e - np, prio, np))
        return 0;
    for (d = j = e - np; d && dig(a[d - 1]) && j - d < 10; d--)
        ;
    if (d == j || j - d > 9 || d < nk || memcmp(a + d - nk, key, nk))
        return 0;
    uint32_t v = 0;
    for (; d < j; d++)
        v = v * 10 + (uint32_t)(a[d] - '0');
    *pid = v;
    return 1;
}

static void on_switch(struct summary *s, const struct tev_line *l)
{
    struct tev_switch sw;
    s->t.sched_switches++;
    memset(&sw, 0, sizeof(sw));
    if (!next_pid_tail(l->args, l->args_len, &sw.next_pid) &&
        !next_pid_fast(l->args, l->args_len, &sw.next_pid) &&
        !tev_parse_switch(l->args, l->args_len, &sw))
        return;
    struct sum_cpu *c = sum_cpu(s, l->cpu);
    if (!c)
        return;
    if (c->valid && c->tid && l->ts_ns >= c->ts) {
        struct sum_thread *t = sum_thread(s, c->tid);
        if (t) {
            t->cpu_ns += l->ts_ns - c->ts;
            sum_launch_state(s, t, sum_prev_state(l->args, l->args_len), l->ts_ns);
        }
    }
    c->tid = sw.next_pid;
    c->ts = l->ts_ns;
    c->valid = 1;
    if (sw.next_pid) {
        struct sum_thread *t = sum_thread(s, sw.next_pid);
        /* the comm is parsed only for a thread not named yet */
        if (t && !t->name[0] && (sw.next_comm || tev_parse_switch(l->args, l->args_len, &sw)))
            sum_copy_name(t->name, sw.next_comm, sw.next_comm_len);
        if (t)
            sum_launch_state(s, t, TS_RUN, l->ts_ns);
    }
}

/* The line's task without the blanks around it.  The fast reader
 * (summary_fast.c) leaves them for the few lines that need the task;
 * the tokenizer's task has none, and this changes nothing there. */
static size_t task(const struct tev_line *l, const char **t)
{
    const char *a = l->task, *b = a + l->task_len;
    while (a < b && ws(*a))
        a++;
    while (b > a && ws(b[-1]))
        b--;
    *t = a;
    return (size_t)(b - a);
}

static int frame_kind(const struct tev_mark *m, const struct tev_line *l)
{
    static const char dofr[] = "Choreographer#doFrame", draw[] = "DrawFrame";
    size_t k = sizeof(dofr) - 1;
    const char *t;
    if (m->name_len >= k && m->name[0] == 'C' && !memcmp(m->name, dofr, k) &&
        (m->name_len == k || m->name[k] == ' '))
        return FK_DOFRAME;
    if (m->name_len >= sizeof(draw) - 1 && m->name[0] == 'D' &&
        !memcmp(m->name, draw, sizeof(draw) - 1) && task(l, &t) == 12 &&
        !memcmp(t, "RenderThread", 12))
        return FK_DRAWFRAME;
    return -1;
}

static void slice_begin(struct summary *s, struct sum_thread *t, const struct tev_mark *m,
                        const struct tev_line *l)
{
    int kind = frame_kind(m, l);
    if (kind >= 0) {
        t->fs[kind].frames++;
        if (t->nopen < SUM_OPEN_FRAMES)
            t->open[t->nopen++] = (struct sum_open){t->depth, (uint8_t)kind, l->ts_ns};
        else
            s->t.dropped++;
    }
    sum_slice_push(s, t, m->name, m->name_len, l->ts_ns);
    t->depth++;
}

static void slice_end(struct summary *s, struct sum_thread *t, uint64_t ts)
{
    if (!t->depth)
        return;         /* an end without a begin: Perfetto ignores it */
    t->depth--;
    sum_slice_pop(s, t, ts);
    if (!t->nopen || t->open[t->nopen - 1].level != t->depth)
        return;
    struct sum_open *o = &t->open[--t->nopen];
    struct sum_fstat *f = &t->fs[o->kind];
    uint64_t dur = ts >= o->ts ? ts - o->ts : 0;
    sum_frame_dur(s, t, o->kind, dur);
    for (unsigned i = 0; i < SUM_RATES; i++)
        f->janky[i] += dur * sum_rates[i] > 1000000000ull;
    if (dur > f->worst_ns) {
        f->worst_ns = dur;
        f->worst_ts = o->ts;
    }
}

/* tev_parse_mark, with the usual markers read here first:
 * `B|TGID|NAME` and `E` or `E|TGID` give what it gives for them. */
static int parse_mark(const char *p, size_t n, struct tev_mark *m)
{
    size_t k = n, i = 2;
    while (k && (p[k - 1] == '\n' || p[k - 1] == '\0' || p[k - 1] == '\r'))
        k--;
    int b = k >= 3 && p[0] == 'B' && p[1] == '|', e = k >= 3 && p[0] == 'E' && p[1] == '|';
    int64_t v = 0;
    for (; (b || e) && i < k && i < 20 && dig(p[i]); i++)      /* 18 digits: no overflow */
        v = v * 10 + (p[i] - '0');
    if (b && i > 2 && i < k && p[i] == '|') {   /* the first '|': digits before */
        *m = (struct tev_mark){.phase = 'B', .tgid = v, .name = p + i + 1, .name_len = k - i - 1};
        return 1;
    }
    if ((e && i > 2 && i == k) || (k == 1 && p[0] == 'E')) {
        *m = (struct tev_mark){.phase = 'E', .tgid = k == 1 ? -1 : v};
        return 1;
    }
    return tev_parse_mark(p, n, m);
}

static void on_mark(struct summary *s, const struct tev_line *l)
{
    struct tev_mark m;
    if (!parse_mark(l->args, l->args_len, &m))
        return;         /* not an app's marker (the clock-sync one) */
    s->have_marks = 1;
    if (m.phase == 'C')
        sum_vsync_flip(s, m.name, m.name_len, l->ts_ns);
    if (m.phase == 'S' || m.phase == 'F' || m.phase == 'I')
        sum_launch_mark(s, NULL, &m, l->ts_ns);
    if (m.phase != 'B' && m.phase != 'E')
        return;
    struct sum_thread *t = sum_thread(s, l->tid);
    if (!t)
        return;
    if (!t->name[0]) {
        const char *tk;
        size_t tn = task(l, &tk);
        if (!(tn == 5 && !memcmp(tk, "<...>", 5)))
            sum_copy_name(t->name, tk, tn);
    }
    if (m.phase == 'E') {
        slice_end(s, t, l->ts_ns);
        sum_launch_mark(s, t, &m, l->ts_ns);
        return;
    }
    if (m.tgid > 0)
        t->tgid = m.tgid;
    sum_launch_mark(s, t, &m, l->ts_ns);
    slice_begin(s, t, &m, l);
}

/* The clock sync marker is no event of the trace (Perfetto's bounds leave
 * it out too): a piece carries it from the trace's start. */
static int clock_sync(const struct tev_line *l, int kind)
{
    static const char sync[] = "trace_event_clock_sync";
    return kind == SK_MARK && l->args_len >= sizeof(sync) - 1 &&
           !memcmp(l->args, sync, sizeof(sync) - 1);
}

void sum_event(struct summary *s, const struct tev_line *l, int kind)
{
    struct summary_totals *t = &s->t;
    t->events++;
    if (clock_sync(l, kind))
        return;
    if (!s->have_events || l->ts_ns < t->first_ns)
        t->first_ns = l->ts_ns;
    if (!s->have_events || l->ts_ns > t->last_ns)
        t->last_ns = l->ts_ns;
    s->have_events = 1;
    if (l->cpu < SUM_CPUS_MAX && l->cpu + 1 > t->cpus)
        t->cpus = l->cpu + 1;
    if (l->tgid >= 0) {
        struct sum_thread *th = sum_thread(s, l->tid);
        if (th)
            th->tgid = l->tgid;
    }
    if (kind == SK_SWITCH)
        on_switch(s, l);
    else if (kind == SK_MARK)
        on_mark(s, l);
}

void sum_line_event(struct summary *s, const struct tev_line *l)
{
    const struct sum_evname *e = sum_count_name(s, l->event, l->event_len);
    sum_event(s, l, e ? e->kind : sum_event_kind(l->event, l->event_len));
}

/* ---- one line of ftrace text ----------------------------------------- */

static int starts(const char *p, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && !memcmp(p, lit, k);
}

/* '#' lines: the header's CPU count, LOST notices, CPU buffer starts. */
static void comment_line(struct summary *s, const char *p, size_t n)
{
    if (starts(p, n, "# CPU:")) {
        long long lost = stext_lost(p + 2, n - 2);
        if (lost > 0)
            s->t.lost += (uint64_t)lost;
    } else if (s->part_body && coverage_cpu_marker(p, n)) {
        sum_reset_events(s);
        s->part_body = 0;
    } else if (!s->part_body) {
        const char *at = memmem(p, n, "#P:", 3);
        if (at) {
            unsigned v = 0;
            for (at += 3; at < p + n && *at >= '0' && *at <= '9' && v < SUM_CPUS_MAX; at++)
                v = v * 10 + (unsigned)(*at - '0');
            s->header_cpus = v;
        }
    }
}

void sum_ftrace_line(struct summary *s, const char *p, size_t n)
{
    if (n && p[n - 1] == '\r')
        n--;
    if (n && p[0] == '#') {
        comment_line(s, p, n);
        return;
    }
    s->part_body = 1;
    struct tev_line l;
    if (tev_parse_line(p, n, &l))
        sum_line_event(s, &l);
}
