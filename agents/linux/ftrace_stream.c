/* Per-CPU trace_pipe readers writing spool files; see ftrace_stream.h. */
#include "ftrace_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/debug.h"

#define BUF_MAX (1u << 20)
#define BUF_MIN (64u << 10)
#define BUF_TOTAL (8u << 20)
#define PAUSE_MS 50
#define BUSY_BYTES (64u << 10)
#define READER_NICE (-10)

struct fstream;

/* A reader fills one buffer while the spool writer writes the other, so
 * the page-cache copy of the spool (a sixth of the reader's time under a
 * ping-pong load) is off the thread that must keep up with the kernel. */
struct reader {
    struct fstream *s;
    size_t idx;
    int pipe_fd, spool_fd;
    pthread_t th;
    int started;
    char *bufs[2];
    char *buf;                  /* bufs[cur]: the one being filled */
    int cur;
    size_t cap, len;
    size_t cycle;               /* bytes the last read_available got */
    double max_flush_ms, max_cycle_ms;  /* for SYSTRACE_DEBUG=ftrace */
    /* under s->mu: the other buffer is queued or being written */
    int inflight;
    const char *qbuf;
    size_t qlen;
    _Atomic int werr;           /* errno of a failed spool write or read */
};

struct fstream {
    struct reader *r;
    size_t n;
    int ctl[2];                 /* readable once told to stop; never drained */
    _Atomic int cmd;            /* 'd' drain, 'a' abort */
    _Atomic uint64_t bytes;
    int running;
    /* the spool writer: a queue of readers with a full buffer */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    struct reader **q;
    size_t qhead, qcount;
    int wstop, wstarted;
    pthread_t writer;
    char err[256];
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void write_all(struct reader *r, const char *p, size_t n)
{
    size_t off = 0;
    while (off < n && !atomic_load(&r->werr)) {
        ssize_t w = write(r->spool_fd, p + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            atomic_store(&r->werr, w < 0 ? errno : EIO);
        else
            off += (size_t)w;
    }
}

static void *spool_writer(void *arg)
{
    struct fstream *s = arg;
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), READER_NICE))
        ST_DBG(DBG_FTRACE, "spool writer priority unchanged: %s", strerror(errno));
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->qcount && !s->wstop)
            pthread_cond_wait(&s->work, &s->mu);
        if (!s->qcount)
            break;
        struct reader *r = s->q[s->qhead];
        s->qhead = (s->qhead + 1) % s->n;
        s->qcount--;
        pthread_mutex_unlock(&s->mu);
        write_all(r, r->qbuf, r->qlen);
        pthread_mutex_lock(&s->mu);
        r->inflight = 0;
        pthread_cond_broadcast(&s->done);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Wait until r's other buffer is written. */
static void wait_written(struct reader *r)
{
    pthread_mutex_lock(&r->s->mu);
    while (r->inflight)
        pthread_cond_wait(&r->s->done, &r->s->mu);
    pthread_mutex_unlock(&r->s->mu);
}

/* Queue the filled buffer for the spool writer and go on with the other
 * one (once the writer is done with it: that wait is the backpressure). */
static int flush_buf(struct reader *r)
{
    double t0 = now_ms();
    if (r->len) {
        struct fstream *s = r->s;
        wait_written(r);
        pthread_mutex_lock(&s->mu);
        r->inflight = 1;
        r->qbuf = r->buf;
        r->qlen = r->len;
        r->cur = !r->cur;
        s->q[(s->qhead + s->qcount++) % s->n] = r;
        pthread_cond_signal(&s->work);
        pthread_mutex_unlock(&s->mu);
        r->buf = r->bufs[r->cur];
        r->len = 0;
    }
    double dt = now_ms() - t0;
    if (dt > r->max_flush_ms)
        r->max_flush_ms = dt;
    return atomic_load(&r->werr) ? -1 : 0;
}

/* Read what the pipe has now; 0 when it is empty, -1 on a failure. */
static int read_available(struct reader *r)
{
    r->cycle = 0;
    for (;;) {
        if (r->cap - r->len < r->cap / 4 && flush_buf(r))
            return -1;
        ssize_t k = read(r->pipe_fd, r->buf + r->len, r->cap - r->len);
        if (k > 0) {
            r->len += (size_t)k;
            r->cycle += (size_t)k;
            atomic_fetch_add(&r->s->bytes, (uint64_t)k);
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno != EAGAIN) {
            atomic_store(&r->werr, errno);
            return -1;
        }
        return 0;   /* empty for now (EAGAIN), or EOF */
    }
}

/* Wait for data (watch_pipe) or the stop; 1 when told to stop. */
static int wait_for(struct reader *r, int watch_pipe, int ms)
{
    struct pollfd p[2] = {{r->s->ctl[0], POLLIN, 0}, {r->pipe_fd, POLLIN, 0}};
    if (poll(p, watch_pipe ? 2 : 1, ms) < 0 && errno != EINTR)
        return 1;
    if (!p[0].revents)
        return 0;
    if (atomic_load(&r->s->cmd) == 'd')
        read_available(r);
    return 1;
}

static void *run(void *arg)
{
    struct reader *r = arg;
    /* ahead of the load being traced when CPUs are busy (we are root) */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), READER_NICE))
        ST_DBG(DBG_FTRACE, "reader priority unchanged: %s", strerror(errno));
    while (!wait_for(r, 1, -1)) {
        double t0 = now_ms();
        if (read_available(r))
            break;
        if (r->len >= r->cap / 2 && flush_buf(r))
            break;
        if (now_ms() - t0 > r->max_cycle_ms)
            r->max_cycle_ms = now_ms() - t0;
        /* Waking on every event would make the reader's own wakeups and
         * context switches most of a quiet trace, so pause after a small
         * read; after a big one the kernel is busy: read on at once. */
        if (r->cycle < BUSY_BYTES && wait_for(r, 0, PAUSE_MS))
            break;
    }
    flush_buf(r);
    wait_written(r);
    close(r->pipe_fd);
    r->pipe_fd = -1;
    ST_DBG(DBG_FTRACE, "stream reader %zu: longest read %.1f ms, longest wait for the spool "
           "writer %.1f ms",
           r->idx, r->max_cycle_ms, r->max_flush_ms);
    return NULL;
}

static void close_reader(struct reader *r)
{
    if (r->pipe_fd >= 0)
        close(r->pipe_fd);
    if (r->spool_fd >= 0)
        close(r->spool_fd);
    r->pipe_fd = r->spool_fd = -1;
    for (int i = 0; i < 2; i++) {
        free(r->bufs[i]);
        r->bufs[i] = NULL;
    }
    r->buf = NULL;
}

/* Stop every started thread ('d' or 'a') and release everything. */
static void finish(struct fstream *s, char cmd)
{
    if (s->running) {
        atomic_store(&s->cmd, cmd);
        if (write(s->ctl[1], &cmd, 1) != 1) {
            /* a fresh pipe always takes one byte */
        }
        for (size_t i = 0; i < s->n; i++)
            if (s->r[i].started)
                pthread_join(s->r[i].th, NULL);
        s->running = 0;
    }
    if (s->wstarted) {      /* the readers have handed over their last bytes */
        pthread_mutex_lock(&s->mu);
        s->wstop = 1;
        pthread_cond_signal(&s->work);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->writer, NULL);
        s->wstarted = 0;
    }
    for (size_t i = 0; i < s->n; i++)
        close_reader(&s->r[i]);
    for (int i = 0; i < 2; i++)
        if (s->ctl[i] >= 0)
            close(s->ctl[i]);
    s->ctl[0] = s->ctl[1] = -1;
}

static int open_reader(struct fstream *s, size_t i, const char *pipe, const char *spool,
                       size_t cap, const char **what)
{
    struct reader *r = &s->r[i];
    r->s = s;
    r->idx = i;
    r->cap = cap;
    r->pipe_fd = r->spool_fd = -1;
    if (!(r->bufs[0] = malloc(cap)) || !(r->bufs[1] = malloc(cap)))
        return ENOMEM;
    r->buf = r->bufs[0];
    *what = pipe;
    if ((r->pipe_fd = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
        return errno;
    *what = spool;
    if ((r->spool_fd = open(spool, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        return errno;
    return 0;
}

enum st_err fstream_start(char *const *pipes, char *const *spools, size_t n,
                          struct fstream **out, char *err, size_t errlen)
{
    *out = NULL;
    struct fstream *s = calloc(1, sizeof(*s));
    if (!s || !(s->r = calloc(n ? n : 1, sizeof(*s->r))) ||
        !(s->q = calloc(n ? n : 1, sizeof(*s->q)))) {
        if (s)
            free(s->r);
        free(s);
        return ST_ENOMEM;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->done, NULL);
    s->n = n;
    s->ctl[0] = s->ctl[1] = -1;
    size_t cap = n ? BUF_TOTAL / 2 / n : BUF_MAX;
    cap = cap > BUF_MAX ? BUF_MAX : cap < BUF_MIN ? BUF_MIN : cap;
    const char *what = "control pipe";
    int e = pipe2(s->ctl, O_CLOEXEC) ? errno : 0;
    for (size_t i = 0; i < n && !e; i++)
        e = open_reader(s, i, pipes[i], spools[i], cap, &what);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    s->running = 1;
    if (!e) {
        what = "spool writer thread";
        e = pthread_create(&s->writer, NULL, spool_writer, s);
        s->wstarted = !e;
    }
    for (size_t i = 0; i < n && !e; i++) {
        what = "reader thread";
        e = pthread_create(&s->r[i].th, NULL, run, &s->r[i]);
        s->r[i].started = !e;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e) {
        snprintf(err, errlen, "%s: %s", what, strerror(e));
        fstream_free(s);
        return ST_EIO;
    }
    ST_DBG(DBG_FTRACE, "streaming %zu per-CPU pipes (%zu KB buffers)", n, cap >> 10);
    *out = s;
    return ST_OK;
}

enum st_err fstream_stop(struct fstream *s)
{
    finish(s, 'd');
    for (size_t i = 0; i < s->n; i++)
        if (atomic_load(&s->r[i].werr)) {
            snprintf(s->err, sizeof(s->err), "%s", strerror(atomic_load(&s->r[i].werr)));
            return ST_EIO;
        }
    return ST_OK;
}

void fstream_abort(struct fstream *s)
{
    if (s)
        finish(s, 'a');
}

uint64_t fstream_bytes(const struct fstream *s)
{
    return atomic_load(&((struct fstream *)s)->bytes);
}

const char *fstream_error(const struct fstream *s)
{
    return s->err;
}

void fstream_free(struct fstream *s)
{
    if (!s)
        return;
    finish(s, 'a');
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->done);
    free(s->q);
    free(s->r);
    free(s);
}
