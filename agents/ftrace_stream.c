/* trace_pipe to spool file, in a thread; see ftrace_stream.h. */
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

#include "debug.h"

#define BUF_SIZE (1u << 20)
#define PAUSE_MS 50
#define BUSY_BYTES (64u << 10)
#define READER_NICE (-10)

struct fstream {
    int pipe_fd, spool_fd;
    int ctl[2];                 /* main -> thread: 'd' drain, 'a' abort */
    pthread_t th;
    int running;
    char *buf;
    size_t len;
    _Atomic uint64_t bytes;
    size_t cycle;               /* bytes the last read_available got */
    double max_flush_ms, max_cycle_ms;  /* for SYSTRACE_DEBUG=ftrace */
    int werr;                   /* errno of a failed spool write */
    char err[256];
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int flush_buf(struct fstream *s)
{
    double t0 = now_ms();
    size_t off = 0;
    while (off < s->len && !s->werr) {
        ssize_t w = write(s->spool_fd, s->buf + off, s->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            s->werr = w < 0 ? errno : EIO;
        else
            off += (size_t)w;
    }
    s->len = 0;
    double dt = now_ms() - t0;
    if (dt > s->max_flush_ms)
        s->max_flush_ms = dt;
    return s->werr ? -1 : 0;
}

/* Read what the pipe has now; 0 when it is empty, -1 on a failure. */
static int read_available(struct fstream *s)
{
    s->cycle = 0;
    for (;;) {
        if (BUF_SIZE - s->len < 64 * 1024 && flush_buf(s))
            return -1;
        ssize_t r = read(s->pipe_fd, s->buf + s->len, BUF_SIZE - s->len);
        if (r > 0) {
            s->len += (size_t)r;
            s->cycle += (size_t)r;
            atomic_fetch_add(&s->bytes, (uint64_t)r);
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno != EAGAIN) {
            s->werr = errno;
            return -1;
        }
        return 0;   /* empty for now (EAGAIN) */
    }
}

/* Wait for data (watch_pipe) or a command; 1 when told to stop. */
static int wait_for(struct fstream *s, int watch_pipe, int ms)
{
    struct pollfd p[2] = {{s->ctl[0], POLLIN, 0}, {s->pipe_fd, POLLIN, 0}};
    if (poll(p, watch_pipe ? 2 : 1, ms) < 0 && errno != EINTR)
        return 1;
    if (!p[0].revents)
        return 0;
    char cmd = 'a';
    if (read(s->ctl[0], &cmd, 1) != 1)
        cmd = 'a';
    if (cmd == 'd')
        read_available(s);
    return 1;
}

static void *run(void *arg)
{
    struct fstream *s = arg;
    /* ahead of the load being traced when CPUs are busy (we are root) */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), READER_NICE))
        ST_DBG(DBG_FTRACE, "reader priority unchanged: %s", strerror(errno));
    while (!wait_for(s, 1, -1)) {
        double t0 = now_ms();
        if (read_available(s))
            break;
        if (s->len >= BUF_SIZE / 2 && flush_buf(s))
            break;
        if (now_ms() - t0 > s->max_cycle_ms)
            s->max_cycle_ms = now_ms() - t0;
        /* Waking on every event would make the reader's own wakeups and
         * context switches most of a quiet trace, so pause after a small
         * read; after a big one the kernel is busy: read on at once. */
        if (s->cycle < BUSY_BYTES && wait_for(s, 0, PAUSE_MS))
            break;
    }
    flush_buf(s);
    close(s->pipe_fd);
    s->pipe_fd = -1;
    ST_DBG(DBG_FTRACE, "stream reader: longest read %.1f ms, longest spool write %.1f ms",
           s->max_cycle_ms, s->max_flush_ms);
    return NULL;
}

static void close_all(struct fstream *s)
{
    if (s->pipe_fd >= 0)
        close(s->pipe_fd);
    if (s->spool_fd >= 0)
        close(s->spool_fd);
    for (int i = 0; i < 2; i++)
        if (s->ctl[i] >= 0)
            close(s->ctl[i]);
    s->pipe_fd = s->spool_fd = s->ctl[0] = s->ctl[1] = -1;
}

enum st_err fstream_start(const char *pipe_path, const char *spool_path, struct fstream **out,
                          char *err, size_t errlen)
{
    *out = NULL;
    struct fstream *s = calloc(1, sizeof(*s));
    if (!s || !(s->buf = malloc(BUF_SIZE))) {
        free(s);
        return ST_ENOMEM;
    }
    s->ctl[0] = s->ctl[1] = -1;
    s->pipe_fd = open(pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    const char *what = pipe_path;
    int e = s->pipe_fd < 0 ? errno : 0;
    if (!e) {
        what = spool_path;
        s->spool_fd = open(spool_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        e = s->spool_fd < 0 ? errno : 0;
    } else {
        s->spool_fd = -1;
    }
    if (!e && pipe2(s->ctl, O_CLOEXEC))
        e = errno;
    sigset_t all, old;
    sigfillset(&all);
    if (!e) {
        pthread_sigmask(SIG_SETMASK, &all, &old);
        e = pthread_create(&s->th, NULL, run, s);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        what = "reader thread";
    }
    if (e) {
        snprintf(err, errlen, "%s: %s", what, strerror(e));
        close_all(s);
        free(s->buf);
        free(s);
        return ST_EIO;
    }
    s->running = 1;
    ST_DBG(DBG_FTRACE, "streaming %s to %s", pipe_path, spool_path);
    *out = s;
    return ST_OK;
}

static void finish(struct fstream *s, char cmd)
{
    if (!s->running)
        return;
    if (write(s->ctl[1], &cmd, 1) != 1) {
        /* the pipe cannot be full; nothing else to do */
    }
    pthread_join(s->th, NULL);
    s->running = 0;
    close_all(s);
}

enum st_err fstream_stop(struct fstream *s)
{
    finish(s, 'd');
    if (s->werr) {
        snprintf(s->err, sizeof(s->err), "%s", strerror(s->werr));
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
    fstream_abort(s);
    close_all(s);
    free(s->buf);
    free(s);
}
