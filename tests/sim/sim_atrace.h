/*
 * Tracing state of the simulated device and the `atrace` command.
 * The state (guarded by dev->lock) is what the kernel and atrace keep:
 * tracing on/off, enabled categories, buffer size, the window of time
 * the buffer covers, and the host's trace_marker writes.  Every change
 * rewrites the --state-file atomically.
 */
#ifndef ADBSIM_SIM_ATRACE_H
#define ADBSIM_SIM_ATRACE_H

#include <stdint.h>

#include "sim.h"
#include "sim_fs.h"
#include "sim_tracegen.h"

struct sh_cmd;

struct sim_trace {
    int on;
    int user_initiated;     /* debug.atrace.user_initiated: atrace started, not cleaned up */
    int buffered;           /* the buffer holds events since t_begin */
    uint64_t cats;          /* bit i: sim_category_name(i) enabled */
    int buffer_kb;
    int compress;           /* the last atrace start used -z */
    char apps[256];
    uint64_t t_begin, t_end;
    int atrace_pid;         /* writer of atrace's clock-sync lines */
    uint64_t sync_ns, sync_rt_ms;
    struct sim_marker *markers;
    size_t nmarkers, cap;
    unsigned starts, stops, dumps;
    /* atrace --stream: sessions, and what they served (events = lines of
     * trace, LOST lines not counted) or let the kernel overwrite */
    unsigned streams;
    uint64_t stream_events, stream_bytes, stream_lost;
    /* perfetto sessions: recording now, started, finalised, killed; the
     * last config (sim_perfetto.c) */
    int pf_running;
    unsigned pf_sessions, pf_finished, pf_killed;
    unsigned long pf_last_crc;          /* the last trace file written: zlib crc32 */
    unsigned long long pf_last_size;
    char pf_config[4096];
};

/* Categories (sim_atrace.c). */
int sim_category_count(void);
const char *sim_category_name(int i);
unsigned sim_category_groups(uint64_t cats);   /* GEN_* */
uint64_t sim_category_tags(uint64_t cats);     /* atrace tag bits */
int sim_category_is_user(int i);

/* State changes (sim_trace.c); each takes dev->lock itself. */
void sim_trace_start(struct sim_device *dev, uint64_t cats, int buffer_kb,
                     int compress, const char *apps, int atrace_pid);
void sim_trace_stop(struct sim_device *dev);
void sim_trace_cleanup(struct sim_device *dev);   /* categories off */
void sim_trace_clear(struct sim_device *dev);     /* empty the buffer */
/* Write the buffered trace, text or a zlib stream, to out (honours
 * --disconnect-after on the shell's stream, --trace-file, --size-mb).
 * -1 when the reader went away. */
int sim_trace_dump(struct sh_cmd *c, struct sim_sink *out, int compress);

struct sim_trace *sim_trace_new(struct sim_device *dev);
void sim_trace_free(struct sim_trace *t);

/* With dev->lock held. */
void sim_trace_write_state(struct sim_device *dev);
uint64_t sim_trace_tags(struct sim_device *dev);

/* Files of the tracefs directory (tracing_on, trace_marker, ...). */
int sim_trace_file_read(struct sim_device *dev, const char *name,
                        struct sim_reader **out);
int sim_trace_file_write(struct sim_device *dev, const char *name, int pid,
                         struct sim_sink **out);

int sim_cmd_atrace(struct sh_cmd *c);

/* atrace ... --stream (sim_stream.c): start tracing, then copy what the
 * kernel records to stdout in real time until a signal or the end of the
 * stream.  Returns the exit status. */
int sim_atrace_stream(struct sh_cmd *c, uint64_t cats, int buffer_kb, const char *apps);
/* Add to the stream counters (takes dev->lock; write: rewrite the state
 * file now). */
void sim_trace_streamed(struct sim_device *dev, uint64_t events, uint64_t bytes,
                        uint64_t lost, int write);

#endif
