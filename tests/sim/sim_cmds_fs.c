/*
 * File commands of the simulated device: test/[, cat, grep, ls, mkdir, rm.
 * Messages follow toybox ("ls: /x: No such file or directory").  ls
 * prints one name per line (not a tty); -l uses toybox's long format.
 */
#include "sim_cmds.h"
#include "sim_perfetto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* test / [ : the unary file and string tests, = != and -eq style. */

static int test_unary(struct sim_shell *sh, const char *op, const char *arg)
{
    struct sim_stat st;
    if (!strcmp(op, "-n"))
        return *arg != '\0';
    if (!strcmp(op, "-z"))
        return *arg == '\0';
    int e = sim_fs_stat(sh->dev->fs, arg, &st);
    switch (op[1]) {
    case 'e': return !e;
    case 'f': return !e && st.type == SIM_F_REG;
    case 'd': return !e && st.type == SIM_F_DIR;
    case 'c': return !e && st.type == SIM_F_CHR;
    case 's': return !e && st.size > 0;
    case 'r': case 'w': case 'x': return !e;
    default: return -1;
    }
}

static int test_binary(const char *a, const char *op, const char *b)
{
    if (!strcmp(op, "="))
        return !strcmp(a, b);
    if (!strcmp(op, "!="))
        return strcmp(a, b) != 0;
    static const char *const ops[] = {"-eq", "-ne", "-lt", "-le", "-gt",
                                      "-ge"};
    for (int i = 0; i < 6; i++) {
        if (strcmp(op, ops[i]))
            continue;
        char *ea, *eb;
        long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
        if (!*a || !*b || *ea || *eb)
            return -1;
        switch (i) {
        case 0: return x == y;
        case 1: return x != y;
        case 2: return x < y;
        case 3: return x <= y;
        case 4: return x > y;
        default: return x >= y;
        }
    }
    return -1;
}

static int test_eval(struct sim_shell *sh, int argc, char **argv)
{
    if (argc > 0 && !strcmp(argv[0], "!")) {
        int r = test_eval(sh, argc - 1, argv + 1);
        return r < 0 ? r : !r;
    }
    switch (argc) {
    case 0: return 0;
    case 1: return argv[0][0] != '\0';
    case 2:
        return argv[0][0] == '-' && argv[0][1] && !argv[0][2]
                   ? test_unary(sh, argv[0], argv[1]) : -1;
    case 3: return test_binary(argv[0], argv[1], argv[2]);
    default: return -1;
    }
}

int sim_cmd_test(struct sh_cmd *c)
{
    int argc = c->argc - 1;
    if (!strcmp(c->argv[0], "[")) {
        if (argc < 1 || strcmp(c->argv[c->argc - 1], "]")) {
            sink_puts(c->err, "[: missing ]\n");
            return 2;
        }
        argc--;
    }
    int r = test_eval(c->sh, argc, c->argv + 1);
    if (r < 0) {
        sink_printf(c->err, "%s: syntax error\n", c->argv[0]);
        return 2;
    }
    return !r;
}

/* cat [FILE...]: streamed, so large files never sit in memory. */

static int copy_reader(struct sh_cmd *c, struct sim_reader *r)
{
    char *buf = malloc(64 * 1024);
    if (!buf)
        return -1;
    long n;
    int rc = 0;
    while ((n = r->read(r, buf, 64 * 1024)) > 0)
        if (sink_write(c->out, buf, (size_t)n) || sim_shell_cancelled(c->sh)) {
            rc = -1;
            break;
        }
    free(buf);
    return rc;
}

int sim_cmd_cat(struct sh_cmd *c)
{
    int status = 0;
    if (c->argc < 2) {
        if (!c->in)
            return 0;
        char buf[4096];
        long n;
        while ((n = c->in->read(c->in, buf, sizeof(buf))) > 0)
            if (sink_write(c->out, buf, (size_t)n))
                return 1;
        return 0;
    }
    for (int i = 1; i < c->argc; i++) {
        struct sim_reader *r;
        int e = sim_pf_read_refused(c->sh->dev, c->argv[i], 0);
        if (!e)
            e = sim_fs_open_read(c->sh->dev->fs, c->argv[i], &r);
        if (e) {
            sink_printf(c->err, "cat: %s: %s\n", c->argv[i], sim_errstr(e));
            status = 1;
            continue;
        }
        int rc = copy_reader(c, r);
        r->close(r);
        if (rc)
            return 1;
    }
    return status;
}

/* grep [-q] [-x] [-F] PATTERN FILE...: the pattern a fixed string (what
 * systrace asks is digits, the same as a regex); lines up to 4 KiB. */

struct grep_opts {
    int quiet, whole;
    const char *pat;
};

static int grep_line(const struct grep_opts *g, const char *line, size_t n)
{
    size_t k = strlen(g->pat);
    if (g->whole)
        return n == k && !memcmp(line, g->pat, k);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(line + i, g->pat, k))
            return 1;
    return 0;
}

/* One line: 1 matched, 0 not, -1 the output is gone. */
static int grep_one(struct sh_cmd *c, const struct grep_opts *g, const char *line, size_t n)
{
    if (!grep_line(g, line, n))
        return 0;
    if (!g->quiet && (sink_write(c->out, line, n) || sink_write(c->out, "\n", 1)))
        return -1;
    return 1;
}

/* 1: a line matched, 0: none, -1: the output is gone */
static int grep_reader(struct sh_cmd *c, const struct grep_opts *g, struct sim_reader *r)
{
    char line[4096], buf[4096];
    size_t n = 0;
    int found = 0, rc;
    long got;
    while ((got = r->read(r, buf, sizeof(buf))) > 0)
        for (long i = 0; i < got; i++) {
            if (buf[i] != '\n') {
                if (n < sizeof(line))
                    line[n++] = buf[i];
                continue;
            }
            if ((rc = grep_one(c, g, line, n)) < 0)
                return -1;
            found |= rc;
            n = 0;
        }
    if (n && (rc = grep_one(c, g, line, n)) != 0)
        return rc;
    return found;
}

int sim_cmd_grep(struct sh_cmd *c)
{
    struct grep_opts g = {0};
    int i = 1;
    for (; i < c->argc && c->argv[i][0] == '-' && c->argv[i][1]; i++)
        for (const char *f = c->argv[i] + 1; *f; f++) {
            if (*f == 'q')
                g.quiet = 1;
            else if (*f == 'x')
                g.whole = 1;
            else if (*f != 'F') {
                sink_printf(c->err, "grep: unknown option '%c'\n", *f);
                return 2;
            }
        }
    if (i + 1 >= c->argc) {
        sink_puts(c->err, "usage: grep [-qxF] PATTERN FILE...\n");
        return 2;
    }
    g.pat = c->argv[i++];
    int found = 0, status = 1;
    for (; i < c->argc; i++) {
        struct sim_reader *r;
        if (sim_fs_open_read(c->sh->dev->fs, c->argv[i], &r)) {
            sink_printf(c->err, "grep: %s: No such file or directory\n", c->argv[i]);
            status = 2;
            continue;
        }
        int rc = grep_reader(c, &g, r);
        r->close(r);
        if (rc < 0)
            return 1;
        found |= rc;
    }
    return found ? 0 : status;
}

/* ls [-a] [-l] [-d] [-1] [PATH...] */

struct ls_opts {
    int all, longf, dir;
    struct sh_cmd *c;
};

static void mode_string(uint32_t mode, char out[11])
{
    static const char rwx[] = "rwxrwxrwx";
    out[0] = S_ISDIR(mode) ? 'd' : S_ISCHR(mode) ? 'c' : '-';
    for (int i = 0; i < 9; i++)
        out[i + 1] = mode & (1u << (8 - i)) ? rwx[i] : '-';
    out[10] = '\0';
}

static int ls_line(struct ls_opts *o, const char *name,
                   const struct sim_stat *st)
{
    if (!o->longf)
        return sink_printf(o->c->out, "%s\n", name);
    char mode[11], when[32];
    mode_string(st->mode, mode);
    time_t t = st->mtime ? (time_t)st->mtime : (time_t)1672531200;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
    const char *owner = o->c->sh->dev->opt.no_root ? "shell" : "root";
    return sink_printf(o->c->out, "%s %2u %-8s %-8s %8llu %s %s\n", mode,
                       st->nlink ? st->nlink : 1, owner, owner,
                       (unsigned long long)st->size, when, name);
}

static int ls_entry(void *arg, const char *name, const struct sim_stat *st)
{
    struct ls_opts *o = arg;
    if (name[0] == '.' && !o->all)
        return 0;
    return ls_line(o, name, st) ? 1 : 0;
}

int sim_cmd_ls(struct sh_cmd *c)
{
    struct ls_opts o = {0, 0, 0, c};
    int i = 1, status = 0;
    for (; i < c->argc && c->argv[i][0] == '-' && c->argv[i][1]; i++)
        for (const char *f = c->argv[i] + 1; *f; f++) {
            if (*f == 'a')
                o.all = 1;
            else if (*f == 'l')
                o.longf = 1;
            else if (*f == 'd')
                o.dir = 1;
            else if (*f != '1' && *f != 'A')
                return sink_printf(c->err, "ls: Unknown option '%c'\n", *f),
                       1;
        }
    char *dot[] = {"/"};
    char **paths = i < c->argc ? c->argv + i : dot;
    int n = i < c->argc ? c->argc - i : 1;
    for (int k = 0; k < n; k++) {
        struct sim_stat st;
        int e = sim_fs_stat(c->sh->dev->fs, paths[k], &st);
        if (e) {
            sink_printf(c->err, "ls: %s: %s\n", paths[k], sim_errstr(e));
            status = 1;
            continue;
        }
        if (st.type != SIM_F_DIR || o.dir) {
            ls_line(&o, paths[k], &st);
            continue;
        }
        if (n > 1)
            sink_printf(c->out, "%s%s:\n", k ? "\n" : "", paths[k]);
        if (o.longf)
            sink_printf(c->out, "total 0\n");
        if (o.all) {
            ls_line(&o, ".", &st);
            ls_line(&o, "..", &st);
        }
        e = sim_fs_list(c->sh->dev->fs, paths[k], ls_entry, &o);
        if (e < 0) {
            sink_printf(c->err, "ls: %s: %s\n", paths[k], sim_errstr(e));
            status = 1;
        }
    }
    return status;
}

/* mkdir [-p] DIR... */

static int mkdir_p(struct sh_cmd *c, const char *path)
{
    char norm[SIM_PATH_MAX];
    int e = sim_fs_normalize(path, norm, sizeof(norm));
    if (e)
        return e;
    for (char *p = norm + 1;; p++) {
        if (*p == '/' || !*p) {
            char save = *p;
            *p = '\0';
            e = sim_fs_mkdir(c->sh->dev->fs, norm);
            if (e && e != -EEXIST)
                return e;
            *p = save;
            if (!save)
                break;
        }
    }
    struct sim_stat st;
    e = sim_fs_stat(c->sh->dev->fs, norm, &st);
    return e ? e : st.type == SIM_F_DIR ? 0 : -EEXIST;
}

int sim_cmd_mkdir(struct sh_cmd *c)
{
    int parents = 0, status = 0, i = 1;
    for (; i < c->argc && c->argv[i][0] == '-'; i++)
        if (!strcmp(c->argv[i], "-p"))
            parents = 1;
    for (; i < c->argc; i++) {
        int e = parents ? mkdir_p(c, c->argv[i])
                        : sim_fs_mkdir(c->sh->dev->fs, c->argv[i]);
        if (e) {
            sink_printf(c->err, "mkdir: %s: %s\n", c->argv[i], sim_errstr(e));
            status = 1;
        }
    }
    return status;
}

/* rm [-f] [-r] PATH... */

static int rm_path(struct sh_cmd *c, const char *path, int recursive);

struct rm_walk {
    struct sh_cmd *c;
    const char *dir;
    int rc;
};

static int rm_child(void *arg, const char *name, const struct sim_stat *st)
{
    (void)st;
    struct rm_walk *w = arg;
    char path[SIM_PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/%s", w->dir, name) >=
        (int)sizeof(path))
        return 0;
    if (rm_path(w->c, path, 1))
        w->rc = -1;
    return 0;
}

static int rm_path(struct sh_cmd *c, const char *path, int recursive)
{
    struct sim_stat st;
    int e = sim_fs_stat(c->sh->dev->fs, path, &st);
    if (e)
        return e;
    if (st.type == SIM_F_DIR) {
        if (!recursive)
            return -EISDIR;
        struct rm_walk w = {c, path, 0};
        sim_fs_list(c->sh->dev->fs, path, rm_child, &w);
        return sim_fs_rmdir(c->sh->dev->fs, path);
    }
    return sim_fs_unlink(c->sh->dev->fs, path);
}

int sim_cmd_rm(struct sh_cmd *c)
{
    int force = 0, recursive = 0, status = 0, i = 1;
    for (; i < c->argc && c->argv[i][0] == '-' && c->argv[i][1]; i++)
        for (const char *f = c->argv[i] + 1; *f; f++) {
            if (*f == 'f')
                force = 1;
            else if (*f == 'r' || *f == 'R')
                recursive = 1;
        }
    /* --slow-rm; a host that hangs up first (adbd then kills rm) leaves
     * the files */
    if (c->sh->dev->opt.rm_delay_ms &&
        sim_sleep((uint64_t)c->sh->dev->opt.rm_delay_ms * 1000000u, sim_shell_cancel_cb, c->sh))
        return 130;
    for (; i < c->argc; i++) {
        int e = rm_path(c, c->argv[i], recursive);
        if (e && !(force && e == -ENOENT)) {
            sink_printf(c->err, "rm: %s: %s\n", c->argv[i], sim_errstr(e));
            status = 1;
        }
    }
    return status;
}
