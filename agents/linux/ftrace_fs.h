/*
 * The host's tracefs for one run: found at /sys/kernel/tracing, then
 * /sys/kernel/debug/tracing, then any tracefs in /proc/self/mounts; when
 * none is mounted (and we are root) mounted on a private temporary
 * directory that is unmounted and removed at the end.
 *
 * Tracing is configured in a private instance (instances/systrace-PID)
 * when the kernel has instances, so the top-level settings, buffer and
 * anyone else's tracing stay untouched; removing the instance undoes
 * everything.  Without instances (or SYSTRACE_FTRACE_INSTANCE=0) the top
 * level is used and every file is saved before its first change
 * (ftrace_kstate.h) and written back at the end; SYSTRACE_FTRACE_DIR=D
 * does the same inside a tracefs directory D someone else made (an
 * instance: how the tests exercise the restore without touching the top
 * level, whose buffer-expanded latch cannot be reset).  Instances and mounts
 * left by a systrace that was killed are removed at the next run.
 *
 * Never prints; failures keep a one-line detail in t->err.
 */
#ifndef SYSTRACE_FTRACE_FS_H
#define SYSTRACE_FTRACE_FS_H

#include <limits.h>

#include "lib/dynbuf.h"
#include "lib/error.h"
#include "ftrace_kstate.h"

#define TRACEFS_INSTANCE_PREFIX "systrace-"
#define TRACEFS_MOUNT_PREFIX "systrace-tracefs-"

struct tracefs {
    char root[PATH_MAX];        /* tracefs top level */
    char dir[PATH_MAX];         /* where this run configures tracing */
    char mnt[PATH_MAX];         /* our private mount point, or "" */
    char inst[PATH_MAX];        /* our instance directory, or "" */
    char on_path[PATH_MAX];     /* dir/tracing_on, for the signal path */
    int mounted_debugfs;        /* mnt holds debugfs, root is mnt/tracing */
    int closed;
    struct kstate saved;
    char notes[512];            /* what the open cleaned up, for the user */
    char err[512];
    int err_no;                 /* errno of the last failed read or write */
};

struct tracefs *tracefs_new(void);
/* Free: restores and closes first.  NULL is a no-op. */
void tracefs_free(struct tracefs *t);

/* Find or mount tracefs.  ST_EPERM: not root (t->err says what is
 * needed); ST_EUNSUPPORTED: the kernel has no tracefs. */
enum st_err tracefs_open(struct tracefs *t);
/* Make the private instance (or stay at the top level); use_instance 0
 * forces the top level. */
enum st_err tracefs_begin(struct tracefs *t, int use_instance);
int tracefs_is_instance(const struct tracefs *t);

/* Put everything back (idempotent): tracing off in our instance, saved
 * values written back, the instance removed.  Returns 0, or -1 with the
 * problem in t->err. */
int tracefs_restore(struct tracefs *t);
/* Restore, then unmount what we mounted. Idempotent. */
int tracefs_close(struct tracefs *t);
/* The signal-handler subset of tracefs_close: no allocation, no stdio. */
void tracefs_emergency(struct tracefs *t);

/* "dir/rel" (or "root/rel"); -1 if it does not fit. */
int tracefs_path(const struct tracefs *t, int top, const char *rel, char *out, size_t n);
int tracefs_has(const struct tracefs *t, int top, const char *rel);
/* Read a small file (at most max bytes) of dir (top: of root). */
enum st_err tracefs_read(struct tracefs *t, int top, const char *rel, struct dynbuf *out);
/* Write without saving (clearing `trace`, writing trace_marker). 0 or
 * an errno value; t->err is set on failure. */
int tracefs_write(struct tracefs *t, int top, const char *rel, const char *value);
/* Change a file of dir; at the top level (or for a top-only file) its
 * value is saved first so tracefs_restore puts it back.  No write when
 * the value is already right. */
enum st_err tracefs_set(struct tracefs *t, int top, const char *rel, const char *value);

#endif
