/*
 * A fake struct adb_device for unit tests: every service it opens is a
 * stream that returns the scripted reply bytes `chunk` at a time (then
 * EOF) and records what the client wrote and which service it opened.
 * Lets shell and sync code run over any read split without a server.
 */
#ifndef TEST_ADB_FAKE_H
#define TEST_ADB_FAKE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb_int.h"

struct fake_dev {
    struct adb_device base;
    const uint8_t *reply;
    size_t len, chunk;
    enum st_err open_result;    /* returned by open when set */
    struct dynbuf written;      /* everything written on all streams */
    char service[1024];         /* last service opened */
    int opens, closes;
};

struct fake_stream {
    struct adb_stream base;
    struct fake_dev *dev;
    size_t pos;
};

static inline enum st_err fake_read(struct adb_stream *s, void *p, size_t n,
                                    size_t *got, int64_t deadline)
{
    struct fake_stream *f = (struct fake_stream *)s;
    (void)deadline;
    size_t k = f->dev->len - f->pos;
    if (k > n)
        k = n;
    if (k > f->dev->chunk)
        k = f->dev->chunk;
    memcpy(p, f->dev->reply + f->pos, k);
    f->pos += k;
    *got = k;
    return ST_OK;
}

static inline enum st_err fake_write(struct adb_stream *s, const void *p, size_t n,
                                     int64_t deadline)
{
    struct fake_stream *f = (struct fake_stream *)s;
    (void)deadline;
    return dynbuf_add(&f->dev->written, p, n);
}

static inline void fake_close(struct adb_stream *s)
{
    struct fake_stream *f = (struct fake_stream *)s;
    f->dev->closes++;
    free(f);
}

static const struct adb_stream_ops fake_stream_ops = {fake_read, fake_write,
                                                      fake_close};

static inline enum st_err fake_open(struct adb_device *d, const char *service,
                                    struct adb_stream **out)
{
    struct fake_dev *fd = (struct fake_dev *)d;
    snprintf(fd->service, sizeof fd->service, "%s", service);
    fd->opens++;
    if (fd->open_result) {
        adb_seterr(d->err, sizeof d->err, "refused");
        return fd->open_result;
    }
    struct fake_stream *f = calloc(1, sizeof *f);
    if (!f)
        return ST_ENOMEM;
    f->base.ops = &fake_stream_ops;
    f->base.io = d->io;
    f->dev = fd;
    *out = &f->base;
    return ST_OK;
}

static inline void fake_free(struct adb_device *d)
{
    (void)d;    /* lives on the test's stack */
}

static const struct adb_device_ops fake_dev_ops = {fake_open, fake_free, NULL};

static inline void fake_dev_init(struct fake_dev *fd, const char *features,
                                 const void *reply, size_t len, size_t chunk)
{
    memset(fd, 0, sizeof *fd);
    fd->base.ops = &fake_dev_ops;
    fd->base.io.timeout_ms = 0;
    fd->base.io.cancel_fd = -1;
    fd->base.features = (char *)features;
    fd->base.info.serial = (char *)"FAKE";
    fd->reply = reply;
    fd->len = len;
    fd->chunk = chunk;
    dynbuf_init(&fd->written, 1 << 20);
}

static inline void fake_dev_done(struct fake_dev *fd)
{
    dynbuf_free(&fd->written);
}

#endif
