/*
 * Virtual kernel directories of the simulated file system: /proc (from
 * the process table, sim_ps.c), /sys with the tracefs directory (files
 * served by sim_atrace.c) and /dev/null.  Used only by sim_fs.c.
 */
#ifndef ADBSIM_SIM_VFS_H
#define ADBSIM_SIM_VFS_H

#include "sim_fs.h"

enum sim_vkind { SIM_V_NONE, SIM_V_DIR, SIM_V_FILE, SIM_V_CHR };

struct sim_vnode {
    int kind;
    int id;             /* which directory or file family */
    int pid, tid;
    char name[64];      /* the file name for files */
    char path[128];     /* static /sys directories: their path */
};

struct sim_device *sim_fs_device(const struct sim_fs *fs);

/* 1 when norm (a normalised path) is virtual; vn->kind is SIM_V_NONE
 * if it does not exist. 0 for host paths. */
int sim_vfs_lookup(struct sim_fs *fs, const char *norm, struct sim_vnode *vn);
int sim_vfs_stat(struct sim_fs *fs, const struct sim_vnode *vn,
                 struct sim_stat *st);
int sim_vfs_list(struct sim_fs *fs, const struct sim_vnode *vn,
                 sim_dir_cb cb, void *arg);
int sim_vfs_open_read(struct sim_fs *fs, const struct sim_vnode *vn,
                      struct sim_reader **out);
int sim_vfs_open_write(struct sim_fs *fs, const struct sim_vnode *vn, int pid,
                       struct sim_sink **out);

#endif
