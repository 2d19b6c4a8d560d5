/* Kernel trace categories and the events they enable; see ftrace_cats.h.
 * Event lists follow AOSP atrace's kernel categories; catapult's linux
 * target set (its `disk` wants block_rq_issue/complete) is contained. */
#include "ftrace_cats.h"

#include <stdlib.h>
#include <string.h>

#define EVS(...) (const char *const[]){__VA_ARGS__, NULL}

const struct fcat ftrace_categories[] = {
    {"sched", "CPU Scheduling",
     EVS("+sched/sched_switch", "+sched/sched_wakeup", "sched/sched_waking",
         "sched/sched_wakeup_new", "sched/sched_blocked_reason", "sched/sched_cpu_hotplug",
         "sched/sched_pi_setprio", "sched/sched_process_exit",
         "oom/oom_score_adj_update", "task/task_rename", "task/task_newtask")},
    {"freq", "CPU Frequency",
     EVS("+power/cpu_frequency", "power/clock_set_rate", "power/clock_disable",
         "power/clock_enable", "clk/clk_set_rate", "clk/clk_disable", "clk/clk_enable",
         "power/cpu_frequency_limits", "power/suspend_resume", "cpuhp/cpuhp_enter",
         "cpuhp/cpuhp_exit", "cpuhp/cpuhp_pause")},
    {"idle", "CPU Idle", EVS("+power/cpu_idle")},
    {"irq", "IRQ Events", EVS("+irq/*", "ipi/*")},
    {"irqoff", "IRQ-disabled code section tracing",
     EVS("+preemptirq/irq_enable", "+preemptirq/irq_disable")},
    {"preemptoff", "Preempt-disabled code section tracing",
     EVS("+preemptirq/preempt_enable", "+preemptirq/preempt_disable")},
    {"i2c", "I2C Events",
     EVS("+i2c/i2c_read", "+i2c/i2c_write", "+i2c/i2c_result", "+i2c/i2c_reply",
         "i2c/smbus_read", "i2c/smbus_write", "i2c/smbus_result", "i2c/smbus_reply")},
    {"membus", "Memory Bus Utilization", EVS("+memory_bus/*")},
    {"disk", "Disk I/O",
     EVS("block/block_rq_issue", "block/block_rq_complete", "block/block_bio_queue",
         "block/block_bio_complete", "f2fs/f2fs_sync_file_enter", "f2fs/f2fs_sync_file_exit",
         "f2fs/f2fs_write_begin", "f2fs/f2fs_write_end", "ext4/ext4_da_write_begin",
         "ext4/ext4_da_write_end", "ext4/ext4_sync_file_enter", "ext4/ext4_sync_file_exit",
         "ufs/ufshcd_command")},
    {"mmc", "eMMC commands", EVS("+mmc/*")},
    {"load", "CPU Load", EVS("+cpufreq_interactive/*")},
    {"sync", "Synchronization", EVS("sync/*", "fence/*", "dma_fence/*")},
    {"workq", "Kernel Workqueues", EVS("+workqueue/*")},
    {"memreclaim", "Kernel Memory Reclaim",
     EVS("+vmscan/mm_vmscan_direct_reclaim_begin", "+vmscan/mm_vmscan_direct_reclaim_end",
         "+vmscan/mm_vmscan_kswapd_wake", "+vmscan/mm_vmscan_kswapd_sleep",
         "lowmemorykiller/*")},
    {"regulators", "Voltage and Current Regulators", EVS("+regulator/*")},
    {"binder_driver", "Binder Kernel driver",
     EVS("+binder/binder_transaction", "+binder/binder_transaction_received",
         "+binder/binder_transaction_alloc_buf", "binder/binder_set_priority")},
    {"binder_lock", "Binder global lock trace",
     EVS("binder/binder_lock", "binder/binder_locked", "binder/binder_unlock")},
    {"pagecache", "Page cache", EVS("+filemap/*")},
    {"memory", "Memory",
     EVS("kmem/rss_stat", "kmem/ion_heap_grow", "kmem/ion_heap_shrink", "ion/ion_stat",
         "gpu_mem/gpu_mem_total")},
    {"thermal", "Thermal event",
     EVS("+thermal/thermal_temperature", "thermal/cdev_update")},
    {NULL, NULL, NULL},
};

struct evset {
    char **v;           /* sorted "sub/event" */
    size_t n, cap;
};

struct evset *evset_new(void)
{
    return calloc(1, sizeof(struct evset));
}

void evset_free(struct evset *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    free(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum st_err push(char ***v, size_t *n, size_t *cap, const char *p, size_t len)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 256;
        char **nv = realloc(*v, c * sizeof(char *));
        if (!nv)
            return ST_ENOMEM;
        *v = nv;
        *cap = c;
    }
    char *s = malloc(len + 1);
    if (!s)
        return ST_ENOMEM;
    memcpy(s, p, len);
    s[len] = '\0';
    (*v)[(*n)++] = s;
    return ST_OK;
}

enum st_err evset_parse(struct evset *s, const char *text, size_t n)
{
    const char *p = text, *end = text + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *colon = memchr(p, ':', len);
        if (colon && colon > p && colon + 1 < p + len && len < 512) {
            char item[512];
            memcpy(item, p, len);
            item[colon - p] = '/';
            enum st_err e = push(&s->v, &s->n, &s->cap, item, len);
            if (e)
                return e;
        }
        p += len + 1;
    }
    if (s->n)
        qsort(s->v, s->n, sizeof(char *), cmp_str);
    return ST_OK;
}

size_t evset_count(const struct evset *s)
{
    return s->n;
}

/* First index whose string is >= key. */
static size_t lower_bound(const struct evset *s, const char *key)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(s->v[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int has_full(const struct evset *s, const char *ev)
{
    size_t i = lower_bound(s, ev);
    return i < s->n && !strcmp(s->v[i], ev);
}

int evset_has(const struct evset *s, const char *sub, const char *event)
{
    char key[512];
    size_t a = strlen(sub), b = strlen(event);
    if (a + b + 2 > sizeof(key))
        return 0;
    memcpy(key, sub, a);
    key[a] = '/';
    memcpy(key + a + 1, event, b + 1);
    return has_full(s, key);
}

void evlist_free(struct evlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

int evlist_has(const struct evlist *l, const char *ev)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], ev))
            return 1;
    return 0;
}

static enum st_err evlist_add(struct evlist *l, const char *ev)
{
    return evlist_has(l, ev) ? ST_OK : push(&l->v, &l->n, &l->cap, ev, strlen(ev));
}

/* Adds the events SPEC ("sub/event" or "sub/\*") stands for; *found
 * counts them. With out == NULL only counts. */
static enum st_err expand(const struct evset *s, const char *spec, struct evlist *out,
                          size_t *found)
{
    size_t len = strlen(spec);
    if (len >= 2 && !strcmp(spec + len - 2, "/*")) {
        char prefix[256];
        if (len > sizeof(prefix) - 1)
            return ST_OK;
        memcpy(prefix, spec, len - 1);     /* "sub/" */
        prefix[len - 1] = '\0';
        for (size_t i = lower_bound(s, prefix);
             i < s->n && !strncmp(s->v[i], prefix, len - 1); i++) {
            (*found)++;
            enum st_err e = out ? evlist_add(out, s->v[i]) : ST_OK;
            if (e)
                return e;
        }
        return ST_OK;
    }
    if (!has_full(s, spec))
        return ST_OK;
    (*found)++;
    return out ? evlist_add(out, spec) : ST_OK;
}

const struct fcat *fcat_find(const char *name)
{
    for (const struct fcat *c = ftrace_categories; c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    return NULL;
}

int fcat_available(const struct fcat *c, const struct evset *s)
{
    size_t any = 0;
    for (const char *const *e = c->events; *e; e++) {
        size_t found = 0;
        int req = **e == '+';
        expand(s, *e + req, NULL, &found);
        if (req && !found)
            return 0;
        any += found;
    }
    return any > 0;
}

/* "sub/event", "sub:event" or "sub/\* " given as a category. */
static enum st_err resolve_event(const struct evset *s, const char *name, struct evlist *out,
                                 size_t *found)
{
    char spec[256];
    size_t len = strlen(name);
    if (len >= sizeof(spec))
        return ST_OK;
    memcpy(spec, name, len + 1);
    char *sep = strpbrk(spec, "/:");
    if (!sep || sep == spec || !sep[1] || strpbrk(sep + 1, "/:"))
        return ST_OK;
    *sep = '/';
    return expand(s, spec, out, found);
}

static enum st_err add_category(const struct evset *s, const struct fcat *c,
                                struct evlist *out)
{
    for (const char *const *e = c->events; *e; e++) {
        size_t found = 0;
        enum st_err err = expand(s, *e + (**e == '+'), out, &found);
        if (err)
            return err;
    }
    return ST_OK;
}

enum st_err fcat_resolve(const struct evset *s, char *const *cats, size_t n,
                         struct evlist *events, struct dynbuf *unavailable)
{
    for (size_t i = 0; i < n; i++) {
        const struct fcat *c = fcat_find(cats[i]);
        enum st_err e = ST_OK;
        size_t found = 0;
        if (c && fcat_available(c, s))
            e = add_category(s, c, events);
        else if (!c)
            e = resolve_event(s, cats[i], events, &found);
        if (e)
            return e;
        if ((c && !fcat_available(c, s)) || (!c && !found)) {
            if (unavailable->len)
                dynbuf_addc(unavailable, ' ');
            dynbuf_addstr(unavailable, cats[i]);
        }
    }
    return ST_OK;
}

enum st_err fcat_list(const struct evset *s, struct dynbuf *out)
{
    size_t shown = 0;
    for (const struct fcat *c = ftrace_categories; c->name; c++) {
        if (!fcat_available(c, s))
            continue;
        if (!shown++ && dynbuf_addstr(out, "tracing config:\n"))
            return ST_ENOMEM;
        if (dynbuf_printf(out, "%-16s :  %s\n", c->name, c->desc))
            return ST_ENOMEM;
    }
    if (!shown)
        return dynbuf_addstr(out, "No tracing categories available - perhaps you need root?\n");
    return ST_OK;
}
