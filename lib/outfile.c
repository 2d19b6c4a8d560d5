/*
 * Atomic output file with a sticky error; see outfile.h.  Writing runs on
 * a write stage of its own (astage.h), which hands the bytes to write(2):
 * on a 2-core machine this overlaps inflating a trace with copying it into
 * the page cache, which is otherwise most of the cost of a conversion.
 */
#include "outfile.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astage.h"
#include "outpath.h"
#include "plat.h"
#include "tmpfiles.h"

#define MAX_FREE_NAMES 1000

struct outfile {
    int fd;                 /* the temporary file */
    int flags;
    int committed;
    int discard;            /* no file: bytes are counted, not kept */
    enum st_err err;
    char errtext[300];
    char *path;             /* as named; after a NOREPLACE commit, the name taken */
    char *tmp;
    struct outpath target;
    uint64_t written;       /* bytes handed on (or written) */
    struct astage *as;      /* NULL: no thread could be had, write directly */
    _Atomic int werrno;     /* errno of the stage's failed write */
};

static enum st_err fail(struct outfile *o, enum st_err e, int errnum)
{
    if (!o->err) {
        enum st_err why = outpath_errno(errnum, o->path ? o->path : "", o->errtext,
                                        sizeof(o->errtext));
        o->err = why == ST_EIO ? e : why;
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

/* The temporary file: beside the file it becomes, or under $TMPDIR for a
 * target written in place. */
static enum st_err make_tmp(struct outfile *o)
{
    const char *dir = plat_tmpdir();
    size_t n = (o->target.dest ? strlen(o->target.dest) : strlen(dir)) + 32;
    if (!(o->tmp = malloc(n)))
        return fail(o, ST_ENOMEM, ENOMEM);
    if (o->target.kind == OUTPATH_FILE)
        snprintf(o->tmp, n, "%s.tmp.XXXXXX", o->target.dest);
    else
        snprintf(o->tmp, n, "%s%csystrace-out.XXXXXX", dir, PLAT_SEP);
    o->fd = plat_mkstemp_listed(o->tmp);
    if (o->fd < 0) {
        int err = errno;
        free(o->tmp);
        o->tmp = NULL;
        if (o->target.kind == OUTPATH_FILE)
            return fail(o, ST_EIO, err);
        snprintf(o->errtext, sizeof(o->errtext), "cannot stage it in %s: %s", dir,
                 strerror(err));
        return o->err = ST_EIO;
    }
    if (o->target.kind == OUTPATH_FILE) {
        /* mkstemp makes 0600: a new file gets the umask's mode, a replaced
         * one keeps its own (and its owner, where we may set it) */
        if (o->target.replaces && plat_fchown(o->fd, o->target.uid, o->target.gid) != 0) {
            /* not ours to give away: the mode is still kept */
        }
        if (plat_fchmod(o->fd, o->target.mode) != 0)
            return fail(o, ST_EIO, errno);
    }
    return ST_OK;
}

enum st_err outfile_open_flags(const char *path, int flags, struct outfile **out)
{
    struct outfile *o = calloc(1, sizeof(*o));
    *out = o;
    if (!o)
        return ST_ENOMEM;
    o->fd = -1;
    o->flags = flags;
    if (!path) {
        o->discard = 1;
        return ST_OK;
    }
    if (!(o->path = dupstr(path)))
        return fail(o, ST_ENOMEM, ENOMEM);
    enum st_err e = outpath_resolve(path, &o->target, o->errtext, sizeof(o->errtext));
    if (e)
        return o->err = e;
    if ((e = make_tmp(o)))
        return e;
    o->as = astage_new(to_fd, o);
    return ST_OK;
}

enum st_err outfile_open(const char *path, struct outfile **out)
{
    return outfile_open_flags(path, 0, out);
}

int outfile_check(const char *path, int flags, char *err, size_t errlen)
{
    struct outfile *o;
    enum st_err e = outfile_open_flags(path, flags, &o);
    if (e && err)
        snprintf(err, errlen, "%s", o ? outfile_errtext(o) : st_strerror(e));
    outfile_free(o);
    return e ? -1 : 0;
}

enum st_err outfile_write(struct outfile *o, const void *p, size_t n)
{
    if (o->err || !n)
        return o->err;
    o->written += n;
    if (o->discard)
        return ST_OK;
    /* A write as big as a stage buffer goes straight to the file, once the
     * stage has handed on what it held: copied into the stage's buffers
     * first, the page's 2.6 MB viewer cost ~25 ms of page faults (fresh
     * memory on a VM) against ~5 ms written from where it lies. */
    if (o->as && n < ASTAGE_BUF)
        return check(o, astage_write(o->as, p, n));
    enum st_err e = drain(o);
    if (e)
        return e;
    int err = write_fd(o->fd, p, n);
    return err ? fail(o, ST_EIO, err) : ST_OK;
}

uint64_t outfile_tell(const struct outfile *o)
{
    return o->written;
}

enum st_err outfile_flush(struct outfile *o)
{
    return drain(o);
}

FILE *outfile_stdio(struct outfile *o)
{
    if (o->discard) {
        errno = EINVAL;
        return NULL;
    }
    if (drain(o)) {
        errno = EIO;
        return NULL;
    }
    /* a duplicate shares the file position: the stream appends to the file */
    int fd = dup(o->fd);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f && fd >= 0)
        close(fd);
    return f;
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
        ssize_t r = plat_pread(o->fd, b, n, from + off);
        if (r != (ssize_t)n || plat_pwrite(o->fd, b, n, to + off) != (ssize_t)n) {
            free(b);
            return fail(o, ST_EIO, r < 0 || errno ? errno : EIO);
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
    uint64_t end = outfile_tell(o);
    if (a > end || b > end)
        return fail(o, ST_EINVAL, EINVAL);
    if (o->discard) {
        o->written = a + (end - b);
        return ST_OK;
    }
    if (a == b || drain(o))
        return o->err;
    uint64_t tail = end - b;
    if (copy_range(o, b, a, tail, b < a))
        return o->err;
    uint64_t newend = a + tail;
    if (plat_ftruncate(o->fd, newend) != 0)
        return fail(o, ST_EIO, errno);
    if (plat_seek(o->fd, newend) < 0)
        return fail(o, ST_EIO, errno);
    o->written = newend;
    return ST_OK;
}

enum st_err outfile_pwrite(struct outfile *o, uint64_t off, const void *p, size_t n)
{
    if (o->err)
        return o->err;
    if (off > o->written || n > o->written - off)
        return fail(o, ST_EINVAL, EINVAL);
    if (o->discard)
        return ST_OK;
    if (drain(o))
        return o->err;
    while (n) {
        ssize_t r = plat_pwrite(o->fd, p, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return fail(o, ST_EIO, r < 0 ? errno : EIO);
        p = (const unsigned char *)p + r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return ST_OK;
}

enum st_err outfile_insert(struct outfile *o, uint64_t at, uint64_t n)
{
    if (o->err || !n)
        return o->err;
    uint64_t end = o->written;
    if (at > end)
        return fail(o, ST_EINVAL, EINVAL);
    if (o->discard) {
        o->written = end + n;
        return ST_OK;
    }
    if (drain(o) || copy_range(o, at, at + n, end - at, 1))
        return o->err;
    if (plat_seek(o->fd, end + n) < 0)
        return fail(o, ST_EIO, errno);
    o->written = end + n;
    return ST_OK;
}

/* Rename into a name no file has: PATH, PATH-1.EXT, ... (never replacing
 * one that appeared meanwhile: plat_rename_noreplace). */
static enum st_err rename_free(struct outfile *o)
{
    for (unsigned n = 0; n < MAX_FREE_NAMES; n++) {
        char *cand = outpath_candidate(o->target.dest, n);
        if (!cand)
            return fail(o, ST_ENOMEM, ENOMEM);
        if (plat_rename_noreplace(o->tmp, cand) == 0) {
            free(o->path);
            o->path = cand;
            return ST_OK;
        }
        int err = errno;
        free(cand);
        if (err != EEXIST)
            return fail(o, ST_EIO, err);
    }
    return fail(o, ST_EIO, EEXIST);
}

/* A target written in place: copy the staged bytes into it. */
static enum st_err copy_out(struct outfile *o)
{
    int to = !strcmp(o->path, "-") ? STDOUT_FILENO : plat_open(o->path, O_WRONLY, 0);
    if (to < 0)
        return fail(o, ST_EIO, errno);
    enum st_err e = ST_OK;
    unsigned char *b = malloc(1 << 20);
    if (!b)
        e = fail(o, ST_ENOMEM, ENOMEM);
    for (uint64_t off = 0; !e;) {
        ssize_t r = plat_pread(o->fd, b, 1 << 20, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r < 0)
                e = fail(o, ST_EIO, errno);
            break;
        }
        int err = write_fd(to, b, (size_t)r);
        if (err)
            e = fail(o, ST_EIO, err);
        off += (uint64_t)r;
    }
    free(b);
    if (to != STDOUT_FILENO && close(to) != 0 && !e)
        e = fail(o, ST_EIO, errno);
    return e;
}

static void drop_tmp(struct outfile *o)
{
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    if (o->tmp) {
        plat_unlink(o->tmp);
        tmpfiles_forget(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
}

/* Close and rename (or copy) the written temporary file into place. */
static enum st_err place(struct outfile *o)
{
    if (o->target.kind == OUTPATH_STREAM) {
        if (!copy_out(o))
            o->committed = 1;
        drop_tmp(o);
        return o->err;
    }
    if (close(o->fd) != 0)
        fail(o, ST_EIO, errno);
    o->fd = -1;
    if (!o->err && (o->flags & OUTFILE_NOREPLACE))
        rename_free(o);
    else if (!o->err && plat_rename(o->tmp, o->target.dest) != 0)
        fail(o, ST_EIO, errno);
    if (!o->err) {
        o->committed = 1;
        tmpfiles_forget(o->tmp);
    }
    return o->err;
}

/* After a failed write, with OUTFILE_KEEP_WRITTEN: the error is put
 * aside while what reached the file is placed, and comes back after. */
static enum st_err keep_written(struct outfile *o)
{
    struct plat_stat st;
    if (!(o->flags & OUTFILE_KEEP_WRITTEN) || o->target.kind != OUTPATH_FILE ||
        o->fd < 0 || plat_fstat(o->fd, &st) != 0)
        return o->err;
    enum st_err was = o->err;
    char text[sizeof(o->errtext)];
    memcpy(text, o->errtext, sizeof(text));
    o->err = ST_OK;
    o->errtext[0] = 0;
    o->written = st.size;
    enum st_err e = place(o);
    if (!e) {
        o->err = was;
        memcpy(o->errtext, text, sizeof(text));
    }
    return e;
}

enum st_err outfile_commit(struct outfile *o)
{
    if (o->committed)
        return o->err && (o->flags & OUTFILE_KEEP_WRITTEN) ? ST_OK : o->err;
    if (o->discard) {
        o->committed = 1;
        return o->err;
    }
    if (o->as) {
        enum st_err e = astage_finish(o->as);
        if (!o->err)
            check(o, e);
    }
    return o->err ? keep_written(o) : place(o);
}

void outfile_free(struct outfile *o)
{
    if (!o)
        return;
    astage_free(o->as);     /* no write may follow the close */
    if (!o->committed)
        drop_tmp(o);
    else if (o->fd >= 0)
        close(o->fd);
    outpath_free(&o->target);
    free(o->tmp);
    free(o->path);
    free(o);
}

const char *outfile_errtext(const struct outfile *o)
{
    return o->errtext[0] ? o->errtext : st_strerror(o->err);
}

enum st_err outfile_error(const struct outfile *o)
{
    return o->err;
}

const char *outfile_path(const struct outfile *o)
{
    return o->path;
}

const char *outfile_tmppath(const struct outfile *o)
{
    return o->committed ? NULL : o->tmp;
}
