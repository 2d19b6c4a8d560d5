/*
 * The transport-independent face of devices and streams: accessors, the
 * public stream calls (which add the per-step deadline), feature lists.
 * Transports provide struct adb_device_ops / adb_stream_ops (adb_int.h).
 */
#include "adb_int.h"

#include <stdlib.h>
#include <string.h>

void adb_device_free(struct adb_device *d)
{
    if (d)
        d->ops->free(d);
}

const struct adb_device_info *adb_device_info(const struct adb_device *d)
{
    return &d->info;
}

int adb_device_has_feature(const struct adb_device *d, const char *feature)
{
    return adb_feature_in(d->features, feature);
}

const char *adb_device_features(const struct adb_device *d)
{
    return d->features;
}

enum st_err adb_device_wait(struct adb_device *d, int timeout_ms)
{
    if (!d->ops->wait)
        return ST_OK;
    int ms = timeout_ms > 0 ? timeout_ms : d->io.timeout_ms;
    return d->ops->wait(d, ms > 0 ? adb_now_ms() + ms : -1);
}

void adb_device_set_timeout(struct adb_device *d, int timeout_ms)
{
    d->io.timeout_ms = timeout_ms;
}

void adb_device_set_cancel_fd(struct adb_device *d, int fd)
{
    d->io.cancel_fd = fd;
}

const char *adb_device_error(const struct adb_device *d)
{
    return d->err;
}

enum st_err adb_stream_open(struct adb_device *d, const char *service,
                            struct adb_stream **out)
{
    *out = NULL;
    if (!service || !*service) {
        adb_seterr(d->err, sizeof d->err, "empty service name");
        return ST_EINVAL;
    }
    return d->ops->open(d, service, out);
}

enum st_err adb_stream_read(struct adb_stream *s, void *p, size_t n, size_t *got)
{
    return s->ops->read(s, p, n, got, adb_deadline(&s->io));
}

enum st_err adb_stream_read_full(struct adb_stream *s, void *p, size_t n)
{
    int64_t deadline = adb_deadline(&s->io);
    size_t done = 0;
    while (done < n) {
        size_t got = 0;
        enum st_err e = s->ops->read(s, (char *)p + done, n - done, &got, deadline);
        if (e)
            return e;
        if (!got) {
            adb_seterr(s->err, sizeof s->err,
                       "service closed after %zu of %zu expected bytes", done, n);
            return ST_ECLOSED;
        }
        done += got;
    }
    return ST_OK;
}

enum st_err adb_stream_write(struct adb_stream *s, const void *p, size_t n)
{
    return s->ops->write(s, p, n, adb_deadline(&s->io));
}

void adb_stream_free(struct adb_stream *s)
{
    if (s)
        s->ops->close(s);
}

const char *adb_stream_error(const struct adb_stream *s)
{
    return s->err;
}

int adb_feature_in(const char *list, const char *name)
{
    size_t n = strlen(name);
    if (!list || !n)
        return 0;
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",\n");
        if (k == n && !memcmp(p, name, n))
            return 1;
        p += k;
        if (*p)
            p++;
    }
    return 0;
}

/* Append name to a comma list unless it is there. */
static enum st_err list_add(struct dynbuf *out, const char *name)
{
    if (adb_feature_in(dynbuf_str(out), name))
        return ST_OK;
    enum st_err e = out->len ? dynbuf_addc(out, ',') : ST_OK;
    return e ? e : dynbuf_addstr(out, name);
}

char *adb_feature_intersect(const char *a, const char *b)
{
    struct dynbuf out;
    dynbuf_init(&out, strlen(a) + 1);
    for (const char *p = a; *p;) {
        size_t k = strcspn(p, ",\n");
        char name[128];
        if (k && k < sizeof name) {
            memcpy(name, p, k);
            name[k] = '\0';
            if (adb_feature_in(b, name) && list_add(&out, name)) {
                dynbuf_free(&out);
                return NULL;
            }
        }
        p += k;
        if (*p)
            p++;
    }
    return dynbuf_take(&out, NULL);
}
