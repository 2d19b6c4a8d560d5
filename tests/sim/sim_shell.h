/*
 * A small, bounded POSIX-shell subset: enough for the command strings
 * systrace and catapult send (see docs/simulator.md for the grammar).
 * Commands are builtins (sim_cmds.c); nothing runs on the host.
 */
#ifndef ADBSIM_SIM_SHELL_H
#define ADBSIM_SIM_SHELL_H

#include <stddef.h>

#include "sim.h"
#include "sim_fs.h"

struct sim_stream;

/* Where stdin comes from (shell v2 stdin messages, raw stream bytes). */
struct sim_stdin {
    long (*read)(struct sim_stdin *in, void *p, size_t n); /* 0: EOF */
};

#define SH_MAX_VARS 64

struct sh_var {
    char *name;
    char *value;
};

struct sim_shell {
    struct sim_device *dev;
    struct sim_stream *stream;  /* for cancellation and dropping; or NULL */
    struct sim_stdin *in;
    int pid;                    /* this shell's simulated pid ($$) */
    int status;                 /* $? */
    int exiting;                /* `exit` ran */
    int execing;                /* `exec CMD`: CMD runs as this shell's pid */
    int depth;                  /* nested sh -c / subshells */
    size_t nvars;
    struct sh_var vars[SH_MAX_VARS];
};

/* A running builtin. */
struct sh_cmd {
    struct sim_shell *sh;
    int argc;
    char **argv;
    struct sim_sink *out;
    struct sim_sink *err;
    struct sim_stdin *in;
};

void sim_shell_init(struct sim_shell *sh, struct sim_device *dev,
                    struct sim_stream *stream, struct sim_stdin *in);
void sim_shell_fini(struct sim_shell *sh);

/* Parse and run one command string; returns its exit status.  Syntax
 * errors print "sh: ..." on err and give status 2. */
int sim_shell_run(struct sim_shell *sh, const char *cmd,
                  struct sim_sink *out, struct sim_sink *err);

/* Non-zero when the command should stop (stream closed, SIGTERM). */
int sim_shell_cancelled(struct sim_shell *sh);
/* Cancellation callback for sim_sleep(). */
int sim_shell_cancel_cb(void *sh);

const char *sim_shell_getvar(struct sim_shell *sh, const char *name);
int sim_shell_setvar(struct sim_shell *sh, const char *name,
                     const char *value);

/* Run a builtin (sim_cmds.c); 127 with "sh: NAME: not found" if none. */
int sim_cmd_run(struct sh_cmd *c);

/* The error text for a negative errno, as toybox prints it. */
const char *sim_errstr(int neg_errno);

#endif
