/*
 * --stream: a thread that reads the kernel's trace_pipe while tracing and
 * appends everything to a spool file, so a capture of any length keeps
 * every event the ring buffer would otherwise overwrite or drop.  The
 * thread sleeps in poll() until the kernel has data, reads all there is,
 * then pauses 50 ms (so its own wakeups do not fill the trace) and writes
 * in large blocks; its memory is one fixed buffer.  Signals are blocked in it (the
 * main thread handles Ctrl-C and SIGTERM).
 *
 * Stop drains: tracing must already be off, then the thread reads until
 * the pipe is empty, closes it (so the tracing instance can be removed)
 * and flushes the spool.
 */
#ifndef SYSTRACE_FTRACE_STREAM_H
#define SYSTRACE_FTRACE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct fstream;

/* Open pipe_path and spool_path (created, truncated) and start reading.
 * On failure *out is NULL and err holds the reason. */
enum st_err fstream_start(const char *pipe_path, const char *spool_path, struct fstream **out,
                          char *err, size_t errlen);
/* Drain the pipe and stop.  ST_EIO if writing the spool failed (detail in
 * fstream_error). Idempotent. */
enum st_err fstream_stop(struct fstream *s);
/* Stop without draining (error paths). */
void fstream_abort(struct fstream *s);
uint64_t fstream_bytes(const struct fstream *s);
const char *fstream_error(const struct fstream *s);
/* Frees (aborting first if still running).  NULL is a no-op. */
void fstream_free(struct fstream *s);

#endif
