/*
 * Shell globbing over the simulated file system (host-backed and virtual
 * directories alike): one path component at a time with fnmatch
 * (FNM_PERIOD), entries in sorted order, so catapult's /proc/PID/task/TID
 * glob lists every simulated thread like the device's shell would.
 */
#include "sim_fs.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Globbing, one path component at a time. */

struct glob_walk {
    struct sim_fs *fs;
    char *comps[64];
    size_t ncomps;
    int relative;
    int (*cb)(void *, const char *);
    void *arg;
    int matches;
    int stop;
};

static int has_magic(const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' && s[1])
            s++;
        else if (*s == '*' || *s == '?' || *s == '[')
            return 1;
    }
    return 0;
}

static void unescape(char *s)
{
    char *w = s;
    for (; *s; s++) {
        if (*s == '\\' && s[1])
            s++;
        *w++ = *s;
    }
    *w = '\0';
}

static void glob_at(struct glob_walk *g, const char *dir, size_t i);

struct glob_dir {
    struct glob_walk *g;
    const char *dir;
    size_t i;
};

static int glob_entry(void *arg, const char *name, const struct sim_stat *st)
{
    struct glob_dir *gd = arg;
    struct glob_walk *g = gd->g;
    if (fnmatch(g->comps[gd->i], name, FNM_PERIOD))
        return 0;
    if (gd->i + 1 < g->ncomps && st->type != SIM_F_DIR)
        return 0;
    char next[SIM_PATH_MAX];
    int n = snprintf(next, sizeof(next), "%s%s%s", gd->dir,
                     strcmp(gd->dir, "/") ? "/" : "", name);
    if (n < 0 || (size_t)n >= sizeof(next))
        return 0;
    glob_at(g, next, gd->i + 1);
    return g->stop;
}

static void glob_at(struct glob_walk *g, const char *dir, size_t i)
{
    if (g->stop)
        return;
    if (i == g->ncomps) {
        struct sim_stat st;
        if (sim_fs_stat(g->fs, dir, &st))
            return;
        g->matches++;
        const char *out = dir;
        if (g->relative)
            out = dir + 1;
        if (g->cb(g->arg, out))
            g->stop = 1;
        return;
    }
    if (!has_magic(g->comps[i])) {
        char lit[SIM_PATH_MAX], next[SIM_PATH_MAX];
        int n = snprintf(lit, sizeof(lit), "%s", g->comps[i]);
        if (n < 0 || (size_t)n >= sizeof(lit))
            return;
        unescape(lit);
        n = snprintf(next, sizeof(next), "%s%s%s", dir,
                     strcmp(dir, "/") ? "/" : "", lit);
        if (n < 0 || (size_t)n >= sizeof(next))
            return;
        glob_at(g, next, i + 1);
        return;
    }
    struct glob_dir gd = {g, dir, i};
    sim_fs_list(g->fs, dir, glob_entry, &gd);
}

int sim_fs_glob(struct sim_fs *fs, const char *pattern,
                int (*cb)(void *arg, const char *path), void *arg)
{
    struct glob_walk g;
    memset(&g, 0, sizeof(g));
    g.fs = fs;
    g.cb = cb;
    g.arg = arg;
    g.relative = pattern[0] != '/';
    char *copy = strdup(pattern);
    if (!copy)
        return -ENOMEM;
    for (char *p = copy; *p;) {
        while (*p == '/')
            *p++ = '\0';
        if (!*p)
            break;
        if (g.ncomps == sizeof(g.comps) / sizeof(g.comps[0])) {
            free(copy);
            return -ENAMETOOLONG;
        }
        g.comps[g.ncomps++] = p;
        p += strcspn(p, "/");
    }
    for (size_t i = 0; i < g.ncomps; i++)
        if (!strcmp(g.comps[i], "..") || !strcmp(g.comps[i], ".")) {
            free(copy);
            return 0;   /* not needed by anything we simulate */
        }
    glob_at(&g, "/", 0);
    free(copy);
    return g.matches;
}
