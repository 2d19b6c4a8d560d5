/*
 * --stream: one thread per CPU reads that CPU's trace_pipe
 * (per_cpu/cpuN/trace_pipe) while tracing and appends it to its own spool
 * file, so a capture of any length keeps every event the ring buffer would
 * otherwise drop; the spools are merged by timestamp afterwards
 * (ftrace_merge.h).  The kernel formats the text, so reading is CPU work:
 * one reader per CPU spreads it over the machine (a single trace_pipe
 * reader tops out near one CPU's worth, ~350k events/s).
 *
 * Each thread sleeps in poll() until its CPU has data, reads all there is,
 * then pauses 50 ms unless it read a lot (so its own wakeups do not fill a
 * quiet trace).  It fills one of two buffers while one spool writer thread
 * (shared by all readers) writes the other, so the reader's time goes to
 * the pipe; memory is two buffers per reader (1 MiB each, less with many
 * CPUs; 8 MiB in all at most).  The threads run at nice -10 so a loaded
 * machine does not starve them, with signals blocked (the main thread
 * handles Ctrl-C and SIGTERM).
 *
 * Stop drains: tracing must already be off, then every thread reads until
 * its pipe is empty, closes it (so the tracing instance can be removed)
 * and flushes its spool.
 */
#ifndef SYSTRACE_FTRACE_STREAM_H
#define SYSTRACE_FTRACE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

struct fstream;

/* One reader for each pipes[i], writing spools[i] (created, truncated).
 * On failure *out is NULL and err holds the reason. */
enum st_err fstream_start(char *const *pipes, char *const *spools, size_t n,
                          struct fstream **out, char *err, size_t errlen);
/* Drain the pipes and stop.  ST_EIO if writing a spool failed (detail in
 * fstream_error).  Idempotent. */
enum st_err fstream_stop(struct fstream *s);
/* Stop without draining (error paths).  NULL is a no-op. */
void fstream_abort(struct fstream *s);
uint64_t fstream_bytes(const struct fstream *s);
const char *fstream_error(const struct fstream *s);
/* Frees (aborting first if still running).  NULL is a no-op. */
void fstream_free(struct fstream *s);

#endif
