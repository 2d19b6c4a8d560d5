/*
 * The platform layer on POSIX systems (Linux, macOS): files, time, threads
 * and processes; see plat.h.  Sockets are in plat_posix_net.c, signals in
 * plat_posix_sig.c.  Linux-only calls (renameat2, /proc) are optional
 * here: each has a POSIX fallback so a macOS build needs no change.
 */
#include "plat.h"

#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "tmpfiles.h"

int plat_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int64_t plat_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double plat_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void plat_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

int plat_getpid(void)
{
    return (int)getpid();
}

int plat_random(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, buf, n);
    close(fd);
    return r == (ssize_t)n ? 0 : -1;
}

/* ---- files ---- */

int plat_open(const char *path, int flags, unsigned mode)
{
    return open(path, flags | O_CLOEXEC, (mode_t)mode);
}

FILE *plat_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

static void from_stat(const struct stat *s, struct plat_stat *st)
{
    st->kind = S_ISREG(s->st_mode)   ? PLAT_FILE
               : S_ISDIR(s->st_mode) ? PLAT_DIR
               : S_ISLNK(s->st_mode) ? PLAT_LINK
                                     : PLAT_OTHER;
    st->size = (uint64_t)s->st_size;
    st->mode = (unsigned)s->st_mode & 07777;
    st->uid = (unsigned)s->st_uid;
    st->gid = (unsigned)s->st_gid;
    st->dev = (uint64_t)s->st_dev;
    st->ino = (uint64_t)s->st_ino;
}

int plat_stat(const char *path, struct plat_stat *st)
{
    struct stat s;
    if (stat(path, &s) != 0)
        return -1;
    from_stat(&s, st);
    return 0;
}

int plat_lstat(const char *path, struct plat_stat *st)
{
    struct stat s;
    if (lstat(path, &s) != 0)
        return -1;
    from_stat(&s, st);
    return 0;
}

int plat_fstat(int fd, struct plat_stat *st)
{
    struct stat s;
    if (fstat(fd, &s) != 0)
        return -1;
    from_stat(&s, st);
    return 0;
}

void *plat_map_file(int fd, size_t n)
{
    void *p = n ? mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    return p == MAP_FAILED ? NULL : p;
}

void plat_unmap_file(void *p, size_t n)
{
    if (p)
        munmap(p, n);
}

int plat_same_file(const char *a, const char *b)
{
    struct plat_stat x, y;
    return plat_stat(a, &x) == 0 && plat_stat(b, &y) == 0 && x.dev == y.dev &&
           x.ino == y.ino;
}

int plat_access(const char *path, int mode)
{
    return access(path, mode);
}

int plat_unlink(const char *path)
{
    return unlink(path);
}

int plat_mkdir(const char *path, unsigned mode)
{
    return mkdir(path, (mode_t)mode);
}

int plat_rename(const char *from, const char *to)
{
    return rename(from, to);
}

int plat_rename_noreplace(const char *from, const char *to)
{
#ifdef RENAME_NOREPLACE
    int r = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
    if (r == 0 || (errno != EINVAL && errno != ENOSYS))
        return r;
#endif
    /* file systems without it (and macOS): link fails if `to` exists */
    if (link(from, to) != 0)
        return -1;
    unlink(from);
    return 0;
}

int plat_mkstemp(char *tmpl)
{
    int fd = mkstemp(tmpl);
    if (fd >= 0)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

int plat_mkstemp_listed(char *tmpl)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);     /* no handler on this thread */
    if (tmpfiles_hold()) {                      /* ... and none waits on another */
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        errno = EINTR;
        return -1;                              /* the process is ending */
    }
    int fd = plat_mkstemp(tmpl);
    if (fd >= 0)
        tmpfiles_add(tmpl);     /* a full list: as before, the file unlisted */
    tmpfiles_release();
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return fd;
}

ssize_t plat_pread(int fd, void *p, size_t n, uint64_t off)
{
    return pread(fd, p, n, (off_t)off);
}

ssize_t plat_pwrite(int fd, const void *p, size_t n, uint64_t off)
{
    return pwrite(fd, p, n, (off_t)off);
}

int plat_ftruncate(int fd, uint64_t size)
{
    return ftruncate(fd, (off_t)size);
}

int plat_seek(int fd, uint64_t off)
{
    return lseek(fd, (off_t)off, SEEK_SET) < 0 ? -1 : 0;
}

int plat_fsync(int fd)
{
    return fsync(fd);
}

int plat_fchmod(int fd, unsigned mode)
{
    return fchmod(fd, (mode_t)mode);
}

int plat_make_private(const char *path)
{
    return chmod(path, 0600);
}

int plat_fchown(int fd, unsigned uid, unsigned gid)
{
    return fchown(fd, (uid_t)uid, (gid_t)gid);
}

ssize_t plat_readlink(const char *path, char *buf, size_t n)
{
    if (n < 2) {
        errno = ENAMETOOLONG;
        return -1;
    }
    ssize_t r = readlink(path, buf, n - 1);
    if (r >= 0)
        buf[r] = '\0';
    return r;
}

unsigned plat_new_file_mode(void)
{
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~(unsigned)um;
}

char *plat_realpath(const char *path)
{
    return realpath(path, NULL);
}

int plat_isatty(int fd)
{
    return isatty(fd);
}

void plat_malloc_for_workers(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 128 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
#endif
}

int plat_ncpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

const char *plat_tmpdir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

const char *plat_null_device(void)
{
    return "/dev/null";
}

const char *plat_home(void)
{
    const char *h = getenv("HOME");
    return h && *h ? h : NULL;
}

/* An absolute $XDG_CACHE_HOME wins everywhere (it is set on purpose);
 * else the system's own place: ~/Library/Caches on macOS, ~/.cache. */
#ifdef __APPLE__
#define HOME_CACHE "Library/Caches"
#else
#define HOME_CACHE ".cache"
#endif

int plat_cache_dir(const char *app, char *buf, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = plat_home();
    if (xdg && xdg[0] == '/')
        snprintf(buf, n, "%s/%s", xdg, app);
    else if (home)
        snprintf(buf, n, "%s/" HOME_CACHE "/%s", home, app);
    else
        return -1;
    return 0;
}

const char *plat_username(void)
{
    return getenv("LOGNAME");
}

int plat_hostname(char *buf, size_t n)
{
    return gethostname(buf, n);
}

int plat_is_sep(char c)
{
    return c == '/';
}

const char *plat_last_sep(const char *path)
{
    return strrchr(path, '/');
}

int plat_is_absolute(const char *path)
{
    return path[0] == '/';
}

#ifdef __linux__
/* Unlinked at once and read back through the descriptor's own name
 * (opening /proc/self/fd/N opens the file anew, at offset 0), so no exit
 * path can leave it behind. */
int plat_tmpfile_open(char *path, size_t n)
{
    char tmpl[PATH_MAX];
    snprintf(tmpl, sizeof(tmpl), "%s/systrace-input.XXXXXX", plat_tmpdir());
    int fd = plat_mkstemp(tmpl);
    if (fd < 0)
        return -1;
    unlink(tmpl);
    snprintf(path, n, "/proc/self/fd/%d", fd);
    return fd;
}

void plat_tmpfile_done(int fd, const char *path)
{
    (void)path;
    if (fd >= 0)
        close(fd);
}
#else
/* macOS has no /proc, and opening its /dev/fd/N is dup(N): the reader
 * would share the writer's offset, at the end of the file.  So the file
 * keeps its name while in use, on the tmpfiles list for a signal's exit,
 * and goes in plat_tmpfile_done (as on Windows). */
int plat_tmpfile_open(char *path, size_t n)
{
    if ((size_t)snprintf(path, n, "%s/systrace-input.XXXXXX", plat_tmpdir()) >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return plat_mkstemp_listed(path);
}

void plat_tmpfile_done(int fd, const char *path)
{
    if (fd >= 0)
        close(fd);
    unlink(path);
    tmpfiles_forget(path);
}
#endif

struct plat_dir {
    DIR *d;
};

struct plat_dir *plat_opendir(const char *path)
{
    DIR *d = opendir(path);
    struct plat_dir *p = d ? malloc(sizeof(*p)) : NULL;
    if (!p) {
        if (d)
            closedir(d);
        return NULL;
    }
    p->d = d;
    return p;
}

const char *plat_readdir(struct plat_dir *d)
{
    struct dirent *e;
    while ((e = readdir(d->d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            return e->d_name;
    return NULL;
}

void plat_closedir(struct plat_dir *d)
{
    if (d) {
        closedir(d->d);
        free(d);
    }
}

/* ---- threads ---- */

int plat_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int r = pthread_create(th, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return r;
}

/* ---- processes ---- */

int plat_runnable(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t d = strcspn(path, ":");
        char full[PATH_MAX];
        if (d && (size_t)snprintf(full, sizeof(full), "%.*s/%s", (int)d, path, prog) <
                     sizeof(full) && access(full, X_OK) == 0)
            return 1;
        path += d + (path[d] == ':');
    }
    return 0;
}

/* In the middle process: wait up to wait_ms for the command; its exit
 * status when it ended by then, else 0. */
static int early_status(pid_t pid, int wait_ms)
{
    for (int ms = 0; ms < wait_ms; ms += 20) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (r < 0)
            return 0;
        plat_sleep_ms(20);
    }
    return 0;
}

/* A double fork so nothing is left to reap, a new session so the
 * terminal's Ctrl-C and hang-up do not reach it.  The middle process
 * reports, through a pipe, whether the command failed at once. */
int plat_spawn_detached(const char *cmdline, const char *arg, int wait_ms)
{
    int rep[2];
    if (pipe(rep) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(rep[0]);
        close(rep[1]);
        return -1;
    }
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);   /* ignored in systrace itself (signals.h) */
        setsid();
        close(rep[0]);
        pid_t b = fork();
        if (b != 0) {
            unsigned char st = b < 0 ? 255 : (unsigned char)early_status(b, wait_ms);
            if (write(rep[1], &st, 1) < 0)
                _exit(1);
            _exit(0);
        }
        close(rep[1]);
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
            if (fd > 2)
                close(fd);
        }
        execl("/bin/sh", "sh", "-c", cmdline, "sh", arg, (char *)NULL);
        _exit(127);
    }
    close(rep[1]);
    unsigned char st = 255;
    ssize_t n;
    while ((n = read(rep[0], &st, 1)) < 0 && errno == EINTR) {
    }
    close(rep[0]);
    int wst;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {
    }
    return n == 1 && st != 255 ? st : -1;
}

int plat_shell_open(const char *arg, char *err, size_t errlen)
{
    (void)arg;
    snprintf(err, errlen, "no shell handler on this system");
    return -1;
}
