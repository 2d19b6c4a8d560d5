/* Atomic output file with a sticky error; see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTBUF (256 * 1024)

struct outfile {
    int fd;
    int is_stdout;
    int committed;
    enum st_err err;
    char errtext[128];
    char *path, *tmp;
    uint64_t flushed;       /* bytes already in the file */
    size_t buflen;
    unsigned char buf[OUTBUF];
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

enum st_err outfile_open(const char *path, struct outfile **out)
{
    struct outfile *o = calloc(1, sizeof(*o));
    *out = o;
    if (!o)
        return ST_ENOMEM;
    o->fd = -1;
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

static enum st_err write_all(struct outfile *o, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return fail(o, ST_EIO, errno);
        }
        p += w;
        n -= (size_t)w;
        o->flushed += (uint64_t)w;
    }
    return ST_OK;
}

static enum st_err flush(struct outfile *o)
{
    if (o->err)
        return o->err;
    enum st_err e = write_all(o, o->buf, o->buflen);
    o->buflen = 0;
    return e;
}

enum st_err outfile_write(struct outfile *o, const void *p, size_t n)
{
    if (o->err)
        return o->err;
    if (n >= OUTBUF) {
        if (flush(o))
            return o->err;
        return write_all(o, p, n);
    }
    if (o->buflen + n > OUTBUF && flush(o))
        return o->err;
    memcpy(o->buf + o->buflen, p, n);
    o->buflen += n;
    return ST_OK;
}

uint64_t outfile_tell(const struct outfile *o)
{
    return o->flushed + o->buflen;
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
    if (a == b || flush(o))
        return o->err;
    uint64_t tail = end - b;
    if (copy_range(o, b, a, tail, b < a))
        return o->err;
    uint64_t newend = a + tail;
    if (ftruncate(o->fd, (off_t)newend) != 0)
        return fail(o, ST_EIO, errno);
    if (lseek(o->fd, (off_t)newend, SEEK_SET) < 0)
        return fail(o, ST_EIO, errno);
    o->flushed = newend;
    return ST_OK;
}

static void release(struct outfile *o)
{
    free(o->path);
    free(o->tmp);
    free(o);
}

enum st_err outfile_commit(struct outfile *o)
{
    flush(o);
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
