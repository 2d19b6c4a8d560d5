/*
 * struct adb_conn over memory, for unit tests and fuzz targets: reads hand
 * out the given bytes at most `chunk` at a time (chunk 1 exercises every
 * split-read path), then EOF; writes are collected for inspection.  It
 * never blocks, so deadlines and the cancel fd do not apply.
 */
#include "adb_int.h"

#include <stdlib.h>
#include <string.h>

struct conn_mem {
    struct adb_conn base;
    const unsigned char *data;
    size_t len, pos, chunk;
    struct dynbuf written;
};

static enum st_err mem_read(struct adb_conn *c, void *p, size_t n, size_t *got,
                            int64_t deadline)
{
    struct conn_mem *m = (struct conn_mem *)c;
    (void)deadline;
    size_t k = m->len - m->pos;
    if (k > n)
        k = n;
    if (k > m->chunk)
        k = m->chunk;
    if (k)
        memcpy(p, m->data + m->pos, k);
    m->pos += k;
    *got = k;
    return ST_OK;
}

static enum st_err mem_write(struct adb_conn *c, const void *p, size_t n,
                             int64_t deadline)
{
    struct conn_mem *m = (struct conn_mem *)c;
    (void)deadline;
    enum st_err e = dynbuf_add(&m->written, p, n);
    if (e)
        adb_seterr(c->err, sizeof c->err, "write buffer full");
    return e;
}

static void mem_close(struct adb_conn *c)
{
    struct conn_mem *m = (struct conn_mem *)c;
    dynbuf_free(&m->written);
    free(m);
}

static const struct adb_conn_ops mem_ops = {mem_read, mem_write, mem_close};

struct adb_conn *adb_conn_mem_new(const void *data, size_t len, size_t chunk)
{
    struct conn_mem *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &mem_ops;
    m->base.io.timeout_ms = 0;
    m->base.io.cancel_fd = -1;
    m->data = data;
    m->len = len;
    m->chunk = chunk ? chunk : 1;
    dynbuf_init(&m->written, 1u << 24);
    return &m->base;
}

const struct dynbuf *adb_conn_mem_written(const struct adb_conn *c)
{
    return &((const struct conn_mem *)c)->written;
}
