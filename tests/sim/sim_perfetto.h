/*
 * `perfetto` on the simulated device (sim_perfetto.c) and the Perfetto
 * trace it writes (sim_pfwrite.c): the same generated kernel activity as
 * an atrace dump (sim_tracegen.c), encoded as binary protobuf the way
 * traced_probes records it.
 */
#ifndef ADBSIM_SIM_PERFETTO_H
#define ADBSIM_SIM_PERFETTO_H

#include <stdint.h>

#include "sim.h"

struct sh_cmd;

#define PF_MAX_ITEMS 64

/* What a TraceConfig asked for (only what the simulator uses). */
struct pf_config {
    uint32_t duration_ms;           /* 0: until stopped */
    uint32_t buffer_kb;
    int compact_sched;
    int process_stats;              /* a linux.process_stats data source */
    char *events[PF_MAX_ITEMS];     /* ftrace_events, "group/name" */
    size_t nevents;
    char *cats[PF_MAX_ITEMS];       /* atrace_categories */
    size_t ncats;
    char *apps[PF_MAX_ITEMS];       /* atrace_apps */
    size_t napps;
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
                   uint64_t begin_ns, uint64_t end_ns, struct sim_sink *out);

int sim_cmd_perfetto(struct sh_cmd *c);

/* 0, or a negative errno when reading path is refused: before Android 10
 * adbd's sync cannot open /data/misc/perfetto-traces (by_sync; the
 * shell's cat can), --perfetto-unreadable refuses both. */
int sim_pf_read_refused(struct sim_device *dev, const char *path, int by_sync);

/* Sessions recording now (for /proc/PID and the state file). */
int sim_perfetto_running(struct sim_device *dev, int pid);

#endif
