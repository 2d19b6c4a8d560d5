/*
 * The simulated device's file system.  Ordinary paths live in a private
 * host directory (--fs-dir, default a temp dir removed at exit), so large
 * files (a pulled trace dump) never sit in memory.  Kernel paths are
 * virtual: /proc (from the process table), the tracefs directory
 * (/sys/kernel/tracing, or /sys/kernel/debug/tracing with --debugfs)
 * whose files drive the tracing state, and /dev/null.
 *
 * Paths are normalised lexically (relative to "/", "." and ".." resolved,
 * never above "/") before they touch the host, and opened with
 * O_NOFOLLOW, so nothing outside the root can be reached.
 * Functions return 0 or a negative errno.
 */
#ifndef ADBSIM_SIM_FS_H
#define ADBSIM_SIM_FS_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

#define SIM_PATH_MAX 1024

enum sim_ftype { SIM_F_REG = 1, SIM_F_DIR, SIM_F_CHR };

struct sim_stat {
    int type;
    uint32_t mode;      /* full st_mode bits (type | permissions) */
    uint64_t size;
    int64_t mtime;
    uint64_t ino;
    uint32_t nlink, uid, gid;
};

/* Something to read from: a host file, generated text, a live trace. */
struct sim_reader {
    long (*read)(struct sim_reader *r, void *p, size_t n); /* 0 at end */
    void (*close)(struct sim_reader *r);                   /* frees */
};

struct sim_fs *sim_fs_new(struct sim_device *dev, const char *root,
                          char *err, size_t errlen);
void sim_fs_free(struct sim_fs *fs);

/* Normalise path (absolute or relative to "/") into out. */
int sim_fs_normalize(const char *path, char *out, size_t outlen);

int sim_fs_stat(struct sim_fs *fs, const char *path, struct sim_stat *st);

typedef int (*sim_dir_cb)(void *arg, const char *name,
                          const struct sim_stat *st);
/* Calls cb for each entry (not "." or ".."), sorted by name; a non-zero
 * return from cb stops the walk and is returned. */
int sim_fs_list(struct sim_fs *fs, const char *dir, sim_dir_cb cb, void *arg);

int sim_fs_open_read(struct sim_fs *fs, const char *path,
                     struct sim_reader **out);
/* pid: the writing process (trace_marker events carry it). */
int sim_fs_open_write(struct sim_fs *fs, const char *path, int append,
                      int pid, struct sim_sink **out);
int sim_fs_unlink(struct sim_fs *fs, const char *path);
int sim_fs_mkdir(struct sim_fs *fs, const char *path);
int sim_fs_rmdir(struct sim_fs *fs, const char *path);

/* Expand a shell glob pattern (absolute or relative); matches are
 * delivered sorted, as full paths.  Returns the number of matches or a
 * negative errno; stops (and returns it) if cb returns non-zero. */
int sim_fs_glob(struct sim_fs *fs, const char *pattern,
                int (*cb)(void *arg, const char *path), void *arg);

/* The tracefs directory of this device. */
const char *sim_fs_tracing_dir(const struct sim_fs *fs);

/* A reader over a private copy of n bytes. */
struct sim_reader *sim_reader_mem(const void *p, size_t n);
/* A sink appending to a dynbuf; close() calls done(arg, data, len) and
 * frees the sink. */
struct sim_sink *sim_sink_collect(size_t max,
                                  void (*done)(void *arg, const char *data,
                                               size_t len),
                                  void *arg);

#endif
