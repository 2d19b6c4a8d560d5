/*
 * Configuring the kernel for one host capture (catapult-systrace.md §12,
 * with atrace's -k): tracing off, buffer size (-b, default 4096 KB per
 * CPU as catapult), trace clock (mono, so trace times are the host's
 * CLOCK_MONOTONIC; else catapult's global), no overwrite (catapult),
 * options/record-tgid when the kernel has it, the events, the function
 * tracer for -k (filter first, so it never traces every function), an
 * empty buffer.  Every write goes through tracefs_set, so at
 * the top level each change is saved for the restore.
 *
 * Also the per-CPU ring-buffer counters (per_cpu/cpuN/stats) that say
 * whether the kernel lost events.
 */
#ifndef SYSTRACE_FTRACE_SETUP_H
#define SYSTRACE_FTRACE_SETUP_H

#include <stdint.h>

#include "agents/capture.h"
#include "ftrace_cats.h"
#include "ftrace_fs.h"

#define FTRACE_DEFAULT_BUF_KB 4096
/* --stream without -b: the buffer is only slack for the moments the reader
 * falls behind (descheduled, waiting for the spool writer), and 4 MB per
 * CPU filled in such moments under a ping-pong load (BENCHMARKS.md) where
 * 16 MB never did; 256 MB in all at most, never less than the default. */
#define FTRACE_STREAM_BUF_KB 16384
#define FTRACE_STREAM_BUF_TOTAL_KB (256 * 1024)

/* The default -b for ncpu CPUs. */
int ftrace_default_buf_kb(int stream, long ncpu);

enum ftracer { FT_NOP, FT_FUNCTION, FT_GRAPH };

struct fsetup {
    int tgid_col;           /* lines carry a TGID column (record-tgid on) */
    enum ftracer tracer;
    int buf_kb;
    char clock[16];
};

/* ST_EINVAL with c->err for a bad -k; other errors detail in c->err. */
enum st_err ftrace_configure(struct capture *c, struct tracefs *t, const struct evlist *ev,
                             struct fsetup *out);

struct kstats {
    uint64_t entries, overrun, commit_overrun, dropped, read;
    int cpus;
};

/* Sum of per_cpu/cpu* /stats of t's directory. */
void ftrace_read_stats(struct tracefs *t, struct kstats *s);
uint64_t kstats_lost(const struct kstats *s);

#endif
