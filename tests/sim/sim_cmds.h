/*
 * Builtin commands shared between the simulator's command files
 * (sim_cmds.c dispatches; see there for the list).
 */
#ifndef ADBSIM_SIM_CMDS_H
#define ADBSIM_SIM_CMDS_H

#include "sim_shell.h"

/* sim_cmds_fs.c */
int sim_cmd_test(struct sh_cmd *c);
int sim_cmd_cat(struct sh_cmd *c);
int sim_cmd_grep(struct sh_cmd *c);
int sim_cmd_ls(struct sh_cmd *c);
int sim_cmd_mkdir(struct sh_cmd *c);
int sim_cmd_rm(struct sh_cmd *c);

/* sim_props.c */
int sim_cmd_getprop(struct sh_cmd *c);
int sim_cmd_setprop(struct sh_cmd *c);

/* sim_am.c */
int sim_cmd_am(struct sh_cmd *c);
struct sim_trace;
/* A trace_marker line written by thread tid at ts_ns (call with dev->lock
 * held, then sim_sort_markers once). */
void sim_add_marker(struct sim_trace *t, int tid, int cpu, const char *comm, uint64_t ts_ns,
                    const char *text);
void sim_sort_markers(struct sim_trace *t);

/* sim_launch.c: am start / am force-stop, pm, cmd package, input */
int sim_launch_am(struct sh_cmd *c);
/* A launch's time to first frame: base_ms with --slow-launch and
 * --launch-spread applied (sim_launch_time.c); call under dev->lock. */
unsigned sim_launch_ms(const struct sim_device *dev, unsigned base_ms);
int sim_cmd_pm(struct sh_cmd *c);
int sim_cmd_cmd(struct sh_cmd *c);
int sim_cmd_input(struct sh_cmd *c);
int sim_cmd_logcat(struct sh_cmd *c);
/* 1 when name is the launchable app's process and it is not running. */
int sim_launch_gone(struct sim_device *dev, const char *name);

/* sim_tail.c */
int sim_cmd_tail(struct sh_cmd *c);

/* sim_kill.c */
int sim_cmd_kill(struct sh_cmd *c);

#endif
