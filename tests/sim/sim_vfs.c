/*
 * Virtual kernel directories (see sim_vfs.h): /proc, /sys (tracefs at
 * /sys/kernel/tracing, or /sys/kernel/debug/tracing with --debugfs) and
 * /dev/null.  Files report size 0 like procfs/tracefs do; readers
 * produce their text on open.
 */
#include "sim_vfs.h"
#include "sim_atrace.h"
#include "sim_perfetto.h"
#include "sim_ps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    VID_DIR_STATIC = 1, /* a /sys directory with a fixed entry list */
    VID_PROC,           /* /proc */
    VID_PROC_FILE,      /* /proc/cgroups ... */
    VID_PID,            /* /proc/PID */
    VID_PID_FILE,
    VID_TASK,           /* /proc/PID/task */
    VID_TID,            /* /proc/PID/task/TID */
    VID_TID_FILE,
    VID_TRACE_FILE,     /* a file in the tracefs directory */
    VID_DEVNULL,
};

static const char *const proc_files[] = {"cgroups", "uptime", "version"};
static const char *const pid_files[] = {"cmdline", "comm", "stat", "status",
                                        "task"};
static const char *const tid_files[] = {"comm", "stat"};

static int in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

/* Entries of the static /sys directories, NULL if dir is not one. */
static const char *const *sys_dir(struct sim_fs *fs, const char *dir,
                                  size_t *n)
{
    static const char *const sys[] = {"kernel"};
    static const char *const kernel_tracefs[] = {"debug", "tracing"};
    static const char *const kernel_debugfs[] = {"debug"};
    static const char *const debug_debugfs[] = {"tracing"};
    static const char *const empty[] = {NULL};
    static const char *const tracing[] = {
        "buffer_size_kb", "current_tracer", "events", "options", "trace",
        "trace_clock", "trace_marker", "tracing_on",
    };
    int debugfs = sim_fs_device(fs)->opt.debugfs;
    const char *tdir = sim_fs_tracing_dir(fs);
    if (!strcmp(dir, "/sys")) {
        *n = 1;
        return sys;
    }
    if (!strcmp(dir, "/sys/kernel")) {
        *n = debugfs ? 1 : 2;
        return debugfs ? kernel_debugfs : kernel_tracefs;
    }
    if (!strcmp(dir, "/sys/kernel/debug")) {
        *n = debugfs ? 1 : 0;
        return debugfs ? debug_debugfs : empty;
    }
    if (!strcmp(dir, tdir)) {
        *n = sizeof(tracing) / sizeof(tracing[0]);
        return tracing;
    }
    size_t tl = strlen(tdir);
    if (!strncmp(dir, tdir, tl) && (!strcmp(dir + tl, "/events") ||
                                     !strcmp(dir + tl, "/options"))) {
        *n = 0;
        return empty;
    }
    return NULL;
}

static int parse_id(const char *s, size_t len, int *out)
{
    if (!len || len > 9)
        return -1;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

static void lookup_sys(struct sim_fs *fs, const char *norm,
                       struct sim_vnode *vn)
{
    size_t n;
    if (sys_dir(fs, norm, &n)) {
        vn->kind = SIM_V_DIR;
        vn->id = VID_DIR_STATIC;
        snprintf(vn->path, sizeof(vn->path), "%s", norm);
        return;
    }
    const char *slash = strrchr(norm, '/');
    char parent[SIM_PATH_MAX];
    size_t pl = (size_t)(slash - norm);
    memcpy(parent, norm, pl);
    parent[pl] = '\0';
    if (strcmp(parent, sim_fs_tracing_dir(fs)))
        return;
    const char *const *list = sys_dir(fs, parent, &n);
    if (list && in_list(slash + 1, list, n) &&
        strlen(slash + 1) < sizeof(vn->name)) {
        vn->kind = SIM_V_FILE;
        vn->id = VID_TRACE_FILE;
        snprintf(vn->name, sizeof(vn->name), "%s", slash + 1);
    }
}

static void lookup_proc(struct sim_fs *fs, const char *rest, struct sim_vnode *vn)
{
    /* rest: what follows "/proc" */
    if (!*rest) {
        vn->kind = SIM_V_DIR;
        vn->id = VID_PROC;
        return;
    }
    rest++;
    size_t len = strcspn(rest, "/");
    int pid;
    if (parse_id(rest, len, &pid)) {
        if (!rest[len] && len < sizeof(vn->name)) {
            snprintf(vn->name, sizeof(vn->name), "%.*s", (int)len, rest);
            if (in_list(vn->name, proc_files, 3)) {
                vn->kind = SIM_V_FILE;
                vn->id = VID_PROC_FILE;
            }
        }
        return;
    }
    const struct sim_proc *p = sim_proc_find(pid);
    if (!p && !rest[len] && sim_perfetto_running(sim_fs_device(fs), pid)) {
        vn->kind = SIM_V_DIR;   /* a recording session: its directory only */
        vn->id = VID_PID;
        vn->pid = pid;
        return;
    }
    if (!p)
        return;
    vn->pid = pid;
    rest += len;
    if (!*rest) {
        vn->kind = SIM_V_DIR;
        vn->id = VID_PID;
        return;
    }
    rest++;
    len = strcspn(rest, "/");
    if (len == 4 && !strncmp(rest, "task", 4)) {
        rest += len;
        if (!*rest) {
            vn->kind = SIM_V_DIR;
            vn->id = VID_TASK;
            return;
        }
        rest++;
        len = strcspn(rest, "/");
        int tid;
        if (parse_id(rest, len, &tid) || !sim_thread_find(p, tid))
            return;
        vn->tid = tid;
        rest += len;
        if (!*rest) {
            vn->kind = SIM_V_DIR;
            vn->id = VID_TID;
            return;
        }
        rest++;
        if (!strchr(rest, '/') && in_list(rest, tid_files, 2)) {
            vn->kind = SIM_V_FILE;
            vn->id = VID_TID_FILE;
            snprintf(vn->name, sizeof(vn->name), "%s", rest);
        }
        return;
    }
    if (!rest[len] && in_list(rest, pid_files, 4)) {
        vn->kind = SIM_V_FILE;
        vn->id = VID_PID_FILE;
        snprintf(vn->name, sizeof(vn->name), "%s", rest);
    }
}

int sim_vfs_lookup(struct sim_fs *fs, const char *norm, struct sim_vnode *vn)
{
    memset(vn, 0, sizeof(*vn));
    if (!strcmp(norm, "/dev/null")) {
        vn->kind = SIM_V_CHR;
        vn->id = VID_DEVNULL;
        return 1;
    }
    if (!strncmp(norm, "/proc", 5) && (!norm[5] || norm[5] == '/')) {
        lookup_proc(fs, norm + 5, vn);
        return 1;
    }
    if (!strncmp(norm, "/sys", 4) && (!norm[4] || norm[4] == '/')) {
        lookup_sys(fs, norm, vn);
        return 1;
    }
    return 0;
}

int sim_vfs_stat(struct sim_fs *fs, const struct sim_vnode *vn,
                 struct sim_stat *st)
{
    (void)fs;
    memset(st, 0, sizeof(*st));
    st->nlink = 1;
    st->ino = 0x10000u + (uint64_t)vn->id * 65536u + (uint64_t)vn->tid;
    switch (vn->kind) {
    case SIM_V_DIR:
        st->type = SIM_F_DIR;
        st->mode = S_IFDIR | 0555;
        st->nlink = 2;
        return 0;
    case SIM_V_FILE:
        st->type = SIM_F_REG;
        st->mode = S_IFREG | 0444;
        if (vn->id == VID_TRACE_FILE)
            st->mode = !strcmp(vn->name, "trace_marker") ? S_IFREG | 0222
                                                          : S_IFREG | 0644;
        return 0;
    case SIM_V_CHR:
        st->type = SIM_F_CHR;
        st->mode = S_IFCHR | 0666;
        return 0;
    default:
        return -ENOENT;
    }
}

static int emit_names(sim_dir_cb cb, void *arg, const char *const *names,
                      size_t n)
{
    /* names are sorted by the callers */
    for (size_t i = 0; i < n; i++) {
        struct sim_stat st;
        memset(&st, 0, sizeof(st));
        st.type = !strcmp(names[i], "task") ? SIM_F_DIR : SIM_F_REG;
        st.mode = st.type == SIM_F_DIR ? S_IFDIR | 0555 : S_IFREG | 0444;
        int r = cb(arg, names[i], &st);
        if (r)
            return r;
    }
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* /proc and /proc/PID/task hold numbers: list them sorted as strings,
 * like readdir + sort would. */
static int list_numbers(sim_dir_cb cb, void *arg, const int *ids, size_t n,
                        const char *const *extra, size_t nextra)
{
    size_t total = n + nextra;
    char (*buf)[16] = malloc((n ? n : 1) * sizeof(*buf));
    const char **names = malloc((total ? total : 1) * sizeof(*names));
    int r = -ENOMEM;
    if (!buf || !names)
        goto out;
    for (size_t i = 0; i < n; i++) {
        snprintf(buf[i], sizeof(buf[i]), "%d", ids[i]);
        names[i] = buf[i];
    }
    for (size_t i = 0; i < nextra; i++)
        names[n + i] = extra[i];
    qsort(names, total, sizeof(*names), cmp_name);
    r = 0;
    for (size_t i = 0; i < total && !r; i++) {
        struct sim_stat st;
        memset(&st, 0, sizeof(st));
        int numeric = names[i][0] >= '0' && names[i][0] <= '9';
        st.type = numeric ? SIM_F_DIR : SIM_F_REG;
        st.mode = numeric ? S_IFDIR | 0555 : S_IFREG | 0444;
        r = cb(arg, names[i], &st);
    }
out:
    free(buf);
    free(names);
    return r;
}

int sim_vfs_list(struct sim_fs *fs, const struct sim_vnode *vn,
                 sim_dir_cb cb, void *arg)
{
    if (vn->kind == SIM_V_NONE)
        return -ENOENT;
    if (vn->kind != SIM_V_DIR)
        return -ENOTDIR;
    if (vn->id == VID_PROC) {
        size_t n = sim_proc_count();
        int *ids = malloc((n ? n : 1) * sizeof(*ids));
        if (!ids)
            return -ENOMEM;
        for (size_t i = 0; i < n; i++)
            ids[i] = sim_proc_at(i)->pid;
        int r = list_numbers(cb, arg, ids, n, proc_files, 3);
        free(ids);
        return r;
    }
    if (vn->id == VID_PID)
        return emit_names(cb, arg, pid_files, 5);
    if (vn->id == VID_TID)
        return emit_names(cb, arg, tid_files, 2);
    if (vn->id == VID_TASK) {
        const struct sim_proc *p = sim_proc_find(vn->pid);
        int *ids = malloc(p->nthreads * sizeof(*ids));
        if (!ids)
            return -ENOMEM;
        for (size_t i = 0; i < p->nthreads; i++)
            ids[i] = p->threads[i].tid;
        int r = list_numbers(cb, arg, ids, p->nthreads, NULL, 0);
        free(ids);
        return r;
    }
    size_t n;
    const char *const *names = sys_dir(fs, vn->path, &n);
    if (!names)
        return -ENOTDIR;
    int in_tracing = !strcmp(vn->path, sim_fs_tracing_dir(fs));
    for (size_t i = 0; i < n; i++) {
        struct sim_stat st;
        memset(&st, 0, sizeof(st));
        int dir = !in_tracing || !strcmp(names[i], "events") ||
                  !strcmp(names[i], "options");
        st.type = dir ? SIM_F_DIR : SIM_F_REG;
        st.mode = dir ? S_IFDIR | 0555 : S_IFREG | 0644;
        int r = cb(arg, names[i], &st);
        if (r)
            return r;
    }
    return 0;
}

int sim_vfs_open_read(struct sim_fs *fs, const struct sim_vnode *vn,
                      struct sim_reader **out)
{
    struct sim_device *dev = sim_fs_device(fs);
    struct dynbuf b;
    int r;
    switch (vn->kind) {
    case SIM_V_NONE:
        return -ENOENT;
    case SIM_V_DIR:
        return -EISDIR;
    case SIM_V_CHR:
        *out = sim_reader_mem("", 0);
        return *out ? 0 : -ENOMEM;
    default:
        break;
    }
    if (vn->id == VID_TRACE_FILE)
        return sim_trace_file_read(dev, vn->name, out);
    dynbuf_init(&b, 1 << 20);
    if (vn->id == VID_PROC_FILE)
        r = sim_proc_text(0, 0, vn->name, &b);
    else
        r = sim_proc_text(vn->pid, vn->tid, vn->name, &b);
    if (!r) {
        *out = sim_reader_mem(dynbuf_str(&b), b.len);
        r = *out ? 0 : -ENOMEM;
    }
    dynbuf_free(&b);
    return r;
}

int sim_vfs_open_write(struct sim_fs *fs, const struct sim_vnode *vn, int pid,
                       struct sim_sink **out)
{
    if (vn->kind == SIM_V_CHR) {
        *out = &sim_null_sink;
        return 0;
    }
    if (vn->kind == SIM_V_NONE)
        return -ENOENT;
    if (vn->kind == SIM_V_DIR)
        return -EISDIR;
    if (vn->id == VID_TRACE_FILE)
        return sim_trace_file_write(sim_fs_device(fs), vn->name, pid, out);
    return -EACCES;
}
