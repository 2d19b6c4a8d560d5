/*
 * `am profile start [--user U] [--sampling N] [--streaming] PROCESS FILE`
 * and `am profile stop [--user U] PROCESS`: method tracing of an app.
 * On stop the device writes FILE: a copy of the --method-trace host file,
 * or a valid classic method trace (version 3, dual clock; format in
 * reference/method-trace-format.md): main's run()/work() and then, every
 * 6 ms of the profile, a Trace.beginSection ... endSection on the app's
 * main or second thread, whose B|pid|SimSection#k / E|pid lines are put
 * into the trace at the matching times (see write_app_trace).
 * PROCESS is a pid or a process name from the table (sim_ps.c).
 */
#include "sim_atrace.h"
#include "sim_cmds.h"
#include "sim_ps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sim_proc *find_process(const char *what)
{
    uint64_t pid;
    if (!sim_parse_u64(what, &pid))
        return pid < 1000000 ? sim_proc_find((int)pid) : NULL;
    for (size_t i = 0; i < sim_proc_count(); i++)
        if (!strcmp(sim_proc_at(i)->name, what))
            return sim_proc_at(i);
    return NULL;
}

static void le16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Simulated app sections: every SECTION_PERIOD_US one thread of the app
 * calls Trace.beginSection (-> traceBegin) ... endSection; the atrace B
 * line is written B_DELAY_US after beginSection is entered, on the
 * ftrace clock (CLOCK_MONOTONIC here), and the method trace's clock is
 * CLOCK_MONOTONIC plus $ADBSIM_APP_CLOCK_SKEW_US (default 0: ART's
 * MicroTime; other values model a clock atrace's markers do not know).
 * So after alignment, ftrace = method time + B_DELAY_US - skew. */
#define SECTION_PERIOD_US 6000u
#define SECTION_FIRST_US 3000u
#define SECTION_MAX 2000u
#define B_DELAY_US 5u
#define MARKERS_MAX 100000u

enum { M_RUN = 0x4, M_WORK = 0x8, M_BEGIN = 0xc, M_TBEGIN = 0x10, M_END = 0x14,
       M_TEND = 0x18, M_FRAME = 0x1c };

struct recs {
    unsigned char *p;
    size_t n, cap;
};

static void rec(struct recs *r, int tid, uint32_t method, uint64_t wall)
{
    if (r->n + 14 > r->cap)
        return;
    unsigned char *q = r->p + r->n;
    le16(q, (unsigned)tid & 0xffff);
    le32(q + 2, method);
    le32(q + 6, (uint32_t)(wall / 2));
    le32(q + 10, (uint32_t)wall);
    r->n += 14;
}

static int64_t app_clock_skew_us(void)
{
    const char *s = getenv("ADBSIM_APP_CLOCK_SKEW_US");
    return s ? strtoll(s, NULL, 10) : 0;
}

static size_t nsections(uint64_t elapsed_us)
{
    if (elapsed_us < SECTION_FIRST_US + 3000)
        return 0;
    size_t n = (size_t)((elapsed_us - SECTION_FIRST_US - 3000) / SECTION_PERIOD_US) + 1;
    return n < SECTION_MAX ? n : SECTION_MAX;
}

static const struct sim_thread *section_thread(const struct sim_proc *p, size_t k)
{
    return &p->threads[p->nthreads > 1 && k % 3 == 2 ? 1 : 0];
}

/* Irregular spacing (0..2 ms of jitter), so that a wrong offset cannot
 * line most sections up with others. */
static uint64_t section_at(size_t k)
{
    return SECTION_FIRST_US + k * SECTION_PERIOD_US + (k * k * 7919u + k * 104729u) % 2000u;
}

static uint64_t section_len(size_t k)
{
    return 500 + (k * 337) % 1500;
}

/* A classic v3 trace: main enters run(), run() calls work(), both exit;
 * then the sections. */
static int write_app_trace(struct sim_sink *out, const struct sim_proc *p,
                           uint64_t start_us, uint64_t elapsed_us)
{
    char keys[2048];
    const char *t1 = p->nthreads > 1 ? p->threads[1].comm : "main";
    int t1id = p->nthreads > 1 ? p->threads[1].tid : p->pid;
    size_t ns = nsections(elapsed_us);
    int n = snprintf(keys, sizeof(keys),
        "*version\n3\ndata-file-overflow=false\nclock=dual\n"
        "elapsed-time-usec=%llu\nnum-method-calls=%zu\n"
        "clock-call-overhead-nsec=100\nvm=art\npid=%d\n"
        "*threads\n%d\tmain\n%d\t%s\n"
        "*methods\n"
        "0x4\tcom.example.sim.Main\trun\t()V\tMain.java\n"
        "0x8\tcom.example.sim.Main\twork\t(I)V\tMain.java\n"
        "0xc\tandroid.os.Trace\tbeginSection\t(Ljava/lang/String;)V\tTrace.java\n"
        "0x10\tandroid.os.Trace\ttraceBegin\t(JLjava/lang/String;)V\tTrace.java\n"
        "0x14\tandroid.os.Trace\tendSection\t()V\tTrace.java\n"
        "0x18\tandroid.os.Trace\ttraceEnd\t(J)V\tTrace.java\n"
        "0x1c\tcom.example.sim.Main\tframe\t()V\tMain.java\n"
        "*end\n", (unsigned long long)elapsed_us, 4 + ns * 12, p->pid, p->pid,
        t1id == p->pid ? p->pid + 1 : t1id, t1);
    if (n < 0 || (size_t)n >= sizeof(keys))
        return -1;
    unsigned char hdr[32] = {0};
    le32(hdr, 0x574F4C53u);
    le16(hdr + 4, 3);
    le16(hdr + 6, 32);
    for (int i = 0; i < 8; i++)
        hdr[8 + i] = (unsigned char)(start_us >> (8 * i));
    le16(hdr + 16, 14);
    struct recs r = {NULL, 0, (4 + ns * 12) * 14};
    if (!(r.p = malloc(r.cap)))
        return -1;
    rec(&r, p->pid, M_RUN, 0);
    rec(&r, p->pid, M_WORK, 12);
    rec(&r, p->pid, M_WORK | 1, 50);
    rec(&r, p->pid, M_RUN | 1, 60);
    for (size_t k = 0; k < ns; k++) {
        int tid = section_thread(p, k)->tid;
        uint64_t t = section_at(k), d = section_len(k);
        static const struct { uint32_t m; int64_t at; } seq[] = {
            {M_FRAME, -2}, {M_BEGIN, 0}, {M_TBEGIN, 1}, {M_TBEGIN | 1, 3},
            {M_BEGIN | 1, 4}, {M_WORK, 10},
        };
        for (size_t i = 0; i < sizeof(seq) / sizeof(*seq); i++)
            rec(&r, tid, seq[i].m, (uint64_t)((int64_t)t + seq[i].at));
        rec(&r, tid, M_WORK | 1, t + 10 + d);
        rec(&r, tid, M_END, t + d + 12);
        rec(&r, tid, M_TEND, t + d + 13);
        rec(&r, tid, M_TEND | 1, t + d + 15);
        rec(&r, tid, M_END | 1, t + d + 16);
        rec(&r, tid, M_FRAME | 1, t + d + 18);
    }
    int rc = sink_write(out, keys, (size_t)n) || sink_write(out, hdr, 32) ||
             sink_write(out, r.p, r.n) ? -1 : 0;
    free(r.p);
    return rc;
}

static int cmp_marker(const void *a, const void *b)
{
    const struct sim_marker *x = a, *y = b;
    return (x->ts_ns > y->ts_ns) - (x->ts_ns < y->ts_ns);
}

void sim_add_marker(struct sim_trace *t, int tid, int cpu, const char *comm, uint64_t ts_ns,
                    const char *text)
{
    if (t->nmarkers == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct sim_marker *m = realloc(t->markers, cap * sizeof(*m));
        if (!m)
            return;
        t->markers = m;
        t->cap = cap;
    }
    char *copy = strdup(text);
    if (!copy)
        return;
    struct sim_marker *m = &t->markers[t->nmarkers++];
    m->ts_ns = ts_ns;
    m->pid = tid;
    m->cpu = cpu;
    m->text = copy;
    m->comm = comm;
}

void sim_sort_markers(struct sim_trace *t)
{
    if (t->nmarkers)    /* qsort's base may not be NULL, even for 0 items */
        qsort(t->markers, t->nmarkers, sizeof(*t->markers), cmp_marker);
}

static void add_section_marker(struct sim_trace *t, const struct sim_thread *th, int pid,
                               uint64_t ts_ns, const char *text)
{
    sim_add_marker(t, th->tid, (int)(pid & 3), th->comm, ts_ns, text);
}

/* The app wrote its sections into trace_marker while it was profiled;
 * they are added now (in time order) since only now the window is known. */
static void add_section_markers(struct sim_device *dev, const struct sim_proc *p,
                                uint64_t start_ns, uint64_t elapsed_us)
{
    pthread_mutex_lock(&dev->lock);
    struct sim_trace *t = dev->trace;
    size_t ns = nsections(elapsed_us);
    uint64_t skew_ns = (uint64_t)(app_clock_skew_us() * 1000);
    for (size_t k = 0; t->on && k < ns && t->nmarkers + 2 <= MARKERS_MAX; k++) {
        const struct sim_thread *th = section_thread(p, k);
        /* the app's clock is mono + skew: back to mono for ftrace */
        uint64_t t0 = start_ns - skew_ns + section_at(k) * 1000;
        char text[64];
        snprintf(text, sizeof(text), "B|%d|SimSection#%zu", p->pid, k);
        add_section_marker(t, th, p->pid, t0 + B_DELAY_US * 1000, text);
        snprintf(text, sizeof(text), "E|%d", p->pid);
        add_section_marker(t, th, p->pid, t0 + (section_len(k) + 16) * 1000, text);
    }
    sim_sort_markers(t);
    pthread_mutex_unlock(&dev->lock);
}

static int copy_host_file(struct sim_sink *out, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[65536];
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(buf, 1, sizeof(buf), f)) > 0)
        rc = sink_write(out, buf, n);
    fclose(f);
    return rc;
}

static int profile_start(struct sh_cmd *c, const struct sim_proc *p,
                         const char *file)
{
    struct sim_device *dev = c->sh->dev;
    int rc = -1, busy = 0;
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < SIM_MAX_PROFILES; i++)
        if (dev->profiles[i].active && dev->profiles[i].pid == p->pid)
            busy = 1;
    for (int i = 0; i < SIM_MAX_PROFILES && !busy && rc; i++) {
        struct sim_profile *s = &dev->profiles[i];
        if (!s->active) {
            s->active = 1;
            s->pid = p->pid;
            snprintf(s->file, sizeof(s->file), "%s", file);
            s->start_ns = sim_now_ns();
            rc = 0;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    if (rc)
        sink_puts(c->err, "Error: profiling already active or too many "
                          "profiles\n");
    return rc ? 255 : 0;
}

static int profile_stop(struct sh_cmd *c, const struct sim_proc *p)
{
    struct sim_device *dev = c->sh->dev;
    struct sim_profile s = {0, 0, "", 0};
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < SIM_MAX_PROFILES; i++)
        if (dev->profiles[i].active && dev->profiles[i].pid == p->pid) {
            s = dev->profiles[i];
            dev->profiles[i].active = 0;
        }
    pthread_mutex_unlock(&dev->lock);
    if (!s.active)
        return 0;   /* am is silent when nothing was profiling */
    struct sim_sink *out;
    if (sim_fs_open_write(dev->fs, s.file, 0, p->pid, &out))
        return 0;   /* the app fails to write; am does not report it */
    uint64_t now = sim_now_ns();
    uint64_t app_start_ns = s.start_ns + (uint64_t)(app_clock_skew_us() * 1000);
    if (dev->opt.method_trace) {
        copy_host_file(out, dev->opt.method_trace);
    } else {
        write_app_trace(out, p, app_start_ns / 1000, (now - s.start_ns) / 1000);
        add_section_markers(dev, p, app_start_ns, (now - s.start_ns) / 1000);
    }
    if (out->close)
        out->close(out);
    return 0;
}

int sim_cmd_am(struct sh_cmd *c)
{
    if (c->argc >= 2 && (!strcmp(c->argv[1], "start") || !strcmp(c->argv[1], "force-stop")))
        return sim_launch_am(c);
    if (c->argc < 3 || strcmp(c->argv[1], "profile")) {
        sink_puts(c->err, "usage: am profile start [--user U] [--sampling N] "
                          "PROCESS FILE\n       am profile stop PROCESS\n");
        return 255;
    }
    int start = !strcmp(c->argv[2], "start");
    if (!start && strcmp(c->argv[2], "stop")) {
        sink_printf(c->err, "Error: unknown profile command '%s'\n",
                    c->argv[2]);
        return 255;
    }
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 3; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "--user") || !strcmp(a, "--sampling")) {
            i++;
        } else if (a[0] == '-' && a[1] == '-') {
            /* --streaming, --dump-file ... accepted */
        } else if (npos < 2) {
            pos[npos++] = a;
        }
    }
    if (npos < (start ? 2 : 1)) {
        sink_puts(c->err, "Error: missing PROCESS or FILE\n");
        return 255;
    }
    const struct sim_proc *p = find_process(pos[0]);
    if (!p || !*p->name) {
        sink_printf(c->err, "Exception occurred while executing 'profile':\n"
                    "java.lang.IllegalArgumentException: Unknown process: "
                    "%s\n", pos[0]);
        return 255;
    }
    return start ? profile_start(c, p, pos[1]) : profile_stop(c, p);
}
