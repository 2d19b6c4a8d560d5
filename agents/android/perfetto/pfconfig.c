/* The TraceConfig of a --perfetto capture; see pfconfig.h. */
#include "pfconfig.h"

#include "formats/perfetto/pbw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* atrace's kernel categories (frameworks/native atrace.cpp) as ftrace
 * events; what each enables on a phone, the events Perfetto knows; the
 * description atrace lists. */
static const struct {
    const char *cat;
    const char *longname;
    const char *events;
} kernel_cats[] = {
    {"sched", "CPU Scheduling",
     "sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new "
     "sched/sched_blocked_reason sched/sched_process_exit sched/sched_process_free "
     "task/task_newtask task/task_rename"},
    {"irq", "IRQ Events",
     "irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit "
     "irq/softirq_raise ipi/ipi_entry ipi/ipi_exit ipi/ipi_raise"},
    {"i2c", "I2C Events",
     "i2c/i2c_read i2c/i2c_write i2c/i2c_result i2c/i2c_reply"},
    {"freq", "CPU Frequency",
     "power/cpu_frequency power/cpu_frequency_limits power/clock_set_rate "
     "power/clock_enable power/clock_disable power/gpu_frequency"},
    {"idle", "CPU Idle",
     "power/cpu_idle"},
    {"disk", "Disk I/O",
     "block/block_rq_issue block/block_rq_complete f2fs/f2fs_sync_file_enter "
     "f2fs/f2fs_sync_file_exit ext4/ext4_da_write_begin ext4/ext4_da_write_end "
     "ext4/ext4_sync_file_enter ext4/ext4_sync_file_exit"},
    {"mmc", "eMMC commands",
     "mmc/mmc_request_start mmc/mmc_request_done"},
    {"sync", "Synchronization",
     "sync/sync_timeline sync/sync_wait sync/sync_pt dma_fence/dma_fence_init "
     "dma_fence/dma_fence_signaled dma_fence/dma_fence_destroy"},
    {"workq", "Kernel Workqueues",
     "workqueue/workqueue_execute_start workqueue/workqueue_execute_end "
     "workqueue/workqueue_queue_work workqueue/workqueue_activate_work"},
    {"memreclaim", "Kernel Memory Reclaim",
     "vmscan/mm_vmscan_direct_reclaim_begin vmscan/mm_vmscan_direct_reclaim_end "
     "vmscan/mm_vmscan_kswapd_wake vmscan/mm_vmscan_kswapd_sleep "
     "lowmemorykiller/lowmemory_kill oom/oom_score_adj_update"},
    {"regulators", "Voltage and Current Regulators",
     "regulator/regulator_enable regulator/regulator_disable "
     "regulator/regulator_set_voltage regulator/regulator_set_voltage_complete"},
    {"binder_driver", "Binder Kernel driver",
     "binder/binder_transaction binder/binder_transaction_received "
     "binder/binder_transaction_alloc_buf binder/binder_set_priority"},
    {"binder_lock", "Binder global lock trace",
     "binder/binder_lock binder/binder_locked binder/binder_unlock"},
    {"pagecache", "Page cache",
     "filemap/mm_filemap_add_to_page_cache "
     "filemap/mm_filemap_delete_from_page_cache"},
    {"memory", "Memory",
     "kmem/rss_stat kmem/ion_heap_grow kmem/ion_heap_shrink"},
    {"thermal", "Thermal event",
     "thermal/thermal_temperature thermal/cdev_update"},
};

static const char *kernel_events(const char *cat)
{
    for (size_t i = 0; i < sizeof(kernel_cats) / sizeof(*kernel_cats); i++)
        if (!strcmp(kernel_cats[i].cat, cat))
            return kernel_cats[i].events;
    return NULL;
}

/* Names that go into the config and a device shell as they are. */
const char *pfconfig_kernel_category(size_t i, const char **longname)
{
    if (i >= sizeof(kernel_cats) / sizeof(*kernel_cats))
        return NULL;
    *longname = kernel_cats[i].longname;
    return kernel_cats[i].cat;
}

static int plain(const char *s, const char *extra)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || strchr(extra, *s)))
            return 0;
    return 1;
}

/* The ftrace config in both forms: text (inside ftrace_config { }) and
 * binary (FtraceConfig fields). */
struct both {
    struct dynbuf text, bin;
};

static void add_string(struct both *f, const char *key, uint32_t num, const char *s, size_t n)
{
    dynbuf_printf(&f->text, "      %s: \"%.*s\"\n", key, (int)n, s);
    pbw_bytes(&f->bin, num, s, n);
}

static void add_events(struct both *f, const char *list)
{
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, " ");
        add_string(f, "ftrace_events", 1, p, n);
        p += n;
        p += *p == ' ';
    }
}

static enum st_err add_apps(struct both *f, const char *apps, struct dynbuf *why)
{
    for (const char *p = apps; p && *p;) {
        size_t n = strcspn(p, ",");
        char app[256];
        snprintf(app, sizeof(app), "%.*s", (int)n, p);
        if (n >= sizeof(app) || !plain(app, ".:-*")) {
            dynbuf_reset(why);
            dynbuf_printf(why, "-a %s: not an app or process name", app);
            return ST_EINVAL;
        }
        if (n)
            add_string(f, "atrace_apps", 3, p, n);
        p += n;
        p += *p == ',';
    }
    return ST_OK;
}

static enum st_err ftrace_part(const struct capture_opts *o, const struct atrace_cats *avail,
                               struct pfconfig *cfg, struct both *f, struct dynbuf *dropped)
{
    for (size_t i = 0; i < o->ncategories; i++) {
        const char *cat = o->categories[i];
        const char *ev = kernel_events(cat);
        if (!plain(cat, "-")) {
            dynbuf_reset(dropped);
            dynbuf_printf(dropped, "%s: not a category name", cat);
            return ST_EINVAL;
        }
        if (ev) {
            add_events(f, ev);
            cfg->nkernel++;
        } else if (atrace_cats_has(avail, cat)) {
            add_string(f, "atrace_categories", 2, cat, strlen(cat));
            cfg->nuser++;
        } else {
            dynbuf_printf(dropped, "%s%s", dropped->len ? " " : "", cat);
        }
    }
    return add_apps(f, o->apps, dropped);
}

/* Data sources beyond ftrace that a preset asks for, as Perfetto's record
 * page writes them; the first SDK that has each (Perfetto's docs:
 * frame timeline Android 12, packages list, battery and power rails
 * Android 10). */
static const struct {
    unsigned bit;
    const char *name;
    int sdk;
} sources[] = {
    {PF_SRC_FRAMETIMELINE, "android.surfaceflinger.frametimeline", 31},
    {PF_SRC_PACKAGES, "android.packages_list", 29},
    {PF_SRC_BATTERY, "android.power", 29},
    {PF_SRC_POWER_RAILS, "android.power (power rails)", 29},
};

#define BATTERY_POLL_MS 1000
#define PROC_POLL_MS 1000

/* Which wanted sources the device has; the others named in lacking. */
static unsigned sources_kept(unsigned want, int sdk, char *lacking, size_t n)
{
    unsigned keep = want;
    size_t used = 0;
    for (size_t i = 0; i < sizeof(sources) / sizeof(*sources); i++) {
        if (!(want & sources[i].bit) || sdk >= sources[i].sdk)
            continue;
        keep &= ~sources[i].bit;
        int w = snprintf(lacking + used, n - used, "%s%s (Android SDK %d+)", used ? ", " : "",
                         sources[i].name, sources[i].sdk);
        used += w > 0 && (size_t)w < n - used ? (size_t)w : 0;
    }
    return keep;
}

/* One data source with its config message (field num; none when 0). */
static void add_source(struct pfconfig *cfg, const char *name, uint32_t num,
                       const char *key, const char *text, struct dynbuf *bin)
{
    struct dynbuf ds, sub;
    dynbuf_init(&ds, 1 << 16);
    dynbuf_init(&sub, 1 << 16);
    dynbuf_printf(&cfg->text, "data_sources {\n  config {\n    name: \"%s\"\n", name);
    if (num)
        dynbuf_printf(&cfg->text, "    %s {\n%s    }\n", key, text);
    dynbuf_addstr(&cfg->text, "  }\n}\n");
    pbw_str(&ds, 1, name);
    if (num)
        pbw_msg(&ds, num, bin);
    pbw_msg(&sub, 1, &ds);
    pbw_msg(&cfg->binary, 2, &sub);
    dynbuf_free(&ds);
    dynbuf_free(&sub);
}

/* linux.process_stats: names at the start; polled for memory counters
 * when a preset asks. */
static void add_process_stats(struct pfconfig *cfg, unsigned keep)
{
    struct dynbuf t, b;
    dynbuf_init(&t, 4096);
    dynbuf_init(&b, 4096);
    dynbuf_addstr(&t, "      scan_all_processes_on_start: true\n");
    pbw_uint(&b, 2, 1);
    if (keep & PF_SRC_PROC_POLL) {
        dynbuf_printf(&t, "      proc_stats_poll_ms: %u\n", PROC_POLL_MS);
        pbw_uint(&b, 4, PROC_POLL_MS);
    }
    add_source(cfg, "linux.process_stats", 103, "process_stats_config", dynbuf_str(&t), &b);
    dynbuf_free(&t);
    dynbuf_free(&b);
}

/* android.power: battery counters (BatteryCounters CHARGE 1,
 * CAPACITY_PERCENT 2, CURRENT 3, VOLTAGE 5) and/or power rails. */
static void add_power(struct pfconfig *cfg, unsigned keep)
{
    static const struct { const char *name; unsigned v; } counters[] = {
        {"BATTERY_COUNTER_CHARGE", 1}, {"BATTERY_COUNTER_CAPACITY_PERCENT", 2},
        {"BATTERY_COUNTER_CURRENT", 3}, {"BATTERY_COUNTER_VOLTAGE", 5},
    };
    struct dynbuf t, b;
    dynbuf_init(&t, 4096);
    dynbuf_init(&b, 4096);
    if (keep & PF_SRC_BATTERY) {
        dynbuf_printf(&t, "      battery_poll_ms: %u\n", BATTERY_POLL_MS);
        pbw_uint(&b, 1, BATTERY_POLL_MS);
        for (size_t i = 0; i < sizeof(counters) / sizeof(*counters); i++) {
            dynbuf_printf(&t, "      battery_counters: %s\n", counters[i].name);
            pbw_uint(&b, 2, counters[i].v);
        }
    }
    if (keep & PF_SRC_POWER_RAILS) {
        dynbuf_addstr(&t, "      collect_power_rails: true\n");
        pbw_uint(&b, 3, 1);
    }
    add_source(cfg, "android.power", 106, "android_power_config", dynbuf_str(&t), &b);
    dynbuf_free(&t);
    dynbuf_free(&b);
}

static void add_preset_sources(struct pfconfig *cfg, unsigned keep)
{
    if (keep & PF_SRC_FRAMETIMELINE)
        add_source(cfg, "android.surfaceflinger.frametimeline", 0, NULL, NULL, NULL);
    if (keep & PF_SRC_PACKAGES)
        add_source(cfg, "android.packages_list", 0, NULL, NULL, NULL);
    if (keep & (PF_SRC_BATTERY | PF_SRC_POWER_RAILS))
        add_power(cfg, keep);
}

/* buffers and linux.ftrace, in both forms */
static void add_ftrace(struct pfconfig *cfg, struct both *f, uint32_t kb)
{
    struct dynbuf ds, sub;
    dynbuf_init(&ds, 1 << 20);
    dynbuf_init(&sub, 1 << 20);
    dynbuf_printf(&cfg->text, "buffers {\n  size_kb: %u\n  fill_policy: RING_BUFFER\n}\n"
                  "data_sources {\n  config {\n    name: \"linux.ftrace\"\n"
                  "    ftrace_config {\n%s      compact_sched {\n        enabled: true\n"
                  "      }\n    }\n  }\n}\n", kb, dynbuf_str(&f->text));
    /* buffers 1 {size_kb 1, fill_policy 4 = RING_BUFFER (1)} */
    pbw_uint(&sub, 1, kb);
    pbw_uint(&sub, 4, 1);
    pbw_msg(&cfg->binary, 1, &sub);
    pbw_uint(&sub, 1, 1);                 /* compact_sched.enabled */
    pbw_msg(&f->bin, 12, &sub);
    pbw_bytes(&ds, 1, "linux.ftrace", 12);
    pbw_msg(&ds, 100, &f->bin);
    pbw_msg(&sub, 1, &ds);
    pbw_msg(&cfg->binary, 2, &sub);      /* data_sources { config { ... } } */
    dynbuf_free(&ds);
    dynbuf_free(&sub);
}

void pfconfig_add_stop(struct pfconfig *cfg, uint32_t duration_ms)
{
    dynbuf_printf(&cfg->text, "duration_ms: %u\nwrite_into_file: true\n"
                  "file_write_period_ms: %u\n", duration_ms, PFCONFIG_WRITE_PERIOD_MS);
    pbw_uint(&cfg->binary, 3, duration_ms);
    pbw_uint(&cfg->binary, 8, 1);         /* write_into_file */
    pbw_uint(&cfg->binary, 9, PFCONFIG_WRITE_PERIOD_MS);
}

enum st_err pfconfig_make(const struct capture_opts *o, const struct atrace_cats *avail,
                          int sdk, struct pfconfig *cfg, struct dynbuf *dropped)
{
    memset(cfg, 0, sizeof(*cfg));
    dynbuf_init(&cfg->text, 1 << 20);
    dynbuf_init(&cfg->binary, 1 << 20);
    struct both f;
    dynbuf_init(&f.text, 1 << 20);
    dynbuf_init(&f.bin, 1 << 20);
    enum st_err e = ftrace_part(o, avail, cfg, &f, dropped);
    uint32_t kb = o->buf_kb > 0 ? (uint32_t)o->buf_kb : PFCONFIG_DEFAULT_KB;
    uint32_t ms = o->time_ms > 0 ? (uint32_t)o->time_ms : 0;
    if (!e) {
        unsigned keep = sources_kept(o->pf_sources, sdk, cfg->lacking, sizeof(cfg->lacking));
        add_ftrace(cfg, &f, kb);
        add_process_stats(cfg, keep);
        add_preset_sources(cfg, keep);
        pfconfig_add_stop(cfg, ms);
        if (!cfg->binary.len || !cfg->text.len)
            e = ST_ENOMEM;
    }
    dynbuf_free(&f.text);
    dynbuf_free(&f.bin);
    return e;
}

void pfconfig_free(struct pfconfig *cfg)
{
    dynbuf_free(&cfg->text);
    dynbuf_free(&cfg->binary);
}

enum st_err pfconfig_echo_binary(const struct pfconfig *cfg, struct dynbuf *cmd)
{
    const unsigned char *p = (const unsigned char *)cfg->binary.data;
    dynbuf_addstr(cmd, "echo -n '");
    for (size_t i = 0; i < cfg->binary.len; i++)
        dynbuf_printf(cmd, "\\0%03o", p[i]);
    return dynbuf_addstr(cmd, "'");
}
