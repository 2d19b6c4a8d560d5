/*
 * Atomic output file with a sticky error; see outfile.h.  Writing runs on
 * a write stage of its own (astage.h), which hands the bytes to write(2):
 * on a 2-core machine this overlaps inflating a trace with copying it into
 * the page cache, which is otherwise most of the cost of a conversion.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "astage.h"

struct outfile {
    int fd;
    int is_stdout;
    int committed;
    enum st_err err;
    char errtext[128];
    char *path, *tmp;
    uint64_t written;       /* bytes handed on (or written) */
    struct astage *as;      /* NULL: no thread could be had, write directly */
    _Atomic int werrno;     /* errno of the stage's failed write */
};

static enum st_err fail(struct outfile *o, enum st_err e, int errnum)
{
    if (!o->err) {
        o->err = e;
        snprintf(o->errtext, sizeof(o->errtext), "%s", strerror(errnum));
    }
    return o->err;
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static int write_fd(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The stage's next step: write(2), keeping errno for the message. */
static enum st_err to_fd(void *ctx, const void *p, size_t n)
{
    struct outfile *o = ctx;
    int err = write_fd(o->fd, p, n);
    if (err)
        atomic_store(&o->werrno, err);
    return err ? ST_EIO : ST_OK;
}

/* Pick up the stage's error, if any. */
static enum st_err check(struct outfile *o, enum st_err e)
{
    return e ? fail(o, e, atomic_load(&o->werrno)) : o->err;
}

/* Wait until everything handed on is written. */
static enum st_err drain(struct outfile *o)
{
    return o->as && !o->err ? check(o, astage_drain(o->as)) : o->err;
}

enum st_err outfile_open(const char *path, struct outfile **out)
{
    struct outfile *o = calloc(1, sizeof(*o));
    *out = o;
    if (!o)
        return ST_ENOMEM;
    o->fd = -1;
    o->as = astage_new(to_fd, o);
    if (!strcmp(path, "-")) {
        o->fd = STDOUT_FILENO;
        o->is_stdout = 1;
        o->path = dupstr(path);
        return o->path ? ST_OK : ST_ENOMEM;
    }
    size_t n = strlen(path) + 16;
    o->path = dupstr(path);
    o->tmp = malloc(n);
    if (!o->path || !o->tmp)
        return ST_ENOMEM;
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        free(o->tmp);
        o->tmp = NULL;
        return fail(o, errno == EACCES ? ST_EPERM : ST_EIO, errno);
    }
    /* mkstemp makes 0600; an output file gets the usual umask mode. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(o->fd, 0666 & ~um) != 0)
        return fail(o, ST_EIO, errno);
    return ST_OK;
}

enum st_err outfile_write(struct outfile *o, const void *p, size_t n)
{
    if (o->err || !n)
        return o->err;
    o->written += n;
    if (o->as)
        return check(o, astage_write(o->as, p, n));
    int err = write_fd(o->fd, p, n);
    return err ? fail(o, ST_EIO, err) : ST_OK;
}

uint64_t outfile_tell(const struct outfile *o)
{
    return o->written;
}

static enum st_err copy_range(struct outfile *o, uint64_t from, uint64_t to,
                              uint64_t len, int backwards)
{
    static const size_t chunk = 1 << 20;
    unsigned char *b = malloc(chunk);
    if (!b)
        return fail(o, ST_ENOMEM, ENOMEM);
    uint64_t done = 0;
    while (done < len) {
        size_t n = len - done < chunk ? (size_t)(len - done) : chunk;
        uint64_t off = backwards ? len - done - n : done;
        ssize_t r = pread(o->fd, b, n, (off_t)(from + off));
        if (r != (ssize_t)n || pwrite(o->fd, b, n, (off_t)(to + off)) != (ssize_t)n) {
            free(b);
            return fail(o, ST_EIO, r < 0 ? errno : EIO);
        }
        done += n;
    }
    free(b);
    return ST_OK;
}

enum st_err outfile_keep(struct outfile *o, uint64_t a, uint64_t b)
{
    if (o->err)
        return o->err;
    if (o->is_stdout)
        return fail(o, ST_EUNSUPPORTED, ESPIPE);
    uint64_t end = outfile_tell(o);
    if (a > end || b > end)
        return fail(o, ST_EINVAL, EINVAL);
    if (a == b || drain(o))
        return o->err;
    uint64_t tail = end - b;
    if (copy_range(o, b, a, tail, b < a))
        return o->err;
    uint64_t newend = a + tail;
    if (ftruncate(o->fd, (off_t)newend) != 0)
        return fail(o, ST_EIO, errno);
    if (lseek(o->fd, (off_t)newend, SEEK_SET) < 0)
        return fail(o, ST_EIO, errno);
    o->written = newend;
    return ST_OK;
}

static void release(struct outfile *o)
{
    astage_free(o->as);
    free(o->path);
    free(o->tmp);
    free(o);
}

enum st_err outfile_commit(struct outfile *o)
{
    if (o->as) {
        enum st_err e = astage_finish(o->as);
        if (!o->err)
            check(o, e);
    }
    if (o->is_stdout || o->committed)
        return o->err;
    if (o->fd >= 0 && close(o->fd) != 0)
        fail(o, ST_EIO, errno);
    o->fd = -1;
    if (!o->err && rename(o->tmp, o->path) != 0)
        fail(o, errno == EACCES ? ST_EPERM : ST_EIO, errno);
    if (!o->err)
        o->committed = 1;
    return o->err;
}

void outfile_free(struct outfile *o)
{
    if (!o)
        return;
    astage_free(o->as);     /* no write may follow the close */
    o->as = NULL;
    if (!o->is_stdout && o->fd >= 0)
        close(o->fd);
    if (o->tmp && !o->committed)
        unlink(o->tmp);
    release(o);
}

const char *outfile_errtext(const struct outfile *o)
{
    return o->errtext[0] ? o->errtext : st_strerror(o->err);
}

const char *outfile_path(const struct outfile *o)
{
    return o->path;
}

const char *outfile_tmppath(const struct outfile *o)
{
    return o->committed || o->is_stdout ? NULL : o->tmp;
}
