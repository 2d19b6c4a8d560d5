/*
 * One device's part of a live capture: connect (through the adb server or
 * directly), probe, open its outputs, start its agents, collect and write
 * its page.  cmd_live.c runs one of these on its own thread, or several
 * side by side (one per device, -e ... -e, --all-devices); nothing here
 * knows how many there are, beyond naming the outputs after the serial.
 *
 * Every step prints its own failure ("systrace: WHO: DETAIL") and leaves a
 * short outcome for the summary of a several-device run.
 */
#ifndef SYSTRACE_DEVRUN_H
#define SYSTRACE_DEVRUN_H

#include "adb/adb.h"
#include "controller.h"
#include "options.h"
#include "result.h"
#include "ui.h"

struct viewer;

struct devrun {
    struct st_options o;        /* a copy whose output names are this device's */
    const char *want;           /* the serial asked for, or NULL: adb's choice */
    int several;                /* one of several devices: names carry the serial */
    struct capture_opts copt;
    struct capture c;
    struct ui_dev ud;
    struct adb_client *client;
    struct adb_device *dev;
    struct result res;
    struct ctl *ctl;
    int cancel[2];              /* own cancel pipe (several devices), else -1 */
    int started;                /* tracing started: the device must be stopped */
    int collected;              /* collected: the page can be written */
    int rc;                     /* this device's exit code */
    char outcome[600];          /* one line for the summary */
    char stop_cmd[300];         /* adb -s SERIAL shell atrace --async_stop, or the agent's */
    char stop_hint[360];
    char *out_path, *te_path;   /* owned, when named after the serial or
                                 * picked because the default exists */
    char *sum_path;             /* --summary FILE named after the serial */
    int quiet_asked;            /* -q (several devices are quiet but for the
                                 * summary lines) */
    char sum_prefix[80];        /* "SERIAL: " before a several-device run's
                                 * summary lines */
    char *taken;                /* that existing default name, or NULL */
};

/* cancel_fd: the fd its adb calls watch (-1: a pipe of its own, which
 * devrun_cancel writes).  Returns 0 or -1 (out of memory). */
int devrun_init(struct devrun *d, const struct st_options *o, const char *want, int several,
                int cancel_fd, struct ui *u);
void devrun_free(struct devrun *d);

/* Open the device: through the server, or directly (direct != 0;
 * server_err: why the server was not used, for the message). */
int devrun_connect(struct devrun *d, int direct, const char *server_err);
/* -l for this device. */
int devrun_list(struct devrun *d);
/* Outputs (checked before tracing), agents, start.  viewer: loaded once
 * for all devices, or NULL. */
int devrun_start(struct devrun *d, const struct viewer *v);
/* Clock sync, stop, collect. */
int devrun_collect(struct devrun *d);
/* Write the page of what was collected (after the collection's own
 * messages). */
int devrun_commit(struct devrun *d);
/* After a failure elsewhere: stop tracing, write nothing. */
void devrun_abort(struct devrun *d, enum st_err why);
/* Make this device's blocking calls return (its own pipe only). */
void devrun_cancel(struct devrun *d);

/* "SERIAL" made safe for a file name: anything but letters, digits, '.',
 * '_' and '-' becomes '_'. */
void devrun_safe_serial(const char *serial, char *out, size_t n);

#endif
