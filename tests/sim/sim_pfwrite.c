/*
 * The Perfetto trace the simulated `perfetto` writes: the kernel activity
 * of the atrace model (sim_tracegen.c, the same processes, switches,
 * wakings, frequencies, idle states and atrace slices), read line by line
 * and encoded as traced_probes records it (perfetto_trace.proto):
 *
 *   system_info (utsname), process_tree (every process and thread of the
 *   table in sim_ps.c, when linux.process_stats was asked for), then one
 *   FtraceEventBundle per CPU every BUNDLE_EVENTS events: sched_switch and
 *   sched_waking in compact_sched (delta timestamps, an intern table of
 *   comms) when the config enables it, else as full events; sched_wakeup,
 *   cpu_frequency, cpu_idle and print (the atrace slices) as full events.
 *
 * The trace is written whole (pf_write_trace) or in pieces as time passes
 * (pf_writer_upto, for write_into_file): each piece ends with every CPU's
 * bundle flushed, and a bundle carries its own intern table and absolute
 * first timestamp, so pieces need nothing from earlier ones.
 *
 * --perfetto-junk (a hostile device): after the system_info packet, before
 * the process tree, 64 KiB of 0xff: a top-level varint that never ends (at
 * most 10 bytes are valid), long enough to reach a host in several pieces;
 * the packets after it are valid again.
 *
 * The device's trace markers made while the session records (am start's
 * launch slices, sim_launch.c) are print events like the atrace slices.
 * With the android.surfaceflinger.frametimeline data source (Android 12+),
 * SurfaceFlinger's frame timeline (sim_pfframes.c) goes between the
 * bundles, each frame once the text has passed its time.
 *
 * Timestamps keep the text's microsecond resolution.  Binder and
 * workqueue lines of the model are not encoded (the config decides which
 * events a phone records; these are rarely asked for).  Perfetto's trace
 * processor reads the result without errors (tests/e2e/sim_perfetto.sh).
 */
#include "sim_perfetto.h"
#include "sim_atrace.h"
#include "sim_ps.h"
#include "sim_tracegen.h"
#include "formats/perfetto/pbw.h"

#include <stdlib.h>
#include <string.h>

#define NCPU 4
#define BUNDLE_EVENTS 2000
#define MAX_INTERN 512
#define BUF_MAX (64u << 20)
#define CHUNK (256 * 1024)

enum { SW_TS, SW_STATE, SW_PID, SW_PRIO, SW_COMM, WK_TS, WK_PID, WK_CPU, WK_PRIO,
       WK_COMM, WK_FLAGS, NARR };

struct pcpu {
    struct dynbuf events;       /* FtraceEvent fields (2) of the bundle */
    struct dynbuf arr[NARR];    /* compact sched arrays */
    char *intern[MAX_INTERN];
    size_t nintern, count;
    uint64_t last_sw, last_wk;
};

struct pf_writer {
    struct pcpu cpu[NCPU];
    struct dynbuf pkt, sub, tmp;
    int compact;
    struct sim_sink *out;
    int failed;
    const struct pf_config *cfg;
    int header_done;
    int junk;                               /* --perfetto-junk */
    struct tracegen *gen;
    const char *tags[PF_MAX_ITEMS + 1];     /* the generator's, kept here */
    char *buf;                              /* its text */
    size_t carry;                           /* an unfinished line */
    struct sim_device *dev;
    uint64_t begin_ns, end_ns;
    struct sim_marker *marks;               /* the device's markers in the window */
    size_t nmarks;
    struct pf_frames *frames;               /* NULL: no frame timeline asked for */
    uint64_t last_ts;                       /* of the last line read */
};

/* The packet in w->pkt, as a Trace.packet, to the output. */
static void emit(struct pf_writer *w)
{
    pbw_uint(&w->pkt, 10, 1);     /* trusted_packet_sequence_id */
    dynbuf_reset(&w->tmp);
    pbw_msg(&w->tmp, 1, &w->pkt);
    if (!w->failed && sink_write(w->out, w->tmp.data, w->tmp.len))
        w->failed = 1;
}

static void flush_cpu(struct pf_writer *w, int cpu)
{
    static const uint32_t num[NARR] = {1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12};
    struct pcpu *c = &w->cpu[cpu];
    if (!c->count)
        return;
    struct dynbuf bundle;
    dynbuf_init(&bundle, BUF_MAX);
    pbw_uint(&bundle, 1, (uint64_t)cpu);
    dynbuf_add(&bundle, c->events.data, c->events.len);
    if (c->nintern) {
        for (size_t i = 0; i < c->nintern; i++)
            pbw_str(&w->sub, 5, c->intern[i]);
        for (int i = 0; i < NARR; i++)
            if (c->arr[i].len)
                pbw_msg(&w->sub, num[i], &c->arr[i]);
        pbw_msg(&bundle, 4, &w->sub);
    }
    pbw_msg(&w->pkt, 1, &bundle);
    dynbuf_free(&bundle);
    emit(w);
    dynbuf_reset(&c->events);
    for (size_t i = 0; i < c->nintern; i++)
        free(c->intern[i]);
    c->nintern = c->count = 0;
    c->last_sw = c->last_wk = 0;
}

static size_t intern(struct pf_writer *w, int cpu, const char *s, size_t n)
{
    struct pcpu *c = &w->cpu[cpu];
    for (size_t i = 0; i < c->nintern; i++)
        if (strlen(c->intern[i]) == n && !memcmp(c->intern[i], s, n))
            return i;
    if (c->nintern == MAX_INTERN)
        flush_cpu(w, cpu);
    c->intern[c->nintern] = strndup(s, n);
    return c->intern[c->nintern] ? c->nintern++ : 0;
}

/* The value of "key=" in args (up to a blank or the end); NULL if absent. */
static const char *arg(const char *args, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    for (const char *p = args; (p = strstr(p, key)); p += kl)
        if ((p == args || p[-1] == ' ') && p[kl] == '=') {
            p += kl + 1;
            *len = strcspn(p, " \n");
            return p;
        }
    return NULL;
}

static uint64_t num_arg(const char *args, const char *key)
{
    size_t n;
    const char *p = arg(args, key, &n);
    return p ? strtoull(p, NULL, 10) : 0;
}

static uint64_t state_bits(const char *args)
{
    size_t n;
    const char *s = arg(args, "prev_state", &n);
    if (!s || !n)
        return 0;
    /* kernel 4.14+ report values: S 1, D 2, R+ preempted (TASK_REPORT_MAX) */
    if (n == 2 && !memcmp(s, "R+", 2))
        return 0x100;
    return *s == 'S' ? 1 : *s == 'D' ? 2 : 0;
}

static void full_event(struct pf_writer *w, int cpu, uint64_t ts, int tid, uint32_t id,
                       struct dynbuf *body)
{
    struct pcpu *c = &w->cpu[cpu];
    struct dynbuf ev;
    dynbuf_init(&ev, BUF_MAX);
    pbw_uint(&ev, 1, ts);
    pbw_uint(&ev, 2, (uint64_t)tid);
    pbw_msg(&ev, id, body);
    pbw_msg(&c->events, 2, &ev);
    dynbuf_free(&ev);
}

static void sched_event(struct pf_writer *w, int cpu, uint64_t ts, int tid, int switch_,
                        const char *args)
{
    struct pcpu *c = &w->cpu[cpu];
    size_t n;
    const char *comm = arg(args, switch_ ? "next_comm" : "comm", &n);
    if (!comm)
        return;
    if (!w->compact) {
        struct dynbuf *b = &w->sub;
        if (switch_) {
            size_t pn;
            const char *pc = arg(args, "prev_comm", &pn);
            pbw_bytes(b, 1, pc ? pc : "", pc ? pn : 0);
            pbw_uint(b, 2, num_arg(args, "prev_pid"));
            pbw_uint(b, 3, num_arg(args, "prev_prio"));
            pbw_uint(b, 4, state_bits(args));
            pbw_bytes(b, 5, comm, n);
            pbw_uint(b, 6, num_arg(args, "next_pid"));
            pbw_uint(b, 7, num_arg(args, "next_prio"));
        } else {
            pbw_bytes(b, 1, comm, n);
            pbw_uint(b, 2, num_arg(args, "pid"));
            pbw_uint(b, 3, num_arg(args, "prio"));
            pbw_uint(b, 5, num_arg(args, "target_cpu"));
        }
        full_event(w, cpu, ts, tid, switch_ ? 4 : 20, b);
        return;
    }
    size_t idx = intern(w, cpu, comm, n);
    struct dynbuf *a = c->arr;
    if (switch_) {
        pbw_varint(&a[SW_TS], ts - c->last_sw);
        c->last_sw = ts;
        pbw_varint(&a[SW_STATE], state_bits(args));
        pbw_varint(&a[SW_PID], num_arg(args, "next_pid"));
        pbw_varint(&a[SW_PRIO], num_arg(args, "next_prio"));
        pbw_varint(&a[SW_COMM], idx);
    } else {
        pbw_varint(&a[WK_TS], ts - c->last_wk);
        c->last_wk = ts;
        pbw_varint(&a[WK_PID], num_arg(args, "pid"));
        pbw_varint(&a[WK_CPU], num_arg(args, "target_cpu"));
        pbw_varint(&a[WK_PRIO], num_arg(args, "prio"));
        pbw_varint(&a[WK_COMM], idx);
        pbw_varint(&a[WK_FLAGS], 1);
    }
}

/* One line of the model's text: "%16s-%-5d (-----) [%03d] FLAG S.US: ev: args". */
static void line(struct pf_writer *w, const char *s, size_t len)
{
    char l[1024];
    if (len >= sizeof(l))
        return;
    memcpy(l, s, len);
    l[len] = 0;
    char *tg = strstr(l, " (-----) [");
    if (!tg)
        return;
    char *dash = tg;
    while (dash > l && dash[-1] != '-')
        dash--;
    int tid = (int)strtol(dash, NULL, 10);
    int cpu = (int)strtol(tg + 10, NULL, 10);
    char *tsp = strchr(tg + 10, ']');
    if (!tsp || cpu < 0 || cpu >= NCPU)
        return;
    tsp += 7;   /* "] d..2 " */
    char *end;
    uint64_t secs = strtoull(tsp, &end, 10);
    if (*end != '.')
        return;
    uint64_t us = strtoull(end + 1, &end, 10);
    if (strncmp(end, ": ", 2))
        return;
    uint64_t ts = secs * 1000000000ull + us * 1000;
    w->last_ts = ts;
    char *ev = end + 2, *colon = strstr(ev, ": ");
    if (!colon)
        return;
    *colon = 0;
    const char *args = colon + 2;
    struct dynbuf *b = &w->sub;
    if (!strcmp(ev, "sched_switch") || !strcmp(ev, "sched_waking")) {
        sched_event(w, cpu, ts, tid, ev[6] == 's', args);
    } else if (!strcmp(ev, "sched_wakeup")) {
        size_t n;
        const char *comm = arg(args, "comm", &n);
        pbw_bytes(b, 1, comm ? comm : "", comm ? n : 0);
        pbw_uint(b, 2, num_arg(args, "pid"));
        pbw_uint(b, 3, num_arg(args, "prio"));
        pbw_uint(b, 4, 1);
        pbw_uint(b, 5, num_arg(args, "target_cpu"));
        full_event(w, cpu, ts, tid, 17, b);
    } else if (!strcmp(ev, "cpu_frequency") || !strcmp(ev, "cpu_idle")) {
        pbw_uint(b, 1, num_arg(args, "state"));
        pbw_uint(b, 2, num_arg(args, "cpu_id"));
        full_event(w, cpu, ts, tid, ev[4] == 'f' ? 11 : 13, b);
    } else if (!strcmp(ev, "tracing_mark_write")) {
        char text[1024];
        int n = snprintf(text, sizeof(text), "%s\n", args);
        pbw_uint(b, 1, 0xffffffc0100a2b3cull);
        pbw_bytes(b, 2, text, (size_t)n);
        full_event(w, cpu, ts, tid, 3, b);
    } else {
        return;
    }
    if (++w->cpu[cpu].count >= BUNDLE_EVENTS)
        flush_cpu(w, cpu);
}

static void write_junk(struct pf_writer *w)
{
    unsigned char ff[4096];
    memset(ff, 0xff, sizeof(ff));
    for (int i = 0; i < 16 && !w->failed; i++)
        if (sink_write(w->out, ff, sizeof(ff)))
            w->failed = 1;
}

static void header_packets(struct pf_writer *w, const struct pf_config *cfg)
{
    pbw_str(&w->sub, 1, "Linux");
    pbw_str(&w->sub, 3, "5.10.107-android13-4-00001-g0123456789ab");
    pbw_str(&w->sub, 2, "#1 SMP PREEMPT");
    pbw_str(&w->sub, 4, "aarch64");
    pbw_msg(&w->tmp, 1, &w->sub);
    pbw_msg(&w->pkt, 45, &w->tmp);
    emit(w);
    if (w->junk)
        write_junk(w);
    if (!cfg->process_stats)
        return;
    struct dynbuf tree;
    dynbuf_init(&tree, BUF_MAX);
    for (size_t i = 0; i < sim_proc_count(); i++) {
        const struct sim_proc *p = sim_proc_at(i);
        pbw_uint(&w->sub, 1, (uint64_t)p->pid);
        pbw_uint(&w->sub, 2, (uint64_t)p->ppid);
        if (p->name[0])
            pbw_str(&w->sub, 3, p->name);
        pbw_msg(&tree, 1, &w->sub);
        for (size_t j = 0; j < p->nthreads; j++) {
            pbw_uint(&w->sub, 1, (uint64_t)p->threads[j].tid);
            pbw_str(&w->sub, 2, p->threads[j].comm);
            pbw_uint(&w->sub, 3, (uint64_t)p->pid);
            pbw_msg(&tree, 2, &w->sub);
        }
    }
    pbw_msg(&w->pkt, 2, &tree);
    dynbuf_free(&tree);
    emit(w);
}

static unsigned groups_of(const struct pf_config *cfg)
{
    unsigned g = 0;
    for (size_t i = 0; i < cfg->nevents; i++) {
        const char *e = cfg->events[i];
        if (!strcmp(e, "sched/sched_switch") || !strcmp(e, "sched/sched_waking"))
            g |= GEN_SCHED;
        else if (!strcmp(e, "power/cpu_frequency"))
            g |= GEN_FREQ;
        else if (!strcmp(e, "power/cpu_idle"))
            g |= GEN_IDLE;
    }
    return g;
}

/* The generator's text for the trace: the events the config asked for
 * over the session's time.  Ring buffer (the file written at the end):
 * --size-mb over the window, else what the buffer holds.  Live
 * (write_into_file): drained every period, so no buffer cap; --size-mb is
 * spread over duration_ms when there is one, else --event-rate rules. */
static struct tracegen *generator(struct pf_writer *w, struct sim_device *dev,
                                  const struct pf_config *cfg, uint64_t begin_ns,
                                  uint64_t end_ns, int live)
{
    size_t nt = 0;
    for (size_t i = 0; i < cfg->ncats; i++)
        for (int k = 0; k < sim_category_count(); k++)
            if (sim_category_is_user(k) && !strcmp(sim_category_name(k), cfg->cats[i]))
                w->tags[nt++] = sim_category_name(k);
    w->tags[nt] = NULL;
    struct tracegen_cfg g;
    memset(&g, 0, sizeof(g));
    g.begin_ns = begin_ns;
    g.end_ns = end_ns;
    g.has_window = 1;
    g.groups = groups_of(cfg);
    g.tags = w->tags;
    g.event_rate = dev->opt.event_rate;
    g.seed = dev->opt.seed;
    g.live = live;
    if (!live || end_ns != UINT64_MAX)
        g.target_bytes = dev->opt.size_mb * 1000000u;
    /* text bytes the trace buffer holds: compact sched is about 8 times
     * denser than the text */
    if (!live && !dev->opt.size_mb)
        g.max_bytes = (uint64_t)(cfg->buffer_kb ? cfg->buffer_kb : 2048) * 1024u * 8u;
    return tracegen_new(&g);
}

/* SurfaceFlinger's data source, which Android 12 brought. */
static int wants_frame_timeline(const struct pf_config *cfg)
{
    for (size_t i = 0; i < cfg->nsources; i++)
        if (!strcmp(cfg->sources[i], "android.surfaceflinger.frametimeline"))
            return 1;
    return 0;
}

/* The frames whose time the text has passed (upto_ns: all up to it). */
static void frames_upto(struct pf_writer *w, uint64_t upto_ns)
{
    if (w->frames && !w->failed &&
        pf_frames_upto(w->frames, upto_ns, w->marks, w->nmarks, w->out))
        w->failed = 1;
}

struct pf_writer *pf_writer_new(struct sim_device *dev, const struct pf_config *cfg,
                                uint64_t begin_ns, uint64_t end_ns, int live,
                                int app_in_front, struct sim_sink *out)
{
    struct pf_writer *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->cfg = cfg;
    w->out = out;
    w->compact = cfg->compact_sched;
    w->junk = dev->opt.pf_junk;
    dynbuf_init(&w->pkt, BUF_MAX);
    dynbuf_init(&w->sub, BUF_MAX);
    dynbuf_init(&w->tmp, BUF_MAX);
    for (int c = 0; c < NCPU; c++) {
        dynbuf_init(&w->cpu[c].events, BUF_MAX);
        for (int i = 0; i < NARR; i++)
            dynbuf_init(&w->cpu[c].arr[i], BUF_MAX);
    }
    w->dev = dev;
    w->begin_ns = begin_ns;
    w->end_ns = end_ns;
    w->buf = malloc(CHUNK);
    w->gen = generator(w, dev, cfg, begin_ns, end_ns, live);
    int ftl = dev->opt.sdk >= 31 && wants_frame_timeline(cfg);
    if (ftl)
        w->frames = pf_frames_new(dev, begin_ns, end_ns, app_in_front);
    if (!w->buf || !w->gen || (ftl && !w->frames)) {
        pf_writer_free(w);
        return NULL;
    }
    return w;
}

static void free_marks(struct pf_writer *w)
{
    for (size_t i = 0; i < w->nmarks; i++)
        free(w->marks[i].text);
    free(w->marks);
    w->marks = NULL;
    w->nmarks = 0;
}

/* A copy of the device's markers since the session began (made while it
 * records: the generator merges them in at their time). */
static void take_marks(struct pf_writer *w)
{
    struct sim_trace *t = w->dev->trace;
    pthread_mutex_lock(&w->dev->lock);
    free_marks(w);
    w->marks = calloc(t->nmarkers + 1, sizeof(*w->marks));
    for (size_t i = 0; w->marks && i < t->nmarkers; i++) {
        if (t->markers[i].ts_ns < w->begin_ns || t->markers[i].ts_ns > w->end_ns)
            continue;   /* before the session, or made for a time after it ended */
        w->marks[w->nmarks] = t->markers[i];
        if ((w->marks[w->nmarks].text = strdup(t->markers[i].text)))
            w->nmarks++;
    }
    pthread_mutex_unlock(&w->dev->lock);
    tracegen_set_markers(w->gen, w->marks, w->nmarks);
}

int pf_writer_upto(struct pf_writer *w, uint64_t upto_ns)
{
    take_marks(w);
    if (!w->header_done)
        header_packets(w, w->cfg);
    w->header_done = 1;
    size_t n;
    char *buf = w->buf;
    while (!w->failed && (n = tracegen_read_upto(w->gen, buf + w->carry, CHUNK - w->carry,
                                                 upto_ns)) > 0) {
        n += w->carry;
        size_t at = 0;
        for (char *nl; (nl = memchr(buf + at, '\n', n - at)); at = (size_t)(nl - buf) + 1)
            if (buf[at] != '#')
                line(w, buf + at, (size_t)(nl - buf) - at);
        w->carry = n - at;
        memmove(buf, buf + at, w->carry);
        frames_upto(w, w->last_ts);
        if (CHUNK - w->carry < TRACEGEN_MIN_READ)
            w->carry = 0;
    }
    /* every bundle self-contained (its own intern table and first
     * timestamp), so the file ends on whole packets after each call */
    for (int c = 0; c < NCPU; c++)
        flush_cpu(w, c);
    frames_upto(w, upto_ns);
    return w->failed ? -1 : 0;
}

void pf_writer_free(struct pf_writer *w)
{
    if (!w)
        return;
    tracegen_free(w->gen);
    pf_frames_free(w->frames);
    for (int c = 0; c < NCPU; c++) {
        dynbuf_free(&w->cpu[c].events);
        for (int i = 0; i < NARR; i++)
            dynbuf_free(&w->cpu[c].arr[i]);
    }
    dynbuf_free(&w->pkt);
    dynbuf_free(&w->sub);
    dynbuf_free(&w->tmp);
    free(w->buf);
    free_marks(w);
    free(w);
}

int pf_write_trace(struct sim_device *dev, const struct pf_config *cfg,
                   uint64_t begin_ns, uint64_t end_ns, int app_in_front,
                   struct sim_sink *out)
{
    struct pf_writer *w = pf_writer_new(dev, cfg, begin_ns, end_ns, 0, app_in_front, out);
    int rc = w ? pf_writer_upto(w, UINT64_MAX) : -1;
    pf_writer_free(w);
    return rc;
}
