/* The host's tracefs for one run; see ftrace_fs.h. */
#include "ftrace_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/debug.h"
#include "lib/printf.h"

#define READ_MAX (16u << 20)
#define NEED_ROOT "host tracing needs root: run systrace as root (for example with sudo)"

static const char *const known_dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

struct tracefs *tracefs_new(void)
{
    struct tracefs *t = calloc(1, sizeof(*t));
    if (t)
        kstate_init(&t->saved);
    return t;
}

void tracefs_free(struct tracefs *t)
{
    if (!t)
        return;
    tracefs_close(t);
    kstate_free(&t->saved);
    free(t);
}

static int set_err(struct tracefs *t, const char *fmt, ...)
    ST_PRINTF(2, 3);
static int set_err(struct tracefs *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, sizeof(t->err), fmt, ap);
    va_end(ap);
    return -1;
}

/* Copy a path; -1 if it does not fit. */
static int path_copy(char *dst, size_t n, const char *src)
{
    size_t l = strlen(src);
    if (l >= n)
        return -1;
    memcpy(dst, src, l + 1);
    return 0;
}

static void add_note(struct tracefs *t, const char *what, const char *path)
{
    size_t n = strlen(t->notes);
    size_t wl = strlen(what);
    int k = snprintf(t->notes + n, sizeof(t->notes) - n, "%s%s%s%s", n ? "; " : "", what,
                     wl && what[wl - 1] == '/' ? "" : " ", path);
    if (k < 0 || (size_t)k >= sizeof(t->notes) - n)
        t->notes[n] = '\0';    /* keep the notes that fitted */
}

/* 1: DIR holds a tracefs (its `trace` file is there); *denied names the
 * first directory where the look was refused. */
static int is_tracefs(const char *dir, const char **denied)
{
    char p[PATH_MAX];
    struct stat st;
    if (snprintf(p, sizeof(p), "%s/trace", dir) >= (int)sizeof(p))
        return 0;
    if (stat(p, &st) == 0)
        return 1;
    if ((errno == EACCES || errno == EPERM) && !*denied)
        *denied = dir;
    return 0;
}

static int pid_alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* PID in "PREFIX<pid>" or "PREFIX<pid>-..."; 0 when NAME is not ours. */
static long our_pid(const char *name, const char *prefix)
{
    size_t l = strlen(prefix);
    if (strncmp(name, prefix, l))
        return 0;
    char *end;
    long pid = strtol(name + l, &end, 10);
    return end > name + l && (*end == '\0' || *end == '-') ? pid : 0;
}

/* /proc/self/mounts escapes space, tab, LF and backslash as \ooo. */
static void unescape_mount(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* Split a mounts line into mount point and fs type (in place). */
static int mount_fields(char *line, char **mnt, char **type)
{
    char *save = line;
    char *f[3] = {0};
    for (int i = 0; i < 3; i++) {
        while (*save == ' ')
            save++;
        if (!*save)
            return 0;
        f[i] = save;
        while (*save && *save != ' ')
            save++;
        if (*save)
            *save++ = '\0';
    }
    unescape_mount(f[1]);
    *mnt = f[1];
    *type = f[2];
    return 1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Unmount private mounts of systrace runs that are gone; remember the
 * first other tracefs mount in `found`. */
static void scan_mounts(struct tracefs *t, char *found, size_t n)
{
    FILE *f = fopen("/proc/self/mounts", "re");
    if (!f)
        return;
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof(line), f)) {
        char *mnt, *type;
        if (!mount_fields(line, &mnt, &type))
            continue;
        int tfs = !strcmp(type, "tracefs"), dfs = !strcmp(type, "debugfs");
        if (!tfs && !dfs)
            continue;
        long pid = our_pid(base_name(mnt), TRACEFS_MOUNT_PREFIX);
        if (pid && !pid_alive(pid)) {
            if (umount2(mnt, MNT_DETACH) == 0) {
                rmdir(mnt);
                add_note(t, "unmounted the tracefs left by an earlier systrace at", mnt);
            }
        } else if (!pid && tfs && !found[0]) {
            path_copy(found, n, mnt);
        }
    }
    fclose(f);
}

static int private_mount(struct tracefs *t)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/' || strlen(tmp) > 200)
        tmp = "/tmp";
    int k = snprintf(t->mnt, sizeof(t->mnt), "%s/" TRACEFS_MOUNT_PREFIX "%ld-XXXXXX", tmp,
                     (long)getpid());
    if (k < 0 || (size_t)k >= sizeof(t->mnt) - 16 || !mkdtemp(t->mnt)) {
        int e = errno;
        t->mnt[0] = '\0';
        return e;
    }
    int e = 0;
    if (mount("nodev", t->mnt, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0) {
        path_copy(t->root, sizeof(t->root), t->mnt);
    } else if ((e = errno) == ENODEV &&
               mount("nodev", t->mnt, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0) {
        /* kernels before 4.1: tracing lives inside debugfs */
        e = 0;
        t->mounted_debugfs = 1;
        memcpy(t->root, t->mnt, strlen(t->mnt));
        memcpy(t->root + strlen(t->mnt), "/tracing", 9);
    }
    if (e) {
        rmdir(t->mnt);
        t->mnt[0] = '\0';
    } else {
        ST_DBG(DBG_FTRACE, "mounted tracefs on %s", t->mnt);
    }
    return e;
}

static enum st_err check_writable(struct tracefs *t)
{
    char p[PATH_MAX];
    tracefs_path(t, 1, "tracing_on", p, sizeof(p));
    if (access(p, W_OK) == 0)
        return ST_OK;
    set_err(t, "%s is not writable (%s): " NEED_ROOT, p, strerror(errno));
    return ST_EPERM;
}

static void reap_instances(struct tracefs *t);

enum st_err tracefs_open(struct tracefs *t)
{
    char found[PATH_MAX] = "";
    const char *denied = NULL;
    scan_mounts(t, found, sizeof(found));
    for (size_t i = 0; i < 2 && !t->root[0]; i++)
        if (is_tracefs(known_dirs[i], &denied))
            path_copy(t->root, sizeof(t->root), known_dirs[i]);
    if (!t->root[0] && found[0] && is_tracefs(found, &denied))
        path_copy(t->root, sizeof(t->root), found);
    if (t->root[0]) {
        enum st_err e = check_writable(t);
        if (!e)
            reap_instances(t);
        return e;
    }
    if (denied) {
        set_err(t, "tracefs at %s is not accessible: %s", denied, NEED_ROOT);
        return ST_EPERM;
    }
    int e = private_mount(t);
    if (e == EPERM || e == EACCES) {
        set_err(t, "tracefs is not mounted (looked at %s and %s) and mounting it needs "
                   "root: run systrace as root (for example with sudo), or have root "
                   "mount it: mount -t tracefs nodev /sys/kernel/tracing",
                known_dirs[0], known_dirs[1]);
        return ST_EPERM;
    }
    if (e == ENODEV) {
        set_err(t, "this kernel has no tracefs (built without CONFIG_FTRACE?)");
        return ST_EUNSUPPORTED;
    }
    if (e) {
        set_err(t, "cannot mount tracefs on a temporary directory: %s", strerror(e));
        return ST_EIO;
    }
    enum st_err err = check_writable(t);
    if (!err)
        reap_instances(t);
    return err;
}

/* Remove instances of systrace runs that are gone. */
static void reap_instances(struct tracefs *t)
{
    char p[PATH_MAX];
    if (tracefs_path(t, 1, "instances", p, sizeof(p)))
        return;
    DIR *d = opendir(p);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        long pid = our_pid(de->d_name, TRACEFS_INSTANCE_PREFIX);
        char q[PATH_MAX];
        if (!pid || pid_alive(pid) ||
            snprintf(q, sizeof(q), "%s/%s", p, de->d_name) >= (int)sizeof(q))
            continue;
        if (rmdir(q) == 0)
            add_note(t, "removed the tracing instance left by an earlier systrace: instances/",
                     de->d_name);
    }
    closedir(d);
}

/* SYSTRACE_FTRACE_DIR: trace in a given tracefs directory (an instance
 * someone else made), saving and restoring its settings as at the top
 * level. */
static enum st_err given_dir(struct tracefs *t, const char *d)
{
    char p[PATH_MAX];
    if (path_copy(t->dir, sizeof(t->dir), d) ||
        snprintf(p, sizeof(p), "%s/tracing_on", d) >= (int)sizeof(p) || access(p, W_OK)) {
        t->dir[0] = '\0';
        set_err(t, "SYSTRACE_FTRACE_DIR=%s is not a writable tracefs directory", d);
        return ST_EINVAL;
    }
    return ST_OK;
}

enum st_err tracefs_begin(struct tracefs *t, int use_instance)
{
    const char *given = getenv("SYSTRACE_FTRACE_DIR");
    if (given && *given) {
        enum st_err e = given_dir(t, given);
        if (e)
            return e;
        use_instance = 0;
    } else {
        path_copy(t->dir, sizeof(t->dir), t->root);
    }
    char p[PATH_MAX];
    if (use_instance && !tracefs_path(t, 1, "instances", p, sizeof(p)) && !access(p, F_OK)) {
        char inst[PATH_MAX];
        int n = snprintf(inst, sizeof(inst), "%s/" TRACEFS_INSTANCE_PREFIX "%ld", p,
                         (long)getpid());
        if (n < (int)sizeof(inst) && mkdir(inst, 0755) == 0) {
            path_copy(t->inst, sizeof(t->inst), inst);
            path_copy(t->dir, sizeof(t->dir), inst);
        } else {
            ST_DBG(DBG_FTRACE, "no instance (%s): tracing at the top level", strerror(errno));
        }
    }
    if (snprintf(t->on_path, sizeof(t->on_path), "%s/tracing_on", t->dir) >=
        (int)sizeof(t->on_path)) {
        set_err(t, "path too long: %s", t->dir);
        return ST_EINVAL;
    }
    ST_DBG(DBG_FTRACE, "tracing in %s", t->dir);
    return ST_OK;
}

int tracefs_is_instance(const struct tracefs *t)
{
    return t->inst[0] != '\0';
}

int tracefs_path(const struct tracefs *t, int top, const char *rel, char *out, size_t n)
{
    const char *base = top || !t->dir[0] ? t->root : t->dir;
    size_t a = strlen(base), b = strlen(rel);
    if (a + b + 2 > n)
        return -1;
    memcpy(out, base, a);
    out[a] = '/';
    memcpy(out + a + 1, rel, b + 1);
    return 0;
}

int tracefs_has(const struct tracefs *t, int top, const char *rel)
{
    char p[PATH_MAX];
    return !tracefs_path(t, top, rel, p, sizeof(p)) && access(p, F_OK) == 0;
}

enum st_err tracefs_read(struct tracefs *t, int top, const char *rel, struct dynbuf *out)
{
    char p[PATH_MAX];
    if (tracefs_path(t, top, rel, p, sizeof(p)))
        return ST_EINVAL;
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        t->err_no = errno;
        set_err(t, "cannot read %s: %s", p, strerror(errno));
        return t->err_no == ENOENT ? ST_ENOENT : t->err_no == EPERM ? ST_EPERM : ST_EIO;
    }
    enum st_err e = ST_OK;
    char buf[8192];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof(buf));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            t->err_no = errno;
            set_err(t, "cannot read %s: %s", p, strerror(errno));
            e = ST_EIO;
        }
        if (r <= 0 || (e = dynbuf_add(out, buf, (size_t)r)))
            break;
    }
    close(fd);
    return e;
}

int tracefs_write(struct tracefs *t, int top, const char *rel, const char *value)
{
    char p[PATH_MAX];
    if (tracefs_path(t, top, rel, p, sizeof(p)))
        return ENAMETOOLONG;
    int e = kstate_write_file(p, value, strlen(value));
    if (e) {
        t->err_no = e;
        char v[64];
        snprintf(v, sizeof(v), "%.*s", (int)strcspn(value, "\n"), value);
        set_err(t, "cannot write '%s' to %s: %s", v, p, strerror(e));
    }
    return e;
}

enum st_err tracefs_set(struct tracefs *t, int top, const char *rel, const char *value)
{
    char p[PATH_MAX];
    if (tracefs_path(t, top, rel, p, sizeof(p)))
        return ST_EINVAL;
    struct dynbuf cur, was;
    dynbuf_init(&cur, READ_MAX);
    dynbuf_init(&was, READ_MAX);
    enum st_err e = tracefs_read(t, top, rel, &cur);
    if (!e)
        e = kstate_value(kstate_kind(rel), cur.data ? cur.data : "", cur.len, &was);
    if (e == ST_EFORMAT)
        set_err(t, "unexpected contents in %s: %.60s", p, dynbuf_str(&cur));
    int same = !e && !strcmp(dynbuf_str(&was), value);
    if (!e && !same && (top || !tracefs_is_instance(t)))
        e = kstate_add(&t->saved, p, dynbuf_str(&was), was.len);
    if (!e && !same && tracefs_write(t, top, rel, value))
        e = ST_EIO;
    if (!e)
        ST_DBG(DBG_FTRACE, "%s = %s%s", p, value, same ? " (already)" : "");
    dynbuf_free(&cur);
    dynbuf_free(&was);
    return e;
}

/* rmdir of an instance fails with EBUSY while a file in it is open;
 * readers close just before, so retry briefly. */
static int remove_instance(struct tracefs *t)
{
    for (int i = 0; i < 50; i++) {
        if (rmdir(t->inst) == 0 || errno == ENOENT) {
            ST_DBG(DBG_FTRACE, "removed %s", t->inst);
            t->inst[0] = '\0';
            return 0;
        }
        if (errno != EBUSY)
            break;
        usleep(20000);
    }
    return set_err(t, "cannot remove the tracing instance %s: %s", t->inst, strerror(errno));
}

int tracefs_restore(struct tracefs *t)
{
    int rc = 0;
    char failed[PATH_MAX] = "";
    if (tracefs_is_instance(t))
        kstate_write_file(t->on_path, "0", 1);
    if (kstate_restore(&t->saved, failed, sizeof(failed)))
        rc = set_err(t, "could not restore %s (write refused)", failed);
    if (tracefs_is_instance(t) && remove_instance(t))
        rc = -1;
    return rc;
}

int tracefs_close(struct tracefs *t)
{
    if (t->closed)
        return 0;
    int rc = t->root[0] ? tracefs_restore(t) : 0;
    if (t->mnt[0]) {
        if (umount2(t->mnt, 0) != 0 && umount2(t->mnt, MNT_DETACH) != 0)
            rc = set_err(t, "cannot unmount %s: %s", t->mnt, strerror(errno));
        else if (rmdir(t->mnt) == 0)
            ST_DBG(DBG_FTRACE, "unmounted %s", t->mnt);
        t->mnt[0] = '\0';
    }
    t->closed = 1;
    return rc;
}

void tracefs_emergency(struct tracefs *t)
{
    if (t->closed)
        return;
    if (t->inst[0]) {
        kstate_write_file(t->on_path, "0", 1);
        rmdir(t->inst);     /* may be busy; the next run removes it */
    }
    kstate_restore(&t->saved, NULL, 0);
    if (t->mnt[0] && umount2(t->mnt, MNT_DETACH) == 0)
        rmdir(t->mnt);
}
