/*
 * host:devices-l replies and device selection.
 *
 * A devices-l line is "%-22s %s" (serial, state) followed by " usb:PATH",
 * " product:X", " model:X", " device:X" and " transport_id:N", each only
 * when known (AOSP adb.cpp append_transport).  The state may contain
 * spaces ("no permissions (...); see [...]"), so the key:value fields are
 * peeled off from the end of the line and the rest after the serial is the
 * state.  Serials are taken up to the first space (the special
 * "(no serial number)" excepted); serials that contain spaces cannot be
 * told apart in this format.  The short form "serial\tstate" is accepted.
 *
 * Selection follows catapult: an explicit serial, else $ANDROID_SERIAL,
 * else the one device in state "device" (others listed alongside, e.g. an
 * unauthorized phone, do not make it ambiguous).
 */
#include "adb_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

#define MAX_DEVICES 1024
#define NO_SERIAL "(no serial number)"

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void adb_device_info_clear(struct adb_device_info *i)
{
    free(i->serial);
    free(i->state);
    free(i->devpath);
    free(i->product);
    free(i->model);
    free(i->device);
    memset(i, 0, sizeof *i);
}

static enum st_err dup_field(char **dst, const char *src)
{
    *dst = dup_n(src ? src : "", src ? strlen(src) : 0);
    return *dst ? ST_OK : ST_ENOMEM;
}

enum st_err adb_device_info_copy(struct adb_device_info *dst,
                                 const struct adb_device_info *src)
{
    memset(dst, 0, sizeof *dst);
    dst->st = src->st;
    dst->transport_id = src->transport_id;
    if (dup_field(&dst->serial, src->serial) || dup_field(&dst->state, src->state) ||
        dup_field(&dst->devpath, src->devpath) ||
        dup_field(&dst->product, src->product) || dup_field(&dst->model, src->model) ||
        dup_field(&dst->device, src->device)) {
        adb_device_info_clear(dst);
        return ST_ENOMEM;
    }
    return ST_OK;
}

void adb_device_list_free(struct adb_device_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        adb_device_info_clear(&l->v[i]);
    free(l->v);
    free(l);
}

static enum adb_state classify(const char *state)
{
    if (!strcmp(state, "device"))
        return ADB_STATE_DEVICE;
    if (!strcmp(state, "offline"))
        return ADB_STATE_OFFLINE;
    if (!strcmp(state, "unauthorized"))
        return ADB_STATE_UNAUTHORIZED;
    if (!strncmp(state, "no permissions", 14))
        return ADB_STATE_NOPERM;
    return ADB_STATE_OTHER;
}

static const char *const keys[] = {"usb:", "product:", "model:", "device:",
                                   "transport_id:"};

/* Index into keys[] of the field token t (length n), or -1. */
static int field_key(const char *t, size_t n)
{
    for (int k = 0; k < 5; k++) {
        size_t kl = strlen(keys[k]);
        if (n > kl && !strncmp(t, keys[k], kl))
            return k;
    }
    return -1;
}

static enum st_err parse_tid(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19)
        return ST_EFORMAT;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return ST_EFORMAT;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return ST_OK;
}

/* Peel "key:value" tokens off the end of [s, *end); *end moves left. */
static enum st_err parse_fields(struct adb_device_info *d, const char *s,
                                const char **end)
{
    char **slot[5] = {&d->devpath, &d->product, &d->model, &d->device, NULL};
    const char *e = *end;
    for (;;) {
        while (e > s && e[-1] == ' ')
            e--;
        const char *t = e;
        while (t > s && t[-1] != ' ')
            t--;
        int k = t > s ? field_key(t, (size_t)(e - t)) : -1;
        if (k < 0)
            break;
        size_t kl = strlen(keys[k]);
        if (k == 4) {
            if (parse_tid(t + kl, (size_t)(e - t) - kl, &d->transport_id))
                return ST_EFORMAT;
        } else if (!*slot[k]) {
            /* the devpath keeps its "usb:" prefix, as adb -s accepts it */
            size_t skip = k == 0 ? 0 : kl;
            *slot[k] = dup_n(t + skip, (size_t)(e - t) - skip);
            if (!*slot[k])
                return ST_ENOMEM;
        }
        e = t;
    }
    *end = e;
    return ST_OK;
}

static enum st_err fill_missing(struct adb_device_info *d)
{
    char **f[] = {&d->devpath, &d->product, &d->model, &d->device};
    for (size_t i = 0; i < 4; i++)
        if (!*f[i] && dup_field(f[i], ""))
            return ST_ENOMEM;
    return ST_OK;
}

static enum st_err parse_line(const char *s, size_t n, struct adb_device_info *d)
{
    const char *end = s + n;
    const char *tab = memchr(s, '\t', n);
    const char *sp;
    if (tab) {
        d->serial = dup_n(s, (size_t)(tab - s));
        sp = tab + 1;
    } else {
        size_t k = strlen(NO_SERIAL);
        if (n >= k && !memcmp(s, NO_SERIAL, k))
            sp = s + k;
        else
            for (sp = s; sp < end && *sp != ' '; sp++)
                ;
        d->serial = dup_n(s, (size_t)(sp - s));
        enum st_err e = d->serial ? parse_fields(d, sp, &end) : ST_ENOMEM;
        if (e)
            return e;
    }
    if (!d->serial)
        return ST_ENOMEM;
    while (sp < end && (*sp == ' ' || *sp == '\t'))
        sp++;
    while (end > sp && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (d->serial[0] == '\0' || sp == end)
        return ST_EFORMAT;
    d->state = dup_n(sp, (size_t)(end - sp));
    if (!d->state)
        return ST_ENOMEM;
    d->st = classify(d->state);
    return fill_missing(d);
}

static enum st_err list_add(struct adb_device_list *l, const char *s, size_t n)
{
    if (l->n >= MAX_DEVICES)
        return ST_ETOOBIG;
    struct adb_device_info *v = realloc(l->v, (l->n + 1) * sizeof *v);
    if (!v)
        return ST_ENOMEM;
    l->v = v;
    memset(&v[l->n], 0, sizeof v[l->n]);
    enum st_err e = parse_line(s, n, &v[l->n]);
    if (e) {
        adb_device_info_clear(&v[l->n]);
        return e;
    }
    l->n++;
    return ST_OK;
}

enum st_err adb_devices_parse(const char *text, size_t len,
                              struct adb_device_list **out)
{
    *out = NULL;
    struct adb_device_list *l = calloc(1, sizeof *l);
    if (!l)
        return ST_ENOMEM;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t n = (size_t)(le - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (memchr(p, '\0', n)) {
            adb_device_list_free(l);
            return ST_EFORMAT;
        }
        size_t blank = 0;
        while (blank < n && p[blank] == ' ')
            blank++;
        enum st_err e = blank == n ? ST_OK : list_add(l, p, n);
        if (e) {
            adb_device_list_free(l);
            return e;
        }
        p = nl ? nl + 1 : end;
    }
    *out = l;
    return ST_OK;
}
