/*
 * Runs a method-trace source (a file, or bytes in memory) through a fresh
 * decoder in fixed-size pieces, so reading never holds more than one
 * buffer of the input.  Errors come back as one line in err.
 */
#include "mtrace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

#define MT_READ_CHUNK (256u << 10)

static enum st_err run_fd(struct mt_reader *r, int fd, int *ioerr,
                          char *err, size_t errlen)
{
    unsigned char *buf = malloc(MT_READ_CHUNK);
    if (!buf)
        return ST_ENOMEM;
    enum st_err e = ST_OK;
    for (;;) {
        ssize_t got = read(fd, buf, MT_READ_CHUNK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            mt_err(err, errlen, "read error: %s", strerror(errno));
            *ioerr = 1;
            e = ST_EIO;
            break;
        }
        if (got == 0)
            break;
        e = mt_reader_feed(r, buf, (size_t)got);
        if (e != ST_OK)
            break;
    }
    free(buf);
    return e;
}

static enum st_err run_mem(struct mt_reader *r, const struct mtrace_src *src)
{
    const unsigned char *p = src->data;
    size_t left = src->len, step = src->chunk ? src->chunk : src->len;
    while (left > 0) {
        size_t n = left < step ? left : step;
        enum st_err e = mt_reader_feed(r, p, n);
        if (e != ST_OK)
            return e;
        p += n;
        left -= n;
    }
    return ST_OK;
}

enum st_err mt_run(const struct mtrace_src *src, struct mt_tables *t,
                   const struct mt_sink *s, int replay,
                   struct mtrace_info *info, char *err, size_t errlen)
{
    struct mt_reader *r = mt_reader_new(t, s, replay, info);
    if (!r) {
        mt_err(err, errlen, "%s", st_strerror(ST_ENOMEM));
        return ST_ENOMEM;
    }
    enum st_err e;
    if (src->path) {
        int fd = plat_open(src->path, O_RDONLY, 0);
        if (fd < 0) {
            mt_err(err, errlen, "cannot open: %s", strerror(errno));
            mt_reader_free(r);
            return errno == ENOENT ? ST_ENOENT : ST_EIO;
        }
        int ioerr = 0;
        e = run_fd(r, fd, &ioerr, err, errlen);
        close(fd);
        if (ioerr) {
            mt_reader_free(r);
            return e;
        }
    } else {
        e = run_mem(r, src);
    }
    if (e == ST_OK)
        e = mt_reader_finish(r);
    if (e != ST_OK)
        mt_err(err, errlen, "%s", mt_reader_error(r)[0]
               ? mt_reader_error(r) : st_strerror(e));
    mt_reader_free(r);
    return e;
}
