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
int sim_cmd_ls(struct sh_cmd *c);
int sim_cmd_mkdir(struct sh_cmd *c);
int sim_cmd_rm(struct sh_cmd *c);

/* sim_props.c */
int sim_cmd_getprop(struct sh_cmd *c);
int sim_cmd_setprop(struct sh_cmd *c);

/* sim_am.c */
int sim_cmd_am(struct sh_cmd *c);

/* sim_tail.c */
int sim_cmd_tail(struct sh_cmd *c);

/* sim_kill.c */
int sim_cmd_kill(struct sh_cmd *c);

#endif
