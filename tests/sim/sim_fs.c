/*
 * The simulated device's file system; see sim_fs.h.  This file holds the
 * host-backed part, path normalisation and globbing; the virtual kernel
 * directories are in sim_vfs.c.
 */
#include "sim_fs.h"
#include "sim_vfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sim_fs {
    struct sim_device *dev;
    char root[SIM_PATH_MAX];
    int owned;              /* created by us: removed at exit */
    char tracing[64];
};

const char *sim_fs_tracing_dir(const struct sim_fs *fs)
{
    return fs->tracing;
}

struct sim_device *sim_fs_device(const struct sim_fs *fs)
{
    return fs->dev;
}

int sim_fs_normalize(const char *path, char *out, size_t outlen)
{
    size_t n = 0;
    if (outlen < 2)
        return -ENAMETOOLONG;
    out[n++] = '/';
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, "/");
        if (len == 1 && p[0] == '.') {
            /* nothing */
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 1 && out[n - 1] != '/')
                n--;
            if (n > 1)
                n--;
        } else {
            if (n > 1) {
                if (n + 1 >= outlen)
                    return -ENAMETOOLONG;
                out[n++] = '/';
            }
            if (n + len >= outlen)
                return -ENAMETOOLONG;
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
    }
    out[n] = '\0';
    return 0;
}

static int host_path(struct sim_fs *fs, const char *norm, char *out,
                     size_t outlen)
{
    int n = snprintf(out, outlen, "%s%s", fs->root, norm);
    return n < 0 || (size_t)n >= outlen ? -ENAMETOOLONG : 0;
}

/* Normalise, then tell virtual from host paths. */
static int resolve(struct sim_fs *fs, const char *path, char *norm,
                   char *host, struct sim_vnode *vn)
{
    int r = sim_fs_normalize(path, norm, SIM_PATH_MAX);
    if (r)
        return r;
    if (sim_vfs_lookup(fs, norm, vn))
        return 1;
    return host_path(fs, norm, host, SIM_PATH_MAX + 64);
}

static void fill_stat(const struct stat *s, struct sim_stat *st)
{
    memset(st, 0, sizeof(*st));
    st->type = S_ISDIR(s->st_mode) ? SIM_F_DIR : SIM_F_REG;
    st->mode = (uint32_t)s->st_mode;
    st->size = (uint64_t)s->st_size;
    st->mtime = (int64_t)s->st_mtime;
    st->ino = (uint64_t)s->st_ino;
    st->nlink = (uint32_t)s->st_nlink;
    /* Files the shell creates belong to shell or root like on a device. */
    st->uid = st->gid = 0;
}

int sim_fs_stat(struct sim_fs *fs, const char *path, struct sim_stat *st)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, path, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return sim_vfs_stat(fs, &vn, st);
    struct stat s;
    if (lstat(host, &s))
        return -errno;
    if (!S_ISDIR(s.st_mode) && !S_ISREG(s.st_mode))
        return -ENOENT;
    fill_stat(&s, st);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_host(const char *host, sim_dir_cb cb, void *arg)
{
    DIR *d = opendir(host);
    if (!d)
        return -errno;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int r = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = realloc(names, cap * sizeof(*nn));
            if (!nn) {
                r = -ENOMEM;
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name))) {
            r = -ENOMEM;
            break;
        }
        n++;
    }
    qsort(names, n, sizeof(*names), cmp_str);
    for (size_t i = 0; i < n && !r; i++) {
        struct stat s;
        struct sim_stat st;
        if (fstatat(dirfd(d), names[i], &s, AT_SYMLINK_NOFOLLOW))
            continue;
        fill_stat(&s, &st);
        r = cb(arg, names[i], &st);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return r;
}

int sim_fs_list(struct sim_fs *fs, const char *dir, sim_dir_cb cb, void *arg)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, dir, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return sim_vfs_list(fs, &vn, cb, arg);
    return list_host(host, cb, arg);
}

/* Host file reader and writer. */

struct fd_reader {
    struct sim_reader base;
    int fd;
};

static long fd_read(struct sim_reader *r, void *p, size_t n)
{
    struct fd_reader *f = (struct fd_reader *)r;
    for (;;) {
        ssize_t k = read(f->fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        return k < 0 ? -1 : (long)k;
    }
}

static void fd_close_reader(struct sim_reader *r)
{
    struct fd_reader *f = (struct fd_reader *)r;
    close(f->fd);
    free(f);
}

struct fd_sink {
    struct sim_sink base;
    int fd;
};

static int fd_write(struct sim_sink *k, const void *p, size_t n)
{
    struct fd_sink *f = (struct fd_sink *)k;
    const char *b = p;
    while (n) {
        ssize_t w = write(f->fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

static int fd_close_sink(struct sim_sink *k)
{
    struct fd_sink *f = (struct fd_sink *)k;
    int r = close(f->fd);
    free(f);
    return r ? -1 : 0;
}

int sim_fs_open_read(struct sim_fs *fs, const char *path,
                     struct sim_reader **out)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, path, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return sim_vfs_open_read(fs, &vn, out);
    int fd = open(host, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat s;
    if (fstat(fd, &s) || S_ISDIR(s.st_mode)) {
        close(fd);
        return -EISDIR;
    }
    struct fd_reader *f = malloc(sizeof(*f));
    if (!f) {
        close(fd);
        return -ENOMEM;
    }
    f->base.read = fd_read;
    f->base.close = fd_close_reader;
    f->fd = fd;
    *out = &f->base;
    return 0;
}

int sim_fs_open_write(struct sim_fs *fs, const char *path, int append,
                      int pid, struct sim_sink **out)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, path, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return sim_vfs_open_write(fs, &vn, pid, out);
    int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC;
    flags |= append ? O_APPEND : O_TRUNC;
    int fd = open(host, flags, 0644);
    if (fd < 0)
        return -errno;
    struct fd_sink *f = malloc(sizeof(*f));
    if (!f) {
        close(fd);
        return -ENOMEM;
    }
    f->base.write = fd_write;
    f->base.close = fd_close_sink;
    f->base.flush = NULL;
    f->fd = fd;
    *out = &f->base;
    return 0;
}

int sim_fs_unlink(struct sim_fs *fs, const char *path)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, path, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return vn.kind == SIM_V_NONE ? -ENOENT : -EACCES;
    return unlink(host) ? -errno : 0;
}

int sim_fs_mkdir(struct sim_fs *fs, const char *path)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, path, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return vn.kind == SIM_V_DIR ? -EEXIST : -EACCES;
    return mkdir(host, 0755) ? -errno : 0;
}

int sim_fs_rmdir(struct sim_fs *fs, const char *path)
{
    char norm[SIM_PATH_MAX], host[SIM_PATH_MAX + 64];
    struct sim_vnode vn;
    int r = resolve(fs, path, norm, host, &vn);
    if (r < 0)
        return r;
    if (r == 1)
        return -EACCES;
    return rmdir(host) ? -errno : 0;
}

/* Creating and removing the host root. */

static int rm_tree_at(int dirfd_, const char *name)
{
    int fd = openat(dirfd_, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (fd < 0)
        return unlinkat(dirfd_, name, 0);
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            rm_tree_at(dirfd(d), e->d_name);
    closedir(d);
    return unlinkat(dirfd_, name, AT_REMOVEDIR);
}

static int mkdirs(const char *root, const char *rel)
{
    char path[SIM_PATH_MAX + 64];
    int n = snprintf(path, sizeof(path), "%s%s", root, rel);
    if (n < 0 || (size_t)n >= sizeof(path))
        return -1;
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

static int put_file(const char *root, const char *rel, const char *text)
{
    char path[SIM_PATH_MAX + 64];
    int n = snprintf(path, sizeof(path), "%s%s", root, rel);
    if (n < 0 || (size_t)n >= sizeof(path))
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    int r = write(fd, text, len) == (ssize_t)len ? 0 : -1;
    close(fd);
    return r;
}

static int populate(const char *root)
{
    static const char *const dirs[] = {
        "/data/local/tmp", "/data/misc/perfetto-traces", "/sdcard", "/system/bin", "/system/etc",
        "/dev/cpuset/foreground", "/dev/cpuset/background",
        "/dev/cpuset/system-background", "/dev/cpuset/top-app",
        "/proc", "/sys", "/vendor", "/etc",
    };
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
        if (mkdirs(root, dirs[i]))
            return -1;
    static const char *const files[][2] = {
        {"/system/bin/sh", ""}, {"/system/bin/atrace", ""},
        {"/system/bin/toybox", ""}, {"/system/bin/am", ""},
        {"/dev/cpuset/tasks", "1\n2\n300\n400\n"},
        {"/dev/cpuset/foreground/tasks", "1500\n1510\n1511\n1512\n"},
        {"/dev/cpuset/background/tasks", "2500\n"},
        {"/dev/cpuset/system-background/tasks", "300\n400\n"},
        {"/dev/cpuset/top-app/tasks", "2000\n2010\n2011\n"},
        {"/system/build.prop", "ro.build.version.sdk=33\n"},
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        if (put_file(root, files[i][0], files[i][1]))
            return -1;
    return 0;
}

struct sim_fs *sim_fs_new(struct sim_device *dev, const char *root,
                          char *err, size_t errlen)
{
    struct sim_fs *fs = calloc(1, sizeof(*fs));
    if (!fs) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    fs->dev = dev;
    snprintf(fs->tracing, sizeof(fs->tracing), "%s",
             dev->opt.debugfs ? "/sys/kernel/debug/tracing"
                              : "/sys/kernel/tracing");
    if (root) {
        if (strlen(root) >= sizeof(fs->root) - 1 || root[0] != '/') {
            snprintf(err, errlen, "--fs-dir must be an absolute path");
            free(fs);
            return NULL;
        }
        snprintf(fs->root, sizeof(fs->root), "%s", root);
        if (mkdir(root, 0755) && errno != EEXIST) {
            snprintf(err, errlen, "cannot create %s", root);
            free(fs);
            return NULL;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(fs->root, sizeof(fs->root), "%s/adbsim-fs.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(fs->root)) {
            snprintf(err, errlen, "cannot create a temp dir");
            free(fs);
            return NULL;
        }
        fs->owned = 1;
    }
    size_t rl = strlen(fs->root);
    while (rl > 1 && fs->root[rl - 1] == '/')
        fs->root[--rl] = '\0';
    if (populate(fs->root)) {
        snprintf(err, errlen, "cannot populate %s", fs->root);
        sim_fs_free(fs);
        return NULL;
    }
    return fs;
}

void sim_fs_free(struct sim_fs *fs)
{
    if (!fs)
        return;
    if (fs->owned)
        rm_tree_at(AT_FDCWD, fs->root);
    free(fs);
}
