/*
 * Process table of the simulated device, /proc text, and `ps`.
 *
 * `ps` follows toybox (Android 8+): -A/-e all processes, -T threads,
 * -o FIELD[=TITLE],... with toybox's column widths and padding rules for
 * non-tty output (-w implied: fields widen, later fields give the width
 * back).  --legacy-ps switches to toolbox ps (Android <= 7): `ps`,
 * `ps -t` in the USER PID PPID VSIZE RSS WCHAN PC NAME format, and any
 * other option fails with "bad pid '-o'" (or, --legacy-ps-headers,
 * toolbox's real behaviour: unknown words are a name filter, so only the
 * header prints).
 */
#include "sim_ps.h"
#include "sim_shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define T(tid, comm, prio, role) {tid, comm, prio, role}

static const struct sim_thread th_init[] = {T(1, "init", 120, ROLE_NONE)};
static const struct sim_thread th_kthreadd[] = {
    T(2, "kthreadd", 120, ROLE_KERNEL)};
static const struct sim_thread th_ksoftirqd0[] = {
    T(10, "ksoftirqd/0", 120, ROLE_KERNEL)};
static const struct sim_thread th_rcu[] = {
    T(11, "rcu_preempt", 120, ROLE_KERNEL)};
static const struct sim_thread th_ksoftirqd1[] = {
    T(13, "ksoftirqd/1", 120, ROLE_KERNEL)};
static const struct sim_thread th_ksoftirqd2[] = {
    T(16, "ksoftirqd/2", 120, ROLE_KERNEL)};
static const struct sim_thread th_ksoftirqd3[] = {
    T(19, "ksoftirqd/3", 120, ROLE_KERNEL)};
static const struct sim_thread th_kworker0[] = {
    T(40, "kworker/0:1", 120, ROLE_KERNEL)};
static const struct sim_thread th_kworker1[] = {
    T(41, "kworker/1:1", 120, ROLE_KERNEL)};
static const struct sim_thread th_kworker_u[] = {
    T(42, "kworker/u8:2", 120, ROLE_KERNEL)};
static const struct sim_thread th_kswapd[] = {
    T(70, "kswapd0", 120, ROLE_KERNEL)};
static const struct sim_thread th_logd[] = {
    T(300, "logd", 130, ROLE_NONE), T(305, "logd.reader", 130, ROLE_NONE),
    T(306, "logd.writer", 130, ROLE_NONE)};
static const struct sim_thread th_sm[] = {
    T(400, "servicemanager", 120, ROLE_BINDER)};
static const struct sim_thread th_sf[] = {
    T(500, "surfaceflinger", 97, ROLE_SF),
    T(510, "RenderEngine", 97, ROLE_RENDER_ENGINE),
    T(511, "app", 97, ROLE_SF_VSYNC), T(512, "sf", 97, ROLE_SF_VSYNC),
    T(513, "binder:500_1", 120, ROLE_BINDER),
    T(514, "binder:500_2", 120, ROLE_BINDER)};
static const struct sim_thread th_composer[] = {
    T(600, "composer@2.4-se", 97, ROLE_AUDIO),
    T(601, "HwBinder:600_1", 97, ROLE_BINDER)};
static const struct sim_thread th_zygote[] = {T(700, "main", 120, ROLE_NONE)};
static const struct sim_thread th_audio[] = {
    T(800, "audioserver", 120, ROLE_AUDIO),
    T(810, "AudioOut_D", 101, ROLE_AUDIO),
    T(811, "binder:800_1", 120, ROLE_BINDER)};
static const struct sim_thread th_system[] = {
    T(1000, "system_server", 118, ROLE_AM),
    T(1010, "HeapTaskDaemon", 124, ROLE_GC),
    T(1011, "binder:1000_1", 120, ROLE_BINDER),
    T(1012, "binder:1000_2", 120, ROLE_BINDER),
    T(1020, "android.ui", 118, ROLE_WM),
    T(1021, "android.display", 116, ROLE_WM),
    T(1022, "android.anim", 116, ROLE_WM),
    T(1023, "ActivityManager", 120, ROLE_AM),
    T(1024, "InputDispatcher", 112, ROLE_INPUT),
    T(1025, "InputReader", 112, ROLE_INPUT),
    T(1026, "PowerManagerSer", 120, ROLE_BINDER)};
static const struct sim_thread th_systemui[] = {
    T(1500, "ndroid.systemui", 110, ROLE_UI),
    T(1510, "RenderThread", 110, ROLE_RENDER),
    T(1511, "HeapTaskDaemon", 124, ROLE_GC),
    T(1512, "binder:1500_1", 120, ROLE_BINDER),
    T(1513, "hwuiTask0", 118, ROLE_RENDER)};
static const struct sim_thread th_launcher[] = {
    T(2000, "droid.launcher3", 110, ROLE_UI),
    T(2010, "RenderThread", 110, ROLE_RENDER),
    T(2011, "HeapTaskDaemon", 124, ROLE_GC),
    T(2012, "binder:2000_1", 120, ROLE_BINDER)};
static const struct sim_thread th_adbd[] = {
    T(2500, "adbd", 120, ROLE_NONE), T(2501, "usb ffs open", 120, ROLE_NONE),
    T(2502, "shell svc 2502", 120, ROLE_NONE)};

#define N(a) (sizeof(a) / sizeof(a[0])), a
#define K(pid, th) {pid, 2, "root", "", "", 0, 0, "smpboot_thread_fn", 'S', N(th)}

static const struct sim_proc procs[] = {
    {1, 0, "root", "/system/bin/init", "init", 10932, 4208, "do_epoll_wait",
     'S', N(th_init)},
    {2, 0, "root", "", "", 0, 0, "kthreadd", 'S', N(th_kthreadd)},
    K(10, th_ksoftirqd0),
    {11, 2, "root", "", "", 0, 0, "rcu_gp_kthread", 'I', N(th_rcu)},
    K(13, th_ksoftirqd1),
    K(16, th_ksoftirqd2),
    K(19, th_ksoftirqd3),
    {40, 2, "root", "", "", 0, 0, "worker_thread", 'I', N(th_kworker0)},
    {41, 2, "root", "", "", 0, 0, "worker_thread", 'I', N(th_kworker1)},
    {42, 2, "root", "", "", 0, 0, "worker_thread", 'I', N(th_kworker_u)},
    {70, 2, "root", "", "", 0, 0, "kswapd", 'S', N(th_kswapd)},
    {300, 1, "logd", "/system/bin/logd", "logd", 12345, 4520,
     "__do_sys_rt_sigsuspend", 'S', N(th_logd)},
    {400, 1, "system", "/system/bin/servicemanager", "servicemanager", 10856,
     3076, "do_epoll_wait", 'S', N(th_sm)},
    {500, 1, "system", "/system/bin/surfaceflinger", "surfaceflinger",
     2208512, 31412, "do_epoll_wait", 'S', N(th_sf)},
    {600, 1, "system", "/vendor/bin/hw/android.hardware.graphics.composer@2.4-service",
     "android.hardware.graphics.composer@2.4-service", 53968, 9420,
     "binder_wait_for_work", 'S', N(th_composer)},
    {700, 1, "root", "zygote64", "app_process64", 5410940, 102324,
     "do_sys_poll", 'S', N(th_zygote)},
    {800, 1, "audioserver", "/system/bin/audioserver", "audioserver", 84296,
     21928, "binder_wait_for_work", 'S', N(th_audio)},
    {1000, 700, "system", "system_server", "app_process64", 14632560, 296192,
     "do_epoll_wait", 'S', N(th_system)},
    {1500, 700, "u0_a130", "com.android.systemui", "app_process64", 14283428,
     186500, "do_epoll_wait", 'S', N(th_systemui)},
    {2000, 700, "u0_a120", "com.android.launcher3", "app_process64", 14010132,
     152004, "do_epoll_wait", 'S', N(th_launcher)},
    {2500, 1, "shell", "/apex/com.android.adbd/bin/adbd", "adbd", 11253400,
     7012, "do_epoll_wait", 'S', N(th_adbd)},
};

size_t sim_proc_count(void)
{
    return sizeof(procs) / sizeof(procs[0]);
}

const struct sim_proc *sim_proc_at(size_t i)
{
    return i < sim_proc_count() ? &procs[i] : NULL;
}

const struct sim_proc *sim_proc_find(int pid)
{
    for (size_t i = 0; i < sim_proc_count(); i++)
        if (procs[i].pid == pid)
            return &procs[i];
    return NULL;
}

const struct sim_thread *sim_thread_find(const struct sim_proc *p, int tid)
{
    for (size_t i = 0; i < p->nthreads; i++)
        if (p->threads[i].tid == tid)
            return &p->threads[i];
    return NULL;
}

static const char cgroups_text[] =
    "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
    "cpuset\t4\t6\t1\n"
    "cpu\t3\t3\t1\n"
    "cpuacct\t1\t81\t1\n"
    "blkio\t5\t3\t1\n"
    "memory\t0\t1\t0\n"
    "freezer\t2\t3\t1\n";

int sim_proc_text(int pid, int tid, const char *file, struct dynbuf *out)
{
    if (!pid) {
        if (!strcmp(file, "cgroups"))
            return dynbuf_addstr(out, cgroups_text) ? -ENOMEM : 0;
        if (!strcmp(file, "uptime"))
            return dynbuf_printf(out, "%.2f %.2f\n", sim_now_ns() / 1e9,
                                 sim_now_ns() / 0.5e9) ? -ENOMEM : 0;
        if (!strcmp(file, "version"))
            return dynbuf_addstr(out, "Linux version 5.10.149-android13-4 "
                                 "(adbsim) #1 SMP PREEMPT\n") ? -ENOMEM : 0;
        return -ENOENT;
    }
    const struct sim_proc *p = sim_proc_find(pid);
    const struct sim_thread *t = p ? sim_thread_find(p, tid ? tid : pid)
                                   : NULL;
    if (!t)
        return -ENOENT;
    enum st_err e = ST_OK;
    if (!strcmp(file, "comm")) {
        e = dynbuf_printf(out, "%s\n", t->comm);
    } else if (!strcmp(file, "cmdline")) {
        if (*p->name)
            e = dynbuf_add(out, p->name, strlen(p->name) + 1);
    } else if (!strcmp(file, "stat")) {
        e = dynbuf_printf(out, "%d (%s) %c %d %d %d 0 -1 4194624 0 0 0 0 "
                          "0 0 0 0 %d 0 %zu 0 100 %u %u\n",
                          t->tid, t->comm, p->state, p->ppid, p->pid, p->pid,
                          t->prio - 100, p->nthreads, p->vsz_kb * 1024u,
                          p->rss_kb / 4);
    } else if (!strcmp(file, "status")) {
        e = dynbuf_printf(out, "Name:\t%s\nState:\t%c\nTgid:\t%d\nPid:\t%d\n"
                          "PPid:\t%d\nThreads:\t%zu\n", t->comm, p->state,
                          p->pid, t->tid, p->ppid, p->nthreads);
    } else {
        return -ENOENT;
    }
    return e ? -ENOMEM : 0;
}

/* toybox ps. */

enum ps_field {
    F_USER, F_PID, F_PPID, F_TID, F_VSZ, F_RSS, F_WCHAN, F_ADDR, F_S,
    F_NAME, F_COMM, F_CMD, F_ARGS, F_PRI, F_NI, F_TCNT,
};

static const struct {
    const char *name;
    const char *alias;
    int width;          /* negative: left-justified */
    int numeric;
} ps_fields[] = {
    [F_USER] = {"USER", "UNAME", -12, 0},
    [F_PID] = {"PID", NULL, 5, 1},
    [F_PPID] = {"PPID", NULL, 5, 1},
    [F_TID] = {"TID", NULL, 5, 1},
    [F_VSZ] = {"VSZ", "VSIZE", 7, 1},
    [F_RSS] = {"RSS", NULL, 6, 1},
    [F_WCHAN] = {"WCHAN", NULL, -6, 0},
    [F_ADDR] = {"ADDR", NULL, 12, 1},
    [F_S] = {"S", NULL, -1, 0},
    [F_NAME] = {"NAME", NULL, -27, 0},
    [F_COMM] = {"COMM", NULL, -27, 0},
    [F_CMD] = {"CMD", NULL, -15, 0},
    [F_ARGS] = {"ARGS", NULL, -27, 0},
    [F_PRI] = {"PRI", NULL, 3, 1},
    [F_NI] = {"NI", "NICE", 3, 1},
    [F_TCNT] = {"TCNT", NULL, 4, 1},
};

#define PS_MAX_FIELDS 32

struct ps_col {
    enum ps_field which;
    int width;
    char title[32];
};

struct ps_req {
    struct ps_col cols[PS_MAX_FIELDS];
    size_t ncols;
    int all, threads;
};

static int add_fields(struct ps_req *r, const char *list, struct sim_sink *err)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        char item[64];
        if (len >= sizeof(item) || r->ncols == PS_MAX_FIELDS) {
            sink_printf(err, "ps: bad -o %.*s\n", (int)len, p);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char *title = strchr(item, '=');
        if (title)
            *title++ = '\0';
        size_t i;
        for (i = 0; i < sizeof(ps_fields) / sizeof(ps_fields[0]); i++)
            if (!strcasecmp(item, ps_fields[i].name) ||
                (ps_fields[i].alias && !strcasecmp(item, ps_fields[i].alias)))
                break;
        if (i == sizeof(ps_fields) / sizeof(ps_fields[0])) {
            sink_printf(err, "ps: bad -o %s\n", item);
            return -1;
        }
        struct ps_col *c = &r->cols[r->ncols++];
        c->which = (enum ps_field)i;
        c->width = ps_fields[i].width;
        snprintf(c->title, sizeof(c->title), "%s",
                 title ? title : ps_fields[i].name);
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

static void field_text(enum ps_field f, const struct sim_proc *p,
                       const struct sim_thread *t, char *buf, size_t n)
{
    switch (f) {
    case F_USER: snprintf(buf, n, "%s", p->user); break;
    case F_PID: snprintf(buf, n, "%d", p->pid); break;
    case F_PPID: snprintf(buf, n, "%d", p->ppid); break;
    case F_TID: snprintf(buf, n, "%d", t->tid); break;
    case F_VSZ: snprintf(buf, n, "%u", p->vsz_kb); break;
    case F_RSS: snprintf(buf, n, "%u", p->rss_kb); break;
    case F_WCHAN: snprintf(buf, n, "%s", p->wchan); break;
    case F_ADDR: snprintf(buf, n, "0"); break;
    case F_S: snprintf(buf, n, "%c", p->state); break;
    case F_PRI: snprintf(buf, n, "%d", 139 - t->prio); break;
    case F_NI: snprintf(buf, n, "%d", t->prio >= 100 ? t->prio - 120 : 0);
        break;
    case F_TCNT: snprintf(buf, n, "%zu", p->nthreads); break;
    case F_CMD: snprintf(buf, n, "%s", t->comm); break;
    case F_NAME:
    case F_ARGS:
        if (*p->name) {
            const char *s = p->name;
            const char *slash = strrchr(s, '/');
            snprintf(buf, n, "%s", f == F_NAME && slash ? slash + 1 : s);
        } else {
            snprintf(buf, n, "[%s]", p->threads[0].comm);
        }
        break;
    case F_COMM:
        if (*p->exe)
            snprintf(buf, n, "%s", p->exe);
        else
            snprintf(buf, n, "[%s]", p->threads[0].comm);
        break;
    }
}

/* One row, padded as toybox does for non-tty output. */
static int ps_row(struct sim_sink *out, const struct ps_req *r,
                  const struct sim_proc *p, const struct sim_thread *t)
{
    struct dynbuf line;
    dynbuf_init(&line, 4096);
    int extra = 0;
    for (size_t i = 0; i < r->ncols; i++) {
        char val[256];
        field_text(r->cols[i].which, p, t, val, sizeof(val));
        int w = r->cols[i].width;
        int abslen = w < 0 ? -w : w;
        int olen = (int)strlen(val);
        if (i)
            dynbuf_addc(&line, ' ');
        if (olen > abslen) {
            extra += olen - abslen;
            abslen = olen;
        } else if (extra && olen < abslen) {
            int unused = abslen - olen;
            if (unused > extra)
                unused = extra;
            abslen -= unused;
            extra -= unused;
        }
        if (i + 1 == r->ncols && w < 0)
            dynbuf_addstr(&line, val);
        else
            dynbuf_printf(&line, "%*s", w < 0 ? -abslen : abslen, val);
    }
    dynbuf_addc(&line, '\n');
    int rc = sink_write(out, line.data, line.len);
    dynbuf_free(&line);
    return rc;
}

static int ps_header(struct sim_sink *out, const struct ps_req *r)
{
    struct dynbuf line;
    dynbuf_init(&line, 4096);
    for (size_t i = 0; i < r->ncols; i++)
        dynbuf_printf(&line, i ? " %*s" : "%*s", r->cols[i].width,
                      r->cols[i].title);
    dynbuf_addc(&line, '\n');
    int rc = sink_write(out, line.data, line.len);
    dynbuf_free(&line);
    return rc;
}

static int toybox_ps(struct sh_cmd *c)
{
    struct ps_req r;
    memset(&r, 0, sizeof(r));
    int have_o = 0;
    for (int i = 1; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "-O")) {
            if (++i >= c->argc) {
                sink_puts(c->err, "ps: Missing argument to -o\n");
                return 1;
            }
            if (add_fields(&r, c->argv[i], c->err))
                return 1;
            have_o = 1;
        } else if (a[0] == '-' && a[1]) {
            for (const char *f = a + 1; *f; f++) {
                if (*f == 'A' || *f == 'e')
                    r.all = 1;
                else if (*f == 'T')
                    r.threads = 1;
                else if (*f == 'w')
                    ;
                else {
                    sink_printf(c->err, "ps: Unknown option '%c'\n", *f);
                    return 1;
                }
            }
        } else {
            sink_printf(c->err, "ps: bad %s\n", a);
            return 1;
        }
    }
    if (!have_o)
        add_fields(&r, r.threads ? "USER,PID,TID,PPID,VSZ,RSS,WCHAN,ADDR,S,CMD"
                                 : "USER,PID,PPID,VSZ,RSS,WCHAN,ADDR,S,NAME",
                   c->err);
    if (ps_header(c->out, &r))
        return 1;
    for (size_t i = 0; i < sim_proc_count(); i++) {
        const struct sim_proc *p = &procs[i];
        /* Without -A toybox shows only this terminal's processes, and
         * an adb shell has none of the table's: list nothing. */
        if (!r.all)
            continue;
        size_t nt = r.threads ? p->nthreads : 1;
        for (size_t j = 0; j < nt; j++)
            if (ps_row(c->out, &r, p, &p->threads[j]))
                return 1;
    }
    return 0;
}

/* toolbox ps (Android <= 7). */

static int toolbox_ps(struct sh_cmd *c)
{
    int threads = 0, filter_all = 0;
    for (int i = 1; i < c->argc; i++) {
        if (!strcmp(c->argv[i], "-t")) {
            threads = 1;
        } else if (c->sh->dev->opt.legacy_ps == 1) {
            sink_printf(c->err, "bad pid '%s'\n", c->argv[i]);
            return 1;
        } else {
            filter_all = 1;     /* a name filter that matches nothing */
        }
    }
    if (sink_puts(c->out, "USER     PID   PPID  VSIZE  RSS     WCHAN    PC"
                          "        NAME\n"))
        return 1;
    if (filter_all)
        return 0;
    for (size_t i = 0; i < sim_proc_count(); i++) {
        const struct sim_proc *p = &procs[i];
        size_t nt = threads ? p->nthreads : 1;
        for (size_t j = 0; j < nt; j++) {
            const struct sim_thread *t = &p->threads[j];
            const char *name = j ? t->comm
                                 : (*p->name ? p->name : t->comm);
            if (sink_printf(c->out, "%-9s %-5d %-5d %-6u %-5u %08x %08x %c "
                            "%s\n", p->user, j ? t->tid : p->pid,
                            j ? p->pid : p->ppid, p->vsz_kb, p->rss_kb,
                            0xffffffffu, 0u, p->state, name))
                return 1;
        }
    }
    return 0;
}

int sim_cmd_ps(struct sh_cmd *c)
{
    if (c->sh->dev->opt.legacy_ps)
        return toolbox_ps(c);
    return toybox_ps(c);
}
