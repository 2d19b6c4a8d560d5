/* Host process tables from /proc in toybox ps form; see hostproc.h. */
#include "hostproc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SNAP_MAX (32u << 20)
#define UID_CACHE 64

/* toybox's widths (negative: left-justified) */
static const int ps_w[] = {-12, 5, 5, 7, 6, -6, 12, -1, -27, -27};
static const char *const ps_t[] = {"USER", "PID", "PPID", "VSZ", "RSS", "WCHAN", "PC", "S",
                                   "NAME", "COMM"};
static const int th_w[] = {-12, 5, 5, -15};
static const char *const th_t[] = {"USER", "PID", "TID", "CMD"};

struct walk {
    const char *root;
    struct dynbuf threads;      /* the second table, appended at the end */
    struct dynbuf *tasks;
    unsigned uid[UID_CACHE];
    char uname[UID_CACHE][33];
    size_t nuid;
    long page_kb;
};

/* One row as toybox pads it: a field wider than its column borrows from
 * the next ones' spare width; the last left-justified field is not padded. */
static enum st_err row(struct dynbuf *out, const int *w, const char *const *val, size_t n)
{
    int extra = 0;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++) {
        int abslen = w[i] < 0 ? -w[i] : w[i];
        int olen = (int)strlen(val[i]);
        if (i)
            e = dynbuf_addc(out, ' ');
        if (olen > abslen) {
            extra += olen - abslen;
            abslen = olen;
        } else if (extra && olen < abslen) {
            int unused = abslen - olen < extra ? abslen - olen : extra;
            abslen -= unused;
            extra -= unused;
        }
        if (e)
            break;
        if (i + 1 == n && w[i] < 0)
            e = dynbuf_addstr(out, val[i]);
        else
            e = dynbuf_printf(out, "%*s", w[i] < 0 ? -abslen : abslen, val[i]);
    }
    return e ? e : dynbuf_addc(out, '\n');
}

static enum st_err header(struct dynbuf *out, const int *w, const char *const *t, size_t n)
{
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++)
        e = dynbuf_printf(out, i ? " %*s" : "%*s", w[i], t[i]);
    return e ? e : dynbuf_addc(out, '\n');
}

/* Up to n-1 bytes of dirfd/name, NUL-terminated; length or -1. */
static ssize_t read_at(int dfd, const char *name, char *buf, size_t n)
{
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got + 1 < n) {
        ssize_t r = read(fd, buf + got, n - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

static void chomp(char *s)
{
    size_t l = strlen(s);
    while (l && (s[l - 1] == '\n' || s[l - 1] == ' '))
        s[--l] = '\0';
}

static const char *user_name(struct walk *w, unsigned uid)
{
    for (size_t i = 0; i < w->nuid; i++)
        if (w->uid[i] == uid)
            return w->uname[i];
    size_t slot = w->nuid < UID_CACHE ? w->nuid++ : uid % UID_CACHE;
    struct passwd pw, *res = NULL;
    char buf[1024];
    w->uid[slot] = uid;
    if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) == 0 && res &&
        strlen(res->pw_name) < sizeof(w->uname[slot]))
        memcpy(w->uname[slot], res->pw_name, strlen(res->pw_name) + 1);
    else
        snprintf(w->uname[slot], sizeof(w->uname[slot]), "%u", uid);
    return w->uname[slot];
}

struct pstat {
    char comm[64];
    char state[2];
    char ppid[24], vsz[24], rss[24];
};

/* /proc/PID/stat: "pid (comm) S ppid ... vsize(23) rss(24) ...". */
static int parse_stat(char *s, struct pstat *p, long page_kb)
{
    char *open = strchr(s, '('), *close = strrchr(s, ')');
    if (!open || !close || close < open || close[1] != ' ')
        return -1;
    snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(close - open - 1), open + 1);
    char *f[24];
    size_t nf = 0;
    for (char *q = close + 2; *q && nf < 24;) {
        f[nf++] = q;
        while (*q && *q != ' ')
            q++;
        if (*q)
            *q++ = '\0';
    }
    if (nf < 22)
        return -1;
    p->state[0] = f[0][0];
    p->state[1] = '\0';
    snprintf(p->ppid, sizeof(p->ppid), "%s", f[1]);
    snprintf(p->vsz, sizeof(p->vsz), "%llu", strtoull(f[20], NULL, 10) / 1024);
    snprintf(p->rss, sizeof(p->rss), "%llu", strtoull(f[21], NULL, 10) * (unsigned long long)page_kb);
    return 0;
}

/* NAME: base name of argv[0]'s first word, or [comm]. */
static void proc_name(int dfd, const char *comm, char *out, size_t n)
{
    char cmd[512];
    ssize_t len = read_at(dfd, "cmdline", cmd, sizeof(cmd));
    if (len > 0 && cmd[0]) {
        cmd[strcspn(cmd, " \t\n")] = '\0';
        const char *slash = strrchr(cmd, '/');
        const char *b = slash && slash[1] ? slash + 1 : cmd;
        if (snprintf(out, n, "%s", b) < (int)n)
            return;
    }
    snprintf(out, n, "[%s]", comm);
    for (char *c = out; *c; c++)    /* one token, as the viewers split */
        if (*c == ' ' || *c == '\t')
            *c = '_';
}

static enum st_err threads(struct walk *w, int dfd, const char *user, const char *pid)
{
    int tfd = openat(dfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tfd < 0)
        return ST_OK;
    DIR *d = fdopendir(tfd);
    if (!d) {
        close(tfd);
        return ST_OK;
    }
    enum st_err e = ST_OK;
    struct dirent *de;
    while (!e && (de = readdir(d))) {
        if (de->d_name[0] < '0' || de->d_name[0] > '9')
            continue;
        char path[300], comm[64];
        snprintf(path, sizeof(path), "%s/comm", de->d_name);
        if (read_at(tfd, path, comm, sizeof(comm)) < 0)
            continue;   /* exited */
        chomp(comm);
        const char *v[] = {user, pid, de->d_name, comm};
        e = row(&w->threads, th_w, v, 4);
        if (!e && w->tasks)
            e = dynbuf_printf(w->tasks, "%s/proc/%s/task/%s", w->tasks->len ? " " : "", pid,
                              de->d_name);
    }
    closedir(d);
    return e;
}

static enum st_err one_process(struct walk *w, int proc_fd, const char *pid, struct dynbuf *out)
{
    int dfd = openat(proc_fd, pid, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return ST_OK;
    char buf[1024], name[256], exe[512], wchan[128];
    struct pstat ps;
    struct stat st;
    enum st_err e = ST_OK;
    if (read_at(dfd, "stat", buf, sizeof(buf)) <= 0 || parse_stat(buf, &ps, w->page_kb) ||
        fstat(dfd, &st))
        goto done;
    const char *user = user_name(w, (unsigned)st.st_uid);
    proc_name(dfd, ps.comm, name, sizeof(name));
    ssize_t l = readlinkat(dfd, "exe", exe, sizeof(exe) - 1);
    if (l > 0)
        exe[l] = '\0';
    else
        snprintf(exe, sizeof(exe), "[%s]", ps.comm);
    if (read_at(dfd, "wchan", wchan, sizeof(wchan)) <= 0 || !wchan[0])
        snprintf(wchan, sizeof(wchan), "0");
    chomp(wchan);
    const char *v[] = {user, pid, ps.ppid, ps.vsz, ps.rss, wchan, "0", ps.state, name, exe};
    e = row(out, ps_w, v, 10);
    if (!e)
        e = threads(w, dfd, user, pid);
done:
    close(dfd);
    return e;
}

static int numeric(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static int cmp_pid(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The numeric entries of /proc, sorted. */
static long *list_pids(DIR *d, size_t *n)
{
    size_t cap = 512;
    long *v = malloc(cap * sizeof(long));
    *n = 0;
    struct dirent *de;
    while (v && (de = readdir(d))) {
        if (!numeric(de->d_name))
            continue;
        if (*n == cap) {
            long *nv = realloc(v, (cap *= 2) * sizeof(long));
            if (!nv) {
                free(v);
                return NULL;
            }
            v = nv;
        }
        v[(*n)++] = strtol(de->d_name, NULL, 10);
    }
    if (v)
        qsort(v, *n, sizeof(long), cmp_pid);
    return v;
}

enum st_err hostproc_snapshot(const char *proc_root, struct dynbuf *ps, struct dynbuf *tasks)
{
    struct walk w;
    memset(&w, 0, sizeof(w));
    w.root = proc_root ? proc_root : "/proc";
    w.tasks = tasks;
    long page = sysconf(_SC_PAGESIZE);
    w.page_kb = page > 0 ? page / 1024 : 4;
    dynbuf_init(&w.threads, SNAP_MAX);
    DIR *d = opendir(w.root);
    if (!d)
        return ST_ENOENT;
    size_t n = 0;
    long *pids = list_pids(d, &n);
    enum st_err e = pids ? header(ps, ps_w, ps_t, 10) : ST_ENOMEM;
    if (!e)
        e = header(&w.threads, th_w, th_t, 4);
    for (size_t i = 0; i < n && !e; i++) {
        char pid[24];
        snprintf(pid, sizeof(pid), "%ld", pids[i]);
        e = one_process(&w, dirfd(d), pid, ps);
    }
    if (!e)
        e = dynbuf_add(ps, dynbuf_str(&w.threads), w.threads.len);
    free(pids);
    closedir(d);
    dynbuf_free(&w.threads);
    return e;
}
