/* Output targets; see outpath.h. */
#include "outpath.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat.h"

#define MAX_LINKS 40

/* The directory part of PATH ("." when there is none). */
static char *dir_of(const char *path)
{
    const char *slash = plat_last_sep(path);
    if (!slash)
        return strdup(".");
    return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

enum st_err outpath_errno(int errnum, const char *path, char *err, size_t errlen)
{
    char *dir = dir_of(path);
    const char *d = dir ? dir : "its directory";
    enum st_err e = ST_EIO;
    switch (errnum) {
    case ENOENT: {
        struct plat_stat st;
        if (dir && plat_stat(dir, &st) == 0 && st.kind == PLAT_DIR) {
            /* /proc, /sys: there, but no new files can be made in it */
            snprintf(err, errlen, "cannot create files in '%s'; choose another directory", d);
            e = ST_EPERM;
            break;
        }
        snprintf(err, errlen, "directory '%s' does not exist", d);
        e = ST_ENOENT;
        break;
    }
    case ENOTDIR:
        snprintf(err, errlen, "'%s' is not a directory", d);
        e = ST_ENOENT;
        break;
    case EACCES:
    case EPERM:
#ifdef EROFS
    case EROFS:
#endif
        snprintf(err, errlen, "cannot create files in '%s': %s", d, strerror(errnum));
        e = ST_EPERM;
        break;
    case ENOSPC:
#ifdef EDQUOT
    case EDQUOT:
#endif
        snprintf(err, errlen, "%s", strerror(errnum));
        e = ST_ENOSPC;
        break;
    case EPIPE:     /* a pipe's reader left (| head -c1): no disk problem */
        snprintf(err, errlen, "%s", strerror(errnum));
        e = ST_EPIPE;
        break;
    default:
        snprintf(err, errlen, "%s", strerror(errnum));
        break;
    }
    free(dir);
    return e;
}

/* Follow the symlink at PATH (whose target need not exist) to the path a
 * new file would be created at. */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < MAX_LINKS; hops++) {
        struct plat_stat st;
        if (plat_lstat(cur, &st) != 0 || st.kind != PLAT_LINK)
            return cur;
        char buf[PATH_MAX];
        ssize_t n = plat_readlink(cur, buf, sizeof(buf));
        if (n <= 0) {
            free(cur);
            return NULL;
        }
        char *next;
        if (plat_is_absolute(buf) || !plat_last_sep(cur)) {
            next = strndup(buf, (size_t)n);
        } else {
            size_t dl = (size_t)(plat_last_sep(cur) - cur) + 1;
            next = malloc(dl + (size_t)n + 1);
            if (next)
                snprintf(next, dl + (size_t)n + 1, "%.*s%s", (int)dl, cur, buf);
        }
        free(cur);
        cur = next;
    }
    if (cur)
        errno = ELOOP;      /* a loop of links */
    free(cur);
    return NULL;
}

static enum st_err resolve_file(const char *path, const struct plat_stat *st,
                                struct outpath *p, char *err, size_t errlen)
{
    p->kind = OUTPATH_FILE;
    p->mode = plat_new_file_mode();
    if (st) {
        p->replaces = 1;
        p->mode = st->mode;
        p->uid = st->uid;
        p->gid = st->gid;
    }
    errno = 0;
    p->dest = follow_links(path);
    if (!p->dest)
        return outpath_errno(errno ? errno : ENOMEM, path, err, errlen);
    return ST_OK;
}

enum st_err outpath_resolve(const char *path, struct outpath *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof(*p));
    if (!strcmp(path, "-")) {
        p->kind = OUTPATH_STREAM;
        return ST_OK;
    }
    size_t len = strlen(path);
    if (!len || plat_is_sep(path[len - 1])) {
        snprintf(err, errlen, "is a directory name, not a file name");
        return ST_EINVAL;
    }
    struct plat_stat st;
    if (plat_stat(path, &st) == 0) {
        if (st.kind == PLAT_DIR) {
            snprintf(err, errlen, "is a directory");
            return ST_EINVAL;
        }
        if (st.kind != PLAT_FILE) {
            p->kind = OUTPATH_STREAM;
            if (plat_access(path, W_OK) != 0)
                return outpath_errno(errno, path, err, errlen);
            return ST_OK;
        }
        return resolve_file(path, &st, p, err, errlen);
    }
    if (errno != ENOENT)
        return outpath_errno(errno, path, err, errlen);
    return resolve_file(path, NULL, p, err, errlen);
}

void outpath_free(struct outpath *p)
{
    free(p->dest);
    p->dest = NULL;
}

char *outpath_candidate(const char *path, unsigned n)
{
    size_t len = strlen(path);
    if (n == 0)
        return strndup(path, len);
    const char *slash = plat_last_sep(path);
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot > name ? (size_t)(dot - path) : len;
    size_t cap = len + 16;
    char *c = malloc(cap);
    if (c)
        snprintf(c, cap, "%.*s-%u%s", (int)stem, path, n, path + stem);
    return c;
}
