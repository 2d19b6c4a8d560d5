/*
 * Counter packets (pftev.h) as trace-event counters ("C"), each named as
 * Perfetto names its counter track (trace processor v58.2), with its
 * value in Perfetto's unit, at the packet's time on the trace's clock:
 *   ProcessStats (9): per process (pid) mem.virt, mem.rss, mem.rss.anon,
 *     mem.rss.file, mem.rss.shmem, mem.swap, mem.locked, mem.rss.watermark,
 *     mem.dmabuf_rss, mem.smaps.*, chrome.* (bytes, from kB), oom_score_adj,
 *     runtime.user_ns / kernel_ns;
 *   SysStats (7): meminfo (bytes) and vmstat by their /proc names
 *     (pftev_sysnames.c), cpu.times.*_ns and cpufreq per CPU (the arg
 *     "cpuN": one counter, a series a CPU), num_forks, num_irq_total,
 *     num_softirq_total, "num_irq (id: N)", "num_softirq (id: N)",
 *     "<devfreq key> Frequency", psi.<cpu|io|mem>.<some|full>, thermal zones
 *     by their type, cpuidle<cpu>.<state> per CPU;
 *   BatteryCounters (38): batt.[name.]charge_uah, capacity_pct,
 *     current_ua, current.avg_ua, voltage_uv and power_mw (from current
 *     and voltage);
 *   PowerRails (40): power.rails.<Perfetto's friendly name> or
 *     power.<rail>_uws by the descriptors' index, at each sample's own
 *     timestamp_ms when it has one;
 *   GpuCounterEvent (52): by its descriptor's spec names; as Perfetto
 *     stores it, a sample's value at the time of the one before it (a
 *     GPU counter's value covers the interval it ends), the first one
 *     dropped and 0 at the last time (pftev_finish).
 * Global counters go on pid 0.  Other sys_stats parts (buddy info, disk
 * stats, slab info, gpufreq: Perfetto derives or places them its own way)
 * and interned GPU descriptors are counted in the note.
 */
#include "pftev_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

#define RAILS_MAX 257       /* Perfetto skips indexes over 256 */

/* ---- one counter value ---------------------------------------------------- */

static enum st_err emit(struct pftev *v, const char *name, const char *sub, uint64_t ts,
                        int32_t pid, const char *key, double val)
{
    char full[256];
    snprintf(full, sizeof(full), "%s%s%s", sub ? sub : "", sub ? "." : "", name);
    ev_start(v, 'C');
    ev_add(v, ",\"name\":");
    ev_str(v, full, strlen(full));
    ev_ts(v, ts);
    ev_pidtid(v, pid, pid);
    ev_add(v, ",\"args\":{\"");
    ev_add(v, key);
    ev_add(v, "\":");
    if (val != val || val - val != 0)
        ev_add(v, "null}");
    else if (val > -9e18 && val < 9e18 && val == (double)(int64_t)val) {
        ev_int(v, (int64_t)val);
        ev_add(v, "}");
    } else
        ev_addf(v, "%.17g}", val);
    v->st.counters++;
    return ev_emit(v);
}

/* ---- process stats ------------------------------------------------------ */

static const struct {
    uint8_t num, kb;
    const char *name;
} proc_fields[] = {
    {2, 1, "mem.virt"}, {3, 1, "mem.rss"}, {4, 1, "mem.rss.anon"}, {5, 1, "mem.rss.file"},
    {6, 1, "mem.rss.shmem"}, {7, 1, "mem.swap"}, {8, 1, "mem.locked"},
    {9, 1, "mem.rss.watermark"}, {10, 0, "oom_score_adj"},
    {13, 1, "chrome.private_footprint_kb"}, {14, 1, "chrome.peak_resident_set_kb"},
    {16, 1, "mem.smaps.rss"}, {17, 1, "mem.smaps.pss"}, {18, 1, "mem.smaps.pss.anon"},
    {19, 1, "mem.smaps.pss.file"}, {20, 1, "mem.smaps.pss.smem"},
    {23, 1, "mem.smaps.swap.pss"}, {21, 0, "runtime.user_ns"},
    {22, 0, "runtime.kernel_ns"}, {24, 1, "mem.dmabuf_rss"},
};

static enum st_err process(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    int32_t pid = -1;
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.num == 1 && f.wire == PB_VARINT)
            pid = (int32_t)f.v;
    if (k || pid < 0) {
        v->st.dropped++;
        return ST_OK;
    }
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.wire != PB_VARINT)
            continue;
        for (size_t i = 0; i < sizeof(proc_fields) / sizeof(*proc_fields); i++) {
            if (proc_fields[i].num != f.num)
                continue;
            double val = f.num == 10 ? (double)(int64_t)f.v : (double)f.v;
            e = emit(v, proc_fields[i].name, NULL, ts, pid, "value",
                     proc_fields[i].kb ? val * 1024 : val);
        }
    }
    return e;
}

static enum st_err process_stats(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1)
        if (f.num == 1 && f.wire == PB_LEN)
            e = process(v, ts, f.p, f.len);
    return e;
}

/* ---- sys stats ---------------------------------------------------------- */

/* MeminfoValue / VmstatValue / InterruptCount / DevfreqValue: key 1, value 2. */
static int key_value(const uint8_t *p, size_t n, struct pb_field *key, uint64_t *val)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    memset(key, 0, sizeof(*key));
    *val = 0;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1)
            *key = f;
        else if (f.num == 2 && f.wire == PB_VARINT)
            *val = f.v;
    }
    return k;
}

static const char *const cpu_times[] = {
    NULL, NULL, "cpu.times.user_ns", "cpu.times.user_nice_ns", "cpu.times.system_mode_ns",
    "cpu.times.idle_ns", "cpu.times.io_wait_ns", "cpu.times.irq_ns", "cpu.times.softirq_ns",
    "cpu.times.steal_ns",
};

/* CpuTimes: cpu_id 1, the times 2-9 (absent ones 0, as Perfetto has them). */
static enum st_err cpu_stat(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t vals[10] = {0}, cpu = 0;
    char key[32];
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.wire == PB_VARINT && f.num == 1)
            cpu = f.v;
        else if (f.wire == PB_VARINT && f.num >= 2 && f.num <= 9)
            vals[f.num] = f.v;
    if (k) {
        v->st.dropped++;
        return ST_OK;
    }
    snprintf(key, sizeof(key), "cpu%llu", (unsigned long long)cpu);
    enum st_err e = ST_OK;
    for (int i = 2; i <= 9 && !e; i++)
        e = emit(v, cpu_times[i], NULL, ts, 0, key, (double)vals[i]);
    return e;
}

/* cpufreq_khz: one a CPU, in order, packed or not (proto2 writes it
 * unpacked): *ncpu counts the CPUs of the message so far. */
static enum st_err cpufreq(struct pftev *v, uint64_t ts, const struct pb_field *f,
                           unsigned *ncpu)
{
    struct pb_packed pk;
    uint64_t khz;
    char cpu[32];
    enum st_err e = ST_OK;
    if (f->wire == PB_VARINT) {
        snprintf(cpu, sizeof(cpu), "cpu%u", (*ncpu)++);
        return emit(v, "cpufreq", NULL, ts, 0, cpu, (double)f->v);
    }
    if (f->wire != PB_LEN) {
        v->st.dropped++;
        return ST_OK;
    }
    pb_packed_init(&pk, f);
    while (!e && pb_packed_next(&pk, &khz) == 1) {
        snprintf(cpu, sizeof(cpu), "cpu%u", (*ncpu)++);
        e = emit(v, "cpufreq", NULL, ts, 0, cpu, (double)khz);
    }
    return e;
}

/* PsiSample: resource 1, total_ns 2, as psi.<resource>.<some|full>. */
static enum st_err psi(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    static const char *const names[] = {NULL, "psi.cpu.some", "psi.cpu.full", "psi.io.some",
                                        "psi.io.full", "psi.mem.some", "psi.mem.full"};
    struct pb_field key;
    uint64_t val;
    if (key_value(p, n, &key, &val) || key.wire != PB_VARINT || !key.v || key.v > 6) {
        v->st.sys_other++;
        return ST_OK;
    }
    return emit(v, names[key.v], NULL, ts, 0, "value", (double)val);
}

/* ThermalZone: name 1, temp 2, type 3: a counter named by its type. */
static enum st_err thermal(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    char name[128] = "";
    uint64_t temp = 0;
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 3 && f.wire == PB_LEN)
            snprintf(name, sizeof(name), "%.*s", (int)(f.len < 100 ? f.len : 100),
                     (const char *)f.p);
        else if (f.num == 2 && f.wire == PB_VARINT)
            temp = f.v;
    }
    if (k || !name[0]) {
        v->st.sys_other++;
        return ST_OK;
    }
    return emit(v, name, NULL, ts, 0, "value", (double)temp);
}

/* CpuIdleState: cpu_id 1, entries 2 (state 1, duration_us 2), each
 * cpuidle<cpu>.<state> on its CPU. */
static enum st_err cpuidle(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f, st;
    uint64_t cpu = 0, us;
    char name[160], key[32];
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.num == 1 && f.wire == PB_VARINT)
            cpu = f.v;
    if (k) {
        v->st.sys_other++;
        return ST_OK;
    }
    snprintf(key, sizeof(key), "cpu%llu", (unsigned long long)cpu);
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.num != 2 || f.wire != PB_LEN)
            continue;
        if (key_value(f.p, f.len, &st, &us) || st.wire != PB_LEN) {
            v->st.sys_other++;
            continue;
        }
        snprintf(name, sizeof(name), "cpuidle%llu.%.*s", (unsigned long long)cpu,
                 (int)(st.len < 100 ? st.len : 100), (const char *)st.p);
        e = emit(v, name, NULL, ts, 0, key, (double)us);
    }
    return e;
}

static enum st_err sys_item(struct pftev *v, uint64_t ts, const struct pb_field *f,
                            unsigned *ncpu)
{
    struct pb_field key;
    uint64_t val;
    char name[160];
    if (f->wire == PB_VARINT && (f->num == 4 || f->num == 5 || f->num == 7))
        return emit(v, f->num == 4 ? "num_forks" : f->num == 5 ? "num_irq_total"
                       : "num_softirq_total", NULL, ts, 0, "value", (double)f->v);
    if (f->num == 3 && f->wire == PB_LEN)
        return cpu_stat(v, ts, f->p, f->len);
    if (f->num == 11)
        return cpufreq(v, ts, f, ncpu);
    if (f->num == 14 && f->wire == PB_LEN)
        return psi(v, ts, f->p, f->len);
    if (f->num == 15 && f->wire == PB_LEN)
        return thermal(v, ts, f->p, f->len);
    if (f->num == 16 && f->wire == PB_LEN)
        return cpuidle(v, ts, f->p, f->len);
    if (f->wire != PB_LEN || f->num < 1 || f->num > 10 || f->num == 9 ||
        key_value(f->p, f->len, &key, &val)) {
        v->st.sys_other += f->wire == PB_LEN || f->num == 17;   /* 17: gpufreq_mhz */
        return ST_OK;
    }
    const char *s = NULL;
    if (f->num == 1 || f->num == 2) {
        s = key.wire == PB_VARINT ? pftev_sysname(f->num == 2, key.v) : NULL;
        if (f->num == 1)
            val *= 1024;
    } else if ((f->num == 6 || f->num == 8) && key.wire == PB_VARINT) {
        snprintf(name, sizeof(name), "%s (id: %lld)", f->num == 6 ? "num_irq" : "num_softirq",
                 (long long)(int32_t)key.v);
        s = name;
    } else if (f->num == 10 && key.wire == PB_LEN) {
        snprintf(name, sizeof(name), "%.*s Frequency", (int)(key.len < 100 ? key.len : 100),
                 (const char *)key.p);
        s = name;
    }
    if (!s) {
        v->st.sys_other++;
        return ST_OK;
    }
    return emit(v, s, NULL, ts, 0, "value", (double)val);
}

static enum st_err sys_stats(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    unsigned ncpu = 0;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1)
        e = sys_item(v, ts, &f, &ncpu);
    return e;
}

/* ---- battery ------------------------------------------------------------ */

static enum st_err battery(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    char sub[128] = "batt";
    int64_t cur = 0, volt = 0;
    int has_cur = 0, has_volt = 0, k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.num == 5 && f.wire == PB_LEN)
            snprintf(sub, sizeof(sub), "batt.%.*s", (int)(f.len < 100 ? f.len : 100),
                     (const char *)f.p);
    if (k) {
        v->st.dropped++;
        return ST_OK;
    }
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.num == 2 && f.wire == PB_I32) {
            uint32_t u = (uint32_t)f.v;
            float x;
            memcpy(&x, &u, sizeof(x));
            e = emit(v, "capacity_pct", sub, ts, 0, "value", (double)x);
            continue;
        }
        if (f.wire != PB_VARINT)
            continue;
        int64_t x = (int64_t)f.v;
        if (f.num == 1)
            e = emit(v, "charge_uah", sub, ts, 0, "value", (double)x);
        else if (f.num == 3)
            e = emit(v, "current_ua", sub, ts, 0, "value", (double)x), cur = x, has_cur = 1;
        else if (f.num == 4)
            e = emit(v, "current.avg_ua", sub, ts, 0, "value", (double)x);
        else if (f.num == 7)
            e = emit(v, "voltage_uv", sub, ts, 0, "value", (double)x), volt = x, has_volt = 1;
    }
    /* discharging current is negative: the power drawn, positive */
    if (!e && has_cur && has_volt)
        e = emit(v, "power_mw", sub, ts, 0, "value", -((double)cur / 1e3) * ((double)volt / 1e6));
    return e;
}

/* ---- power rails -------------------------------------------------------- */

static const char *const friendly[][2] = {
    {"S4M_VDD_CPUCL0", "cpu.little"}, {"S3M_VDD_CPUCL1", "cpu.mid"},
    {"S2M_VDD_CPUCL2", "cpu.big"}, {"S5M_VDD_INT", "system.fabric"},
    {"S10M_VDD_TPU", "tpu"}, {"PPVAR_VSYS_PWR_DISP", "display"},
    {"VSYS_PWR_DISPLAY", "display"}, {"VSYS_PWR_MODEM", "modem"},
    {"S1M_VDD_MIF", "memory.interface"}, {"VSYS_PWR_WLAN_BT", "wifi.bt"},
    {"L2S_VDD_AOC_RET", "aoc.memory"}, {"S9S_VDD_AOC", "aoc.logic"},
    {"S5S_VDDQ_MEM", "ddr.a"}, {"S10S_VDD2L", "ddr.b"}, {"S4S_VDD2H_MEM", "ddr.c"},
    {"S2S_VDD_G3D", "gpu"}, {"L9S_GNSS_CORE", "gps"}, {"VSYS_PWR_RFFE", "radio.frontend"},
};

/* RailDescriptor: index 1, rail_name 2. */
static enum st_err rail_desc(struct pftev *v, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t index = 0;
    char raw[128] = "";
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            index = f.v;
        else if (f.num == 2 && f.wire == PB_LEN)
            snprintf(raw, sizeof(raw), "%.*s", (int)(f.len < 100 ? f.len : 100),
                     (const char *)f.p);
    }
    if (k || index >= RAILS_MAX) {
        v->st.dropped++;
        return ST_OK;
    }
    char name[160];
    snprintf(name, sizeof(name), "power.%s_uws", raw);
    for (size_t i = 0; i < sizeof(friendly) / sizeof(*friendly); i++)
        if (!strcmp(raw, friendly[i][0]))
            snprintf(name, sizeof(name), "power.rails.%s", friendly[i][1]);
    char *s = pftev_strdup((const uint8_t *)name, strlen(name));
    if (!s || pmap_put(&v->rails, index + 1, s)) {
        free(s);
        return ST_ENOMEM;
    }
    return ST_OK;
}

/* EnergyData: index 1, timestamp_ms 2, energy 3. */
static enum st_err energy(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t index = 0, val = 0;
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            index = f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            ts = f.v * 1000000;
        else if (f.num == 3 && f.wire == PB_VARINT)
            val = f.v;
    }
    const char *name = k ? NULL : pmap_get(&v->rails, index + 1);
    if (!name) {
        v->st.bad_counter++;
        return ST_OK;
    }
    return emit(v, name, NULL, ts, 0, "value", (double)val);
}

static enum st_err power_rails(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1)
        if (f.num == 1 && f.wire == PB_LEN)
            e = rail_desc(v, f.p, f.len);
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1)
        if (f.num == 2 && f.wire == PB_LEN)
            e = energy(v, ts, f.p, f.len);
    return e;
}

/* ---- GPU counters ------------------------------------------------------- */

struct gpu_counter {
    uint64_t last_ts;
    int has_last;
    char name[];
};

/* GpuCounterSpec: counter_id 1, name 2. */
static enum st_err gpu_spec(struct pftev *v, const uint8_t *p, size_t n)
{
    uint64_t id;
    const uint8_t *name;
    size_t len;
    int k = pb_id_name(p, n, &id, &name, &len);
    if (len > 200)
        len = 200;
    if (k || pmap_get(&v->gpuc, id))
        return ST_OK;       /* Perfetto keeps the first description */
    struct gpu_counter *c = calloc(1, sizeof(*c) + len + 1);
    if (!c)
        return ST_ENOMEM;
    if (len)
        memcpy(c->name, name, len);
    if (pmap_put(&v->gpuc, id, c)) {
        free(c);
        return ST_ENOMEM;
    }
    return ST_OK;
}

/* GpuCounter: counter_id 1, int_value 2, double_value 3. */
static enum st_err gpu_value(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t id = 0;
    double val = 0;
    int k;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            id = f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            val = (double)(int64_t)f.v;
        else if (f.num == 3 && f.wire == PB_I64)
            val = pb_double(f.v);
    }
    struct gpu_counter *c = k ? NULL : pmap_get(&v->gpuc, id);
    if (!c) {
        v->st.bad_counter++;
        return ST_OK;
    }
    uint64_t at = c->last_ts;
    int had = c->has_last;
    c->last_ts = ts;
    c->has_last = 1;
    return had ? emit(v, c->name, NULL, at, 0, "value", val) : ST_OK;
}

static enum st_err gpu_counters(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_LEN) {
            pb_iter_init(&in, f.p, f.len);
            while (!e && pb_next(&in, &g) == 1)
                if (g.num == 1 && g.wire == PB_LEN)
                    e = gpu_spec(v, g.p, g.len);
        } else if (f.num == 4)
            v->st.sys_other++;      /* an interned descriptor: not read */
    }
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1)
        if (f.num == 2 && f.wire == PB_LEN)
            e = gpu_value(v, ts, f.p, f.len);
    return e;
}

enum st_err pftev_finish(struct pftev *v)
{
    enum st_err e = ST_OK;
    for (size_t i = 0; i < v->gpuc.cap && !e; i++) {
        struct gpu_counter *c = v->gpuc.slots[i].val;
        if (c && c->has_last)
            e = emit(v, c->name, NULL, c->last_ts, 0, "value", 0);
    }
    return e ? e : v->err;
}

/* ---- dispatch ----------------------------------------------------------- */

int pftev_counter_kind(uint32_t num)
{
    return num == 7 || num == 9 || num == 38 || num == 40 || num == 52;
}

enum st_err pftev_counters(struct pftev *v, uint32_t num, uint64_t ts, const uint8_t *p,
                           size_t n)
{
    switch (num) {
    case 7:
        return sys_stats(v, ts, p, n);
    case 9:
        return process_stats(v, ts, p, n);
    case 38:
        return battery(v, ts, p, n);
    case 40:
        return power_rails(v, ts, p, n);
    default:
        return gpu_counters(v, ts, p, n);
    }
}
