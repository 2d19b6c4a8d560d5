/* --stream spool files; see ftrace_spool.h. */
#include "ftrace_spool.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftrace_merge.h"
#include "lib/tmpfiles.h"

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* CPU numbers of dir/per_cpu/cpuN, sorted; NULL on failure. */
static long *list_cpus(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 64;
    long *v = malloc(cap * sizeof(long));
    *n = 0;
    struct dirent *de;
    while (v && (de = readdir(d))) {
        char *end;
        if (strncmp(de->d_name, "cpu", 3) || !de->d_name[3])
            continue;
        long cpu = strtol(de->d_name + 3, &end, 10);
        if (*end || cpu < 0)
            continue;
        if (*n == cap) {
            long *nv = realloc(v, (cap *= 2) * sizeof(long));
            if (!nv) {
                free(v);
                v = NULL;
                break;
            }
            v = nv;
        }
        v[(*n)++] = cpu;
    }
    closedir(d);
    if (v && *n)
        qsort(v, *n, sizeof(long), cmp_long);
    return v;
}

static char *fmt(const char *a, const char *mid, long cpu, const char *b)
{
    int n = snprintf(NULL, 0, "%s%s%ld%s", a, mid, cpu, b);
    char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (p)
        snprintf(p, (size_t)n + 1, "%s%s%ld%s", a, mid, cpu, b);
    return p;
}

enum st_err spools_make(struct spools *s, struct tracefs *t, const char *base)
{
    memset(s, 0, sizeof(*s));
    char dir[PATH_MAX];
    if (tracefs_path(t, 0, "per_cpu", dir, sizeof(dir)))
        return ST_EINVAL;
    size_t n = 0;
    long *cpus = list_cpus(dir, &n);
    if (!cpus || !n) {
        free(cpus);
        return ST_ENOENT;
    }
    s->pipes = calloc(n, sizeof(char *));
    s->files = calloc(n, sizeof(char *));
    enum st_err e = s->pipes && s->files ? ST_OK : ST_ENOMEM;
    for (size_t i = 0; i < n && !e; i++) {
        s->pipes[i] = fmt(dir, "/cpu", cpus[i], "/trace_pipe");
        s->files[i] = fmt(base, ".cpu", cpus[i], "");
        s->n = i + 1;
        if (!s->pipes[i] || !s->files[i])
            e = ST_ENOMEM;
        else
            tmpfiles_add(s->files[i]);  /* gone even after an exit at once */
    }
    free(cpus);
    return e;
}

int spools_merge_to(const struct spools *s, const char *path, char **kept)
{
    return fmerge_to_file(s->files, s->n, path, kept);
}

void spools_remove(const struct spools *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->files && s->files[i]) {
            unlink(s->files[i]);
            tmpfiles_forget(s->files[i]);
        }
    }
}

int spools_exist(const struct spools *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->files && s->files[i] && access(s->files[i], F_OK) == 0)
            return 1;
    return 0;
}

void spools_free(struct spools *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->pipes)
            free(s->pipes[i]);
        if (s->files && s->files[i]) {
            tmpfiles_forget(s->files[i]);
            free(s->files[i]);
        }
    }
    free(s->pipes);
    free(s->files);
    memset(s, 0, sizeof(*s));
}
