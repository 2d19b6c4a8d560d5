/*
 * Choosing the device to talk to, from a parsed devices-l list: explicit
 * serial (or its usb: devpath), else $ANDROID_SERIAL, else the only device
 * that is ready.  A pure function so every case is table-tested; each
 * failure has its own code and a detail message that says what is
 * connected and what the user can do.
 */
#include "adb_int.h"

#include <stdio.h>
#include <string.h>

/* "A (device), B (unauthorized)" into buf; only_ready lists ready ones. */
static void describe(const struct adb_device_list *l, int only_ready, char *buf,
                     size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < l->n && used + 1 < n; i++) {
        const struct adb_device_info *d = &l->v[i];
        if (only_ready && d->st != ADB_STATE_DEVICE)
            continue;
        int k = only_ready
            ? snprintf(buf + used, n - used, "%s%s", used ? ", " : "", d->serial)
            : snprintf(buf + used, n - used, "%s%s (%s)", used ? ", " : "",
                       d->serial, d->st == ADB_STATE_NOPERM ? "no permissions"
                                                            : d->state);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* The error for a device that is listed but not in state "device". */
static enum st_err state_error(const struct adb_device_info *d, char *err,
                               size_t errlen)
{
    switch (d->st) {
    case ADB_STATE_DEVICE:
        return ST_OK;
    case ADB_STATE_UNAUTHORIZED:
        adb_seterr(err, errlen, "device %s is unauthorized: accept the \"Allow USB "
                   "debugging?\" prompt on the device, then try again", d->serial);
        return ST_EUNAUTH;
    case ADB_STATE_OFFLINE:
        adb_seterr(err, errlen, "device %s is offline: reconnect it (or restart "
                   "adbd on it) and try again", d->serial);
        return ST_EOFFLINE;
    case ADB_STATE_NOPERM:
        adb_seterr(err, errlen, "device %s: %s", d->serial, d->state);
        return ST_EPERM;
    case ADB_STATE_OTHER:
        break;
    }
    adb_seterr(err, errlen, "device %s is in state '%s', not 'device'", d->serial,
               d->state);
    return ST_EDEVICE;
}

static int matches(const struct adb_device_info *d, const char *serial)
{
    return !strcmp(d->serial, serial) || (d->devpath[0] && !strcmp(d->devpath, serial));
}

static enum st_err select_named(const struct adb_device_list *l, const char *serial,
                                const char *origin, size_t *index, char *err,
                                size_t errlen)
{
    for (size_t i = 0; i < l->n; i++) {
        if (matches(&l->v[i], serial)) {
            *index = i;
            return state_error(&l->v[i], err, errlen);
        }
    }
    char list[ADB_ERRLEN];
    describe(l, 0, list, sizeof list);
    if (l->n)
        adb_seterr(err, errlen, "device '%s'%s not found; connected: %s", serial,
                   origin, list);
    else
        adb_seterr(err, errlen, "device '%s'%s not found; no devices are connected",
                   serial, origin);
    return ST_ENOENT;
}

enum st_err adb_select(const struct adb_device_list *l, const char *serial,
                       const char *env_serial, size_t *index,
                       char *err, size_t errlen)
{
    if (serial && *serial)
        return select_named(l, serial, "", index, err, errlen);
    if (env_serial && *env_serial)
        return select_named(l, env_serial, " (from $ANDROID_SERIAL)", index, err,
                            errlen);
    if (l->n == 0) {
        adb_seterr(err, errlen, "no devices/emulators found: connect a device with "
                   "USB debugging enabled");
        return ST_ENODEVICE;
    }
    size_t ready = 0, pick = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].st == ADB_STATE_DEVICE) {
            ready++;
            pick = i;
        }
    }
    char list[ADB_ERRLEN];
    if (ready == 1) {
        *index = pick;
        return ST_OK;
    }
    if (ready > 1) {
        describe(l, 1, list, sizeof list);
        adb_seterr(err, errlen, "more than one device: %s; choose one by serial "
                   "(or set $ANDROID_SERIAL)", list);
        return ST_EMULTIDEV;
    }
    if (l->n == 1) {
        *index = 0;
        return state_error(&l->v[0], err, errlen);
    }
    describe(l, 0, list, sizeof list);
    adb_seterr(err, errlen, "no device is ready: %s", list);
    return ST_ENODEVICE;
}
