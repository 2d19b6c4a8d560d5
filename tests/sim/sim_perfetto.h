/*
 * `perfetto` on the simulated device (sim_perfetto.c), the file a session
 * writes (sim_pffile.c) and the Perfetto trace in it (sim_pfwrite.c): the
 * same generated kernel activity as an atrace dump (sim_tracegen.c),
 * encoded as binary protobuf the way traced_probes records it.
 */
#ifndef ADBSIM_SIM_PERFETTO_H
#define ADBSIM_SIM_PERFETTO_H

#include <stdint.h>

#include "sim.h"

struct sh_cmd;
struct sim_marker;

#define PF_MAX_ITEMS 64

/* What a TraceConfig asked for (only what the simulator uses). */
struct pf_config {
    uint32_t duration_ms;           /* 0: until stopped */
    uint32_t buffer_kb;
    int write_into_file;            /* written every period, not at the end */
    uint32_t file_write_period_ms;  /* as given (0: perfetto's default) */
    int compact_sched;
    int process_stats;              /* a linux.process_stats data source */
    char *events[PF_MAX_ITEMS];     /* ftrace_events, "group/name" */
    size_t nevents;
    char *cats[PF_MAX_ITEMS];       /* atrace_categories */
    size_t ncats;
    char *apps[PF_MAX_ITEMS];       /* atrace_apps */
    size_t napps;
    char *sources[PF_MAX_ITEMS];    /* every data source's name, in order */
    size_t nsources;
    uint32_t proc_poll_ms;          /* process_stats_config.proc_stats_poll_ms */
    uint32_t battery_poll_ms;       /* android_power_config */
    int power_rails;                /* android_power_config.collect_power_rails */
};

void pf_config_free(struct pf_config *c);
/* 0, or -1 with a message in err. */
int pf_config_text(const char *p, size_t n, struct pf_config *c, char *err, size_t errlen);
int pf_config_binary(const uint8_t *p, size_t n, struct pf_config *c, char *err,
                     size_t errlen);

/* Write the trace of [begin_ns, end_ns] for cfg to out: system info,
 * process tree, then ftrace bundles (compact sched, print events for the
 * atrace categories, frequency and idle).  -1 when out failed. */
int pf_write_trace(struct sim_device *dev, const struct pf_config *cfg,
                   uint64_t begin_ns, uint64_t end_ns, int app_in_front,
                   struct sim_sink *out);

/* The same trace in pieces (write_into_file): each pf_writer_upto call
 * appends the events up to upto_ns as whole packets (the first call the
 * system info and process tree before them).  live: the events appear as
 * time passes (end_ns UINT64_MAX: until stopped) and are drained, so the
 * buffer size caps nothing.  app_in_front: the launcher was in front
 * when the session began (struct pf_session).  cfg and out must outlive
 * the writer. */
struct pf_writer;
struct pf_writer *pf_writer_new(struct sim_device *dev, const struct pf_config *cfg,
                                uint64_t begin_ns, uint64_t end_ns, int live,
                                int app_in_front, struct sim_sink *out);
int pf_writer_upto(struct pf_writer *w, uint64_t upto_ns);   /* -1: out failed */
void pf_writer_free(struct pf_writer *w);

/* SurfaceFlinger's frame timeline (sim_pfframes.c), for a config with the
 * android.surfaceflinger.frametimeline data source: the frames of the
 * vsyncs in [begin_ns, end_ns] as FrameTimelineEvent packets, each written
 * once its last event is at or before upto_ns.  marks: the device's trace
 * markers (a launch's first frame brings the launcher's frames).  -1 when
 * out failed. */
struct pf_frames;
struct pf_frames *pf_frames_new(const struct sim_device *dev, uint64_t begin_ns,
                                uint64_t end_ns, int app_in_front);
int pf_frames_upto(struct pf_frames *f, uint64_t upto_ns, const struct sim_marker *marks,
                   size_t nmarks, struct sim_sink *out);
void pf_frames_free(struct pf_frames *f);

/* A recording session: sim_perfetto.c starts it, sim_pffile.c records. */
struct pf_session {
    struct sim_device *dev;
    int pid;
    char path[512];
    struct pf_config cfg;
    uint64_t begin_ns;
    /* the launcher was in front at begin_ns: read then, not when the
     * recording thread first runs (a launch may have come by then) */
    int app_in_front;
};

/* Record until duration_ms is over or `kill` signals the session, writing
 * the file as the config says (at the end, or every period with
 * write_into_file); the file is complete and closed on return.  0, or -1
 * when it could not be written; *killed: kill -KILL ended it. */
int pf_record(struct pf_session *s, int *killed);

int sim_cmd_perfetto(struct sh_cmd *c);

/* 0, or a negative errno when reading path is refused: before Android 10
 * adbd's sync cannot open /data/misc/perfetto-traces (by_sync; the
 * shell's cat can), --perfetto-unreadable refuses both. */
int sim_pf_read_refused(struct sim_device *dev, const char *path, int by_sync);

/* Sessions recording now (for /proc/PID and the state file). */
int sim_perfetto_running(struct sim_device *dev, int pid);

#endif
