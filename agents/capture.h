/*
 * State shared by the agents of one capture: the settings, the device,
 * what was learnt about it, the clock sync, and the hooks through which
 * agents talk to the user (the CLI owns all printing; agents only call
 * these).  Failure details go into `err` as one line without the
 * "systrace:" prefix.
 */
#ifndef SYSTRACE_CAPTURE_H
#define SYSTRACE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "lib/printf.h"

struct tracewriter;

struct adb_device;
struct fairlock;
struct tracefs;

enum capture_target { TARGET_ANDROID, TARGET_LINUX };

/* What the user asked of a capture, filled by the tool from its command
 * line (catapult's meanings: -t, -b, -k, -a, categories, --no-compress). */
struct capture_opts {
    enum capture_target target;
    int time_s;                 /* -1: not given; whole seconds, rounded up */
    long time_ms;               /* -t as given, in ms; -1: not given */
    int buf_kb;                 /* -1: not given */
    int timeout_s;              /* -1: none */
    int collection_timeout_s;   /* -1: none */
    char **categories;
    size_t ncategories;
    int default_categories;     /* none named: the built-in list, whose
                                 * unavailable ones are dropped silently */
    const char *kfuncs;         /* -k */
    const char *apps;           /* -a */
    int compress;
    const char *app_profile;    /* process to method-trace, or NULL */
    int app_profile_sampling;   /* µs; 0: instrumented */
    int stream;                 /* read the trace while tracing (linux: the
                                 * per-CPU trace_pipes; android: atrace --stream) */
    int perfetto;               /* android: record with the device's perfetto */
    unsigned pf_sources;        /* --perfetto: data sources beyond ftrace (PF_SRC_*,
                                 * from the presets) */
    /* --perfetto-config: the user's TraceConfig as read (checked by
     * pfconfig_user_check), its file name for messages; NULL: none */
    const char *pf_config;
    size_t pf_config_len;
    const char *pf_config_name;
    const char *launch;         /* --launch PKG[/ACTIVITY] (checked), or NULL */
    int launch_mode;            /* LAUNCH_* */
};

enum { LAUNCH_COLD, LAUNCH_WARM, LAUNCH_HOT };

/* Perfetto data sources a preset asks for (agents/android/perfetto/pfconfig.h) */
enum {
    PF_SRC_FRAMETIMELINE = 1,   /* android.surfaceflinger.frametimeline */
    PF_SRC_PACKAGES = 2,        /* android.packages_list */
    PF_SRC_PROC_POLL = 4,       /* linux.process_stats polled (RSS, swap, oom_score_adj) */
    PF_SRC_BATTERY = 8,         /* android.power battery counters */
    PF_SRC_POWER_RAILS = 16,    /* android.power collect_power_rails */
};

struct capture_ui {
    /* an informational line (catapult's wording where it has one) */
    void (*note)(void *ctx, const char *fmt, ...) ST_PRINTF(2, 3);
    /* a warning line */
    void (*warn)(void *ctx, const char *fmt, ...) ST_PRINTF(2, 3);
    /* bytes of trace received so far (collection progress) */
    void (*progress)(void *ctx, uint64_t bytes);
    /* a stream's totals so far, while tracing (may be called from the
     * stream's own thread) */
    void (*stream)(void *ctx, uint64_t bytes, uint64_t events);
    void *ctx;
};

struct capture {
    const struct capture_opts *opt;
    struct capture_ui ui;
    const char *serial;         /* for messages */
    struct adb_device *dev;     /* android target */
    int dev_gone;               /* it dropped and did not come back in time:
                                 * no more waiting for it (devcmd.h) */
    int dev_hung;               /* ... or a command got no answer within
                                 * --timeout (dev_gone is set too) */
    /* while a thread of the capture streams from the device: every use of
     * dev takes this lock (devcmd.h does); NULL: only one thread uses it */
    struct fairlock *dev_lock;
    unsigned dev_waits;         /* times it dropped and came back */
    int host;                   /* linux target: this machine's kernel */
    struct tracefs *tfs;        /* linux target: its tracefs (ftrace_fs.h) */
    int sdk;
    char model[64];             /* ro.product.model, "" unknown */
    char release[32];           /* ro.build.version.release */
    char fingerprint[160];      /* ro.build.fingerprint (--rows), "" unknown */
    int root;                   /* adbd runs as root */
    char tracing_dir[64];       /* /sys/kernel/tracing or .../debug/tracing */
    /* what else traces the device (the probe; atrace and Perfetto must not
     * run together, perfetto-recording.md §2) */
    int perfetto_pid;           /* a perfetto session records, else 0 */
    int atrace_user;            /* debug.atrace.user_initiated=1: atrace is on */
    char traced_enable[16];     /* persist.traced.enable */
    /* clock sync: id written into trace_marker, host times (µs, CLOCK_MONOTONIC) */
    char sync_id[40];
    int sync_written;
    int sync_seen;              /* the marker line came back in the trace */
    double sync_issue_us, sync_done_us;
    char **argv;                /* the command line, for the controller part */
    int argc;
    const char *raw_path;       /* where a raw dump is kept if collection fails */
    int raw_kept;               /* --perfetto: this run's trace is kept */
    char *raw_kept_path;        /* ...under this name (an earlier one is never
                                 * replaced); malloc'd, freed by the owner */
    /* the page (NULL: none yet), for an agent that converts while it
     * records (--perfetto); the others write into it only at collect */
    struct tracewriter *page;
    int traced;                 /* every agent started: what is recorded from
                                 * here on is a capture worth keeping */
    /* the trace ended before it was stopped (a stream whose link dropped):
     * the page holds what arrived and the run exits 3; why, and how much */
    char cut_short[600];
    uint64_t cut_bytes;
    int tracing_off;            /* the stop phase left the device known not
                                 * to trace (what is left is host work) */
    /* set by the controller for an agent whose device stops tracing only
     * during collect (atrace --async_stop, once its dump began): called
     * then (once, tracing_off set), so that from there a Ctrl-C need not
     * cost the page either; NULL: none */
    void (*tracing_stopped)(void *ctx);
    void *tracing_ctx;
    /* how a user stops tracing by hand ("adb -s S shell atrace --async_stop"),
     * for messages when systrace cannot; NULL where nothing is left behind */
    const char *stop_hint;
    /* readable when this capture is cancelled (the adb calls of its device
     * watch it); the controller drains it before cleaning up */
    int cancel_fd;
    /* optional: sees every ftrace line the atrace agent collects (set by
     * an agent at create time; formats/atrace/repair.h repair_opts.observe) */
    void (*line_observer)(void *ctx, const char *line, size_t n);
    void *observer_ctx;
    struct dynbuf err;
};

/* Microseconds of CLOCK_MONOTONIC, as catapult's trace_time. */
double capture_now_us(void);

/* A new random UUID4 string (36 chars + NUL). */
void capture_uuid(char out[40]);

/* The warning for lines a conversion cut (formats/atrace/linecut.h); none
 * for 0. */
void capture_warn_cut(struct capture *c, uint64_t lines);

#endif
