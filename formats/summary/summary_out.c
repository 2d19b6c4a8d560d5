/*
 * The trace summary's results (summary.h): per-process totals from the
 * per-thread state, frames per app, the categories that recorded
 * nothing, and their two forms: a few terminal lines and a JSON object.
 *
 * Kernel categories are recognised by the names of the events they
 * enable (AOSP atrace's kernel category table; ftrace text carries the
 * event name without its subsystem, so subsystem wildcards become name
 * prefixes).  Any other category is a userspace one: its events are
 * atrace markers that do not say their category, so it is reported only
 * when no marker appeared at all.
 */
#include <stdlib.h>
#include <string.h>

#include "summary_int.h"

#define EVS(...) (const char *const[]){__VA_ARGS__, NULL}

static const struct {
    const char *cat;
    const char *const *prefixes;
} kcats[] = {
    {"sched", EVS("sched_", "oom_score_adj_update", "task_rename", "task_newtask")},
    {"freq", EVS("cpu_frequency", "clock_", "clk_", "suspend_resume", "cpuhp_")},
    {"idle", EVS("cpu_idle")},
    {"irq", EVS("irq_", "softirq_", "ipi_")},
    {"irqoff", EVS("irq_enable", "irq_disable")},
    {"preemptoff", EVS("preempt_enable", "preempt_disable")},
    {"i2c", EVS("i2c_", "smbus_")},
    {"membus", EVS("memory_bus")},
    {"disk", EVS("block_", "f2fs_", "ext4_", "ufshcd_")},
    {"mmc", EVS("mmc_")},
    {"load", EVS("cpufreq_interactive")},
    {"sync", EVS("sync_", "fence_", "dma_fence_")},
    {"workq", EVS("workqueue_")},
    {"memreclaim", EVS("mm_vmscan_", "lowmemory_kill")},
    {"regulators", EVS("regulator_")},
    {"binder_driver", EVS("binder_transaction", "binder_set_priority")},
    {"binder_lock", EVS("binder_lock", "binder_locked", "binder_unlock")},
    {"pagecache", EVS("mm_filemap_")},
    {"memory", EVS("rss_stat", "ion_heap_", "ion_stat", "gpu_mem_total")},
    {"thermal", EVS("thermal_temperature", "cdev_update")},
};

void sum_results_free(struct summary *s)
{
    free(s->procs);
    free(s->frames);
    free(s->empty);
    free(s->slices);
    s->slices = NULL;
    s->nslices = 0;
    s->procs = NULL;
    s->frames = NULL;
    s->empty = NULL;
    s->nprocs = s->nframes = s->nempty = 0;
}

/* ---- categories ------------------------------------------------------- */

static int name_seen(const struct summary *s, const char *prefix)
{
    size_t k = strlen(prefix);
    for (uint32_t i = 0; i < s->nnames; i++)
        if (s->names[i].len >= k && !memcmp(s->names[i].name, prefix, k))
            return 1;
    return 0;
}

/* 1: recorded something, 0: nothing, -1: cannot be known. */
static int category_recorded(const struct summary *s, const char *cat)
{
    for (size_t i = 0; i < sizeof(kcats) / sizeof(kcats[0]); i++) {
        if (strcmp(kcats[i].cat, cat))
            continue;
        for (const char *const *p = kcats[i].prefixes; *p; p++)
            if (name_seen(s, *p))
                return 1;
        return 0;
    }
    return s->have_marks ? -1 : 0;
}

static enum st_err find_empty(struct summary *s)
{
    if (!(s->empty = calloc(s->ncats + 1, sizeof(*s->empty))))
        return ST_ENOMEM;
    for (size_t i = 0; i < s->ncats; i++)
        if (category_recorded(s, s->cats[i]) == 0)
            s->empty[s->nempty++] = s->cats[i];
    return ST_OK;
}

/* ---- processes and frames --------------------------------------------- */

static int64_t thread_pid(const struct sum_thread *t)
{
    return t->tgid > 0 ? t->tgid : (int64_t)t->tid;
}

static const char *proc_name(const struct summary *s, int64_t pid)
{
    const char *n = sum_pname(s, pid);
    if (n && n[0])
        return n;
    const struct sum_thread *t = pid <= UINT32_MAX ? sum_thread_find(s, (uint32_t)pid) : NULL;
    return t && t->name[0] ? t->name : "";
}

static int by_cpu(const void *a, const void *b)
{
    const struct summary_proc *x = a, *y = b;
    if (x->cpu_ns != y->cpu_ns)
        return x->cpu_ns < y->cpu_ns ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_frames(const void *a, const void *b)
{
    const struct summary_frames *x = a, *y = b;
    if (x->frames != y->frames)
        return x->frames < y->frames ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_pid_proc(const void *a, const void *b)
{
    const struct summary_proc *x = a, *y = b;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* By pid, doFrame before DrawFrame: qsort need not be stable (msvcrt's
 * is not, nor glibc's since 2.37), and collect_frames keeps the first. */
static int by_pid(const void *a, const void *b)
{
    const struct summary_frames *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->source[0] == 'D') - (y->source[0] == 'D');
}

/* Threads' frame counts summed per process, doFrame and DrawFrame apart
 * (index 2p and 2p+1 of fr, sorted by pid). */
static void add_frames(struct summary *s, struct summary_frames *fr, size_t *n,
                       const struct sum_thread *t, int kind)
{
    const struct sum_fstat *f = &t->fs[kind];
    if (!f->frames)
        return;
    int64_t pid = thread_pid(t);
    struct summary_frames *e = NULL;
    for (size_t i = *n; i-- > 0;)
        if (fr[i].pid == pid && !strcmp(fr[i].source, kind ? "DrawFrame"
                                                           : "Choreographer#doFrame")) {
            e = &fr[i];
            break;
        }
    if (!e) {
        e = &fr[(*n)++];
        memset(e, 0, sizeof(*e));
        e->pid = pid;
        e->source = kind ? "DrawFrame" : "Choreographer#doFrame";
    }
    e->frames += f->frames;
    e->janky += f->janky[s->rate];
    if (f->worst_ns > e->worst_ns) {
        e->worst_ns = f->worst_ns;
        e->worst_at_ns = f->worst_ts - s->t.first_ns;
    }
}

/* Per app: its doFrame counts, or its RenderThread's DrawFrame ones. */
static enum st_err collect_frames(struct summary *s)
{
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < s->nth; i++)
        cap += (s->th[i].fs[0].frames != 0) + (s->th[i].fs[1].frames != 0);
    struct summary_frames *fr = calloc(cap ? cap : 1, sizeof(*fr));
    if (!fr)
        return ST_ENOMEM;
    for (uint32_t i = 0; i < s->nth; i++) {
        add_frames(s, fr, &n, &s->th[i], FK_DOFRAME);
        add_frames(s, fr, &n, &s->th[i], FK_DRAWFRAME);
    }
    qsort(fr, n, sizeof(*fr), by_pid);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int draw = fr[i].source[0] == 'D';
        if (draw && o && fr[o - 1].pid == fr[i].pid)
            continue;   /* the app has doFrame slices */
        fr[o] = fr[i];
        fr[o].process = proc_name(s, fr[o].pid);
        sum_frame_pcts(s, fr[o].pid, draw, &fr[o]);
        o++;
    }
    qsort(fr, o, sizeof(*fr), by_frames);
    s->frames = fr;
    s->nframes = o;
    return ST_OK;
}

/* Threads' CPU time summed per process: the threads sorted by process
 * (a copy of pid and time only), then runs added up. */
static enum st_err collect_procs(struct summary *s)
{
    struct summary_proc *v = calloc(s->nth ? s->nth : 1, sizeof(*v));
    if (!v)
        return ST_ENOMEM;
    size_t n = 0;
    for (uint32_t i = 0; i < s->nth; i++)
        if (s->th[i].cpu_ns && s->th[i].tid)
            v[n++] = (struct summary_proc){thread_pid(&s->th[i]), "", s->th[i].cpu_ns};
    qsort(v, n, sizeof(*v), by_pid_proc);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (o && v[o - 1].pid == v[i].pid) {
            v[o - 1].cpu_ns += v[i].cpu_ns;
            continue;
        }
        v[o++] = v[i];
    }
    for (size_t i = 0; i < o; i++) {
        v[i].name = proc_name(s, v[i].pid);
        s->t.busy_ns += v[i].cpu_ns;
    }
    qsort(v, o, sizeof(*v), by_cpu);
    s->procs = v;
    s->nprocs = o;
    return ST_OK;
}

enum st_err summary_finish(struct summary *s)
{
    if (s->finished)
        return ST_OK;
    s->finished = 1;
    if (s->header_cpus > s->t.cpus)
        s->t.cpus = s->header_cpus;
    s->rate = sum_vsync_rate(s, &s->t.vsync_ns);
    s->t.display_hz = sum_rates[s->rate];
    enum st_err e = collect_procs(s);
    if (!e)
        e = collect_frames(s);
    if (!e)
        e = sum_collect_slices(s);
    if (!e)
        e = find_empty(s);
    if (!e)
        e = sum_ftl_finish(s);
    return e;
}

const struct summary_totals *summary_totals(const struct summary *s)
{
    return &s->t;
}

const struct summary_proc *summary_procs(const struct summary *s, size_t *n)
{
    *n = s->nprocs;
    return s->procs;
}

const struct summary_frames *summary_frames(const struct summary *s, size_t *n)
{
    *n = s->nframes;
    return s->frames;
}

const char *const *summary_empty_categories(const struct summary *s, size_t *n)
{
    *n = s->nempty;
    return s->empty;
}

size_t summary_event_names(const struct summary *s)
{
    return s->nnames;
}

const char *summary_event_name(const struct summary *s, size_t i, uint64_t *count)
{
    *count = s->names[i].count;
    return s->names[i].name;
}
