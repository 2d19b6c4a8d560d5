/*
 * The simulated device's processes and threads: one static table that
 * `ps`, /proc and the trace generator all use, so a trace's pids, tids
 * and names agree with what the device lists.
 */
#ifndef ADBSIM_SIM_PS_H
#define ADBSIM_SIM_PS_H

#include <stddef.h>

#include "lib/dynbuf.h"

/* What a thread writes to trace_marker, by atrace category group. */
enum sim_role {
    ROLE_NONE = 0,
    ROLE_SF,            /* surfaceflinger main: gfx */
    ROLE_SF_VSYNC,      /* surfaceflinger vsync threads: gfx counters */
    ROLE_RENDER_ENGINE, /* gfx */
    ROLE_UI,            /* app main thread: view, input, am, res */
    ROLE_RENDER,        /* RenderThread: gfx, view */
    ROLE_GC,            /* HeapTaskDaemon: dalvik */
    ROLE_AM,            /* ActivityManager: am, ss */
    ROLE_WM,            /* android.anim / display: wm */
    ROLE_INPUT,         /* InputDispatcher/Reader: input */
    ROLE_BINDER,        /* binder threads: aidl, binder, any other tag */
    ROLE_AUDIO,         /* audio, hal */
    ROLE_KERNEL,        /* kernel workers: no markers */
};

struct sim_thread {
    int tid;
    const char *comm;   /* at most 15 characters, as the kernel keeps */
    int prio;           /* kernel prio shown in sched events */
    enum sim_role role;
};

struct sim_proc {
    int pid, ppid;
    const char *user;
    const char *name;   /* argv[0] ("" for kernel threads) */
    const char *exe;    /* basename of /proc/PID/exe ("" for kernel) */
    unsigned vsz_kb, rss_kb;
    const char *wchan;
    char state;
    size_t nthreads;
    const struct sim_thread *threads;   /* threads[0].tid == pid */
};

size_t sim_proc_count(void);
const struct sim_proc *sim_proc_at(size_t i);
const struct sim_proc *sim_proc_find(int pid);
const struct sim_thread *sim_thread_find(const struct sim_proc *p, int tid);

/* /proc/PID/FILE (tid 0) or /proc/PID/task/TID/FILE text; -ENOENT. */
int sim_proc_text(int pid, int tid, const char *file, struct dynbuf *out);

struct sh_cmd;
int sim_cmd_ps(struct sh_cmd *c);

#endif
