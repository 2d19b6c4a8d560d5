/*
 * Atomic output file with a sticky error; see outfile.h.  Writing runs on
 * a second thread: the producer fills OUTBUF-sized buffers and queues
 * them, the writer thread hands them to write(2).  On a 2-core machine this
 * overlaps inflating a trace with copying it into the page cache, which is
 * otherwise most of the cost of a conversion.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTBUF (1024 * 1024)
#define NBUF 4

struct outfile {
    int fd;
    int is_stdout;
    int committed;
    enum st_err err;
    char errtext[128];
    char *path, *tmp;
    uint64_t flushed;       /* bytes handed to the writer (or written) */
    unsigned char *buf;     /* the buffer being filled */
    size_t buflen;
    /* writer thread: a queue of full buffers and a pool of free ones */
    pthread_t th;
    int threaded, quit;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned char *q[NBUF];
    size_t qlen[NBUF];
    int qhead, qcount, busy;
    unsigned char *pool[NBUF];
    int npool;
    enum st_err werr;
    int werrno;
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

static void *writer(void *arg)
{
    struct outfile *o = arg;
    pthread_mutex_lock(&o->mu);
    for (;;) {
        while (!o->qcount && !o->quit)
            pthread_cond_wait(&o->cv, &o->mu);
        if (!o->qcount)
            break;
        unsigned char *b = o->q[o->qhead];
        size_t n = o->qlen[o->qhead];
        o->qhead = (o->qhead + 1) % NBUF;
        o->qcount--;
        o->busy = 1;
        pthread_mutex_unlock(&o->mu);
        int err = o->werr ? 0 : write_fd(o->fd, b, n);
        pthread_mutex_lock(&o->mu);
        if (err && !o->werr) {
            o->werr = ST_EIO;
            o->werrno = err;
        }
        o->busy = 0;
        o->pool[o->npool++] = b;
        pthread_cond_broadcast(&o->cv);
    }
    pthread_mutex_unlock(&o->mu);
    return NULL;
}

/* Wait until everything queued is written; pick up a writer error. */
static enum st_err drain(struct outfile *o)
{
    if (o->threaded) {
        pthread_mutex_lock(&o->mu);
        while (o->qcount || o->busy)
            pthread_cond_wait(&o->cv, &o->mu);
        pthread_mutex_unlock(&o->mu);
        if (o->werr)
            fail(o, o->werr, o->werrno);
    }
    return o->err;
}

/* Hand the current buffer on (or write it when there is no thread). */
static enum st_err flush(struct outfile *o)
{
    if (o->err)
        return o->err;
    if (!o->buflen)
        return ST_OK;
    if (!o->threaded) {
        int err = write_fd(o->fd, o->buf, o->buflen);
        o->flushed += o->buflen;
        o->buflen = 0;
        return err ? fail(o, ST_EIO, err) : ST_OK;
    }
    pthread_mutex_lock(&o->mu);
    while (o->qcount == NBUF || !o->npool)
        pthread_cond_wait(&o->cv, &o->mu);
    o->q[(o->qhead + o->qcount) % NBUF] = o->buf;
    o->qlen[(o->qhead + o->qcount) % NBUF] = o->buflen;
    o->qcount++;
    o->buf = o->pool[--o->npool];
    enum st_err werr = o->werr;
    int werrno = o->werrno;
    pthread_cond_broadcast(&o->cv);
    pthread_mutex_unlock(&o->mu);
    o->flushed += o->buflen;
    o->buflen = 0;
    return werr ? fail(o, werr, werrno) : ST_OK;
}

static void start_writer(struct outfile *o)
{
    for (int i = 0; i < NBUF; i++) {
        o->pool[i] = malloc(OUTBUF);
        if (!o->pool[i])
            return;
        o->npool = i + 1;
    }
    o->buf = o->pool[--o->npool];
    pthread_mutex_init(&o->mu, NULL);
    pthread_cond_init(&o->cv, NULL);
    o->threaded = pthread_create(&o->th, NULL, writer, o) == 0;
    if (!o->threaded) {
        pthread_mutex_destroy(&o->mu);
        pthread_cond_destroy(&o->cv);
    }
}

static void stop_writer(struct outfile *o)
{
    if (!o->threaded)
        return;
    pthread_mutex_lock(&o->mu);
    o->quit = 1;
    pthread_cond_broadcast(&o->cv);
    pthread_mutex_unlock(&o->mu);
    pthread_join(o->th, NULL);
    pthread_mutex_destroy(&o->mu);
    pthread_cond_destroy(&o->cv);
    o->threaded = 0;
}

enum st_err outfile_open(const char *path, struct outfile **out)
{
    struct outfile *o = calloc(1, sizeof(*o));
    *out = o;
    if (!o)
        return ST_ENOMEM;
    o->fd = -1;
    start_writer(o);
    if (!o->buf)
        return fail(o, ST_ENOMEM, ENOMEM);
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
    const unsigned char *s = p;
    while (n && !o->err) {
        size_t k = OUTBUF - o->buflen < n ? OUTBUF - o->buflen : n;
        memcpy(o->buf + o->buflen, s, k);
        o->buflen += k;
        s += k;
        n -= k;
        if (o->buflen == OUTBUF)
            flush(o);
    }
    return o->err;
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
    if (a == b || flush(o) || drain(o))
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
    stop_writer(o);
    for (int i = 0; i < o->npool; i++)
        free(o->pool[i]);
    for (int i = 0; i < o->qcount; i++)
        free(o->q[(o->qhead + i) % NBUF]);
    free(o->buf);
    free(o->path);
    free(o->tmp);
    free(o);
}

enum st_err outfile_commit(struct outfile *o)
{
    flush(o);
    drain(o);
    stop_writer(o);
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

const char *outfile_tmppath(const struct outfile *o)
{
    return o->committed || o->is_stdout ? NULL : o->tmp;
}
