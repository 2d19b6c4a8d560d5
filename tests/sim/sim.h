/*
 * adbsim: a simulated Android device speaking the ADB wire protocol on
 * loopback TCP, for end-to-end tests and the demo (docs/simulator.md).
 *
 * Shared declarations: options, the device (state every connection sees:
 * virtual file system, tracing state, log), output sinks, and small
 * helpers.  Threads: one per TCP connection (reads packets) and one per
 * opened stream (runs the service); device state is guarded by dev->lock.
 */
#ifndef ADBSIM_SIM_H
#define ADBSIM_SIM_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/dynbuf.h"
#include "lib/printf.h"

struct sim_opts {
    int port;                   /* 0: pick a free one */
    const char *port_file;
    const char *log_path;
    const char *state_path;
    const char *fs_dir;         /* device file system root; default temp */
    int sdk;
    int no_root;
    int no_z;
    int legacy_ps;
    int no_shell_v2;
    int debugfs;
    int old_protocol;
    int crlf;                   /* shell: output through a PTY (\r\n) */
    int overflow;
    int no_stream;              /* atrace without --stream (before Android 7) */
    int no_tail_follow;         /* tail knows no -f */
    int no_perfetto;            /* no perfetto binary (a vendor build without it) */
    int tail_noise;             /* tail -f warns first: 1 on stderr, 2 on stdout */
    int traced_off;             /* persist.traced.enable=0 (Android 9/10 off Pixel) */
    int tracing_on_at_boot;     /* tracing_on=1 with no atrace (some phones boot so) */
    int drop_markers;           /* trace_marker writes succeed but vanish */
    uint64_t disconnect_after;  /* bytes of atrace dump; 0 = never */
    uint64_t disconnect_later;  /* the same for the second and later dumps
                                 * ("B,B2"); 0 = as the first */
    uint64_t disconnect_pull_after; /* bytes of a sync RECV; 0 = never */
    uint64_t pf_drop_ms;        /* the link drops this far into a perfetto
                                 * session; 0 = never */
    int pf_unreadable;          /* perfetto-traces files: pull and cat refused */
    int pf_chatty;              /* perfetto warns 80 KB and refuses the config */
    int pf_corrupt;             /* perfetto's trace ends in a malformed packet */
    unsigned pf_flush_ms;       /* a perfetto stopped early takes this long
                                 * to finalise its file before its pid goes */
    unsigned rm_delay_ms;       /* rm takes this long (a slow flash) */
    const char *stall_on;       /* the first command containing these */
    size_t stall_len;           /* bytes (argv's "TEXT:MS")... */
    unsigned stall_ms;          /* ...waits this long before it runs */
    int pf_junk;                /* 64 KiB of 0xff (a varint that never ends)
                                 * after perfetto's system_info packet */
    int64_t reconnect_after_ms; /* after that drop: -1 off (every dump
                                 * drops, nothing else), SIM_NEVER: the
                                 * device stays away, else unreachable
                                 * this long, and only one drop */
    uint64_t rate;              /* bytes per second; 0 = unlimited */
    const char *hang_on;
    unsigned dump_delay_ms;     /* between a dump's " done" and its TRACE: */
    const char *props[8];       /* --prop NAME=VALUE: fixed properties replaced */
    int nprops;
    uint64_t size_mb;           /* 0: size follows the event rate */
    uint64_t long_marker;       /* bytes of one slice name; 0: none */
    unsigned event_rate;        /* generated events per traced second */
    int zlevel;
    uint32_t seed;
    const char *trace_file;
    const char *method_trace;
    const char *exec;           /* run one command locally, no network */
    const char *auth_keys;      /* trusted public keys; NULL: no auth */
    int auth_accept_ms;         /* -1: the prompt is never accepted */
    int launch_never_draws;     /* am start -W: Status: timeout, no first frame */
    int fully_drawn_ms;         /* reportFullyDrawn this long after the first
                                 * frame; -1: the app never reports it */
    int app_stopped;            /* the launchable app is not running at boot */
    unsigned slow_launch_pct;   /* every launch this much longer */
    unsigned launch_spread_pct; /* launches vary: log-normal, sigma in % */
    uint32_t launch_seed;       /* of that variation; 0: --seed's */
};

/* Anything output can go to: a stream, a file, a special file, nothing.
 * write returns 0, or -1 when the reader is gone (stop producing). */
struct sim_sink {
    int (*write)(struct sim_sink *k, const void *p, size_t n);
    int (*close)(struct sim_sink *k);   /* may be NULL; frees the sink */
    int (*flush)(struct sim_sink *k);   /* may be NULL: send what is held */
};

static inline int sink_write(struct sim_sink *k, const void *p, size_t n)
{
    return n ? k->write(k, p, n) : 0;
}

static inline int sink_flush(struct sim_sink *k)
{
    return k->flush ? k->flush(k) : 0;
}
int sink_puts(struct sim_sink *k, const char *s);
int sink_printf(struct sim_sink *k, const char *fmt, ...)
    ST_PRINTF(2, 3);
extern struct sim_sink sim_null_sink;

struct sim_fs;
struct sim_trace;

#define SIM_MAX_PROFILES 8

/* An `am profile start` session waiting for its stop. */
struct sim_profile {
    int active;
    int pid;
    char file[256];
    uint64_t start_ns;
};

#define SIM_MAX_SETPROPS 32

struct sim_setprop {
    char key[96];
    char value[96];
};

#define SIM_NEVER INT64_MAX

/* Commands that run until signalled (atrace --stream), for `kill`. */
#define SIM_MAX_RUNNING 64

struct sim_running {
    int pid;                    /* 0: free slot */
    int sig;                    /* pending signal, 0: none */
    int perfetto;               /* a perfetto session (/proc/PID) */
    const char *comm;           /* static; pidof lists it by this name */
};

struct sim_device {
    struct sim_opts opt;
    pthread_mutex_t lock;   /* guards trace state, profiles, props, pids */
    struct sim_profile profiles[SIM_MAX_PROFILES];
    struct sim_setprop props[SIM_MAX_SETPROPS];
    size_t nprops;
    struct sim_fs *fs;
    struct sim_trace *trace;
    FILE *log;
    pthread_mutex_t log_lock;
    int next_pid;               /* pids for shell sessions */
    struct sim_running running[SIM_MAX_RUNNING];    /* guarded by lock */
    /* --reconnect-after: the link is down until this CLOCK_MONOTONIC ns
     * (0: up; UINT64_MAX: for good); guarded by lock */
    uint64_t down_until_ns;
    unsigned link_drops;
    /* the launchable app (sim_launch.c), guarded by lock: its process
     * runs; its activity: 0 none, 1 in the background, 2 in front */
    int app_alive, app_activity;
    unsigned launches;
    /* when the app reported fully drawn (logcat's "Fully drawn"), the
     * last SIM_FULLY_DRAWN_MAX; ms after the intent */
#define SIM_FULLY_DRAWN_MAX 16
    uint64_t fully_drawn_ns[SIM_FULLY_DRAWN_MAX];
    unsigned fully_drawn_ms[SIM_FULLY_DRAWN_MAX];
    unsigned nfully_drawn;
    int stalled;                /* --stall-on spent; guarded by lock */
};

/* The link is gone (--reconnect-after): every connection is dropped and
 * the device refuses new ones until the configured time has passed.
 * Call without dev->lock. */
void sim_link_drop(struct sim_device *dev, uint64_t after_bytes);
/* 1 while the link is down (new connections are refused). */
int sim_link_down(struct sim_device *dev);

extern atomic_int sim_stopping;

/* One line to the --log file (no-op without it); newlines in the text
 * are escaped so one event stays one line. */
void sim_log(struct sim_device *dev, const char *kind, const char *text);

uint64_t sim_now_ns(void);          /* CLOCK_MONOTONIC */
uint64_t sim_realtime_ms(void);

/* Sleep up to ns; returns early (-1) when cancel(arg) says so or the
 * simulator is stopping. */
int sim_sleep(uint64_t ns, int (*cancel)(void *), void *arg);

/* Strict decimal parse of a whole string; -1 on error. */
int sim_parse_u64(const char *s, uint64_t *out);

/* A fresh pid for a shell session (realistic range). */
int sim_alloc_pid(struct sim_device *dev);

/* The process table of long-running commands (sim_kill.c): a command
 * registers its pid while it runs and polls for a signal `kill` sent it.
 * sim_run_start returns -1 when the table is full. */
int sim_run_start(struct sim_device *dev, int pid);
int sim_run_signal(struct sim_device *dev, int pid);   /* pending, 0: none */
/* The name `pidof` finds it by (static; perfetto, tail). */
void sim_run_set_comm(struct sim_device *dev, int pid, const char *comm);
void sim_run_end(struct sim_device *dev, int pid);

#endif
