/*
 * Pull a device file to a host path: the bytes go to a temp file created
 * beside the destination (mkstemp), which is renamed into place only when
 * the transfer completed; on any failure it is removed and the
 * destination is left as it was.  The file gets mode 0644.
 */
#include "adb_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

struct file_sink {
    int fd;
    int err_no;
    const struct adb_sink *progress;
};

static enum st_err write_all(void *ctx, const void *p, size_t n)
{
    struct file_sink *f = ctx;
    const char *b = p;
    while (n) {
        ssize_t w = write(f->fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            f->err_no = errno;
            return ST_EIO;
        }
        b += w;
        n -= (size_t)w;
    }
    return ST_OK;
}

static void forward_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct file_sink *f = ctx;
    if (f->progress && f->progress->progress)
        f->progress->progress(f->progress->ctx, done, total);
}

enum st_err adb_sync_pull_file(struct adb_sync *s, const char *path,
                               const char *local, const struct adb_sink *progress)
{
    struct dynbuf tmp;
    dynbuf_init(&tmp, 4096);
    if (dynbuf_printf(&tmp, "%s.XXXXXX", local)) {
        adb_seterr(s->err, sizeof s->err, "host path too long: %s", local);
        return ST_EINVAL;
    }
    struct file_sink f = {.fd = plat_mkstemp(tmp.data), .progress = progress};
    if (f.fd < 0) {
        adb_seterr(s->err, sizeof s->err, "cannot create %s: %s", tmp.data,
                   strerror(errno));
        dynbuf_free(&tmp);
        return ST_EIO;
    }
    struct adb_sink sink = {.out = write_all, .progress = forward_progress, .ctx = &f};
    enum st_err e = adb_sync_pull(s, path, &sink);
    if (f.err_no)
        adb_seterr(s->err, sizeof s->err, "write %s: %s", tmp.data, strerror(f.err_no));
    if (plat_fchmod(f.fd, 0644) < 0 && !e) {
        adb_seterr(s->err, sizeof s->err, "chmod %s: %s", tmp.data, strerror(errno));
        e = ST_EIO;
    }
    if (close(f.fd) < 0 && !e) {
        adb_seterr(s->err, sizeof s->err, "write %s: %s", tmp.data, strerror(errno));
        e = ST_EIO;
    }
    if (!e && plat_rename(tmp.data, local) < 0) {
        adb_seterr(s->err, sizeof s->err, "rename to %s: %s", local, strerror(errno));
        e = ST_EIO;
    }
    if (e)
        plat_unlink(tmp.data);
    dynbuf_free(&tmp);
    return e;
}
