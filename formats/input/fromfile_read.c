/*
 * Reading the input of `--from-file`: a file, a pipe or FIFO (`<(...)`),
 * or standard input for "-" (refused when it is a terminal, which would
 * wait for typing).  Text, HTML and JSON inputs stream through in chunks
 * of READ_CHUNK bytes.  Method traces go to their own reader, which reads
 * a file by path twice (the first pass finds frames already open); from
 * a pipe, the trace is first copied to a temporary file that is gone when
 * it is done (plat_tmpfile_open: on Linux unlinked at once and read as
 * /proc/self/fd/N, so no exit path can leave it behind).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

#include "formats/mtrace/mtrace.h"
#include "fromfile_int.h"

#define READ_CHUNK (1024 * 1024)
#define HEAD 64                 /* enough for mtrace_detect */

static enum st_err say(struct ff *f, enum st_err e, const char *msg, int err)
{
    if (err)
        snprintf(f->res->detail, sizeof(f->res->detail), "%s: %s", msg, strerror(err));
    else
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", msg);
    return e;
}

static enum st_err open_input(struct ff *f, const char *path, int *fd)
{
    if (!strcmp(path, "-")) {
        *fd = STDIN_FILENO;
        if (plat_isatty(*fd))
            return say(f, ST_EINVAL, "standard input is a terminal: pipe or redirect a "
                                     "trace into it (systrace --from-file - < FILE)", 0);
        return ST_OK;
    }
    *fd = plat_open(path, O_RDONLY, 0);
    int err = errno;
    if (*fd >= 0)
        return ST_OK;
    say(f, ST_EIO, err == ENOENT ? "no such file" : strerror(err), 0);
    return err == ENOENT ? ST_ENOENT : err == EACCES ? ST_EPERM : ST_EIO;
}

/* read() that retries on EINTR and fills up to n unless the input ends. */
static ssize_t read_full(int fd, unsigned char *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return got ? (ssize_t)got : -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static enum st_err read_error(struct ff *f, int err)
{
    if (err == EISDIR)
        return say(f, ST_EINVAL, "is a directory", 0);
    return say(f, ST_EIO, "read failed", err);
}

struct mtrace_parts {
    struct tracewriter *w;
    int open;
};

static int mtrace_out(void *ctx, const void *p, size_t n)
{
    struct mtrace_parts *m = ctx;
    return tw_write(m->w, p, n) != ST_OK;
}

/* The converter's pieces become parts: a process dump, then the text. */
static int mtrace_part(void *ctx, const char *name)
{
    struct mtrace_parts *m = ctx;
    enum st_err e = m->open ? tw_end(m->w) : ST_OK;
    m->open = !e;
    return (e ? e : tw_begin(m->w, name)) != ST_OK;
}

/* Method calls become atrace text (B/E lines on each thread) that the
 * classic viewer and Perfetto both read, after a process dump naming the
 * process. */
static enum st_err method_trace(struct ff *f, const char *path)
{
    struct ff_result *res = f->res;
    res->kind = FF_METHODTRACE;
    res->parts = 2;
    struct mtrace_src src = {.path = path};
    struct mtrace_info info;
    struct mtrace_parts m = {f->w, 0};
    memset(&info, 0, sizeof(info));
    enum st_err e = mtrace_to_atrace_src(&src, NULL, mtrace_part, mtrace_out, &m, &info,
                                         res->detail, sizeof(res->detail));
    if (e == ST_ETRUNCATED)
        res->truncated = 1;
    if (e && e != ST_ETRUNCATED)
        return e;
    if (!info.records)
        return say(f, ST_ENOTRACE, "no trace events found: the method trace holds no "
                                   "method calls", 0);
    enum st_err e2 = m.open ? tw_end(f->w) : ST_OK;
    return e2 ? e2 : e;
}

static enum st_err write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return ST_EIO;
        p += w;
        n -= (size_t)w;
    }
    return ST_OK;
}

/* Copy head + the rest of fd to a temporary file (*tfd), read as path. */
static enum st_err spool(struct ff *f, int fd, const unsigned char *head, size_t hn,
                         int *tfd, char *path, size_t pathlen)
{
    *tfd = plat_tmpfile_open(path, pathlen);
    if (*tfd < 0)
        return say(f, ST_EIO, "cannot copy the method trace from the pipe to a "
                              "temporary file", errno);
    unsigned char *buf = malloc(READ_CHUNK);
    enum st_err e = buf ? write_all(*tfd, head, hn) : ST_ENOMEM;
    for (ssize_t r = 1; !e && r > 0;) {
        r = read_full(fd, buf, READ_CHUNK);
        if (r < 0)
            e = read_error(f, errno);
        else if (r > 0 && write_all(*tfd, buf, (size_t)r))
            e = say(f, ST_EIO, "cannot copy the method trace from the pipe to a "
                               "temporary file", errno);
    }
    free(buf);
    return e;
}

/* A method trace from a pipe: spooled, then read by path. */
static enum st_err method_from_pipe(struct ff *f, int fd, const unsigned char *head,
                                    size_t hn)
{
    int tfd = -1;
    char path[PATH_MAX];
    enum st_err e = spool(f, fd, head, hn, &tfd, path, sizeof(path));
    if (!e)
        e = method_trace(f, path);
    if (tfd >= 0)
        plat_tmpfile_done(tfd, path);
    return e;
}

static enum st_err stream(struct ff_input *in, int fd)
{
    unsigned char *buf = malloc(READ_CHUNK);
    if (!buf)
        return ST_ENOMEM;
    enum st_err e = ST_OK;
    for (;;) {
        ssize_t r = read(fd, buf, READ_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            e = read_error(in->f, errno);
            break;
        }
        if (r == 0 || (e = in->input(in->f, buf, (size_t)r)))
            break;
    }
    free(buf);
    return e;
}

/* Files are peeked at; pipes give up their first bytes, which go first. */
static enum st_err dispatch(struct ff_input *in, const char *path, int fd)
{
    struct plat_stat st;
    unsigned char head[HEAD];
    if (plat_fstat(fd, &st) == 0 && st.kind == PLAT_FILE) {
        ssize_t n = plat_pread(fd, head, sizeof(head), 0);
        if (n > 0 && mtrace_detect(head, (size_t)n)) {
            if (in->f->text_only)
                return ff_not_text(in->f);
            in->method = 1;
            /* standard input has no path to read again: copied as from a
             * pipe, from its start (pread left the offset there) */
            return fd == STDIN_FILENO ? method_from_pipe(in->f, fd, head, 0)
                                      : method_trace(in->f, path);
        }
        return stream(in, fd);
    }
    ssize_t n = read_full(fd, head, sizeof(head));
    if (n < 0)
        return read_error(in->f, errno);
    if (n > 0 && mtrace_detect(head, (size_t)n)) {
        if (in->f->text_only)
            return ff_not_text(in->f);
        in->method = 1;
        return method_from_pipe(in->f, fd, head, (size_t)n);
    }
    enum st_err e = n > 0 ? in->input(in->f, head, (size_t)n) : ST_OK;
    return e || n < HEAD ? e : stream(in, fd);
}

enum st_err ff_read(const char *path, struct ff_input *in)
{
    int fd;
    enum st_err e = open_input(in->f, path, &fd);
    if (e)
        return e;
    e = dispatch(in, path, fd);
    if (fd != STDIN_FILENO)
        close(fd);
    return e;
}
